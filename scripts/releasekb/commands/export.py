"""`releasekb export`: the generated pages as standalone Markdown in docs/<lang>/, for an engine
that builds the site without the plugin (site/markdown_export.py)."""

from __future__ import annotations

import sys

from releasekb.commands import EXIT_INVALID, EXIT_OK

NAME = "export"


def add_arguments(subparsers, shared) -> None:
    export = subparsers.add_parser(
        NAME,
        help="write the generated pages as Markdown into docs/<lang>/, for an engine without the plugin "
        "(a build never needs them)",
        parents=shared,
    )
    export.add_argument("--config", default="mkdocs.yml", help="MkDocs configuration (default: mkdocs.yml)")


def run(args) -> int:
    """Exit 0 written, 1 invalid data or a link in a generated folder (nothing written through it)."""
    from mkdocs.exceptions import ConfigurationError

    from releasekb.common.safe_text import visible
    from releasekb.site.confined import LinkInTheWay
    from releasekb.site.markdown_export import export_markdown

    try:
        changed = export_markdown(args.config)
    except (LinkInTheWay, ConfigurationError) as error:
        print(f"releasekb export: {error}", file=sys.stderr)
        return EXIT_INVALID
    except FileNotFoundError as error:
        print(f"releasekb export: {visible(error)}", file=sys.stderr)
        return EXIT_INVALID
    for lang, paths in changed.items():
        print(f"{lang}: {len(paths)} file{'s' if len(paths) != 1 else ''} written or removed")
    return EXIT_OK
