"""`releasekb check --fix`: drop-in replacements rewritten at their exact place, nothing else.

The real knowledge base has one drop-in replacement, the 0.2 rename of `masked_copy_` to
`masked_scatter_`, and one that is not (`torch.fft(...)` to `torch.fft.fft`); the fixtures use both.
"""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
import yaml

from helpers import REAL_RELEASES, run_check, write_tree
from releasekb.check import baseline, cache
from releasekb.check import fix as check_fix
from releasekb.check.fix import rename
from releasekb.common.i18n import known_languages

RANGE = ("--from", "1.4", "--to", "1.7")
BEFORE = """import torch
import torch as t
from torch import Tensor

mask = torch.ones(3) > 0
x = torch.zeros(3)
torch.Tensor.masked_copy_(x, mask, x)
t.Tensor.masked_copy_(x, mask, x)  # torch.Tensor.masked_copy_ in a comment stays
Tensor.masked_copy_(x, mask, x)
x.masked_copy_(mask, x); x.masked_copy_(mask, x)
note = "torch.Tensor.masked_copy_ in a string stays"
spectrum = torch.fft(x, 1)
"""
AFTER = """import torch
import torch as t
from torch import Tensor

mask = torch.ones(3) > 0
x = torch.zeros(3)
torch.Tensor.masked_scatter_(x, mask, x)
t.Tensor.masked_scatter_(x, mask, x)  # torch.Tensor.masked_copy_ in a comment stays
Tensor.masked_scatter_(x, mask, x)
x.masked_scatter_(mask, x); x.masked_scatter_(mask, x)
note = "torch.Tensor.masked_copy_ in a string stays"
spectrum = torch.fft(x, 1)
"""


def findings(capsys, *args: str) -> list[tuple[str, str, int]]:
    status, out, err = run_check(capsys, ".", *RANGE, "--format", "json", *args)
    assert status in (0, 1), err
    return [(f["api"], f["path"], f["line"]) for f in json.loads(out)["findings"]]


def test_the_data_marks_the_masked_copy_rename_as_a_drop_in_and_torch_fft_as_not():
    apis = {
        api["name"]: api
        for version in ("0.2", "1.7")
        for part in ("features", "changes")
        for entry in yaml.safe_load((REAL_RELEASES / f"{version}.yaml").read_text(encoding="utf-8"))[part]
        for api in entry.get("apis", [])
        if isinstance(api, dict) and api.get("replacement")
    }
    assert apis["torch.Tensor.masked_copy_"]["drop_in"] is True
    assert apis["torch.fft"]["drop_in"] is False


def test_fix_rewrites_drop_in_renames_and_nothing_else(checked_project, capsys):
    other = "import torch\nf = torch.Tensor.masked_copy_\n"
    write_tree(checked_project, {"pkg/model.py": BEFORE, "pkg/other.py": other})
    status, _, err = run_check(capsys, ".", *RANGE, "--confidence", "low", "--fix")
    assert (checked_project / "pkg" / "model.py").read_text(encoding="utf-8") == AFTER
    fixed = other.replace("masked_copy_", "masked_scatter_")
    assert (checked_project / "pkg" / "other.py").read_text(encoding="utf-8") == fixed
    assert "Fixed 6 uses in 2 files" in err and "Not fixed" not in err
    assert status == 1  # torch.fft(...) is left, and reported
    # checked again: the fixed uses are gone, the rest is as before
    assert findings(capsys, "--confidence", "low") == [("torch.fft", "pkg/model.py", 12)]


def test_fix_leaves_what_it_cannot_rewrite_safely_and_says_why(checked_project, capsys):
    notebook = {
        "cells": [{"cell_type": "code", "source": ["import torch\n", "torch.Tensor.masked_copy_(x, m, x)\n"]}],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    files = {
        "book.ipynb": json.dumps(notebook, indent=1),
        "guarded.py": "import torch\ntry:\n    f = torch.Tensor.masked_copy_\nexcept AttributeError:\n    f = None\n",
        "split.py": "import torch\nf = (torch.Tensor\n     .masked_copy_)\n",
        "imported.py": "from torch.Tensor import masked_copy_\n",
        "latin.py": b'# -*- coding: latin-1 -*-\nimport torch\nname = "caf\xe9"\nf = torch.Tensor.masked_copy_\n',
    }
    write_tree(checked_project, files)
    _, _, err = run_check(capsys, ".", *RANGE, "--fix")
    for name, content in files.items():
        data = content if isinstance(content, bytes) else content.encode()
        assert (checked_project / name).read_bytes() == data, name
    assert "Fixed 0 uses in 0 files" in err
    assert "Not fixed, although the replacement is a drop-in (5):" in err
    for where, reason in (
        ("book.ipynb:cell 1:line 2", "notebooks are not edited"),
        ("guarded.py:3:9", "the use is guarded"),
        ("split.py:2:6", "the code there does not read `torch.Tensor.masked_copy_` exactly"),
        ("imported.py:1:26", "the name comes from an import"),
        ("latin.py:4:5", "the file is not UTF-8"),
    ):
        assert any(line.startswith(f"  {where}: ") and reason in line for line in err.splitlines()), (where, err)


def test_fix_keeps_line_endings_byte_order_mark_and_characters_before_the_use(checked_project, capsys):
    text = "\ufeffimport torch\r\nnamé = 1; y = torch.Tensor.masked_copy_(a, b, c); z = torch.Tensor.masked_copy_\r\n"
    (checked_project / "crlf.py").write_bytes(text.encode("utf-8"))
    status, _, err = run_check(capsys, ".", *RANGE, "--fix", "--lang", "zh")
    assert (checked_project / "crlf.py").read_bytes() == text.replace("masked_copy_", "masked_scatter_").encode("utf-8")
    assert status == 0 and "已修复 1 个文件中的 2 处用法" in err


def finding(written: str, resolved: str, api: str, replacement: str) -> SimpleNamespace:
    return SimpleNamespace(written=written, resolved=resolved, api=api, replacement=replacement)


@pytest.mark.parametrize(
    ("use", "edit"),
    [
        # `import torch.nn.functional as F`: the alias stays, the attribute changes
        (
            finding("F.old", "torch.nn.functional.old", "torch.nn.functional.old", "torch.nn.functional.new"),
            (2, "old", "new"),
        ),
        # a use of something under a renamed module: only the module's part changes
        (finding("torch.old_mod.fn", "torch.old_mod.fn", "torch.old_mod", "torch.new_mod"), (6, "old_mod", "new_mod")),
        # moved to another module: every part that differs is written at the use
        (finding("torch.a.old", "torch.a.old", "torch.a.old", "torch.b.new"), (6, "a.old", "b.new")),
        # `from torch import old as o`, `from torch import a`: the name is bound by an import
        (finding("o", "torch.old", "torch.old", "torch.new"), None),
        (finding("a.old", "torch.a.old", "torch.a.old", "torch.b.new"), None),
    ],
)
def test_a_rename_changes_only_attributes_written_at_the_use(use, edit):
    assert rename(use) == edit


def test_the_strings_of_fix_baseline_and_cache_exist_in_every_language():
    for module in (check_fix, baseline, cache):
        assert set(module.STRINGS) == set(known_languages()) >= {"en", "ja", "zh"}, module.__name__
        for lang in module.STRINGS:
            assert module.STRINGS[lang].keys() == module.STRINGS["en"].keys(), (module.__name__, lang)
