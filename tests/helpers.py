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


# What a curator writes over the placeholders of `releasekb new` (fixture project: Acme).
SKELETON_FILLED = [
    ("date: TODO", "date: 2021-06-01"),
    ('en: "TODO: a short headline", zh: "TODO：一句话标题"', 'en: "Faster readers", zh: "读取器更快了"'),
    ('en: "TODO: what this release brought, in two to four sentences of your own."', 'en: "Readers got faster."'),
    ('zh: "TODO：用两到四句话概括这个版本带来了什么。"', 'zh: "读取器变得更快。"'),
    ("url: TODO", 'url: "https://example.org/acme/2.1"'),
    ("id: TODO", "id: fast-reader"),
    ("stability: TODO", "stability: beta"),
    ('en: "TODO: feature title", zh: "TODO：特性标题"', 'en: "A faster reader", zh: "更快的读取器"'),
    (
        'en: "TODO: what it does and why it matters.", zh: "TODO：它做什么、为什么重要。"',
        'en: "Reads large files twice as fast.", zh: "读取大文件的速度提高到两倍。"',
    ),
]


def fill_skeleton(path: Path) -> None:
    """Replace every placeholder of a fresh skeleton, as a curator would."""
    text = path.read_text(encoding="utf-8")
    for old, new in SKELETON_FILLED:
        assert old in text, f"{old!r} not in the skeleton"
        text = text.replace(old, new, 1)
    path.write_text(text, encoding="utf-8")
