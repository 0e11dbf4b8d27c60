"""`releasekb init`: start a knowledge base for a product in a new or empty folder."""

from __future__ import annotations

import sys
from pathlib import Path

from releasekb.commands import EXIT_INVALID, EXIT_OK, EXIT_USAGE

NAME = "init"


def add_arguments(subparsers, shared) -> None:
    # not `shared`: init makes the data folder, it reads none
    init = subparsers.add_parser(NAME, help="start a knowledge base for your product in a new or empty folder")
    init.add_argument("folder", nargs="?", type=Path, default=Path("."), help="where (default: this folder)")
    init.add_argument("--product", required=True, help="the product's name, as titles show it (e.g. 'Acme DB')")
    init.add_argument("--release", default="1.0", help="the version of the first release file (default: 1.0)")
    init.add_argument(
        "--languages",
        metavar="CODES",
        help="the knowledge base's languages, comma-separated, the default first: en, en,zh, en,ja,zh, zh... "
        "(default: en; project.yaml `languages` can change them later)",
    )


def needs_data(args) -> bool:
    return False


def run(args) -> int:
    from releasekb.common.safe_text import visible
    from releasekb.kb.starter import INIT_LANGUAGES, InitError, init, parse_languages, requirement_note

    try:
        languages = parse_languages(args.languages) if args.languages is not None else INIT_LANGUAGES
    except InitError as error:
        print(f"releasekb init: {error}", file=sys.stderr)
        return EXIT_USAGE
    try:
        written = init(args.folder, args.product, args.release, languages=languages)
    except InitError as error:
        print(f"releasekb init: {error}; nothing was written", file=sys.stderr)
        return EXIT_INVALID
    for path in written:
        print(f"created {path}")
    where = "" if args.folder.resolve() == Path.cwd().resolve() else f"cd {args.folder} && "
    print(
        f"\nNext: {where}releasekb serve, then open http://127.0.0.1:8000/. Replace the entries marked "
        f"`example: true` in releases/{args.release}.yaml (`releasekb validate` lists them)."
    )
    note = requirement_note()
    if note:
        print(f"warning: {visible(note)}", file=sys.stderr)
    return EXIT_OK
