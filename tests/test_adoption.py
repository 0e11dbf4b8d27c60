"""What a new team meets first, each a silent gap once: a missing stylesheet, a missing site
address, a site under a sub-path, pages read by an engine without the plugin, and the README's
reference of project.yaml."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from helpers import FIXTURE_RELEASES, ROOT, command_env, copy_project, page_html, run_releasekb, static_server
from releasekb.kb.schema import project_reference
from releasekb.site.build import SITE_URL_MISSING


@pytest.fixture
def project(tmp_path) -> Path:
    return copy_project(tmp_path / "project", FIXTURE_RELEASES)


def test_a_stylesheet_the_configuration_names_must_be_in_the_site(project):
    config = project / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8") + "\nextra_css:\n  - assets/brand.css\n", encoding="utf-8")
    result = run_releasekb(project, "build")
    assert result.returncode == 1
    assert "'assets/brand.css' is not a file of the site" in result.stderr
    assert not (project / "site").exists()  # nothing half-built
    (project / "docs" / "en" / "assets").mkdir()
    (project / "docs" / "en" / "assets" / "brand.css").write_text("body {}\n", encoding="utf-8")
    (project / "docs" / "zh" / "assets").mkdir()
    (project / "docs" / "zh" / "assets" / "brand.css").write_text("body {}\n", encoding="utf-8")
    assert run_releasekb(project, "build").returncode == 0


def test_a_build_without_a_site_address_warns_once_and_with_one_says_nothing(project):
    env = {key: value for key, value in command_env().items() if key != "RELEASEKB_SITE_URL"}
    without = run_releasekb(project, "build", env=env)
    assert without.returncode == 0, without.stderr
    assert without.stderr.count(SITE_URL_MISSING) == 1
    with_address = run_releasekb(project, "build", env={**env, "RELEASEKB_SITE_URL": "https://example.org/kb/"})
    assert with_address.returncode == 0, with_address.stderr
    assert "no site address" not in with_address.stderr


@pytest.fixture
def sub_path_host(project, tmp_path) -> Path:
    """The site built for https://example.org/kb/ and laid out as a host serves it: under kb/,
    with the site's 404.html answering every missing address (GitHub Pages' project sites)."""
    result = run_releasekb(project, "build", env={**command_env(), "RELEASEKB_SITE_URL": "https://example.org/kb/"})
    assert result.returncode == 0, result.stderr
    host = tmp_path / "host"
    host.mkdir()
    shutil.copytree(project / "site", host / "kb")
    shutil.copy(project / "site" / "404.html", host / "404.html")
    return host


def test_the_404_pages_language_switch_stays_under_the_sub_path(sub_path_host):
    not_found = (sub_path_host / "kb" / "404.html").read_text(encoding="utf-8")
    switch = dict((lang, href) for href, lang in re.findall(r'<a href="([^"]+)" hreflang="([a-z]+)"', not_found))
    assert switch == {"en": "/kb/", "zh": "/kb/zh/"}


@pytest.mark.browser
def test_no_page_requests_a_sitemap_beside_itself(chromium, sub_path_host):
    """Material fetches sitemap.xml beside every `<link rel=alternate>` of a page's head: only the
    language roots' sitemaps exist."""
    requested = []
    with static_server(sub_path_host) as base:
        context = chromium.new_context()
        try:
            page = context.new_page()
            page.on("request", lambda request: requested.append(urlsplit(request.url).path))
            for address in ("/kb/releases/1.1/", "/kb/zh/features/widgets/", "/kb/zh/no-such-page/"):
                page.goto(base + address, wait_until="networkidle")
            links = page.eval_on_selector_all(".md-select__link[hreflang]", "links => links.map(a => a.href)")
        finally:
            context.close()
    sitemaps = {path for path in requested if path.endswith("sitemap.xml")}
    assert sitemaps <= {"/kb/sitemap.xml", "/kb/zh/sitemap.xml"}, sitemaps
    assert links and all(urlsplit(link).path.startswith("/kb/") for link in links), links


def test_pages_read_without_the_plugin_have_the_same_titles_headings_and_contents(fixture_site, tmp_path):
    """An engine that reads mkdocs.yml but runs no plugin (Zensical, plain MkDocs) builds the
    pages `releasekb export` writes: front matter and Markdown headings."""
    project = fixture_site.parent
    exported = tmp_path / "exported"
    shutil.copytree(project, exported, ignore=shutil.ignore_patterns("site", ".*"))
    assert not (exported / "docs" / "en" / "releases").exists()  # a build writes nothing into docs/
    result = run_releasekb(exported, "export")
    assert result.returncode == 0, result.stderr
    assert (exported / "docs" / "zh" / "features" / "widgets.md").is_file()
    plain = tmp_path / "plain"
    shutil.copytree(exported / "docs", plain / "docs")
    config = (project / "mkdocs.yml").read_text(encoding="utf-8")
    config = config.replace("  - releasekb:\n      data: releases\n", "").replace("site_dir: site", "site_dir: built")
    assert "releasekb" not in config.split("plugins:", 1)[1].split("markdown_extensions", 1)[0]
    (plain / "mkdocs.yml").write_text(config, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--no-strict"],
        cwd=plain,
        capture_output=True,
        text=True,
        env=command_env(),
    )
    assert result.returncode == 0, result.stderr
    for address in ("releases/1.1", "features/widgets", "stability/stable", "changelog"):
        ours, theirs = page_html(fixture_site, address), page_html(plain / "built", address)
        assert _title(ours) == _title(theirs), address
        assert _headings(ours) == _headings(theirs), address
        assert _contents(ours) == _contents(theirs), address
        assert len(_headings(ours)) >= 2


def _title(page: str) -> str:
    return re.search(r"<title>(.*?)</title>", page, re.S)[1].rsplit(" - ", 1)[0]


def _headings(page: str) -> list[tuple[str, str]]:
    article = page.split("<article", 1)[1]
    return re.findall(r'<h([1-6]) id="([^"]+)"', article)


def _contents(page: str) -> list[str]:
    """The anchors of the table of contents beside the page."""
    toc = page.split("md-nav--secondary", 1)[1].split("</nav>", 1)[0]
    return re.findall(r'href="#([^"]+)"', toc)


def test_the_readme_reference_of_project_yaml_is_the_models():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("<!-- project.yaml reference -->\n", 1)[1].split("\n\n", 1)[0] + "\n"
    assert block == project_reference()
    assert "`code.roots`" in block and "`stability.labels.<key>.rank`" in block
