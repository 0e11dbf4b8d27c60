"""Accessibility (WCAG 2.1 AA): axe-core finds nothing on any page kind, in both languages and
both colour schemes; the features filter, the upgrade form and the search work with the keyboard
alone; the charts have text alternatives axe accepts; page titles are escaped.

axe-core comes from PyPI's axe-playwright-python (the `test` extra), which ships axe.min.js: it is
injected into each page with Playwright, nothing is downloaded. Chromium is Debian's, launched as
tests/test_browser.py does: outside CI a missing browser (or axe) skips these tests, in CI
(CI=true) it fails them. Requests to any host other than the local server get an empty answer.
"""

from __future__ import annotations

import html.parser
import os
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from helpers import (
    AXE_TAGS,
    AXE_TIMEOUT_MS,
    SETTLED,
    START_AXE,
    axe_script,
    build,
    copy_project,
    describe,
    enter_search,
    fixture_data,
    static_server,
)

TIMEOUT_MS = 15_000
AXE_AT_ONCE = 2  # pages whose axe run goes on at the same time (one renderer each)

# Every page kind, as a path inside one language's site ("" is the home page).
PAGE_KINDS = {
    "home": "",
    "releases": "releases/",
    "release": "releases/1.7/",
    "features": "features/",
    "feature": "features/torch-fft/",
    "stability": "stability/",
    "level": "stability/beta/",
    "changelog": "changelog/",
    "upgrade": "changelog/upgrade/",
    "404": "no-such-page/",
}
LANG_PREFIXES = {"en": "/", "zh": "/zh/"}
# Material's colour schemes, chosen as a first visit does: from prefers-color-scheme.
SCHEMES = {"light": "default", "dark": "slate"}
VIEWS = [(kind, lang, scheme) for scheme in SCHEMES for lang in LANG_PREFIXES for kind in PAGE_KINDS]
LANGS = [pytest.param("/", id="en"), pytest.param("/zh/", id="zh")]


# --------------------------------------------------------------------------- browser and axe


def unavailable(reason: str) -> None:
    """Skip outside CI, fail in CI (CI=true), where browser tests must run."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"accessibility tests must run in CI, but: {reason}", pytrace=False)
    pytest.skip(f"accessibility tests skipped: {reason} (set CI=true to make this an error)")


@pytest.fixture(scope="module", autouse=True)
def axe_available(chromium) -> None:
    """The session's Chromium (conftest.py), and axe-core to run in it."""
    if axe_script() is None:
        unavailable("axe-playwright-python (axe.min.js) is not installed: pip install -e '.[test]'")


@pytest.fixture(scope="module")
def base_url(chromium, real_site: Path) -> Iterator[str]:
    """real_site served on 127.0.0.1 (the browser is asked for first: no browser, no build)."""
    with static_server(real_site) as url:
        yield url


def new_context(browser, base: str, viewport: dict | None = None, **options):
    """A context in which every request to another host is answered empty (never the network)."""
    context = browser.new_context(viewport=viewport or {"width": 1280, "height": 800}, **options)
    context.set_default_timeout(TIMEOUT_MS)
    local = re.compile("^" + re.escape(base) + "/")
    context.route(lambda url: not local.match(url), lambda route: route.fulfill(status=204, body=""))
    return context


@pytest.fixture
def page(kept_pages, base_url):
    """A page (light scheme) as a fresh context has it (a kept one, emptied between tests)."""
    with kept_pages.lend(base_url, timeout_ms=TIMEOUT_MS) as lease:
        yield lease.page


def expect(*args, **kwargs):
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(*args, **kwargs)


def open_settled(page, url: str, scheme: str):
    page.goto(url)
    page.wait_for_function(SETTLED, arg=scheme)
    return page


@pytest.fixture(scope="module")
def axe_results(chromium, base_url) -> dict[tuple[str, str, str], dict]:
    """axe's summary of every view (page kind, language, scheme), a few pages at once. A page whose
    view is done goes on to the next view of its scheme: a navigation costs Chromium half of what
    a new page (a new renderer process) does."""
    script = str(axe_script())
    contexts = {scheme: new_context(chromium, base_url, color_scheme=scheme) for scheme in ("light", "dark")}
    idle: dict[str, list] = {scheme: [] for scheme in contexts}  # pages done with their view
    results: dict[tuple[str, str, str], dict] = {}
    running: list[tuple[tuple[str, str, str], object]] = []

    def collect() -> None:
        view, page = running.pop(0)
        page.wait_for_function("window.rkbAxe !== null", polling=100, timeout=AXE_TIMEOUT_MS)
        results[view] = {
            **page.evaluate("window.rkbAxe"),
            "scheme": page.evaluate("document.body.getAttribute('data-md-color-scheme')"),
        }
        idle[view[2]].append(page)

    try:
        for view in VIEWS:
            kind, lang, scheme = view
            page = idle[scheme].pop() if idle[scheme] else contexts[scheme].new_page()
            open_settled(page, base_url + LANG_PREFIXES[lang] + PAGE_KINDS[kind], SCHEMES[scheme])
            page.add_script_tag(path=script)
            page.evaluate(START_AXE, AXE_TAGS)
            running.append((view, page))
            if len(running) >= AXE_AT_ONCE:
                collect()
        while running:
            collect()
    finally:
        for context in contexts.values():
            context.close()
    return results


# --------------------------------------------------------------------------- 1. axe, every view


@pytest.mark.browser
@pytest.mark.parametrize(("kind", "lang", "scheme"), VIEWS, ids=["-".join(view) for view in VIEWS])
def test_no_wcag_21_aa_violations(axe_results, kind, lang, scheme):
    result = axe_results[(kind, lang, scheme)]
    assert "error" not in result, result.get("error")
    assert result["scheme"] == SCHEMES[scheme]
    # axe really looked at the text: its colour rule ran on this page and found it readable.
    assert "color-contrast" in result["checked"], result["checked"]
    assert not result["violations"], (
        f"axe {result['version']} on {LANG_PREFIXES[lang]}{PAGE_KINDS[kind]} ({scheme}):\n"
        + describe(result["violations"])
    )


def axe_result(page) -> dict:
    """axe-core run on a page as it is now (one page at a time: the views above run several)."""
    page.add_script_tag(path=str(axe_script()))
    page.evaluate(START_AXE, AXE_TAGS)
    page.wait_for_function("window.rkbAxe !== null", polling=100, timeout=AXE_TIMEOUT_MS)
    return page.evaluate("window.rkbAxe")


# The header search open on its answer: results with their level badges and highlighted
# excerpts, the count above them, and the way to the other language's results.
SEARCH_VIEWS = [("/", "rpc"), ("/", "分布式"), ("/zh/", "rpc"), ("/zh/", "announcement")]


@pytest.mark.browser
@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize(
    ("lang", "query"), SEARCH_VIEWS, ids=[f"{query}-{lang.strip('/') or 'en'}" for lang, query in SEARCH_VIEWS]
)
def test_no_wcag_21_aa_violations_with_search_open(kept_pages, base_url, lang, query, scheme):
    with kept_pages.lend(base_url, timeout_ms=TIMEOUT_MS, color_scheme=scheme) as lease:
        page = open_settled(lease.page, base_url + lang, SCHEMES[scheme])
        enter_search(page, query)
        expect(page.locator(".md-search-result__item").first).to_be_visible()
        page.wait_for_function(SETTLED, arg=SCHEMES[scheme])
        result = axe_result(page)
    assert "error" not in result, result.get("error")
    assert "color-contrast" in result["checked"], result["checked"]
    assert not result["violations"], f"axe {result['version']} on {lang} searching {query!r} ({scheme}):\n" + describe(
        result["violations"]
    )


# On a phone the layout changes (a card per feature, tables scrolling in their own boxes): the
# page kinds whose layout does, at the smallest width reflow asks for.
SMALL_SCREEN_KINDS = ["home", "features", "stability", "level"]


@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", SMALL_SCREEN_KINDS)
def test_no_wcag_21_aa_violations_at_320_px(kept_pages, base_url, kind, lang):
    with kept_pages.lend(base_url, {"width": 320, "height": 640}, TIMEOUT_MS, color_scheme="light") as lease:
        page = open_settled(lease.page, base_url + lang + PAGE_KINDS[kind], SCHEMES["light"])
        result = axe_result(page)
    assert "error" not in result, result.get("error")
    assert not result["violations"], f"axe on {lang}{PAGE_KINDS[kind]} at 320 px:\n" + describe(result["violations"])


# --------------------------------------------------------------------------- 2. charts


@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("path", ["releases/1.7/", "stability/", "features/torch-fft/"])
def test_charts_have_text_alternatives_axe_accepts(page, base_url, lang, path):
    """Each chart is an inline <svg role="img" aria-label="...">: axe's svg-img-alt rule passes
    on every one of them, and the label says what the chart shows (numbers, in the language)."""
    page.goto(base_url + lang + path)
    page.add_script_tag(path=str(axe_script()))
    charts = page.locator("article svg[role='img']")
    assert charts.count() >= 1
    result = page.evaluate(
        """async () => {
          const results = await axe.run(document, {runOnly: {type: "rule", values: ["svg-img-alt"]}, elementRef: true});
          const passed = results.passes.flatMap(rule => rule.nodes.map(node => node.element));
          const charts = Array.from(document.querySelectorAll("article svg[role='img']"));
          return {violations: results.violations.length, unchecked: charts.filter(c => !passed.includes(c)).length};
        }"""
    )
    assert result == {"violations": 0, "unchecked": 0}
    for chart in charts.all():
        label = chart.get_attribute("aria-label") or ""
        assert re.search(r"\d", label), label
        if lang == "/zh/":
            assert re.search(r"[\u4e00-\u9fff]", label), label


# --------------------------------------------------------------------------- 3. keyboard only


def tab_to(page, selector: str, limit: int = 400) -> None:
    """Press Tab until the focused element matches `selector` (fails after `limit` presses)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement?.matches(s) ?? false", selector):
            return
    pytest.fail(f"{selector} not reached with {limit} presses of Tab")


def assert_focus_is_visible(page) -> None:
    """The focused control draws a focus ring (Material removes the inputs' outline)."""
    style = page.evaluate(
        "() => { const s = getComputedStyle(document.activeElement); return [s.outlineStyle, s.outlineWidth]; }"
    )
    assert style[0] != "none" and style[1] != "0px", style


def visible_feature_rows(page) -> list[str]:
    return page.locator("#rkb-features tbody tr:not([hidden])").evaluate_all("rows => rows.map(row => row.dataset.id)")


def address_query(page) -> dict[str, list[str]]:
    return parse_qs(urlsplit(page.url).query)


@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGS)
def test_features_filter_and_sort_work_with_the_keyboard_alone(page, base_url, lang):
    page.goto(base_url + lang + "features/")
    everything = visible_feature_rows(page)
    assert "torch-fft" in everything

    tab_to(page, "#rkb-filter input[name='q']")
    assert_focus_is_visible(page)
    page.keyboard.type("fft")
    page.wait_for_function(
        """() => { const rows = document.querySelectorAll("#rkb-features tbody tr:not([hidden])");
                   return new URLSearchParams(location.search).get("q") === "fft"
                     && rows.length > 0 && Array.from(rows).some(row => row.dataset.id === "torch-fft")
                     && !document.querySelector("#rkb-filter output").textContent.includes("…"); }"""
    )
    found = visible_feature_rows(page)
    assert "torch-fft" in found and len(found) < len(everything), found

    page.keyboard.press("Backspace")  # "ff": still the filter of what is typed
    page.keyboard.press("Control+a")
    page.keyboard.press("Backspace")
    page.wait_for_function("() => !new URLSearchParams(location.search).has('q')")
    assert visible_feature_rows(page) == everything

    # Tab on to the stability list and step to its first level with the arrow key.
    page.keyboard.press("Tab")
    expect(page.locator("#rkb-filter select[name='stability']")).to_be_focused()
    assert_focus_is_visible(page)
    page.keyboard.press("ArrowDown")
    level = page.locator("#rkb-filter select[name='stability']").input_value()
    assert level
    page.wait_for_function("level => new URLSearchParams(location.search).get('stability') === level", arg=level)
    rows = page.locator("#rkb-features tbody tr:not([hidden])").evaluate_all(
        "rows => rows.map(row => row.dataset.stability)"
    )
    assert rows and len(rows) < len(everything)
    assert all(re.search(rf"=({level})\b", levels) for levels in rows), rows

    # The column headings sort with Enter, then Enter again reverses.
    tab_to(page, "#rkb-features th[data-sort='first'] button")
    assert_focus_is_visible(page)
    page.keyboard.press("Enter")
    expect(page.locator("#rkb-features th[data-sort='first']")).to_have_attribute("aria-sort", "ascending")
    assert address_query(page)["sort"] == ["first"]
    page.keyboard.press("Enter")
    expect(page.locator("#rkb-features th[data-sort='first']")).to_have_attribute("aria-sort", "descending")
    assert address_query(page)["sort"] == ["-first"]


def shown_sections(page) -> list[str]:
    return page.locator(".rkb-upgrade-release:not([hidden])").evaluate_all(
        "sections => sections.map(section => section.dataset.version)"
    )


@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGS)
def test_upgrade_form_works_with_the_keyboard_alone(page, base_url, lang):
    # The changelog's form: choose "from" with an arrow key, Tab to the button, Enter.
    page.goto(base_url + lang + "changelog/")
    tab_to(page, "form.rkb-upgrade-picker select[name='from']")
    assert_focus_is_visible(page)
    picker = page.locator("form.rkb-upgrade-picker")
    assert picker.locator("select[name='from']").input_value() == "1.5"
    page.keyboard.press("ArrowUp")
    expect(picker.locator("select[name='from']")).to_have_value("1.4")
    page.keyboard.press("Tab")
    expect(picker.locator("select[name='to']")).to_be_focused()
    expect(picker.locator("select[name='to']")).to_have_value("1.7")
    page.keyboard.press("Tab")
    expect(picker.locator("button[type='submit']")).to_be_focused()
    assert_focus_is_visible(page)
    page.keyboard.press("Enter")
    page.wait_for_url(f"**{lang}changelog/upgrade/?from=1.4&to=1.7")
    page.wait_for_function(SETTLED, arg="default")
    assert shown_sections(page) == ["1.5", "1.7"]

    # The upgrade view's own form: from the top of the page, Tab to "To" and step it down.
    page.keyboard.press("Escape")
    page.evaluate("document.activeElement?.blur()")
    tab_to(page, "#rkb-upgrade select[name='to']")
    assert_focus_is_visible(page)
    page.keyboard.press("ArrowUp")
    page.wait_for_url("**/changelog/upgrade/?from=1.4&to=1.5")
    assert shown_sections(page) == ["1.5"]
    expect(page.locator("#rkb-upgrade output")).to_contain_text("1.5")


SEARCHES = [
    # English is typed key by key, and every key sends a query: the answer to the whole query
    # is the one whose result links carry its words (?h=torch.fft, not the prefix's torch.ff).
    pytest.param("/", "torch.fft", "/features/torch-fft/", "torch.fft", id="en"),
    # Chinese is inserted without key events; End then sends the one query there is.
    pytest.param("/zh/", "分布式", "/zh/features/distributed-autograd/", None, id="zh"),
]


@pytest.mark.browser
@pytest.mark.parametrize(("lang", "query", "expected", "terms"), SEARCHES)
def test_search_works_with_the_keyboard_alone(page, base_url, lang, query, expected, terms):
    """Tab to Material's search box, type, step into the results with the arrow key, Enter."""
    page.goto(base_url + lang)
    tab_to(page, ".md-search__input")
    page.keyboard.type(query)
    page.keyboard.press("End")
    page.wait_for_function(
        """([expected, terms]) => Array.from(document.querySelectorAll(".md-search-result__link")).some(link => {
             const url = new URL(link.href);
             return url.pathname === expected && (terms === null || url.searchParams.get("h") === terms);
           })""",
        arg=[expected, terms],
    )
    page.keyboard.press("ArrowDown")
    target = page.evaluate(
        "() => document.activeElement.matches('.md-search-result__link') ? document.activeElement.href : null"
    )
    assert target and urlsplit(target).path.startswith(lang), target
    page.keyboard.press("Enter")
    page.wait_for_url(target)
    assert urlsplit(page.url).path != lang


@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGS)
def test_missing_page_search_works_with_the_keyboard_alone(page, base_url, lang):
    """The 404 page's search of the features: Tab to its field, type, Enter."""
    page.goto(base_url + lang + "no-such-page/")
    section = f".rkb-not-found[data-prefix='{lang.lstrip('/')}']"
    tab_to(page, f"{section} input[name='q']")
    assert_focus_is_visible(page)
    page.keyboard.type("fft")
    page.keyboard.press("Enter")
    page.wait_for_url(f"**{lang}features/?q=fft")
    page.wait_for_function("() => document.querySelector(`#rkb-features tbody tr[data-id='torch-fft']:not([hidden])`)")
    assert "torch-fft" in visible_feature_rows(page)


# --------------------------------------------------------------------------- 4. page titles


class TitleReader(html.parser.HTMLParser):
    """The text of the document's <title> (the head's, not the charts'), as a browser reads it."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.titles: list[str] = []
        self._inside = {"head": False, "title": False}

    def handle_starttag(self, tag, attrs):
        if tag in self._inside:
            self._inside[tag] = True
            if tag == "title" and self._inside["head"]:
                self.titles.append("")

    def handle_endtag(self, tag):
        if tag in self._inside:
            self._inside[tag] = False

    def handle_data(self, data):
        if self._inside["head"] and self._inside["title"]:
            self.titles[-1] += data


TRICKY = {
    "en": "Coloured <widgets> & </title><script>alert(1)</script>",
    "zh": "彩色 <小部件> 与 </title><script>alert(2)</script>",
}


def test_page_titles_are_escaped(tmp_path):
    """Material prints page titles into <title> unescaped; the override escapes them, so a
    feature titled with `<` keeps its text and never becomes markup, in both languages."""
    data = fixture_data(
        tmp_path,
        {
            "2.0.yaml": [
                (
                    "title: {en: Coloured widgets, zh: 彩色小部件}",
                    f'title: {{en: "{TRICKY["en"]}", zh: "{TRICKY["zh"]}"}}',
                )
            ]
        },
    )
    site = build(copy_project(tmp_path / "project", data))
    for lang, prefix, site_name in (("en", "", "Acme release notes"), ("zh", "zh/", "Acme 版本说明")):
        text = (site / prefix / "features" / "widget-colours" / "index.html").read_text(encoding="utf-8")
        head = text.partition("</head>")[0] + "</head>"
        reader = TitleReader()
        reader.feed(head)
        assert reader.titles == [f"{TRICKY[lang]} - {site_name}"], reader.titles
        assert "<script>alert(" not in head, "the title became markup"
