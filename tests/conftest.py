"""Shared fixtures: project copies built with the real MkDocs and Material, one build per language.

Sites are built in temporary copies of the project (generated pages are written into the
copy's docs/), through the `releasekb build` command a curator uses.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

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


def deploy_build_step() -> str:
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "deploy.yml").read_text(encoding="utf-8"))
    (step,) = [step for step in workflow["jobs"]["build"]["steps"] if step.get("name") == "Build"]
    return step["run"]


def run_deploy_build(project: Path, venv: Path) -> subprocess.CompletedProcess:
    """The workflow's build step, run in `project` with `venv` as its .venv."""
    (project / ".venv").symlink_to(venv)
    env = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"} | {"NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(["bash", "-c", deploy_build_step()], cwd=project, capture_output=True, text=True, env=env)


@pytest.fixture(scope="session")
def real_site(tmp_path_factory) -> Path:
    """The site built from the real releases/ data."""
    return build(copy_project(tmp_path_factory.mktemp("real")))


@pytest.fixture(scope="session")
def fixture_site(tmp_path_factory) -> Path:
    """The site built from tests/fixtures/releases: a promotion, a removal, a breaking change."""
    return build(copy_project(tmp_path_factory.mktemp("fixture"), FIXTURES / "releases"))


@pytest.fixture(scope="session")
def properdocs_venv(tmp_path_factory) -> Path:
    """A fresh environment with the project and ProperDocs, and without MkDocs."""
    if os.environ.get("CI") != "true":
        pytest.skip("builds with ProperDocs in a fresh virtual environment (about a minute): runs with CI=true")
    venv = tmp_path_factory.mktemp("properdocs") / "venv"
    pip = venv / "bin" / "pip"
    for command in (
        [sys.executable, "-m", "venv", str(venv)],
        [str(pip), "install", "-q", f"{ROOT}[properdocs]"],
        [str(pip), "uninstall", "-q", "-y", "mkdocs"],  # Material requires it; ProperDocs replaces it
    ):
        result = subprocess.run(command, capture_output=True, text=True)
        assert result.returncode == 0, result.stdout + result.stderr
    return venv


@pytest.fixture
def properdocs_venv_if_ci(request) -> Path | None:
    """The ProperDocs environment in CI; None elsewhere (the test then uses MkDocs only)."""
    return request.getfixturevalue("properdocs_venv") if os.environ.get("CI") == "true" else None
