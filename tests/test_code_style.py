"""The house style: ruff's lint rules and formatting (settings in pyproject.toml)."""

import subprocess
import sys

from helpers import ROOT


def ruff(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args, "scripts", "tests"], cwd=ROOT, capture_output=True, text=True
    )


def test_code_passes_ruff_lint():
    result = ruff("check")
    assert result.returncode == 0, result.stdout


def test_code_is_ruff_formatted():
    result = ruff("format", "--check")
    assert result.returncode == 0, result.stdout


def test_templates_comment_with_the_environments_markers():
    """The page environment's comments are `{## ... ##}` (render.py), so a Jinja-style
    `{# ... #}` is no comment there: it was printed as text on the upgrade page of a
    one-release site."""
    from releasekb.site.render import TEMPLATES_DIR

    stray = [
        f"{path.name}:{number}"
        for path in sorted(TEMPLATES_DIR.rglob("*.j2"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "{#" in line.replace("{##", "")
    ]
    assert stray == []
