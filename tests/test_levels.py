"""A level as of a release (issue 27): a feature's level as of release R is the latest one a
release stated at or before R. A release that mentions a feature without stating a level leaves it
where it was, and says so; a release whose scheme has no labels states none either."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import jsonschema
import pytest

from helpers import ROOT, catalog_of, fixture_data, html_pages, real_data, release_file
from releasekb.common.i18n import interface_strings
from releasekb.kb import api
from releasekb.kb.query import Query, run
from releasekb.kb.urls import feature_path
from releasekb.site.render import render_language

# The fixture project (Acme) with a longer history: 0.9 (no labels) introduces `legacy`, which
# 1.0 mentions without a level; widgets (experimental in 1.0, stable in 1.1) are mentioned without
# a level in 2.0 (a scheme with labels) and 2.1 (a scheme without).
WIDGETS_IN_2_0 = """features:
  - id: widgets
    kind: improvement
    area: core
    title: {en: Widgets draw faster, zh: 小部件绘制得更快}
    summary: {en: Widgets draw twice as fast., zh: 小部件的绘制速度提高到两倍。}
  - id: widget-colours
"""
LEGACY_IN_1_0 = """features:
  - id: legacy
    kind: improvement
    area: io
    title: {en: The legacy format reads faster, zh: 旧格式读取更快}
    summary: {en: Reading the legacy format is faster., zh: 读取旧格式更快了。}
  - id: widgets
"""


LEGACY_IN_0_9 = """features:
  - id: legacy
    name: {en: Legacy format, zh: 旧格式}
    area: io
    title: {en: Reading the legacy format, zh: 读取旧格式}
    summary: {en: Files in the legacy format can be read., zh: 可以读取旧格式的文件。}
"""
WIDGETS_IN_2_1 = """features:
  - id: widgets
    kind: improvement
    area: core
    title: {en: Widgets get borders, zh: 小部件可以加边框}
    summary: {en: A widget can have a border., zh: 小部件可以加上边框。}
"""


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    data = fixture_data(
        tmp_path_factory.mktemp("levels"),
        {
            "2.0.yaml": [("features:\n  - id: widget-colours\n", WIDGETS_IN_2_0)],
            "1.0.yaml": [("features:\n  - id: widgets\n", LEGACY_IN_1_0)],
        },
    )
    (data / "0.9.yaml").write_text(release_file("0.9", "2019-06-01") + LEGACY_IN_0_9, encoding="utf-8")
    (data / "2.1.yaml").write_text(release_file("2.1", "2021-08-01") + WIDGETS_IN_2_1, encoding="utf-8")
    return catalog_of(data)


def test_silence_leaves_a_feature_at_its_last_stated_level(history):
    widgets = history.features["widgets"]
    states = [(e.release.version, e.level.key, e.in_effect.level.key) for e in widgets.entries]
    # What each release published, and the level in effect after it.
    assert states == [
        ("1.0", "experimental", "experimental"),
        ("1.1", "stable", "stable"),
        ("2.0", "unlabeled", "stable"),
        ("2.1", "unlabeled", "stable"),
    ]
    current = widgets.current
    assert (current.level.key, current.stated_in.version, current.stated_by) == ("stable", "1.1", None)
    assert [r.version for r in current.not_restated] == ["2.0", "2.1"]
    assert widgets.level.key == "stable" and widgets.level_since.version == "1.1"
    # Neither release is a demotion or a change of level: both are plain updates.
    assert [(ev.release.version, ev.kind) for ev in widgets.events] == [
        ("1.0", "introduced"),
        ("1.1", "promoted"),
        ("2.0", "updated"),
        ("2.1", "updated"),
    ]
    assert all(ev.after.key == "stable" for ev in widgets.events[1:])
    assert (
        current.provenance(interface_strings("en"))
        == "(stated in the 1.1 announcement; 2.0 and 2.1 did not restate it)"
    )
    assert current.provenance(interface_strings("zh")) == "（据 1.1 版公告；2.0、2.1 版未再说明）"
    assert current.provenance(interface_strings("en"), short=True) == "(stated for 1.1; not restated in 2.0 and 2.1)"


def test_a_release_without_labels_states_no_level_and_never_gives_one(history):
    """0.9's scheme has no labels: `legacy` is Unlabeled there, and stays Unlabeled when 1.0
    mentions it without a level (nothing was ever stated, so nothing is carried)."""
    legacy = history.features["legacy"]
    assert [(e.release.version, e.in_effect.level.key) for e in legacy.entries] == [
        ("0.9", "unlabeled"),
        ("1.0", "unlabeled"),
    ]
    assert legacy.current.stated is None and not legacy.current.carried
    assert legacy.current.provenance(interface_strings("en")) == ""
    assert legacy.level_since.version == "0.9"
    assert [ev.kind for ev in legacy.events] == ["introduced", "updated"]


def test_level_as_of_a_release(history):
    widgets, reader = history.features["widgets"], history.features["old-reader"]
    as_of = {r.version: widgets.level_as_of(r) for r in history.releases}
    assert as_of["0.9"] is None  # not there yet
    assert {v: s.level.key for v, s in as_of.items() if s} == {
        "1.0": "experimental",
        "1.1": "stable",
        "2.0": "stable",
        "2.1": "stable",
    }
    assert [r.version for r in as_of["2.0"].not_restated] == ["2.0"]
    assert widgets.level_since_as_of(history.release("1.0")).version == "1.0"
    # Removed in 2.0: no level as of 2.0 or later.
    assert reader.level_as_of(history.release("1.1")).level.key == "unlabeled"
    assert reader.level_as_of(history.release("2.0")) is None
    assert reader.level_as_of(history.release("2.1")) is None


def test_release_counts_and_level_pages_use_the_level_in_effect(history):
    """The 2.0 page counts widgets as stable (not unlabeled), and 2.1, whose scheme has no
    labels, shows the stable level its mention keeps."""
    assert {level.key: n for level, n in history.release("2.0").level_counts} == {"stable": 1, "beta": 1}
    assert {level.key: n for level, n in history.release("2.1").level_counts} == {"stable": 1}
    stable = history.levels["stable"]
    # The stable page lists widgets as stable now (since 1.1), although 2.0 and 2.1 state no level.
    assert [(f.id, f.level_since.version) for f in history.features_now(stable)] == [("widgets", "1.1")]


@pytest.mark.parametrize("catalog_name", ["history", "real_catalog"])
def test_counts_as_of_each_release_agree_with_each_features_level(catalog_name, request):
    catalog = request.getfixturevalue(catalog_name)
    for release, counts in catalog.levels_as_of:
        expected = {level.key: 0 for level in catalog.levels.values()}
        for feature in catalog.features.values():
            state = feature.level_as_of(release)
            if state is not None:
                expected[state.level.key] += 1
        assert {level.key: n for level, n in counts} == expected, release


def test_real_rpc_framework_is_stable_as_of_1_7_although_1_7_does_not_mention_it(real_catalog):
    rpc = real_catalog.features["distributed-rpc"]
    assert "1.7" not in [r.version for r in rpc.releases]
    assert rpc.level_as_of(real_catalog.release("1.7")).level.key == "stable"
    assert rpc.level_since.version == "1.5"
    stable_rpc = {f.id for f in run(real_catalog, Query(stability="stable", text="rpc"))}
    assert "distributed-rpc" in stable_rpc
    assert stable_rpc == {f.id for f in run(real_catalog, Query(stability="stable", text="rpc", as_of="1.7"))}
    # "Mentioned in 1.7" is another question: the framework is not among its answers.
    mentioned = {f.id for f in run(real_catalog, Query(stability="stable", text="rpc", release="1.7"))}
    assert "distributed-rpc" not in mentioned and mentioned < stable_rpc
    # As of 1.4 nothing about RPC was stable yet, and the framework was experimental.
    assert not run(real_catalog, Query(stability="stable", text="rpc", as_of="1.4"))
    assert "distributed-rpc" in {f.id for f in run(real_catalog, Query(stability="experimental", as_of="1.4"))}


# The real data with 1.5's entry for remote references stating no level (as it did before issue 36
# gave the four parts of the RPC framework 1.5's stable alike): a level carried over from a level
# another announcement stated, on the real releases.
RREF_STABLE_IN_1_5 = (
    "  - id: rpc-remote-reference\n    kind: improvement\n    area: distributed\n    stability: stable\n"
)


@pytest.fixture(scope="module")
def rref_silent_data(tmp_path_factory):
    unstated = RREF_STABLE_IN_1_5.replace("    stability: stable\n", "")
    return real_data(tmp_path_factory.mktemp("rref"), {"1.5.yaml": [(RREF_STABLE_IN_1_5, unstated)]})


@pytest.fixture(scope="module")
def rref_silent(rref_silent_data):
    return catalog_of(rref_silent_data)


def test_real_rref_keeps_its_1_4_level_with_its_provenance(rref_silent):
    """Had 1.5 mentioned remote references without a level, they would stay experimental, as 1.5's
    announcement said they came in 1.4, and every view would say so alike."""
    rref = rref_silent.features["rpc-remote-reference"]
    assert [(e.release.version, e.level.key) for e in rref.entries] == [("1.4", "experimental"), ("1.5", "unlabeled")]
    assert rref.level.key == "experimental" and rref.level_since.version == "1.4"
    en, zh = interface_strings("en"), interface_strings("zh")
    assert rref.current.provenance(en) == "(stated for 1.4 in the 1.5 announcement; 1.5 did not restate it)"
    assert rref.current.provenance(zh) == "（据 1.5 版公告，1.4 版时即为此级别；1.5 版未再说明）"
    assert [ev.kind for ev in rref.events] == ["addition", "updated"]  # no demotion


def test_real_02_features_stay_unlabeled(real_catalog):
    for entry in real_catalog.release("0.2").features:
        assert entry.in_effect.level.key == "unlabeled" and entry.in_effect.stated is None


# --------------------------------------------------------------------------- pages agree


BADGE = re.compile(
    r'rkb-badge rkb-level-([a-z0-9-]+)"[^>]*>([^<]*)</span>(?: <a class="rkb-provenance"[^>]*>([^<]*)</a>)?'
)


HIDDEN_LEVEL = re.compile(r'<span data-from="[^"]*" data-order="\d+" hidden><span [^>]*>[^<]*</span></span>')


def current_on_feature_page(text: str, strings: dict) -> tuple[str, str]:
    """(level key, provenance) after "Current level:" on a feature page."""
    meta = text[text.index(strings["current_level"]) :]
    match = BADGE.search(meta)
    return match[1], match[3] or ""


def chart_markers(text: str) -> list[str]:
    """The level of each release marker of the lifecycle chart."""
    chart = text[text.index('<div class="rkb-chart">') :]
    chart = chart[: chart.index("</svg>")]
    return re.findall(r'<circle class="rkb-fill-([a-z0-9-]+)"', chart)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("catalog_name", ["history", "real_catalog"])
def test_current_level_chart_lifecycle_and_overview_never_contradict_each_other(catalog_name, lang, request):
    catalog = request.getfixturevalue(catalog_name)
    strings = interface_strings(lang)
    pages = html_pages(catalog, lang)
    overview = pages["stability/index.md"]
    index = pages["features/index.md"]
    checked = 0
    for feature in catalog.features.values():
        if feature.current is None:
            continue  # only changes mention it: no level anywhere
        level = feature.level.key
        page = pages[feature_path(feature.id)]
        key, provenance = current_on_feature_page(page, strings)
        assert (key, provenance) == (level, feature.current.provenance(strings)), feature.id
        # The chart's marker of the latest release that mentions the feature in an entry of its own.
        last_feature_entry = [e for e in feature.entries if e.in_effect is not None][-1]
        markers = chart_markers(page)
        position = [e.release for e in feature.entries].index(last_feature_entry.release)
        assert markers[position] == level, (feature.id, markers)
        # The lifecycle list's line for that release shows the same level.
        lifecycle = page[page.index('id="lifecycle"') :]
        lifecycle = lifecycle[: lifecycle.index("</ul>")]
        line = next(li for li in lifecycle.split("<li>") if f">{last_feature_entry.release.version}</a></strong>" in li)
        if BADGE.search(line):
            assert BADGE.search(line)[1] == level, (feature.id, line)
        # The overviews' rows.
        if feature in catalog.overview_features:
            row = re.search(
                rf'<tr data-feature="{feature.id}" data-level="([^"]*)" data-since="([^"]*)">(.*?)</tr>', overview, re.S
            )
            assert (row[1], row[2]) == (level, feature.level_since.version), feature.id
            assert BADGE.search(row[3])[1] == level
        row = re.search(rf'<tr data-id="{feature.id}".*?</tr>', index, re.S)[0]
        row = HIDDEN_LEVEL.sub("", row)  # the levels the row shows as of earlier releases only
        assert BADGE.search(row)[1] == level, feature.id
        checked += 1
    assert checked > 3


def test_rref_page_says_where_its_level_comes_from_in_both_languages(rref_silent):
    for lang, current, chart in (
        (
            "en",
            "Experimental (stated for 1.4 in the 1.5 announcement; 1.5 did not restate it)",
            "1.5: Experimental (stated for 1.4 in the 1.5 announcement; 1.5 did not restate it)",
        ),
        (
            "zh",
            "实验性 （据 1.5 版公告，1.4 版时即为此级别；1.5 版未再说明）",
            "1.5：实验性 （据 1.5 版公告，1.4 版时即为此级别；1.5 版未再说明）",  # the language's colon
        ),
    ):
        page = html_pages(rref_silent, lang)[feature_path("rpc-remote-reference")]
        text = re.sub(r"<[^>]+>", "", page)
        assert current in text
        assert chart in page  # the chart's text alternative
        assert interface_strings(lang)["level_unlabeled"] not in text.split(interface_strings(lang)["by_release"])[0]


# --------------------------------------------------------------------------- the API and the command


def level_as_of(record: dict, version: str, order: list[str]) -> str | None:
    """A feature's level as of a release, from the API's level_changes and the release order."""
    stated = [v for v in record["level_changes"] if order.index(v) <= order.index(version)]
    level = record["level_changes"][max(stated, key=order.index)] if stated else None
    return None if level == "removed" else level


def test_api_gives_each_features_level_changes_and_they_answer_every_release(real_catalog, rref_silent):
    document = api.features_document(real_catalog, list(real_catalog.features.values()), "")
    jsonschema.Draft202012Validator(api.schema()).validate(document)
    records = {f["id"]: f for f in document["features"]}
    # one item per change of level, not one per release: the 1.4 entries' level is 1.5's citation
    assert records["rpc-remote-reference"]["level_changes"] == {"1.4": "experimental", "1.5": "stable"}
    rref = records["rpc-remote-reference"]
    assert (rref["level"]["key"], rref["level_stated_in"], rref["level_stated_by"]) == ("stable", "1.5", None)
    # silence in 1.5 and 1.7 changes nothing
    silent = api.features_document(rref_silent, list(rref_silent.features.values()), "")
    silent_rref = next(f for f in silent["features"] if f["id"] == "rpc-remote-reference")
    assert silent_rref["level_changes"] == {"1.4": "experimental"}
    assert (silent_rref["level"]["key"], silent_rref["level_stated_in"], silent_rref["level_stated_by"]) == (
        "experimental",
        "1.4",
        "1.5",
    )
    assert records["distributed-rpc"]["level_changes"] == {"1.4": "experimental", "1.5": "stable"}
    assert records["python2-support"]["level_changes"] == {"1.5": "removed"}  # only changes mention it: no level
    # Every count of the stability overview, answered from the API alone.
    order = [release.version for release in real_catalog.releases]
    for release, counts in real_catalog.levels_as_of:
        for level, count in counts:
            answer = [f for f in records.values() if level_as_of(f, release.version, order) == level.key]
            assert len(answer) == count, (release.version, level.key)


def test_api_level_changes_end_at_a_removal(history):
    record = api.feature_record(history.features["old-reader"], "")
    order = [release.version for release in history.releases]
    assert record["level_changes"]["2.0"] == "removed"
    assert level_as_of(record, "1.1", order) == "unlabeled" and level_as_of(record, "2.0", order) is None
    assert api.feature_record(history.features["legacy"], "")["level_changes"] == {"0.9": "unlabeled"}


def query(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "releasekb.cli", "query", *args], cwd=ROOT, capture_output=True, text=True
    )


def test_query_as_of_answers_what_is_stable_in_1_7(real_catalog):
    result = query("--stability", "stable", "--as-of", "1.7", "--text", "rpc", "--format", "json")
    assert result.returncode == 0, result.stderr
    ids = [f["id"] for f in json.loads(result.stdout)["features"]]
    assert "distributed-rpc" in ids
    order = [release.version for release in real_catalog.releases]
    assert all(level_as_of(f, "1.7", order) == "stable" for f in json.loads(result.stdout)["features"])
    # The default is the latest release.
    assert query("--stability", "stable", "--text", "rpc", "--format", "json").stdout == result.stdout
    # --release is "mentioned in", and levels are then read as of it unless --as-of says otherwise.
    mentioned = json.loads(
        query("--stability", "stable", "--release", "1.7", "--text", "rpc", "--format", "json").stdout
    )
    assert "distributed-rpc" not in [f["id"] for f in mentioned["features"]]
    assert query("--stability", "stable", "--as-of", "1.4", "--text", "rpc").returncode == 1
    unknown = query("--stability", "stable", "--as-of", "1.6")
    assert unknown.returncode == 2 and "--as-of" in unknown.stderr and "1.7" in unknown.stderr


def test_query_table_shows_the_level_as_of_the_release_asked_about(rref_silent_data):
    silent = ("--data", str(rref_silent_data))
    rows = {line.split()[0]: line for line in query(*silent, "--text", "remote reference").stdout.splitlines()[1:]}
    assert "Experimental (stated for 1.4; not restated in 1.5)" in rows["rpc-remote-reference"]
    as_of_14 = query("--as-of", "1.4", "--text", "RPC framework").stdout
    row = next(line for line in as_of_14.splitlines() if line.startswith("distributed-rpc "))
    assert "Experimental (per 1.5)" in row and "stable" not in row.lower()
    chinese = query(*silent, "--text", "远程引用", "--lang", "zh").stdout
    assert "实验性 （1.4 版所述；1.5 版未再说明）" in chinese


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_home_asks_which_features_are_stable_as_of_the_latest_release(real_catalog, lang):
    home = render_language(real_catalog, lang)["index.md"]
    question = interface_strings(lang)["home_q_stable"]
    assert f'<a href="features/?stability=stable">{question}</a>' in home
