"""Both engines build the site strictly, Chinese search segmented: MkDocs 1.6 and ProperDocs.

The ProperDocs build runs in a fresh virtual environment where MkDocs is not installed, and
runs the deploy workflow's own build step, so nothing can quietly depend on MkDocs. It takes
about a minute (mostly installing), so it runs in CI (CI=true) and is skipped elsewhere.
"""

import re
import subprocess
import sys
from pathlib import Path

from helpers import copy_project, run_deploy_build, search_pages
from releasekb.common.cjk import has_han


def chinese_search_words(site: Path) -> set[str]:
    """The Chinese words of the Chinese search index (Pagefind joins them with zero-width spaces)."""
    content = " ".join(page["content"] for page in search_pages(site, "zh").values())
    return {word for word in re.split(r"[\s\u200b]+", content) if has_han(word)}


def assert_chinese_is_segmented(site: Path) -> None:
    words = chinese_search_words(site)
    # words, not whole phrases up to the next punctuation
    assert {"自动", "求导", "分布", "稳定"} <= words
    assert max(len(word) for word in words) <= 8, sorted(words, key=len)[-5:]
    assert len(words) > 500


def generator(site: Path) -> str:
    return re.search(r'<meta name="generator" content="([^"]+)"', (site / "zh" / "index.html").read_text()).group(1)


def test_mkdocs_builds_the_deploy_step_with_chinese_search_segmented(tmp_path):
    project = copy_project(tmp_path / "project")
    result = run_deploy_build(project, Path(sys.prefix))
    assert result.returncode == 0, result.stderr
    assert generator(project / "site").startswith("mkdocs-1.6")
    assert_chinese_is_segmented(project / "site")


def test_properdocs_without_mkdocs_builds_the_deploy_step_with_chinese_search_segmented(tmp_path, properdocs_venv):
    python = properdocs_venv / "bin" / "python"
    assert subprocess.run([str(python), "-c", "import mkdocs"], capture_output=True).returncode == 1
    project = copy_project(tmp_path / "project")
    result = run_deploy_build(project, properdocs_venv)
    assert result.returncode == 0, result.stderr
    assert generator(project / "site").startswith("mkdocs-ProperDocs 1.6")
    assert_chinese_is_segmented(project / "site")


def test_properdocs_build_is_strict(tmp_path, properdocs_venv):
    """A warning fails the build on ProperDocs too: a hand-written page linking to a missing page."""
    project = copy_project(tmp_path / "project")
    about = project / "docs" / "en" / "about.md"
    about.write_text(about.read_text(encoding="utf-8") + "\n[gone](no-such-page.md)\n", encoding="utf-8")
    result = run_deploy_build(project, properdocs_venv)
    assert result.returncode == 1
    assert "no-such-page.md" in result.stderr
    assert not (project / "site").exists()
