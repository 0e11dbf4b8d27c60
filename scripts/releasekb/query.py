"""`releasekb query`: the features index's filter from the YAML alone, no site needed.

The filter is the site's (api.matches) and the JSON is the site's API shape (api.py), so a
script reading `releasekb query --format json` and one reading /api/features.json agree.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from releasekb import api
from releasekb.catalog import Catalog, Feature
from releasekb.cjk import display_width
from releasekb.i18n import interface_strings


@dataclass(frozen=True)
class Query:
    stability: str = ""
    release: str = ""
    area: str = ""
    text: str = ""
    lang: str = "en"


def unknown_values(catalog: Catalog, query: Query) -> list[str]:
    """Usage problems: values the catalog does not know, with the ones it does."""
    problems = []
    for option, value, known in (
        ("--stability", query.stability, list(catalog.levels)),
        ("--release", query.release, [r.version for r in catalog.releases]),
        ("--area", query.area, list(catalog.areas)),
    ):
        if value and value not in known:
            problems.append(f"{option}: unknown value {value!r} (one of: {', '.join(known)})")
    return problems


def run(catalog: Catalog, query: Query) -> list[Feature]:
    return [
        feature
        for feature in catalog.features.values()
        if api.matches(
            feature,
            stability=query.stability,
            release=query.release,
            area=query.area,
            text=query.text,
            lang=query.lang,
        )
    ]


def print_json(catalog: Catalog, features: list[Feature], site_url: str) -> None:
    sys.stdout.buffer.write(api.to_json(api.features_document(catalog, features, site_url)))
    sys.stdout.flush()


def print_table(features: list[Feature], lang: str) -> None:
    rows = [("id", "level", "since", "area", "title")]
    for feature in features:
        since = feature.level_since
        rows.append(
            (
                feature.id,
                _level_text(feature, lang),
                since.version if since else "-",
                feature.area.name[lang],
                feature.title[lang],
            )
        )
    widths = [max(display_width(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    for row in rows:
        cells = [cell + " " * (width - display_width(cell)) for cell, width in zip(row, widths, strict=False)]
        print("  ".join([*cells, row[-1]]))


def _level_text(feature: Feature, lang: str) -> str:
    """The current level, and which announcement stated it when not its release's own."""
    entry = feature.level_entry
    if entry is None:
        return "-"
    if entry.level_stated_by is None:
        return entry.level.name[lang]
    note = interface_strings(lang)["level_stated_by_short"].format(version=entry.level_stated_by)
    return f"{entry.level.name[lang]} {note}"
