"""unstable: the used API's level as of --to (the latest level with a rank its feature was
published at) ranks below --max-stability. Only the most specific matched name with a stated level
counts: a stable function of a beta module is stable, and `torch.fft.fft(x)` is reported once."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from releasekb.check.records import ApiRecord, IndexEntry, specific_first

if TYPE_CHECKING:
    from releasekb.check.index import ApiIndex
    from releasekb.check.options import Options

KIND = "unstable"


def cited(index: ApiIndex, options: Options, records: list[ApiRecord]) -> list[tuple[str, ApiRecord, IndexEntry]]:
    """[(kind, record, entry)] when the most specific matched record whose feature has a stated
    level as of --to ranks below --max-stability, cited by the feature's entry at that level; []
    otherwise."""
    for record in specific_first(records):
        if record.introduced_in is None:
            continue
        published = index.level_as_of(record, options.new_release)
        if published is None:
            continue
        release, key = published
        if index.levels[key].rank >= index.levels[options.max_stability].rank:
            return []
        return [(KIND, record, _level_entry(record, release, key))]
    return []


def _level_entry(record: ApiRecord, release: str, level: str) -> IndexEntry:
    """The feature's entry in `release` as a finding cites it. The index lists only entries that
    name the API; a later entry of the same feature (a promotion that names no API) has the same
    id, and its address differs only by the release."""
    introducing = record.introducing_entry()
    if introducing.release == release:
        return introducing
    old = f"/releases/{introducing.release}/#"
    moved = {lang: url.replace(old, f"/releases/{release}/#") for lang, url in introducing.urls.items()}
    return dataclasses.replace(introducing, release=release, kind="new", level=level, migration=None, urls=moved)
