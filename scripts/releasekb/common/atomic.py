"""Writing curated files so that a failure leaves the old file or the new one, never half of one.

The files the CLI writes for curators (translations.lock, the URL contract list, a new release
file, the schemas, a new knowledge base) are committed to version control and read back by the
next run: a half-written translations.lock is invalid JSON and loses every earlier record, and a
contract list cut off mid-address would hide a lost address. So each file is written to a
temporary file in its own folder (a rename across file systems is not atomic), flushed to disk,
and renamed over the target.

Only a regular file is replaced (or a new one made): a rename over a named pipe or a device
turns it into a regular file (/dev/full, as root), and one over a symbolic link replaces the
link, not the file the user meant. Such a path, a folder, or one whose folder cannot hold it is
refused before anything is written, naming what it is.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from releasekb.common.regular_files import node_kind


class WriteFailed(Exception):
    """A file could not be written; the file as it was before is still there (or still absent)."""

    def __init__(self, path: Path, error: OSError | str):
        self.path = path
        reason = error if isinstance(error, str) else error.strerror or str(error)
        super().__init__(f"{path}: cannot write it ({reason}); it is unchanged")


def check_target(path: Path) -> None:
    """Raise WriteFailed unless path is a regular file or nothing yet (in a folder that exists):
    what write_files checks first. A command calls it before its work too, to refuse at once."""
    try:
        kind = node_kind(os.lstat(path).st_mode)
    except (FileNotFoundError, NotADirectoryError):
        parent = Path(path).parent
        if parent.is_dir():
            return  # a new file
        reason = f"{parent} is not a folder" if os.path.lexists(parent) else f"there is no folder {parent}"
        raise WriteFailed(path, reason) from None
    except OSError as error:
        raise WriteFailed(path, error) from error
    if kind == "a symbolic link":
        raise WriteFailed(path, "it is a symbolic link: name the file itself, not a link to it")
    if kind is not None:
        raise WriteFailed(path, f"it is {kind}, not a regular file: name a regular file or a new one")


def write_text(path: Path, text: str) -> None:
    """Replace path's content with text in one step; raises WriteFailed."""
    write_files({Path(path): text})


def write_files(files: dict[Path, str]) -> None:
    """Write every file, all or none as far as the disk allows: each content goes to a temporary
    file first, and only when all of them are on disk are they renamed over their targets (a
    full disk fails while writing, before any target changed). Raises WriteFailed."""
    for path in files:
        check_target(path)
    temporaries: dict[Path, Path] = {}
    try:
        for path, text in files.items():
            temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
            temporaries[path] = temporary
            _write_durably(path, temporary, text)
        for path, temporary in temporaries.items():
            try:
                os.replace(temporary, path)
            except OSError as error:
                raise WriteFailed(path, error) from error
    finally:
        for temporary in temporaries.values():
            temporary.unlink(missing_ok=True)  # only there when something failed


def _write_durably(path: Path, temporary: Path, text: str) -> None:
    try:
        # A new file, never through a link planted at the temporary's name (O_EXCL, O_NOFOLLOW):
        # one left by an earlier run of the same process id is removed first.
        temporary.unlink(missing_ok=True)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        with open(os.open(temporary, flags, 0o666), "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())  # ENOSPC can wait until the data reaches the disk
        if path.exists():
            shutil.copymode(path, temporary)  # the file keeps its permissions
    except OSError as error:
        raise WriteFailed(path, error) from error
