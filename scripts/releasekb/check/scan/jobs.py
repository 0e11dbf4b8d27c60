"""One file to scan (`Job`) and what scanning it gives (`Outcome`); picklable for the process pool."""

from __future__ import annotations

from dataclasses import dataclass

from releasekb.check.messages import Message
from releasekb.check.scan.model import FileError, Use


@dataclass(frozen=True)
class Job:
    """One file to scan: how to read it and the path to report. Picklable for the process pool."""

    kind: str  # "python" | "notebook" | "tokens"
    path: str
    rel: str
    package: str | None = None  # the dotted name of the package the file is in (see walk.py)


# (status, uses, errors); status is "scanned", "skipped" (pre-filter), "error" (cannot be read or
# parsed), NOT_REGULAR (a pipe, device or socket: listed as skipped, never read) or UNEXPECTED (the
# scanner failed on it: reported like "error", but never kept in the cache, as the next run may not fail)
Outcome = tuple[str, list[Use], list[FileError]]
SKIPPED: Outcome = ("skipped", [], [])
NOT_REGULAR = "not_regular"
UNEXPECTED = "unexpected"
CACHEABLE = ("scanned", "skipped", "error")  # what the same bytes always give


def failed(rel: str, line: int, reason: Message, status: str = "error") -> Outcome:
    return (status, [], [FileError(rel, line, reason)])
