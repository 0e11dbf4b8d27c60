"""Shared fixtures: the catalogs of the real and the fixture data, and project copies built with
the real MkDocs and Material, one build per language. Plain helpers are in helpers.py.

Sites are built in temporary copies of the project (generated pages are written into the
copy's docs/), through the `releasekb build` command a curator uses.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

from helpers import (
    CHROMIUM,
    CHROMIUM_ARGS,
    FIXTURE_RELEASES,
    REAL_RELEASES,
    ROOT,
    KeptPages,
    browser_unavailable,
    build,
    catalog_of,
    chromium_unavailable_reason,
    copy_project,
    write_tree,
)
from releasekb.kb.catalog import Catalog

# Playwright's `expect(...)` waits 5 s for its state whatever the page's default timeout: a first
# search that loads Pagefind on a busy machine took longer once. A bound on a state that never
# comes, as the browser tests' page timeouts are (a passing test waits only as long as it must).
expect.set_options(timeout=60_000)


@pytest.fixture(scope="session")
def real_catalog() -> Catalog:
    """The catalog of the real releases/ data (built once: tests only read it)."""
    return catalog_of(REAL_RELEASES)


@pytest.fixture(scope="session")
def fixture_catalog() -> Catalog:
    """The catalog of tests/fixtures/releases (built once: tests only read it)."""
    return catalog_of(FIXTURE_RELEASES)


def made_once(tmp_path_factory, name: str, make) -> Path:
    """A folder made once for the whole test session by `make(folder)`, whichever of pytest-xdist's
    processes asks first: a session fixture is per process, and three builds of one site (or
    installations of one environment) cost minutes on two cores. The others wait on a lock in
    the session's shared temporary folder (as pytest-xdist's documentation does it) and use the
    same folder; tests only read it (a test that changes a site changes its own copy)."""
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # the folder every process's temporary folder is in
    folder = shared / f"shared-{name}"
    with open(shared / f"shared-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, or its process ends
        finished = shared / f"shared-{name}.made"
        if not finished.is_file():
            shutil.rmtree(folder, ignore_errors=True)  # what a process that failed left
            folder.mkdir()
            make(folder)
            finished.touch()
    return folder


def built_once(tmp_path_factory, name: str, releases: Path | None = None) -> Path:
    """The site of a copy of this project with `releases`, built once for the session."""
    return made_once(tmp_path_factory, name, lambda project: build(copy_project(project, releases))) / "site"


@pytest.fixture(scope="session")
def real_site(tmp_path_factory) -> Path:
    """The site built from the real releases/ data."""
    return built_once(tmp_path_factory, "real")


@pytest.fixture(scope="session")
def fixture_site(tmp_path_factory) -> Path:
    """The site built from tests/fixtures/releases: a promotion, a removal, a breaking change."""
    return built_once(tmp_path_factory, "fixture", FIXTURE_RELEASES)


@pytest.fixture(scope="session")
def properdocs_venv(tmp_path_factory) -> Path:
    """A fresh environment with the project and ProperDocs, and without MkDocs (test_engines,
    test_curator_walkthrough). Made once a session, for every process."""
    if os.environ.get("CI") != "true":
        pytest.skip("builds with ProperDocs in a fresh virtual environment (about a minute): runs with CI=true")
    return made_once(tmp_path_factory, "properdocs", install_properdocs) / "venv"


def install_properdocs(work: Path) -> None:
    venv = work / "venv"
    pip = venv / "bin" / "pip"
    for command in (
        [sys.executable, "-m", "venv", str(venv)],
        [str(pip), "install", "-q", f"{ROOT}[properdocs]"],
        [str(pip), "uninstall", "-q", "-y", "mkdocs"],  # Material requires it; ProperDocs replaces it
    ):
        result = subprocess.run(command, capture_output=True, text=True)
        assert result.returncode == 0, result.stdout + result.stderr


@pytest.fixture(scope="session")
def installed_venv(tmp_path_factory) -> Path:
    """A fresh environment holding only the wheel built from this repository and what it
    requires: a new team's installation (test_installed, test_new_team, test_language_sets).
    Made once a session, for every process."""
    return made_once(tmp_path_factory, "installed", install_the_wheel) / "venv"


def install_the_wheel(work: Path) -> None:
    wheels = work / "wheels"
    environment = work / "venv"
    source = copy_of_the_sources(work / "source")
    for command in (
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(source)],
        [sys.executable, "-m", "venv", str(environment)],
    ):
        result = subprocess.run(command, cwd=work, capture_output=True, text=True)
        assert result.returncode == 0, f"{command}:\n{result.stdout}\n{result.stderr}"
    (wheel,) = wheels.glob("releasekb-*.whl")
    command = [str(environment / "bin" / "pip"), "install", "-q", str(wheel)]
    result = subprocess.run(command, cwd=work, capture_output=True, text=True)
    assert result.returncode == 0, f"{command}:\n{result.stdout}\n{result.stderr}"


def copy_of_the_sources(target: Path) -> Path:
    """This repository's files as a clone of it holds them (tracked, and new files git does not
    ignore), copied to `target`: a wheel built in the working folder takes what setuptools left
    in its ignored build/ from earlier builds (a starter file since removed, installed by `init`)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode("utf-8")
    for name in filter(None, listed.split("\0")):
        if (ROOT / name).is_file():  # not a file deleted from the working folder but still tracked
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, target / name)
    return target


@pytest.fixture
def properdocs_venv_if_ci(request) -> Path | None:
    """The ProperDocs environment in CI; None elsewhere (the test then uses MkDocs only)."""
    return request.getfixturevalue("properdocs_venv") if os.environ.get("CI") == "true" else None


@pytest.fixture
def checked_project(tmp_path, monkeypatch) -> Path:
    """An empty folder for `releasekb check` to look at, made the current directory. It holds
    `.git`, as a repository's root would: check looks no higher for a pyproject.toml."""
    folder = tmp_path / "project"
    (folder / ".git").mkdir(parents=True)
    monkeypatch.chdir(folder)
    return folder


@pytest.fixture(scope="session")
def chromium():
    """The session's one Chromium, launched through Playwright."""
    reason = chromium_unavailable_reason(CHROMIUM)
    if reason:
        browser_unavailable(reason)
    from playwright.sync_api import sync_playwright

    playwright = sync_playwright().start()
    try:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    except Exception as error:
        playwright.stop()
        browser_unavailable(f"playwright cannot launch {CHROMIUM}: {error}".splitlines()[0])
    try:
        yield browser
    finally:
        browser.close()
        playwright.stop()


@pytest.fixture(scope="session")
def kept_pages(chromium) -> KeptPages:
    """The pages this test process keeps open in the session's Chromium, lent one test at a time."""
    return KeptPages(chromium)


@pytest.fixture
def code(tmp_path, monkeypatch):
    """Write files into a fresh folder that becomes the current directory: code(name=text, ...)."""
    folder = tmp_path / "code"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return lambda **files: write_tree(folder, files)
