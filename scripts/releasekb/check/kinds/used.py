"""used: with --only, every use of the features asked for (what each feature page's command
finds), whatever their level; it fails the run only when --fail-on names it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from releasekb.check.records import ApiRecord, IndexEntry, specific_first

if TYPE_CHECKING:
    from releasekb.check.index import ApiIndex
    from releasekb.check.options import Options

KIND = "used"


def cited(index: ApiIndex, options: Options, records: list[ApiRecord]) -> list[tuple[str, ApiRecord, IndexEntry]]:
    """(kind, record, entry) for each entry of a feature asked for that lists a matched name, the
    most specific name first: the reference is a use of that feature, cited by the first of them
    that concerns this call (analysis keeps one finding per feature)."""
    return [
        (KIND, record, entry)
        for record in specific_first(records)
        for entry in record.entries
        if entry.id in options.only
    ]
