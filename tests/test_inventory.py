"""objects.inv is written by hand in Sphinx's format (outputs/inventory.py says why): byte for byte
the file sphobjinv, a library that reads and writes Sphinx inventories, writes for the same
entries, and every entry read back by sphobjinv as it was given."""

from __future__ import annotations

import pytest
import sphobjinv

from helpers import LANGUAGES, catalog_of, fixture_data
from releasekb.kb.urls import feature_path, page_url, release_path
from releasekb.site.outputs import inventory as sphinx_inventory
from releasekb.site.outputs.inventory import inventory_field, inventory_line, inventory_name


def written_by_sphobjinv(catalog, lang: str) -> bytes:
    """The inventory as sphobjinv writes it: the same project, version and entries."""
    inv = sphobjinv.Inventory()
    inv.project = inventory_field(catalog.site_name[lang])
    inv.version = inventory_field(catalog.latest.version)
    entries = [
        (inventory_name("release", r.version), release_path(r.version), f"{catalog.product_name[lang]} {r.version}")
        for r in catalog.releases
    ]
    entries += [(inventory_name("feature", f.id), feature_path(f.id), f.title[lang]) for f in catalog.features.values()]
    for name, path, dispname in entries:
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
    return sphobjinv.compress(inv.data_file(contract=True))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_inventory_is_the_file_sphobjinv_writes(real_catalog, lang):
    assert sphinx_inventory.inventory(real_catalog, lang) == written_by_sphobjinv(real_catalog, lang)


def test_a_title_that_is_its_name_is_abbreviated_as_sphinx_does(tmp_path):
    catalog = catalog_of(fixture_data(tmp_path))
    feature = catalog.features["widgets"]
    title = feature.title  # the text the feature's pages and entries are titled with
    title["en"] = inventory_name("feature", "widgets")  # the display name "-" stands for
    title["zh"] = "小部件\n（旧名）\x1b[31m"  # a line break and a control character
    for lang in LANGUAGES:
        written = sphinx_inventory.inventory(catalog, lang)
        assert written == written_by_sphobjinv(catalog, lang)
        read = sphobjinv.Inventory(written)
        assert read.project == inventory_field(catalog.site_name[lang])
        assert len(read.objects) == len(catalog.releases) + len(catalog.features)
        widgets = next(entry for entry in read.objects if entry.name == "feature-widgets")
        assert (widgets.domain, widgets.role, widgets.priority, widgets.uri) == (
            "std",
            "label",
            "-1",
            "features/widgets/",
        )
        assert widgets.dispname_expanded == inventory_field(title[lang])
    assert b"feature-widgets std:label -1 features/widgets/ -\n" in sphobjinv.decompress(
        sphinx_inventory.inventory(catalog, "en")
    )


@pytest.mark.parametrize(
    ("name", "uri", "dispname"),
    [("feature-x", "features/x/", "X"), ("release-1.4", "api/release-1.4", "release-1.4"), ("a", "a", "b c")],
)
def test_a_line_is_sphobjinvs_contracted_line(name, uri, dispname):
    expected = sphobjinv.DataObjStr(name=name, domain="std", role="label", priority="-1", uri=uri, dispname=dispname)
    assert inventory_line(name, uri, dispname) == expected.data_line(contract=True) + "\n"
