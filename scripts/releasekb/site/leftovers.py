"""What a process leaves behind when it is killed, and how to leave nothing.

Temporary folders, named with their process's id so that the next process can remove what a
killed one left (SIGKILL, the OOM killer, a power loss): a process that ends normally removes
its own folders; one killed outright cannot. Used for a build's staging folder, `serve`'s site
and the pages given to Pagefind when the project's own folder for them is in use by another
process (thousands of files at 80 releases).

Child processes (the language workers, Pagefind) that end with the process that started them
(end_with_parent), rather than run on, orphaned.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import sys
import tempfile
from pathlib import Path


def temporary_folder(prefix: str, parent: Path | None = None) -> Path:
    """A new folder <prefix><pid>-<random> in parent (the system's temporary folder by default),
    made after removing the folders of the same prefix there whose process has ended."""
    parent = Path(parent) if parent is not None else Path(tempfile.gettempdir())
    remove_orphans(prefix, parent)
    return Path(tempfile.mkdtemp(prefix=f"{prefix}{os.getpid()}-", dir=parent))


def remove_orphans(prefix: str, parent: Path) -> None:
    """Remove parent's <prefix><pid>-* folders whose process is gone."""
    named = re.compile(rf"{re.escape(prefix)}([0-9]+)-.*")
    with os.scandir(parent) as entries:
        orphans = [
            entry.path
            for entry in entries
            if (match := named.fullmatch(entry.name)) and entry.is_dir() and not process_alive(int(match[1]))
        ]
    for orphan in orphans:
        shutil.rmtree(orphan, ignore_errors=True)


def process_alive(pid: int) -> bool:
    """Whether pid runs. A zombie (ended, its parent gone and not reaped, as where the init
    process reaps nothing, in some containers) counts as ended."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # alive, under another user
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True  # no /proc (not Linux): os.kill said it exists


def end_with_parent(parent_pid: int | None = None) -> None:
    """Run in a child process as it starts: SIGKILL it when the thread that started it ends
    (Linux), however that ends (SIGKILL, a crash), so that no child is left running, orphaned.
    parent_pid: the parent's id, to end at once if the parent ended before this took effect.
    Safe between fork and exec (a `preexec_fn`): it loads no library (see _PRCTL)."""
    if _PRCTL is not None:
        _PRCTL(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if parent_pid is not None and os.getppid() != parent_pid:
        os._exit(1)


def _prctl():
    """Linux's prctl, or None."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        return ctypes.CDLL(None, use_errno=True).prctl
    return None


# Resolved at import, before any fork: the child between fork and exec must not load libraries.
_PRCTL = _prctl()
