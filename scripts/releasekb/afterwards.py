"""Work a rebuild under `serve` leaves for after the page has reloaded: the search index and the
machine-readable outputs (JSON API, badges, inventory, feed). A curator waits for the page they
edited, not for those: at 80 releases they took longer than the page itself.

One thread per process runs the jobs, one at a time, each kind's newest only: a save made while
the index of the one before is being written waits for it, then indexes once. Each job writes
its files whole (a new file renamed over the old one), so the server never serves half a file.
Every other build (`build`, serve's first and whole builds) does this work before it ends.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

_lock = threading.Lock()
_wanted: dict[str, tuple[Callable, tuple]] = {}  # {kind: (job, its arguments)}, oldest request first
_thread: threading.Thread | None = None
_deferring = False


def defer(deferring: bool) -> None:
    """Set by the builder before each build: True for a dirty build under `serve`. A build that
    does not defer first waits for the jobs still running, so none writes over its files."""
    global _deferring
    _deferring = deferring
    if not deferring:
        wait()


def deferring() -> bool:
    return _deferring


def later(kind: str, job: Callable, *args) -> None:
    """Run job(*args) after the build, replacing a job of the same kind not started yet."""
    global _thread
    with _lock:
        _wanted.pop(kind, None)
        _wanted[kind] = (job, args)
        if _thread is None:  # else the running thread takes it (it ends only under the lock)
            _thread = threading.Thread(target=_run, name="releasekb-afterwards", daemon=True)
            _thread.start()


def _run() -> None:
    global _thread
    while True:
        with _lock:
            if not _wanted:
                _thread = None
                return
            kind = next(iter(_wanted))
            job, args = _wanted.pop(kind)
        try:
            job(*args)
        except (OSError, RuntimeError) as error:
            print(f"{kind} not updated: {error}", flush=True)


def wait() -> None:
    """Until every job asked for has run."""
    while (thread := _thread) is not None and thread.is_alive():
        thread.join()
