"""Each page kind of the built site, in both languages, agrees with the data."""

import json
import re
from html.parser import HTMLParser

import pytest

from helpers import LANGUAGE_PREFIXES, page_html, search_pages


def text_of(html: str) -> str:
    """The visible text of the page's article (not the navigation or the table of contents)."""
    article = html[html.index("<article") : html.index("</article>")]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", article))


class OverviewRows(HTMLParser):
    """{feature id: (area heading, data-level, data-since, lifecycle text)} from the stability overview."""

    def __init__(self):
        super().__init__()
        self.rows, self.feature, self.cell, self.heading, self.in_heading = {}, None, 0, "", False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "h3":
            self.heading, self.in_heading = "", True
        elif tag == "tr" and "data-feature" in attrs:
            self.feature, self.cell = attrs["data-feature"], 0
            self.rows[self.feature] = [self.heading.strip(" ¶"), attrs["data-level"], attrs["data-since"], ""]
        elif tag in ("td", "th") and self.feature:
            self.cell += 1

    def handle_endtag(self, tag):
        if tag == "tr":
            self.feature = None
        elif tag == "h3":
            self.in_heading = False

    def handle_data(self, data):
        if self.in_heading:
            self.heading += data
        elif self.feature and self.cell == 4:
            self.rows[self.feature][3] += data


@pytest.mark.parametrize("prefix", LANGUAGE_PREFIXES)
def test_stability_overview_has_one_row_per_feature(fixture_site, fixture_catalog, prefix):
    html = page_html(fixture_site, f"{prefix}stability")
    parser = OverviewRows()
    parser.feed(html)
    rows = {key: tuple(" ".join(v.split()) for v in value) for key, value in parser.rows.items()}
    core = "Core" if not prefix else "核心"
    if prefix:
        assert rows["widgets"] == (core, "stable", "1.1", "1.0 实验性 → 1.1 稳定")
        assert rows["old-reader"][1:] == ("", "", "1.0 未标注 → 1.1 弃用 → 2.0 移除")  # removed: no level now
    else:
        assert rows["widgets"] == (core, "stable", "1.1", "1.0 Experimental → 1.1 Stable")
        assert rows["old-reader"][1:] == ("", "", "1.0 Unlabeled → 1.1 Deprecation → 2.0 Removal")
    assert rows["widget-colours"][1:3] == ("beta", "2.0")
    assert rows["default-colour"][1:3] == ("", "")  # a change, not a feature: no level
    assert "crash-on-empty-file" not in rows  # bug fixes are listed on the release pages
    assert set(rows) == {f.id for f in fixture_catalog.overview_features}
    # No feature x release grid: the page has one table row per feature and a few per release.
    assert html.count("<tr") < 2 * len(rows) + 10


def test_changelog_lists_computed_events_newest_first(fixture_site):
    text = text_of(page_html(fixture_site, "changelog"))
    assert text.index("Acme 2.0") < text.index("Acme 1.1") < text.index("Acme 1.0")
    section_11 = text[text.index("Acme 1.1") : text.index("Acme 1.0")]
    assert "Widgets become stable" in section_11 and "promoted from Experimental to Stable" in section_11
    assert "The old reader is deprecated — deprecated" in section_11
    section_20 = text[text.index("Acme 2.0") : text.index("Acme 1.1")]
    assert "Widgets default to blue — breaking change" in section_20
    assert "The old reader is removed — removed" in section_20
    assert "Coloured widgets" in section_20 and "added to Widgets" in section_20


def test_chinese_changelog_uses_chinese_event_texts(fixture_site):
    text = text_of(page_html(fixture_site, "zh/changelog"))
    assert "从实验性提升为稳定" in text and "已移除" in text and "不兼容变更" in text
    assert "promoted" not in text and "Breaking" not in text


class UpgradeSections(HTMLParser):
    """{version: text of its section} from the upgrade view, in page order; and the form."""

    def __init__(self):
        super().__init__()
        self.sections, self.current, self.form_attrs = {}, None, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "section" and "data-version" in attrs:
            self.current = attrs["data-version"]
            self.sections[self.current] = ""
        elif tag == "form":
            self.form_attrs = attrs
        elif tag == "a" and self.current:
            self.sections[self.current] += f" [{attrs['href']}] "

    def handle_endtag(self, tag):
        if tag == "section":
            self.current = None

    def handle_data(self, data):
        if self.current:
            self.sections[self.current] += data


@pytest.mark.parametrize("prefix", LANGUAGE_PREFIXES)
def test_upgrade_view_lists_each_release_once_oldest_first(fixture_site, prefix):
    parser = UpgradeSections()
    parser.feed(page_html(fixture_site, f"{prefix}changelog/upgrade"))
    # One section per release one can upgrade to; the first release has nothing to upgrade from.
    assert list(parser.sections) == ["1.1", "2.0"]
    one_one, two = parser.sections["1.1"], parser.sections["2.0"]
    assert "../../features/old-reader/" in one_one and "../../features/widgets/" in one_one
    assert ("promoted from Experimental to Stable" in one_one) or ("从实验性提升为稳定" in one_one)
    assert "../../features/default-colour/" in two and "../../features/old-reader/" in two
    assert 'colour="red"' in two  # the migration text is there
    assert "widgets/" not in two  # the promotion is listed once, in 1.1 only
    assert "crash-on-empty-file" not in one_one  # bug fixes are not upgrade notes
    # Without JavaScript every section shows, each saying which upgrades it concerns.
    assert ("upgrading from 1.0 or earlier to 1.1 or later" in one_one) or ("从 1.0 或更早的版本升级到 1.1" in one_one)
    assert "hidden" in parser.form_attrs  # the range picker needs JavaScript, so it starts hidden


@pytest.mark.parametrize("prefix", LANGUAGE_PREFIXES)
@pytest.mark.parametrize(("old", "new"), [("1.0", "1.1"), ("1.0", "2.0"), ("1.1", "2.0")])
def test_former_upgrade_addresses_lead_to_the_upgrade_view(fixture_site, prefix, old, new):
    html = page_html(fixture_site, f"{prefix}changelog/{old}-to-{new}")
    target = f"../upgrade/?from={old}&amp;to={new}"
    assert f'<meta http-equiv="refresh" content="0; url={target}">' in html
    assert f'<a href="{target}">/{prefix}changelog/upgrade/?from={old}&amp;to={new}</a>' in html


@pytest.mark.parametrize("prefix", LANGUAGE_PREFIXES)
def test_pages_that_repeat_other_pages_stay_out_of_search(fixture_site, prefix):
    pages = search_pages(fixture_site, prefix)
    assert {"releases/1.1/", "features/widgets/", "stability/"} <= set(pages)
    repeating = {
        "changelog/",
        "changelog/upgrade/",
        "changelog/1.0-to-2.0/",
        "stability/stable/",
        "features/widget-colors/",
        "features/",  # the features index: a row for every feature page
    }
    assert not repeating & set(pages)
    # The stability overview is searchable, but its per-feature table (titles of other pages) is not.
    overview = pages["stability/"]["content"]
    assert "Widgets" not in overview and "小部件" not in overview


@pytest.mark.parametrize("prefix", LANGUAGE_PREFIXES)
def test_changelog_and_release_pages_reach_the_upgrade_view(fixture_site, prefix):
    changelog = page_html(fixture_site, f"{prefix}changelog")
    assert '<form class="rkb-upgrade-picker" action="upgrade/" method="get">' in changelog
    assert '<option value="1.1" selected>' in changelog and '<option value="2.0" selected>' in changelog
    release = page_html(fixture_site, f"{prefix}releases/2.0")
    assert 'href="../../changelog/upgrade/?from=1.1&amp;to=2.0"' in release


@pytest.mark.parametrize("prefix", LANGUAGE_PREFIXES)
def test_level_pages_list_features_now_and_earlier_apart(fixture_site, prefix):
    stable = page_html(fixture_site, f"{prefix}stability/stable")
    assert '<li data-feature="widgets">' in stable[stable.index('id="now"') :] and 'id="before"' not in stable
    experimental = page_html(fixture_site, f"{prefix}stability/experimental")
    assert '<li data-feature="widgets">' in experimental[experimental.index('id="before"') :]


@pytest.mark.parametrize("prefix", LANGUAGE_PREFIXES)
def test_release_page_sections(fixture_site, prefix):
    html = page_html(fixture_site, f"{prefix}releases/2.0")
    for anchor in ("stability-summary", "features", "changes", "sources", "default-colour", "widget-colours"):
        assert f'id="{anchor}"' in html
    assert "<svg" in html and 'role="img"' in html
    assert 'href="../1.1/"' in html  # previous release
    first = page_html(fixture_site, f"{prefix}releases/1.0")  # its summary holds <b>...</b> as data
    assert "<b>" not in first and ("&lt;b&gt;tags" in first or "&lt;b&gt;标签" in first)


@pytest.mark.parametrize("prefix", LANGUAGE_PREFIXES)
def test_feature_page_lifecycle_and_permalink(fixture_site, prefix):
    html = page_html(fixture_site, f"{prefix}features/widgets")
    assert 'role="img"' in html
    # its lifecycle links each event to its entry, its own and its part's (2.0 added a part) ...
    for version, entry in (("1.0", "widgets"), ("1.1", "widgets"), ("2.0", "widget-colours")):
        assert f'href="../../releases/{version}/#{entry}"' in html, version
    # ... and it has a section per release that has an entry of it, newest first
    assert re.findall(r'<h3 id="(v[0-9-]+)"', html) == ["v1-1", "v1-0"]
    assert f"/{prefix}features/widgets/" in html
    name = "Widgets" if not prefix else "小部件"
    assert re.search(rf"\[ *{name} *\] *\( */{prefix}features/widgets/ *\)", text_of(html))


@pytest.mark.parametrize("prefix", LANGUAGE_PREFIXES)
def test_home_reaches_the_upgrade_view(fixture_site, prefix):
    home = page_html(fixture_site, prefix.rstrip("/"))
    assert 'href="changelog/#upgrade"' in home


def test_real_site_has_a_page_for_every_feature_in_both_languages(real_site, real_catalog):
    for feature_id in real_catalog.features:
        for prefix in LANGUAGE_PREFIXES:
            assert (real_site / prefix / "features" / feature_id / "index.html").is_file(), feature_id


@pytest.mark.parametrize(
    ("feature_id", "english", "chinese"),
    [
        ("distributed-rpc", "promoted from Experimental to Stable", "从实验性提升为稳定"),
        ("custom-cpp-classes", "promoted from Experimental to Stable", "从实验性提升为稳定"),
    ],
)
def test_real_lifecycles_show_the_level_change(real_site, feature_id, english, chinese):
    assert english in text_of(page_html(real_site, f"features/{feature_id}"))
    assert chinese in text_of(page_html(real_site, f"zh/features/{feature_id}"))


def test_real_release_anchor_works_in_both_languages(real_site):
    for prefix in LANGUAGE_PREFIXES:
        assert 'id="torch-fft"' in page_html(real_site, f"{prefix}releases/1.7")


@pytest.mark.parametrize("prefix", LANGUAGE_PREFIXES)
def test_a_former_id_keeps_working(fixture_site, prefix):
    redirect = page_html(fixture_site, f"{prefix}features/widget-colors")
    assert '<meta http-equiv="refresh" content="0; url=../widget-colours/">' in redirect
    assert 'id="widget-colors"' in page_html(fixture_site, f"{prefix}releases/2.0")


class FeatureIndexRows(HTMLParser):
    """[(data attributes, [cell texts], first link)] of the features index table."""

    def __init__(self):
        super().__init__()
        self.rows, self.in_table, self.cell = [], False, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table" and attrs.get("id") == "rkb-features":
            self.in_table = True
        elif self.in_table and tag == "tr" and "data-area" in attrs:
            self.rows.append((attrs, [], None))
        elif self.in_table and self.rows and tag == "td":
            self.rows[-1][1].append("")
            self.cell = True
        elif self.in_table and self.rows and tag == "a" and self.rows[-1][2] is None:
            self.rows[-1] = (self.rows[-1][0], self.rows[-1][1], attrs["href"])

    def handle_endtag(self, tag):
        if tag == "table":
            self.in_table = False
        elif tag == "td":
            self.cell = False

    def handle_data(self, data):
        if self.in_table and self.rows and self.rows[-1][1] and self.cell:
            self.rows[-1][1][-1] += data


@pytest.mark.parametrize("prefix", LANGUAGE_PREFIXES)
def test_features_index_is_complete_without_javascript(real_site, real_catalog, prefix):
    """Every feature is a row of the static table, in catalog order, with the sort and filter
    values of the catalog and the first and latest release in its cells."""
    catalog = real_catalog
    lang = prefix.rstrip("/") or "en"
    parser = FeatureIndexRows()
    parser.feed(page_html(real_site, f"{prefix}features"))
    texts = json.loads((real_site / prefix / "features" / "filter-text.json").read_text(encoding="utf-8"))
    assert set(texts) == set(catalog.features)
    assert [href.rstrip("/").rsplit("/", 1)[-1] for _, _, href in parser.rows] == list(catalog.features)
    for (attrs, cells, _), feature in zip(parser.rows, catalog.features.values(), strict=True):
        assert " ".join(cells[0].split()) == " ".join(feature.title[lang].replace("`", "").split())
        assert cells[2] == feature.area.name[lang]  # beside the name: the level (cells[1])
        assert cells[3:5] == [feature.first.release.version, feature.latest.release.version]
        assert attrs["data-first"] == str(catalog.releases.index(feature.first.release))
        assert attrs["data-latest"] == str(catalog.releases.index(feature.latest.release))
        assert attrs["data-id"] == feature.id
        assert [pair.split("=")[0] for pair in attrs["data-stability"].split()] == [
            e.release.version for e in feature.entries
        ]
        # The words filter's text is beside the page, not in the rows (see releasekb.js).
        assert "data-text" not in attrs
        text = texts[feature.id]
        assert feature.id in text and all(api.lower() in text for api in feature.apis)
        assert feature.title[lang].replace("`", "").lower() in text.replace("`", "")


@pytest.mark.parametrize("prefix", LANGUAGE_PREFIXES)
@pytest.mark.parametrize(
    ("feature_id", "versions"),
    [("widgets", ["1.0", "1.1", "2.0"]), ("default-colour", ["2.0"]), ("crash-on-empty-file", ["1.1"])],
)
def test_feature_timeline_draws_only_the_features_releases(fixture_site, prefix, feature_id, versions):
    """One marker per release that mentions the feature (or adds a part to it): the chart grows
    with the feature's history, not with every release of the catalog."""
    html = page_html(fixture_site, f"{prefix}features/{feature_id}")
    start = html.index("<svg", html.index('class="rkb-chart"'))
    chart = html[start : html.index("</svg>", start)]
    assert chart.count("<circle") == len(versions)
    drawn = re.findall(r'rkb-strong" x="\d+" y="16" text-anchor="middle">([^<]+)<', chart)
    assert drawn == versions
