"""The `releasekb` command: the parser and dispatch over the command modules (commands/).

Exit status: 0 success, 1 invalid data (or a failed build), 2 wrong usage; `build` ended by a signal
exits 128 + its number (130 Ctrl-C, 143 SIGTERM).
Data problems are printed one per line as `file:line:col: where: message`, never as a traceback.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import signal
import sys
from pathlib import Path

from releasekb.commands import (
    EXIT_INVALID,
    EXIT_USAGE,
    add,
    bench,
    build,
    check,
    contract,
    export,
    import_,
    init,
    locale,
    new,
    notes,
    query,
    release,
    schema,
    serve,
    translations,
    validate,
)
from releasekb.common.atomic import WriteFailed
from releasekb.common.problems import DataError
from releasekb.common.safe_text import visible
from releasekb.kb.page_kinds import PageKindError
from releasekb.site.engine import EngineError, select

# The commands, in the order `releasekb --help` lists them.
COMMANDS = (
    init,
    validate,
    translations,
    schema,
    build,
    serve,
    export,
    bench,
    query,
    contract,
    new,
    add,
    release,
    notes,
    locale,
    check,
    import_,
)


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)  # argparse exits with 2 on wrong usage
    command = _command(args.command)
    if not args.data.is_dir() and _needs_data(command, args):
        parser.error(
            f"data folder not found: {args.data} (run from the project root, pass --data, "
            "or start a knowledge base with `releasekb init --product NAME`)"
        )
    try:
        if hasattr(args, "engine"):
            args.engine = select(args.engine)
        return command.run(args)
    except EngineError as error:
        parser.error(str(error))
    except DataError as error:
        print(error.report(), file=sys.stderr)
        return EXIT_INVALID
    except PageKindError as error:  # an installed package's page kind: the installation is at fault
        print(f"releasekb {args.command}: {visible(error)}", file=sys.stderr)
        return EXIT_USAGE
    except WriteFailed as error:  # a full disk, a read-only folder, a pipe: the old file is intact
        print(f"releasekb {args.command}: {visible(error)}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:  # Ctrl-C in a command with no handler of its own, or before it set one
        print(f"releasekb {args.command}: interrupted (SIGINT)", file=sys.stderr)
        return 128 + signal.SIGINT


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="releasekb",
        description="Release-notes knowledge base: validate curated YAML and build the site in each of its languages.",
    )
    data_help = "folder with project.yaml and <version>.yaml files (default: releases)"
    parser.add_argument("--data", type=Path, default=Path("releases"), help=data_help)
    # the installed distribution's version: what a bug report or a CI log should name
    version = f"%(prog)s {importlib.metadata.version('releasekb')}"
    parser.add_argument("--version", action="version", version=version)
    # --data is accepted after the command too (`releasekb validate --data docs/releases`), so
    # that tools appending arguments, such as pre-commit's `args:`, can set it.
    data_after = argparse.ArgumentParser(add_help=False)
    data_after.add_argument("--data", type=Path, default=argparse.SUPPRESS, help=data_help)
    subparsers = parser.add_subparsers(title="commands", dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.add_arguments(subparsers, [data_after])
    return parser


def _command(name: str):
    return next(command for command in COMMANDS if command.NAME == name)


def _needs_data(command, args) -> bool:
    """Whether the command reads the data folder: every one, unless its module says otherwise."""
    return command.needs_data(args) if hasattr(command, "needs_data") else True


if __name__ == "__main__":
    sys.exit(main())
