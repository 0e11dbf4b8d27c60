"""An intersphinx inventory, /objects.inv (and /zh/objects.inv), written with sphobjinv: every
feature and release as a `std:label`, so Sphinx (intersphinx) and mkdocstrings (autorefs)
projects can cross-reference them. An inventory line holds no line break, whatever the data."""

from __future__ import annotations

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
    import sphobjinv

    inv = sphobjinv.Inventory()
    inv.project = inventory_field(catalog.site_name[lang])
    inv.version = inventory_field(catalog.latest.version)
    entries = [
        (inventory_name("release", r.version), release_path(r.version), f"{catalog.product_name[lang]} {r.version}")
        for r in catalog.releases
    ]
    entries += [(inventory_name("feature", f.id), feature_path(f.id), f.title[lang]) for f in catalog.features.values()]
    for number, (name, path, dispname) in enumerate(entries):
        if number % _ENTRIES_BETWEEN_STEPS == 0:
            give_way()  # thousands of entries at 80 releases: a build under `serve` goes first
        inv.objects.append(
            sphobjinv.DataObjStr(
                name=inventory_field(name),
                domain="std",
                role="label",
                priority="-1",
                uri=page_url(path),
                dispname=inventory_field(dispname),
            )
        )
    give_way()
    return sphobjinv.compress(inv.data_file(contract=True))


_ENTRIES_BETWEEN_STEPS = 200  # a few milliseconds of work
