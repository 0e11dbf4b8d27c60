"""Another product changes its data folder and its hand-written pages, nothing else: the names in
every title, description, feed and inventory come from its project.yaml, in both languages."""

from __future__ import annotations

import re

import sphobjinv

TITLE = re.compile(r"<title>(.*?)</title>", re.S)
DESCRIPTION = re.compile(r'<meta name="description" content="([^"]*)"')


def test_every_page_title_carries_the_products_own_site_name(fixture_site):
    """The fixture project (Acme) uses the project's own mkdocs*.yml unchanged."""
    for lang_prefix, site_name, description in (
        ("", "Acme release notes", "What each Acme release brought"),
        ("zh/", "Acme 版本说明", "Acme 各版本带来了什么"),
    ):
        pages = [
            path
            for path in (fixture_site / lang_prefix).rglob("index.html")
            if lang_prefix or not path.relative_to(fixture_site).parts[0] == "zh"
        ]
        assert len(pages) > 10
        for page in pages:
            text = page.read_text(encoding="utf-8").partition("</head>")[0]  # charts have <title>s too
            (title,) = TITLE.findall(text)
            assert title.strip().endswith(site_name), (page, title)
            # a release's, feature's or level's page describes itself; the others, the site
            own = page.relative_to(fixture_site / lang_prefix).parts[0] in ("releases", "features", "stability")
            own = own and page.parent.name not in ("releases", "features", "stability")
            meta = DESCRIPTION.search(text)[1]
            assert meta and (own or meta.startswith(description)), (page, meta)
            assert "PyTorch" not in title + meta
    release = (fixture_site / "releases" / "1.0" / "index.html").read_text(encoding="utf-8")
    assert '<meta name="description" content="The first release of Acme.">' in release


def test_feeds_and_inventory_name_the_product(fixture_site):
    for prefix, site_name in (("", "Acme release notes"), ("zh/", "Acme 版本说明")):
        feed = (fixture_site / prefix / "feed.xml").read_text(encoding="utf-8")
        assert f"<title>{site_name}</title>" in feed
        assert "PyTorch" not in feed
        inventory = sphobjinv.Inventory(fname_zlib=str(fixture_site / prefix / "objects.inv"))
        assert inventory.project == site_name
        assert {obj.dispname for obj in inventory.objects if obj.name.startswith("release-")} == {
            "Acme 1.0",
            "Acme 1.1",
            "Acme 2.0",
        }
