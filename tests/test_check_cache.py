"""The cache of `releasekb check`: a second run over an unchanged tree parses nothing.

Work is counted, never timed: the scanner's parse function is wrapped to count its calls (the
tree stays below scan.PARALLEL_THRESHOLD, so it runs in this process), and `--stats` says how
many files went to the scanner when a process pool does the work.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from helpers import REAL_RELEASES, real_data, run_check, write_tree
from releasekb.check import scan
from releasekb.check.scan import decoding

RANGE = ("--from", "1.4", "--to", "1.7", "--show-in-effect")  # the 0.2 changes too (issue 37)
USES = "import torch\n\nspectrum = torch.fft(signal, 1)\n"
TREE = {
    "src/a.py": USES,
    "src/b.py": "import torch\nmethod = torch.Tensor.masked_copy_\n",
    "src/c.py": "print('no product here')\n",  # never parsed: it does not mention torch
    "src/d.ipynb": json.dumps({"cells": [{"cell_type": "code", "source": USES}], "metadata": {}}),
    # how a call passes its arguments is part of what is cached: only the first call is reported
    "src/e.py": "import torch\ntotal = torch.sum(x, dim=1)\nkept = torch.sum(x, 1, keepdim=True)\n",
}
PARSED = ["a.py", "b.py", "d.ipynb", "e.py"]


@pytest.fixture
def parses(monkeypatch) -> list[str]:
    """The files (notebook cells) the scanner parses, in order."""
    parsed: list[str] = []
    original = decoding.parse

    def counting(text, rel):
        parsed.append(rel)
        return original(text, rel)

    monkeypatch.setattr(decoding, "parse", counting)
    return parsed


def checked(capsys, *args: str, data=REAL_RELEASES) -> dict:
    status, out, err = run_check(capsys, "src", *RANGE, "--format", "json", *args, kb=data)
    assert status in (0, 1), err
    return json.loads(out)


def test_a_second_run_over_an_unchanged_tree_parses_nothing(checked_project, capsys, parses):
    write_tree(checked_project, TREE)
    first = checked(capsys)
    assert sorted(parses) == PARSED
    parses.clear()
    second = checked(capsys)
    assert parses == [] and second == first and len(first["findings"]) == 4
    assert [f["line"] for f in second["findings"] if f["api"] == "torch.sum"] == [2]
    assert (checked_project / ".releasekb-cache" / ".gitignore").read_text(encoding="utf-8").endswith("*\n")
    _, _, err = run_check(capsys, "src", *RANGE, "--stats")
    assert "Scanned 0 files, took 5 from the cache" in err


def test_only_a_changed_file_is_parsed_again(checked_project, capsys, parses):
    write_tree(checked_project, TREE)
    checked(capsys)
    parses.clear()
    (checked_project / "src" / "b.py").write_text("import torch\n\n\nmethod = torch.Tensor.masked_copy_\n")
    report = checked(capsys)
    assert parses == ["b.py"]
    assert [(f["path"], f["line"]) for f in report["findings"] if f["api"] == "torch.Tensor.masked_copy_"] == [
        ("src/b.py", 4)
    ]


def test_a_knowledge_base_with_other_apis_parses_again_and_new_wording_needs_no_parse(
    checked_project, tmp_path, capsys, parses
):
    write_tree(checked_project, TREE)
    checked(capsys)
    parses.clear()
    reworded = real_data(
        tmp_path / "reworded", {"0.2.yaml": [("Replace calls to `masked_copy_`", "Change `masked_copy_`")]}
    )
    report = checked(capsys, data=reworded)
    assert parses == []  # what the scanner looks for is the same: the findings are worked out afresh
    assert any(f["migration"] and f["migration"]["en"].startswith("Change `masked_copy_`") for f in report["findings"])
    more_apis = real_data(
        tmp_path / "more",
        {"0.2.yaml": [("{name: torch.Tensor.masked_copy_,", "torch.nothing, {name: torch.Tensor.masked_copy_,")]},
    )
    checked(capsys, data=more_apis)
    assert sorted(parses) == PARSED


def test_another_confidence_parses_again(checked_project, capsys, parses):
    write_tree(checked_project, TREE)
    checked(capsys)
    parses.clear()
    checked(capsys, "--confidence", "low")
    assert sorted(parses) == PARSED
    parses.clear()
    checked(capsys, "--confidence", "low")
    assert parses == []


def test_a_damaged_cache_is_ignored_and_only_damaged_entries_are_scanned_again(checked_project, capsys, parses):
    write_tree(checked_project, TREE)
    cache = checked_project / ".releasekb-cache" / "scan.json"
    expected = checked(capsys)
    cache.write_text("{ not json", encoding="utf-8")
    parses.clear()
    assert checked(capsys) == expected and len(parses) == 4
    document = json.loads(cache.read_text(encoding="utf-8"))  # written anew, whole
    entries = document["entries"]
    for key, entry in entries.items():
        if entry["file"].endswith("a.py"):
            entry["outcome"] = {"class": "Path", "fields": {"args": "/etc"}}  # not one of the scanner's classes
        elif entry["file"].endswith("b.py"):
            entry["outcome"]["tuple"][1] = [1, 2]  # not uses
        elif entry["file"].endswith("d.ipynb"):
            entries[key] = "garbage"
    cache.write_text(json.dumps(document), encoding="utf-8")
    parses.clear()
    assert checked(capsys) == expected and sorted(parses) == ["a.py", "b.py", "d.ipynb"]  # e.py: its entry is intact
    parses.clear()
    checked(capsys)
    assert parses == []


def test_a_tree_scanned_by_a_process_pool_is_cached_too(checked_project, capsys):
    files = {f"src/m{number}.py": USES for number in range(scan.PARALLEL_THRESHOLD + 10)}
    write_tree(checked_project, files)
    count = len(files)
    _, out, err = run_check(capsys, "src", *RANGE, "--stats")
    assert f"Scanned {count} files, took 0 from the cache" in err and f"{count} deprecated" in out
    _, out, err = run_check(capsys, "src", *RANGE, "--stats", "--lang", "zh")
    assert f"扫描了 0 个文件，{count} 个取自缓存" in err and f"已弃用 {count} 项" in out


def test_no_cache_and_another_cache_folder(checked_project, tmp_path, capsys):
    write_tree(checked_project, TREE)
    _, _, err = run_check(capsys, "src", *RANGE, "--no-cache", "--stats")
    assert "Scanned 5 files (no cache)" in err and not (checked_project / ".releasekb-cache").exists()
    elsewhere = tmp_path / "cache"
    run_check(capsys, "src", *RANGE, "--cache-dir", str(elsewhere))
    _, _, err = run_check(capsys, "src", *RANGE, "--cache-dir", str(elsewhere), "--stats")
    assert "took 5 from the cache" in err and (elsewhere / "scan.json").is_file()
    assert not (checked_project / ".releasekb-cache").exists()


def test_a_cache_that_cannot_be_written_is_a_warning_not_a_failure(checked_project, capsys):
    write_tree(checked_project, {**TREE, "a-file": ""})
    status, out, err = run_check(capsys, "src", *RANGE, "--cache-dir", "a-file/cache")
    # the old function twice; masked_copy_ and torch.sum are in effect at 1.4, not counted (issue 37)
    assert status == 1 and "0 breaking, 2 deprecated" in out and "; 2 already in effect at 1.4, listed apart" in out
    assert "releasekb check: the cache was not written (" in err and "the next run scans again" in err


def test_the_cache_holds_across_processes_whatever_their_hash_seed(checked_project):
    """Each process orders sets by its own random hash seed: what the cache compares must not
    depend on it, or every run would scan everything again."""
    write_tree(checked_project, TREE)
    command = [sys.executable, "-m", "releasekb.cli", "--data", str(REAL_RELEASES), "check", "src", *RANGE, "--stats"]
    command += ["--confidence", "low"]  # method names join the words of a pattern, some of one length
    runs = [
        subprocess.run(
            command, env={**os.environ, "PYTHONHASHSEED": seed}, capture_output=True, text=True, timeout=300
        ).stderr
        for seed in ("1", "2", "3")
    ]
    assert "Scanned 5 files, took 0 from the cache" in runs[0]
    assert all("Scanned 0 files, took 5 from the cache" in run for run in runs[1:]), runs


def test_a_change_to_any_module_of_the_scanner_changes_its_digest(tmp_path):
    """The scanner is a package: a change to any of its modules, not only to its __init__.py,
    must invalidate the cache."""
    import shutil
    from pathlib import Path

    from releasekb.check import cache

    copy = tmp_path / "scan"
    shutil.copytree(Path(scan.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert cache.scanner_digest(copy) == cache.scanner_digest()
    digests = {cache.scanner_digest(copy)}
    for name in ("__init__.py", "analyzer.py", "walk.py"):
        with (copy / name).open("a", encoding="utf-8") as module:
            module.write("# changed\n")
        digests.add(cache.scanner_digest(copy))
    assert len(digests) == 4
