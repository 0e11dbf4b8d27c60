"""Reading a file `check` looks at: a regular file only, within the size limit, never blocking.

A repository can hold anything under a `.py` name: a named pipe (opening it waits for a writer
forever), a socket, or a symbolic link to a device (`z.py -> /dev/zero` never ends). Such a file is
not read at all: it is listed as skipped with what it is. A regular file is opened without blocking
and checked again once open (the path may have been replaced since it was looked at), and no more
than the limit is ever read from it, even if it grows while being read. The reading itself is
common.regular_files', as for every file a command reads; here its refusals become check's
messages, in the report's language.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from releasekb.check.messages import Message, message
from releasekb.common import regular_files
from releasekb.common.regular_files import NotReadable


class NotRead(OSError):
    """A file that was not read, and why (`reason`). `regular` is False for what is not a regular
    file (a pipe, a device, a socket, or a link to one): skipped rather than unreadable."""

    def __init__(self, reason: Message, *, regular: bool) -> None:
        super().__init__(reason.text())
        self.reason = reason
        self.regular = regular


def _not_read(error: NotReadable) -> NotRead:
    """common.regular_files' refusal in check's words (a message in the report's language)."""
    if error.kind is None:
        return NotRead(message("too_large", size=error.size, limit=error.limit), regular=True)
    what = error.kind if error.kind in ("fifo", "device", "socket") else "other"
    if error.link_target is not None:
        return NotRead(message(f"link_not_regular_{what}", target=error.link_target), regular=False)
    return NotRead(message(f"not_regular_{what}"), regular=False)


@contextlib.contextmanager
def opened_regular(path: str | os.PathLike, limit: int | None) -> Iterator[int]:
    """A descriptor open on `path`, a regular file of at most `limit` bytes (None: any size);
    raises NotRead for anything else, or OSError when it cannot be opened."""
    try:
        with regular_files.opened_regular(path, limit) as descriptor:
            yield descriptor
    except NotReadable as error:
        raise _not_read(error) from None


def read_regular(path: str | os.PathLike, limit: int | None) -> bytes:
    """The bytes of a regular file of at most `limit` bytes (None: any size); raises NotRead for
    anything else (reading stops one byte past the limit, should the file grow meanwhile), or
    OSError when it cannot be read."""
    try:
        return regular_files.read_regular_file(path, limit)
    except NotReadable as error:
        raise _not_read(error) from None


def read_regular_text(path: Path, limit: int | None, encoding: str = "utf-8", errors: str = "strict") -> str:
    """read_regular, decoded (UnicodeDecodeError when it cannot be, with errors="strict")."""
    return read_regular(path, limit).decode(encoding, errors)
