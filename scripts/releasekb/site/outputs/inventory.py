"""An intersphinx inventory, /objects.inv (and /zh/objects.inv): every feature and release as a
`std:label`, so Sphinx (intersphinx) and mkdocstrings (autorefs) projects can cross-reference
them. An inventory line holds no line break, whatever the data.

Written here, in Sphinx's format (version 2: four comment lines, then a line per entry,
compressed with zlib), rather than with sphobjinv, which wrote it before: importing sphobjinv
(jsonschema, attrs, urllib) cost 80 ms of CPU in each language's process of every build, more
than writing the file. The tests read the inventories the builds write with sphobjinv, and
tests/test_inventory.py checks that this one is byte for byte the file sphobjinv writes."""

from __future__ import annotations

import zlib
from collections.abc import Callable

from releasekb.common.safe_text import visible
from releasekb.kb.catalog import Catalog
from releasekb.kb.urls import INVENTORY, feature_path, page_url, release_path
from releasekb.site.outputs.output import go_on


def describe(lang: str) -> str:
    return f"{INVENTORY} ({lang})"


def wanted(catalog: Catalog, lang: str, section: bool) -> bool:
    return True


def files(catalog: Catalog, lang: str, site_url: str, give_way: Callable[[], None] = go_on) -> dict[str, bytes]:
    return {INVENTORY: inventory(catalog, lang, give_way)}


def paths(catalog: Catalog, lang: str, site_url: str) -> set[str]:
    return {INVENTORY}


def inventory_name(kind: str, key: str) -> str:
    """Inventory names: `feature-<id>` and `release-<version>` (Sphinx labels are lowercase)."""
    return f"{kind}-{key}".lower()


def inventory_field(text: str) -> str:
    """A text as a field of an inventory line, which holds one entry: every run of whitespace (a
    line break too) one space, and control characters visible. A title with a line break would
    otherwise end its line and write an entry of its own, which could send a name another
    project links to (`feature-torch-fft`) to another host."""
    return visible(" ".join(text.split()))


def inventory(catalog: Catalog, lang: str, give_way: Callable[[], None] = go_on) -> bytes:
    """A Sphinx inventory (objects.inv, as `std:label` entries) of every feature and release,
    so Sphinx (intersphinx) and mkdocstrings (autorefs) projects can cross-reference them."""
    header = _HEADER.format(
        project=inventory_field(catalog.site_name[lang]), version=inventory_field(catalog.latest.version)
    )
    entries = [
        (inventory_name("release", r.version), release_path(r.version), f"{catalog.product_name[lang]} {r.version}")
        for r in catalog.releases
    ]
    entries += [(inventory_name("feature", f.id), feature_path(f.id), f.title[lang]) for f in catalog.features.values()]
    lines = []
    for number, (name, path, dispname) in enumerate(entries):
        if number % _ENTRIES_BETWEEN_STEPS == 0:
            give_way()  # thousands of entries at 80 releases: a build under `serve` goes first
        lines.append(inventory_line(inventory_field(name), page_url(path), inventory_field(dispname)))
    give_way()
    return header.encode("utf-8") + zlib.compress("".join(lines).encode("utf-8"), _SPHINX_LEVEL)


def inventory_line(name: str, uri: str, dispname: str) -> str:
    """One entry's line, a `std:label` of priority -1 (left out of Sphinx's own search), with
    Sphinx's abbreviations: `$` for an address that ends with the name, `-` for a display name
    that is the name."""
    if uri.endswith(name):
        uri = uri[: -len(name)] + "$"
    if dispname == name:
        dispname = "-"
    return f"{name} std:label -1 {uri} {dispname}\n"


# Sphinx's inventory header, version 2; what follows it is compressed with zlib, at the level
# Sphinx's HTML builder uses.
_HEADER = (
    "# Sphinx inventory version 2\n"
    "# Project: {project}\n"
    "# Version: {version}\n"
    "# The remainder of this file is compressed using zlib.\n"
)
_SPHINX_LEVEL = 9
_ENTRIES_BETWEEN_STEPS = 200  # a few milliseconds of work
