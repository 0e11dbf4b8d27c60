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
