"""`releasekb release VERSION`: fold the notes (releases/unreleased/) into the release file."""

from __future__ import annotations

import datetime
import sys

from releasekb.commands import EXIT_INVALID, EXIT_OK, EXIT_USAGE

NAME = "release"


def add_arguments(subparsers, shared) -> None:
    release = subparsers.add_parser(
        NAME, help="fold every note of releases/unreleased/ into releases/VERSION.yaml, and remove them", parents=shared
    )
    release.add_argument("version", help="the release's version, e.g. 1.8")
    release.add_argument("--date", help="the release date, YYYY-MM-DD (default: today)")


def run(args) -> int:
    from releasekb.common.problems import DataError
    from releasekb.kb.releasing import release
    from releasekb.kb.skeleton import NewReleaseError

    date = args.date or datetime.date.today().isoformat()
    try:
        released = release(args.data, args.version, date)
    except NewReleaseError as error:
        print(f"releasekb release: {error}; nothing was changed", file=sys.stderr)
        return EXIT_USAGE if error.usage else EXIT_INVALID
    except DataError as error:
        print(error.report(), file=sys.stderr)
        print("releasekb release: fix the notes above first; nothing was changed", file=sys.stderr)
        return EXIT_INVALID
    if released.finished:
        print(released.finished)
    count = len(released.notes)
    print(
        f"created {released.path} from {count} note{'s' if count != 1 else ''} (removed from releases/unreleased/); "
        "write its title "
        "and summary (the TODOs), then `releasekb validate` and `releasekb translations --reviewed "
        f"{args.version}` once every language is written"
    )
    return EXIT_OK
