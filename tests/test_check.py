"""`releasekb check`: the knowledge base applied to a codebase.

The code checked is written inline into tmp_path, so each test shows what it is about. The real
knowledge base (releases/) is used where it reads clearest (`torch.fft`); a small made-up one
(tests/fixtures/check/releases, product "acme") has what the real data lacks: an API that is
deprecated, then removed, a breaking change, a promotion by an entry that names no API and an API
added later. The official SARIF 2.1.0 schema (sarif-2.1.0-rtm.5.json) is vendored from the npm
package @microsoft/jest-sarif 1.0.0-beta.0 (MIT), which ships it for the same purpose.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

from helpers import ACME_KB, FFT_CALL, FFT_MODULE, LANGUAGES, REAL_KB, ROOT, SARIF_SCHEMA, data_copy, line_of, run_check
from releasekb.check import analysis, formats, messages
from releasekb.check import report as check_report
from releasekb.check import run as check_run
from releasekb.check.index import ApiIndex, open_index
from releasekb.check.options import resolve_options
from releasekb.check.records import CallCondition
from releasekb.cli import main
from releasekb.common import safe_text
from releasekb.common.i18n import interface_strings
from releasekb.common.locales import placeholders
from releasekb.kb import api, api_index, check_schema
from releasekb.kb.pipeline import load_catalog
from releasekb.site.contract import contract_addresses
from releasekb.site.outputs import json_api

run = run_check  # `releasekb --data KB check ARGS` in this process


def run_json(capsys, *args: str, kb: Path = REAL_KB) -> tuple[int, dict]:
    status, out, err = run(capsys, *args, "--format", "json", kb=kb)
    assert status in (0, 1), err
    return status, json.loads(out)


def kinds(report: dict) -> list[tuple[str, str]]:
    return [(finding["kind"], finding["api"]) for finding in report["findings"]]


# --------------------------------------------------------------------------- the API index


def test_index_records_what_the_real_data_says_about_each_api(real_catalog):
    records = {(r["name"], r["use"]): r for r in api_index.index_document(real_catalog, "")["apis"]}
    call, module = records[("torch.fft", "call")], records[("torch.fft", "module")]
    assert call["introduced_in"] is None and call["deprecated_in"] == ["1.7"]
    assert call["replacement"] == "torch.fft.fft" and call["entries"][0]["id"] == "torch-fft-function"
    assert module["introduced_in"] == "1.7" and module["deprecated_in"] == [] and module["feature"] == "torch-fft"
    fft = records[("torch.fft.fft", "any")]
    assert (fft["introduced_in"], fft["feature"], fft["levels"]) == ("1.7", "torch-fft", {"1.7": "beta"})
    assert fft["language"] == "python" and records[("torch::class_", "any")]["language"] == "cpp"
    init = records[("torch.distributed.init_process_group", "any")]
    assert init["introduced_in"] is None and init["feature"] is None and init["levels"] == {}
    assert {e["id"] for e in init["entries"]} == {"nccl-async-error-handling", "windows-distributed-training"}
    masked = records[("torch.Tensor.masked_copy_", "any")]
    assert masked["deprecated_in"] == ["0.2"] and masked["replacement"] == "torch.Tensor.masked_scatter_"
    entry = masked["entries"][0]
    assert entry["urls"] == {"en": "/releases/0.2/#masked-copy-renamed", "zh": "/zh/releases/0.2/#masked-copy-renamed"}
    assert entry["feature_urls"]["zh"] == "/zh/features/masked-copy-renamed/"
    assert entry["migration"]["zh"] and entry["level"] is None and entry["is_change"]


def test_levels_are_the_whole_lifecycle_of_the_introducing_feature():
    """distributed-rpc brought torch.distributed.rpc at experimental; 1.5 made the feature stable
    without listing the API again."""
    records = {(r["name"], r["use"]): r for r in api_index.index_document(load_catalog(REAL_KB), "")["apis"]}
    assert records[("torch.distributed.rpc", "any")]["levels"] == {"1.4": "experimental", "1.5": "stable"}


def test_published_index_follows_the_api_schema_and_is_in_the_contract(real_catalog):
    files = json_api.api_files(real_catalog, "https://kb.example.org/")
    document = json.loads(files[api_index.INDEX_PATH])
    schema = api.schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(document))
    assert not errors, errors[0].message
    first = document["releases"][0]
    assert (first["version"], first["date"]) == ("0.2", real_catalog.releases[0].date)
    # issue 37: the changes no scan can find, so that check can say how many its range holds
    assert [change["id"] for change in first["changes_without_apis"]] == [
        entry.id for entry in real_catalog.releases[0].entries if entry.is_change and not entry.api_refs
    ]
    assert [level["key"] for level in document["levels"]] == list(real_catalog.levels)
    assert document["code_roots"]["python"] == ["torch", "torchvision", "torchaudio"]
    assert document["apis"][0]["entries"][0]["urls"]["en"].startswith("https://kb.example.org/releases/")
    # releases.json keeps its full records: the index's short ones are not accepted there
    short = {**json.loads(files["api/releases.json"]), "releases": document["releases"]}
    assert not jsonschema.Draft202012Validator(schema).is_valid(short)
    assert json.loads(files[check_schema.SCHEMA_PATH]) == check_schema.schema()
    assert {"/api/apis.json", "/api/schema/check-v1.json"} <= set(contract_addresses(real_catalog))


# --------------------------------------------------------------------------- findings on the real data


def test_calling_torch_fft_is_one_deprecation_new_between_1_4_and_1_7(code, capsys):
    code(**{"spectrum.py": FFT_CALL})
    status, report = run_json(capsys, ".", "--from", "1.4", "--to", "1.7")
    assert status == 1 and report["failed"]
    (finding,) = report["findings"]
    assert (finding["kind"], finding["api"], finding["use"], finding["entry"]) == (
        "deprecated",
        "torch.fft",
        "call",
        "torch-fft-function",
    )
    assert finding["in_effect_at_from"] is False and finding["release"] == "1.7"
    # The module's fft is not a drop-in for the old function (other arguments, complex tensors):
    # the finding names it as the replacement without presenting it as a swap.
    assert (finding["replacement"], finding["replacement_drop_in"]) == ("torch.fft.fft", False)
    assert (finding["path"], finding["line"], finding["column"], finding["cell"]) == ("spectrum.py", 3, 12, None)
    assert finding["message"]["en"] == (
        "`torch.fft` called as a function is deprecated since 1.7; replaced by `torch.fft.fft`"
        " (not a drop-in: see “What to do”)"
    )
    assert finding["message"]["zh"] == (
        "自 1.7 起，以函数方式调用 `torch.fft` 已被弃用，已由 `torch.fft.fft` 取代（不能直接替换，见“迁移方法”）"
    )
    assert finding["url"] == "/releases/1.7/#torch-fft-function"
    assert "torch.fft.fft" in finding["migration"]["en"] and "torch.fft.fft" in finding["migration"]["zh"]
    assert report["min_release"] is None  # the old function's introduction is not recorded


def test_torch_fft_fft_is_reported_once_as_beta_and_needs_1_7(code, capsys):
    code(**{"spectrum.py": FFT_MODULE})
    status, report = run_json(capsys, ".", "--from", "1.4", "--to", "1.7")
    assert status == 0  # unstable is not among the default --fail-on kinds
    (finding,) = report["findings"]  # torch.fft.fft, not also the torch.fft module it is under
    assert (finding["kind"], finding["api"], finding["entry"]) == ("unstable", "torch.fft.fft", "torch-fft")
    assert finding["message"]["en"] == "`torch.fft.fft` is Beta as of 1.7 (level published in 1.7), below Stable"
    assert "测试版" in finding["message"]["zh"] and "稳定" in finding["message"]["zh"]
    assert report["min_release"] == {
        "version": "1.7",
        "api": "torch.fft.fft",
        "path": "spectrum.py",
        "line": 3,
        "column": 12,
        "cell": None,
        "written": "torch.fft.fft",
        "resolved": "torch.fft.fft",
        "how": "'torch' is `import torch` (line 1)",
    }
    assert run_json(capsys, ".", "--to", "1.7", "--max-stability", "beta")[1]["findings"] == []


def test_an_unlabeled_api_is_not_called_unstable(code, capsys):
    """0.2 and 1.4 published no levels for these: unknown is not unstable (nor stable)."""
    code(**{"model.py": "import torch\n\nact = torch.nn.GELU()\ny = torch.matmul(a, b)\n"})
    status, report = run_json(capsys, ".")
    assert (status, report["findings"]) == (0, [])
    assert (report["min_release"]["version"], report["min_release"]["api"]) == ("1.4", "torch.nn.GELU")


def test_text_report_in_english(code, capsys):
    code(**{"spectrum.py": FFT_CALL})
    status, out, _ = run(capsys, ".", "--from", "1.4", "--to", "1.7")
    assert status == 1
    lines = out.splitlines()
    assert lines[0] == f"releasekb check: PyTorch 1.4 → 1.7, knowledge base {REAL_KB}"
    # issue 36: the range crosses 1.6, which the knowledge base does not describe
    assert lines[1] == "Not covered by this knowledge base, inside this range: 1.6; what changed there is not checked"
    assert lines[3:6] == [
        "Deprecated (1)",
        "  new between 1.4 and 1.7",
        "    `torch.fft` called as a function is deprecated since 1.7; replaced by `torch.fft.fft`"
        " (not a drop-in: see “What to do”)",
    ]
    assert lines[6].startswith("      What to do: Convert each call exactly, not just its name.")
    assert lines[7] == "      More: /releases/1.7/#torch-fft-function"
    assert lines[8] == "      spectrum.py:3:12: `torch.fft` ('torch' is `import torch` (line 1), high confidence)"
    assert "Lowest release that provides every API of this knowledge base the code uses: unknown" in out
    assert lines[-2] == (
        "1 file checked (0 without any mention of torch, torchvision, torchaudio): 0 removed, 0 breaking, "
        "1 deprecated, 0 newer than --to, 0 unstable; 0 suppressed, 0 unreadable"
    )
    assert lines[-1].startswith("Coverage of 1.4 → 1.7: ")  # issue 37: the report ends with its coverage
    assert "\033[" not in out  # not a terminal: no colours


def test_text_report_in_chinese(code, capsys):
    code(**{"spectrum.py": FFT_CALL + "more = torch.fft.fft(signal)\n"})
    status, out, _ = run(capsys, ".", "--from", "1.4", "--to", "1.7", "--lang", "zh")
    assert status == 1
    assert out.startswith("releasekb check：PyTorch 1.4 → 1.7，知识库 ")
    assert "已弃用（1）\n  1.4 到 1.7 之间新出现\n" in out
    assert (
        "    自 1.7 起，以函数方式调用 `torch.fft` 已被弃用，已由 `torch.fft.fft` 取代（不能直接替换，见“迁移方法”）\n"
        in out
    )
    assert "      迁移方法：要逐个调用做精确转换，而不只是改名。" in out
    assert "      详情：/zh/releases/1.7/#torch-fft-function" in out
    assert "      spectrum.py:3:12: `torch.fft`（'torch' 来自第 1 行的 `import torch`，置信度高）" in out
    assert (
        "尚不稳定的 API（1）" in out and "`torch.fft.fft` 的稳定性级别为“测试版”（1.7 公布），低于要求的“稳定”" in out
    )
    assert (
        "能提供代码所用全部本知识库已收录 API 的最低版本：1.7，由 spectrum.py:4:8 处的 `torch.fft.fft` 决定"
        "（'torch' 来自第 1 行的 `import torch`）" in out
    )
    assert out.splitlines()[-2].startswith("已检查 1 个文件（其中 0 个未提及 torch、torchvision、torchaudio）：")
    assert out.splitlines()[-1].startswith("覆盖范围 1.4 → 1.7：")
    english = check_report.STRINGS["en"]
    for key in ("heading_deprecated", "migration", "more", "group_new"):
        assert english[key].split("{")[0].strip() not in out, key


def test_from_defaults_to_the_oldest_release_and_says_so(code, capsys):
    code(**{"spectrum.py": FFT_CALL})
    out = run(capsys, ".")[1]
    assert "PyTorch 0.2 → 1.7" in out and "--from not given: comparing from the oldest release, 0.2" in out


# --------------------------------------------------------------------------- every kind, on the acme data


ACME_APP = """\
import acme
from acme.widget import Widget

data = acme.old_read("f.txt")
w = Widget()
"""


def test_text_groups_changes_already_in_effect_at_from_apart_from_new_ones(code, capsys):
    code(**{"app.py": ACME_APP})
    status, out, _ = run(capsys, ".", "--from", "1.1", "--to", "2.0", "--show-in-effect", kb=ACME_KB)
    assert status == 1
    headings = [line for line in out.splitlines() if line and not line.startswith(" ")]
    # issue 37: the changes already in effect at --from come after this upgrade's, in a group of their own
    assert headings[1:4] == [
        "Removed (1)",
        "Breaking changes (2)",
        "Already in effect at 1.1 (1): the code runs there already; not counted above",
    ]
    removed, deprecated = out.split("Removed (1)")[1].split("Breaking")[0], out.split("  Deprecated (1)")[1]
    assert removed.startswith("\n  new between 1.1 and 2.0\n    `acme.old_read` was removed in 2.0")
    assert "; use `acme.read`" in removed and "\n      app.py:4:8: `acme.old_read`" in removed
    assert deprecated.startswith("\n    `acme.old_read` is deprecated since 1.1")
    assert "\n      app.py:4:8: `acme.old_read`" in deprecated
    assert "0 deprecated" in out and "; 1 already in effect at 1.1, listed apart and not counted" in out
    assert "`acme.widget.Widget` has a breaking change in 2.0: Widgets default to blue" in out


def test_findings_of_each_change_kind_with_replacement_and_migration(code, capsys):
    code(**{"app.py": ACME_APP})
    _, report = run_json(capsys, ".", "--from", "1.0", "--to", "2.0", kb=ACME_KB)
    assert kinds(report) == [
        ("removed", "acme.old_read"),
        ("breaking", "acme.widget.Widget"),
        ("breaking", "acme.widget.Widget"),
        ("deprecated", "acme.old_read"),
    ]
    removed = report["findings"][0]
    assert removed["replacement"] == "acme.read" and removed["replacement_drop_in"] is True
    assert removed["migration"] == {
        "en": "Use `acme.read`.",
        "zh": "请改用 `acme.read`。",
    }
    assert removed["message"]["zh"] == "`acme.old_read` 已在 2.0 中移除，请改用 `acme.read`"
    assert report["findings"][1]["message"]["zh"] == "`acme.widget.Widget` 在 2.0 中有不兼容变更：小部件默认改为蓝色"
    assert report["counts"] == {"removed": 1, "breaking": 2, "deprecated": 1, "newer": 0, "unstable": 0}
    # changes after --to do not count (at 1.0 the widgets were still experimental)
    assert {kind for kind, _ in kinds(run_json(capsys, ".", "--from", "1.0", "--to", "1.0", kb=ACME_KB)[1])} == {
        "unstable"
    }


def test_newer_than_to_is_reported_and_fails_only_when_asked(code, capsys):
    code(**{"paint.py": "from acme.widget import colour\n\ncolour(None, 'red')\n"})
    status, report = run_json(capsys, ".", "--to", "1.1", kb=ACME_KB)
    assert status == 0
    assert kinds(report) == [("newer", "acme.widget.colour"), ("newer", "acme.widget.colour")]
    finding = report["findings"][0]
    assert finding["message"]["en"] == "`acme.widget.colour` requires 2.0, newer than --to 1.1"
    assert finding["message"]["zh"] == "`acme.widget.colour` 从 2.0 起才提供，晚于 --to 指定的 1.1"
    assert finding["in_effect_at_from"] is False and finding["url"] == "/releases/2.0/#widget-colours"
    assert report["min_release"]["version"] == "2.0"
    assert run(capsys, ".", "--to", "1.1", "--fail-on", "newer", kb=ACME_KB)[0] == 1


def test_unstable_uses_the_level_as_of_to_even_from_an_entry_without_apis(code, capsys):
    code(**{"ui.py": "import acme.widget\n\nacme.widget.make()\n"})
    _, at_1_0 = run_json(capsys, ".", "--to", "1.0", kb=ACME_KB)
    assert kinds(at_1_0) == [("unstable", "acme.widget"), ("unstable", "acme.widget")]
    assert "Experimental as of 1.0" in at_1_0["findings"][0]["message"]["en"]
    _, at_1_1 = run_json(capsys, ".", "--to", "1.1", kb=ACME_KB)  # 1.1 promoted widgets to stable
    assert at_1_1["findings"] == []


def test_min_release_is_decided_by_the_use_that_needs_the_latest_release(code, capsys):
    code(**{"a.py": "import acme\n\nacme.widget.make()\n", "b.py": "import acme\n\nx = 1\ntext = acme.read('f')\n"})
    _, report = run_json(capsys, ".", "--to", "2.0", kb=ACME_KB)
    assert report["min_release"] == {
        "version": "1.1",
        "api": "acme.read",
        "path": "b.py",
        "line": 4,
        "column": 8,
        "cell": None,
        "written": "acme.read",
        "resolved": "acme.read",
        "how": "'acme' is `import acme` (line 1)",
    }
    out = run(capsys, ".", "--to", "2.0", kb=ACME_KB)[1]
    assert (
        "Lowest release that provides every API of this knowledge base the code uses: 1.1, "
        "decided by `acme.read` at b.py:4:8 ('acme' is `import acme`" in out
    )


# --------------------------------------------------------------------------- guards, suppression, files


def test_a_guarded_use_is_reported_but_never_fails(code, capsys):
    code(**{"compat.py": "import torch\n\ntry:\n    s = torch.fft(x, 1)\nexcept AttributeError:\n    s = None\n"})
    status, report = run_json(capsys, ".", "--from", "1.4", "--to", "1.7")
    assert status == 0 and not report["failed"]
    (finding,) = report["findings"]
    assert finding["kind"] == "deprecated" and finding["guarded"] is True
    out = run(capsys, ".", "--from", "1.4", "--to", "1.7")[1]
    assert "(guarded: does not fail the run)" in out


def test_suppression_by_entry_id_and_bare(code, capsys):
    code(
        **{
            "masks.py": (
                "import torch\n\n"
                "a = torch.Tensor.masked_copy_  # releasekb: ignore[masked-copy-renamed]\n"
                "b = torch.Tensor.masked_copy_  # releasekb: ignore\n"
                "c = torch.Tensor.masked_copy_  # releasekb: ignore[torch-fft-function]\n"
            )
        }
    )
    status, report = run_json(capsys, ".", "--from", "0.2", "--to", "1.7", "--show-in-effect")
    assert status == 0  # a deprecation already in effect at --from does not fail the run
    assert [(f["kind"], f["line"]) for f in report["findings"]] == [("deprecated", 5)]
    assert report["findings"][0]["in_effect_at_from"] is True  # deprecated in 0.2 itself
    assert report["suppressed"] == 2
    out = run(capsys, ".", "--from", "0.2", "--to", "1.7", "--show-in-effect")[1]
    assert "Already in effect at 0.2 (1)" in out and "; 2 suppressed," in out


def test_all_findings_suppressed_pass(code, capsys):
    code(**{"spectrum.py": FFT_CALL.replace("1)\n", "1)  # releasekb: ignore[torch-fft-function]\n")})
    status, report = run_json(capsys, ".", "--from", "1.4")
    assert (status, report["findings"], report["suppressed"]) == (0, [], 1)


@pytest.mark.parametrize("files", [{}, {"README.md": "# torch.fft(x)\n", "data/notes.txt": "torch"}])
def test_zero_files_checked_is_fine(code, capsys, files):
    folder = code(**files)
    status, out, err = run(capsys, str(folder))
    assert status == 0, err
    assert out.splitlines()[-2].startswith("0 files checked (0 without any mention of torch")
    assert run_json(capsys, str(folder))[1]["files_checked"] == 0


def test_files_without_the_product_are_counted_as_skipped(code, capsys):
    code(**{"plain.py": "print('hello')\n", "spectrum.py": FFT_MODULE})
    _, report = run_json(capsys, ".")
    assert (report["files_checked"], report["files_skipped"]) == (2, 1)


def test_an_unreadable_file_fails_by_default_and_is_listed(code, capsys):
    # not UTF-8 (a syntax error is old code, read another way: test_check_old_code.py)
    code(**{"fine.py": "import torch\n"})
    Path("broken.py").write_bytes(b"import torch\nname = '\xe9'\n    torch.fft(x)\n")
    status, out, _ = run(capsys, ".")
    assert status == 1
    assert "Files that could not be checked (1); they fail the run" in out
    assert "\n  broken.py:2: cannot be decoded as UTF-8" in out
    assert "; 0 suppressed, 1 unreadable" in out
    assert run(capsys, ".", "--fail-on", "removed,breaking,deprecated")[0] == 0
    zh = run(capsys, ".", "--lang", "zh")[1]
    assert "无法检查的文件（1 个）" in zh and "\n  broken.py:2: 无法按 UTF-8 解码（" in zh and "已跳过该文件" in zh


def test_files_given_one_by_one_keep_their_folders(code, capsys):
    """pre-commit passes changed files: two __init__.py must stay apart."""
    code(**{"a/__init__.py": FFT_CALL, "b/__init__.py": FFT_CALL})
    _, report = run_json(capsys, "a/__init__.py", "b/__init__.py", "--from", "1.4")
    assert [f["path"] for f in report["findings"]] == ["a/__init__.py", "b/__init__.py"]
    _, from_folder = run_json(capsys, "a", "--from", "1.4")
    assert [f["path"] for f in from_folder["findings"]] == ["a/__init__.py"]


def test_a_folder_outside_the_current_one_gives_paths_relative_to_it(code, capsys, tmp_path, monkeypatch):
    folder = code(**{"pkg/spectrum.py": FFT_CALL})
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    _, report = run_json(capsys, str(folder), "--from", "1.4")
    assert report["findings"][0]["path"] == "pkg/spectrum.py"
    sarif = json.loads(run(capsys, str(folder), "--from", "1.4", "--format", "sarif")[1])
    assert sarif["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"] == folder.resolve().as_uri() + "/"


def test_notebook_findings_name_the_cell(code, capsys):
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": ["# FFT"]},
        {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": ["import torch"]},
        {
            "cell_type": "code",
            "metadata": {},
            "execution_count": None,
            "outputs": [],
            "source": ["y = torch.fft(x, 1)"],
        },
    ]
    notebook = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    code(**{"analysis.ipynb": json.dumps(notebook)})
    _, report = run_json(capsys, ".", "--from", "1.4")
    (finding,) = report["findings"]
    assert (finding["path"], finding["cell"], finding["line"]) == ("analysis.ipynb", 3, 1)
    text = run(capsys, ".", "--from", "1.4")[1]
    assert "    `torch.fft` called as a function" in text
    assert "      analysis.ipynb:cell 3:line 1: `torch.fft` ('torch' is `import torch`" in text
    assert "analysis.ipynb:单元格 3:第 1 行" in run(capsys, ".", "--from", "1.4", "--lang", "zh")[1]
    (annotation,) = [
        line
        for line in run(capsys, ".", "--from", "1.4", "--format", "github")[1].splitlines()
        if line.startswith("::") and "file=" in line  # not the notice of 1.6, which is not described
    ]
    # the notebook file (json.dumps: one line) holds the cell's line on its line 1
    assert annotation.startswith("::error file=analysis.ipynb,line=1,title=")  # it fails the run (issue 37)


# --------------------------------------------------------------------------- wrong usage: exit 2


def test_only_a_version_that_cannot_be_parsed_is_wrong_usage(code, capsys):
    """Issue 29: any version is a question the knowledge base can answer (tests/test_check_versions.py)."""
    code(**{"spectrum.py": FFT_CALL})
    status, out, err = run(capsys, ".", "--from", "latest")
    assert status == 2 and out == ""
    assert (
        "--from latest: not a version (write it as 1.4 or 1.7.1; this knowledge base describes 0.2, 1.4, 1.5, 1.7)"
        in err
    )
    assert run(capsys, ".", "--to", "9.9")[0] == 1  # after the last release: compared up to 1.7


def test_from_newer_than_to_is_wrong_usage(code, capsys):
    code(**{"spectrum.py": FFT_CALL})
    status, _, err = run(capsys, ".", "--from", "1.7", "--to", "1.4")
    assert status == 2 and "--from 1.7 is newer than --to 1.4" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--fail-on", "removed,typo"], "--fail-on typo: unknown kind"),
        (["--max-stability", "unlabeled"], "--max-stability unlabeled: not a stability level (one of: stable, beta"),
        (["missing.py"], "no such file or folder: missing.py"),
    ],
)
def test_other_wrong_usage(code, capsys, args, message):
    code(**{"spectrum.py": FFT_CALL})
    status, _, err = run(capsys, *(args if args == ["missing.py"] else [".", *args]))
    assert status == 2 and message in err


def test_an_invalid_knowledge_base_is_exit_2(code, capsys, tmp_path):
    broken = tmp_path / "kb"
    broken.mkdir()
    (broken / "project.yaml").write_text("product: [\n", encoding="utf-8")
    code(**{"spectrum.py": FFT_CALL})
    status, _, err = run(capsys, ".", kb=broken)
    assert status == 2 and "the knowledge base in" in err


def test_a_bad_index_is_exit_2(code, capsys, tmp_path, real_catalog):
    code(**{"spectrum.py": FFT_CALL})
    not_json = tmp_path / "not.json"
    not_json.write_text("{ nope", encoding="utf-8")
    future = tmp_path / "future.json"
    future.write_text(
        json.dumps({**api_index.index_document(real_catalog, ""), "schema_version": 99}), encoding="utf-8"
    )
    partial = tmp_path / "partial.json"
    partial.write_text(json.dumps({"schema_version": 1, "product": {"en": "P", "zh": "P"}, "apis": []}), "utf-8")
    for source, message in (
        (not_json, "not JSON"),
        (partial, f"index {partial}: does not follow the API schema (/api/schema/v1.json) at the top: 'releases' is"),
        (future, "schema_version 99, this releasekb reads 1"),
        (tmp_path / "absent.json", "cannot read it"),
        ("http://127.0.0.1:9/api/apis.json", "cannot fetch it"),
    ):
        status, out, err = run(capsys, ".", "--index", str(source))
        assert status == 2 and out == "" and message in err, (source, err)


def test_a_knowledge_base_without_code_roots_is_exit_2_saying_why(code, capsys, tmp_path):
    """Without `code.roots` nothing is looked for in code: a clean report would be a silent gap."""
    kb = data_copy(ACME_KB, tmp_path, {"project.yaml": [("code:\n  roots:\n    python: [acme]\n", "")]})
    code(**{"reader.py": "import acme\n\nacme.old_read()\n"})
    status, out, err = run(capsys, ".", kb=kb)
    assert status == 2 and out == ""
    assert err == (
        f"releasekb check: {kb} declares no code roots, so no use of its APIs can be found in code: "
        f"add `code: {{roots: {{python: [acme]}}}}` to {kb / 'project.yaml'}\n"
    )
    index = tmp_path / "apis.json"  # a published index of that knowledge base says the same
    index.write_bytes(json_api.api_files(load_catalog(kb), "")[api_index.INDEX_PATH])
    status, out, err = run(capsys, ".", "--index", str(index))
    assert status == 2 and out == ""
    assert f"{index} declares no code roots, so no use of its APIs can be found in code: its knowledge base " in err


# --------------------------------------------------------------------------- the published index


def test_the_published_index_gives_the_same_findings_as_the_data_folder(code, capsys, tmp_path):
    code(**{"spectrum.py": FFT_CALL + "more = torch.fft.fft(signal)\nm = torch.Tensor.masked_copy_\n"})
    files = json_api.api_files(load_catalog(REAL_KB), "")
    index = tmp_path / "apis.json"
    index.write_bytes(files[api_index.INDEX_PATH])
    _, from_data = run_json(capsys, ".", "--from", "1.4", "--show-in-effect")
    _, from_index = run_json(capsys, ".", "--from", "1.4", "--show-in-effect", "--index", str(index))
    assert from_index["knowledge_base"] == str(index) and from_data["knowledge_base"] == str(REAL_KB)
    del from_data["knowledge_base"], from_index["knowledge_base"]
    assert from_index == from_data and len(from_data["findings"]) == 3


def test_the_index_needs_no_data_folder(code, tmp_path):
    folder = code(**{"spectrum.py": FFT_CALL})
    index = tmp_path / "apis.json"
    index.write_bytes(json_api.api_files(load_catalog(REAL_KB), "")[api_index.INDEX_PATH])
    result = subprocess.run(
        [sys.executable, "-m", "releasekb.cli", "check", ".", "--index", str(index)],
        cwd=folder,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1, result.stderr


# --------------------------------------------------------------------------- formats


def test_json_report_follows_the_published_schema(code, capsys):
    schema = check_schema.schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    # broken.py: a null byte, which no method reads (a syntax error alone is old code, read by tokens)
    code(**{"app.py": ACME_APP + "from acme.widget import colour\n", "broken.py": "import acme\n(\0\n"})
    for args in (["--from", "1.0", "--to", "1.1"], ["--from", "1.0", "--to", "2.0", "--lang", "zh"]):
        _, report = run_json(capsys, ".", *args, kb=ACME_KB)
        errors = list(validator.iter_errors(report))
        assert not errors, errors[0]
    assert {f["kind"] for f in report["findings"]} == {"removed", "breaking", "deprecated", "unstable"}
    assert report["errors"][0]["path"] == "broken.py" and report["lang"] == "zh"
    assert report["findings"][0]["url"].startswith("/zh/releases/")
    assert not validator.is_valid({**report, "findings": [{"kind": "removed"}]})


def test_sarif_report_is_valid_sarif_2_1_0_for_code_scanning(code, capsys):
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    # broken.py: a null byte, which no method reads (a syntax error alone is old code, read by tokens)
    code(**{"app.py": ACME_APP + "from acme.widget import colour\n", "broken.py": "import acme\n(\0\n"})
    status, out, _ = run(capsys, ".", "--from", "1.0", "--to", "2.0", "--format", "sarif", "--site-url",
                         "https://kb.example.org/", kb=ACME_KB)  # fmt: skip
    assert status == 1
    log = json.loads(out)
    errors = list(jsonschema.Draft4Validator(schema).iter_errors(log))
    assert not errors, errors[0]
    (run_,) = log["runs"]
    driver = run_["tool"]["driver"]
    assert driver["name"] == "releasekb" and driver["informationUri"] == "https://kb.example.org/"
    rules = {rule["id"]: rule for rule in driver["rules"]}
    assert set(rules) == {"old-reader", "widget-default-colour", "widget-colours"}
    assert rules["old-reader"]["helpUri"] == "https://kb.example.org/features/old-reader/"
    assert "Use `acme.read`." in rules["old-reader"]["help"]["markdown"]
    assert "releasekb check . --from 1.0 --to 2.0" in rules["old-reader"]["help"]["text"]
    levels = {(r["ruleId"], r["properties"]["kind"], r["level"]) for r in run_["results"]}
    # the default --fail-on fails the run on a deprecation: an error, as the removal (issue 37)
    assert levels == {
        ("old-reader", "removed", "error"),
        ("old-reader", "deprecated", "error"),
        ("widget-default-colour", "breaking", "error"),
        ("widget-colours", "unstable", "note"),
    }
    for result in run_["results"]:
        assert driver["rules"][result["ruleIndex"]]["id"] == result["ruleId"]
        location = result["locations"][0]["physicalLocation"]
        assert location["artifactLocation"] == {"uri": "app.py", "uriBaseId": "%SRCROOT%"}
        assert location["region"]["startLine"] >= 1 and location["region"]["startColumn"] >= 1
    (invocation,) = run_["invocations"]
    assert invocation["executionSuccessful"] is True
    (notification,) = [n for n in invocation["toolExecutionNotifications"] if "locations" in n]
    assert notification["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "broken.py"
    assert notification["level"] == "error"


def test_github_annotations_escape_data_and_properties(code, capsys):
    line = safe_text.github_command("error", "50% done\r\nnext: a, b", file="a,b:c.py", line=3, title="x: y, z")
    assert line == "::error file=a%2Cb%3Ac.py,line=3,title=x%3A y%2C z::50%25 done%0D%0Anext: a, b"
    code(
        **{
            "odd,name:1.py": FFT_CALL,
            "safe.py": "import torch\n\ntry:\n    torch.fft(x)\nexcept AttributeError:\n    pass\n",
        }
    )
    status, out, _ = run(capsys, ".", "--from", "1.4", "--format", "github")
    assert status == 1
    annotations = [line for line in out.splitlines() if line.startswith("::")]
    assert annotations[0].startswith(
        "::error file=odd%2Cname%3A1.py,line=3,col=12,title=releasekb%3A Deprecated (torch-fft-function)::"
        "`torch.fft` called as a function is deprecated since 1.7; replaced by `torch.fft.fft`"
        " (not a drop-in: see “What to do”)%0AWhat to do: "
    )
    assert annotations[1].startswith("::notice file=safe.py,line=4,")  # guarded: a notice
    assert "\n" not in annotations[0] and "%0AMore: /releases/1.7/#torch-fft-function" in annotations[0]


def test_github_is_the_default_format_under_github_actions(code, capsys, monkeypatch):
    code(**{"spectrum.py": FFT_CALL})
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    assert run(capsys, ".", "--from", "1.4")[1].startswith("::error file=spectrum.py,line=3,col=12,")


def test_output_file_gets_the_report_and_stdout_the_summary(code, capsys):
    folder = code(**{"spectrum.py": FFT_CALL})
    status, out, _ = run(capsys, ".", "--from", "1.4", "--format", "sarif", "--output", "report.sarif")
    assert status == 1 and out.startswith("1 file checked") and out.count("\n") == 1
    assert json.loads((folder / "report.sarif").read_text(encoding="utf-8"))["version"] == "2.1.0"


class _Stream(io.StringIO):
    def __init__(self, tty: bool):
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def test_colours_only_on_a_terminal_and_never_with_no_color(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert formats.use_colour(_Stream(True)) and not formats.use_colour(_Stream(False))
    monkeypatch.setenv("NO_COLOR", "1")
    assert not formats.use_colour(_Stream(True))


def test_text_on_a_terminal_is_coloured(code, monkeypatch):
    code(**{"spectrum.py": FFT_CALL})
    monkeypatch.delenv("NO_COLOR", raising=False)
    index = open_index(None, REAL_KB)
    options = resolve_options(index, "1.4", "1.7", None, None, "en")
    report = check_run.run_check(index, options, ["."])
    terminal = _Stream(True)
    formats.write(report, "text", None, terminal)
    assert "\033[1;33mDeprecated (1)\033[0m" in terminal.getvalue()


# --------------------------------------------------------------------------- interface


def test_interface_strings_exist_in_both_languages():
    assert set(check_report.STRINGS["en"]) == set(check_report.STRINGS["zh"])
    numpy = messages.message("import_name", name="np", text="import numpy", line=2)
    assert numpy.text("en") == "'np' is `import numpy` (line 2)"
    steps = (
        messages.message("alias", name="F", value="torch.fft", line=3),
        messages.message("import_statement", text="import torch"),
    )
    assert messages.explained(steps, "en") == "'F' is `F = torch.fft` (line 3); `import torch` imports it"
    assert messages.explained(steps, "zh") == "'F' 来自第 3 行的 `F = torch.fft`；由 `import torch` 导入"


def _placeholders(template: str | dict[str, str]) -> set[str]:
    """The placeholders of a text, or of every form of a plural one ({one: ..., other: ...})."""
    return placeholders(template)


def test_every_check_string_has_the_same_placeholders_in_every_language():
    """Every key of `check` in every locale, with the placeholders of the English text."""
    tables = {lang: interface_strings(lang)["check"] for lang in LANGUAGES}
    english = tables["en"]
    for lang, table in tables.items():
        assert table.keys() == english.keys(), lang
        for part, strings in english.items():
            assert table[part].keys() == strings.keys(), (lang, part)
            for key, template in strings.items():
                # a language without plurals (Chinese) leaves out the word that agrees with a count
                left_out = _placeholders(template) - _placeholders(table[part][key])
                assert _placeholders(table[part][key]) <= _placeholders(template), (lang, part, key)
                assert all(name.endswith("word") for name in left_out), (lang, part, key)


def test_every_message_kind_the_checker_makes_has_a_template():
    """A kind written in the code (message("kind", ...)) but missing from the locales would fail
    only when a report shows it."""
    written = {
        kind
        for module in Path(check_report.__file__).parent.rglob("*.py")  # check and its scan package
        for kind in re.findall(r'\bmessage\("(\w+)"', module.read_text(encoding="utf-8"))
    }
    assert len(written) > 20
    strings = interface_strings("en")
    assert written <= strings["check"]["scanner"].keys() | strings["check_old_code"].keys()


def test_help_documents_the_exit_codes(capsys):
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    out = capsys.readouterr().out
    assert "exit status:\n  0  no finding of a --fail-on kind" in out
    assert "\n  1  findings of a --fail-on kind" in out and "\n  2  wrong usage" in out
    assert "--fail-on KINDS" in out and "removed,breaking,deprecated,requirement,unreadable" in out


def test_pre_commit_hook_checks_python_files_and_notebooks(code):
    hooks = {hook["id"]: hook for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))}
    hook = hooks["releasekb-check"]
    assert hook["types_or"] == ["python", "jupyter"] and hook["pass_filenames"] is True
    assert hook["language"] == "python" and hook["entry"] == "releasekb check"
    folder = code(**{"spectrum.py": FFT_CALL, "setup.cfg": "[metadata]\n"})
    command = [str(Path(sys.executable).parent / "releasekb"), "--data", str(REAL_KB), *hook["entry"].split()[1:]]
    changed = subprocess.run([*command, "--from", "1.4", "spectrum.py"], cwd=folder, capture_output=True, text=True)
    assert changed.returncode == 1 and "spectrum.py:3:12" in changed.stdout
    other = subprocess.run([*command, "setup.cfg"], cwd=folder, capture_output=True, text=True)
    assert other.returncode == 0, other.stderr


# --------------------------------------------------------------------------- --only, as feature pages show it


def test_only_reports_every_use_of_the_feature_and_nothing_else(code, capsys):
    code(**{"spectrum.py": "import torch\nimport torch.fft\n\na = torch.fft(x, 1)\nb = torch.fft.fft(x)\n"})
    status, report = run_json(capsys, ".", "--only", "torch-fft")
    assert status == 0  # `used` fails nothing unless --fail-on names it
    assert [(f["kind"], f["api"], f["line"]) for f in report["findings"]] == [
        ("unstable", "torch.fft", 2),  # `import torch.fft`: the beta module
        ("unstable", "torch.fft.fft", 5),
        ("used", "torch.fft", 2),
        ("used", "torch.fft.fft", 5),
    ]  # not line 4: calling the deprecated torch.fft() function is no use of the module
    assert report["counts"]["used"] == 2
    status, _ = run_json(capsys, ".", "--only", "torch-fft", "--fail-on", "used")
    assert status == 1


def test_only_names_an_unknown_feature_and_the_closest_one(code, capsys):
    code(**{"spectrum.py": FFT_CALL})
    status, _, err = run(capsys, ".", "--only", "torch-ff")
    assert status == 2
    assert "--only torch-ff: no feature of the knowledge base lists an API by that id (did you mean torch-fft?)" in err


def test_a_breaking_change_already_in_effect_at_from_is_reported_but_does_not_fail(code, capsys):
    """The code runs on --from, so it has met the 0.2 keepdim change already."""
    code(**{"reduce.py": "import torch\n\ntotal = torch.sum(x, 1)\n"})
    status, report = run_json(capsys, ".", "--from", "1.4", "--to", "1.7", "--show-in-effect")
    assert [(f["kind"], f["in_effect_at_from"]) for f in report["findings"]] == [("breaking", True)]
    assert status == 0 and report["failed"] is False
    status, report = run_json(capsys, ".", "--from", "0.2", "--to", "1.7")
    assert status == 0  # 0.2 itself made the change: in effect at --from 0.2 as well


def test_the_same_finding_at_many_places_says_what_to_do_once(code, capsys):
    code(**{"reduce.py": "import torch\n\na = torch.sum(x, 1)\nb = torch.sum(y, 1)\nc = torch.mean(z, 1)\n"})
    out = run(capsys, ".", "--from", "1.4", "--to", "1.7", "--show-in-effect")[1]
    assert out.count("What to do: Set `torch.utils.backcompat.keepdim_warning.enabled`") == 2  # sum, mean
    sums = out.split("`torch.sum` called with `dim` and without `keepdim` has a breaking change in 0.2")[1]
    sums = sums.split("`torch.mean`")[0]
    assert "      reduce.py:3:5: `torch.sum`" in sums and "      reduce.py:4:5: `torch.sum`" in sums


# --------------------------------------------------------------------------- a replacement that is not a drop-in


def test_the_index_says_whether_a_replacement_is_a_drop_in(real_catalog):
    """Issue 27: `torch.fft.fft` replaces the old `torch.fft` function but is not a drop-in (the old
    one took real tensors with a trailing dimension of size 2 and a `signal_ndim`)."""
    records = {(r["name"], r["use"]): r for r in api_index.index_document(real_catalog, "")["apis"]}
    assert records[("torch.fft", "call")]["replacement_drop_in"] is False
    assert records[("torch.Tensor.masked_copy_", "any")]["replacement_drop_in"] is True  # a rename
    assert records[("torch.fft.fft", "any")]["replacement_drop_in"] is None  # replaces nothing


def test_an_index_published_before_drop_in_existed_reads_every_replacement_as_a_drop_in(code, capsys, tmp_path):
    code(**{"spectrum.py": FFT_CALL})
    document = api_index.index_document(load_catalog(REAL_KB), "")
    for record in document["apis"]:
        del record["replacement_drop_in"]
    index = tmp_path / "apis.json"
    index.write_text(json.dumps(document), encoding="utf-8")
    _, report = run_json(capsys, ".", "--from", "1.4", "--index", str(index))
    (finding,) = report["findings"]
    assert finding["replacement_drop_in"] is True
    assert finding["message"]["en"].endswith("; use `torch.fft.fft`")


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("en", "<code>torch.fft</code> is replaced by <code>torch.fft.fft</code>, which is not a drop-in"),
        ("zh", "<code>torch.fft</code> 已由 <code>torch.fft.fft</code> 取代，但两者不能直接互换"),
    ],
)
def test_pages_do_not_present_a_replacement_that_is_not_a_drop_in_as_a_swap(real_catalog, lang, text):
    from releasekb.site.render import render_language

    # (API names in code spans may break only between their parts: <wbr> marks where)
    pages = {path: page.replace("<wbr>", "") for path, page in render_language(real_catalog, lang).items()}
    for path in ("releases/1.7.md", "features/torch-fft-function.md"):
        assert text in pages[path], path
    # A drop-in says to use the other name.
    drop_in = "Instead of <code>torch.Tensor.masked_copy_</code>, use <code>torch.Tensor.masked_scatter_</code>."
    assert lang == "zh" or drop_in in pages["releases/0.2.md"]


# --------------------------------------------------------------------------- a change that concerns some calls (`when`)

REDUCTIONS = (
    "import torch\n"
    "a = torch.sum(mask)\n"  # 2: reduces every dimension, with or without keepdim
    "b = torch.mean(x, dim=1, keepdim=True)\n"  # 3: asks for the old shape
    "c = torch.mean(x, 1, True)\n"  # 4: the same, by position
    "d = torch.mean(x, 1)\n"  # 5: affected
    "e = torch.mean(x, dim=1)\n"  # 6: affected
    "f = torch.mean(*a)\n"  # 7: cannot be told
    "g = torch.mean(x, **kw)\n"  # 8: cannot be told
)


def test_the_keepdim_change_is_reported_only_for_calls_that_pass_dim_and_not_keepdim(code, capsys):
    """Issue 29: 45 % of the breaking findings on four codebases were the 0.2 keepdim default on
    calls it cannot affect."""
    code(**{"reduce.py": REDUCTIONS})
    _, report = run_json(capsys, ".", "--from", "1.4", "--to", "1.7", "--show-in-effect")
    found = [(f["line"], f["entry"], f["confidence"]) for f in report["findings"]]
    assert found == [
        (5, "reduction-keepdim-default", "high"),
        (6, "reduction-keepdim-default", "high"),
        (7, "reduction-keepdim-default", "medium"),
        (8, "reduction-keepdim-default", "medium"),
    ]
    unknown = report["findings"][2]
    assert unknown["how"] == f"'torch' is `import torch` (line 1); {analysis.UNKNOWN_ARGUMENTS.text()}"
    assert unknown["message"]["en"] == (
        "`torch.mean` called with `dim` and without `keepdim` has a breaking change in 0.2: "
        "Reductions no longer keep the reduced dimension by default (`keepdim=False`)"
    )
    # lower confidence: left out when only high confidence is asked for
    _, high = run_json(capsys, ".", "--from", "1.4", "--to", "1.7", "--confidence", "high", "--show-in-effect")
    assert [f["line"] for f in high["findings"]] == [5, 6]


def test_a_call_condition_reads_in_chinese(code, capsys):
    code(**{"reduce.py": "import torch\nd = torch.mean(x, 1)\nf = torch.mean(*a)\n"})
    out = run(capsys, ".", "--from", "1.4", "--to", "1.7", "--lang", "zh", "--show-in-effect")[1]
    assert "    传入 `dim` 而未传入 `keepdim` 的 `torch.mean` 调用在 0.2 中有不兼容变更：" in out
    assert (
        "      reduce.py:3:5: `torch.mean`（'torch' 来自第 1 行的 `import torch`；此处无法得知调用的参数"
        "（`*args`、`**kwargs`，或并非调用），因此无法判断该条目是否涉及这次调用，置信度中）" in out
    )


def test_the_index_and_its_schema_carry_the_call_condition(real_catalog):
    records = {(r["name"], r["use"]): r for r in api_index.index_document(real_catalog, "")["apis"]}
    entry = next(e for e in records[("torch.mean", "call")]["entries"] if e["id"] == "reduction-keepdim-default")
    assert entry["when"] == {"params": ["input", "dim", "keepdim"], "passed": ["dim"], "not_passed": ["keepdim"]}
    assert "when" not in records[("torch.fft", "call")]["entries"][0]  # absent: every use
    assert "when" in api.schema()["$defs"]["api_entry"]["properties"]
    assert ("torch.sum", "any") not in records


def test_check_parses_the_call_condition_once_into_a_typed_record(real_catalog):
    index = ApiIndex(api_index.index_document(real_catalog, ""), "releases")
    entry = next(e for e in index.records[("torch.mean", "call")].entries if e.id == "reduction-keepdim-default")
    assert entry.when == CallCondition(params=("input", "dim", "keepdim"), passed=("dim",), not_passed=("keepdim",))
    assert index.records[("torch.fft", "call")].entries[0].when is None  # every use


@pytest.mark.parametrize(
    ("arguments", "concerns"),
    [
        ("x", False),
        ("x, 1", True),
        ("x, keepdim=True", False),
        ("x, 1, dtype=t", False),
        ("x, 1, 2", True),  # dtype comes after `*`: a third argument by position is not dtype
        ("x, 1, *rest", True),  # nor is one unpacked from *rest
        ("x, *rest", None),  # dim may be in rest
        ("x, 1, **kw", None),  # dtype may be in kw
        ("x, dtype=t, **kw", False),
    ],
)
def test_a_keyword_only_parameter_is_never_given_by_position(code, capsys, tmp_path, arguments, concerns):
    when = "{params: [input, dim, '*', dtype], passed: [dim], not_passed: [dtype]}"
    data = data_copy(
        REAL_KB,
        tmp_path,
        {"0.2.yaml": [("{params: [input, dim, keepdim], passed: [dim], not_passed: [keepdim]}", when)]},
    )
    code(**{"reduce.py": f"import torch\nv = torch.sum({arguments})\n"})
    _, report = run_json(capsys, ".", "--from", "1.4", "--to", "1.7", "--show-in-effect", kb=data)
    expected = {True: ["high"], None: ["medium"], False: []}[concerns]
    assert [f["confidence"] for f in report["findings"]] == expected


def test_a_name_that_is_both_a_module_and_a_function_is_reported_as_both_saying_so(code, capsys):
    code(**{"spectral.py": "import torch\nfn = torch.fft\n"})
    _, report = run_json(capsys, ".", "--from", "1.4", "--to", "1.7")
    assert sorted((f["kind"], f["use"], f["confidence"]) for f in report["findings"]) == [
        ("deprecated", "call", "medium"),  # as the old function
        ("unstable", "module", "medium"),  # as the beta module
    ]
    assert (
        "is both a module and a function, and this use is not a call: it may be either" in report["findings"][0]["how"]
    )
    assert report["min_release"]["version"] == "1.7"  # as the module, it needs 1.7
    zh = run(capsys, ".", "--from", "1.4", "--to", "1.7", "--lang", "zh")[1]
    assert "`torch.fft` 既是模块也是函数，而此处并非调用，两者皆有可能" in zh


@pytest.mark.parametrize(
    ("when", "message"),
    [
        (
            "use: any, when: {params: [input, dim], passed: [dim]}",
            "`when` says which calls the entry concerns: it needs `use: call`",
        ),
        ("use: call, when: {params: [input, dim, dim], passed: [dim]}", "`dim` is listed twice"),
        ("use: call, when: {params: [input, dim], passed: [dims]}", "`dims` is not one of `params` (input, dim)"),
        ("use: call, when: {params: [input, dim]}", "`when` names no parameter"),
        (
            "use: call, when: {params: [input, dim], passed: [dim], not_passed: [dim]}",
            "`dim` is both in `passed` and in `not_passed`",
        ),
    ],
)
def test_a_call_condition_that_cannot_be_meant_is_refused(tmp_path, capsys, when, message):
    curated = "use: call, when: {params: [input, dim, keepdim], passed: [dim], not_passed: [keepdim]}"
    data = data_copy(REAL_KB, tmp_path, {"0.2.yaml": [(f"name: torch.sum, {curated}", f"name: torch.sum, {when}")]})
    status = main(["--data", str(data), "validate"])
    errors = capsys.readouterr().err
    assert status == 1 and f"0.2.yaml:{line_of(data / '0.2.yaml', 'name: torch.sum')}:" in errors
    assert message in errors, errors


def test_a_file_over_the_size_limit_is_skipped_reported_and_never_parsed(code, capsys, monkeypatch):
    """Issue 29: a 30 MB file took 54 s and 5.4 GB. The file is 1,001 bytes, the limit 1KB."""
    from releasekb.check.scan import decoding

    code(**{"big.py": "import torch\nx = torch.fft(s)\n" + "#" * 970 + "\n", "small.py": "import torch\n"})
    parsed = []
    real_parse = decoding.parse
    monkeypatch.setattr(decoding, "parse", lambda text, rel: parsed.append(rel) or real_parse(text, rel))
    status, out, _ = run(capsys, ".", "--max-file-size", "1KB")
    assert parsed == ["small.py"]
    message = "is 1,001 bytes, more than the limit of 1,000 bytes (--max-file-size); file skipped"
    assert (
        f"Files that could not be checked (1); they fail the run (`unreadable` is in --fail-on)\n  big.py:1: {message}"
        in out
    )
    assert status == 1  # like an unreadable file: it was not checked
    _, report = run_json(capsys, ".", "--max-file-size", "1KB")
    assert (report["errors"], report["findings"]) == ([{"path": "big.py", "line": 1, "message": message}], [])
    zh = run(capsys, ".", "--max-file-size", "1KB", "--lang", "zh")[1]
    assert "big.py:1: 大小为 1,001 字节，超过 1,000 字节的上限（--max-file-size），已跳过该文件" in zh
    # at its size it is checked
    _, report = run_json(capsys, ".", "--max-file-size", "1001")
    assert (report["errors"], [f["path"] for f in report["findings"]]) == ([], ["big.py"])


@pytest.mark.parametrize(
    ("size", "limit"), [("5MB", 5_000_000), ("500KB", 500_000), ("500 kb", 500_000), ("1048576", 1_048_576)]
)
def test_max_file_size_reads_units(size, limit):
    from releasekb.commands.check import _file_size

    assert _file_size(size) == limit


def test_a_max_file_size_that_is_no_size_is_wrong_usage(code, capsys):
    code(**{"a.py": FFT_CALL})
    status, _, err = run(capsys, ".", "--max-file-size", "5 parsecs")
    assert status == 2 and "'5 parsecs' is not a size: write it as 5MB, 500KB or a number of bytes" in err
