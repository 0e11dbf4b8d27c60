"""`releasekb bench`: on the smallest smoke shape it runs end to end and its JSON report is
complete; its growth ratios and its parts (the parallel baseline, the curator's edit, the
reader's search cost) are each checked on inputs whose right answer is known."""

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from helpers import CHROMIUM, ROOT, catalog_of, chromium_unavailable_reason, static_server
from releasekb.bench import measure as bench
from releasekb.bench.corpus import Corpus
from releasekb.bench.measure import (
    SEARCH_QUERIES,
    SMOKE_SHAPES,
    STAGES,
    WARM_UP_SHAPE,
    ShapeResult,
    edit_newest_release,
    measure_search,
    plain_project,
    ratios,
    run_measured,
    table,
)

# The smallest smoke shape: every stage of a shape runs once; the growth between shapes is
# `ratios`, checked on known timings below (three shapes end to end took four minutes).
SMALLEST_SHAPE = SMOKE_SHAPES[0]


def run_smoke(keep: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "releasekb.cli", "bench", "--shape", SMALLEST_SHAPE, "--json", "--repeat", "1"]
        + ["--pairs", "2", "--keep", str(keep)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )


def test_bench_smoke_report_is_complete_and_consistent(tmp_path):
    result = run_smoke(tmp_path / "keep")
    assert result.returncode == 0, result.stderr[-3000:]
    assert "bench: 2x6: releasekb build" in result.stderr  # progress goes to stderr
    steps = [line for line in result.stderr.splitlines() if " of 2) ..." in line]
    assert [line.split(": ", 2)[2] for line in steps] == [  # ours and the baseline, alternated
        f"{what} ({number} of 2) ..."
        for number in (1, 2)
        for what in ("releasekb build", "plain MkDocs baseline, both languages at once")
    ]
    report = json.loads(result.stdout)
    assert [shape["shape"] for shape in report["shapes"]] == [SMALLEST_SHAPE]
    for shape in report["shapes"]:
        assert set(shape["seconds"]) == set(STAGES), shape["shape"]
        # validate is load+validate minus load, two noisy timings: 0 when noise exceeds it. It is
        # part of every build, so a validate time above the build's is a measurement gone wrong.
        assert all(seconds > 0 for stage, seconds in shape["seconds"].items() if stage != "validate"), shape
        assert shape["seconds"]["validate"] < shape["seconds"]["build"], shape
        assert shape["entries"] == shape["releases"] * shape["entries_per_release"]
        # At least one page per release and one per feature, in each of the two languages.
        assert shape["pages_per_language"] >= shape["releases"] + shape["features"]
        assert shape["html_pages"] >= 2 * shape["pages_per_language"]
        assert shape["build_peak_mb"] > 0 and shape["plain_peak_mb"] > 0
        assert 0 < shape["largest_html_mb"] < 2
        assert set(shape["search_index_mb"]) == {"en", "zh"}
        assert all(mb > 0 for mb in shape["search_index_mb"].values()), shape["search_index_mb"]
        assert shape["pages_per_second"] > 0 and shape["build_vs_plain"] > 0
        # Two pairs of first builds, alternated: the medians of their times, the median of their ratios.
        pairs = shape["first_build_pairs"]
        assert len(pairs) == 2 and all(seconds > 0 for pair in pairs for seconds in pair), pairs
        assert shape["seconds"]["build"] == pytest.approx(statistics.median(ours for ours, _ in pairs))
        assert shape["seconds"]["plain_mkdocs"] == pytest.approx(statistics.median(plain for _, plain in pairs))
        assert shape["build_vs_plain"] == pytest.approx(statistics.median(ours / plain for ours, plain in pairs))
        assert shape["rebuild_pages_per_second"] == pytest.approx(shape["html_pages"] / shape["seconds"]["rebuild"])
        # The curator: serve answered, then served the edited release page (the newest release).
        assert shape["serve_start_seconds"] > 0 and shape["edit_to_page_seconds"] > 0
        assert shape["edited_page"] == f"/releases/1.{shape['releases'] - 1}/"
    # one shape: nothing to compare its growth with (shown as "shape not measured")
    assert report["ratios"] == {
        "base_shape": SMALLEST_SHAPE,
        "double_releases_build": None,
        "double_entries_per_release_build": None,
    }
    assert_search_reported(report, result.stderr)
    kept = tmp_path / "keep" / SMOKE_SHAPES[0]
    assert_baseline_is_plain_material_search(kept)
    # each pair built in folders of its own, nothing deleted between them
    assert (kept / "project-2" / "site" / "index.html").is_file()
    assert (kept / "plain-2" / "site" / "en" / "index.html").is_file()
    edited = (kept / "project" / "releases" / "1.1.yaml").read_text(encoding="utf-8")
    assert "Edited by the bench, marker " in edited  # the edit the served page was polled for


def assert_search_reported(report: dict, stderr: str) -> None:
    """Numbers where Chromium runs (which CI requires), and where it does not, empty columns
    with the reason, never a number."""
    unavailable = report["search_probe"]["unavailable"]
    if os.environ.get("CI") == "true":
        assert unavailable is None, f"the reader's search must be measured in CI, but: {unavailable}"
    if unavailable is None:
        for shape in report["shapes"]:
            for lang in SEARCH_QUERIES:
                assert shape["search_first_results_seconds"][lang] > 0, (shape["shape"], lang)
                assert shape["search_first_query_kb"][lang] > 0, (shape["shape"], lang)
                # a reader who never searches downloads none of the search's code or index
                idle = shape["search_idle_counted"][lang]
                assert not [path for path in idle if "/pagefind/" in path or "releasekb-search" in path], idle
                counted = shape["search_counted"][lang]
                # Search data, not the page: neither the page itself nor its stylesheets. And only
                # the page's language: a reader of one language never downloads the other's.
                assert counted and "/" not in counted and "/zh/" not in counted, counted
                assert not [path for path in counted if path.endswith(".css")], counted
                other_language = [path for path in counted if path.startswith("/zh/") != (lang == "zh")]
                assert not other_language, (lang, other_language)
        return
    print(f"\nthe reader's search was not measured: {unavailable}")
    assert unavailable == chromium_unavailable_reason(CHROMIUM) or "cannot launch" in unavailable
    assert f"the reader's search is not measured: {unavailable}" in stderr
    for shape in report["shapes"]:
        assert shape["search_unmeasured"] == unavailable
        assert set(shape["search_first_results_seconds"].values()) == {None}
        assert set(shape["search_first_query_kb"].values()) == {None}


def assert_baseline_is_plain_material_search(work: Path) -> None:
    """The kept baseline of a shape: Material's search in each language, its own configuration
    (nothing inherited from ours), the Chinese index segmented by jieba."""
    for lang, search_lang in (("en", "en"), ("zh", ["en", "zh"])):
        config = yaml.safe_load((work / "plain" / f"mkdocs.{lang}.yml").read_text(encoding="utf-8"))
        assert "INHERIT" not in config and "hooks" not in config, config
        assert config["theme"]["name"] == "material" and config["theme"]["language"] == lang
        assert config["plugins"] == [{"search": {"lang": search_lang}}]
        index = json.loads((work / "plain" / "site" / lang / "search" / "search_index.json").read_text("utf-8"))
        assert index["config"]["lang"] == ([search_lang] if lang == "en" else search_lang)
        segmented = [doc for doc in index["docs"] if "\u200b" in doc["text"]]
        assert bool(segmented) == (lang == "zh"), lang  # jieba's words are joined by zero-width spaces


def test_the_baseline_writes_its_own_configuration_per_language(tmp_path):
    pages = {
        f"{lang}/{path}": f"<h1>{lang} {path}</h1><p>text</p>"
        for lang in ("en", "zh")
        for path in ("index.md", "releases/index.md", "releases/1.0.md", "features/index.md", "features/a-b.md")
    }
    configs = plain_project(tmp_path / "plain", pages)
    assert [config.name for config in configs] == ["mkdocs.en.yml", "mkdocs.zh.yml"]
    zh = yaml.safe_load(configs[1].read_text(encoding="utf-8"))
    assert zh["docs_dir"] == "docs/zh" and zh["site_dir"] == "site/zh"
    assert zh["plugins"] == [{"search": {"lang": ["en", "zh"]}}]
    # Only the section pages in the navigation; each language's site in a folder of its own.
    assert zh["nav"] == ["index.md", "releases/index.md", "features/index.md"]
    assert yaml.safe_load(configs[0].read_text(encoding="utf-8"))["site_dir"] == "site/en"
    page = tmp_path / "plain" / "docs" / "zh" / "releases" / "1.0.md"
    assert page.read_text(encoding="utf-8").split() == ["#", "zh", "releases/1.0.md", "text"]  # plain Markdown


def test_the_baseline_builds_both_languages_in_one_run(tmp_path, monkeypatch):
    runs = []
    monkeypatch.setattr(bench, "run_measured", lambda commands, cwd: runs.append(commands) or (1.0, 1))
    bench.measure_plain_mkdocs({"en/index.md": "<p>a</p>", "zh/index.md": "<p>甲</p>"}, tmp_path / "plain")
    [commands] = runs  # one run_measured: its commands run at once (next test)
    assert [command[-1] for command in commands] == [
        str(tmp_path / "plain" / f"mkdocs.{lang}.yml") for lang in ("en", "zh")
    ]


def test_measured_commands_run_at_once(tmp_path):
    """Each command waits for the other to have started: run one after the other, the first
    would give up and fail the run."""
    wait_for_each_other = (
        "import pathlib, sys, time\n"
        "here, other = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])\n"
        "here.touch()\n"
        "deadline = time.monotonic() + 30\n"
        "while not other.exists():\n"
        "    if time.monotonic() > deadline: sys.exit(1)\n"
        "    time.sleep(0.01)\n"
    )
    commands = [[sys.executable, "-c", wait_for_each_other, mine, theirs] for mine, theirs in (("a", "b"), ("b", "a"))]
    seconds, peak = run_measured(commands, tmp_path)
    assert seconds > 0 and peak > 0
    with pytest.raises(RuntimeError, match="failed"):
        run_measured([[sys.executable, "-c", "import sys; sys.exit(3)"]], tmp_path)


def test_the_curators_edit_changes_one_line_of_the_newest_release(tmp_path):
    Corpus(3, 5, seed=7).write(tmp_path / "releases")
    before = (tmp_path / "releases" / "1.2.yaml").read_text(encoding="utf-8").splitlines()
    assert edit_newest_release(tmp_path / "releases", "Edited by the bench, marker 1234.") == "1.2"
    after = (tmp_path / "releases" / "1.2.yaml").read_text(encoding="utf-8").splitlines()
    assert len(after) == len(before)
    assert [line for old, line in zip(before, after, strict=True) if old != line] == [
        '    en: "Edited by the bench, marker 1234."'
    ]
    newest = catalog_of(tmp_path / "releases").releases[-1]  # still valid data
    assert newest.version == "1.2"
    assert newest.entries[0].summary["en"] == "Edited by the bench, marker 1234."


def test_every_corpus_contains_the_search_queries(tmp_path):
    """The reader's queries find something at every shape, even the smallest."""
    for shape in (WARM_UP_SHAPE, *SMOKE_SHAPES):
        releases, per_release = bench.parse_shape(shape)
        Corpus(releases, per_release, seed=7).write(tmp_path / shape)
        releases = [yaml.safe_load(path.read_text(encoding="utf-8")) for path in (tmp_path / shape).glob("1.*.yaml")]
        for lang, query in SEARCH_QUERIES.items():
            assert any(query in text for text in texts_in(releases, lang)), (shape, lang)


def texts_in(data, lang: str) -> list[str]:
    """Every text in language `lang` ({"en": ..., "zh": ...} values) anywhere in `data`."""
    if isinstance(data, list):
        return [text for item in data for text in texts_in(item, lang)]
    if isinstance(data, dict):
        own = [data[lang]] if isinstance(data.get(lang), str) else []
        return own + [text for value in data.values() for text in texts_in(value, lang)]
    return []


def test_the_table_shows_ours_against_the_baseline_and_empty_search_columns_with_the_reason():
    measured, unmeasured = ShapeResult("2x6", 2, 6), ShapeResult("4x6", 4, 6)
    for result, seconds in ((measured, 0.5), (unmeasured, None)):
        result.seconds = dict.fromkeys(STAGES, 1.0) | {"build": 3.0, "plain_mkdocs": 6.0, "rebuild": 2.0}
        result.pages_per_second, result.rebuild_pages_per_second = 100.0, 150.0
        result.build_vs_plain, result.serve_start_seconds, result.edit_to_page_seconds = 0.5, 4.0, 1.25
        result.search_first_results_seconds = dict.fromkeys(SEARCH_QUERIES, seconds)
        result.search_first_query_kb = dict.fromkeys(SEARCH_QUERIES, seconds and 250.0)
        result.search_idle_kb = dict.fromkeys(SEARCH_QUERIES, seconds and 2.0)
    unmeasured.search_unmeasured = "Chromium not found at /nowhere"
    lines = table([measured, unmeasured], ratios([measured, unmeasured])).splitlines()
    at = next(number for number, line in enumerate(lines) if "build/baseline" in line)
    header, measured_row, unmeasured_row = lines[at].split(), lines[at + 2], lines[at + 3]
    expected_header = (
        "shape build baseline build/baseline pages/s rebuild rebuild pages/s peak MB serve start edit→page".split()
    )
    assert header[: len(expected_header)] == expected_header
    assert header[len(expected_header) :] == [
        "search",
        "en",
        "en",
        "KB",
        "en",
        "idle",
        "search",
        "zh",
        "zh",
        "KB",
        "zh",
        "idle",
    ]
    assert measured_row.split()[-12:] == ["0.50", "s", "250", "KB", "2", "KB", "0.50", "s", "250", "KB", "2", "KB"]
    assert unmeasured_row.split()[1:4] == ["3.00", "s", "6.00"] and "KB" not in unmeasured_row
    assert measured_row.split()[6:10] == ["100", "2.00", "s", "150"]  # pages/s, rebuild, rebuild pages/s
    assert "search: not measured: Chromium not found at /nowhere" in lines


def test_the_growth_ratios_compare_each_doubled_shape_with_the_first():
    """The smoke shapes' growth, on known build times: twice the releases, twice the entries."""
    results = [ShapeResult(shape, *bench.parse_shape(shape)) for shape in SMOKE_SHAPES]
    for result, build in zip(results, (2.0, 3.0, 5.0), strict=True):
        result.seconds = dict.fromkeys(STAGES, 1.0) | {"build": build}
    assert [result.shape for result in results] == ["2x6", "4x6", "2x12"]
    assert ratios(results) == {
        "base_shape": "2x6",
        "double_releases_build": 1.5,
        "double_entries_per_release_build": 2.5,
    }
    # a shape not measured has no ratio, and the table says so
    assert ratios(results[:1]) == {
        "base_shape": "2x6",
        "double_releases_build": None,
        "double_entries_per_release_build": None,
    }
    assert "2x releases (vs 2x6): shape not measured" in table(results[:1], ratios(results[:1])).splitlines()


# --------------------------------------------------------------------- the reader's search cost

FAKE_PAGE = """<!doctype html><html><head><link rel="stylesheet" href="style.css"></head><body>
<div class="md-search" data-md-component="search"><form name="search"><input class="md-search__input"></form>
<ol class="md-search-result__list"></ol></div><script src="page.js"></script></body></html>"""
FAKE_PAGE_SCRIPT = """
addEventListener("load", () => fetch("page-data.json"));  // the page's own, like Material's sitemaps
if (document.forms.namedItem("search")) {  // Material starts its search only with the form
  const worker = new Worker("worker.js"), box = document.querySelector(".md-search__input");
  let asked = "";
  box.addEventListener("keyup", () => box.value !== asked && worker.postMessage(asked = box.value));
  worker.onmessage = event => {
    const item = document.createElement("li");
    item.className = "md-search-result__item";
    item.textContent = event.data;
    document.querySelector(".md-search-result__list").append(item);
  };
}
"""
FAKE_WORKER = """
const index = fetch("index.bin").then(response => response.arrayBuffer());  // at start, like lunr's
onmessage = async event => {
  if (event.data !== "widget") return;
  await index;
  await (await fetch("fragment.bin")).arrayBuffer();  // per query, like Pagefind's fragments
  postMessage("Widgets");
};
"""


@pytest.fixture
def fake_search_site(tmp_path) -> Path:
    """A page with Material's search markup whose search fetches an index from a worker as
    the page loads and a fragment per query, and which fetches data of its own after load."""
    site = tmp_path / "site"
    site.mkdir()
    files = {"index.html": FAKE_PAGE, "page.js": FAKE_PAGE_SCRIPT, "worker.js": FAKE_WORKER}
    files |= {"style.css": "body {}\n" * 20, "page-data.json": "[" + "0," * 150 + "0]"}
    for name, text in files.items():
        (site / name).write_text(text, encoding="utf-8")
    (site / "index.bin").write_bytes(b"i" * 5000)
    (site / "fragment.bin").write_bytes(b"f" * 700)
    return site


@pytest.mark.browser
def test_search_cost_counts_the_search_data_and_not_the_page(chromium, fake_search_site, monkeypatch):
    monkeypatch.setattr(bench, "SEARCH_TIMEOUT", 5)  # the unanswered query below fails after it
    transfers = []
    with static_server(fake_search_site, transfers) as base_url:
        cost = measure_search(chromium, base_url, transfers, "/", "widget")
        with pytest.raises(RuntimeError, match="search for 'nothing' on http"):
            measure_search(chromium, base_url, transfers, "/", "nothing")
    assert cost.paths == ["/fragment.bin", "/index.bin", "/worker.js"]
    assert cost.body_bytes == 700 + 5000 + len(FAKE_WORKER.encode())
    assert cost.seconds > 0
    # a page view without a search: this search loads its worker and index all the same
    assert cost.idle_paths == ["/index.bin", "/worker.js"]
    assert cost.idle_bytes == 5000 + len(FAKE_WORKER.encode())


@pytest.mark.parametrize("pairs", ["0", "-1", "two"])
def test_pairs_must_be_a_whole_number_of_one_or_more(pairs):
    result = subprocess.run(
        [sys.executable, "-m", "releasekb.cli", "bench", "--pairs", pairs], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 2
    assert f"'{pairs}' is not a whole number of 1 or more" in result.stderr
