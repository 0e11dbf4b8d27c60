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

import errno
import os
import stat
from pathlib import Path

_CHUNK_BYTES = 1024 * 1024


class NotReadable(OSError):
    """The file is not a regular file, or is larger than its limit; `strerror` says which, as the
    reason in a sentence ("cannot read it (REASON)"), as any other OSError's does."""


def node_kind(mode: int) -> str | None:
    """What a node that is not a regular file is, for a message; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    kinds = (
        (stat.S_ISLNK, "a symbolic link"),
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a named pipe (FIFO)"),
        (stat.S_ISCHR, "a device"),
        (stat.S_ISBLK, "a device"),
        (stat.S_ISSOCK, "a socket"),
    )
    return next((kind for test, kind in kinds if test(mode)), "not a regular file")


def read_regular_file(path: Path | str, limit: int) -> bytes:
    """The bytes of the regular file at path (a symbolic link to one is read: reading harms
    nothing). Raises NotReadable for anything else or for more than `limit` bytes, and the
    OSError of the opening (FileNotFoundError for a missing file) as it is."""
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        status = os.fstat(descriptor)
        kind = node_kind(status.st_mode)
        if kind is not None:
            raise NotReadable(errno.EINVAL, f"it is {kind}, not a regular file")
        if status.st_size > limit:
            raise NotReadable(errno.EFBIG, _too_large(limit, status.st_size))
        data = bytearray()
        while len(data) <= limit:  # counted as read: a file may grow after fstat
            chunk = os.read(descriptor, min(_CHUNK_BYTES, limit + 1 - len(data)))
            if not chunk:
                break
            data += chunk
        if len(data) > limit:
            raise NotReadable(errno.EFBIG, _too_large(limit))
        return bytes(data)
    finally:
        os.close(descriptor)


def read_regular_text(path: Path | str, limit: int) -> str:
    """read_regular_file's bytes as UTF-8 text (a byte-order mark is dropped); raises
    UnicodeDecodeError for other bytes."""
    return read_regular_file(path, limit).decode("utf-8-sig")


def _too_large(limit: int, size: int | None = None) -> str:
    over = f"{size:,} bytes, over the limit of" if size is not None else "over the limit of"
    return f"{over} {limit:,} bytes"
