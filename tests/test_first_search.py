"""A reader's first search: the search's code and index start loading on the intent to search
(the pointer over the search box), before the box is clicked or a key typed, and a page view that
never comes near the search downloads none of it. Requests are counted, never timed."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page

from helpers import static_server

pytestmark = pytest.mark.browser

TIMEOUT_MS = 60_000  # a bound on a state that never comes, on a busy machine


def is_search_code(path: str) -> bool:
    """The worker, Pagefind's code and WebAssembly, and the index's pieces."""
    return "/pagefind/" in path or path.endswith("/releasekb-search.js")


@contextlib.contextmanager
def opened(chromium, site: Path, path: str) -> Iterator[tuple[Page, list[str]]]:
    """`path` of the site in a fresh browser (nothing cached), and the paths it requests, in order."""
    with static_server(site) as base:
        context = chromium.new_context(viewport={"width": 1280, "height": 800})
        context.set_default_timeout(TIMEOUT_MS)
        try:
            page = context.new_page()
            requested: list[str] = []
            page.on("request", lambda request: requested.append(urlsplit(request.url).path))
            page.goto(base + path)
            yield page, requested
        finally:
            context.close()


def test_the_search_starts_loading_when_the_pointer_is_over_the_box(chromium, real_site: Path):
    with opened(chromium, real_site, "/zh/releases/1.7/") as (page, requested):
        page.wait_for_load_state("networkidle")
        # a page view that never comes near the search: none of the search's code
        assert not [path for path in requested if is_search_code(path)], requested

        box = page.locator(".md-search__input")
        # the pointer over the box starts the worker, Pagefind and the index's table of
        # contents (its pf_meta) loading: nothing clicked, nothing typed
        with page.expect_request(lambda request: request.url.endswith(".pf_meta")):
            box.hover()
        assert not box.evaluate("box => box === document.activeElement || box.value !== ''")
        loaded = [path for path in requested if is_search_code(path)]
        (worker,) = [path for path in loaded if path.endswith("/assets/releasekb-search.js")]
        assert "/zh/pagefind/pagefind.js" in loaded, loaded
        assert all(path.startswith("/zh/pagefind/") for path in loaded if "/pagefind/" in path), loaded

        # then the click and the query use what is loaded: nothing loads twice
        box.click()
        page.keyboard.type("rpc")
        page.locator(".md-search-result__link").first.wait_for(state="visible")
        for path in ("/zh/pagefind/pagefind.js", worker):
            assert requested.count(path) == 1, (path, requested)
        assert [path for path in requested if path.endswith(".pf_fragment")]  # the results' pages


def type_finding_nothing(page: Page, keys: str) -> None:
    """Type `keys` into the header search one at a time, each after the answer to the one before
    (as a slow machine shows them), each answer finding nothing. Material writes its line under
    the box once per answer, even when its words stay the same ("No matching documents" for "d"
    and for "di"): each write is counted."""
    page.evaluate("""() => {
        window.answers = 0;
        new MutationObserver(() => window.answers++).observe(
            document.querySelector('.md-search-result__meta'),
            {childList: true, characterData: true, subtree: true});
    }""")
    for count, typed in enumerate(keys, start=1):
        page.keyboard.type(typed)
        page.wait_for_function("count => window.answers >= count", arg=count)
        assert page.locator(".md-search-result__item").count() == 0, typed


def test_the_first_keys_of_a_word_never_fetch_the_other_languages_search(chromium, real_site: Path):
    """ "d" and "di", on the way to "distributed", find nothing here (shorter than a word may be
    to find the words it starts): that is a word being typed, not one to look for in Chinese. Each
    key's answer is waited for, as a slow machine shows it, before the next key."""
    with opened(chromium, real_site, "/") as (page, requested):
        page.locator(".md-search__input").click()
        type_finding_nothing(page, "di")
        assert not [path for path in requested if path.startswith("/zh/")], requested
        page.keyboard.type("stributed")
        page.locator(".md-search-result__link").first.wait_for(state="visible")
        assert "/" in page.locator(".md-search-result__link").first.get_attribute("href")
        assert not [path for path in requested if path.startswith("/zh/")], requested


# Pagefind's own code under a module that notes in the worker each search it is asked for, then
# asks the real one (the real file, fetched with ?real): a spy, not a stand-in. (The worker's
# console was read first: a message written before Playwright listened to the worker was lost.)
SPIED_PAGEFIND = """
import * as real from "./pagefind.js?real";
export * from "./pagefind.js?real";
self.rkbSearched = [];
export function search(term, options) {
  self.rkbSearched.push(term);
  return real.search(term, options);
}
"""


def test_the_first_keys_of_a_word_are_looked_up_as_words_not_as_starts(chromium, real_site: Path):
    """ "d" and "di" are shorter than a word whose start finds the words it starts (PREFIX_LENGTH),
    so they find a page only where they are words of their own: the worker asks Pagefind for each
    as an exact word, which reads one chunk of the index. Asked as the start of words, each matched
    most of the index to find nothing (200 to 400 ms at 80x60), and the next keys' query waited.
    The whole word is then searched as the start of words, and finds its pages."""
    with opened(chromium, real_site, "/") as (page, requested):

        def spy(route):
            if urlsplit(route.request.url).query == "real":
                route.continue_()
            else:
                route.fulfill(body=SPIED_PAGEFIND, content_type="text/javascript")

        page.context.route("**/pagefind/pagefind.js*", spy)
        page.locator(".md-search__input").click()
        type_finding_nothing(page, "di")
        page.keyboard.type("stributed")
        page.locator(".md-search-result__link").first.wait_for(state="visible")
        (worker,) = [worker for worker in page.workers if worker.url.split("#")[0].endswith("/releasekb-search.js")]
        terms = worker.evaluate("self.rkbSearched")
    # Each short word searched is searched as a word of its own, never as the start of every word
    # it starts. One of the two may go unsearched: the worker answers only the newest query, and
    # Material's line under the box is written once more as the search starts.
    assert not {"d", "di"} & set(terms), terms
    assert {'"d"', '"di"'} & set(terms), terms
    assert "distributed" in terms, terms


def test_the_worker_loads_pagefind_before_any_message_reaches_it(chromium, real_site: Path):
    """A page hands a new worker its first message only when the page's main thread is free, and a
    reader typing keeps it busy: the worker's address in the page's settings names its bundle,
    and the worker, given no message at all, loads Pagefind and the index's table of contents."""
    with opened(chromium, real_site, "/zh/releases/1.7/") as (page, requested):
        address = page.evaluate(
            "() => new URL(JSON.parse(document.getElementById('__config').textContent).search, document.baseURI).href"
        )
        assert urlsplit(address).path == "/zh/assets/releasekb-search.js"
        assert urlsplit(address).fragment == "bundle=../pagefind/"
        # a document without the page's scripts (they hand Material's worker its messages)
        page.goto(address.split("/zh/")[0] + "/zh/search/search_index.json")
        with page.expect_request(lambda request: request.url.endswith(".pf_meta")):
            page.evaluate("address => { window.started = new Worker(address); }", address)
        loaded = [path for path in requested if "/pagefind/" in path]
        assert "/zh/pagefind/pagefind.js" in loaded and "/zh/pagefind/pagefind-entry.json" in loaded, loaded
        assert all(path.startswith("/zh/pagefind/") for path in loaded), loaded
