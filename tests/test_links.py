"""No broken internal link: every href/src (and the URL of a redirect page's refresh) of every
page of the built site, in both languages, leads to a file of the site, and every #anchor to an
element of the page it names. The checker is shown to catch one injected broken link or anchor.
"""

from __future__ import annotations

import shutil
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest

LINK_ATTRIBUTES = {"href", "src"}


class _PageParser(HTMLParser):
    """The links (href, src, meta refresh URL) and the anchor targets (id, name) of one page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.anchors: set[str] = set()

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        for name, value in attrs:
            if name in LINK_ATTRIBUTES and value is not None:
                self.links.append(value)
            elif name in ("id", "name") and value:
                self.anchors.add(value)
        if tag == "meta" and (values.get("http-equiv") or "").lower() == "refresh":
            _, _, url = (values.get("content") or "").partition("url=")
            if url:
                self.links.append(url.strip())


def _parse(path: Path) -> _PageParser:
    parser = _PageParser()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def page_url(site: Path, path: Path) -> str:
    """The address a host serves `path` at: folder/index.html is served as folder/."""
    relative = path.relative_to(site).as_posix()
    return "/" + (relative.removesuffix("index.html") if relative.endswith("index.html") else relative)


def target_file(site: Path, url_path: str) -> Path | None:
    """The file a static host answers `url_path` with, or None."""
    candidate = site / unquote(url_path).lstrip("/")
    if url_path.endswith("/") or candidate.is_dir():
        candidate = candidate / "index.html"
    return candidate if candidate.is_file() else None


def broken_links(site: Path) -> list[str]:
    """`page: link (why)` for every internal link of the site that does not resolve."""
    anchors: dict[Path, set[str]] = {}
    problems = []
    for page in sorted(site.rglob("*.html")):
        parsed = _parse(page)
        anchors[page] = parsed.anchors
        base = page_url(site, page)
        for link in parsed.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc:
                continue  # another site (or a data:, mailto: URL): not ours to check
            url = urlsplit(urljoin(base, link))
            target = page if not parts.path and not parts.query else target_file(site, url.path)
            if target is None:
                problems.append(f"{page.relative_to(site)}: {link} (no such file: {url.path})")
                continue
            fragment = unquote(url.fragment)
            if fragment and target.suffix == ".html":
                if target not in anchors:
                    anchors[target] = _parse(target).anchors
                if fragment not in anchors[target]:
                    problems.append(f"{page.relative_to(site)}: {link} (no id '{fragment}' in {url.path})")
    return problems


def test_built_site_has_no_broken_internal_link(real_site):
    pages = list(real_site.rglob("*.html"))
    assert any(p.is_relative_to(real_site / "zh") for p in pages), "the Chinese site was built"
    redirects = [p for p in pages if 'http-equiv="refresh"' in p.read_text(encoding="utf-8")]
    assert redirects, "redirect pages are among the checked pages"
    assert broken_links(real_site) == []


@pytest.mark.parametrize(
    ("link", "why"),
    [
        ("../no-such-release/", "no such file: /zh/releases/no-such-release/"),
        ("../1.7/#no-such-feature", "no id 'no-such-feature' in /zh/releases/1.7/"),
    ],
    ids=["page", "anchor"],
)
def test_checker_reports_exactly_one_injected_broken_link(real_site, tmp_path, link, why):
    site = tmp_path / "site"
    shutil.copytree(real_site, site)
    page = site / "zh" / "releases" / "1.7" / "index.html"
    html = page.read_text(encoding="utf-8")
    page.write_text(html.replace("</article>", f'<a href="{link}">broken</a></article>', 1), encoding="utf-8")
    assert broken_links(site) == [f"zh/releases/1.7/index.html: {link} ({why})"]
