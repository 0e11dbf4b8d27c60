"""Search (releasekb/site/search.py): what Pagefind indexes, the filters, and how a new index is put
in place under readers. The searches themselves, in Chromium, are in test_browser.py."""

from __future__ import annotations

import gzip
import json
import urllib.request
from pathlib import Path

import pytest

from helpers import FIXTURE_RELEASES, copy_project, fetch, serve, wait_for
from releasekb.site import pagefind_files, search
from releasekb.site.search import (
    Indexer,
    SearchDocument,
    page_facts,
    page_filters,
    page_meta,
    search_hint,
    worker_settings,
)


def document(url: str, words: str, filters=()) -> SearchDocument:
    return SearchDocument(url, url.strip("/").title(), f"<h1>{url}</h1><p>{words}</p>", tuple(filters))


def entry_hashes(bundle: Path) -> set[str]:
    entry = json.loads((bundle / "pagefind-entry.json").read_text(encoding="utf-8"))
    return {language["hash"] for language in entry["languages"].values()}


def test_the_entry_file_always_names_files_that_are_there(tmp_path):
    """A reader's query starts from pagefind-entry.json: after every update, the index it names
    is complete, and the files of the index before it are still there for pages opened earlier."""
    bundle = tmp_path / "pagefind"
    indexer = Indexer()  # one process's, which keeps the bundle before the last
    generations = []  # each index's own files, as it writes them into an empty folder
    for number, words in enumerate(("apple banana", "cherry damson", "elder fig")):
        documents = [document("fruit/", words), document("more/", words + " more")]
        indexer.index(documents, "en", bundle)
        hashes = entry_hashes(bundle)
        assert all((bundle / f"pagefind.{h}.pf_meta").is_file() for h in hashes)
        alone = tmp_path / f"alone-{number}"
        Indexer().index(documents, "en", alone)
        generations.append({p.relative_to(alone).as_posix() for p in alone.rglob("*.pf_*")})
    present = {p.relative_to(bundle).as_posix() for p in bundle.rglob("*.pf_*")}
    assert generations[2] | generations[1] <= present  # the newest and the one before
    assert not (generations[0] - generations[1] - generations[2]) & present  # older ones removed
    assert generations[0] - generations[1] - generations[2]  # (there were some to remove)


def test_pagefinds_own_interfaces_are_not_shipped(tmp_path):
    Indexer().index([document("a/", "words")], "en", tmp_path / "pagefind")
    names = {path.name for path in (tmp_path / "pagefind").iterdir()}
    assert "pagefind.js" in names and "pagefind-entry.json" in names
    assert not {name for name in names if "-ui." in name or "highlight" in name}


def test_han_words_are_the_indexes_own_words(tmp_path):
    bundle = tmp_path / "pagefind"
    Indexer().index(
        [SearchDocument("a/", "自动求导", "<h1>分布式自动求导</h1><p>分布式训练与自动求导</p>")], "zh", bundle
    )
    words = json.loads((bundle / search.HAN_WORDS_FILE).read_text(encoding="utf-8"))
    assert words == sorted(words) and all(len(word) > 1 for word in words)
    assert "求导" in words and "自动" in words  # as Pagefind's segmenter split the text
    Indexer().index([document("a/", "only english")], "en", tmp_path / "english")
    assert json.loads((tmp_path / "english" / search.HAN_WORDS_FILE).read_text(encoding="utf-8")) == []


def test_filter_and_meta_values_reach_the_index_as_they_are(tmp_path):
    """Markup is escaped; a comma is kept as it is (Pagefind 1.5 would keep a backslash before
    it too: titles and filter values read "a\\, b")."""
    page = SearchDocument("a/", "A <b>, c", "<p>x</p>", (("area", 'one, "two"'),), (("apis", "a.b, c.d"),))
    text = page.html("en")
    assert 'data-pagefind-filter="area:one, &quot;two&quot;"' in text
    assert "<title>A &lt;b&gt;, c</title>" in text
    Indexer().index([page], "en", tmp_path / "pagefind")
    (fragment,) = fragments(tmp_path / "pagefind")
    assert fragment["filters"] == {"area": ['one, "two"']}
    assert fragment["meta"] == {"title": "A <b>, c", "apis": "a.b, c.d"}


def test_what_pagefind_would_not_index_never_reaches_it():
    """Material's search exclusions and SVG images are left out whole where their end is found;
    an exclusion without one (a void element, an element left open) is marked for Pagefind."""
    content = (
        "<p>kept</p><div data-search-exclude><div>inner</div>boxed</div>"
        '<table class="x" data-search-exclude><tr><td>cell</td></tr></table>'
        '<svg viewBox="0 0 1 1"><title>chart</title><svg><text>nested</text></svg></svg><p>after</p>'
        '<svg class="dot"/><p>between</p><svg><title>icon</title></svg>'
        "<p>say data-search-exclude here</p>"
        '<img data-search-exclude src="a.png"><section data-search-exclude><p>open'
    )
    text = SearchDocument("a/", "A", content).html("en")
    assert "<p>kept</p><p>after</p><p>between</p><p>say " in text  # a mark in the text is no element's
    assert not [
        gone for gone in ("inner", "boxed", "cell", "chart", "nested", "icon", "<svg", "</table>") if gone in text
    ]
    assert '<img data-pagefind-ignore src="a.png"><section data-pagefind-ignore><p>open' in text


def test_an_excluded_image_gives_the_index_no_words_and_the_page_no_image(tmp_path):
    """Pagefind takes a page's first image as its image, excluded or not, and indexed its address
    and its alternative text as words of the page (a feature's badge: "stability badge" on every
    feature page)."""
    content = (
        "<p>widgets</p><div data-search-exclude><p>Badge</p>"
        '<img src="../badges/widgets.svg" alt="Widgets: emblem"></div>'
    )
    Indexer().index([SearchDocument("a/", "Widgets", content)], "en", tmp_path / "pagefind")
    (fragment,) = fragments(tmp_path / "pagefind")
    assert fragment["meta"] == {"title": "Widgets"}
    assert fragment["content"] == "widgets."
    words = json.dumps(
        [pagefind_files.read_pagefind_file(path) for path in (tmp_path / "pagefind").rglob("*.pf_index")]
    )
    assert "widget" in words and "emblem" not in words and "badg" not in words


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_filters_give_keys_and_names_for_release_and_feature_pages(real_catalog, lang):
    filters = page_filters(real_catalog, lang)
    fft = real_catalog.features["torch-fft"]
    values = dict.fromkeys(name for name, _ in filters["features/torch-fft.md"])
    assert list(values) == ["area", "level", "release"]
    assert ("level", fft.level.key) in filters["features/torch-fft.md"]
    assert ("level", fft.level.name[lang]) in filters["features/torch-fft.md"]
    assert filters["releases/1.7.md"] == (("release", "1.7"),)
    assert len(filters) == len(real_catalog.features) + len(real_catalog.releases)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_features_badge_release_and_apis_go_with_its_page(real_catalog, lang):
    """What each result shows besides its text (its level, or its latest change, and the release
    it is stated as of) and ranks by (its parts), as filters no query names; and the API names
    its title ranks with, as searched metadata."""
    facts = {path: dict(values) for path, values in page_facts(real_catalog, lang).items()}
    fft = real_catalog.features["torch-fft"]
    assert facts["features/torch-fft.md"] == {
        "badge": f"level-{fft.level.key}",
        "badge_text": fft.level.name[lang],
        "as_of": fft.level_stated_in.version,
    }
    deprecated = facts["features/torch-fft-function.md"]  # a deprecation, no level
    assert deprecated["badge"] == "change-deprecation" and deprecated["as_of"] == "1.7"
    assert facts["features/distributed-rpc.md"]["parts"] == str(len(real_catalog.features["distributed-rpc"].parts))
    assert all({"badge", "badge_text", "as_of"} <= set(values) for values in facts.values())
    assert set(facts) == {f"features/{feature_id}.md" for feature_id in real_catalog.features}
    assert not set(facts["features/distributed-rpc.md"]) & set(search.FILTERS)  # a query cannot name them
    meta = dict(page_meta(real_catalog, lang)["features/torch-fft.md"])
    assert meta == {"apis": ", ".join(fft.apis)} and set(search.META_WEIGHTS) == {"title", "apis"}


@pytest.mark.parametrize(
    ("lang", "other", "bundle", "home"),
    [("en", "zh", "../zh/pagefind/", "zh/"), ("zh", "en", "../../pagefind/", "../")],
)
def test_the_worker_finds_the_other_languages_index_and_home(real_catalog, lang, other, bundle, home):
    """From each language's worker (<language>/assets/), the other language's bundle; from its
    site's base, the other language's home, whose search box opens with ?q=."""
    settings = worker_settings(real_catalog, lang)
    assert settings["bundle"] == "../pagefind/"
    (offer,) = settings["other"]
    assert (offer["lang"], offer["bundle"], offer["home"]) == (other, bundle, home)
    assert settings["segmented"] == (lang == "zh") and offer["segmented"] == (other == "zh")
    assert offer["name"] == {"en": "English", "zh": "中文"}[other]


def test_search_prompt_shows_filters_a_reader_can_type(real_catalog):
    assert search_hint(real_catalog, "en") == (
        "Type to search; narrow it with level:beta, release:1.7 or area:frontend"
    )
    assert "级别:beta" in search_hint(real_catalog, "zh") and "版本:1.7" in search_hint(real_catalog, "zh")


def served_search_words(base: str) -> list[str] | None:
    """The Chinese index's words as `serve` serves them, after checking that the index its entry
    file names is all there (None if not: a half-written index)."""
    entry = json.loads(fetch(f"{base}/zh/pagefind/pagefind-entry.json") or "null")
    if entry is None:
        return None
    for language in entry["languages"].values():
        meta = urllib.request.urlopen(f"{base}/zh/pagefind/pagefind.{language['hash']}.pf_meta", timeout=5)
        assert meta.status == 200
    return json.loads(fetch(f"{base}/zh/pagefind/{search.HAN_WORDS_FILE}") or "[]")


def test_serve_indexes_an_edit_for_search_after_the_page_shows_it(tmp_path):
    project = copy_project(tmp_path / "p", FIXTURE_RELEASES)
    page = "zh/releases/1.1/"
    with open(tmp_path / "serve.log", "w+") as log:
        process, base = serve(project, log)
        try:
            wait_for(lambda: "读取空文件不再崩溃" in fetch(f"{base}/{page}"), 90, "the first build")
            # the first build's index follows its pages (afterwards.py), complete when it comes
            wait_for(lambda: served_search_words(base) is not None, 60, "the first index")
            words = served_search_words(base)
            assert "读取" in words and "鲸鱼" not in words
            release = project / "releases" / "1.1.yaml"
            text = release.read_text(encoding="utf-8")
            edited = text.replace("zh: 读取空文件不再崩溃}", "zh: 读取空文件不再让鲸鱼崩溃}")
            release.write_text(edited, encoding="utf-8")
            wait_for(lambda: "鲸鱼" in fetch(f"{base}/{page}"), 60, "the edit to be served")
            # then search catches up, every index served on the way complete
            wait_for(lambda: "鲸鱼" in (served_search_words(base) or []), 60, "search to catch up")
        finally:
            process.terminate()
            process.wait(timeout=20)


def test_the_same_pages_give_the_same_index_byte_for_byte(tmp_path):
    """Pagefind writes filter values in hash-map order, different on every run; search.py sorts
    them, so two builds of the same sources are identical (and a deploy uploads no change)."""
    documents = [
        document(
            f"page-{i}/",
            f"word{i % 7} text",
            [("level", ("beta", "stable", "prototype")[i % 3]), ("area", f"a{i % 5}")],
        )
        for i in range(60)
    ]
    trees = []
    for run in ("a", "b", "c"):
        Indexer().index(documents, "en", tmp_path / run)
        trees.append(
            {
                p.relative_to(tmp_path / run).as_posix(): p.read_bytes()
                for p in (tmp_path / run).rglob("*")
                if p.is_file()
            }
        )
    assert trees[0] == trees[1] == trees[2]


def fragments(bundle: Path) -> list[dict]:
    """Every page of a bundle as Pagefind keeps it in its fragment (text, title, filters)."""
    pages = []
    for fragment in bundle.glob("fragment/*.pf_fragment"):
        text = gzip.decompress(fragment.read_bytes()).decode("utf-8")
        pages.append(json.loads(text[text.index("{") :]))
    return pages
