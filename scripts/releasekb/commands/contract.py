"""`releasekb contract`: print the URL contract, or compare it with a committed list (--check), or
add to that list what the data now generates (--append). The list only grows: an address once
published must keep resolving, so a committed address the data no longer generates is an error,
never dropped."""

from __future__ import annotations

import sys
from pathlib import Path

from releasekb.commands import EXIT_INVALID, EXIT_OK, EXIT_USAGE

NAME = "contract"


def add_arguments(subparsers, shared) -> None:
    contract = subparsers.add_parser(
        NAME, help="print the URL contract: every address other sites may link to", parents=shared
    )
    target = contract.add_mutually_exclusive_group()
    target.add_argument(
        "--check",
        type=Path,
        metavar="FILE",
        help="compare with a committed list: exit 1 when an address there no longer resolves or a new one is missing",
    )
    target.add_argument(
        "--append", type=Path, metavar="FILE", help="add the addresses the data now generates to FILE (never removes)"
    )


def run(args) -> int:
    from releasekb.common.atomic import check_target
    from releasekb.kb.pipeline import load_catalog
    from releasekb.site.contract import contract_addresses, contract_text, write_list

    if args.append:
        check_target(args.append)  # a pipe, a device or a link: refused before reading (WriteFailed)
    catalog = load_catalog(args.data)
    committed_file = args.check or args.append
    if committed_file is None:
        print(contract_text(catalog), end="")
        return EXIT_OK
    generated = contract_addresses(catalog)
    committed = _committed_addresses(committed_file, create=args.append is not None)
    if committed is None:
        return EXIT_USAGE
    lost = sorted(set(committed) - set(generated))
    new = sorted(set(generated) - set(committed))
    for address in lost:
        print(
            f"{committed_file}: {address}: published, but the data no longer generates it; keep it: give the "
            "entry `former_anchors: [<old id>]`, the feature `aliases: [<old id>]`, or add the page to "
            "`redirects:` in project.yaml",
            file=sys.stderr,
        )
    if args.append:
        write_list(committed_file, sorted({*committed, *generated}))
        print(f"{committed_file}: {len(new)} address{'es' if len(new) != 1 else ''} appended")
    else:
        for address in new:
            print(f"{committed_file}: {address}: not in the list yet", file=sys.stderr)
        if new:
            print(f"append them with `releasekb contract --append {committed_file}`", file=sys.stderr)
    return EXIT_INVALID if lost or (new and not args.append) else EXIT_OK


def _committed_addresses(path: Path, create: bool) -> list[str] | None:
    """The addresses of a committed contract list; [] for a missing one that --append is to create
    (`--check` needs it to exist). None, the reason printed, when it cannot be read: only a
    regular file of at most MAX_LIST_BYTES is."""
    from releasekb.common.regular_files import read_regular_text
    from releasekb.common.safe_text import visible
    from releasekb.site.contract import MAX_LIST_BYTES

    try:
        text = read_regular_text(path, MAX_LIST_BYTES)
    except FileNotFoundError:
        if create:
            return []
        shown = visible(path)
        print(f"{shown}: no such file; start the list with `releasekb contract --append {shown}`", file=sys.stderr)
        return None
    except OSError as error:
        print(f"{visible(path)}: cannot read it ({error.strerror or error})", file=sys.stderr)
        return None
    except UnicodeDecodeError as error:
        print(f"{visible(path)}: not a contract list: not UTF-8 text ({error.reason})", file=sys.stderr)
        return None
    return [line for line in text.splitlines() if line.startswith("/")]
