"""`releasekb build`: validate, then build the site into site/ (replaced only on success)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from releasekb.commands import EXIT_INVALID, EXIT_OK, EXIT_USAGE
from releasekb.site.engine import AUTO, ENGINES

NAME = "build"


def add_arguments(subparsers, shared) -> None:
    build = subparsers.add_parser(
        NAME, help="validate, then build the site into site/ (replaced only on success)", parents=shared
    )
    build.add_argument("--config", default="mkdocs.yml", help="MkDocs configuration (default: mkdocs.yml)")
    build.add_argument("--site-dir", type=Path, default=Path("site"), help="output folder (default: site)")
    build.add_argument(
        "--unreleased",
        action="store_true",
        help="include the notes of releases/unreleased/ as a preview of the next release (never for publishing)",
    )
    add_engine_argument(build)


def add_engine_argument(parser: argparse.ArgumentParser) -> None:
    """--engine, of build and serve (cli.py turns `auto` into the engine installed)."""
    parser.add_argument(
        "--engine",
        choices=(AUTO, *ENGINES),
        default=AUTO,
        help="MkDocs or ProperDocs (default: auto, MkDocs when installed, else ProperDocs)",
    )


def run(args) -> int:
    """Exit 0 built, 1 invalid data or a failed build (the site could not be written), 2 an output
    folder that is the project's own or holds what no build wrote (nothing touched), and 128 + the
    signal's number when interrupted (130 Ctrl-C, 143 SIGTERM), as a shell reports a process the
    signal ended: the build stops its workers and removes its staging folder first."""
    import signal

    from releasekb.common.safe_text import visible
    from releasekb.site.build import BuildFailed, Interrupted, build_site
    from releasekb.site.site_folder import SiteFolderRefused

    show_engine_log(args.engine)
    try:
        return EXIT_OK if build_site(args.config, args.site_dir, unreleased=args.unreleased) else EXIT_INVALID
    except SiteFolderRefused as error:
        print(f"releasekb build: {error}", file=sys.stderr)
        return EXIT_USAGE
    except BuildFailed as error:
        print(f"releasekb build: {error}", file=sys.stderr)
        return EXIT_INVALID
    except Interrupted as interrupted:
        name = signal.Signals(interrupted.signum).name
        print(f"releasekb build: interrupted ({name}); {visible(args.site_dir)} was left as it was", file=sys.stderr)
        return 128 + interrupted.signum


def show_engine_log(engine: str) -> None:
    """MkDocs logs progress ("Serving on ...", rebuilds, warnings) through `logging`; its own
    CLI sets up the handler, which we do not run, so set up the same here (on the engine's
    logger: "mkdocs" or "properdocs")."""
    import logging

    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(levelname)-8s-  %(message)s"))
    logger = logging.getLogger(engine)
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
