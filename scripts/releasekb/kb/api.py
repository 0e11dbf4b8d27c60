"""The machine-readable shape of the catalog: what `/api/*.json` serves and `releasekb query` prints.

One function per record kind, so the site's JSON and the command line cannot drift apart. The
shape is versioned (SCHEMA_VERSION) and described by the JSON Schema in api_schema.json, which
the site publishes at /api/schema/v1.json. Every text is given in every language; levels are
given as the release published them (label and scheme) and normalized (the label's key, and
its rank: higher is more stable, null for unlabeled).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from releasekb.kb.catalog import Catalog, Entry, Event, Feature, Level, Release
from releasekb.kb.urls import API_SCHEMA, API_SCHEMA_VERSION, feature_path, page_url, permanent_urls, release_path


def _go_on() -> None:
    """give_way outside a job of `serve`'s: nothing to wait for."""


SCHEMA_VERSION = API_SCHEMA_VERSION
SCHEMA_FILE = Path(__file__).parent / "api_schema.json"
SCHEMA_PATH = API_SCHEMA  # where the site publishes it


def release_urls(site_url: str, release: Release, anchor: str = "") -> dict[str, str]:
    """{lang: permanent address} of a release page, or of an anchor on it."""
    return permanent_urls(site_url, release.catalog.languages, page_url(release_path(release.version)), anchor)


def feature_urls(site_url: str, feature: Feature) -> dict[str, str]:
    languages = feature.first.release.catalog.languages
    return permanent_urls(site_url, languages, page_url(feature_path(feature.id)))


def level_record(level: Level | None) -> dict | None:
    if level is None:
        return None
    return {"key": level.key, "rank": level.rank, "name": dict(level.name)}


def entry_record(entry: Entry, site_url: str) -> dict:
    """What one release says about a feature or change."""
    return {
        "release": entry.release.version,
        "kind": entry.kind,
        "is_change": entry.is_change,
        "scheme": entry.release.scheme,
        "level": level_record(entry.level),
        # the release whose announcement stated the level, when not this one's own
        "level_stated_by": entry.level_stated_by,
        "title": dict(entry.title),
        "summary": dict(entry.summary),
        "migration": dict(entry.migration) if entry.migration else None,
        # a change announced for a later release: the release it takes effect in
        "takes_effect": entry.takes_effect,
        "apis": list(entry.apis),
        "links": [{"kind": link.kind, "url": link.url} for link in entry.links],
        "urls": release_urls(site_url, entry.release, entry.id),
    }


def feature_record(feature: Feature, site_url: str) -> dict:
    since = feature.level_since
    current = feature.current
    return {
        "id": feature.id,
        "title": dict(feature.title),
        "area": {"key": feature.area.key, "name": dict(feature.area.name)},
        "level": level_record(feature.level),
        "level_stated_by": current.stated_by if current else None,
        "level_stated_in": current.stated_in.version if current and current.stated_in else None,
        "level_since": since.version if since else None,
        "level_changes": level_changes(feature),
        "first_release": feature.first.release.version,
        "latest_release": feature.latest.release.version,
        "removed_in": feature.removed_in.version if feature.removed_in else None,
        # releases not described within the feature's history: what they did to it is unknown here
        "not_covered": feature.not_covered,
        "part_of": feature.parent.id if feature.parent else None,
        "aliases": feature.aliases,
        "apis": feature.apis,
        "urls": feature_urls(site_url, feature),
        "entries": [entry_record(entry, site_url) for entry in feature.entries],
    }


def level_changes(feature: Feature) -> dict[str, str]:
    """{version: level key} at each release where the feature's level in effect changes ('removed'
    from its removal on). Its level as of release R is the value at the latest of these versions
    at or before R in release order (releases.json lists the order): one item per change, not per
    release, so the document grows with the entries, not with features x releases."""
    return {release.version: state for release, state in feature.level_history}


def release_record(release: Release, site_url: str) -> dict:
    return {
        "version": release.version,
        "date": release.date,
        "scheme": release.scheme,
        "title": dict(release.title),
        "summary": dict(release.summary),
        "sources": [{"kind": s.kind, "lang": s.lang, "url": s.url} for s in release.sources],
        "urls": release_urls(site_url, release),
        "features": [entry.id for entry in release.features],
        "changes": [entry.id for entry in release.changes],
        # releases not described between the previous release and this one
        "not_described_before": release.not_described_before,
    }


def event_record(event: Event, site_url: str) -> dict:
    return {
        "release": event.release.version,
        "kind": event.kind,
        "feature": event.feature.id,
        "before": level_record(event.before),
        "after": level_record(event.after),
        "title": dict(event.entry.title),
        "urls": release_urls(site_url, event.release, event.entry.id),
    }


def _document(catalog: Catalog, **content) -> dict:
    return {
        "schema_version": SCHEMA_VERSION,
        "product": dict(catalog.product_name),
        "not_described": catalog.not_described,
        **content,
    }


def features_document(
    catalog: Catalog, features: list[Feature], site_url: str, give_way: Callable[[], None] = _go_on
) -> dict:
    """give_way: called every few hundred features (under `serve`, a rebuild goes first)."""
    return _document(catalog, features=[feature_record(f, site_url) for f in _in_steps(features, give_way)])


def release_document(catalog: Catalog, release: Release, site_url: str) -> dict:
    return _document(catalog, release=release_record(release, site_url))


def releases_document(catalog: Catalog, site_url: str) -> dict:
    return _document(catalog, releases=[release_record(r, site_url) for r in catalog.releases])


def changelog_document(catalog: Catalog, site_url: str, give_way: Callable[[], None] = _go_on) -> dict:
    """Every changelog event, newest release first, in changelog order within a release."""
    events = (event for release in catalog.releases_newest_first for event in release.events)
    return _document(catalog, events=[event_record(event, site_url) for event in _in_steps(events, give_way)])


def _in_steps(items: Iterable, give_way: Callable[[], None]) -> Iterator:
    """The items, with give_way() before every few hundred: a few milliseconds of work each."""
    for number, item in enumerate(items):
        if number % 200 == 0:
            give_way()
        yield item


def to_json(document: dict, *, compact: bool = False) -> bytes:
    """Deterministic JSON: the same catalog always gives the same bytes. Compact for the site's
    files: smaller to download, and only compact JSON has Python's C encoder (indented JSON is
    encoded in Python, a large part of a rebuild at 80 releases: see CONTRIBUTING's profile);
    indented for people reading `query`'s output."""
    if compact:
        text = json.dumps(document, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    else:
        text = json.dumps(document, ensure_ascii=False, indent=1, sort_keys=True)
    return (text + "\n").encode("utf-8")


def schema() -> dict:
    return json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))


def matches(
    feature: Feature,
    *,
    stability: str = "",
    as_of: Release | None = None,
    release: str = "",
    area: str = "",
    text: str = "",
    lang: str,
) -> bool:
    """The features index's filter (releasekb.js `matches`), for `releasekb query`: a feature
    matches a level when that is its level as of release `as_of` (the latest stated at or before
    it; required with `stability`), and a release when an entry of that release mentions it;
    every word of `text` must occur in its id, API names, titles or summaries."""
    if area and feature.area.key != area:
        return False
    if release and release not in {r.version for r in feature.releases}:
        return False
    if stability:
        if as_of is None:
            raise ValueError("a level is matched as of a release: give as_of")
        state = feature.level_as_of(as_of)
        if state is None or state.level.key != stability:
            return False
    haystack = feature.filter_text(lang)
    return all(word in haystack for word in text.lower().split())
