"""`releasekb translations`: list translations that may be out of date, or mark them reviewed."""

from __future__ import annotations

import sys
from pathlib import Path

from releasekb.commands import EXIT_INVALID, EXIT_OK, EXIT_USAGE

NAME = "translations"


def add_arguments(subparsers, shared) -> None:
    translations = subparsers.add_parser(
        NAME, help="list translations that may be out of date, or mark translations reviewed", parents=shared
    )
    translations.add_argument(
        "--reviewed",
        nargs="*",
        metavar="TARGET",
        help="mark as reviewed: a release file (releases/1.7.yaml; project.yaml's texts are not tracked), "
        "a version (1.7), an entry id "
        "(fast-io, in every release), 1.7:fast-io, or one text (1.7:fast-io.summary)",
    )
    translations.add_argument("--all", action="store_true", help="with --reviewed: mark every text reviewed")


# What `--reviewed` accepts, as its errors say it.
_TARGETS = (
    "name a release file (releases/1.7.yaml), a version (1.7), an entry id (fast-io, in every release), "
    "1.7:fast-io or one text (1.7:fast-io.summary)"
)


def run(args) -> int:
    from releasekb.common.safe_text import visible
    from releasekb.kb.translations import (
        UnknownTarget,
        mark_reviewed,
        missing_texts,
        stale_warnings,
        unrecorded_count,
    )
    from releasekb.kb.validate import load_data

    if args.reviewed is None:
        if args.all:
            print("releasekb translations: --all goes with --reviewed (`--reviewed --all`)", file=sys.stderr)
            return EXIT_USAGE
        data = load_data(args.data)
        warnings = stale_warnings(data)
        for warning in warnings:
            print(warning)
        missing = missing_texts(data)
        for text in missing:  # only with `untranslated: fallback`: otherwise validation refused them
            print(
                text.text.problem_at(data.project.languages[0], f"not yet translated into '{text.lang}': add its text")
            )
        stale = f"{len(warnings)} translation{'s' if len(warnings) != 1 else ''} may be out of date"
        untranslated = f"; {len(missing)} not yet translated" if missing else ""
        print(f"{stale}{untranslated}; {unrecorded_count(data)} not recorded yet (new texts, counted as reviewed).")
        return EXIT_OK
    if bool(args.reviewed) == args.all:
        print("releasekb translations --reviewed: name what to mark (a file, version or id), or --all", file=sys.stderr)
        return EXIT_USAGE
    targets = args.reviewed
    if not args.all:
        # project.yaml (or any file that is not a release file): its texts are not tracked, so it
        # has none to mark; said, and the other targets are marked as asked
        untracked = [target for target in targets if _is_other_file(target)]
        for target in untracked:
            print(
                f"releasekb translations: {visible(target)}: not a release file; only the texts of release "
                "files are tracked, so there is nothing in it to mark",
                file=sys.stderr,
            )
        targets = [target for target in targets if target not in untracked]
        if not targets:
            print("marked 0 texts reviewed")
            return EXIT_OK
    data = load_data(args.data)
    try:
        path, count = mark_reviewed(data, args.data, None if args.all else targets)
    except UnknownTarget as error:
        print(
            f"releasekb translations: '{visible(str(error))}' names no release file, version, entry id or text; "
            f"{_TARGETS}; nothing was marked",
            file=sys.stderr,
        )
        return EXIT_INVALID
    print(f"marked {count} text{'s' if count != 1 else ''} reviewed in {path}")
    return EXIT_OK


def _is_other_file(target: str) -> bool:
    """Whether a TARGET names an existing file that is not a release file (project.yaml)."""
    from releasekb.kb.validate import RELEASE_FILE_PATTERN

    path = Path(target)
    return path.is_file() and not RELEASE_FILE_PATTERN.match(path.name)
