"""Writing curated files so that a failure leaves the old file or the new one, never half of one.

The files the CLI writes for curators (translations.lock, the URL contract list, a new release
file, the schemas, a new knowledge base) are committed to version control and read back by the
next run: a half-written translations.lock is invalid JSON and loses every earlier record, and a
contract list cut off mid-address would hide a lost address. So each file is written to a
temporary file in its own folder (a rename across file systems is not atomic), flushed to disk,
and renamed over the target.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path


class WriteFailed(Exception):
    """A file could not be written; the file as it was before is still there (or still absent)."""

    def __init__(self, path: Path, error: OSError):
        self.path = path
        reason = error.strerror or str(error)
        super().__init__(f"{path}: cannot write it ({reason}); it is unchanged")


def write_text(path: Path, text: str) -> None:
    """Replace path's content with text in one step; raises WriteFailed."""
    write_files({Path(path): text})


def write_files(files: dict[Path, str]) -> None:
    """Write every file, all or none as far as the disk allows: each content goes to a temporary
    file first, and only when all of them are on disk are they renamed over their targets (a
    full disk fails while writing, before any target changed). Raises WriteFailed."""
    temporaries: dict[Path, Path] = {}
    try:
        for path, text in files.items():
            temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
            temporaries[path] = temporary
            _write_durably(path, temporary, text)
        for path, temporary in temporaries.items():
            os.replace(temporary, path)
    finally:
        for temporary in temporaries.values():
            temporary.unlink(missing_ok=True)  # only there when something failed


def _write_durably(path: Path, temporary: Path, text: str) -> None:
    try:
        with open(temporary, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())  # ENOSPC can wait until the data reaches the disk
        if path.exists():
            shutil.copymode(path, temporary)  # the file keeps its permissions
    except OSError as error:
        raise WriteFailed(path, error) from error
