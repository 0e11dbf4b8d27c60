"""Rendering: escaping, anchors, links, outlines and interface strings."""

import re

import pytest
import yaml
from mkdocs.config import load_config
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from helpers import LANGUAGES, ROOT, html_pages
from releasekb.common.i18n import LOCALES_DIR
from releasekb.kb.model import RESERVED_ANCHORS
from releasekb.kb.urls import FEATURES_INDEX, STABILITY_INDEX, relative_url
from releasekb.site.mkdocs_pages import markdown_title
from releasekb.site.render import Rows, code, escape_text, render_pages
from releasekb.site.rendered_page import Heading, RenderedPage


@pytest.fixture(scope="module")
def pages(fixture_catalog):
    return html_pages(fixture_catalog)


def test_every_language_has_the_same_pages(pages):
    trees = {lang: {p.split("/", 1)[1] for p in pages if p.startswith(lang + "/")} for lang in LANGUAGES}
    assert trees["en"] == trees["zh"]
    assert {
        "index.md",
        "releases/1.0.md",
        "features/widgets.md",
        "stability/stable.md",
        "stability/unlabeled.md",
        "changelog/index.md",
        "changelog/upgrade.md",
        "changelog/1.0-to-2.0.md",  # a former address, listed under redirects: in project.yaml
    } <= trees["en"]
    # One upgrade page answers every pair: only the listed former addresses have a page.
    assert sorted(p for p in trees["en"] if p.startswith("changelog/")) == [
        "changelog/1.0-to-1.1.md",
        "changelog/1.0-to-2.0.md",
        "changelog/1.1-to-2.0.md",
        "changelog/index.md",
        "changelog/upgrade.md",
    ]


def test_data_is_escaped_for_tables_and_html(pages):
    page = pages["en/releases/1.0.md"]
    assert "<b>" not in page and "&lt;b&gt;tags&lt;/b&gt;" in page
    assert "Tables | pipes" in page
    level_page = pages["en/stability/stable.md"]
    (item,) = [item for item in re.findall(r"<li[ >].*?</li>", level_page, re.S) if "Widgets" in item]
    assert item.count("<p>") == 2 and "<b>" not in item  # the markup in the summary stayed text


def test_backticks_become_code_and_newlines_cannot_break_rows():
    assert escape_text("use `a<b` now") == "use <code>a&lt;b</code> now"
    assert escape_text("one\n\ntwo") == "one two"
    assert escape_text("odd ` tick & <i>") == "odd ` tick &amp; &lt;i&gt;"


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("torch.nn.functional", "torch.<wbr>nn.<wbr>functional"),
        ("set_deterministic", "set_<wbr>deterministic"),
        ("c10::Scalar", "c10::<wbr>Scalar"),
        ("torch/csrc", "torch/<wbr>csrc"),
        ("__init__", "__init__"),  # no letters before the underscores
        ("x.shape", "x.shape"),  # a one-letter part
        ("F.relu", "F.relu"),
        ("ab._cd", "ab._cd"),  # no letter or digit after the dot, two separators in a row
        ("ab.c.d", "ab.<wbr>c.d"),  # the second dot follows a one-letter part
    ],
)
def test_code_may_break_only_after_a_separator_between_parts(name, shown):
    assert code(name) == f"<code>{shown}</code>"


def test_feature_anchors_are_the_ids_in_both_languages(pages):
    for lang in LANGUAGES:
        assert '<h4 id="widgets">' in pages[f"{lang}/releases/1.0.md"]
        assert '<h3 id="old-reader">' in pages[f"{lang}/releases/1.1.md"]


def test_no_english_interface_text_on_chinese_pages(pages):
    english = yaml.safe_load((LOCALES_DIR / "en.yaml").read_text(encoding="utf-8"))
    chinese = yaml.safe_load((LOCALES_DIR / "zh.yaml").read_text(encoding="utf-8"))
    page = pages["zh/releases/1.1.md"]
    for key in ("highlights", "stability_summary", "features_by_area", "changes_title", "sources", "migration"):
        assert english[key] not in page or english[key] == chinese[key], key


def test_locales_define_the_same_keys():
    tables = [yaml.safe_load((LOCALES_DIR / f"{lang}.yaml").read_text(encoding="utf-8")) for lang in LANGUAGES]
    assert all(set(t) == set(tables[0]) for t in tables)


def test_migration_advice_is_shown(pages):
    assert 'Pass <code>colour="red"</code> to keep the old look.' in pages["en/releases/2.0.md"]


def test_relative_urls():
    assert relative_url("features/index.md", "features/widgets.md") == "widgets/"
    assert relative_url("features/index.md", "releases/1.0.md") == "../releases/1.0/"
    assert relative_url("index.md", "releases/1.0.md") == "releases/1.0/"
    assert relative_url("releases/1.0.md", "index.md") == "../../"


def test_section_anchors_of_the_release_page_are_reserved(pages):
    page = pages["en/releases/2.0.md"]
    used = set(re.findall(r'<h[2-6] id="([a-z0-9-]+)">', page))
    sections = used - {"widget-colours", "old-reader", "default-colour"}
    assert sections - set(RESERVED_ANCHORS) == {"area-core"}


def test_the_page_object_gives_mkdocs_the_title_toc_and_anchors_of_a_page(fixture_catalog):
    found = render_pages(fixture_catalog, "en").pages["releases/1.1.md"]
    assert found.title == "Acme 1.1"
    (top,) = found.toc_tokens()  # the h1, with every section below it
    assert top["level"] == 1
    sections = [(token["level"], token["id"]) for token in top["children"]]
    assert (2, "features") in sections and (2, "sources") in sections
    features = next(token for token in top["children"] if token["id"] == "features")
    areas = [token["id"] for token in features["children"]]
    assert areas and all(area.startswith("area-") for area in areas)
    assert "widgets" in {token["id"] for area in features["children"] for token in area["children"]}
    changes = next(token for token in top["children"] if token["id"] == "changes")
    assert [token["level"] for token in changes["children"]] == [3] and changes["children"][0]["id"] == "old-reader"
    # alias anchors (<span id=...>) count as anchors, though not as headings
    assert {"old-reader", "features", "sources"} <= found.anchor_ids()
    # every heading is in the HTML as Markdown's toc extension makes it, none left as Markdown
    assert '<h2 id="features">' in found.html and "{#" not in found.html
    assert found.html.count("<h") == len(found.headings) + found.html.count("<hr")


def test_the_page_object_names_headings_by_their_text_and_exports_them_as_markdown():
    title = Heading.of(1, "Use <code>a&lt;b</code>", "_title")
    part = Heading.of(2, 'Part &amp; <a href="y/">whole</a> *x*', "x-1")
    body = f"\n{title.markdown_line}\n\n<p>text</p>\n{part.markdown_line}\n\n"
    found = RenderedPage("a.md", body, (title, part), "About a", searched=False)
    assert found.title == "Use a<b"
    (child,) = found.toc_tokens()[0]["children"]
    assert (child["id"], child["name"], child["level"]) == ("x-1", "Part &amp; whole &#42;x&#42;", 2)
    assert found.html.startswith('<h1 id="_title">Use <code>a&lt;b</code><a class="headerlink"')
    assert found.meta() == {"description": "About a", "search": {"exclude": True}}
    exported = found.markdown()
    assert exported.startswith('---\ntitle: "Use a<b"\ndescription: "About a"\nsearch:\n  exclude: true\n---\n')
    assert '## Part &amp; <a href="y/">whole</a> &#42;x&#42; {#x-1}' in exported


@pytest.mark.parametrize(
    "title",
    [
        "`__init__` takes *args and [options]",
        "a & b <i>",
        "x #",
        "# 1. _a_ \\*",
        "中文 标题",
        "a\u00a0b\u3000c",
        " a b ",
    ],
)
def test_the_hook_names_a_generated_page_as_mkdocs_would(title, tmp_path):
    """MkDocs does not convert a generated page (plugin._render_generated): its title must
    be the one MkDocs' own conversion of the page's Markdown, `# title`, would give it."""
    config = load_config(str(ROOT / "mkdocs.yml"))
    file = File("page.md", str(tmp_path), str(tmp_path / "site"), use_directory_urls=True)
    page = Page(None, file, config)
    page.markdown, page.meta = "# " + markdown_title(title), {}
    page.render(config, Files([file]))
    assert page.title == markdown_title(title)


def test_compiled_templates_are_kept_apart_by_the_code_that_calls_them(monkeypatch):
    """Jinja checks a cached template against its source only: after an upgrade that changes how
    a filter is called, an old entry would call it the old way (a TypeError on every page)."""
    import importlib.metadata

    from releasekb.site import render

    before = render.bytecode_cache.__wrapped__().pattern
    assert before == render.bytecode_cache.__wrapped__().pattern  # one key for one installation
    real_version = importlib.metadata.version
    monkeypatch.setattr(
        importlib.metadata, "version", lambda name: "99.0" if name == "mkdocs-material" else real_version(name)
    )
    assert render.bytecode_cache.__wrapped__().pattern != before


def test_compiled_templates_are_kept_with_either_engine(monkeypatch):
    """ProperDocs builds without MkDocs installed: a missing distribution is part of the key."""
    import importlib.metadata

    from releasekb.site import render

    before = render.bytecode_cache.__wrapped__().pattern
    real_version = importlib.metadata.version

    def without_mkdocs(name):
        if name == "mkdocs":
            raise importlib.metadata.PackageNotFoundError(name)
        return real_version(name)

    monkeypatch.setattr(importlib.metadata, "version", without_mkdocs)
    assert render.bytecode_cache.__wrapped__().pattern != before


def test_an_overview_rendered_with_kept_rows_links_where_it_did(fixture_catalog):
    """A row kept from the render before (Rows, under `serve`) still tells the page what it links
    to: the incremental build reads a page's links to know when to render it again."""
    rows = Rows()
    first = render_pages(fixture_catalog, "en", rows=rows)
    overviews = {FEATURES_INDEX, STABILITY_INDEX, "stability/stable.md"}
    assert rows and {key[2] for key in rows} >= overviews  # each of them keeps rows
    again = render_pages(fixture_catalog, "en", only=overviews, rows=rows)
    assert set(again.pages) == overviews
    for path in overviews:
        assert again.links[path] == first.links[path] and any(p.startswith("features/") for p in again.links[path])
        assert again.pages[path].html == first.pages[path].html
