"""A knowledge base of any set of languages, as a new team makes it (issue 35): an English-only,
an English + Japanese + Chinese and a Chinese-only product, each made by `init --languages` and
built by the releasekb of a fresh environment that holds only the wheel of this repository, then
served and read in Chromium: pages in exactly those languages, titles right, search answering in
each language (Japanese and Chinese words found inside longer runs of text), the switcher listing
exactly those languages, and a word of another language of the set offering that language's
results.

tests/test_languages.py checks the built files of every set (folders, `<html lang>`, the
switcher's links, titles); these tests are what a reader meets. One build per set (module scope).
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from helpers import command_env, enter_search, static_server
from releasekb.common.i18n import interface_strings

pytestmark = pytest.mark.browser

TIMEOUT_MS = 15_000
PRODUCT = "Acme MQ"
SITE_NAMES = {"en": "Acme MQ release notes", "ja": "Acme MQ リリースノート", "zh": "Acme MQ 版本说明"}

# The feature added to the starter's release, in each language, with the words a reader searches
# for: each only in its own language. The Japanese 監視 is the end of the run 死活監視 and the
# Chinese 心跳 the middle of 客户端现在每三十秒发送一次心跳包: found only through the segmentation.
FEATURE_ID = "keepalive"
FEATURE = {
    "en": {
        "name": "Keepalive",
        "title": "Idle connections stay open",
        "summary": "The client now sends a heartbeat every thirty seconds, so idle connections behind a "
        "firewall are no longer dropped.",
    },
    "ja": {
        "name": "接続の維持",
        "title": "アイドル状態の接続を維持",
        "summary": "クライアントは三十秒ごとにハートビートを送って死活監視を行うようになり、"
        "ファイアウォールの内側でもアイドル状態の接続が切れなくなりました。",
    },
    "zh": {
        "name": "保持连接",
        "title": "空闲连接保持打开",
        "summary": "客户端现在每三十秒发送一次心跳包，防火墙后面的空闲连接不会再被断开。",
    },
}
WORDS = {"en": ["heartbeat"], "ja": ["監視", "ハートビート"], "zh": ["心跳"]}

SETS = [
    pytest.param(("en",), id="en"),
    pytest.param(("en", "ja", "zh"), id="en-ja-zh"),
    pytest.param(("zh",), id="zh"),
]


def prefix(lang: str, languages: tuple[str, ...]) -> str:
    """Where a language's site is inside the built site: '' for the first, 'ja/' for another."""
    return "" if lang == languages[0] else f"{lang}/"


def releasekb(venv: Path, *args: str, cwd: Path) -> None:
    """A command of the installed releasekb, which must succeed."""
    command = [str(venv / "bin" / "releasekb"), *args]
    result = subprocess.run(
        command, cwd=cwd, capture_output=True, text=True, env=command_env(served_at_root=True), timeout=600
    )
    assert result.returncode == 0, f"{command}:\n{result.stdout}\n{result.stderr}"


def add_feature(project: Path, languages: tuple[str, ...]) -> None:
    """The starter's release with one more feature, written in exactly the set's languages."""
    release = project / "releases" / "1.0.yaml"
    text = release.read_text(encoding="utf-8")

    def texts(key: str) -> str:
        # a JSON string is a YAML one (double-quoted)
        written = ", ".join(f"{lang}: {json.dumps(FEATURE[lang][key], ensure_ascii=False)}" for lang in languages)
        return "{" + written + "}"

    entry = (
        f"features:\n  - id: {FEATURE_ID}\n    name: {texts('name')}\n    area: core\n    stability: stable\n"
        f"    title: {texts('title')}\n    summary: {texts('summary')}\n"
    )
    assert text.count("features:\n") == 1
    release.write_text(text.replace("features:\n", entry, 1), encoding="utf-8")


@pytest.fixture(scope="module", params=SETS)
def served(request, chromium, installed_venv, tmp_path_factory) -> Iterator[tuple[tuple[str, ...], Path, str]]:
    """(languages, built site, its URL) of a knowledge base made and built by the installed
    releasekb in those languages. Asks for the browser first: without one it skips before building."""
    languages = request.param
    folder = tmp_path_factory.mktemp("kb-" + "-".join(languages))
    releasekb(installed_venv, "init", "acme", "--product", PRODUCT, "--languages", ",".join(languages), cwd=folder)
    project = folder / "acme"
    add_feature(project, languages)
    releasekb(installed_venv, "build", cwd=project)
    with static_server(project / "site") as base:
        yield languages, project / "site", base


@pytest.fixture
def page(kept_pages, served):
    """A page as a fresh context has it (a kept one, emptied between tests), where every request
    to another host gets an empty answer; fails the test on any script error."""
    errors: list[str] = []
    with kept_pages.lend(served[2], timeout_ms=TIMEOUT_MS) as lease:
        lease.on("pageerror", lambda error: errors.append(str(error)))
        yield lease.page
    assert errors == []


def results(page) -> list[tuple[str, str]]:
    """(path, title) of every result the header search shows, best first."""
    return [
        tuple(result)
        for result in page.locator(".md-search-result__list .md-search-result__item").evaluate_all(
            """items => items.map(item => [new URL(item.querySelector("a").href).pathname,
                                         (item.querySelector("h1") || {textContent: ""}).textContent.trim()])"""
        )
    ]


def result_count(page) -> str:
    return page.locator(".md-search-result__meta").text_content().strip()


def nothing_found(page) -> str:
    """Material's "no result" text in the page's language."""
    config = "JSON.parse(document.getElementById('__config').textContent)"
    return page.evaluate(f"{config}.translations['search.result.none']")


def test_pages_are_in_exactly_the_sets_languages(served):
    languages, site, _ = served
    langs = {
        match[1]
        for path in site.rglob("*.html")
        if (match := re.search(r'<html lang="([^"]+)"', path.read_text(encoding="utf-8")))
    }
    assert langs == set(languages)
    for lang in ("en", "ja", "zh"):
        feature = site / prefix(lang, languages) / "features" / FEATURE_ID / "index.html"
        assert feature.is_file() == (lang in languages), feature


def test_each_language_opens_with_its_titles_and_a_switcher_of_exactly_the_set(served, page):
    languages, _, base = served
    for lang in languages:
        page.goto(f"{base}/{prefix(lang, languages)}features/{FEATURE_ID}/")
        assert page.locator("html").get_attribute("lang") == lang
        # a feature's page is titled with its name; the entry's title and text are on it
        name = FEATURE[lang]["name"]
        assert page.locator("article h1").text_content().removesuffix("¶") == name
        assert page.title() == f"{name} - {SITE_NAMES[lang]}"
        article = page.locator("article").text_content()
        assert FEATURE[lang]["title"] in article and FEATURE[lang]["summary"] in article
        switcher = page.locator(".md-header .md-select a.md-select__link")
        if len(languages) == 1:
            assert switcher.count() == 0  # one language: nothing to switch to
            continue
        assert switcher.evaluate_all("links => links.map(a => a.hreflang)") == list(languages)
        names = [name.strip() for name in switcher.all_text_contents()]
        assert names == [interface_strings(other)["language_name"] for other in languages]
        # each entry leads to this page in its language
        paths = switcher.evaluate_all("links => links.map(a => new URL(a.href).pathname)")
        assert paths == [f"/{prefix(other, languages)}features/{FEATURE_ID}/" for other in languages]


def test_search_finds_the_page_holding_a_word_in_each_language(served, page):
    languages, _, base = served
    for lang in languages:
        page.goto(f"{base}/{prefix(lang, languages)}")
        for word in WORDS[lang]:
            enter_search(page, word)
            found = results(page)
            expected = (f"/{prefix(lang, languages)}features/{FEATURE_ID}/", FEATURE[lang]["name"])
            assert expected in found, (lang, word, found)
            assert all(path.startswith(f"/{prefix(lang, languages)}") for path, _ in found), found
            if lang != languages[0]:
                assert all(path.startswith(f"/{lang}/") for path, _ in found), found


# From each language's home, a word only another language of the set has, and that language.
ELSEWHERE = {
    ("en",): [("en", "心跳", None)],
    ("zh",): [("zh", "heartbeat", None)],
    ("en", "ja", "zh"): [("en", "心跳", "zh"), ("ja", "heartbeat", "en"), ("zh", "監視", "ja"), ("en", "監視", "ja")],
}


def test_a_word_of_another_language_offers_that_languages_results(served, page):
    """Nothing here, and one item leading to the language whose pages have it (the first of the
    others that does), whose home opens with the query's results; none on a one-language site."""
    languages, _, base = served
    for lang, word, there in ELSEWHERE[languages]:
        page.goto(f"{base}/{prefix(lang, languages)}")
        enter_search(page, word)
        assert result_count(page) == nothing_found(page), (lang, word)
        offer = page.locator(".md-search-result__item")
        if there is None:
            assert offer.count() == 0, (lang, word)
            continue
        assert offer.count() == 1, (lang, word)
        title = offer.locator("h1").text_content()
        assert interface_strings(there)["language_name"] in title and re.search(r"\d+", title), title
        count = int(re.search(r"\d+", title)[0])  # the feature's page and its release's
        link = urlsplit(offer.locator("a").first.evaluate("a => a.href"))
        assert link.path == f"/{prefix(there, languages)}" and parse_qs(link.query)["q"] == [word]
        offer.locator("a").first.click()
        page.wait_for_url(re.compile(re.escape(f"{base}/{prefix(there, languages)}") + r"\?"))
        assert page.locator("html").get_attribute("lang") == there
        page.locator(".md-search-result__list .md-search-result__item").first.wait_for()
        found = results(page)
        assert (f"/{prefix(there, languages)}features/{FEATURE_ID}/", FEATURE[there]["name"]) in found
        assert len(found) == count and all(path.startswith(f"/{prefix(there, languages)}") for path, _ in found)
