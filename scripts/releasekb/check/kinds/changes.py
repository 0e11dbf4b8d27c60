"""removed, breaking, deprecated: a change entry (kb.model.CHANGE_KINDS) released at or before
--to lists an API the code uses. Whether it was already in effect at --from or comes on the way
is the finding's `in_effect_at_from` (coverage.in_effect_at_from): the report counts only the latter.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from releasekb.check.kinds import BY_ENTRY_KIND
from releasekb.check.records import ApiRecord, IndexEntry, specific_first

if TYPE_CHECKING:
    from releasekb.check.index import ApiIndex
    from releasekb.check.options import Options


def cited(index: ApiIndex, options: Options, records: list[ApiRecord]) -> list[tuple[str, ApiRecord, IndexEntry]]:
    """(kind, record, entry) for each change entry up to --to that lists a matched name, the most
    specific name first."""
    newest = index.position(options.new_release)
    return [
        (BY_ENTRY_KIND[entry.kind], record, entry)
        for record in specific_first(records)
        for entry in record.entries
        if entry.is_change and entry.kind in BY_ENTRY_KIND and index.order[entry.release] <= newest
    ]
