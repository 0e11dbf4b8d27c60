"""Files a user names (a baseline, a contract list, a pyproject.toml, an --output): only regular
files are read or written, and a read stops at a limit.

A path on the command line, in a configuration or in a cloned repository may name anything: a
named pipe, whose opening waits for a writer forever; a device such as /dev/zero, which never
ends, or /dev/full, which a rename would turn into a regular file; a symbolic link, whose target
may lie anywhere; or a regular file far larger than any such file is (a sparse one costs no disk).
So a file is opened without blocking and checked to be a regular file before a byte is read, and
read up to its limit and one byte more, to tell "exactly the limit" from "more". atomic.py checks
every path it writes with `node_kind`.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path

_CHUNK_BYTES = 1024 * 1024

# Not blocking on a named pipe, and never becoming a terminal's controlling process (not on Windows).
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)


class NotReadable(OSError):
    """The file is not a regular file, or is larger than its limit; `strerror` says which, as the
    reason in a sentence ("cannot read it (REASON)"), as any other OSError's does. For callers that
    say it in their own words: `kind` ("fifo", "device", "socket", "folder", "other"; None when the
    file is regular but too large), `link_target` (where the path is a symbolic link), `size`
    (None when the file grew past the limit while read) and `limit`."""

    def __init__(self, reason: str, *, kind=None, link_target=None, size=None, limit=None):
        super().__init__(errno.EINVAL if kind else errno.EFBIG, reason)
        self.kind = kind
        self.link_target = link_target
        self.size = size
        self.limit = limit


_KINDS = (
    (stat.S_ISLNK, "link", "a symbolic link"),
    (stat.S_ISDIR, "folder", "a folder"),
    (stat.S_ISFIFO, "fifo", "a named pipe (FIFO)"),
    (stat.S_ISCHR, "device", "a device"),
    (stat.S_ISBLK, "device", "a device"),
    (stat.S_ISSOCK, "socket", "a socket"),
)


def node_kind(mode: int) -> str | None:
    """What a node that is not a regular file is, for a message; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    return next((words for test, _, words in _KINDS if test(mode)), "not a regular file")


def _kind_code(mode: int) -> str:
    return next((code for test, code, _ in _KINDS if test(mode)), "other")


def _checked(path: Path | str, status: os.stat_result, limit: int | None) -> None:
    """Raise NotReadable unless `status` is that of a regular file of at most `limit` bytes."""
    kind = node_kind(status.st_mode)
    if kind is not None:
        target = os.readlink(path) if os.path.islink(path) else None
        raise NotReadable(f"it is {kind}, not a regular file", kind=_kind_code(status.st_mode), link_target=target)
    if limit is not None and status.st_size > limit:
        raise NotReadable(_too_large(limit, status.st_size), size=status.st_size, limit=limit)


@contextlib.contextmanager
def opened_regular(path: Path | str, limit: int | None) -> Iterator[int]:
    """A descriptor open on `path`, a regular file of at most `limit` bytes (None: any size; a
    symbolic link to one is followed: reading harms nothing). Raises NotReadable for anything
    else, and the OSError of the opening (FileNotFoundError for a missing file) as it is."""
    _checked(path, os.stat(path), limit)  # a device is refused before it is even opened
    descriptor = os.open(path, _OPEN_FLAGS)
    try:
        _checked(path, os.fstat(descriptor), limit)  # what was opened: the path may have changed
        yield descriptor
    finally:
        os.close(descriptor)


def read_regular_file(path: Path | str, limit: int | None) -> bytes:
    """The bytes of the regular file at path, read up to `limit` bytes and one more (counted as
    read: a file may grow after it was looked at). Raises as opened_regular does."""
    with opened_regular(path, limit) as descriptor:
        data = bytearray()
        while limit is None or len(data) <= limit:
            chunk = os.read(descriptor, _CHUNK_BYTES if limit is None else min(_CHUNK_BYTES, limit + 1 - len(data)))
            if not chunk:
                break
            data += chunk
    if limit is not None and len(data) > limit:
        raise NotReadable(_too_large(limit), size=len(data), limit=limit)
    return bytes(data)


def read_regular_text(path: Path | str, limit: int | None) -> str:
    """read_regular_file's bytes as UTF-8 text (a byte-order mark is dropped); raises
    UnicodeDecodeError for other bytes."""
    return read_regular_file(path, limit).decode("utf-8-sig")


def _too_large(limit: int, size: int | None = None) -> str:
    over = f"{size:,} bytes, over the limit of" if size is not None else "over the limit of"
    return f"{over} {limit:,} bytes"
