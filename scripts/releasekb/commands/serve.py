"""`releasekb serve`: build and serve the site, rebuilding when data or docs change."""

from __future__ import annotations

from releasekb.commands.build import add_engine_argument, show_engine_log

NAME = "serve"


def add_arguments(subparsers, shared) -> None:
    serve = subparsers.add_parser(
        NAME, help="build and serve the site, rebuilding when data or docs change", parents=shared
    )
    serve.add_argument("--config", default="mkdocs.yml", help="MkDocs configuration (default: mkdocs.yml)")
    serve.add_argument("--dev-addr", default="127.0.0.1:8000", help="address to serve on (default: 127.0.0.1:8000)")
    add_engine_argument(serve)


def run(args) -> int:
    from releasekb.kb.notes import NotesAs
    from releasekb.kb.pipeline import load_knowledge_base
    from releasekb.kb.validate import read_files
    from releasekb.serve.server import serve_site

    # fail fast with the same messages as `validate`; serve shows the notes as the next release
    load_knowledge_base(read_files(args.data, with_notes=NotesAs()))

    show_engine_log(args.engine)
    return serve_site(args.config, args.dev_addr)  # once Ctrl-C or SIGTERM stops it
