"""`releasekb bench`: its arguments and its run are the bench's own (bench/measure.py)."""

from __future__ import annotations

from releasekb.bench import measure

NAME = "bench"


def add_arguments(subparsers, shared) -> None:
    bench = subparsers.add_parser(
        NAME,
        help="measure build, serve and search on synthetic data of several sizes, against plain MkDocs",
        parents=shared,
    )
    bench.description = measure.__doc__.split("\n\n")[0]
    measure.add_arguments(bench)


def run(args) -> int:
    return measure.main(args)
