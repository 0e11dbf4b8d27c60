"""The browser tests' kept pages (helpers.KeptPages): a page lent to a test is as a fresh
context gives it, whatever the test before it did to it."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers import static_server

pytestmark = pytest.mark.browser

PAGE = "<!doctype html><title>kept</title><p>a page of the site</p>"


@pytest.fixture(scope="module")
def base(chromium, tmp_path_factory) -> Iterator[str]:
    site = tmp_path_factory.mktemp("kept-site")
    (site / "index.html").write_text(PAGE, encoding="utf-8")
    (site / "other.html").write_text(PAGE, encoding="utf-8")
    with static_server(Path(site)) as url:
        yield url


def test_a_lent_page_keeps_nothing_of_the_test_before(kept_pages, base):
    heard = []
    with kept_pages.lend(base, {"width": 800, "height": 600}) as lease:
        first = lease.page
        lease.on("request", lambda request: heard.append(request.url))
        first.route("**/other.html", lambda route: route.fulfill(status=200, body="routed"))
        first.goto(base + "/")
        first.evaluate("""() => {
            localStorage.setItem('left', '1'); sessionStorage.setItem('left', '1');
            document.cookie = 'left=1; path=/'; window.leftBehind = true;
        }""")
        first.set_viewport_size({"width": 500, "height": 500})
        first.emulate_media(media="print")
        popup = first.context.new_page()  # a page the test opened itself
        assert first.goto(base + "/other.html").text() == "routed"
    heard_during_the_test = len(heard)

    with kept_pages.lend(base, {"width": 800, "height": 600}) as lease:
        page = lease.page
        assert page is first  # the same page, lent again: that is the point of keeping it
        assert popup.is_closed()
        assert page.url == "about:blank"
        assert page.goto(base + "/other.html").text() == PAGE  # the route went
        state = page.evaluate("""() => [localStorage.getItem('left'), sessionStorage.getItem('left'),
                                        document.cookie, window.leftBehind === undefined,
                                        window.innerWidth, matchMedia('print').matches]""")
        assert state == [None, None, "", True, 800, False]
        assert len(heard) == heard_during_the_test  # the test's listener went with it


def test_a_second_page_of_the_same_kind_in_one_test_is_a_page_of_its_own(kept_pages, base):
    with kept_pages.lend(base) as one, kept_pages.lend(base) as two:
        assert one.page is not two.page
        one.page.goto(base + "/")
        two.page.goto(base + "/other.html")
        assert one.page.url == base + "/"
    assert two.page.is_closed() and not one.page.is_closed()


def test_requests_to_other_hosts_are_answered_empty_and_recorded_for_the_test(kept_pages, base):
    with kept_pages.lend(base) as lease:
        lease.page.goto(base + "/")
        status = lease.page.evaluate("() => fetch('http://example.invalid/x.js').then(r => r.status)")
        assert status == 204
        assert lease.third_party == ["http://example.invalid/x.js"]
    with kept_pages.lend(base) as lease:
        assert lease.third_party == []


def test_no_more_pages_are_kept_than_the_limit_and_none_lent_is_closed(kept_pages, base):
    kinds = [{"width": 600 + step, "height": 600} for step in range(kept_pages.KEPT + 1)]
    with contextlib.ExitStack() as leases:
        held = [leases.enter_context(kept_pages.lend(base, viewport)) for viewport in kinds]
        with kept_pages.lend(base, {"width": 500, "height": 500}):
            pass  # its return makes the pages kept more than the limit
        assert not any(lease.page.is_closed() for lease in held)
    assert len(kept_pages.kept) <= kept_pages.KEPT
