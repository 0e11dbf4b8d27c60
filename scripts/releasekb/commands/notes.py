"""`releasekb notes --check --base REF`: fail a branch that changes what needs a note and adds none."""

from __future__ import annotations

import os
import sys

from releasekb.commands import EXIT_INVALID, EXIT_OK, EXIT_USAGE

NAME = "notes"
# The pull request's labels, comma-separated, as the CI passes them (the workflow `init` writes).
LABELS_VARIABLE = "RELEASEKB_LABELS"


def add_arguments(subparsers, shared) -> None:
    notes = subparsers.add_parser(
        NAME, help="check that a branch adds a note (releases/unreleased/) where project.yaml needs one", parents=shared
    )
    notes.add_argument(
        "--check", action="store_true", required=True, help="check the branch checked out (the only action)"
    )
    notes.add_argument("--base", required=True, help="the branch it merges into, e.g. origin/main")
    notes.add_argument(
        "--labels",
        default=None,
        help=f"the pull request's labels, comma-separated (default: ${LABELS_VARIABLE}); "
        "project.yaml's notes.skip_label among them lets it pass",
    )


def run(args) -> int:
    from releasekb.kb.notes_check import GitFailed, check_branch

    given = args.labels if args.labels is not None else os.environ.get(LABELS_VARIABLE, "")
    labels = [label.strip() for label in given.split(",") if label.strip()]
    try:
        verdict = check_branch(args.data, args.base, labels)
    except GitFailed as error:
        print(f"releasekb notes: {error}", file=sys.stderr)
        return EXIT_USAGE
    print(f"releasekb notes: {verdict.message}", file=sys.stdout if verdict.passed else sys.stderr)
    return EXIT_OK if verdict.passed else EXIT_INVALID
