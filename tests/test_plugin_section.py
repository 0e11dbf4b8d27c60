"""The plugin in a team's existing one-language Material site (tests/fixtures/material-site):
`plugins: [releasekb: {data: releases, path: release-notes}]` adds the knowledge base's pages under
release-notes/, in the site's language, and leaves every file and setting of the site its own."""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import FIXTURE_RELEASES, FIXTURES, command_env, page_html
from releasekb.common.i18n import known_languages

SITE_FIXTURE = FIXTURES / "material-site"


def mkdocs_build(project: Path) -> subprocess.CompletedProcess:
    """The real `mkdocs build` (no releasekb command), as the site's team runs it."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build"], cwd=project, capture_output=True, text=True, env=command_env()
    )


def digests(folder: Path) -> dict[str, str]:
    return {
        path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def copy_team_site(folder: Path) -> Path:
    project = folder / "handbook"
    shutil.copytree(SITE_FIXTURE, project)
    shutil.copytree(FIXTURE_RELEASES, project / "releases")
    return project


@pytest.fixture
def team_site(tmp_path) -> Path:
    """A copy of the team's site for one test, which may change it."""
    return copy_team_site(tmp_path)


@pytest.fixture(scope="module")
def built_team_site(tmp_path_factory) -> tuple[Path, dict[str, str], subprocess.CompletedProcess]:
    """The team's site built once for the tests that only read it: its files before the build,
    and the build's result."""
    project = copy_team_site(tmp_path_factory.mktemp("built-team-site"))
    before = digests(project)
    return project, before, mkdocs_build(project)


def test_the_sites_own_files_are_untouched_and_nothing_is_written_into_its_docs(built_team_site):
    project, before, result = built_team_site
    assert result.returncode == 0, result.stderr
    after = {path: digest for path, digest in digests(project).items() if not path.startswith("site/")}
    assert after == before


def test_the_release_pages_are_under_the_prefix_in_the_sites_language(built_team_site):
    project, _, result = built_team_site
    assert result.returncode == 0, result.stderr
    site = project / "site"
    for address in (
        "release-notes",
        "release-notes/releases/1.1",
        "release-notes/features/widgets",
        "release-notes/stability/stable",
        "release-notes/changelog",
        "release-notes/features",
    ):
        assert (site / address / "index.html").is_file(), address
    release = page_html(site, "release-notes/releases/1.1")
    assert "Acme 1.1" in release
    assert not (site / "zh").exists()  # one language: the site's
    assert not (site / "releases").exists() and not (site / "features").exists()  # only under the prefix


def test_the_sites_name_navigation_and_pages_stay_its_own(built_team_site):
    project, _, result = built_team_site
    assert result.returncode == 0, result.stderr
    site = project / "site"
    home = page_html(site, "")
    assert "<title>Acme team handbook</title>" in home
    assert "releasekb.css" not in home  # the site's own pages load nothing of ours
    release = page_html(site, "release-notes/releases/1.1")
    assert re.search(r"<title>[^<]*- Acme team handbook</title>", release)
    # the section's pages load the plugin's stylesheet and script, from the section's folder
    assert 'href="../../assets/releasekb.css"' in release and 'src="../../assets/releasekb.js"' in release
    assert (site / "release-notes" / "assets" / "releasekb.css").is_file()
    # the site's navigation: its own entries, and the section's index where the team listed it
    nav = [href for href in re.findall(r'<a href="([^"#]+)" class="md-nav__link', release)]
    assert nav == ["../../..", "../../../guide/", "../../"]
    # the theme is the site's (its palette), not the knowledge base's
    assert 'data-md-color-primary="indigo"' in release


def test_links_from_the_sites_pages_to_release_pages_resolve(built_team_site):
    project, _, result = built_team_site
    assert result.returncode == 0, result.stderr
    guide = page_html(project / "site", "guide")
    assert 'href="../release-notes/features/widgets/"' in guide


def test_the_machine_readable_outputs_are_inside_the_section(built_team_site):
    project, _, result = built_team_site
    assert result.returncode == 0, result.stderr
    section = project / "site" / "release-notes"
    assert (section / "badges" / "widgets.svg").is_file() and (section / "objects.inv").is_file()
    # the feed and the "link to this page" box point into the section, where the pages are
    assert '<link href="/release-notes/releases/1.1/"' in (section / "feed.xml").read_text(encoding="utf-8")
    assert 'data-path="/release-notes/features/widgets/"' in page_html(
        project / "site", "release-notes/features/widgets"
    )
    # the JSON API describes a bilingual site's addresses: a one-language section has no such pages
    assert not (section / "api").exists()


def test_a_page_of_the_site_at_a_path_the_plugin_needs_is_an_error_naming_both(team_site):
    own = team_site / "docs" / "release-notes" / "features" / "index.md"
    own.parent.mkdir(parents=True)
    own.write_text("# Our own features page\n", encoding="utf-8")
    result = mkdocs_build(team_site)
    assert result.returncode != 0
    assert "docs/release-notes/features/index.md" in result.stderr
    assert "release-notes/features/index.md" in result.stderr and "releasekb" in result.stderr
    assert own.read_text(encoding="utf-8") == "# Our own features page\n"


def test_an_unknown_option_is_an_error(team_site):
    config = team_site / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8").replace("path: release-notes", "pth: release-notes"))
    result = mkdocs_build(team_site)
    assert result.returncode != 0
    assert "pth" in result.stderr


def test_a_chinese_site_gets_the_section_in_chinese_at_the_same_addresses(team_site):
    config = team_site / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8").replace("language: en", "language: zh"), encoding="utf-8")
    result = mkdocs_build(team_site)
    assert result.returncode == 0, result.stderr
    feature = page_html(team_site / "site", "release-notes/features/widgets")
    assert "小部件" in feature and "<h1" in feature
    # the section has no language prefix: its addresses are the same in either language
    assert 'data-path="/release-notes/features/widgets/"' in feature
    assert not (team_site / "site" / "release-notes" / "feed.xml").exists()  # it would name /zh/ addresses


def test_an_unsupported_language_is_an_error_naming_the_supported_ones(team_site):
    config = team_site / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8").replace("language: en", "language: de"), encoding="utf-8")
    result = mkdocs_build(team_site)
    assert result.returncode != 0
    supported = ", ".join(known_languages())  # the package's catalogues: en, ja, zh
    assert "theme.language 'de'" in result.stderr and f"(one of {supported})" in result.stderr
