"""`releasekb check --write-baseline FILE` / `--baseline FILE`: today's findings accepted, new
ones reported, and the baseline survives edits that only move code around."""

from __future__ import annotations

import json
import os

import jsonschema

from helpers import run_check, write_tree
from releasekb.kb import check_schema

RANGE = ("--from", "1.4", "--to", "1.7")
CODE = "import torch\n\nspectrum = torch.fft(signal, 1)\nmethod = torch.Tensor.masked_copy_\n"


def report(capsys, *args: str) -> tuple[int, dict]:
    status, out, err = run_check(capsys, ".", *RANGE, "--format", "json", *args)
    assert status in (0, 1), err
    return status, json.loads(out)


def places(document: dict) -> list[tuple[str, int]]:
    return [(finding["api"], finding["line"]) for finding in document["findings"]]


def test_a_baseline_accepts_todays_findings_and_reports_only_new_ones(checked_project, capsys):
    source = checked_project / "src" / "signal.py"
    write_tree(checked_project, {"src/signal.py": CODE})
    status, out, err = run_check(capsys, "src", *RANGE, "--write-baseline", "baseline.json")
    assert status == 0 and "0 deprecated" in out and "2 accepted by the baseline" in out
    assert "Wrote 2 findings to baseline.json" in err
    baseline = json.loads((checked_project / "baseline.json").read_text(encoding="utf-8"))
    assert [(f["path"], f["api"], f["text"], f["occurrence"]) for f in baseline["findings"]] == [
        ("src/signal.py", "torch.Tensor.masked_copy_", "method = torch.Tensor.masked_copy_", 0),
        ("src/signal.py", "torch.fft", "spectrum = torch.fft(signal, 1)", 0),
    ]

    # unrelated edits: lines added above, the uses indented differently
    moved = (
        "import torch\n# a comment\n\nif True:\n"
        "    spectrum = torch.fft(signal, 1)\n    method = torch.Tensor.masked_copy_\n"
    )
    source.write_text(moved, encoding="utf-8")
    status, document = report(capsys, "--baseline", "baseline.json")
    assert status == 0 and places(document) == [] and document["baselined"] == 2

    source.write_text(moved + "again = torch.fft(signal, 2)\n", encoding="utf-8")
    status, document = report(capsys, "--baseline", "baseline.json")
    assert status == 1 and places(document) == [("torch.fft", 7)] and document["baselined"] == 2
    jsonschema.Draft202012Validator(check_schema.schema()).validate(document)


def test_the_same_line_twice_is_two_findings_and_a_third_copy_is_new(checked_project, capsys):
    line = "spectrum = torch.fft(signal, 1)\n"
    write_tree(checked_project, {"a.py": "import torch\n" + line * 2})
    run_check(capsys, ".", *RANGE, "--write-baseline", "baseline.json")
    (checked_project / "a.py").write_text("import torch\n" + line * 3, encoding="utf-8")
    status, document = report(capsys, "--baseline", "baseline.json")
    assert status == 1 and len(document["findings"]) == 1 and document["baselined"] == 2


def test_the_baseline_file_is_sorted_and_stable(checked_project, capsys):
    write_tree(checked_project, {"b.py": CODE, "a.py": CODE + CODE})
    run_check(capsys, ".", *RANGE, "--write-baseline", "one.json")
    run_check(capsys, ".", *RANGE, "--write-baseline", "two.json")
    first = (checked_project / "one.json").read_text(encoding="utf-8")
    assert first == (checked_project / "two.json").read_text(encoding="utf-8")
    records = json.loads(first)["findings"]
    keys = [(r["path"], r["entry"], r["api"], r["text"], r["occurrence"]) for r in records]
    assert keys == sorted(keys) and len(keys) == 6


def test_paths_in_the_baseline_are_relative_to_it_so_any_current_directory_works(checked_project, capsys):
    write_tree(checked_project, {"src/pkg/a.py": CODE})
    run_check(capsys, "src", *RANGE, "--write-baseline", "baseline.json")
    os.chdir(checked_project / "src")
    status, out, _ = run_check(capsys, "pkg", *RANGE, "--baseline", "../baseline.json")
    assert status == 0 and "2 accepted by the baseline" in out


def test_a_missing_or_broken_baseline_is_wrong_usage_saying_what_to_do(checked_project, capsys):
    write_tree(checked_project, {"a.py": CODE, "broken.json": "{\n  nope", "other.json": '{"findings": []}'})
    for file, message in (
        ("absent.json", "absent.json: cannot read the baseline (No such file or directory); write one with"),
        ("broken.json", "broken.json: not a baseline (line 2: Expecting property name enclosed in double quotes)"),
        ("other.json", "other.json: not a releasekb check baseline (version 1); write it again with --write-baseline"),
    ):
        status, out, err = run_check(capsys, ".", *RANGE, "--baseline", file)
        assert status == 2 and out == "" and message in err, err


def test_the_summary_counts_the_accepted_findings_in_chinese(checked_project, capsys):
    write_tree(checked_project, {"a.py": CODE})
    _, _, err = run_check(capsys, ".", *RANGE, "--write-baseline", "baseline.json", "--lang", "zh")
    assert "已将 2 项发现写入 baseline.json" in err
    status, out, _ = run_check(capsys, ".", *RANGE, "--baseline", "baseline.json", "--lang", "zh")
    assert status == 0 and out.splitlines()[-2].endswith("；基线已接受 2 项")  # then the coverage (issue 37)
