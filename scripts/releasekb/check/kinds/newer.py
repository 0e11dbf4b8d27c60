"""newer: the code uses an API introduced after --to, cited by the entry that introduced it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from releasekb.check.records import ApiRecord, IndexEntry, specific_first

if TYPE_CHECKING:
    from releasekb.check.index import ApiIndex
    from releasekb.check.options import Options

KIND = "newer"


def cited(index: ApiIndex, options: Options, records: list[ApiRecord]) -> list[tuple[str, ApiRecord, IndexEntry]]:
    """(kind, record, entry) for each matched name introduced after --to, the most specific first."""
    newest = index.position(options.new_release)
    return [
        (KIND, record, record.introducing_entry())
        for record in specific_first(records)
        if record.introduced_in is not None and index.order[record.introduced_in] > newest
    ]
