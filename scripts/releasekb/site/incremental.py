"""What a curator's edit changed, and which pages show it: under `serve`, a save renders again
only those pages, not the thousands a long history has.

An edit is compared with the data the pages on disk were rendered from, release file by release
file. A changed release file changes its release's page and the pages of the features whose
entries in it changed. Every other page that shows one of those features links to its page
(render.py notes each page's links), so it is rendered again too; and so is every page linking to
the release's page when the release's own fields changed (its title, date, summary...), not
only its entries: a page linking to a release shows those fields of it, and of its entries only
those of features it shows, whose pages it links to. What an edit makes a feature's page show of
another feature (a part, the feature it is part of, a related feature through an API name) it did
not link to before, or a release's sections of a change announced earlier that now takes effect
in it, is found by comparing each page's references to others before and after
(cross_references). Pages that show the
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

from releasekb.kb.catalog import Catalog
from releasekb.kb.dataset import LoadedRelease, ValidatedData
from releasekb.kb.model import ReleaseFile
from releasekb.kb.pages import Page
from releasekb.kb.urls import feature_path, release_path

# A release file's fields other than its entries: what pages linking to the release show of it.
_RELEASE_OWN_FIELDS = tuple(name for name in ReleaseFile.model_fields if name not in ("features", "changes"))


@dataclass(frozen=True)
class Change:
    """What an edit changed: releases (versions) whose file differs, those of them whose own
    fields differ (not only their entries), and features (ids) whose entries differ."""

    releases: frozenset[str]
    features: frozenset[str]
    release_fields: frozenset[str] = frozenset()

    @property
    def pages(self) -> set[str]:
        """The paths of those releases' and features' pages."""
        return {*map(release_path, self.releases), *map(feature_path, self.features)}

    def with_references(self, changed: set[tuple[str, str]]) -> Change:
        """This change, and the pages whose references to others changed (changed_references):
        ("feature", id) and ("release", version)."""
        features = {name for kind, name in changed if kind == "feature"}
        releases = {name for kind, name in changed if kind == "release"}
        return Change(self.releases | releases, self.features | features, self.release_fields)

    @property
    def shown_elsewhere(self) -> set[str]:
        """The paths of the changed pages whose change the pages linking to them show: every
        changed feature's, and the pages of the releases whose own fields changed."""
        return {*map(release_path, self.release_fields), *map(feature_path, self.features)}


def what_changed(old: ValidatedData, new: ValidatedData) -> Change | None:
    """The releases and features whose own data differs between `old` and `new`; None when the
    edit may change any page (see the module's docstring)."""
    if old.project != new.project or old.translation_records != new.translation_records:
        return None
    old_releases = {release.record.version: release for release in old.releases}
    new_releases = {release.record.version: release for release in new.releases}
    if old_releases.keys() != new_releases.keys():
        return None
    releases, features, release_fields = set(), set(), set()
    for version, release in new_releases.items():
        before = old_releases[version]
        if before.record != release.record:
            releases.add(version)
            features |= _changed_features(before, release)
            if any(getattr(before.record, name) != getattr(release.record, name) for name in _RELEASE_OWN_FIELDS):
                release_fields.add(version)
    return Change(frozenset(releases), frozenset(features), frozenset(release_fields))


def cross_references(catalog: Catalog) -> dict[tuple[str, str], tuple]:
    """{("feature", id) or ("release", version): what its page, and its section or row in the
    overviews, shows of other releases' data, besides what links to it}: a feature's parent, its
    parts and its relations (Catalog.relations); a release's changes announced earlier that take
    effect in it (Release.taking_effect). Compared before and after an edit (changed_references):
    a reference the edit made is on a page that did not link to that feature before, so links
    alone would not say to render it again."""
    relations = catalog.relations
    features = {
        ("feature", feature_id): (
            feature.parent.id if feature.parent else None,
            tuple(part.id for part in feature.parts),
            tuple((r.kind, r.api, r.other.id, r.replacement) for r in relations.get(feature_id, ())),
        )
        for feature_id, feature in catalog.features.items()
    }
    releases = {
        ("release", release.version): tuple((entry.release.version, entry.id) for entry in release.taking_effect)
        for release in catalog.releases
    }
    return features | releases


def changed_references(old: dict[tuple[str, str], tuple], new: dict[tuple[str, str], tuple]) -> set[tuple[str, str]]:
    """The features and releases whose references to others (cross_references) differ."""
    return {key for key in old.keys() | new.keys() if old.get(key) != new.get(key)}


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


def pages_to_render(pages: Iterable[Page], change: Change, links: dict[str, frozenset[str]]) -> set[str]:
    """The paths of the pages that show something `change` changed: the overviews, the changed
    pages themselves and every page linking to one of Change.shown_elsewhere. Which pages are
    overviews is each page kind's `per_item` (page_kinds.py): there is one of the others per
    release or feature (or per former address of one), and their number grows with the history."""
    changed, shown_elsewhere = change.pages, change.shown_elsewhere
    return {
        page.path
        for page in pages
        if not page.kind.per_item or page.path in changed or not shown_elsewhere.isdisjoint(links[page.path])
    }
