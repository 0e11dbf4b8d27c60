"""What a curator's edit changed, and which pages show it: under `serve`, a save renders again
only those pages, not the thousands a long history has.

An edit is compared with the data the pages on disk were rendered from, release file by release
file. A changed release file changes its release's page and the pages of the features whose
entries in it changed. Every other page that shows one of those releases or features links to
its page (render.py notes each page's links), so it is rendered again too. Pages that show the
whole history (the indexes, the changelog, the level and upgrade pages: a fixed number,
whatever its length) are rendered again after any edit. Anything else (project.yaml, the
translations' review records, a release added or removed, a page added or removed) renders
every page, as the first build did.

tests/test_incremental.py checks, edit kind by edit kind, that the pages this gives are the
pages a whole render gives.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from releasekb.kb.dataset import LoadedRelease, ValidatedData
from releasekb.kb.pages import Page
from releasekb.kb.urls import feature_path, release_path


@dataclass(frozen=True)
class Change:
    """What an edit changed: releases (versions) and features (ids) whose own data differs."""

    releases: frozenset[str]
    features: frozenset[str]

    @property
    def pages(self) -> set[str]:
        """The paths of those releases' and features' pages."""
        return {*map(release_path, self.releases), *map(feature_path, self.features)}


def what_changed(old: ValidatedData, new: ValidatedData) -> Change | None:
    """The releases and features whose own data differs between `old` and `new`; None when the
    edit may change any page (see the module's docstring)."""
    if old.project != new.project or old.translation_records != new.translation_records:
        return None
    old_releases = {release.record.version: release for release in old.releases}
    new_releases = {release.record.version: release for release in new.releases}
    if old_releases.keys() != new_releases.keys():
        return None
    releases, features = set(), set()
    for version, release in new_releases.items():
        before = old_releases[version]
        if before.record != release.record:
            releases.add(version)
            features |= _changed_features(before, release)
    return Change(frozenset(releases), frozenset(features))


def _changed_features(old: LoadedRelease, new: LoadedRelease) -> set[str]:
    """The features whose entries differ between two versions of one release. (Their parents
    list them, so link to them: pages_to_render renders those again.)"""
    old_entries, new_entries = _entries_by_feature(old), _entries_by_feature(new)
    return {
        feature_id
        for feature_id in old_entries.keys() | new_entries.keys()
        if old_entries.get(feature_id) != new_entries.get(feature_id)
    }


def _entries_by_feature(release: LoadedRelease) -> dict[str, list]:
    entries = defaultdict(list)
    for entry in [*release.record.features, *release.record.changes]:
        entries[entry.id].append(entry)
    return entries


def pages_to_render(pages: Iterable[Page], changed: set[str], links: dict[str, frozenset[str]]) -> set[str]:
    """The paths of the pages that show something in `changed`: the overviews, the changed pages
    themselves and every page linking to one of them. Which pages are overviews is each page
    kind's `per_item` (page_kinds.py): there is one of the others per release or feature (or per
    former address of one), and their number grows with the history."""
    return {
        page.path
        for page in pages
        if not page.kind.per_item or page.path in changed or not changed.isdisjoint(links[page.path])
    }
