"""Installed, not cloned: a new team's path from `pip install` to its own site.

The wheel is built from this repository, installed (not editable) into a fresh virtual
environment in a temporary folder, and run there: `releasekb init` for a product, its example
release replaced by the fixture's releases (Acme), `releasekb build`. Nothing may come from this
repository's folders: the test checks where the package is imported from, and that every file a
page loads is in the site. Then the site is read in Chromium: the package's palette applies,
search answers, the features filter works, and no page names PyTorch.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from helpers import FIXTURE_RELEASES, ROOT, command_env, static_server

PRODUCT = "Acme"


def run(command: list[str], cwd: Path) -> subprocess.CompletedProcess:
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=command_env())
    assert result.returncode == 0, f"{command}:\n{result.stdout}\n{result.stderr}"
    return result


@pytest.fixture(scope="module")
def venv(installed_venv) -> Path:
    """A fresh environment holding only the wheel and what it requires (conftest's, shared)."""
    return installed_venv


@pytest.fixture(scope="module")
def knowledge_base(venv, tmp_path_factory) -> Path:
    """`releasekb init` in a new folder, then the fixture's releases instead of the example."""
    folder = tmp_path_factory.mktemp("team") / "acme-kb"
    run(
        [str(venv / "bin" / "releasekb"), "init", str(folder), "--product", PRODUCT, "--languages", "en,zh"],
        folder.parent,
    )
    for example in (folder / "releases").glob("*.yaml"):
        example.unlink()
    for release in FIXTURE_RELEASES.glob("*.yaml"):
        shutil.copy(release, folder / "releases" / release.name)
    return folder


@pytest.fixture(scope="module")
def installed_site(venv, knowledge_base) -> Path:
    run([str(venv / "bin" / "releasekb"), "validate", "--strict"], knowledge_base)
    run([str(venv / "bin" / "releasekb"), "build"], knowledge_base)
    return knowledge_base / "site"


def test_the_package_runs_from_the_environment_not_from_this_repository(venv, knowledge_base):
    result = run([str(venv / "bin" / "python"), "-c", "import releasekb; print(releasekb.__file__)"], knowledge_base)
    location = Path(result.stdout.strip())
    assert location.is_relative_to(venv), location
    assert not location.is_relative_to(ROOT)
    # the wheel's own dependencies: bench's baseline is an extra
    listed = run([str(venv / "bin" / "pip"), "list", "--format=freeze"], knowledge_base).stdout
    assert "jieba" not in listed.lower()


def test_init_wrote_a_complete_knowledge_base_and_copied_no_theme(venv, tmp_path):
    folder = tmp_path / "new-kb"
    run(
        [str(venv / "bin" / "releasekb"), "init", str(folder), "--product", "Zephyr Cache", "--languages", "en,zh"],
        tmp_path,
    )
    files = sorted(path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file())
    assert files == [
        ".github/workflows/deploy.yml",
        ".github/workflows/notes.yml",
        ".gitignore",
        ".pre-commit-config.yaml",
        "docs/en/about.md",
        "docs/zh/about.md",
        "mkdocs.yml",
        "releases/1.0.yaml",
        "releases/project.schema.json",
        "releases/project.yaml",
        "releases/release.schema.json",
        "requirements.txt",
    ]
    assert "Zephyr Cache" in (folder / "releases" / "project.yaml").read_text(encoding="utf-8")
    # the examples are named as such, and validate --strict fails until they are replaced
    strict = subprocess.run(
        [str(venv / "bin" / "releasekb"), "validate", "--strict"], cwd=folder, capture_output=True, text=True
    )
    assert strict.returncode == 1
    assert strict.stderr.count("an example entry from `releasekb init`") == 3
    # and it builds at once, in both languages, with the product's names
    run([str(venv / "bin" / "releasekb"), "build"], folder)
    assert "<title>Zephyr Cache release notes</title>" in (folder / "site" / "index.html").read_text("utf-8")
    assert "<title>Zephyr Cache 版本说明</title>" in (folder / "site" / "zh" / "index.html").read_text("utf-8")


def test_init_refuses_to_overwrite_and_names_each_file(venv, knowledge_base):
    about = knowledge_base / "docs" / "en" / "about.md"
    before = about.read_text(encoding="utf-8")
    result = subprocess.run(
        [str(venv / "bin" / "releasekb"), "init", str(knowledge_base), "--product", "Other"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1
    assert str(about) in result.stderr and str(knowledge_base / "mkdocs.yml") in result.stderr
    assert about.read_text(encoding="utf-8") == before


def test_no_page_names_pytorch(installed_site):
    pages = list(installed_site.rglob("*.html"))
    assert len(pages) > 20
    for page in pages:
        assert "PyTorch" not in page.read_text(encoding="utf-8"), page


def test_every_local_stylesheet_and_script_a_page_loads_is_in_the_site(installed_site):
    for page in (installed_site / "index.html", installed_site / "zh" / "features" / "index.html"):
        text = page.read_text(encoding="utf-8")
        links = re.findall(r'<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"', text)
        links += re.findall(r'<script[^>]+src="([^"]+)"', text)
        local = [link for link in links if "://" not in link]
        assert any("releasekb.css" in link for link in local) and any("releasekb.js" in link for link in local)
        for link in local:
            assert (page.parent / link.split("?")[0]).resolve().is_file(), (page, link)


@pytest.fixture
def browser_page(chromium, installed_site):
    with static_server(installed_site) as base:
        context = chromium.new_context(viewport={"width": 1280, "height": 800})
        context.set_default_timeout(15_000)
        try:
            yield context.new_page(), base
        finally:
            context.close()


@pytest.mark.browser
def test_the_palette_applies(browser_page):
    page, base = browser_page
    page.goto(f"{base}/")
    header = page.evaluate("getComputedStyle(document.querySelector('.md-header')).backgroundColor")
    assert header == "rgb(191, 54, 12)"  # the package's primary colour, #bf360c


@pytest.mark.browser
@pytest.mark.parametrize(("prefix", "query"), [("", "widget"), ("/zh", "小部件")])
def test_search_answers(browser_page, prefix, query):
    page, base = browser_page
    page.goto(f"{base}{prefix}/")
    box = page.locator(".md-search__input")
    box.click()
    box.fill(query)
    box.press("End")
    results = page.locator(".md-search-result__item > a")
    results.first.wait_for()
    hrefs = [results.nth(index).get_attribute("href") for index in range(min(results.count(), 5))]
    assert any("/features/widgets/" in href for href in hrefs), hrefs


@pytest.mark.browser
def test_the_features_filter_works(browser_page):
    page, base = browser_page
    page.goto(f"{base}/features/")
    rows = page.locator("#rkb-features tbody tr")
    every = rows.count()
    page.select_option("#rkb-filter select[name=stability]", "stable")
    page.wait_for_function(
        "every => document.querySelectorAll('#rkb-features tbody tr:not([hidden])').length < every", arg=every
    )
    shown = page.locator("#rkb-features tbody tr:not([hidden])")
    assert shown.count() >= 1
    for index in range(shown.count()):
        assert "stable" in shown.nth(index).get_attribute("data-stability")
    assert "stability=stable" in page.url
