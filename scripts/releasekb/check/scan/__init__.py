"""Find every use of known API names in a user's source tree, for `releasekb check`.

The scanner knows nothing about releases: it is given fully qualified names (`Target`) and the
top-level packages they live under (`Roots`), and returns where the code uses them (`Use`).
Python files and notebooks are parsed with `ast`, so that aliases, shadowing, strings and
comments are handled the way Python sees them; other files (C++ sources named by `include`)
are searched for whole tokens such as `torch::class_`. A call's use records how it passes its
arguments (`CallArguments`), so that a change that concerns only some calls can be told apart;
relative imports resolve against the package a file is in (found from `__init__.py` files), and
the bodies of module-level functions see the whole module, as they do when they run. A file the
running Python cannot parse is old code, read as it was written: its older syntax rewritten on its
lines, or else by tokens (`ScanResult.read_otherwise` says which).

Everything here is standard library only and every worker argument is picklable, so a large
tree can be scanned in a process pool.

The package, one job per module, from the bottom up: `model` (the public data), `targets` (what
to look for, indexed), `suppressions` (ignore comments), `decoding` (bytes to a syntax tree),
`scopes` (what names stand for), `old_code` (syntax today's Python refuses), `analyzer` (the
Python analysis), `notebooks`, `tokens` (other files), `reading` (a regular file only, within the
size limit, never blocking), `jobs` and `files` (one file), `walk` (finding the files) and `pool`
(running them).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

from releasekb.check.messages import Message
from releasekb.check.scan.jobs import NOT_REGULAR, Job, Outcome
from releasekb.check.scan.model import (
    CONFIDENCE_LEVELS,
    READ_OTHERWISE,
    CallArguments,
    FileError,
    Roots,
    ScanResult,
    Target,
    Use,
)
from releasekb.check.scan.pool import PARALLEL_THRESHOLD, run_jobs
from releasekb.check.scan.targets import COMMON_METHOD_NAMES, build_config
from releasekb.check.scan.walk import DEFAULT_SKIPPED_DIRS, collect, normalise_patterns

__all__ = [
    "CONFIDENCE_LEVELS",
    "COMMON_METHOD_NAMES",
    "DEFAULT_MAX_FILE_SIZE",
    "DEFAULT_SKIPPED_DIRS",
    "PARALLEL_THRESHOLD",
    "CallArguments",
    "FileError",
    "Message",
    "Roots",
    "ScanResult",
    "Target",
    "Use",
    "scan",
]

# A file larger than this is skipped unread: generated code or data of that size takes minutes and
# gigabytes to parse, and is rarely code anyone migrates by hand.
DEFAULT_MAX_FILE_SIZE = 5_000_000


def _use_order(use: Use) -> tuple:
    return (use.path, use.cell or 0, use.line, use.column, use.target.name, use.target.use, use.resolved)


def scan(
    paths: Sequence[Path],
    targets: Iterable[Target],
    roots: Roots,
    *,
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
    confidence: str = "medium",
    jobs: int | None = None,
    max_file_size: int | None = DEFAULT_MAX_FILE_SIZE,
    cache=None,
) -> ScanResult:
    """Every use of `targets` in the Python files, notebooks and `include`d files under `paths`.

    A file that cannot be read, decoded or parsed, or is larger than `max_file_size` bytes (None:
    no limit), becomes a `FileError` and the scan goes on; one that is not a regular file (a pipe,
    a device, a socket, or a link to one) is never opened, and listed in `not_regular`. Uses
    below `confidence` ("high" > "medium" > "low") are left out. A `cache` (cache.ScanCache) gives the outcome of files
    it has seen unchanged and hands the others to the scanner.
    """
    if jobs is not None and jobs < 0:
        raise ValueError(f"jobs must be a positive number of processes, not {jobs}")
    if max_file_size is not None and max_file_size < 0:
        raise ValueError(f"max_file_size must be a number of bytes, not {max_file_size}")
    config = build_config(targets, roots, confidence, max_file_size)
    found, errors = collect(paths, normalise_patterns(include), normalise_patterns(exclude))
    uses: list[Use] = []
    not_regular: list[FileError] = []
    read_otherwise: list[FileError] = []
    counts: Counter[str] = Counter()
    workers = jobs or os.cpu_count() or 1

    def run(some: list[Job]) -> list[Outcome]:
        return run_jobs(some, config, workers)

    for status, file_uses, file_errors in run(found) if cache is None else cache.outcomes(found, config, run):
        counts[status] += 1
        uses.extend(file_uses)
        read_otherwise.extend(note for note in file_errors if note.reason.kind in READ_OTHERWISE)
        problems = [error for error in file_errors if error.reason.kind not in READ_OTHERWISE]
        (not_regular if status == NOT_REGULAR else errors).extend(problems)
    return ScanResult(
        uses=sorted(uses, key=_use_order),
        errors=sorted(errors, key=lambda error: (error.path, error.line, error.message)),
        files_scanned=counts["scanned"],
        files_skipped=counts["skipped"],
        not_regular=sorted(not_regular, key=lambda error: error.path),
        read_otherwise=sorted(read_otherwise, key=lambda error: error.path),
    )
