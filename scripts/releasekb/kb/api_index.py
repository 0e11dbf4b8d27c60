"""The API index: what the knowledge base says about each API name, for `releasekb check`.

One record per (name, use) that some entry lists (`torch.fft` used as a module and `torch.fft`
called as a function are two records): which release and feature introduced it, the levels that
feature was published at, the releases that deprecated, broke or removed it, and every entry that
mentions it with its permanent addresses. It is derived from the catalog alone, published as
/api/apis.json (described by api_schema.json), and `check` reads either that file (`--index`,
check/index_source.py) or the same document built from a data folder, so both give the same
findings.
"""

from __future__ import annotations

from releasekb.kb import api
from releasekb.kb.catalog import UNLABELED, ApiRef, Catalog, Entry
from releasekb.kb.model import code_language
from releasekb.kb.urls import API_APIS, API_SCHEMA_VERSION

INDEX_PATH = API_APIS  # where the site publishes it
# The change kinds a record lists releases of, by the record's field
CHANGE_KINDS = {"deprecation": "deprecated_in", "breaking": "breaking_in"}


def index_document(catalog: Catalog, site_url: str) -> dict:
    """The whole /api/apis.json document."""
    return {
        "schema_version": API_SCHEMA_VERSION,
        "product": dict(catalog.product_name),
        "releases": [
            {"version": r.version, "date": r.date, "changes_without_apis": _changes_without_apis(r.entries)}
            for r in catalog.releases
        ],
        "not_described": catalog.not_described,
        "levels": [
            {"key": level.key, "rank": level.rank, "name": dict(level.name)} for level in catalog.levels.values()
        ],
        "code_roots": {language: list(roots) for language, roots in catalog.code_roots.items()},
        "apis": api_records(catalog, site_url),
    }


def _changes_without_apis(entries: list[Entry]) -> list[dict]:
    """The release's change entries that list no API: no scan of code can find them (Python 2
    support removed), and `check` says how many its range holds, so that a clean report is not
    read as a safe upgrade."""
    return [
        {
            "id": entry.id,
            "kind": entry.kind,
            "title": dict(entry.title),
            **({"takes_effect": entry.takes_effect} if entry.takes_effect else {}),
        }
        for entry in entries
        if entry.is_change and not entry.api_refs
    ]


def api_records(catalog: Catalog, site_url: str) -> list[dict]:
    """One record per (name, use), sorted by name then use."""
    listings: dict[tuple[str, str], list[tuple[Entry, ApiRef]]] = {}
    for release in catalog.releases:  # oldest first, so each list is in version order
        for entry in release.entries:
            for ref in entry.api_refs:
                listings.setdefault((ref.name, ref.use), []).append((entry, ref))
    return [_record(name, use, listings[(name, use)], catalog, site_url) for name, use in sorted(listings)]


def _record(name: str, use: str, listed: list[tuple[Entry, ApiRef]], catalog: Catalog, site_url: str) -> dict:
    introducing = next((entry for entry, ref in listed if ref.introduced), None)
    changes = [(entry, ref) for entry, ref in listed if entry.is_change]
    removal = next((entry for entry, _ in changes if entry.kind == "removal"), None)
    replacing = next((ref for _, ref in changes if ref.replacement), None)
    return {
        "name": name,
        "use": use,
        "language": code_language(name, catalog.code_roots),
        "introduced_in": introducing.release.version if introducing else None,
        "feature": introducing.feature.id if introducing else None,
        "levels": _levels(introducing),
        **{field: [e.release.version for e, _ in changes if e.kind == kind] for kind, field in CHANGE_KINDS.items()},
        "removed_in": removal.release.version if removal else None,
        "replacement": replacing.replacement if replacing else None,
        # false: the replacement takes other arguments or gives other results (see the migration)
        "replacement_drop_in": replacing.drop_in if replacing else None,
        "entries": [_entry_record(entry, ref, site_url) for entry, ref in _first_ref_per_entry(listed).items()],
    }


def _first_ref_per_entry(listed: list[tuple[Entry, ApiRef]]) -> dict[Entry, ApiRef]:
    refs: dict[Entry, ApiRef] = {}
    for entry, ref in listed:
        refs.setdefault(entry, ref)
    return refs


def _levels(introducing: Entry | None) -> dict[str, str]:
    """{version: level key} of every feature entry of the introducing entry's feature: the whole
    feature's lifecycle, not only the entries that list this API (a module promoted to stable
    promotes its functions)."""
    if introducing is None:
        return {}
    return {
        entry.release.version: entry.level.key if entry.level else UNLABELED
        for entry in introducing.feature.entries
        if not entry.is_change
    }


def _entry_record(entry: Entry, ref: ApiRef, site_url: str) -> dict:
    """The entry as the record of one of its APIs lists it; `when` only when the entry concerns
    some calls of the API only (absent: every use)."""
    return {
        "id": entry.id,
        "release": entry.release.version,
        "kind": entry.kind,
        "is_change": entry.is_change,
        "level": entry.level.key if entry.level else None,
        "title": dict(entry.title),
        "migration": dict(entry.migration) if entry.migration else None,
        **({"takes_effect": entry.takes_effect} if entry.takes_effect else {}),
        "urls": api.release_urls(site_url, entry.release, entry.id),
        "feature_urls": api.feature_urls(site_url, entry.feature),
        **({"when": ref.when.as_dict()} if ref.when else {}),
    }
