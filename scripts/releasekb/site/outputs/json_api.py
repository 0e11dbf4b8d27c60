"""The JSON API (the default language's site only, every text in every language):
/api/features.json, /api/releases.json, /api/releases/<version>.json, /api/changelog.json, the
APIs' index check reads, and the JSON Schemas of the API and of check's report."""

from __future__ import annotations

import functools
from collections.abc import Callable

from releasekb.kb import api, api_index, check_schema
from releasekb.kb.catalog import Catalog
from releasekb.kb.urls import API_CHANGELOG, API_FEATURES, API_RELEASES, API_SCHEMA, api_release_path
from releasekb.site.outputs.output import go_on


def describe(lang: str) -> str:
    return "the JSON API (api/)"


def wanted(catalog: Catalog, lang: str, section: bool) -> bool:
    """In the default language's site of a whole site: it states every language's addresses."""
    return lang == catalog.default_language and not section


def files(catalog: Catalog, lang: str, site_url: str, give_way: Callable[[], None] = go_on) -> dict[str, bytes]:
    return api_files(catalog, site_url, give_way)


def paths(catalog: Catalog, lang: str, site_url: str) -> set[str]:
    return set(api_files(catalog, site_url))


def api_files(catalog: Catalog, site_url: str, give_way: Callable[[], None] = go_on) -> dict[str, bytes]:
    # each document made, and each written as JSON, as a step of its own: a build under `serve`
    # goes first (give_way)
    makers = {
        API_FEATURES: lambda: api.features_document(catalog, list(catalog.features.values()), site_url, give_way),
        API_RELEASES: lambda: api.releases_document(catalog, site_url),
        API_CHANGELOG: lambda: api.changelog_document(catalog, site_url, give_way),
        API_SCHEMA: api.schema,
        api_index.INDEX_PATH: lambda: api_index.index_document(catalog, site_url),
        check_schema.SCHEMA_PATH: check_schema.schema,
    }
    for release in catalog.releases:
        makers[api_release_path(release.version)] = functools.partial(api.release_document, catalog, release, site_url)
    made = {}
    for path, make in makers.items():
        give_way()
        document = make()
        give_way()
        made[path] = api.to_json(document, compact=True)
    return made
