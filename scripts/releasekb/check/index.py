"""The knowledge base `check` applies: an API index (kb/api_index.py builds one from the data
folder, index_source.py reads a published one), parsed into records (records.py) ready to query.
"""

from __future__ import annotations

from pathlib import Path

from releasekb.check.options import CheckUsage
from releasekb.check.records import ApiRecord, Level


class ApiIndex:
    """An API index document (api_index.index_document or a published apis.json), parsed into
    records (records.py) ready to query. The document must be valid: index_source.load_index
    checks a published one against its schema and references."""

    def __init__(self, document: dict, source: str):
        self.source = source  # what the report names as the knowledge base
        self.product: dict[str, str] = document["product"]
        # the knowledge base's languages, in its order (its texts, the product's name first, have one text in each)
        self.languages: tuple[str, ...] = tuple(self.product)
        self.versions = [release["version"] for release in document["releases"]]
        # the product's releases the knowledge base does not describe (absent from indexes
        # published before it existed)
        self.not_described: list[str] = document.get("not_described") or []
        # the change entries that list no API, which no scan can find (see coverage.py); None
        # when the index does not say (published before releases listed them)
        self.changes_without_apis: list[dict] | None = _changes_without_apis(document["releases"])
        self.order = {version: position for position, version in enumerate(self.versions)}
        self.levels = {level["key"]: Level.parse(level) for level in document["levels"]}
        self.code_roots: dict[str, list[str]] = document.get("code_roots") or {}
        parsed = map(ApiRecord.parse, document["apis"])
        self.records: dict[tuple[str, str], ApiRecord] = {record.key: record for record in parsed}

    def ranked_levels(self) -> list[str]:
        """Level keys with a rank, most stable first: the choices of --max-stability."""
        return [key for key, level in self.levels.items() if level.rank is not None]

    def level_as_of(self, record: ApiRecord, version: str | None) -> tuple[str, str] | None:
        """(release, level key) of the latest level with a rank that the introducing feature
        was published at, at or before the release `version`; None when there is none (an
        unlabeled mention says nothing about stability, so it does not replace a stated level)
        or `version` is None (before the first release described)."""
        if version is None:
            return None
        published = [
            (release, key)
            for release, key in record.levels.items()
            if self.order[release] <= self.order[version] and self.levels[key].rank is not None
        ]
        return max(published, key=lambda item: self.order[item[0]], default=None)

    def position(self, release: str | None) -> int:
        """Where a compared release (Options.old_release/new_release) is in the index's order: -1
        before the first release, so that no release described is at or before it."""
        return -1 if release is None else self.order[release]


def _changes_without_apis(releases: list[dict]) -> list[dict] | None:
    if any("changes_without_apis" not in release for release in releases):
        return None
    return [{**change, "release": r["version"]} for r in releases for change in r["changes_without_apis"]]


def open_index(index_source: str | None, data_dir: Path, site_url: str = "", timeout: float | None = None) -> ApiIndex:
    """The API index from a published apis.json (--index: a file or an http(s) address, read
    within `timeout` seconds), else built from the data folder, as the site would publish it.
    Raises index_source.IndexUnreadable or problems.DataError when it cannot be read."""
    from releasekb.check.index_source import DEFAULT_TIMEOUT_SECONDS, load_index
    from releasekb.kb.api_index import index_document
    from releasekb.kb.model import suggested_code_section

    if index_source:
        # load_index checks the schema and every reference: ApiIndex and the findings rely on both
        index = ApiIndex(load_index(index_source, timeout or DEFAULT_TIMEOUT_SECONDS), index_source)
        where = "its knowledge base needs `code.roots` in project.yaml"
    else:
        from releasekb.kb.pipeline import load_catalog

        catalog = load_catalog(data_dir)
        index = ApiIndex(index_document(catalog, site_url or catalog.site_url), str(data_dir))
        names = [name for name, _ in index.records]
        where = f"add `{suggested_code_section(names)}` to {Path(data_dir) / 'project.yaml'}"
    if not any(index.code_roots.values()):
        # the scanner would look for nothing and report a clean codebase, whatever it uses
        raise CheckUsage(f"{index.source} declares no code roots, so no use of its APIs can be found in code: {where}")
    return index
