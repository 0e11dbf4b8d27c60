"""Small helpers shared by the unit tests."""

from __future__ import annotations

import shutil
from pathlib import Path

from releasekb.cli import main

FIXTURE_RELEASES = Path(__file__).resolve().parent / "fixtures" / "releases"


def fixture_data(tmp_path: Path, edits: dict[str, list[tuple[str, str]]] | None = None) -> Path:
    """A copy of the fixture data with `{file: [(old, new), ...]}` text replacements applied."""
    data = tmp_path / "releases"
    shutil.copytree(FIXTURE_RELEASES, data)
    for name, replacements in (edits or {}).items():
        path = data / name
        text = path.read_text(encoding="utf-8")
        for old, new in replacements:
            assert old in text, f"{old!r} not in {name}"
            text = text.replace(old, new, 1)
        path.write_text(text, encoding="utf-8")
    return data


def line_of(path: Path, needle: str) -> int:
    """1-based line number of the first line containing `needle`."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in {path}")


def run_validate(data: Path, capsys) -> tuple[int, list[str]]:
    """Run `releasekb --data DATA validate`; return the exit code and the stderr lines."""
    code = main(["--data", str(data), "validate"])
    return code, capsys.readouterr().err.splitlines()
