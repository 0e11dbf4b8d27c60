"""Scanning one file: read it (a regular file within the size limit only), and hand it to the
scanner its kind needs. Whatever goes wrong with one file is that file's line in the report."""

from __future__ import annotations

from releasekb.check.messages import message
from releasekb.check.scan.analyzer import scan_python
from releasekb.check.scan.jobs import NOT_REGULAR, SKIPPED, UNEXPECTED, Job, Outcome, failed
from releasekb.check.scan.notebooks import scan_notebook
from releasekb.check.scan.reading import NotRead, read_regular
from releasekb.check.scan.targets import (
    Config,
)
from releasekb.check.scan.tokens import scan_tokens
from releasekb.common import collector


def scan_one(job: Job, config: Config) -> Outcome:
    """Read one file and scan it with the scanner its kind needs. Never raises for a file: any
    exception while reading, parsing or analysing it (a RecursionError, a MemoryError, a bug) is
    that file's unreadable line, and the run goes on with the others, here or in a worker."""
    try:
        return _read_and_scan(job, config)
    except RecursionError:
        return failed(job.rel, 1, message("too_deep"), UNEXPECTED)
    except MemoryError:
        return failed(job.rel, 1, message("out_of_memory"), UNEXPECTED)
    except Exception as error:  # one file's problem, whatever it is, must not end the run
        return failed(job.rel, 1, message("scan_failed", why=_described(error)), UNEXPECTED)


def _described(error: Exception) -> str:
    """The exception as one short line: its type, and the start of what it says."""
    text = " ".join(str(error).split())
    text = text if len(text) <= 200 else text[:199] + "…"
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _read_and_scan(job: Job, config: Config) -> Outcome:
    try:
        data = read_regular(job.path, config.max_file_size)
    except NotRead as error:  # a pipe or device is skipped; a file over the limit is unreadable
        return failed(job.rel, 1 if error.regular else 0, error.reason, "error" if error.regular else NOT_REGULAR)
    except OSError as error:
        return failed(job.rel, 1, message("unreadable_file", why=str(error.strerror or error)))
    with collector.paused():
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
