"""`releasekb import FORMAT FILE`: a product's history, as a changelog or GitHub's releases, turned
into release files (and its unreleased entries into notes), each entry marked for review."""

from __future__ import annotations

import sys
from pathlib import Path

from releasekb.commands import EXIT_INVALID, EXIT_OK, EXIT_USAGE

NAME = "import"

# The formats, each with the function of history_import.py that reads it.
SOURCE_LIMIT = 64 * 1024 * 1024  # bytes: years of releases are a few MB; more is not a changelog

FORMATS = {"keepachangelog": "read_keepachangelog", "github-releases": "read_github_releases"}


def add_arguments(subparsers, shared) -> None:
    command = subparsers.add_parser(
        NAME,
        help="turn a Keep a Changelog file or GitHub releases JSON into release files, entries marked for review",
        parents=shared,
    )
    command.add_argument(
        "format",
        choices=list(FORMATS),
        help="keepachangelog: a CHANGELOG.md in the Keep a Changelog format; github-releases: the JSON of "
        "`gh api repos/OWNER/REPO/releases --paginate`",
    )
    command.add_argument("file", type=Path, help="the changelog or the JSON file")
    command.add_argument(
        "--area", help="the area of every imported entry (default: 'general', added to project.yaml if missing)"
    )
    command.add_argument(
        "--skip-existing",
        action="store_true",
        help="leave releases that already have a file as they are, and import the others (by default such a "
        "release refuses the whole import)",
    )


def run(args) -> int:
    from releasekb.common.regular_files import read_regular_text
    from releasekb.common.safe_text import visible
    from releasekb.kb import history_import
    from releasekb.kb.history_files import ImportRefused, plan_import, report_lines, write_import

    try:
        text = read_regular_text(args.file, SOURCE_LIMIT)
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        print(
            f"releasekb import: cannot read {visible(args.file)} ({visible(reason)}); nothing was written",
            file=sys.stderr,
        )
        return EXIT_USAGE
    reader = getattr(history_import, FORMATS[args.format])
    try:
        history = reader(text.replace("\r\n", "\n"), str(args.file))
        plan = plan_import(args.data, history, area=args.area, skip_existing=args.skip_existing)
    except history_import.HistoryError as error:
        print(f"releasekb import: {error}; nothing was written", file=sys.stderr)
        return EXIT_USAGE
    except ImportRefused as error:
        ending = "" if "nothing was written" in str(error) else "; nothing was written"
        print(f"releasekb import: {error}{ending}", file=sys.stderr)
        return EXIT_USAGE if error.usage else EXIT_INVALID
    for line in report_lines(history, plan):
        print(line, file=sys.stderr)
    if not plan.files:
        print(
            f"releasekb import: {visible(args.file)} holds no release to import; nothing was written", file=sys.stderr
        )
        return EXIT_INVALID
    write_import(args.data, plan)
    not_placed = len(history.unplaced) + len(plan.unplaced)
    added = f"; area '{plan.area}' added to project.yaml" if plan.area_added else ""
    print(
        f"imported {plan.entry_count} entries into {len(plan.releases)} release files and {len(plan.notes)} notes "
        f"(area '{plan.area}'{added}); {not_placed} parts of {visible(args.file)} not imported (listed above). "
        "`releasekb validate` names each entry to review"
    )
    return EXIT_OK
