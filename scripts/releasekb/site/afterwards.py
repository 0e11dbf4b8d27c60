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

A process's jobs are one `Jobs` object, owned by its build session (session.py) and passed to
the stages that leave work for later (search, publish).
"""

from __future__ import annotations

import contextlib
import multiprocessing.util
import os
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from releasekb.common.safe_text import visible
from releasekb.site.leftovers import end_with_parent

T = TypeVar("T")


class Jobs:
    """One process's work for after its builds: one thread runs the jobs, one at a time."""

    def __init__(self):
        self._lock = threading.Lock()
        self._wanted: dict[str, tuple[Callable, tuple]] = {}  # {kind: (job, its arguments)}, oldest first
        self._thread: threading.Thread | None = None
        self._deferring = False
        self._held = False  # jobs wait for release(): their build's folder is not in place yet
        self._no_build = threading.Event()  # clear while this process builds: the jobs give way
        self._no_build.set()
        self._children: dict[int, subprocess.Popen] = {}  # {pid: the running command}
        self._ending = False  # set by end_commands: the commands' failures are its doing, not said
        self._starting = threading.Lock()  # held while a command starts and becomes known
        self._children_ended_by: int | None = None  # the process whose exit ends them

    def defer(self, deferring: bool, *, hold: bool = False) -> None:
        """Set by the builder before each build: whether its jobs run after it (under `serve`), and
        whether they wait for release(). A whole build first waits for the jobs still running, so
        that none writes over its files; a dirty one does not (its page must not wait for them)."""
        if hold or not deferring:
            self.wait()
        self._deferring, self._held = deferring, hold

    def deferring(self) -> bool:
        return self._deferring

    def building(self, active: bool) -> None:
        """Set by the builder around each build: while one runs, the jobs' loops wait (give_way)
        and the command they run (Pagefind) is paused. A lower priority alone is not enough: the
        jobs' Python shares the process's one interpreter lock with the build, which it would
        otherwise slow to half speed; and Pagefind, indexing a long history for seconds on every
        core after a save, made the next save's page, which a curator waits for, a third slower."""
        if active:
            self._no_build.clear()
            self._signal_commands(signal.SIGSTOP)
        else:
            self._signal_commands(signal.SIGCONT)
            self._no_build.set()

    def _signal_commands(self, signum: int) -> None:
        """Pause (SIGSTOP) or resume (SIGCONT) the commands the jobs run. A paused command still
        ends with its process (end_commands and end_with_parent send SIGKILL, which a paused
        process receives too)."""
        for pid in list(self._children):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signum)

    def give_way(self) -> None:
        """Called by the jobs between steps: in the jobs' thread, wait while a build runs."""
        if threading.current_thread() is self._thread:
            self._no_build.wait()

    def later(self, kind: str, job: Callable, *args) -> None:
        """Run job(*args) after the build, replacing a job of the same kind not started yet."""
        with self._lock:
            self._wanted.pop(kind, None)
            self._wanted[kind] = (job, args)
            self._start()

    def release(self, moved: dict[Path, Path]) -> None:
        """Run the held jobs, now that the build's folders are in place: {staging folder: where it
        is now}; the jobs' folders are moved with them."""
        with self._lock:
            for kind, (job, args) in self._wanted.items():
                self._wanted[kind] = (job, tuple(_moved(arg, moved) for arg in args))
            self._held = False
            self._start()

    def drop(self) -> None:
        """Forget the held jobs: their build failed, and its folder is gone."""
        with self._lock:
            self._wanted.clear()
            self._held = False

    def _start(self) -> None:
        """Start the thread (under the lock) unless one runs, which takes the new job (it ends only
        under the lock), or the jobs are held."""
        if self._thread is None and self._wanted and not self._held:
            self._thread = threading.Thread(target=self._run, name="releasekb-afterwards", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        _lower_priority()
        while True:
            with self._lock:
                if not self._wanted:
                    self._thread = None
                    return
                kind = next(iter(self._wanted))
                job, args = self._wanted.pop(kind)
            try:
                job(*args)
            except Exception as error:  # any job's: said, and the thread goes on; the next save runs it again
                if self._ending:
                    return  # its command was ended with this process (end_commands): nothing went wrong
                print(f"{kind} not updated: {_reason(error)}", flush=True)

    def wait(self) -> None:
        """Until every job asked for has run."""
        while (thread := self._thread) is not None and thread.is_alive():
            thread.join()

    def run_command(self, command: list[str]) -> subprocess.CompletedProcess:
        """Run a job's command to its end, with this thread's lower priority (see _start_command)."""
        process = self._start_command(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            stdout, stderr = process.communicate()
        finally:
            self._children.pop(process.pid, None)
        return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)

    def talk_to_command(self, command: list[str], talk: Callable[[subprocess.Popen], T]) -> T:
        """Start a job's command (the Pagefind service) with pipes to its input and output, return
        talk(its process), and wait for it to end: its input is closed then, whatever talk did,
        so a command that reads until its input ends always ends. What the command says on its
        standard error is added to talk's error."""
        with tempfile.TemporaryFile() as said:
            process = self._start_command(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=said)
            try:
                return talk(process)
            except RuntimeError as error:
                failure = error
            finally:
                with contextlib.suppress(BrokenPipeError):  # it has ended already
                    process.stdin.close()
                process.wait()
                self._children.pop(process.pid, None)
            said.seek(0)
            told = said.read().decode("utf-8", "replace").strip()
        raise RuntimeError(f"{failure}: {told}") if told else failure

    def _start_command(self, command: list[str], **pipes) -> subprocess.Popen:
        """Start a job's command (Pagefind), with this thread's lower priority, known to this
        process. It ends with this process, however this process ends: left running, it would
        write into a folder `serve` removes as it stops (one was found so, hung, minutes after a
        test's serve had ended)."""
        # The signals that end the commands this process knows (a worker's STOP_WORKER, SIGINT,
        # SIGTERM) wait until the command is known: one started but not yet known would outlive
        # the worker a moment, and write on into a staging folder its builder had just removed.
        # Blocked in this thread; a handler in another thread waits for the lock instead.
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD_WHILE_STARTING)
        try:
            with self._starting:
                process = subprocess.Popen(command, preexec_fn=_command_starts, **pipes)
                if self._children_ended_by != os.getpid():  # once per process: a forked worker starts without it
                    at_exit(self.end_commands)
                    self._children_ended_by = os.getpid()
                self._children[process.pid] = process
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        return process

    def running_commands(self) -> list[int]:
        """The process ids of the commands the jobs run now."""
        return list(self._children)

    def end_commands(self) -> None:
        """At this process's end: stop the commands its jobs still run (the jobs' thread is a daemon,
        which Python ends without waiting), and wait until they have ended."""
        self._ending = True  # first: the job whose command this ends must not report it as a failure
        with self._starting:  # a command being started is known first
            running = list(self._children.values())
        for process in running:
            # os's calls, not Popen's: called from a signal handler, this may have interrupted the
            # thread's own Popen.wait, which holds the lock Popen's would wait for
            if process.returncode is None:
                with contextlib.suppress(ProcessLookupError, ChildProcessError):
                    os.kill(process.pid, signal.SIGKILL)
                    os.waitpid(process.pid, 0)


_INTERRUPTS = {signal.SIGINT, signal.SIGTERM}
# What a language worker's builder stops it with (build.py): the worker's handler ends the
# commands its jobs run (end_commands), and ends the worker.
STOP_WORKER = signal.SIGUSR1
_HELD_WHILE_STARTING = _INTERRUPTS | {STOP_WORKER}


def _command_starts() -> None:
    """Run in a command's process between fork and exec: the signals run_command blocked are
    its own again, and it ends with this process (end_with_parent)."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD_WHILE_STARTING)
    end_with_parent()


def _moved(value, moved: dict[Path, Path]):
    if isinstance(value, Path):
        for old, new in moved.items():
            if value.is_relative_to(old):
                return new / value.relative_to(old)
    return value


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


def at_exit(function: Callable, *args, **kwargs) -> None:
    """Call function(*args, **kwargs) when this process ends normally. A language worker ends by
    os._exit, which skips atexit (and so tempfile's clean-up) but runs multiprocessing's own
    finalizers; in the main process those run at exit too."""
    multiprocessing.util.Finalize(None, function, args=args, kwargs=kwargs, exitpriority=10)
