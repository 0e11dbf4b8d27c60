"""Shared fixtures: project copies built with the real MkDocs and Material, one build per language.

Sites are built in temporary copies of the project (generated pages are written into the
copy's docs/), through the `releasekb build` command a curator uses.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def copy_project(target: Path, releases: Path | None = None) -> Path:
    """A copy of the project's site sources (config, hand-written docs, hook, data)."""
    target.mkdir(parents=True, exist_ok=True)
    for config in ROOT.glob("mkdocs*.yml"):  # mkdocs.yml and mkdocs.<lang>.yml
        shutil.copy(config, target / config.name)
    shutil.copytree(ROOT / "scripts", target / "scripts", ignore=shutil.ignore_patterns("__pycache__"))
    docs = target / "docs"
    docs.mkdir()
    for shared in ("assets", "overrides"):
        shutil.copytree(ROOT / "docs" / shared, docs / shared)
    for lang_dir in (ROOT / "docs").iterdir():
        if lang_dir.name not in ("assets", "overrides") and lang_dir.is_dir():
            (docs / lang_dir.name).mkdir()
            for page in lang_dir.glob("*.md"):
                if page.name != "index.md":  # index.md is generated
                    shutil.copy(page, docs / lang_dir.name / page.name)
    shutil.copytree(releases or ROOT / "releases", target / "releases")
    return target


def run_releasekb(project: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "releasekb.cli", *args],
        cwd=project,
        capture_output=True,
        text=True,
        env={**__import__("os").environ, "NO_MKDOCS_2_WARNING": "1"},
    )


def build(project: Path) -> Path:
    result = run_releasekb(project, "build")
    assert result.returncode == 0, result.stdout + result.stderr
    return project / "site"


@pytest.fixture(scope="session")
def real_site(tmp_path_factory) -> Path:
    """The site built from the real releases/ data."""
    return build(copy_project(tmp_path_factory.mktemp("real")))


@pytest.fixture(scope="session")
def fixture_site(tmp_path_factory) -> Path:
    """The site built from tests/fixtures/releases: a promotion, a removal, a breaking change."""
    return build(copy_project(tmp_path_factory.mktemp("fixture"), FIXTURES / "releases"))
