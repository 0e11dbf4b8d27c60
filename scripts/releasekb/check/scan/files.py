"""Scanning one file: read it (unless it is over the size limit), and hand it to the scanner its
kind needs."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator
from pathlib import Path

from releasekb.check.messages import message
from releasekb.check.scan.analyzer import scan_python
from releasekb.check.scan.jobs import SKIPPED, Job, Outcome, failed
from releasekb.check.scan.notebooks import scan_notebook
from releasekb.check.scan.targets import (
    Config,
)
from releasekb.check.scan.tokens import scan_tokens


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """A syntax tree is many small objects without cycles; not collecting while it is built saves ~10%."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def scan_one(job: Job, config: Config) -> Outcome:
    """Read one file and scan it with the scanner its kind needs; never raises for a bad file."""
    path = Path(job.path)
    try:
        size = path.stat().st_size  # before reading: a file over the limit is never read
        if config.max_file_size is not None and size > config.max_file_size:
            return failed(job.rel, 1, message("too_large", size=size, limit=config.max_file_size))
        data = path.read_bytes()
    except OSError as error:
        return failed(job.rel, 1, message("unreadable_file", why=str(error.strerror or error)))
    with _collector_paused():
        return _scan_data(job, data, config)


def _in_a_root_package(job: Job, config: Config) -> bool:
    """A file of a root's own package (the tree holds `torchvision/`) can reach the root by relative
    imports alone, without naming it."""
    return job.package is not None and job.package.split(".")[0] in config.python_roots


def _scan_data(job: Job, data: bytes, config: Config) -> Outcome:
    if job.kind == "tokens":
        return scan_tokens(job, data, config)
    if config.python_prefilter is None:
        return SKIPPED
    if not config.python_prefilter.search(data) and not _in_a_root_package(job, config):
        return SKIPPED
    if job.kind == "notebook":
        return scan_notebook(job, data, config)
    return scan_python(job, data, config)
