"""The `releasekb` command: validate, schema, build, serve, new.

Exit status: 0 success, 1 invalid data (or a failed build), 2 wrong usage.
Data problems are printed one per line as `file:line:col: where: message`, never as a traceback.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from releasekb.problems import DataError

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)  # argparse exits with 2 on wrong usage
    if not args.data.is_dir():
        parser.error(f"data folder not found: {args.data} (run from the project root or pass --data)")
    try:
        return args.run(args)
    except DataError as error:
        print(error.report(), file=sys.stderr)
        return EXIT_INVALID


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="releasekb",
        description="Release-notes knowledge base: validate curated YAML and build the bilingual site.",
    )
    parser.add_argument(
        "--data",
        type=Path,
        default=Path("releases"),
        help="folder with project.yaml and <version>.yaml files (default: releases)",
    )
    commands = parser.add_subparsers(title="commands", required=True, metavar="COMMAND")

    validate = commands.add_parser("validate", help="check every release file and report all problems")
    validate.set_defaults(run=_validate)

    schema = commands.add_parser("schema", help="write the JSON Schemas editors use (or --check them)")
    schema.add_argument("--check", action="store_true", help="fail if the written schemas are out of date")
    schema.set_defaults(run=_schema)

    build = commands.add_parser("build", help="validate, then build the site into site/ (replaced only on success)")
    build.add_argument("--config", default="mkdocs.yml", help="MkDocs configuration (default: mkdocs.yml)")
    build.add_argument("--site-dir", type=Path, default=Path("site"), help="output folder (default: site)")
    build.set_defaults(run=_build)

    serve = commands.add_parser("serve", help="build and serve the site, rebuilding when data or docs change")
    serve.add_argument("--config", default="mkdocs.yml", help="MkDocs configuration (default: mkdocs.yml)")
    serve.add_argument("--dev-addr", default="127.0.0.1:8000", help="address to serve on (default: 127.0.0.1:8000)")
    serve.set_defaults(run=_serve)

    new = commands.add_parser("new", help="start a new release file from a commented skeleton")
    new.add_argument("version", help="the release's version, e.g. 1.8")
    new.set_defaults(run=_new)
    return parser


def _validate(args) -> int:
    from releasekb.catalog import build_catalog
    from releasekb.validate import load_data

    catalog = build_catalog(load_data(args.data))
    print(f"{args.data}: {len(catalog.releases)} releases, {len(catalog.features)} features and changes, no problems.")
    return EXIT_OK


def _schema(args) -> int:
    from releasekb.schema import write_schemas

    stale = write_schemas(args.data, check=args.check)
    if args.check and stale:
        for path in stale:
            print(f"{path}: out of date; run `releasekb schema` to regenerate it", file=sys.stderr)
        return EXIT_INVALID
    return EXIT_OK


def _build(args) -> int:
    from releasekb.site import build_site

    _show_mkdocs_log()
    return EXIT_OK if build_site(args.config, args.site_dir) else EXIT_INVALID


def _show_mkdocs_log() -> None:
    """MkDocs logs progress ("Serving on ...", rebuilds, warnings) through `logging`; its own
    CLI sets up the handler, which we do not run, so set up the same here."""
    import logging

    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(levelname)-8s-  %(message)s"))
    logger = logging.getLogger("mkdocs")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)


def _serve(args) -> int:
    from releasekb.validate import load_data

    load_data(args.data)  # fail fast with the same messages as `validate`
    from releasekb.site import serve_site

    _show_mkdocs_log()
    serve_site(args.config, args.dev_addr)
    return EXIT_OK


def _new(args) -> int:
    from releasekb.skeleton import write_skeleton

    path = write_skeleton(args.data, args.version)
    print(f"created {path}; fill in the texts, then run `releasekb validate`")
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
