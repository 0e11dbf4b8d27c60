"""`releasekb validate`: check every release file and report all problems."""

from __future__ import annotations

import os
import sys

from releasekb.commands import EXIT_INVALID, EXIT_OK
from releasekb.common.problems import FORMATS, DataError

NAME = "validate"


def add_arguments(subparsers, shared) -> None:
    validate = subparsers.add_parser(NAME, help="check every release file and report all problems", parents=shared)
    validate.add_argument(
        "--strict", action="store_true", help="exit 1 on warnings too (translations that may be out of date)"
    )
    validate.add_argument(
        "--format",
        choices=FORMATS,
        help="text (default), github (workflow annotations; the default when GITHUB_ACTIONS=true) or json",
    )


def run(args) -> int:
    from releasekb.common.problems import github_annotation, json_report
    from releasekb.kb import rules
    from releasekb.kb.notes import NotesAs
    from releasekb.kb.pipeline import load_knowledge_base
    from releasekb.kb.translations import stale_warnings, unrecorded_count
    from releasekb.kb.validate import read_files, unread_release_files

    output = args.format or ("github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text")
    stale: list = []
    try:
        # the notes too (releases/unreleased/), as the entries of the next release
        knowledge_base = load_knowledge_base(read_files(args.data, with_notes=NotesAs()))
        data, catalog = knowledge_base.data, knowledge_base.catalog
    except DataError as error:
        problems, summary = error.problems, None
    else:
        stale = [data.located(problem) for problem in stale_warnings(data)]
        warnings = [data.located(problem) for problem in rules.warnings(data)]
        problems = sorted([*warnings, *unread_release_files(args.data), *stale])
        summary = f"{args.data}: {len(catalog.releases)} releases, {len(catalog.features)} features and changes"
        if data.notes is not None:  # the preview is one of those releases
            count = len(data.notes.notes)
            summary += f" (the next release among them: {count} note{'s' if count != 1 else ''} in unreleased/)"
    errors = [p for p in problems if p.severity == "error"]
    warnings = [p for p in problems if p.severity == "warning"]
    if output == "json":
        print(json_report(problems))
    elif output == "github":
        for problem in problems:
            print(github_annotation(problem))
    if output != "json":
        if errors:
            print(DataError(errors).report(), file=sys.stderr)
        if output == "text":
            for warning in warnings:
                print(warning, file=sys.stderr)
        if summary:
            _print_summary(summary, len(stale), len(warnings) - len(stale), unrecorded_count(data))
    return EXIT_INVALID if errors or (args.strict and warnings) else EXIT_OK


def _print_summary(summary: str, stale: int, other: int, unrecorded: int) -> None:
    said = []
    if stale:
        said.append(
            f"{stale} translation{'s' if stale != 1 else ''} may be out of date (`releasekb translations` lists them)"
        )
    if other:
        said.append(f"{other} {'other ' if stale else ''}warning{'s' if other != 1 else ''}")
    if said:
        print(f"{summary}, no errors; {'; '.join(said)} (warnings above).")
    else:
        print(f"{summary}, no problems.")
    if unrecorded:
        print(
            f"note: {unrecorded} translated text{'s have' if unrecorded != 1 else ' has'} no review record yet; "
            "they count as reviewed and are recorded by `releasekb translations --reviewed <release file>`."
        )
