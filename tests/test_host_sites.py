"""The plugin as a section of a host site of any shape (issue 35, item 3): a page of the host at an
address of the section is an error naming both files, whatever its source path; the section's
pages keep the host's navigation, footer and breadcrumbs; and with the host's own theme overrides
(a `toc-item.html` without `<li>`, a `main.html` of its own, as Uvicorn's documentation has) every
view of the section works in Chromium, with no console error and no page error.

The host is tests/fixtures/material-site (test_plugin_section.py), copied with the Acme releases.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers import FIXTURE_RELEASES, FIXTURES, command_env, copy_project, page_html, static_server

TIMEOUT_MS = 15_000

# A table of contents entry without <li>: the link in a <div>, its children after it.
TOC_ITEM_WITHOUT_LI = """<div class="md-nav__item host-toc-item">
  <a href="{{ toc_item.url }}" class="md-nav__link">{{ toc_item.title }}</a>
  {%- for toc_item in toc_item.children %}{% include "partials/toc-item.html" %}{% endfor %}
</div>
"""
# The host's own main.html: Material's base with a block of its own and an announcement.
HOST_MAIN = """{% extends "base.html" %}
{% block announce %}<span class="host-announce">Acme handbook: our own announcement</span>{% endblock %}
{% block extrahead %}{{ super() }}<meta name="host-main" content="yes">{% endblock %}
{% block content %}<div class="host-before-content"></div>{{ super() }}{% endblock %}
"""
HOST_FEATURES = """theme:
  name: material
  language: en
  custom_dir: overrides
  features:
    - navigation.path
    - navigation.footer
  palette:
"""
HOST_NAV_SECTION = "  - Our products:\n    - Release notes: release-notes/index.md"

# Every view of the section, as an address inside the site.
VIEWS = {
    "home": "release-notes/",
    "releases": "release-notes/releases/",
    "release": "release-notes/releases/1.1/",
    "feature": "release-notes/features/widgets/",
    "features": "release-notes/features/",
    "features filtered": "release-notes/features/?stability=stable&sort=-first",
    "stability": "release-notes/stability/",
    "level": "release-notes/stability/stable/",
    "changelog": "release-notes/changelog/",
    "upgrade": "release-notes/changelog/upgrade/?from=1.1&to=2.0",
}


def mkdocs_build(project: Path) -> subprocess.CompletedProcess:
    """The real `mkdocs build`, as the host's team runs it (a hang is a failure, not a wait)."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build"],
        cwd=project,
        capture_output=True,
        text=True,
        env=command_env(),
        timeout=300,
    )


def host_site(folder: Path, *, overrides: bool = True) -> Path:
    """The Material host site with the Acme releases and, with overrides, the host's own
    `toc-item.html` and `main.html`, breadcrumbs and footer navigation."""
    shutil.copytree(FIXTURES / "material-site", folder)
    shutil.copytree(FIXTURE_RELEASES, folder / "releases")
    if overrides:
        partials = folder / "overrides" / "partials"
        partials.mkdir(parents=True)
        (partials / "toc-item.html").write_text(TOC_ITEM_WITHOUT_LI, encoding="utf-8")
        (folder / "overrides" / "main.html").write_text(HOST_MAIN, encoding="utf-8")
        config = folder / "mkdocs.yml"
        text = config.read_text(encoding="utf-8")
        text = text.replace("theme:\n  name: material\n  language: en\n  palette:\n", HOST_FEATURES)
        assert "custom_dir: overrides" in text
        # the section's index inside a section of the host's navigation
        text = text.replace("  - Release notes: release-notes/index.md", HOST_NAV_SECTION)
        assert HOST_NAV_SECTION in text
        config.write_text(text, encoding="utf-8")
    return folder


# --------------------------------------------------------------------------- a page at an address of ours


@pytest.mark.parametrize(
    ("theirs", "ours"),
    [
        ("release-notes.md", "release-notes/index.md"),  # served at /release-notes/, as the section's index
        ("release-notes/releases.md", "release-notes/releases/index.md"),
        ("release-notes/features/widgets/index.md", "release-notes/features/widgets.md"),
        ("release-notes/stability/stable/index.md", "release-notes/stability/stable.md"),
        ("release-notes/changelog/upgrade/index.md", "release-notes/changelog/upgrade.md"),
        ("release-notes/features/filter-text.json", "release-notes/features/filter-text.json"),
        ("release-notes/assets/releasekb.js", "release-notes/assets/releasekb.js"),
        ("release-notes/feed.xml", "release-notes/feed.xml"),  # an output, written after the pages
        ("release-notes/badges/widgets.svg", "release-notes/badges/widgets.svg"),
    ],
)
def test_a_hosts_page_at_an_address_of_the_section_is_an_error_naming_both(tmp_path, theirs, ours):
    project = host_site(tmp_path / "handbook", overrides=False)
    own = project / "docs" / theirs
    own.parent.mkdir(parents=True, exist_ok=True)
    own.write_text("# Our own page\n", encoding="utf-8")
    result = mkdocs_build(project)
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"releasekb: {own} is the site's own file, served at " in result.stderr
    assert f"where releasekb writes its {ours} (move or rename it" in result.stderr
    assert "Traceback" not in result.stderr
    assert own.read_text(encoding="utf-8") == "# Our own page\n"


def test_a_hand_written_page_at_an_address_of_a_whole_site_is_an_error_naming_both(tmp_path):
    project = copy_project(tmp_path / "kb", FIXTURE_RELEASES)
    own = project / "docs" / "en" / "releases.md"  # served at releases/, as the generated index
    own.write_text("# Our releases\n", encoding="utf-8")
    result = mkdocs_build(project)
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"releasekb: {own} is the site's own file, served at releases/index.html" in result.stderr
    assert "where releasekb writes its releases/index.md" in result.stderr


# --------------------------------------------------------------------------- the host's frame


@pytest.fixture(scope="module")
def built_host(tmp_path_factory) -> Path:
    """The host site with its overrides, built: its site folder."""
    project = host_site(tmp_path_factory.mktemp("host") / "handbook")
    result = mkdocs_build(project)
    assert result.returncode == 0, result.stdout + result.stderr
    return project / "site"


def test_the_sections_pages_keep_the_hosts_navigation_footer_and_breadcrumbs(built_host):
    release = page_html(built_host, "release-notes/releases/1.1")
    # the host's own main.html and toc-item.html render the section's pages
    assert '<meta name="host-main" content="yes">' in release and "host-announce" in release
    assert "host-toc-item" in release
    # the host's navigation entries, its footer, and the breadcrumbs to the section's index
    assert re.search(r'<a href="\.\./\.\./\.\./guide/" class="md-nav__link', release)
    assert 'class="md-footer"' in release and "md-footer-meta" in release
    # the breadcrumbs: the host's home, its section, the section's index where the host listed it
    breadcrumbs = release.split('class="md-path"', 1)[1].split("</nav>", 1)[0]
    links = re.findall(
        r'<a href="([^"]*)" class="md-path__link">\s*<span class="md-ellipsis">\s*([^<]*?)\s*<', breadcrumbs
    )
    assert links == [("../../..", "Acme team handbook"), ("../../", "Our products"), ("../../", "Release notes")]


# --------------------------------------------------------------------------- every view in Chromium


@pytest.fixture(scope="module")
def host_url(chromium, built_host) -> Iterator[str]:
    with static_server(built_host) as url:
        yield url


@pytest.fixture
def host_page(chromium, host_url):
    """A page in a fresh context, every request to another host answered empty, and what went
    wrong on it: (page, problems)."""
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(TIMEOUT_MS)
    local = re.compile("^" + re.escape(host_url) + "/")
    context.route(lambda url: not local.match(url), lambda route: route.fulfill(status=204, body=""))
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.on("console", lambda message: message.type == "error" and problems.append(f"console: {message.text}"))
    try:
        yield page, problems
    finally:
        context.close()


@pytest.mark.parametrize("view", list(VIEWS))
def test_every_view_works_with_the_hosts_overrides(host_url, host_page, view):
    page, problems = host_page
    page.goto(f"{host_url}/{VIEWS[view]}")
    page.wait_for_load_state("load")
    assert page.locator(".host-announce").count() == 1  # the host's main.html
    assert page.locator("article h1").count() == 1
    assert problems == []


def test_the_upgrade_view_shows_the_chosen_range_with_a_toc_without_list_items(host_url, host_page):
    page, problems = host_page
    page.goto(f"{host_url}/{VIEWS['upgrade']}")
    page.wait_for_load_state("load")
    assert problems == []
    sections = page.locator(".rkb-upgrade-release")
    shown = [
        sections.nth(i).get_attribute("data-version") for i in range(sections.count()) if sections.nth(i).is_visible()
    ]
    assert shown == ["2.0"]
    summary = page.locator("#rkb-upgrade output[name=summary]").inner_text()
    assert "1.1" in summary and "2.0" in summary
    # the table of contents (the host's, without <li>) lists only the release shown
    heading = sections.nth(0).locator("h2").get_attribute("id")
    assert page.locator(f'.md-nav--secondary a[href="#{heading}"]').is_hidden()
