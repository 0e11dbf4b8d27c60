"""`releasekb schema`: write the JSON Schemas editors use, or check that they are up to date."""

from __future__ import annotations

import sys

from releasekb.commands import EXIT_INVALID, EXIT_OK

NAME = "schema"


def add_arguments(subparsers, shared) -> None:
    schema = subparsers.add_parser(NAME, help="write the JSON Schemas editors use (or --check them)", parents=shared)
    schema.add_argument("--check", action="store_true", help="fail if the written schemas are out of date")


def run(args) -> int:
    from releasekb.kb.schema import write_schemas

    stale = write_schemas(args.data, check=args.check)
    if args.check and stale:
        for path in stale:
            print(f"{path}: out of date; run `releasekb schema` to regenerate it", file=sys.stderr)
        return EXIT_INVALID
    return EXIT_OK
