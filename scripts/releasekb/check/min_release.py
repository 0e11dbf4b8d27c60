"""The lowest release that provides every API of the knowledge base the code uses, and the use
that decides it; also which release the code's unguarded uses of the product need (the declared
requirement is compared with it: kinds/requirement.py)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING

from releasekb.check.messages import Message, explained
from releasekb.check.records import ApiRecord, specific_first
from releasekb.check.suppression import suppressed

if TYPE_CHECKING:
    from releasekb.check.index import ApiIndex


def later_requirement(index: ApiIndex, decisive, use, records: list[ApiRecord]):
    """(order, use, record) of the latest introduction among this reference's matched records
    (its whole prefix chain) and the one found so far; ties keep the earlier use, and within a
    use the most specific name (torch.fft.fft rather than the torch.fft module it is under)."""
    for record in specific_first(records):
        introduced = record.introduced_in
        if introduced is None or suppressed(use, record.feature):
            continue
        candidate = (index.order[introduced], use, record)
        if decisive is None or _later(candidate, decisive):
            decisive = candidate
    return decisive


def _later(candidate, current) -> bool:
    def place(item):
        order, use, _ = item
        return (-order, use.path, use.cell or 0, use.line, use.column)

    return place(candidate) < place(current)


@dataclass(frozen=True)
class MinRelease:
    """The lowest release that provides every API the code uses, and the use that decides it."""

    version: str
    api: str
    path: str
    line: int
    column: int
    cell: int | None
    written: str
    resolved: str
    resolution: tuple[Message, ...]

    def record(self) -> dict:
        """As the JSON report gives it (check_schema.json): how it was resolved in English."""
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "resolution"}
        return {**fields, "how": explained(self.resolution)}


def min_release_of(decisive) -> MinRelease | None:
    if decisive is None:
        return None
    _, use, record = decisive
    return MinRelease(
        version=record.introduced_in,
        api=record.name,
        path=use.path,
        line=use.line,
        column=use.column,
        cell=use.cell,
        written=use.written,
        resolved=use.resolved,
        resolution=use.resolution,
    )
