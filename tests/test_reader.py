"""A reader's view, on any screen and in either language (issue 27): the features index reads
like caniuse at 1280 and 390 px, no page kind scrolls sideways at 320 px, wide tables scroll in
their own box, code breaks only between the parts of a name, the language switch keeps the
query and the fragment, item pages highlight their tab, a release page opens with what an
upgrader must not miss, counts and punctuation read right, and the filter form, the upgrade
view and the 404 page say what they should.

Layout is measured (scroll widths, boxes, line boxes), never timed: each page is checked once
it has loaded and its scripts have run. Browser and site as in test_browser.py: Debian's
Chromium through Playwright, the real data's site served locally, other hosts answered empty.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from helpers import static_server
from releasekb.common.i18n import count_text, interface_strings
from releasekb.common.locales import plural_text
from releasekb.site.svg import timeline

pytestmark = pytest.mark.browser

TIMEOUT_MS = 15_000
LANGS = [pytest.param("", id="en"), pytest.param("/zh", id="zh")]
# Every page kind, as a path inside one language's site.
PAGE_KINDS = {
    "home": "/",
    "releases": "/releases/",
    "release": "/releases/1.7/",
    "features": "/features/",
    "feature": "/features/torch-fft/",
    "stability": "/stability/",
    "level": "/stability/beta/",
    "changelog": "/changelog/",
    "upgrade": "/changelog/upgrade/?from=1.4&to=1.7",
    "about": "/about/",
    "404": "/no-such-page/",
}
PHONE = {"width": 390, "height": 844}
SMALLEST = {"width": 320, "height": 640}
DESKTOP = {"width": 1280, "height": 800}

# Loaded, scripts run, web fonts (none: the site uses system fonts) and layout settled.
SETTLED = "() => document.readyState === 'complete' && document.fonts.status === 'loaded'"


def strings(lang: str) -> dict[str, str]:
    return interface_strings("zh" if lang else "en")


def one_release_to_read(lang: str) -> str:
    """The upgrade view's summary for one release, in the form CLDR gives 1 in the language."""
    table = strings(lang)
    return plural_text(table.lang, table["upgrade_showing"], 1).format(**{"from": "1.4", "to": "1.5", "count": 1})


@pytest.fixture(scope="module")
def base_url(chromium, real_site: Path) -> Iterator[str]:
    """real_site served locally (the browser is asked for first: no browser, no build)."""
    with static_server(real_site) as url:
        yield url


@pytest.fixture
def browse(kept_pages, base_url):
    """open(path, viewport=..., **context options) -> a settled page, as a fresh context shows it
    (a kept page, emptied between tests: helpers.KeptPages)."""
    with contextlib.ExitStack() as leases:

        def open_page(path: str, viewport: dict = DESKTOP, block: str | None = None, **options):
            # block: a script that must not run (the state before it ran)
            page = leases.enter_context(kept_pages.lend(base_url, viewport, TIMEOUT_MS, block, **options)).page
            page.goto(base_url + path)
            if options.get("java_script_enabled", True):
                page.wait_for_function(SETTLED)
            return page

        open_page.base = base_url
        yield open_page


def expect(*args, **kwargs):
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(*args, **kwargs)


def sideways_overflow(page) -> int:
    """How far the page scrolls sideways, in CSS pixels (0: it does not)."""
    return page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")


# --------------------------------------------------------------------------- 3. features index


@pytest.mark.parametrize("lang", LANGS)
def test_features_index_shows_every_column_at_1280_without_sidebars(browse, lang):
    page = browse(f"{lang}/features/")
    # The page has no navigation or contents sidebar: the table has the width.
    for sidebar in (".md-sidebar--primary", ".md-sidebar--secondary"):
        assert not page.locator(sidebar).is_visible(), sidebar
    table = page.locator("#rkb-features")
    layout = table.evaluate(
        """table => ({
            viewport: document.documentElement.clientWidth,
            overflow: table.parentElement.scrollWidth - table.parentElement.clientWidth,
            cells: Array.from(table.tHead.rows[0].cells, cell => {
                const box = cell.getBoundingClientRect();
                return {text: cell.textContent.trim(), left: box.left, right: box.right};
            }),
        })"""
    )
    assert len(layout["cells"]) == 6
    assert layout["overflow"] <= 0, layout
    for cell in layout["cells"]:
        assert 0 <= cell["left"] and cell["right"] <= layout["viewport"], cell
    assert strings(lang)["col_levels"] in layout["cells"][-1]["text"]
    assert sideways_overflow(page) <= 0


@pytest.mark.parametrize("lang", LANGS)
def test_features_index_on_a_phone_shows_each_level_beside_its_feature(browse, lang, real_catalog):
    page = browse(f"{lang}/features/", viewport=PHONE)
    assert sideways_overflow(page) <= 0
    cards = page.locator("#rkb-features").evaluate(
        """table => Array.from(table.tBodies[0].rows, row => {
            const [name, level] = [row.cells[0], row.cells[1]].map(cell => {
                const box = cell.getBoundingClientRect();
                return {top: box.top, bottom: box.bottom, left: box.left, right: box.right};
            });
            const nameLine = row.cells[0].getClientRects()[0];
            return {id: row.dataset.id, name, level, nameLine: {top: nameLine.top, bottom: nameLine.bottom},
                    levelText: row.cells[1].textContent.trim()};
        })"""
    )
    assert len(cards) == len(real_catalog.features)
    width = PHONE["width"]
    for card in cards:
        name, level, line = card["name"], card["level"], card["nameLine"]
        # the level: on the name's first line, to its right, on the screen
        assert level["left"] >= name["right"] - 1 and level["right"] <= width, card
        assert level["top"] < line["bottom"] and level["bottom"] > line["top"], card
        assert card["levelText"], card


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_features_index_heading_row_stays_in_view(browse, lang, viewport):
    page = browse(f"{lang}/features/", viewport=viewport)
    last = page.locator("#rkb-features tbody tr").last
    last.scroll_into_view_if_needed()
    header = page.locator(".md-header").bounding_box()
    below_header = header["y"] + header["height"]
    for heading in page.locator("#rkb-features th[data-sort]").all():
        box = heading.bounding_box()
        assert below_header - 1 <= box["y"] and box["y"] + box["height"] <= viewport["height"], box
    # and it hides no row: the rows scroll beneath it, their own heights unchanged
    assert page.evaluate("window.scrollY") > viewport["height"]


# --------------------------------------------------------------------------- 4. reflow


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", PAGE_KINDS)
def test_no_page_scrolls_sideways_at_320(browse, lang, kind):
    page = browse(lang + PAGE_KINDS[kind], viewport=SMALLEST)
    wide = page.evaluate(
        """() => Array.from(document.querySelectorAll("article *"))
            .filter(element => element.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
            .filter(element => !element.parentElement.closest(".rkb-scroll, pre, .md-typeset__scrollwrap"))
            .slice(0, 5).map(element => element.outerHTML.slice(0, 120))"""
    )
    assert sideways_overflow(page) <= 0, wide


@pytest.mark.parametrize("lang", LANGS)
def test_wide_tables_scroll_in_a_named_focusable_box_with_shadows(browse, lang):
    page = browse(f"{lang}/stability/", viewport=SMALLEST)
    boxes = page.locator("article .rkb-scroll").evaluate_all(
        """boxes => boxes.map(box => ({
            scrolls: box.scrollWidth > box.clientWidth, tabIndex: box.tabIndex,
            role: box.getAttribute("role"), label: box.getAttribute("aria-label"),
            shadows: getComputedStyle(box).backgroundImage,
        }))"""
    )
    scrolling = [box for box in boxes if box["scrolls"]]
    assert scrolling, "no table is wider than 320 px: nothing is checked"
    for box in scrolling:
        assert box["tabIndex"] == 0 and box["role"] == "region" and box["label"], box
        assert box["shadows"].count("radial-gradient") == 2, box  # the edges' shadows
    # Every data table and chart of the page is in such a box, and the page itself does not move.
    assert page.locator("article table, article svg.rkb-svg").count() == len(boxes)
    assert sideways_overflow(page) <= 0
    # The keyboard scrolls it.
    box = page.locator("article .rkb-scroll[tabindex='0']").first
    box.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("box => box.scrollLeft > 0", arg=box.element_handle())


@pytest.mark.parametrize("lang", LANGS)
def test_tables_that_fit_are_not_stops_of_the_keyboard(browse, lang):
    page = browse(f"{lang}/releases/1.7/")
    box = page.locator("article .rkb-scroll").first
    page.wait_for_function("box => box.tabIndex === -1", arg=box.element_handle())


@pytest.mark.parametrize("lang", LANGS)
def test_level_pages_list_their_features(browse, lang, real_catalog):
    page = browse(f"{lang}/stability/beta/", viewport=SMALLEST)
    assert page.locator("article table").count() == 0
    beta = real_catalog.levels["beta"]
    expected = len(real_catalog.features_now(beta)) + len(real_catalog.features_before(beta))
    assert page.locator("article .rkb-entry-list > li").count() == expected
    # a list item's text takes the width: no entry is taller than the screen
    heights = page.locator("article .rkb-entry-list > li").evaluate_all(
        "items => items.map(item => item.getBoundingClientRect().height)"
    )
    assert max(heights) < SMALLEST["height"], max(heights)


# The line breaks inside inline code: [(code text, character before, character after)], and how
# many code elements wrap at all.
CODE_BREAKS = r"""() => {
  const breaks = [];
  let wrapped = 0;
  for (const code of document.querySelectorAll("article :not(pre) > code")) {
    const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
    let previous = null, lines = 1;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < node.length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const box = range.getClientRects()[0];
        if (/\s/.test(node.data[i])) {  // a space: a break after it is a break between words
          if (previous) previous.character = " ";
          continue;
        }
        if (!box || !box.width) continue;
        if (previous && box.top >= previous.bottom - 1) {
          breaks.push([code.textContent, previous.character, node.data[i]]);
          lines += 1;
        }
        previous = {bottom: box.bottom, character: node.data[i]};
      }
    }
    if (lines > 1) wrapped += 1;
  }
  return {breaks, wrapped};
}"""


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("path", ["/stability/beta/", "/features/torch-fft/", "/releases/1.7/", "/features/"])
def test_api_names_break_only_between_their_parts(browse, lang, path):
    page = browse(lang + path, viewport=SMALLEST)
    found = page.evaluate(CODE_BREAKS)
    inside_a_word = [
        (text, before, after)
        for text, before, after in found["breaks"]
        if re.match(r"[A-Za-z0-9]", before) and re.match(r"[A-Za-z0-9]", after)  # after . _ / :: is fine
    ]
    assert inside_a_word == [], inside_a_word
    assert found["wrapped"] or path == "/features/", "no code wraps at 320 px: nothing is checked"


# --------------------------------------------------------------------------- 5. language switch


def other_language(lang: str) -> tuple[str, str]:
    """(hreflang, path prefix) of the other language."""
    return ("en", "") if lang else ("zh", "/zh")


def switch_language(page, hreflang: str) -> None:
    """Through Material's language selector: the list opens when its button takes focus."""
    page.locator(".md-header .md-select > button").click()
    link = page.locator(f'.md-header .md-select a.md-select__link[hreflang="{hreflang}"]')
    expect(link).to_be_visible()
    with page.expect_navigation():
        link.click()
    page.wait_for_function(SETTLED)


@pytest.mark.parametrize("lang", LANGS)
def test_language_switch_keeps_the_upgrade_range_and_the_fragment(browse, lang):
    page = browse(f"{lang}/changelog/upgrade/?from=1.4&to=1.5#v1-5")
    hreflang, other = other_language(lang)
    switch_language(page, hreflang)
    address = urlsplit(page.url)
    assert (address.path, address.query, address.fragment) == (f"{other}/changelog/upgrade/", "from=1.4&to=1.5", "v1-5")
    expect(page.locator("#rkb-upgrade select[name='from']")).to_have_value("1.4")
    expect(page.locator("#rkb-upgrade select[name='to']")).to_have_value("1.5")
    shown = [s.get_attribute("data-version") for s in page.locator(".rkb-upgrade-release").all() if s.is_visible()]
    assert shown == ["1.5"]


@pytest.mark.parametrize("lang", LANGS)
def test_language_switch_keeps_the_filters_chosen_on_the_page(browse, lang):
    page = browse(f"{lang}/features/?stability=beta")
    page.locator("#rkb-filter select[name='release']").select_option("1.7")
    hreflang, other = other_language(lang)
    link = page.locator(f'.md-select__link[hreflang="{hreflang}"]')
    expect(link).to_have_attribute("href", re.compile(r"\?stability=beta&release=1\.7$"))
    switch_language(page, hreflang)
    assert urlsplit(page.url).path == f"{other}/features/"
    expect(page.locator("#rkb-filter select[name='stability']")).to_have_value("beta")
    expect(page.locator("#rkb-filter select[name='release']")).to_have_value("1.7")


@pytest.mark.parametrize("lang", LANGS)
def test_language_switch_keeps_a_features_anchor(browse, lang):
    page = browse(f"{lang}/releases/1.7/#torch-fft")
    hreflang, other = other_language(lang)
    switch_language(page, hreflang)
    assert page.url.endswith(f"{other}/releases/1.7/#torch-fft")
    expect(page.locator("#torch-fft")).to_be_in_viewport()


# --------------------------------------------------------------------------- 7. wayfinding and copy


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    ("path", "key"),
    [
        ("/releases/1.7/", "nav_releases"),
        ("/features/torch-fft/", "nav_features"),
        ("/stability/beta/", "nav_stability"),
    ],
)
def test_item_pages_highlight_their_sections_tab(browse, lang, path, key):
    page = browse(lang + path)
    active = page.locator(".md-tabs__item--active")
    expect(active).to_have_count(1)
    assert active.inner_text().strip() == strings(lang)[key]


@pytest.mark.parametrize("lang", LANGS)
def test_release_page_opens_with_its_breaking_changes_and_deprecations(browse, lang, real_catalog):
    release = max(real_catalog.releases, key=lambda r: len(r.changes))
    page = browse(f"{lang}/releases/{release.version}/")
    summary = page.locator("article .rkb-before-upgrading")
    expect(summary).to_be_visible()
    t = strings(lang)
    for kind, entries in release.changes_by_kind:
        expect(summary).to_contain_text(count_text(t, f"count_{kind}", len(entries)))
    links = summary.locator("li a")
    assert sorted(link.get_attribute("href") for link in links.all()) == sorted(f"#{e.id}" for e in release.changes)
    # before everything else the page has to say: the first section heading comes after it
    first_section = page.locator("article h2").first.bounding_box()
    assert summary.bounding_box()["y"] < first_section["y"]
    # each link leads to the change, with what to do about it
    target = release.changes[-1]
    summary.locator(f"a[href='#{target.id}']").click()
    expect(page.locator(f"#{target.id}")).to_be_in_viewport()


@pytest.mark.parametrize("prefix", ["", "zh/"], ids=["en", "zh"])
def test_release_without_changes_says_so(fixture_site, fixture_catalog, prefix):
    quiet = next(r for r in fixture_catalog.releases if not r.changes)
    page = (fixture_site / prefix / "releases" / quiet.version / "index.html").read_text(encoding="utf-8")
    assert strings(prefix)["release_no_changes"] in page and "rkb-before-upgrading" not in page


@pytest.mark.parametrize("lang", LANGS)
def test_one_release_to_read_is_said_in_the_singular(browse, lang):
    page = browse(f"{lang}/changelog/upgrade/?from=1.4&to=1.5")
    expected = one_release_to_read(lang)
    expect(page.locator("#rkb-upgrade output")).to_have_text(expected)
    if not lang:
        assert "1 release to read" in expected


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_timeline_counts_additions_in_the_singular_and_plural(real_catalog, lang):
    t = interface_strings(lang)
    for feature in real_catalog.features.values():
        label = str(timeline(feature, lang, t))
        assert "(s)" not in label
        assert not re.search(r"\b1 additions\b", label) and not re.search(r"\b([02-9]|\d\d+) addition\b", label)
    assert count_text(interface_strings("en"), "timeline_additions", 1) == "1 addition"
    assert count_text(interface_strings("en"), "timeline_additions", 2) == "2 additions"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("path", ["/features/torch-fft/", "/releases/1.7/", "/stability/"])
def test_charts_labels_are_text_without_markdown(browse, lang, path):
    page = browse(lang + path)
    labels = page.locator("article svg").evaluate_all(
        """svgs => svgs.flatMap(svg => [
            svg.getAttribute('aria-label'), ...Array.from(svg.querySelectorAll('title'), t => t.textContent)])"""
    )
    assert labels
    assert [label for label in labels if "`" in label] == []


def test_chinese_running_text_uses_full_width_punctuation(browse, real_catalog):
    feature = next(f for f in real_catalog.features.values() if f.level is not None)
    page = browse(f"/zh/features/{feature.id}/")
    meta = page.locator("article .rkb-meta").inner_text()
    assert "当前级别：" in meta and f"（截至 {feature.level_stated_in.version}）" in meta, meta
    for path in (f"/zh/features/{feature.id}/", "/zh/releases/1.7/", "/zh/", "/zh/releases/"):
        page = browse(path)
        # the interface's words before a value or an aside: a Chinese character, then ASCII : or (
        text = page.locator("article").evaluate(
            """article => Array.from(
                article.querySelectorAll("strong, .rkb-meta, .rkb-before-upgrading li, #sources ~ ul li"),
                element => element.textContent).join("\\n")"""
        )
        assert not re.search(r"[\u4e00-\u9fff][:(]|[)][\u4e00-\u9fff]", text), (path, text)
    english = browse(f"/features/{feature.id}/").locator("article .rkb-meta").inner_text()
    assert "Current level: " in english and f"(as of {feature.level_stated_in.version})" in english


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE, SMALLEST], ids=["1280", "390", "320"])
def test_features_filter_takes_its_place_before_the_script_runs(browse, lang, viewport):
    """What the reader sees first (before releasekb.js runs) and after: the table does not move."""
    measure = """() => {
        const table = document.getElementById("rkb-features");
        return [table.getBoundingClientRect().top, table.tBodies[0].rows[0].getBoundingClientRect().top];
    }"""
    before = browse(f"{lang}/features/", viewport=viewport, block="releasekb.js")
    assert before.locator("#rkb-filter").is_visible()
    after = browse(f"{lang}/features/", viewport=viewport)
    expect(after.locator("#rkb-filter select[name='area']")).to_be_enabled()
    assert before.evaluate(measure) == after.evaluate(measure)


@pytest.mark.parametrize("lang", LANGS)
def test_filtered_link_without_javascript_says_the_filters_need_it(browse, lang):
    page = browse(f"{lang}/features/?stability=beta&release=1.7", java_script_enabled=False)
    note = page.locator(".rkb-noscript")
    expect(note).to_be_visible()
    expect(note).to_have_text(strings(lang)["filter_needs_js"])
    # above the table, where a reader looking for the filtered rows looks
    assert note.bounding_box()["y"] < page.locator("#rkb-features").bounding_box()["y"]
    with_script = browse(f"{lang}/features/?stability=beta&release=1.7")
    expect(with_script.locator(".rkb-noscript")).to_be_hidden()


@pytest.mark.parametrize("lang", LANGS)
def test_unknown_version_in_the_upgrade_address_is_said(browse, lang):
    page = browse(f"{lang}/changelog/upgrade/?from=9.9&to=1.5")
    output = page.locator("#rkb-upgrade output")
    expect(output).to_contain_text(strings(lang)["upgrade_unknown_version"].format(version="9.9"))
    expect(page.locator("#rkb-upgrade select[name='to']")).to_have_value("1.5")  # the known end is kept
    # once the reader chooses, the note has done its work
    page.locator("#rkb-upgrade select[name='from']").select_option("1.4")
    expect(output).to_have_text(one_release_to_read(lang))
    assert urlsplit(page.url).query == "from=1.4&to=1.5"


@pytest.mark.parametrize("lang", LANGS)
def test_missing_page_is_in_the_language_of_its_address_around_the_message_too(browse, lang, real_catalog):
    page = browse(f"{lang}/no/such/page/")
    t = strings(lang)
    tabs = page.locator(".md-tabs__link")
    labels = [label.strip() for label in tabs.all_inner_texts()]
    code = "zh" if lang else "en"
    assert labels[:5] == [
        real_catalog.site_name[code],
        t["nav_releases"],
        t["nav_features"],
        t["nav_stability"],
        t["nav_changelog"],
    ]
    hrefs = [urlsplit(link.get_attribute("href")).path for link in tabs.all()]
    assert all(href.startswith(f"{lang}/") for href in hrefs), hrefs
    assert hrefs[1] == f"{lang}/releases/"
    drawer = [label.strip() for label in page.locator(".md-nav--primary > .md-nav__list > li > a").all_inner_texts()]
    assert drawer == labels
    header = page.locator(".md-header__topic").first.inner_text().strip()
    assert header == real_catalog.site_name[code]
    if lang:  # Material's own labels too
        assert page.locator(".md-tabs").get_attribute("aria-label") == "标签"
        assert re.search(r"[\u4e00-\u9fff]", page.locator(".md-header__inner").get_attribute("aria-label"))
