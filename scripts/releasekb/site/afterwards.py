"""Work a rebuild under `serve` leaves for after the page has reloaded: the search index and the
machine-readable outputs (JSON API, badges, inventory, feed). A curator waits for the page they
edited, not for those: at 80 releases they took longer than the page itself.

One thread per process runs the jobs, one at a time, each kind's newest only: a save made while
the index of the one before is being written waits for it, then indexes once. A job that fails
is said in the log and the thread goes on, so the next save runs that job again. Each job writes
its files whole (a new file renamed over the old one), so the server never serves half a file.
A whole build under `serve` (its first, and after a configuration change) is built in a staging
folder and then moved into place: its jobs are held until then (`release`), and write into the
served folder; dropped if the build failed. `releasekb build` does this work before it ends.
"""

from __future__ import annotations

import contextlib
import multiprocessing.util
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from releasekb.common.safe_text import visible

_lock = threading.Lock()
_wanted: dict[str, tuple[Callable, tuple]] = {}  # {kind: (job, its arguments)}, oldest request first
_thread: threading.Thread | None = None
_deferring = False
_held = False  # jobs wait for release(): their build's folder is not in place yet
_no_build = threading.Event()  # clear while this process builds: the jobs give way (give_way)
_no_build.set()


def defer(deferring: bool, *, hold: bool = False) -> None:
    """Set by the builder before each build: whether its jobs run after it (under `serve`), and
    whether they wait for release(). A whole build first waits for the jobs still running, so
    that none writes over its files; a dirty one does not (its page must not wait for them)."""
    global _deferring, _held
    if hold or not deferring:
        wait()
    _deferring, _held = deferring, hold


def deferring() -> bool:
    return _deferring


def building(active: bool) -> None:
    """Set by the builder around each build: while one runs, the jobs' loops wait (give_way).
    A lower priority alone is not enough: the jobs' Python shares the process's one interpreter
    lock with the build, which it would otherwise slow to half speed."""
    if active:
        _no_build.clear()
    else:
        _no_build.set()


def give_way() -> None:
    """Called by the jobs between steps: in the jobs' thread, wait while a build runs."""
    if threading.current_thread() is _thread:
        _no_build.wait()


def later(kind: str, job: Callable, *args) -> None:
    """Run job(*args) after the build, replacing a job of the same kind not started yet."""
    with _lock:
        _wanted.pop(kind, None)
        _wanted[kind] = (job, args)
        _start()


def release(moved: dict[Path, Path]) -> None:
    """Run the held jobs, now that the build's folders are in place: {staging folder: where it
    is now}; the jobs' folders are moved with them."""
    global _held
    with _lock:
        for kind, (job, args) in _wanted.items():
            _wanted[kind] = (job, tuple(_moved(arg, moved) for arg in args))
        _held = False
        _start()


def drop() -> None:
    """Forget the held jobs: their build failed, and its folder is gone."""
    global _held
    with _lock:
        _wanted.clear()
        _held = False


def _moved(value, moved: dict[Path, Path]):
    if isinstance(value, Path):
        for old, new in moved.items():
            if value.is_relative_to(old):
                return new / value.relative_to(old)
    return value


def _start() -> None:
    """Start the thread (under the lock) unless one runs, which takes the new job (it ends only
    under the lock), or the jobs are held."""
    global _thread
    if _thread is None and _wanted and not _held:
        _thread = threading.Thread(target=_run, name="releasekb-afterwards", daemon=True)
        _thread.start()


def _run() -> None:
    global _thread
    _lower_priority()
    while True:
        with _lock:
            if not _wanted:
                _thread = None
                return
            kind = next(iter(_wanted))
            job, args = _wanted.pop(kind)
        try:
            job(*args)
        except Exception as error:  # any job's: said, and the thread goes on; the next save runs it again
            print(f"{kind} not updated: {_reason(error)}", flush=True)


def _reason(error: Exception) -> str:
    """A job's failure in one line: the expected ones (a full disk, Pagefind's error) as they
    say it; anything else, a fault to report, with its kind."""
    if isinstance(error, (OSError, RuntimeError)):
        return visible(error)
    return visible(f"{type(error).__name__}: {error}")


def _lower_priority() -> None:
    """On Linux a thread has a priority of its own, which the processes it starts inherit: this
    thread and Pagefind give way to the next rebuild, which a curator is waiting for."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)


def wait() -> None:
    """Until every job asked for has run."""
    while (thread := _thread) is not None and thread.is_alive():
        thread.join()


def run_command(command: list[str]) -> subprocess.CompletedProcess:
    """Run a job's command (Pagefind) to its end, with this thread's lower priority. It ends
    with this process, however this process ends: left running, it would write into a folder
    `serve` removes as it stops (one was found so, hung, minutes after a test's serve had ended)."""
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=_end_with_parent
    )
    global _children_ended_by
    if _children_ended_by != os.getpid():  # once per process: a forked worker starts without it
        at_exit(_end_children)
        _children_ended_by = os.getpid()
    _children[process.pid] = process
    try:
        stdout, stderr = process.communicate()
    finally:
        _children.pop(process.pid, None)
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)


_children: dict[int, subprocess.Popen] = {}  # {pid: the running command}
_children_ended_by: int | None = None  # the process whose exit ends them


def _end_with_parent() -> None:
    """In the command's process before it starts: SIGKILL when the thread that started it ends
    (Linux), so that a worker killed outright (its parent was) takes its command with it."""
    if _prctl is not None:
        _prctl(1, 9)  # PR_SET_PDEATHSIG, SIGKILL


def _end_children() -> None:
    """At this process's end: stop the commands its jobs still run (the jobs' thread is a daemon,
    which Python ends without waiting)."""
    for process in list(_children.values()):
        if process.poll() is None:
            process.kill()
            process.wait()


def at_exit(function: Callable, *args, **kwargs) -> None:
    """Call function(*args, **kwargs) when this process ends normally. A language worker ends by
    os._exit, which skips atexit (and so tempfile's clean-up) but runs multiprocessing's own
    finalizers; in the main process those run at exit too."""
    multiprocessing.util.Finalize(None, function, args=args, kwargs=kwargs, exitpriority=10)


# Resolved before any fork: the child between fork and exec must not load libraries.
_prctl = None
if sys.platform.startswith("linux"):
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        _prctl = ctypes.CDLL(None, use_errno=True).prctl
