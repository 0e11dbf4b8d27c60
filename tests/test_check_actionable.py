"""`releasekb check`, issue 29: findings a team can act on.

- any version: 1.4.0 is 1.4, a version between releases is compared as of the latest release
  before it, one after the last as of the last (the report says where the knowledge base ends),
  one before the first as before anything described; every format names the releases compared;
- severity follows what the run is for: what cannot fail the run (a change already in effect at
  --from, a guarded use) is a note, and with --fail-on what fails the run is an error;
- the requirement the checked project declares on the product, against what its code needs;
- many places of one finding grouped in the text report, every one kept in JSON and SARIF;
- SARIF that code scanning shows right: notebook findings on the notebook file's own lines,
  percent-encoded URIs, the re-run command quoted for a shell.

The code checked is written inline into a fresh current directory, as in tests/test_check.py.
"""

from __future__ import annotations

import json
import shlex
import urllib.parse
from pathlib import Path

import jsonschema
import pytest

from helpers import ACME_KB, FFT_CALL, FFT_MODULE, REAL_KB, SARIF_SCHEMA, run_check

run = run_check  # `releasekb --data KB check ARGS` in this process
OLD_CHANGES = "import torch\n\ntotal = torch.sum(x, dim=0)\nold = torch.Tensor.masked_copy_\n"  # both changed in 0.2


def run_json(capsys, *args: str, kb: Path = REAL_KB) -> tuple[int, dict]:
    status, out, err = run(capsys, *args, "--format", "json", kb=kb)
    assert status in (0, 1), err
    return status, json.loads(out)


def run_sarif(capsys, *args: str, kb: Path = REAL_KB) -> dict:
    """The SARIF log, checked against the official SARIF 2.1.0 schema."""
    status, out, err = run(capsys, *args, "--format", "sarif", kb=kb)
    assert status in (0, 1), err
    log = json.loads(out)
    errors = list(jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))).iter_errors(log))
    assert not errors, errors[0]
    return log


def findings(report: dict) -> list[tuple[str, str, bool]]:
    return [(f["kind"], f["api"], f["in_effect_at_from"]) for f in report["findings"]]


# --------------------------------------------------------------------------- any version


def test_a_version_spelled_otherwise_is_the_release_itself(code, capsys):
    code(**{"spectrum.py": FFT_CALL})
    _, as_1_4 = run_json(capsys, ".", "--from", "1.4", "--to", "1.7")
    status, as_1_4_0 = run_json(capsys, ".", "--from", "1.4.0", "--to", "v1.7")
    assert status == 1 and as_1_4_0 == as_1_4
    assert (as_1_4_0["from"], as_1_4_0["to"], as_1_4_0["compared"]) == ("1.4", "1.7", {"from": "1.4", "to": "1.7"})
    assert run(capsys, ".", "--from", "1.4.0")[1] == run(capsys, ".", "--from", "1.4")[1]


def test_a_version_between_releases_is_compared_as_of_the_latest_release_before_it(code, capsys):
    code(**{"spectrum.py": FFT_CALL, "reduce.py": OLD_CHANGES})
    status, at_1_6 = run_json(capsys, ".", "--from", "1.6", "--to", "1.7")
    _, at_1_5 = run_json(capsys, ".", "--from", "1.5", "--to", "1.7")
    assert status == 1 and findings(at_1_6) == findings(at_1_5)
    assert (at_1_6["from"], at_1_6["compared"]) == ("1.6", {"from": "1.5", "to": "1.7"})
    assert at_1_6["knowledge_base_releases"] == ["0.2", "1.4", "1.5", "1.7"]
    lines = run(capsys, ".", "--from", "1.6", "--to", "1.7")[1].splitlines()
    assert lines[0] == f"releasekb check: PyTorch 1.6 → 1.7 (releases compared: 1.5 → 1.7), knowledge base {REAL_KB}"
    assert lines[1] == (
        "--from 1.6 is not a release this knowledge base describes: compared as of 1.5, the latest release before it"
    )
    zh = run(capsys, ".", "--from", "1.6", "--to", "1.7", "--lang", "zh")[1].splitlines()
    assert zh[0].startswith("releasekb check：PyTorch 1.6 → 1.7（比较的版本：1.5 → 1.7），知识库 ")
    assert zh[1] == "本知识库没有收录 --from 指定的 1.6：按它之前最近的版本 1.5 比较"
    # the summary speaks of the version asked (issue 37: left out unless --show-in-effect)
    assert lines[-2].endswith("; 2 already in effect at 1.6 not shown (--show-in-effect lists them)")


def test_a_version_after_the_last_release_is_compared_up_to_it_and_the_report_says_so(code, capsys):
    code(**{"spectrum.py": FFT_MODULE})
    status, report = run_json(capsys, ".", "--from", "1.4", "--to", "2.1")
    assert status == 0 and report["to"] == "2.1" and report["compared"] == {"from": "1.4", "to": "1.7"}
    assert findings(report) == [("unstable", "torch.fft.fft", False)]
    # the level is known as of the last release described, not as of 2.1
    assert report["findings"][0]["message"]["en"].startswith(
        "`torch.fft.fft` is Beta as of 1.7 (level published in 1.7)"
    )
    ends = (
        "--to 2.1 is after 1.7, the last release this knowledge base describes: compared up to 1.7; "
        "changes after it are not known here"
    )
    assert ends in run(capsys, ".", "--from", "1.4", "--to", "2.1")[1].splitlines()
    zh = "--to 指定的 2.1 晚于本知识库收录的最后一个版本 1.7：只比较到 1.7，之后的变更本知识库没有记录"
    assert zh in run(capsys, ".", "--from", "1.4", "--to", "2.1", "--lang", "zh")[1].splitlines()
    (run_,) = run_sarif(capsys, ".", "--from", "1.4", "--to", "2.1")["runs"]
    assert run_["properties"]["comparedTo"] == "1.7" and run_["properties"]["knowledgeBaseReleases"][-1] == "1.7"
    assert {"level": "note", "message": {"text": ends}} in run_["invocations"][0]["toolExecutionNotifications"]
    github = run(capsys, ".", "--from", "1.4", "--to", "2.1", "--format", "github")[1].splitlines()
    assert f"::notice title=releasekb::{ends}" in github
    assert github[-3] == f"releasekb check: PyTorch 1.4 → 2.1 (releases compared: 1.4 → 1.7), knowledge base {REAL_KB}"
    assert github[-1].startswith("::notice title=releasekb::Coverage of 1.4 → 2.1: ")  # issue 37


def test_a_version_before_the_first_release_is_before_anything_described(code, capsys):
    """Code older than 0.2 meets the 0.2 changes on the way: they are new, and fail the run."""
    code(**{"reduce.py": OLD_CHANGES})
    status, report = run_json(capsys, ".", "--from", "0.1", "--to", "1.7")
    assert status == 1 and report["compared"] == {"from": None, "to": "1.7"}
    assert findings(report) == [
        ("breaking", "torch.sum", False),
        ("deprecated", "torch.Tensor.masked_copy_", False),
    ]
    assert run_json(capsys, ".", "--from", "0.2", "--to", "1.7")[0] == 0  # in effect at 0.2 already
    lines = run(capsys, ".", "--from", "0.1", "--to", "1.7")[1].splitlines()
    assert "(releases compared: before 0.2 → 1.7)" in lines[0]
    assert lines[1] == (
        "--from 0.1 is before 0.2, the first release this knowledge base describes: nothing described here "
        "applies yet at 0.1"
    )
    assert "（比较的版本：0.2 之前 → 1.7）" in run(capsys, ".", "--from", "0.1", "--lang", "zh")[1]


def test_to_before_the_first_release_finds_every_api_described_newer(code, capsys):
    code(**{"spectrum.py": FFT_MODULE})
    status, report = run_json(capsys, ".", "--from", "0.1", "--to", "0.1.5")
    assert status == 0 and report["compared"] == {"from": None, "to": None}
    assert findings(report) == [("newer", "torch.fft.fft", False)]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--from", "latest"), "--from latest: not a version (write it as 1.4 or 1.7.1;"),
        (("--to", "1.7; rm -rf x"), "--to 1.7; rm -rf x: not a version"),
        (("--from", ""), "--from : not a version"),
        (("--from", "2.0", "--to", "1.9"), "--from 2.0 is newer than --to 1.9"),
    ],
)
def test_only_a_version_that_cannot_be_parsed_or_an_upgrade_backwards_is_wrong_usage(code, capsys, args, message):
    code(**{"spectrum.py": FFT_CALL})
    status, out, err = run(capsys, ".", *args)
    assert status == 2 and out == "" and message in err


# --------------------------------------------------------------------------- severity


def levels(log: dict) -> list[tuple[str, str, bool]]:
    return [(r["properties"]["kind"], r["level"], r["properties"]["inEffectAtFrom"]) for r in log["runs"][0]["results"]]


def test_a_change_already_in_effect_at_from_is_a_note_and_never_fails(code, capsys):
    """Issue 29: 315 red annotations on a transformers pull request for a 2017 change."""
    code(**{"reduce.py": OLD_CHANGES})
    # issue 37: left out unless asked for, and then notes
    assert levels(run_sarif(capsys, ".", "--from", "1.4", "--to", "1.7")) == []
    assert levels(run_sarif(capsys, ".", "--from", "1.4", "--to", "1.7", "--show-in-effect")) == [
        ("breaking", "note", True),
        ("deprecated", "note", True),
    ]
    status, out, _ = run(capsys, ".", "--from", "1.4", "--to", "1.7", "--format", "github", "--show-in-effect")
    assert status == 0
    annotations = [line.split(" ", 1)[0] for line in out.splitlines() if line.startswith("::")]
    # the two findings, and the coverage (which says that 1.6, inside the range, is not described)
    assert annotations == ["::notice", "::notice", "::notice"]
    # the same changes on the way from before 0.2 are what the run is for: the default --fail-on
    # fails it on both, so both are errors (issue 37)
    assert levels(run_sarif(capsys, ".", "--from", "0.1", "--to", "1.7")) == [
        ("breaking", "error", False),
        ("deprecated", "error", False),
    ]


def test_a_guarded_use_is_a_note_in_sarif_too(code, capsys):
    code(**{"compat.py": "import torch\n\ntry:\n    s = torch.fft(x, 1)\nexcept AttributeError:\n    s = None\n"})
    assert levels(run_sarif(capsys, ".", "--from", "1.4", "--to", "1.7")) == [("deprecated", "note", False)]


ACME_APP = "import acme\nfrom acme.widget import Widget\n\ndata = acme.old_read('f.txt')\nw = Widget()\n"


@pytest.mark.parametrize(
    ("fail_on", "expected"),
    [
        # by default the run fails on all three: all three are errors (issue 37)
        ((), {("removed", "error"), ("breaking", "error"), ("deprecated", "error")}),
        # --fail-on none: nothing fails the run, so nothing is an error
        (("--fail-on", "none"), {("removed", "warning"), ("breaking", "warning"), ("deprecated", "warning")}),
        # what fails the run is an error, and nothing else is
        (("--fail-on", "deprecated"), {("removed", "warning"), ("breaking", "warning"), ("deprecated", "error")}),
        (("--fail-on", "unstable,removed"), {("removed", "error"), ("breaking", "warning"), ("deprecated", "warning")}),
    ],
)
def test_levels_follow_fail_on(code, capsys, fail_on, expected):
    code(**{"app.py": ACME_APP})
    log = run_sarif(capsys, ".", "--from", "1.0", "--to", "2.0", *fail_on, kb=ACME_KB)
    assert {(kind, level) for kind, level, _ in levels(log)} == expected
    github = run(capsys, ".", "--from", "1.0", "--to", "2.0", "--format", "github", *fail_on, kb=ACME_KB)[1]
    commands = {"error": "::error", "warning": "::warning", "note": "::notice"}
    assert {line.split(" ", 1)[0] for line in github.splitlines() if line.startswith("::") and "file=" in line} == {
        commands[level] for _, level in expected
    }


# --------------------------------------------------------------------------- the declared requirement


PYPROJECT = '[project]\nname = "demo"\ndependencies = [\n  "numpy",\n  "torch>={version}",\n]\n'


def test_a_declared_requirement_below_what_the_code_needs_is_a_finding_at_the_declaration(code, capsys):
    code(**{"pyproject.toml": PYPROJECT.format(version="1.4"), "src/spectrum.py": FFT_MODULE})
    status, report = run_json(capsys, "src", "--from", "1.4", "--to", "1.7")
    assert status == 1 and report["failed"]  # requirement is among the default --fail-on kinds
    assert report["declared"] == [{"requirement": "torch>=1.4", "path": "pyproject.toml", "line": 5}]
    (finding,) = [f for f in report["findings"] if f["kind"] == "requirement"]
    assert (finding["path"], finding["line"], finding["api"], finding["release"]) == (
        "pyproject.toml",
        5,
        "torch.fft.fft",
        "1.7",
    )
    assert finding["message"] == {
        "en": "The declared requirement `torch>=1.4` allows releases before 1.7, which the code needs for "
        "`torch.fft.fft` (used at src/spectrum.py:3:12)",
        "zh": "声明的依赖要求 `torch>=1.4` 允许早于 1.7 的版本，但代码（src/spectrum.py:3:12）用到的 `torch.fft.fft` "
        "需要 1.7 或更高版本",
    }
    assert finding["migration"]["en"].startswith("Require `torch>=1.7`, or keep the code from using `torch.fft.fft`")
    assert finding["url"] == "/releases/1.7/#torch-fft" and report["counts"]["requirement"] == 1
    text = run(capsys, "src", "--from", "1.4", "--to", "1.7")[1]
    assert "\nDeclared requirement too low (1)\n    The declared requirement `torch>=1.4`" in text
    assert "\nDeclared requirement: `torch>=1.4` (pyproject.toml:5)\n" in text
    assert "声明的依赖要求：`torch>=1.4`（pyproject.toml:5）" in run(capsys, "src", "--lang", "zh")[1]
    (run_,) = run_sarif(capsys, "src", "--from", "1.4", "--to", "1.7")["runs"]
    (result,) = [r for r in run_["results"] if r["properties"]["kind"] == "requirement"]
    assert result["ruleId"] == "releasekb/declared-requirement" and result["level"] == "error"
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "pyproject.toml"
    assert result["locations"][0]["physicalLocation"]["region"] == {"startLine": 5}


def test_a_declaration_high_enough_or_a_guarded_use_is_no_finding(code, capsys):
    code(**{"pyproject.toml": PYPROJECT.format(version="1.7"), "spectrum.py": FFT_MODULE})
    status, report = run_json(capsys, ".", "--from", "1.4")
    assert status == 0 and report["counts"]["requirement"] == 0 and report["declared"][0]["requirement"] == "torch>=1.7"
    guarded = "import torch\n\nif hasattr(torch, 'fft'):\n    spectrum = torch.fft.fft(signal)\n"
    code(**{"pyproject.toml": PYPROJECT.format(version="1.4"), "spectrum.py": guarded})
    assert [f["kind"] for f in run_json(capsys, ".", "--from", "1.4")[1]["findings"]] == ["unstable"]


def test_without_a_declaration_the_report_says_none_was_found(code, capsys):
    code(**{"spectrum.py": FFT_MODULE})
    status, report = run_json(capsys, ".", "--from", "1.4")
    assert status == 0 and report["declared"] == [] and "requirement" not in report["counts"]
    assert "No declared requirement on torch found (pyproject.toml, setup.cfg" in run(capsys, ".", "--from", "1.4")[1]


def test_an_unreadable_packaging_file_is_an_unreadable_file_not_a_traceback(code, capsys):
    code(**{"pyproject.toml": '[project]\ndependencies = ["torch>=1.4",,]\n', "spectrum.py": FFT_MODULE})
    status, report = run_json(capsys, ".", "--from", "1.4")
    assert status == 1  # `unreadable` is among the default --fail-on kinds
    (error,) = report["errors"]
    assert (error["path"], error["line"]) == ("pyproject.toml", 2) and error["message"].startswith("is not valid TOML")
    zh = run(capsys, ".", "--from", "1.4", "--lang", "zh")[1]
    assert "  pyproject.toml:2: 不是有效的 TOML（" in zh and "），未检查其中的依赖要求" in zh


def test_an_unpacked_wheel_is_checked_against_its_own_metadata(code, capsys, tmp_path):
    wheel = tmp_path / "wheel"
    (wheel / "vision").mkdir(parents=True)
    (wheel / "vision" / "fft.py").write_text(FFT_MODULE, encoding="utf-8")
    (wheel / "vision-0.8.dist-info").mkdir()
    metadata = "Metadata-Version: 2.1\nName: vision\nRequires-Dist: torch (>=1.5)\n"
    (wheel / "vision-0.8.dist-info" / "METADATA").write_text(metadata, encoding="utf-8")
    code()
    _, report = run_json(capsys, str(wheel), "--from", "1.5", "--to", "1.7")
    assert report["declared"] == [{"requirement": "torch (>=1.5)", "path": "vision-0.8.dist-info/METADATA", "line": 3}]
    assert [f["kind"] for f in report["findings"]] == ["requirement", "unstable"]


# --------------------------------------------------------------------------- many places


def test_text_groups_very_many_places_and_json_and_sarif_keep_them_all(code, capsys):
    # from before 0.2, the keepdim change is new on the way: listed without --show-in-effect
    code(**{"reduce.py": "import torch\n" + "".join(f"a{n} = torch.sum(x{n}, dim=0)\n" for n in range(1244))})
    text = run(capsys, ".", "--from", "0.1")[1]
    places = [line for line in text.splitlines() if line.startswith("      reduce.py:")]
    assert len(places) == 10 and places[0].startswith("      reduce.py:2:")
    assert "\n      … and 1,234 more (--format json lists them all)\n" in text
    assert (
        "\n      ……另有 1,234 处（--format json 会全部列出）\n" in run(capsys, ".", "--from", "0.1", "--lang", "zh")[1]
    )
    assert len(run_json(capsys, ".", "--from", "0.1")[1]["findings"]) == 1244
    assert len(run_sarif(capsys, ".", "--from", "0.1")["runs"][0]["results"]) == 1244


# --------------------------------------------------------------------------- SARIF for code scanning


def test_a_notebook_finding_is_placed_on_the_line_of_the_notebook_file_that_holds_it(code, capsys):
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": ["# FFT\n", "of a signal"]},
        {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": ["import torch\n"]},
        {
            "cell_type": "code",
            "metadata": {},
            "execution_count": None,
            "outputs": [],
            "source": ["signal = load()\n", "\n", "y = torch.fft(signal, 1)"],
        },
    ]
    notebook = json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1)
    code(**{"analysis.ipynb": notebook})
    (result,) = run_sarif(capsys, ".", "--from", "1.4")["runs"][0]["results"]
    location = result["locations"][0]["physicalLocation"]
    file_line = notebook.splitlines()[location["region"]["startLine"] - 1]
    assert file_line.strip() == '"y = torch.fft(signal, 1)"' and location["region"] == {"startLine": 28}
    assert (result["properties"]["cell"], result["properties"]["lineInCell"]) == (3, 3)
    assert result["message"]["text"].endswith("(analysis.ipynb:cell 3:line 3)")
    github = run(capsys, ".", "--from", "1.4", "--format", "github")[1].splitlines()
    assert github[0].startswith("::error file=analysis.ipynb,line=28,title=")  # it fails the run (issue 37)


def test_sarif_uris_are_percent_encoded(code, capsys):
    name = "my notes/数据 #1 100%.py"
    code(**{name: FFT_CALL})
    (run_,) = run_sarif(capsys, ".", "--from", "1.4")["runs"]
    uri = run_["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == "my%20notes/%E6%95%B0%E6%8D%AE%20%231%20100%25.py"
    assert urllib.parse.unquote(uri) == name


def test_the_rerun_command_in_sarif_is_quoted_for_a_shell(code, capsys):
    code(**{"my project/it's $HOME.py": FFT_CALL})
    (run_,) = run_sarif(capsys, "my project", "--from", "1.4", "--to", "1.7")["runs"]
    help_text = run_["tool"]["driver"]["rules"][0]["help"]["text"]
    command = "releasekb check 'my project' --from 1.4 --to 1.7"
    assert f"Check again after the change: `{command}`." in help_text
    assert shlex.split(command)[2] == "my project"
