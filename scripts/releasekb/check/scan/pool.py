"""Running the files: in this process, or in a process pool when there are many."""

from __future__ import annotations

import concurrent.futures
from concurrent.futures.process import BrokenProcessPool

from releasekb.check.scan.files import scan_one
from releasekb.check.scan.jobs import Job, Outcome
from releasekb.check.scan.targets import (
    Config,
)

# Below this many files a process pool costs more to start than it saves.
PARALLEL_THRESHOLD = 50


_WORKER_CONFIG: Config | None = None


def _start_worker(config: Config) -> None:
    """Each worker receives the configuration once, not with every file."""
    global _WORKER_CONFIG
    _WORKER_CONFIG = config


def _scan_in_worker(job: Job) -> Outcome:
    return scan_one(job, _WORKER_CONFIG)


def run_jobs(jobs: list[Job], config: Config, workers: int) -> list[Outcome]:
    """Small inputs run here; larger ones in a process pool (falls back to here if a pool cannot start)."""
    if workers > 1 and len(jobs) > PARALLEL_THRESHOLD:
        workers = min(workers, len(jobs))
        chunksize = max(1, min(32, len(jobs) // (workers * 16)))
        try:
            with concurrent.futures.ProcessPoolExecutor(workers, initializer=_start_worker, initargs=(config,)) as pool:
                return list(pool.map(_scan_in_worker, jobs, chunksize=chunksize))
        except (OSError, NotImplementedError, BrokenProcessPool):
            pass
    return [scan_one(job, config) for job in jobs]
