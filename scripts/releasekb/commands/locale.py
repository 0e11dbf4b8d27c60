"""`releasekb locale LANG`: start the team's own interface strings of a language.

Writes <data folder>/locales/LANG.yaml listing every key (common/locales.py, starter_text): for a
language ReleaseKB ships, to change some of its strings; for another, to translate them all.
"""

from __future__ import annotations

import sys

from releasekb.commands import EXIT_INVALID, EXIT_OK, EXIT_USAGE

NAME = "locale"


def add_arguments(subparsers, shared) -> None:
    locale = subparsers.add_parser(
        NAME,
        help="write a starter file of the interface strings of a language (locales/LANG.yaml in the data folder)",
        parents=shared,
    )
    locale.add_argument("lang", help="a language code CLDR knows, e.g. ja, fr or pt-BR")


def run(args) -> int:
    from releasekb.common import atomic
    from releasekb.common.formatting import is_cldr_language
    from releasekb.common.locales import package_languages, starter_text, team_file
    from releasekb.common.safe_text import visible

    lang = args.lang.removesuffix(".yaml")
    if not is_cldr_language(lang) or "/" in lang or lang.startswith("."):
        print(
            f"releasekb locale: '{visible(lang)}' is not a language code CLDR knows: give one such as ja, fr "
            "or pt-BR; nothing was written",
            file=sys.stderr,
        )
        return EXIT_USAGE
    path = team_file(args.data, lang)
    if path.exists() or path.is_symlink():
        print(f"releasekb locale: {visible(path)} already exists; nothing was written", file=sys.stderr)
        return EXIT_INVALID
    try:
        path.parent.mkdir(exist_ok=True)
    except OSError as error:
        print(
            f"releasekb locale: cannot make the folder {visible(path.parent)} ({visible(error.strerror)})",
            file=sys.stderr,
        )
        return EXIT_INVALID
    atomic.write_text(path, starter_text(lang))
    if lang in package_languages():
        print(f"created {visible(path)}: uncomment the strings to change and edit them; the others keep ReleaseKB's")
    else:
        print(f"created {visible(path)}: translate every text marked TODO (the English ones are shown until then)")
    return EXIT_OK
