"""Levels then and now, and related features (issue 36, items 4 and 5).

A level page lists the features at its level as of the latest release and, apart, those that
were at it earlier with where they are now; its counts agree with the stability overview's. Every
level column says which release it is as of, and the features index's follows the reader's `as_of`.
A removed feature's current state is "Removed in X" on its page, in the overview, the index, its
badge and the API. Features related through an API name, or through a change's `replacement`,
link to each other; search puts the feature whose title the query names first.

Generated HTML of the real site (both languages), a small copy of the fixture knowledge base with
a labelled feature that a later release removes and with related APIs of its own, and one
Chromium page per viewport.
"""

from __future__ import annotations

import html
import re
from urllib.parse import parse_qs, urlsplit

import jsonschema
import pytest

from helpers import catalog_of, enter_search, fixture_data, html_pages, page_html, static_server
from releasekb.common.i18n import interface_strings
from releasekb.kb import api
from releasekb.kb.query import print_table
from releasekb.kb.urls import feature_path, level_path
from releasekb.site.outputs.badges import badge

LANGS = ["en", "zh"]


def prefix(lang: str) -> str:
    return "" if lang == "en" else f"{lang}/"


def text_of(fragment: str) -> str:
    """What a reader reads of some HTML: its text, spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment.replace("<wbr>", ""))).split())


def section(page: str, anchor: str) -> str:
    """The HTML from the heading with id `anchor` to the next heading of the same or a higher level."""
    start = page.index(f'id="{anchor}"')
    level = page[page.rindex("<h", 0, start) + 2]
    end = re.search(rf"<h[1-{level}][ >]", page[start:])
    return page[start : start + end.start()] if end else page[start:]


def items(fragment: str) -> dict[str, str]:
    """{data-feature: the item's HTML} of a list's items."""
    return dict(re.findall(r'<li data-feature="([^"]+)">(.*?)</li>', fragment, re.S))


def shown_levels(cell: str) -> list[str]:
    """The badges a features index cell shows without the script: its spans not hidden."""
    spans = re.findall(r'<span data-from="[^"]*" data-order="\d+"( hidden)?>(.*?)</span></span>', cell, re.S)
    return [badge for hidden, badge in spans if not hidden]


def held(catalog, feature, level_key: str) -> list:
    """The releases as of which `feature` was at `level_key`, from level_as_of alone."""
    return [r for r in catalog.releases if (s := feature.level_as_of(r)) is not None and s.level.key == level_key]


# --------------------------------------------------------------------------- now and then


@pytest.mark.parametrize("lang", LANGS)
def test_a_level_page_lists_its_features_now_and_apart_those_at_it_earlier(real_site, real_catalog, lang):
    strings = interface_strings(lang)
    latest = real_catalog.latest
    overview = page_html(real_site, f"{prefix(lang)}stability")
    levels_table = overview[: overview.index('id="rkb-levels-as-of"')]
    as_of_latest = re.search(rf'<tr data-version="{re.escape(latest.version)}">.*?</tr>', overview, re.S)[0]
    for level in real_catalog.levels.values():
        page = page_html(real_site, f"{prefix(lang)}stability/{level.key}")
        now_expected = {f.id for f in real_catalog.features.values() if latest in held(real_catalog, f, level.key)}
        earlier_expected = {
            f.id
            for f in real_catalog.features.values()
            if f.id not in now_expected and held(real_catalog, f, level.key)
        }
        now = items(section(page, "now"))
        earlier = items(section(page, "before")) if earlier_expected else {}
        assert set(now) == now_expected, level.key
        assert set(earlier) == earlier_expected, level.key
        assert strings["level_now"].format(version=latest.version) in text_of(section(page, "now"))
        # The overview's counts are the page's lists, and its as-of table's latest row agrees.
        row = re.search(rf'<tr data-level="{level.key}">.*?</tr>', levels_table, re.S)[0]
        assert re.findall(r"<td>(?:<a [^>]*>)?(\d+)(?:</a>)?</td>", row) == [str(len(now)), str(len(earlier))], (
            level.key
        )
        cell = re.search(rf'<td data-level="{level.key}">(.*?)</td>', as_of_latest, re.S)[1]
        assert text_of(cell) == str(len(now)), level.key
    headers = text_of(re.search(r"<thead>.*?</thead>", levels_table, re.S)[0])
    assert strings["col_count_now"].format(version=latest.version) in headers

    # The RPC framework: Experimental in 1.4, now Stable; the line says both, and leads to the
    # features that were experimental as of 1.4.
    page = page_html(real_site, f"{prefix(lang)}stability/experimental")
    rpc = real_catalog.features["distributed-rpc"]
    then = held(real_catalog, rpc, "experimental")
    assert then and rpc.level.key != "experimental"
    line = items(section(page, "before"))["distributed-rpc"]
    assert f"stability=experimental&amp;as_of={then[0].version}" in line
    assert f"rkb-level-{rpc.level.key}" in line
    now = strings["label"].format(label=strings["state_now"]).strip()
    assert f"{now} {rpc.level.name[lang]}" in text_of(line)
    until = real_catalog.releases[then[-1].order + 1]
    level_name = real_catalog.levels["experimental"].name[lang]
    assert strings["level_period"].format(level=level_name, start=then[0].version, end=until.version) in text_of(line)
    assert "distributed-rpc" not in items(section(page, "now"))


@pytest.mark.parametrize("lang", LANGS)
def test_a_level_page_keeps_the_anchors_of_its_former_release_sections(real_site, real_catalog, lang):
    """A level page used to have a section per release (`/stability/experimental/#v1-4`); now it
    lists features now and earlier, and a published link with its anchor must still land on that
    release: each release that published entries at the level is there, under its old id, and
    leads to the features index as of it."""
    for level in real_catalog.levels.values():
        page = page_html(real_site, f"{prefix(lang)}stability/{level.key}")
        published = [
            release for release in real_catalog.releases if any(e.in_effect.level is level for e in release.features)
        ]
        for release in published:
            link = re.search(rf'<a id="{re.escape(release.anchor)}" href="([^"]*)"', page)
            assert link, (level.key, release.anchor)
            assert f"stability={level.key}&amp;as_of={release.version}" in link[1]
    assert 'id="v1-4"' in page_html(real_site, f"{prefix(lang)}stability/experimental")


@pytest.mark.parametrize("lang", LANGS)
def test_level_columns_say_which_release_they_are_as_of(real_site, real_catalog, lang):
    strings = interface_strings(lang)
    heading = strings["col_level_as_of"].format(version=real_catalog.latest.version)
    overview = page_html(real_site, f"{prefix(lang)}stability")
    tables = re.findall(r'<table class="rkb-overview".*?<thead>(.*?)</thead>', overview, re.S)
    assert tables and all(heading in text_of(thead) for thead in tables)
    with_parts = next(f for f in real_catalog.features.values() if f.parts)
    parts = section(page_html(real_site, f"{prefix(lang)}features/{with_parts.id}"), "parts")
    assert heading in text_of(re.search(r"<thead>.*?</thead>", parts, re.S)[0])
    index = page_html(real_site, f"{prefix(lang)}features")
    span = re.search(r'<span id="rkb-level-heading"\s+data-template="([^"]*)">(.*?)</span>', index, re.S)
    assert html.unescape(span[1]) == strings["col_level_as_of"] and text_of(span[2]) == heading
    # Each row holds a badge per level its feature has held (a feature only changes mention: per
    # change), from the release it held it from; without the script the latest shows.
    for feature in real_catalog.features.values():
        row = re.search(rf'<tr data-id="{feature.id}".*?</tr>', index, re.S)[0]
        cell = re.findall(r"<td>(.*?)</td>", row, re.S)[1]
        steps = re.findall(r'<span data-from="([^"]*)"', cell)
        if any(not entry.is_change for entry in feature.entries):
            assert steps == [release.version for release, _ in feature.level_history], feature.id
        else:
            assert steps == [entry.release.version for entry in feature.entries], feature.id
        assert len(shown_levels(cell)) == 1, feature.id
    rpc = re.search(r'<tr data-id="distributed-rpc".*?</tr>', index, re.S)[0]
    assert re.search(r'data-from="1.4" data-order="\d+" hidden><span class="rkb-badge rkb-level-experimental"', rpc)


# --------------------------------------------------------------------------- a removed feature

# The fixture's old reader, labelled experimental in 1.0, deprecated in 1.1 and removed in 2.0;
# and API names that relate features: the deprecation's `acme.reader` is replaced by `acme.read`
# (a new reader in 2.0, under the module `acme.io`), and 2.0's `acme.reader` module reuses the name.
OLD_READER_LABELLED = (
    "  - id: old-reader\n    name: {en: Old reader, zh: 旧读取器}\n    area: io\n",
    "  - id: old-reader\n    name: {en: Old reader, zh: 旧读取器}\n    area: io\n    stability: experimental\n",
)
DEPRECATION_WITH_APIS = (
    "    migration: {en: Use `acme.read` instead., zh: 请改用 `acme.read`。}\n",
    "    migration: {en: Use `acme.read` instead., zh: 请改用 `acme.read`。}\n"
    "    apis: [{name: acme.reader, use: call, replacement: acme.io.read_all}]\n",
)
NEW_FEATURES = (
    "features:\n",
    """features:
  - id: io-module
    name: {en: The acme.io module, zh: acme.io 模块}
    area: io
    stability: beta
    title: {en: "`acme.io`: reading made simple", zh: "`acme.io`：更简单的读取"}
    summary: {en: One module reads every format., zh: 一个模块读取所有格式。}
    apis: [{name: acme.io, use: module}]
  - id: reader-module
    name: {en: The acme.reader module, zh: acme.reader 模块}
    area: io
    stability: beta
    title: {en: "`acme.reader`: streams", zh: "`acme.reader`：流"}
    summary: {en: The name now holds streams., zh: 这个名字现在用于流。}
    apis: [{name: acme.reader, use: module}]
""",
)


@pytest.fixture(scope="module")
def removed(tmp_path_factory):
    """The catalog of that knowledge base and its pages in both languages."""
    data = fixture_data(
        tmp_path_factory.mktemp("removed"),
        {"1.0.yaml": [OLD_READER_LABELLED], "1.1.yaml": [DEPRECATION_WITH_APIS], "2.0.yaml": [NEW_FEATURES]},
    )
    catalog = catalog_of(data)
    return catalog, {lang: html_pages(catalog, lang) for lang in LANGS}


@pytest.mark.parametrize("lang", LANGS)
def test_a_removed_feature_is_removed_everywhere_never_at_its_last_level(removed, lang, capsys):
    catalog, pages = removed
    strings = interface_strings(lang)
    reader = catalog.features["old-reader"]
    assert reader.removed_in is catalog.latest and held(catalog, reader, "experimental")  # the premise
    state = strings["state_removed_in"].format(version=reader.removed_in.version)

    page = pages[lang][feature_path("old-reader")]
    meta = page[page.index('<div class="rkb-meta">') : page.index("</div>")]
    assert state in text_of(meta) and strings["current_state"] in text_of(meta)
    assert strings["current_level"] not in text_of(meta) and "rkb-level-" not in meta

    overview = pages[lang]["stability/index.md"]
    row = re.search(r'<tr data-feature="old-reader".*?</tr>', overview, re.S)[0]
    assert state in text_of(row) and 'data-level=""' in row
    assert "rkb-level-" not in re.findall(r"<td>(.*?)</td>", row, re.S)[0]

    index = pages[lang]["features/index.md"]
    cell = re.findall(r"<td>(.*?)</td>", re.search(r'<tr data-id="old-reader".*?</tr>', index, re.S)[0], re.S)[1]
    (shown,) = shown_levels(cell)
    assert state in text_of(shown) and "rkb-level-" not in shown
    assert "rkb-level-experimental" in cell  # as of 1.0 and 1.1, for the script

    level_page = pages[lang][level_path("experimental")]
    assert "old-reader" not in items(section(level_page, "now"))
    assert state in text_of(items(section(level_page, "before"))["old-reader"])

    svg = badge(reader, lang).decode()
    assert strings["badge_removed"].format(version="2.0") in svg
    assert catalog.levels["experimental"].name[lang] not in svg

    record = api.feature_record(reader, "")
    assert record["level"] is None and record["removed_in"] == "2.0"
    assert list(record["level_changes"].values())[-1] == "removed"
    jsonschema.validate(api.features_document(catalog, [reader], ""), api.schema())

    print_table([reader], lang)
    assert state in capsys.readouterr().out


# --------------------------------------------------------------------------- related features


def related_links(page: str) -> set[str]:
    """The feature ids a feature page's "related features" section links to."""
    return {
        urlsplit(href).path.rstrip("/").rsplit("/", 1)[-1]
        for href in re.findall(r'<li data-related="[^"]+"><a href="([^"]+)"', section(page, "related"))
    }


def test_related_features_come_from_the_data_both_ways(removed):
    catalog, pages = removed
    related = {f.id: {other.id for other, _ in f.related} for f in catalog.features.values()}
    # A change's API that a feature lists again: the deprecated `acme.reader` call and the module.
    assert "reader-module" in related["old-reader"] and "old-reader" in related["reader-module"]
    # A change's replacement, provided by the feature of the module it is in.
    assert "io-module" in related["old-reader"] and "old-reader" in related["io-module"]
    for feature_id, others in related.items():
        for other in others:
            assert feature_id in related[other], (feature_id, other)
    for lang in LANGS:
        for feature_id, others in related.items():
            if others:
                assert related_links(pages[lang][feature_path(feature_id)]) == others
        # The deprecation's replacement line, on its release page, leads to the new module's page.
        release_page = pages[lang]["releases/1.1.md"]
        entry = release_page[release_page.index('id="old-reader"') :]
        entry = entry[: entry.index("<h", 10)]
        assert 'href="../../features/io-module/"' in entry


@pytest.mark.parametrize("lang", LANGS)
def test_the_fft_module_and_the_deprecated_fft_function_link_to_each_other(real_site, lang):
    module = page_html(real_site, f"{prefix(lang)}features/torch-fft")
    function = page_html(real_site, f"{prefix(lang)}features/torch-fft-function")
    assert related_links(module) == {"torch-fft-function"}
    assert related_links(function) == {"torch-fft"}
    strings = interface_strings(lang)
    said = text_of(section(module, "related"))
    assert strings["related_same_name"].format(api="torch.fft") in said
    release = page_html(real_site, f"{prefix(lang)}releases/1.7")
    entry = release[release.index('id="torch-fft-function"') :]
    entry = entry[: entry.index("<h", 10)]
    assert re.search(r'href="[./]*features/torch-fft/"', entry)


# --------------------------------------------------------------------------- in Chromium


@pytest.fixture(scope="module")
def site_url(chromium, real_site):
    with static_server(real_site) as url:
        yield url


def levels_shown(page) -> dict[str, list[str]]:
    """{feature id: the level classes its visible row's level cell shows}."""
    return page.locator("#rkb-features").evaluate(
        """table => Object.fromEntries(Array.from(table.tBodies[0].rows).filter(row => row.checkVisibility())
            .map(row => [row.dataset.id, Array.from(row.cells[1].querySelectorAll(".rkb-badge"))
                .filter(badge => badge.checkVisibility()).map(badge => badge.className)]))"""
    )


def result_paths(page) -> list[str]:
    return page.locator(".md-search-result__list .md-search-result__item > a:first-child").evaluate_all(
        "links => links.map(a => new URL(a.href).pathname)"
    )


@pytest.mark.browser
@pytest.mark.parametrize("width", [1280, 320])
def test_the_features_index_shows_levels_as_of_the_release_chosen(chromium, site_url, real_catalog, width):
    context = chromium.new_context(viewport={"width": width, "height": 800})
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        for lang in LANGS:
            strings = interface_strings(lang)
            then = real_catalog.release("1.4")
            page.goto(f"{site_url}/{prefix(lang)}features/?stability=experimental&as_of={then.version}")
            heading = page.locator("#rkb-level-heading")
            heading.filter(has_text=strings["col_level_as_of"].format(version=then.version)).wait_for()
            assert heading.is_visible()
            box = heading.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1, box
            experimental = {
                f.id for f in real_catalog.features.values() if then in held(real_catalog, f, "experimental")
            }
            shown = levels_shown(page)
            assert set(shown) == experimental and "distributed-rpc" in shown
            assert all(classes == ["rkb-badge rkb-level-experimental"] for classes in shown.values()), shown

            # Every level, still as of 1.4: a feature 1.4 did not have shows none.
            page.select_option('#rkb-filter select[name="stability"]', "")
            page.wait_for_function("() => !new URLSearchParams(location.search).has('stability')")
            shown = levels_shown(page)
            assert shown["distributed-rpc"] == ["rkb-badge rkb-level-experimental"]
            later = [f.id for f in real_catalog.features.values() if f.first.release.order > then.order]
            assert later and all(shown[feature_id] == [] for feature_id in later)
            # Sorted by that column: by the levels as of 1.4, most stable first, none last.
            page.locator("#rkb-features th[data-sort='level'] button").click()
            page.wait_for_function("() => new URLSearchParams(location.search).get('sort') === 'level'")
            keys = list(real_catalog.levels)
            ranks = [
                keys.index(classes[0].rsplit("rkb-level-", 1)[1])
                if classes and "rkb-level-" in classes[0]
                else len(keys)
                for classes in levels_shown(page).values()
            ]
            assert ranks == sorted(ranks) and ranks[0] == keys.index("experimental"), ranks

            # As of the latest release: the heading says so, the RPC framework is stable.
            latest = real_catalog.latest
            page.select_option('#rkb-filter select[name="as_of"]', latest.version)
            heading.filter(has_text=strings["col_level_as_of"].format(version=latest.version)).wait_for()
            assert parse_qs(urlsplit(page.url).query).get("as_of") is None
            shown = levels_shown(page)
            rpc = real_catalog.features["distributed-rpc"]
            assert shown["distributed-rpc"] == [f"rkb-badge rkb-level-{rpc.level.key}"]

            if width == 1280:  # search: the feature whose title the query names first
                page.goto(f"{site_url}/{prefix(lang)}")
                enter_search(page, "torch.fft")
                paths = result_paths(page)
                module, function = (f"/{prefix(lang)}features/{id}/" for id in ("torch-fft", "torch-fft-function"))
                assert module in paths and function in paths and paths.index(module) < paths.index(function), paths
        assert errors == []
    finally:
        context.close()
