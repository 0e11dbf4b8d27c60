"""`releasekb new`: start a new release file from a commented skeleton."""

from __future__ import annotations

import sys

from releasekb.commands import EXIT_INVALID, EXIT_OK, EXIT_USAGE

NAME = "new"


def add_arguments(subparsers, shared) -> None:
    new = subparsers.add_parser(NAME, help="start a new release file from a commented skeleton", parents=shared)
    new.add_argument("version", help="the release's version, e.g. 1.8")


def run(args) -> int:
    from releasekb.kb.skeleton import NewReleaseError, write_skeleton

    try:
        path = write_skeleton(args.data, args.version)
    except NewReleaseError as error:
        print(f"releasekb new: {error}; nothing was written", file=sys.stderr)
        return EXIT_USAGE if error.usage else EXIT_INVALID
    print(f"created {path}: replace every TODO (`releasekb validate` lists those left), then validate")
    return EXIT_OK
