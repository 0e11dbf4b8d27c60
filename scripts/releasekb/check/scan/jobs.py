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


# (status, uses, errors); status is "scanned", "skipped" (pre-filter) or "error"
Outcome = tuple[str, list[Use], list[FileError]]
SKIPPED: Outcome = ("skipped", [], [])


def failed(rel: str, line: int, reason: Message) -> Outcome:
    return ("error", [], [FileError(rel, line, reason)])
