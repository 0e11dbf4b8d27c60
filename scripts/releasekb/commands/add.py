"""`releasekb add`: write a note, one entry of the next release in a file of its own (kb/notes.py)."""

from __future__ import annotations

import sys

from releasekb.commands import EXIT_INVALID, EXIT_OK, EXIT_USAGE
from releasekb.kb.model import CHANGE_KINDS

NAME = "add"


def add_arguments(subparsers, shared) -> None:
    add = subparsers.add_parser(
        NAME,
        help="write a note: one entry of the next release, in releases/unreleased/<id>.yaml",
        parents=shared,
    )
    what = add.add_mutually_exclusive_group(required=True)
    what.add_argument("--feature", action="store_true", help="a feature: new, an improvement or a fix")
    what.add_argument("--change", choices=CHANGE_KINDS, metavar="KIND", help=f"a change: {', '.join(CHANGE_KINDS)}")
    add.add_argument("--id", required=True, help="the feature's id (an earlier release's id continues its lifecycle)")
    add.add_argument("--area", help="its area, a key of project.yaml's areas (else a TODO)")
    add.add_argument(
        "--standalone", action="store_true", help="a change of something no release describes as a feature"
    )


def run(args) -> int:
    from releasekb.kb.releasing import finish_interrupted
    from releasekb.kb.skeleton import NewReleaseError, write_note

    if finished := finish_interrupted(args.data):  # a note of the same id may have been released
        print(finished)
    try:
        path = write_note(args.data, args.id, args.area, args.change, standalone=args.standalone)
    except NewReleaseError as error:
        print(f"releasekb add: {error}; nothing was written", file=sys.stderr)
        return EXIT_USAGE if error.usage else EXIT_INVALID
    print(
        f"created {path}: replace every TODO (`releasekb validate` lists those left), then commit it with your change"
    )
    return EXIT_OK
