"""`releasekb query`: the features index's filter from the YAML alone, no site needed.

The filter is the site's (api.matches) and the JSON is the site's API shape (api.py), so a
script reading `releasekb query --format json` and one reading /api/features.json agree.
Nothing from the data reaches the terminal raw (safe_text): the table shows control characters
as escapes, the JSON writes them as \\u escapes.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from releasekb.common.cjk import display_width
from releasekb.common.i18n import interface_strings
from releasekb.common.locales import Strings
from releasekb.common.safe_text import github_log_line, json_escaped, visible
from releasekb.kb import api
from releasekb.kb.catalog import Catalog, Feature, LevelInEffect, Release


@dataclass(frozen=True)
class Query:
    stability: str = ""
    release: str = ""  # mentioned in this release
    area: str = ""
    text: str = ""
    lang: str = ""  # the language of `text`; default: the knowledge base's first
    as_of: str = ""  # levels as of this release; default: `release` when given, else the latest

    def as_of_release(self, catalog: Catalog) -> Release:
        """The release levels are read as of, as the features index reads its address."""
        return catalog.release(self.as_of or self.release or catalog.latest.version)


def unknown_values(catalog: Catalog, query: Query) -> list[str]:
    """Usage problems: values the catalog does not know, with the ones it does."""
    problems = []
    for option, value, known in (
        ("--stability", query.stability, list(catalog.levels)),
        ("--release", query.release, [r.version for r in catalog.releases]),
        ("--as-of", query.as_of, [r.version for r in catalog.releases]),
        ("--area", query.area, list(catalog.areas)),
    ):
        if value and value not in known:
            problems.append(visible(f"{option}: unknown value {value!r} (one of: {', '.join(known)})"))
    return problems


def run(catalog: Catalog, query: Query) -> list[Feature]:
    as_of = query.as_of_release(catalog)
    return [
        feature
        for feature in catalog.features.values()
        if api.matches(
            feature,
            stability=query.stability,
            as_of=as_of,
            release=query.release,
            area=query.area,
            text=query.text,
            lang=query.lang or catalog.default_language,
        )
    ]


def print_json(catalog: Catalog, features: list[Feature], site_url: str) -> None:
    text = api.to_json(api.features_document(catalog, features, site_url)).decode("utf-8")
    sys.stdout.buffer.write(json_escaped(text).encode("utf-8"))
    sys.stdout.flush()


def print_table(features: list[Feature], lang: str, as_of: Release | None = None) -> None:
    """A row per feature: its level as of `as_of` (default: the latest release), with where it
    comes from when not that release's own statement, and since when it has had it."""
    rows = [("id", "level", "since", "area", "title")]
    strings = interface_strings(lang, features[0].first.release.catalog.data_dir) if features else None
    for feature in features:
        state = feature.level_as_of(as_of) if as_of else feature.current
        since = feature.level_since_as_of(as_of) if state else None
        removed = feature.removed_in
        if state is None and removed and (as_of is None or removed.order <= as_of.order):
            level = strings["state_removed_in"].format(version=removed.version)  # never its last level
        else:
            level = _level_text(state, lang, strings)
        cells = (
            feature.id,
            level,
            since.version if since else "-",
            feature.area.name[lang],
            feature.title[lang],
        )
        rows.append(tuple(visible(cell) for cell in cells))
    widths = [max(display_width(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    for row in rows:
        cells = [cell + " " * (width - display_width(cell)) for cell, width in zip(row, widths, strict=False)]
        print(github_log_line("  ".join([*cells, row[-1]])))


def _level_text(state: LevelInEffect | None, lang: str, strings: Strings) -> str:
    """A level in effect, and where it comes from when not its release's own statement."""
    if state is None:
        return "-"
    note = state.provenance(strings, short=True)
    return f"{state.level.name[lang]} {note}" if note else state.level.name[lang]
