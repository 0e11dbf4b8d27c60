"""Reading a file `check` looks at: a regular file only, within the size limit, never blocking.

A repository can hold anything under a `.py` name: a named pipe (opening it waits for a writer
forever), a socket, or a symbolic link to a device (`z.py -> /dev/zero` never ends). Such a file is
not read at all: it is listed as skipped with what it is. A regular file is opened without blocking
and checked again once open (the path may have been replaced since it was looked at), and no more
than the limit is ever read from it, even if it grows while being read.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator
from pathlib import Path

from releasekb.check.messages import Message, message

# Not blocking on a named pipe, and never becoming a terminal's controlling process (not on Windows).
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)


class NotRead(OSError):
    """A file that was not read, and why (`reason`). `regular` is False for what is not a regular
    file (a pipe, a device, a socket, or a link to one): skipped rather than unreadable."""

    def __init__(self, reason: Message, *, regular: bool) -> None:
        super().__init__(reason.text())
        self.reason = reason
        self.regular = regular


def _what_it_is(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "fifo"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    if stat.S_ISSOCK(mode):
        return "socket"
    return "other"


def _checked(path: str | os.PathLike, status: os.stat_result, limit: int | None) -> None:
    """Raise NotRead unless `status` is that of a regular file within `limit` bytes."""
    if not stat.S_ISREG(status.st_mode):
        what = _what_it_is(status.st_mode)
        if os.path.islink(path):
            raise NotRead(message(f"link_not_regular_{what}", target=os.readlink(path)), regular=False)
        raise NotRead(message(f"not_regular_{what}"), regular=False)
    if limit is not None and status.st_size > limit:
        raise NotRead(message("too_large", size=status.st_size, limit=limit), regular=True)


@contextlib.contextmanager
def opened_regular(path: str | os.PathLike, limit: int | None) -> Iterator[int]:
    """A descriptor open on `path`, a regular file of at most `limit` bytes (None: any size);
    raises NotRead for anything else, or OSError when it cannot be opened."""
    _checked(path, os.stat(path), limit)  # a device is refused before it is even opened
    descriptor = os.open(path, _OPEN_FLAGS)
    try:
        _checked(path, os.fstat(descriptor), limit)  # what was opened: the path may have changed
        yield descriptor
    finally:
        os.close(descriptor)


def read_regular(path: str | os.PathLike, limit: int | None) -> bytes:
    """The bytes of a regular file of at most `limit` bytes (None: any size); raises NotRead for
    anything else (reading stops one byte past the limit, should the file grow meanwhile), or
    OSError when it cannot be read."""
    with opened_regular(path, limit) as descriptor, os.fdopen(descriptor, "rb", closefd=False) as stream:
        data = stream.read() if limit is None else stream.read(limit + 1)
    if limit is not None and len(data) > limit:
        raise NotRead(message("too_large", size=len(data), limit=limit), regular=True)
    return data


def read_regular_text(path: Path, limit: int | None, encoding: str = "utf-8", errors: str = "strict") -> str:
    """read_regular, decoded (UnicodeDecodeError when it cannot be, with errors="strict")."""
    return read_regular(path, limit).decode(encoding, errors)
