"""What readers look for on their screens (issue 36, items 6 to 9): the stability overview's
at-a-glance tables are cards on phones, as the features index's rows are, and chart text is
12 px or more at 320 px; a legend of the levels on the overview and the index, and notes such as
"(per 1.5)" that lead to their explanation; a filter that empties the features index says why
and offers to widen it; the feed and each feature's badge are offered where they belong; pages
print without their controls; the footer speaks the page's language; the 404 page suggests the
nearest feature address; Material's search dialog has a name.

HTML is read from the real data's built site where no script is involved. The rest is measured
in Chromium (as tests/test_reader.py does): one page per view, viewport and language, many
assertions in each, once the page has loaded and its scripts have run.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest

from helpers import axe_script, static_server
from releasekb.common.i18n import interface_strings
from releasekb.kb.urls import ABOUT_LEVELS_ANCHOR
from releasekb.site.render import levels_attribute

TIMEOUT_MS = 15_000
LANGS = [pytest.param("en", id="en"), pytest.param("zh", id="zh")]
PREFIX = {"en": "", "zh": "zh/"}
VIEWPORTS = [
    pytest.param({"width": 1280, "height": 800}, id="1280"),
    pytest.param({"width": 320, "height": 640}, id="320"),
]
NARROW = 600  # at this width and below, the overview's tables are cards
SETTLED = "() => document.readyState === 'complete' && document.fonts.status === 'loaded'"
# A feature the real data has, and an address one letter away from its page's.
FEATURE, MISTYPED = "torch-fft", "torch-fff"


def page_file(site: Path, lang: str, address: str) -> Path:
    """The built file of a page address ('stability/') in one language's site."""
    return site / PREFIX[lang] / address / "index.html"


def html_of(site: Path, lang: str, address: str) -> str:
    return page_file(site, lang, address).read_text(encoding="utf-8")


def target_of(site: Path, lang: str, address: str, href: str) -> tuple[Path, str]:
    """The file a relative link of a page leads to, and its #fragment."""
    parts = urlsplit(urljoin("/" + PREFIX[lang] + address, href))
    path = site / parts.path.lstrip("/")
    return (path / "index.html" if parts.path.endswith("/") else path), parts.fragment


def level_at_latest(feature) -> str:
    """The level the features index filters a feature by, as of the latest release."""
    history = levels_attribute(feature).split()
    return history[-1].split("=")[1] if history else ""


# --------------------------------------------------------------------------- HTML: no script


@pytest.mark.parametrize("lang", LANGS)
def test_the_legend_explains_every_level_and_the_notes(real_site, real_catalog, lang):
    t = interface_strings(lang)
    for address in ("stability/", "features/"):
        page = html_of(real_site, lang, address)
        legend = re.search(r'<details class="rkb-legend" open>(.*?)</details>', page, re.S)
        assert legend, f"{lang} {address}: no legend of the levels, open"
        text = unescape(legend[1])
        assert t["legend_title"] in text
        for level in real_catalog.levels.values():
            # the name beside its meaning, as text (not a title only a mouse shows)
            assert re.search(
                rf">{re.escape(level.name[lang])}</span></dt><dd>{re.escape(level.description[lang])}</dd>", text
            ), (lang, address, level.key)
        assert t["legend_provenance"] in text
        (href,) = re.findall(r'<a href="([^"]+)">' + re.escape(t["legend_more"]), legend[1])
        about, anchor = target_of(real_site, lang, address, href)
        assert anchor == ABOUT_LEVELS_ANCHOR
        assert f'id="{anchor}"' in about.read_text(encoding="utf-8"), about


@pytest.mark.parametrize("lang", LANGS)
def test_notes_on_levels_link_to_their_explanation(real_site, lang):
    t = interface_strings(lang)
    # "(per 1.5)": the features index shows the RPC parts whose 1.4 level the 1.5 announcement
    # stated (a level page lists levels as of the latest release, which 1.7 states itself)
    note = t["level_stated_by_short"].format(version="1.5")
    for address in ("features/", "features/rpc-api/"):
        page = html_of(real_site, lang, address)
        links = re.findall(r'<a class="rkb-provenance" href="([^"]+)">([^<]+)</a>', page)
        assert links, f"{lang} {address}: no provenance note is a link"
        assert '<span class="rkb-provenance">' not in page, f"{lang} {address}: a note that is not a link"
        if address != "features/rpc-api/":
            assert note in [text for _, text in links], (address, note)
        for href, _ in links:
            about, anchor = target_of(real_site, lang, address, href)
            assert anchor == ABOUT_LEVELS_ANCHOR
            assert f'id="{anchor}"' in about.read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", LANGS)
def test_the_feed_and_the_badges_are_offered(real_site, real_catalog, lang):
    t = interface_strings(lang)
    for address in ("", "changelog/"):
        page = html_of(real_site, lang, address) if address else (real_site / PREFIX[lang] / "index.html").read_text()
        (href,) = re.findall(r'<a href="([^"]+)" type="application/atom\+xml">' + re.escape(t["subscribe_feed"]), page)
        feed, _ = target_of(real_site, lang, address, href)
        assert feed.is_file() and "http://www.w3.org/2005/Atom" in feed.read_text(encoding="utf-8"), feed
    feature = real_catalog.features[FEATURE]
    address = f"features/{FEATURE}/"
    page = html_of(real_site, lang, address)
    section = page[page.index('id="badge"') :]
    assert t["badge_title"] in section[:200] and t["badge_intro"] in unescape(section)
    (src,) = re.findall(r'<p class="rkb-badge-preview"><img src="([^"]+)"', section)
    badge, _ = target_of(real_site, lang, address, src)
    assert badge.is_file() and badge.read_text(encoding="utf-8").startswith("<svg"), badge
    # the Markdown to copy: the badge's address, leading to the feature's page (site paths here;
    # the page's script makes them absolute, see the browser test)
    markdown = re.search(r"<code>(\[!\[.*?\]\(.*?\)\]\(.*?\))\n</code>", section)
    assert markdown, section[:1500]
    alt = t["badge_alt"].format(title=feature.title[lang].replace("`", ""))
    assert unescape(markdown[1]).endswith(
        f"](/{PREFIX[lang]}badges/{FEATURE}.svg)](/{PREFIX[lang]}features/{FEATURE}/)"
    )
    assert f'alt="{alt}"' in unescape(section).replace("&quot;", '"')


@pytest.mark.parametrize("lang", LANGS)
def test_the_footer_and_the_search_dialog_speak_the_pages_language(real_site, lang):
    t = interface_strings(lang)
    before, after = t["footer_made_with"].split("{tool}")
    for address in ("", "features/", "about/"):
        page = html_of(real_site, lang, address) if address else (real_site / PREFIX[lang] / "index.html").read_text()
        made_with = re.search(r'<span class="rkb-made-with">(.*?)<a [^>]+>Material for MkDocs</a>(.*?)</span>', page)
        assert made_with and (made_with[1], made_with[2]) == (before, after), (lang, address)
        dialog = re.search(
            r'<div class="md-search" data-md-component="search" role="dialog" aria-label="([^"]+)">', page
        )
        options = re.search(r'<nav class="md-search__options" aria-label="([^"]+)">', page)
        assert dialog and dialog[1] == options[1], (lang, address)  # Material's own "Search" in this language
    if lang == "zh":
        assert "Made with" not in html_of(real_site, lang, "features/")


def test_the_print_stylesheet_hides_the_controls():
    css = (Path(__file__).parent.parent / "scripts/releasekb/site/theme/assets/releasekb.css").read_text()
    rules = re.search(r"@media print \{(.*?)\n\}", css, re.S)
    assert rules, "no print rules"
    hidden = re.search(r"([^{}]+)\{\s*display: none !important;", rules[1])
    for control in (".rkb-filter", ".rkb-upgrade-picker", ".rkb-empty"):
        assert control in hidden[1], control


# --------------------------------------------------------------------------- in Chromium


@pytest.fixture(scope="module")
def base_url(chromium, real_site: Path) -> Iterator[str]:
    with static_server(real_site) as url:
        yield url


@pytest.fixture
def browse(kept_pages, base_url):
    """open(path, viewport) -> a settled page as a fresh context shows it (a kept page, emptied
    between tests: helpers.KeptPages; other hosts answered empty)."""
    with contextlib.ExitStack() as leases:

        def open_page(path: str, viewport: dict):
            page = leases.enter_context(kept_pages.lend(base_url, viewport, TIMEOUT_MS)).page
            page.goto(base_url + path)
            page.wait_for_function(SETTLED)
            return page

        yield open_page


def expect(*args, **kwargs):
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(*args, **kwargs)


# Every text of the page's charts: its rendered height (the font's line box, which is the
# font size and a little more) and where it is.
CHART_TEXTS = """() => Array.from(document.querySelectorAll("svg.rkb-svg text"), text => {
    const box = text.getBoundingClientRect();
    return {text: text.textContent, height: box.height};
})"""


# axe-core's rule for a dialog's name (a best practice, outside the WCAG tags
# tests/test_accessibility.py runs): Material's search dialog had none.
AXE_DIALOG_NAME = """() => axe.run(document, {runOnly: {type: "rule", values: ["aria-dialog-name"]}})
    .then(results => ({
        checked: results.passes.map(rule => rule.id),
        violations: results.violations.map(rule => rule.nodes.map(node => node.target.join(" "))),
    }))"""


def assert_search_dialog_named(page, where: str) -> None:
    script = axe_script()
    if script is None:
        pytest.fail("axe-playwright-python (axe.min.js) is not installed: pip install -e '.[test]'")
    page.add_script_tag(path=str(script))
    result = page.evaluate(AXE_DIALOG_NAME)
    assert "aria-dialog-name" in result["checked"] and not result["violations"], (where, result)
    name = page.locator(".md-search[role=dialog]").get_attribute("aria-label")
    # Material's own word for its search, in the page's language
    assert name and name == page.locator(".md-search__options").get_attribute("aria-label"), where


def assert_chart_text_readable(page, where: str) -> None:
    texts = page.evaluate(CHART_TEXTS)
    assert texts, f"{where}: no chart"
    small = [text for text in texts if text["height"] < 12]
    assert not small, f"{where}: chart text under 12 px: {small[:5]}"
    overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"{where}: the page scrolls sideways by {overflow} px"


@pytest.mark.browser
@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("lang", LANGS)
def test_stability_overview_on_every_screen(browse, real_catalog, lang, viewport):
    t = interface_strings(lang)
    page = browse("/" + PREFIX[lang] + "stability/", viewport)
    where = f"{lang} stability at {viewport['width']} px"
    assert_chart_text_readable(page, where)
    if viewport["width"] > NARROW:
        assert_search_dialog_named(page, where)
    # the legend is open: each level's meaning is on the screen without hovering
    for level in real_catalog.levels.values():
        expect(page.locator(".rkb-legend dd", has_text=level.description[lang])).to_be_visible()
    tables = page.evaluate(
        """() => Array.from(document.querySelectorAll("table.rkb-overview"), table => {
            const box = table.closest(".rkb-scroll");
            const row = table.tBodies[0].rows[0];
            const cells = Array.from(row.cells);
            return {
                display: getComputedStyle(row).display,
                scrolls: box.scrollWidth - box.clientWidth,
                thead: getComputedStyle(table.tHead).display,
                tableRight: box.getBoundingClientRect().right,
                cells: cells.map(cell => ({
                    right: cell.getBoundingClientRect().right,
                    label: getComputedStyle(cell, "::before").content,
                    clipped: cell.scrollWidth - cell.clientWidth,
                })),
            };
        })"""
    )
    assert len(tables) == len(real_catalog.overview_by_area)
    for table in tables:
        assert table["scrolls"] <= 0, f"{where}: an at-a-glance table scrolls in its box: {table}"
        if viewport["width"] <= NARROW:
            # a card per feature: no heading row, each cell named by its column, none cut
            assert table["display"] == "flex" and table["thead"] == "none", table
            labels = [cell["label"] for cell in table["cells"]]
            assert labels[2:] == [
                '"' + t["label"].format(label=t["col_since"]) + '"',
                '"' + t["label"].format(label=t["col_lifecycle"]) + '"',
            ], labels
            for cell in table["cells"]:
                assert cell["right"] <= table["tableRight"] + 0.5 and cell["clipped"] <= 0, (where, table)
        else:
            assert table["display"] == "table-row" and table["thead"] != "none", table


@pytest.mark.browser
@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("lang", LANGS)
def test_chart_text_on_feature_and_release_pages(browse, real_catalog, lang, viewport):
    # the feature whose lifecycle chart is the widest: the one a phone would scale down most
    widest = max(real_catalog.features.values(), key=lambda feature: len({e.release.version for e in feature.timeline}))
    for address in (f"features/{widest.id}/", "releases/1.7/"):
        page = browse("/" + PREFIX[lang] + address, viewport)
        assert_chart_text_readable(page, f"{lang} {address} at {viewport['width']} px")
        if address.startswith("features/"):
            # the badge is shown, and the Markdown to copy has the full addresses
            expect(page.locator(".rkb-badge-preview img")).to_be_visible()
            assert page.evaluate("() => document.querySelector('.rkb-badge-preview img').naturalWidth") > 0
            code = page.locator(".rkb-badge-copy code").text_content()
            origin = page.evaluate("() => location.origin")
            badge = f"{origin}/{PREFIX[lang]}badges/{widest.id}.svg"
            assert f"]({badge})]({origin}/{PREFIX[lang]}features/{widest.id}/)" in code, code


def empty_combination(catalog) -> tuple[str, str]:
    """A level and an area no feature combines as of the latest release, though features of
    that area exist and features at that level too: each filter alone leaves rows."""
    at_latest = {(feature.area.key, level_at_latest(feature)) for feature in catalog.features.values()}
    levels = {level for _, level in at_latest}
    for area in catalog.areas:
        for level in catalog.levels:
            if level in levels and (area, level) not in at_latest and any(a == area for a, _ in at_latest):
                return level, area
    raise AssertionError("every level is in every area: no empty combination to try")


@pytest.mark.browser
@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("lang", LANGS)
def test_an_empty_filter_says_why_and_widens(browse, real_catalog, lang, viewport):
    t = interface_strings(lang)
    level, area = empty_combination(real_catalog)
    page = browse(f"/{PREFIX[lang]}features/?stability={level}&area={area}", viewport)
    empty = page.locator("#rkb-features-empty")
    expect(empty).to_be_visible()
    assert page.locator("#rkb-features tbody tr:not([hidden])").count() == 0
    latest = real_catalog.releases_newest_first[0].version
    level_name, area_name = real_catalog.levels[level].name[lang], real_catalog.areas[area].name[lang]
    said = [
        t["label"].format(label=t["filter_stability"])
        + t["filter_empty_as_of"].format(level=level_name, version=latest),
        t["label"].format(label=t["filter_area"]) + area_name,
    ]
    expect(empty.locator("p")).to_have_text(t["filter_empty"].format(filters=t["list_separator"].join(said)))
    buttons = empty.locator("button")
    expect(buttons).to_have_text([t["filter_empty_remove"].format(filter=text) for text in said])
    # print: the table without the filter controls (nor the empty note)
    page.emulate_media(media="print")
    for control in ("#rkb-filter", "#rkb-features-empty"):
        expect(page.locator(control)).to_be_hidden()
    expect(page.locator("#rkb-features")).to_be_visible()
    page.emulate_media(media="screen")
    # removing the area brings back the features at that level, and the address follows
    buttons.nth(1).click()
    expect(empty).to_be_hidden()
    shown = page.locator("#rkb-features tbody tr:not([hidden])")
    expected = sum(1 for feature in real_catalog.features.values() if level_at_latest(feature) == level)
    expect(shown).to_have_count(min(expected, 300))
    assert "area=" not in page.url and f"stability={level}" in page.url
    expect(page.locator("#rkb-filter select[name=area]")).to_be_focused()
    # words that match nothing: the one way back is to remove them
    page.fill("#rkb-filter input[name=q]", "xyzzyquux")
    expect(empty).to_be_visible()
    expect(empty.locator("button")).to_have_count(1)
    empty.locator("button").click()
    expect(shown).to_have_count(min(expected, 300))


@pytest.mark.browser
@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("lang", LANGS)
def test_404_suggests_the_nearest_feature_and_speaks_the_language(browse, real_catalog, lang, viewport):
    assert FEATURE in real_catalog.features and MISTYPED not in real_catalog.features
    t = interface_strings(lang)
    page = browse(f"/{PREFIX[lang]}features/{MISTYPED}/", viewport)
    section = page.locator(f".rkb-not-found[lang={lang}]")
    expect(section).to_be_visible()
    suggestion = section.locator(".rkb-did-you-mean")
    expect(suggestion).to_be_visible()
    address = f"/{PREFIX[lang]}features/{FEATURE}/"
    before, after = t["not_found_did_you_mean"].split("{address}")
    expect(suggestion).to_have_text(before + address + after)
    expect(suggestion.locator("a")).to_have_attribute("href", address)
    # the page around it in the address's language: the footer and the search dialog's name
    before, after = t["footer_made_with"].split("{tool}")
    expect(page.locator(".rkb-made-with")).to_have_text(before + "Material for MkDocs" + after)
    if viewport["width"] > NARROW:
        assert_search_dialog_named(page, f"{lang} 404")
    # and the suggestion leads to the feature's page
    suggestion.locator("a").click()
    page.wait_for_url(re.compile(re.escape(address) + "$"))
