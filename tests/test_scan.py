"""The source scanner: every use of a known API name in a user's tree, one small fixture per pitfall.

Sources are written inline into tmp_path so each test shows the code it is about; expected
values are exact (line, column, resolved name, confidence), so a wrong resolution fails.
"""

from __future__ import annotations

import concurrent.futures
import json
import os
from pathlib import Path

import pytest

from releasekb.check.messages import message
from releasekb.check.scan import CallArguments, Roots, ScanResult, Target, Use, scan

ROOTS = Roots(python=("torch", "torchvision", "torchaudio"), tokens=("torch::", "c10::"))
GRID_SAMPLE = Target("torch.nn.functional.grid_sample")
UPSAMPLE = Target("torch.nn.functional.upsample")
FFT_CALL = Target("torch.fft", "call")
FFT_MODULE = Target("torch.fft", "module")
FFT_FFT = Target("torch.fft.fft")
MASKED_COPY = Target("torch.Tensor.masked_copy_")
CLASS_ = Target("torch::class_")


def write(root: Path, name: str, text: str | bytes) -> Path:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8", newline="")
    return path


def scan_tree(root: Path, *targets: Target, **options) -> ScanResult:
    return scan([root], targets, ROOTS, **options)


def where(result: ScanResult) -> list[tuple]:
    """(path, line, column, target name, target use, resolved, confidence) of every use."""
    return [(u.path, u.line, u.column, u.target.name, u.target.use, u.resolved, u.confidence) for u in result.uses]


def read_errors(result: ScanResult) -> list[tuple]:
    """(path, line, message in English) of every file or cell that could not be scanned."""
    return [(e.path, e.line, e.message) for e in result.errors]


def lines_of(result: ScanResult) -> list[int]:
    return [use.line for use in result.uses]


# --- aliases ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param(
            "import torch\n\ny = torch.nn.functional.grid_sample(x)\n",
            [(3, 5, "torch.nn.functional.grid_sample", "'torch' is `import torch` (line 1)")],
            id="import-torch",
        ),
        pytest.param(
            "import torch.nn.functional as F\nF.grid_sample(x)\n",
            [(2, 1, "F.grid_sample", "'F' is `import torch.nn.functional as F` (line 1)")],
            id="import-as",
        ),
        pytest.param(
            "import os\nfrom torch.nn import functional as F\n\n  \nif F:\n    F.grid_sample(x)\n",
            [(6, 5, "F.grid_sample", "'F' is `from torch.nn import functional as F` (line 2)")],
            id="from-import-as",
        ),
        pytest.param(
            "from torch.nn.functional import grid_sample as gs\nout = gs(x)\n",
            [
                (1, 33, "grid_sample", "`from torch.nn.functional import grid_sample as gs` imports it"),
                (2, 7, "gs", "'gs' is `from torch.nn.functional import grid_sample as gs` (line 1)"),
            ],
            id="from-import-name-as",
        ),
    ],
)
def test_each_alias_form_resolves_to_the_qualified_name(tmp_path, source, expected):
    write(tmp_path, "model.py", source)
    result = scan_tree(tmp_path, GRID_SAMPLE)
    assert [(u.line, u.column, u.written, u.how) for u in result.uses] == expected
    assert {(u.resolved, u.confidence, u.cell, u.path) for u in result.uses} == {
        ("torch.nn.functional.grid_sample", "high", None, "model.py")
    }


def test_an_api_assigned_to_a_local_name_is_followed(tmp_path):
    write(tmp_path, "m.py", "import torch\nup = torch.nn.functional.upsample\nup(x)\n")
    result = scan_tree(tmp_path, UPSAMPLE, Target("torch.nn.functional.upsample", "call"))
    assert [(u.line, u.column, u.written, u.target.use) for u in result.uses] == [
        (2, 6, "torch.nn.functional.upsample", "any"),  # the assignment reads the API
        (3, 1, "up", "any"),
        (3, 1, "up", "call"),
    ]
    assert result.uses[-1].how == (
        "'up' is `up = torch.nn.functional.upsample` (line 2); 'torch' is `import torch` (line 1)"
    )


def test_names_bound_outside_are_followed_into_functions_and_classes(tmp_path):
    write(
        tmp_path,
        "m.py",
        "import torch.nn.functional as F\n"
        "class Net:\n"
        "    def forward(self, x):\n"
        "        return F.grid_sample(x)\n"
        "    def other(self, x):\n"
        "        return x.grid_sample(x)\n"
        "def helper(F):\n"
        "    return F.grid_sample(x)\n",
    )
    assert [(u.line, u.column, u.written) for u in scan_tree(tmp_path, GRID_SAMPLE).uses] == [(4, 16, "F.grid_sample")]


def test_relative_imports_outside_a_root_package_never_reach_a_root(tmp_path):
    source = "from . import torch\nfrom .torch import fft\ntorch.fft(x)\nfft(x)\n"
    write(tmp_path, "loose/m.py", source)  # no __init__.py: not a package
    write(tmp_path, "pkg/__init__.py", "")
    write(tmp_path, "pkg/m.py", source)  # pkg.torch, not torch
    write(tmp_path, "torchvision/m.py", "from .. import torch\ntorch.fft(x)\n")  # above the top package
    assert scan_tree(tmp_path, FFT_CALL, FFT_FFT).uses == []


READ_IMAGE = Target("torchvision.io.read_image")
PAD = Target("torchvision.transforms.functional.pad")


def root_package(root: Path) -> None:
    """A tree that holds a code root's own package, as torchvision's source or wheel does."""
    for package in ("torchvision", "torchvision/io", "torchvision/datasets", "torchvision/transforms"):
        write(root, f"{package}/__init__.py", "")
    # neither file names a root: only their relative imports reach one
    write(
        root, "torchvision/datasets/video.py", "from ..io import read_image\n\ndef load(p):\n    return read_image(p)\n"
    )
    write(
        root, "torchvision/transforms/t.py", "from . import functional as F\nfrom .functional import *\npad(F.pad(x))\n"
    )


def test_relative_imports_in_a_root_package_resolve_against_the_file_package(tmp_path):
    root_package(tmp_path / "src")
    video, transforms = "torchvision/datasets/video.py", "torchvision/transforms/t.py"
    expected = [
        (video, 1, 18, "read_image", "`from ..io import read_image` imports it", "high"),
        (video, 4, 12, "read_image", "'read_image' is `from ..io import read_image` (line 1)", "high"),
        (transforms, 3, 1, "pad", "'pad' is assumed to come from `from .functional import *` (line 2)", "medium"),
        (transforms, 3, 5, "F.pad", "'F' is `from . import functional as F` (line 1)", "high"),
    ]
    result = scan_tree(tmp_path / "src", READ_IMAGE, PAD)
    assert [(u.path, u.line, u.column, u.written, u.how, u.confidence) for u in result.uses] == expected
    assert {u.resolved for u in result.uses} == {"torchvision.io.read_image", "torchvision.transforms.functional.pad"}
    # the package is found from the __init__.py files, wherever the scan starts
    inside = scan_tree(tmp_path / "src" / "torchvision", READ_IMAGE, PAD)
    assert [(u.path, u.line) for u in inside.uses] == [
        ("datasets/video.py", 1),
        ("datasets/video.py", 4),
        ("transforms/t.py", 3),
        ("transforms/t.py", 3),
    ]
    alone = scan([tmp_path / "src/torchvision/datasets/video.py"], [READ_IMAGE], ROOTS)
    assert [(u.path, u.line, u.resolved) for u in alone.uses] == [
        ("video.py", 1, "torchvision.io.read_image"),
        ("video.py", 4, "torchvision.io.read_image"),
    ]


def test_names_from_earlier_cells_and_tuple_assignment(tmp_path):
    write(tmp_path, "m.py", "import torch\na, b = torch.fft, len\na(x)\nb(x)\n")
    assert [(u.line, u.written) for u in scan_tree(tmp_path, FFT_CALL).uses] == [(3, "a")]


def test_a_function_body_sees_names_the_module_imports_below_it(tmp_path):
    write(
        tmp_path,
        "m.py",
        "def f(x):\n"
        "    def inner():\n"
        "        return fft_fn(x)\n"
        "    return torch.fft(x)\n"
        "class C:\n"
        "    def m(self):\n"
        "        return fft_fn(self)\n"
        "early = fft_fn(0)\n"  # module code runs in order: not yet imported here
        "import torch\n"
        "from torch import fft as fft_fn\n",
    )
    result = scan_tree(tmp_path, FFT_CALL)
    assert [(u.line, u.column, u.written) for u in result.uses] == [
        (3, 16, "fft_fn"),
        (4, 12, "torch.fft"),
        (7, 16, "fft_fn"),
    ]
    assert result.uses[1].how == "'torch' is `import torch` (line 9)"


def test_a_deferred_body_keeps_its_guard_and_its_class(tmp_path):
    write(
        tmp_path,
        "m.py",
        "try:\n"
        "    def f(x):\n"
        "        return torch.fft(x)\n"
        "except ImportError:\n"
        "    pass\n"
        "class C:\n"
        "    torch = None\n"  # a class attribute: methods do not see it
        "    def m(self):\n"
        "        return torch.fft(self)\n"
        "import torch\n",
    )
    assert [(u.line, u.guarded) for u in scan_tree(tmp_path, FFT_CALL).uses] == [(3, True), (9, False)]


# --- shadowing -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param("import torch\ndef f(torch):\n    torch.fft(x)\n", [], id="parameter"),
        pytest.param("import torch\ndef f(*, torch=None):\n    torch.fft(x)\n", [], id="keyword-parameter"),
        pytest.param("import torch\ndef torch():\n    pass\ntorch.fft(x)\n", [], id="def"),
        pytest.param("import torch\nclass torch:\n    pass\ntorch.fft(x)\n", [], id="class"),
        pytest.param("import torch\ntorch.fft(a)\ntorch = other\ntorch.fft(b)\n", [2], id="reassigned-later"),
        pytest.param("import torch\ndef f():\n    torch.fft(a)\n    torch = 1\n", [], id="local-anywhere-in-function"),
        pytest.param("import torch\ndef f():\n    torch.fft(a)\n", [3], id="module-name-in-function"),
        pytest.param("import torch\nfor torch in xs:\n    torch.fft(a)\n", [], id="for-target"),
        pytest.param("import torch\nr = [torch.fft(a) for torch in xs]\n", [], id="comprehension"),
        pytest.param("import torch\nr = [torch.fft(a) for y in xs]\nprint(y)\n", [2], id="comprehension-other-name"),
        pytest.param("import torch\nr = {torch: torch.fft(a) for torch in xs}\n", [], id="dict-comprehension"),
        pytest.param(
            "import torch\nr = [torch for torch in xs]\ntorch.fft(a)\n", [3], id="comprehension-does-not-leak"
        ),
        pytest.param("import torch\ng = lambda torch: torch.fft(a)\n", [], id="lambda"),
        pytest.param("import torch\nwith open(p) as torch:\n    torch.fft(a)\n", [], id="with-as"),
        pytest.param("import torch\ntry:\n    pass\nexcept E as torch:\n    torch.fft(a)\n", [], id="except-as"),
        pytest.param("import torch\nclass C:\n    torch = 1\n    torch.fft(a)\n", [], id="class-body"),
        pytest.param(
            "import torch\nclass C:\n    torch = 1\n    def m(self):\n        torch.fft(a)\n",
            [5],
            id="class-body-not-seen-by-methods",
        ),
        pytest.param("import torch\ndef f():\n    global torch\n    torch = 1\n    torch.fft(a)\n", [], id="global"),
        pytest.param(
            "torch = None\ndef load():\n    global torch\n    import torch\nload()\ntorch.fft(a)\n",
            [6],
            id="global-import",
        ),
        pytest.param(
            "import torch\ndef f():\n    torch = 1\n    def g():\n        nonlocal torch\n        torch.fft(a)\n",
            [],
            id="nonlocal",
        ),
        pytest.param(
            "try:\n    import torch\nexcept ImportError:\n    torch = None\ntorch.fft(a)\n",
            [5],
            id="fallback-assignment",
        ),
        pytest.param("import torch\nif x:\n    torch = None\ntorch.fft(a)\n", [4], id="api-on-one-branch-wins"),
        pytest.param("import torch\nmatch v:\n    case torch:\n        torch.fft(a)\n", [], id="match-capture"),
    ],
)
def test_shadowing_follows_python_scoping(tmp_path, source, lines):
    write(tmp_path, "m.py", source)
    assert lines_of(scan_tree(tmp_path, FFT_CALL)) == lines


# --- star imports and unknown receivers --------------------------------------------------------


def test_a_star_import_supplies_only_names_being_looked_for_with_medium_confidence(tmp_path):
    write(
        tmp_path,
        "m.py",
        "from torch.nn.functional import *\nx = 1\ngrid_sample(x)\nrelu(x)\nprint(x)\n"
        "def grid_sample():\n    pass\ngrid_sample(x)\n",
    )
    result = scan_tree(tmp_path, GRID_SAMPLE, Target("torch.nn.functional.relu"))
    assert where(result) == [
        ("m.py", 3, 1, "torch.nn.functional.grid_sample", "any", "torch.nn.functional.grid_sample", "medium"),
        ("m.py", 4, 1, "torch.nn.functional.relu", "any", "torch.nn.functional.relu", "medium"),
    ]
    assert result.uses[0].how == "'grid_sample' is assumed to come from `from torch.nn.functional import *` (line 1)"
    assert scan_tree(tmp_path, GRID_SAMPLE, confidence="high").uses == []
    # the star import itself is a use of the module, and so is each name it may supply (not builtins)
    module = scan_tree(tmp_path, Target("torch.nn.functional", "module"))
    assert [(u.line, u.column, u.resolved, u.confidence) for u in module.uses] == [
        (1, 6, "torch.nn.functional", "high"),
        (3, 1, "torch.nn.functional.grid_sample", "medium"),
        (4, 1, "torch.nn.functional.relu", "medium"),
    ]
    assert lines_of(scan_tree(tmp_path, Target("torch.nn.functional.relu"))) == [4]


def test_a_method_on_an_unknown_receiver_is_reported_only_at_low_confidence(tmp_path):
    write(
        tmp_path,
        "m.py",
        "import torch\nx = torch.zeros(3)\nx.masked_copy_(m, v)\ntorch.Tensor.masked_copy_(x, m, v)\ny.other(m)\n",
    )
    assert where(scan_tree(tmp_path, MASKED_COPY)) == [
        ("m.py", 4, 1, "torch.Tensor.masked_copy_", "any", "torch.Tensor.masked_copy_", "high")
    ]
    low = scan_tree(tmp_path, MASKED_COPY, confidence="low")
    assert where(low) == [
        ("m.py", 3, 1, "torch.Tensor.masked_copy_", "any", "torch.Tensor.masked_copy_", "low"),
        ("m.py", 4, 1, "torch.Tensor.masked_copy_", "any", "torch.Tensor.masked_copy_", "high"),
    ]
    assert low.uses[0].written == "x.masked_copy_"


def test_a_method_on_an_unknown_receiver_is_found_in_a_function_that_never_names_the_root(tmp_path):
    write(tmp_path, "m.py", "import torch\n\ndef fill(x, m, v):\n    return x.masked_copy_(m, v)\n")
    assert where(scan_tree(tmp_path, MASKED_COPY, confidence="low")) == [
        ("m.py", 4, 12, "torch.Tensor.masked_copy_", "any", "torch.Tensor.masked_copy_", "low")
    ]


DDP_JOIN = Target("torch.nn.parallel.DistributedDataParallel.join")


def test_a_method_name_that_common_objects_have_never_matches_by_the_name_alone(tmp_path):
    write(
        tmp_path,
        "m.py",
        "import os, torch\n"
        "path = os.path.join(a, b)\n"
        "text = ', '.join(names)\n"
        "model.join()\n"
        "torch.nn.parallel.DistributedDataParallel.join(model)\n",
    )
    for confidence in ("high", "medium", "low"):
        result = scan_tree(tmp_path, DDP_JOIN, confidence=confidence)
        assert [(u.line, u.confidence) for u in result.uses] == [(5, "high")], confidence
    # a method name no common object has still matches on an object of unknown type
    write(tmp_path, "m.py", "import torch\nx.masked_copy_(m, v)\nx.join()\n")
    assert lines_of(scan_tree(tmp_path, DDP_JOIN, MASKED_COPY, confidence="low")) == [2]


def test_a_method_name_alone_does_not_match_a_module_function(tmp_path):
    write(tmp_path, "m.py", "import torch\nx.grid_sample(y)\nz.fft(y)\n")
    assert scan_tree(tmp_path, GRID_SAMPLE, FFT_FFT, confidence="low").uses == []


# --- call and module uses --------------------------------------------------------------------


def test_call_and_module_uses_of_the_same_name_are_told_apart(tmp_path):
    write(
        tmp_path,
        "m.py",
        "import torch\nimport torch.fft\ntorch.fft(x)\ntorch.fft.fft(x)\nfrom torch.fft import fft\n",
    )
    result = scan_tree(tmp_path, FFT_CALL, FFT_MODULE)
    assert [(u.line, u.column, u.target.use, u.resolved) for u in result.uses] == [
        (2, 8, "module", "torch.fft"),
        (3, 1, "call", "torch.fft"),
        (4, 1, "module", "torch.fft.fft"),
        (5, 23, "module", "torch.fft.fft"),
    ]


def test_a_name_that_is_both_a_module_and_a_function_is_reported_as_ambiguous_unless_its_use_tells(tmp_path):
    write(
        tmp_path,
        "m.py",
        "import torch\nfn = torch.fft\nfrom torch import fft\nimport torch.fft\nimport torch.fft as tf\n"
        "fn(x)\nfft.fft(x)\n",
    )
    result = scan_tree(tmp_path, FFT_CALL, FFT_MODULE)
    assert [(u.line, u.column, u.target.use, u.confidence) for u in result.uses] == [
        (2, 6, "call", "medium"),
        (2, 6, "module", "medium"),
        (3, 19, "call", "medium"),
        (3, 19, "module", "medium"),
        (4, 8, "module", "high"),
        (5, 8, "module", "high"),
        (6, 1, "call", "high"),
        (7, 1, "module", "high"),
    ]
    ambiguity = "`torch.fft` is both a module and a function, and this use is not a call: it may be either"
    assert result.uses[0].how == f"'torch' is `import torch` (line 1); {ambiguity}"
    assert result.uses[2].how == f"`from torch import fft` imports it; {ambiguity}"
    assert scan_tree(tmp_path, FFT_CALL, FFT_MODULE, confidence="high").uses[0].line == 4
    # with only the module looked for, the name is not ambiguous
    assert [(u.line, u.confidence) for u in scan_tree(tmp_path, FFT_MODULE).uses][:2] == [(2, "high"), (3, "high")]


def test_a_call_records_how_it_passes_its_arguments(tmp_path):
    write(
        tmp_path,
        "m.py",
        "import torch\n"
        "torch.sum(mask)\n"
        "torch.mean(x, dim=1, keepdim=True)\n"
        "torch.mean(x, 1, True)\n"
        "torch.mean(*a)\n"
        "torch.mean(x, **kw)\n"
        "torch.mean(x, 1).sum(2)\n"
        "reduce = torch.mean\n"
        "@torch.mean\n"
        "def f(): pass\n",
    )
    result = scan_tree(tmp_path, Target("torch.sum"), Target("torch.mean"))
    assert [(u.line, u.arguments) for u in result.uses] == [
        (2, CallArguments(1, (), False, False)),
        (3, CallArguments(1, ("dim", "keepdim"), False, False)),
        (4, CallArguments(3, (), False, False)),
        (5, CallArguments(0, (), True, False)),
        (6, CallArguments(1, (), False, True)),
        (7, CallArguments(2, (), False, False)),  # the call of torch.mean, not of .sum
        (8, None),  # not a call
        (9, CallArguments(1, (), False, False)),  # a decorator is called with what it decorates
    ]


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        (CallArguments(1, (), False, False), (False, False)),
        (CallArguments(2, (), False, False), (True, False)),
        (CallArguments(1, ("dim",), False, False), (True, False)),
        (CallArguments(1, ("keepdim",), False, False), (False, True)),
        (CallArguments(0, (), True, False), (None, None)),  # torch.mean(*a)
        (CallArguments(2, (), True, False), (True, None)),  # torch.mean(x, 1, *rest)
        (CallArguments(1, (), False, True), (None, None)),  # torch.mean(x, **kw)
        (CallArguments(1, ("dim", "keepdim"), False, True), (True, True)),
    ],
)
def test_call_arguments_tell_whether_a_parameter_is_passed(arguments, expected):
    assert (arguments.passes("dim", 1), arguments.passes("keepdim", 2)) == expected
    assert arguments.passes("dtype", None) == (None if arguments.unpacked_keywords else False)  # keyword-only


def test_a_reference_is_reported_once_per_matched_target_at_the_start_of_the_chain(tmp_path):
    write(tmp_path, "m.py", "import torch\nv = torch.fft.fft(x).real\n")
    result = scan_tree(tmp_path, FFT_FFT, FFT_MODULE, FFT_CALL)
    assert [(u.line, u.column, u.target, u.written) for u in result.uses] == [
        (2, 5, FFT_MODULE, "torch.fft.fft"),
        (2, 5, FFT_FFT, "torch.fft.fft"),
    ]


def test_decorators_count_as_calls(tmp_path):
    write(tmp_path, "m.py", "import torch\n@torch.jit.script\ndef f(x):\n    return x\n")
    assert lines_of(scan_tree(tmp_path, Target("torch.jit.script", "call"))) == [2]


# --- what is not code ------------------------------------------------------------------------


def test_strings_comments_and_docstrings_never_count(tmp_path):
    write(
        tmp_path,
        "m.py",
        '"""Calls torch.fft(x)."""\nimport torch\n# torch.fft(x)\ns = "torch.fft(x)"\n'
        'def f():\n    """torch.fft(x)"""\n    return f"{s} torch.fft(x)"\n',
    )
    result = scan_tree(tmp_path, FFT_CALL)
    assert (result.uses, result.files_scanned) == ([], 1)


# --- guards ----------------------------------------------------------------------------------


def test_uses_inside_import_or_attribute_guards_are_marked(tmp_path):
    write(
        tmp_path,
        "m.py",
        "import torch\n"
        "try:\n    torch.fft(a)\nexcept ImportError:\n    torch.fft(b)\n"  # 3 guarded, 5 not
        "try:\n    torch.fft(c)\nexcept (ValueError, ModuleNotFoundError):\n    pass\n"  # 7 guarded
        "try:\n    torch.fft(d)\nexcept builtins.AttributeError:\n    pass\n"  # 11 guarded
        "try:\n    torch.fft(e)\nexcept ValueError:\n    pass\n"  # 15 not
        "if hasattr(torch, 'fft') and x:\n    torch.fft(f)\nelse:\n    torch.fft(g)\n"  # 19 guarded, 21 not
        "y = torch.fft(h) if hasattr(torch, 'fft') else None\n"  # 22 guarded
        "torch.fft(i)\n"  # 23 not
        "if not hasattr(torch, 'fft'):\n    torch.fft(j)\nelse:\n    torch.fft(k)\n",  # 25 and 27 guarded
    )
    result = scan_tree(tmp_path, FFT_CALL)
    assert [(u.line, u.guarded) for u in result.uses] == [
        (3, True),
        (5, False),
        (7, True),
        (11, True),
        (15, False),
        (19, True),
        (21, False),
        (22, True),
        (23, False),
        (25, True),
        (27, True),
    ]


# --- notebooks -------------------------------------------------------------------------------


def notebook(*cells: tuple[str, str | list[str]], metadata: dict | None = None) -> str:
    return json.dumps(
        {
            "cells": [{"cell_type": kind, "metadata": {}, "source": source} for kind, source in cells],
            "metadata": metadata or {"kernelspec": {"language": "python", "name": "python3"}},
            "nbformat": 4,
            "nbformat_minor": 5,
        },
        indent=1,
    )


def test_a_notebook_is_scanned_cell_by_cell_without_magics(tmp_path):
    write(
        tmp_path,
        "nb.ipynb",
        notebook(
            ("markdown", "# Uses torch.fft(x)"),
            (
                "code",
                ["%matplotlib inline\n", "import torch\n", "!pip install torch\n", "torch.fft(a)\n", "torch.fft?"],
            ),
            ("code", "%%bash\ntorch.fft(b)\n"),
            ("code", "for i in range(3):\n    %time torch.fft(c)\n    torch.fft(d)\nfiles = !ls\n"),
            ("raw", "torch.fft(e)"),
            ("code", "def broken(:\n"),
            ("code", "y = (x\n     % 3)\nz = torch.fft(f)"),
        ),
    )
    result = scan_tree(tmp_path, FFT_CALL)
    assert [(u.path, u.cell, u.line, u.column) for u in result.uses] == [
        ("nb.ipynb", 2, 4, 1),
        ("nb.ipynb", 4, 3, 5),
        ("nb.ipynb", 7, 3, 5),  # names imported in an earlier cell; a `%` continuation line is not a magic
    ]
    assert read_errors(result) == [("nb.ipynb", 1, "cell 6, line 1, column 12: invalid syntax; cell skipped")]
    assert result.files_scanned == 1


def test_an_empty_notebook_is_fine_and_invalid_json_is_an_error(tmp_path):
    write(tmp_path, "empty.ipynb", notebook(metadata={"title": "torch experiments"}))
    write(tmp_path, "bad.ipynb", '{\n "cells": [\n  {"source": "import torch"\n')
    result = scan_tree(tmp_path, FFT_CALL)
    assert result.uses == []
    assert read_errors(result) == [
        ("bad.ipynb", 4, "is not valid JSON (line 4: Expecting ',' delimiter); file skipped")
    ]
    assert (result.files_scanned, result.files_skipped) == (1, 0)


def test_old_notebooks_are_read_and_notebooks_in_other_languages_skipped(tmp_path):
    cells = [{"cell_type": "code", "input": ["import torch\n", "torch.fft(x)\n"]}]
    write(tmp_path, "v3.ipynb", json.dumps({"worksheets": [{"cells": cells}], "nbformat": 3}))
    write(
        tmp_path,
        "r.ipynb",
        notebook(("code", "library(torch)\ntorch.fft(x)"), metadata={"kernelspec": {"language": "R"}}),
    )
    result = scan_tree(tmp_path, FFT_CALL)
    assert [(u.path, u.cell, u.line) for u in result.uses] == [("v3.ipynb", 1, 2)]
    assert (result.files_scanned, result.files_skipped, result.errors) == (1, 1, [])


# --- bad files -------------------------------------------------------------------------------


def test_a_syntax_error_is_reported_with_its_line_and_the_scan_goes_on(tmp_path):
    # no rewriting of old syntax makes it valid: its names are found by tokens, one level lower (old_code.py)
    write(tmp_path, "a_broken.py", "import torch\n\ndef f(:\n    torch.fft(x)\n")
    write(tmp_path, "b_fine.py", "import torch\ntorch.fft(x)\n")
    result = scan_tree(tmp_path, FFT_CALL)
    assert read_errors(result) == []
    assert [(note.path, note.line) for note in result.read_otherwise] == [("a_broken.py", 3)]
    assert result.read_otherwise[0].message.startswith("cannot be parsed (line 3, column 7: invalid syntax)")
    assert where(result) == [
        ("a_broken.py", 4, 5, "torch.fft", "call", "torch.fft", "medium"),
        ("b_fine.py", 2, 1, "torch.fft", "call", "torch.fft", "high"),
    ]


def test_a_null_byte_is_reported_with_its_line(tmp_path):
    write(tmp_path, "nul.py", b"import torch\nx = 1\x00\n")
    result = scan_tree(tmp_path, FFT_CALL)
    assert read_errors(result) == [
        ("nul.py", 2, "cannot be parsed as Python (line 2: contains a null byte); file skipped")
    ]


def test_long_generated_elif_chains_and_sums_are_analysed(tmp_path):
    branches = "".join(f"elif a == {i}:\n    torch.fft({i})\n" for i in range(1500))
    write(tmp_path, "gen.py", "import torch\nif a:\n    pass\n" + branches + "y = 1" + " + 1" * 3000 + "\n")
    result = scan_tree(tmp_path, FFT_CALL)
    assert (result.errors, len(result.uses), result.uses[-1].line) == ([], 1500, 3 + 2 * 1500)


def test_a_file_that_is_not_utf8_is_reported_with_the_line_of_the_bad_byte(tmp_path):
    write(tmp_path, "latin.py", b'import torch\n# comment\n\ns = "\xb1"\ntorch.fft(s)\n')
    result = scan_tree(tmp_path, FFT_CALL)
    assert read_errors(result) == [("latin.py", 4, "cannot be decoded as UTF-8 (byte 0xb1 at line 4); file skipped")]
    assert result.uses == []


def test_a_coding_cookie_is_honoured(tmp_path):
    write(tmp_path, "latin.py", b'# -*- coding: latin-1 -*-\nimport torch\ns = "\xb1\xb1"; torch.fft(s)\n')
    result = scan_tree(tmp_path, FFT_CALL)
    assert (result.errors, [(u.line, u.column) for u in result.uses]) == ([], [(3, 11)])


def test_crlf_line_endings_and_a_bom_keep_lines_and_columns(tmp_path):
    write(
        tmp_path, "win.py", b"\xef\xbb\xbfimport torch; torch.fft(a)\r\n\r\nx = torch.fft(b)  # releasekb: ignore\r\n"
    )
    result = scan_tree(tmp_path, FFT_CALL)
    assert [(u.line, u.column, u.suppressed) for u in result.uses] == [
        (1, 15, frozenset()),
        (3, 5, frozenset({"*"})),
    ]


def test_columns_count_characters_not_utf8_bytes(tmp_path):
    write(tmp_path, "zh.py", 'import torch\ns = "中文注释"; y = torch.fft(x)\n# 说明\nz = ("变换", torch.fft(y))\n')
    result = scan_tree(tmp_path, FFT_CALL)
    assert [(u.line, u.column) for u in result.uses] == [(2, 17), (4, 12)]


def test_a_file_that_cannot_be_read_is_an_error(tmp_path, monkeypatch):
    write(tmp_path, "a.py", "import torch\ntorch.fft(x)\n")
    write(tmp_path, "secret.py", "import torch\n")
    real_open = os.open

    def open_(path, *args, **kwargs):
        if os.path.basename(path) == "secret.py":
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", open_)  # as root, a file without read permission is read anyway
    result = scan_tree(tmp_path, FFT_CALL, jobs=1)
    assert read_errors(result) == [("secret.py", 1, "cannot be read (Permission denied); file skipped")]
    assert (lines_of(result), result.files_scanned) == ([2], 1)


def test_a_file_over_the_size_limit_is_skipped_unread_and_reported(tmp_path, monkeypatch):
    from releasekb.check.scan import decoding

    write(tmp_path, "big.py", "import torch\ntorch.fft(x)\n" + "#" * 998 + "\n")  # 1,025 bytes
    write(tmp_path, "small.py", "import torch\ntorch.fft(x)\n")
    assert (tmp_path / "big.py").stat().st_size == 1025
    parsed, read = [], []
    real_parse, real_open = decoding.parse, os.open
    monkeypatch.setattr(decoding, "parse", lambda text, rel: parsed.append(rel) or real_parse(text, rel))
    monkeypatch.setattr(os, "open", lambda path, *args: read.append(os.path.basename(path)) or real_open(path, *args))
    result = scan_tree(tmp_path, FFT_CALL, jobs=1, max_file_size=1024)
    message = "is 1,025 bytes, more than the limit of 1,024 bytes (--max-file-size); file skipped"
    assert read_errors(result) == [("big.py", 1, message)]
    assert (parsed, read, [u.path for u in result.uses]) == (["small.py"], ["small.py"], ["small.py"])
    # at the limit it is read
    assert [u.path for u in scan_tree(tmp_path, FFT_CALL, jobs=1, max_file_size=1025).uses] == ["big.py", "small.py"]


def test_a_missing_path_is_an_error(tmp_path):
    result = scan([tmp_path / "nowhere"], [FFT_CALL], ROOTS)
    assert read_errors(result) == [((tmp_path / "nowhere").as_posix(), 1, "does not exist; skipped")]


# --- token scanner ---------------------------------------------------------------------------


def test_included_files_are_searched_for_whole_tokens(tmp_path):
    write(
        tmp_path,
        "ext/op.cpp",
        "#include <torch/script.h>\n"
        'static auto reg = torch::class_<Foo>("ns", "Foo");\n'
        "torch::class_foo a; mytorch::class_ b; at::torch::class_ c;\n"
        "using T = torch::class_::X;  // releasekb: ignore[torch-class]\n"
        "c10::CPUCachingAllocator d; // 中文 torch::class_\n",
    )
    write(tmp_path, "ext/op.h", "torch::class_<Bar> x;\n")  # not included
    result = scan_tree(tmp_path, CLASS_, Target("c10::CPUCachingAllocator"), include=["*.cpp"])
    assert [(u.path, u.line, u.column, u.target.name, u.suppressed) for u in result.uses] == [
        ("ext/op.cpp", 2, 19, "torch::class_", frozenset()),
        ("ext/op.cpp", 4, 11, "torch::class_", frozenset({"torch-class"})),
        ("ext/op.cpp", 5, 1, "c10::CPUCachingAllocator", frozenset()),
        ("ext/op.cpp", 5, 35, "torch::class_", frozenset()),
    ]
    first = result.uses[0]
    assert (first.written, first.resolved, first.confidence, first.guarded, first.cell) == (
        "torch::class_",
        "torch::class_",
        "medium",
        False,
        None,
    )
    assert first.how == "token match in a file included with --include"
    assert result.files_scanned == 1


# --- suppression -----------------------------------------------------------------------------


def test_suppression_comments_name_ids_or_everything_but_strings_do_not_count(tmp_path):
    write(
        tmp_path,
        "m.py",
        "import torch\n"
        "torch.fft(a)  # releasekb: ignore\n"
        "torch.fft(b)  # noqa: E501  # releasekb: ignore[torch-fft, other-id ]\n"
        "torch.fft(c, '# releasekb: ignore')\n"
        "torch.fft(d)\n",
    )
    result = scan_tree(tmp_path, FFT_CALL)
    assert [(u.line, u.suppressed) for u in result.uses] == [
        (2, frozenset({"*"})),
        (3, frozenset({"torch-fft", "other-id"})),
        (4, frozenset()),
        (5, frozenset()),
    ]


# --- which files -----------------------------------------------------------------------------


def test_excluded_and_tool_folders_are_left_out_unless_given_explicitly(tmp_path):
    use = "import torch\ntorch.fft(x)\n"
    for name in ("pkg/a.py", "pkg/tests/t.py", "build/b.py", ".venv/v.py", "node_modules/n.py", "x.egg-info/e.py"):
        write(tmp_path, name, use)
    write(tmp_path, "myenv/pyvenv.cfg", "home = /usr/bin\n")
    write(tmp_path, "myenv/lib/site.py", use)
    write(tmp_path, "pkg/gen/skip_me.py", use)
    result = scan_tree(tmp_path, FFT_CALL, exclude=["tests", "pkg/gen/*"])
    assert [u.path for u in result.uses] == ["pkg/a.py"]
    assert scan([tmp_path / "build"], [FFT_CALL], ROOTS).uses[0].path == "b.py"
    assert [u.path for u in scan([tmp_path / "pkg" / "a.py"], [FFT_CALL], ROOTS).uses] == ["a.py"]


def test_files_that_cannot_mention_a_root_are_skipped_and_counted(tmp_path):
    write(tmp_path, "uses.py", "import torch\ntorch.fft(x)\n")
    write(tmp_path, "plain.py", "import os\nos.getcwd()\n")
    write(tmp_path, "torches.py", "torches = 3\nx.masked_copy_(m)\n")
    write(tmp_path, "notes.ipynb", notebook(("code", "print(1)")))
    result = scan_tree(tmp_path, FFT_CALL, MASKED_COPY, confidence="low")
    assert (result.files_scanned, result.files_skipped) == (1, 3)
    assert lines_of(result) == [2]


def test_a_large_tree_gives_the_same_result_in_a_process_pool(tmp_path, monkeypatch):
    for index in range(60):
        body = "import torch\nimport torch.nn.functional as F\n" + "\n" * (index % 5) + f"y = F.grid_sample(x{index})\n"
        write(tmp_path, f"pkg{index % 4}/m{index:02}.py", body)
    write(tmp_path, "pkg0/broken.py", "import torch\ndef (\0\n")  # a null byte: no method reads it
    write(tmp_path, "pkg0/other.py", "print('no root here')\n")
    pools = []

    class RecordingPool(concurrent.futures.ProcessPoolExecutor):
        def __init__(self, *args, **kwargs):
            pools.append(args)
            super().__init__(*args, **kwargs)

    serial = scan_tree(tmp_path, GRID_SAMPLE, jobs=1)
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", RecordingPool)
    parallel = scan_tree(tmp_path, GRID_SAMPLE, jobs=2)
    assert pools == [(2,)]
    assert parallel == serial
    assert (len(serial.uses), serial.files_scanned, serial.files_skipped, len(serial.errors)) == (60, 60, 1, 1)
    assert serial.uses[0] == Use(
        path="pkg0/m00.py",
        line=3,
        column=5,
        cell=None,
        target=GRID_SAMPLE,
        written="F.grid_sample",
        resolved="torch.nn.functional.grid_sample",
        resolution=(message("import_name", name="F", text="import torch.nn.functional as F", line=2),),
        confidence="high",
        guarded=False,
        suppressed=frozenset(),
        arguments=CallArguments(positional=1, keywords=(), unpacked_positional=False, unpacked_keywords=False),
    )


def test_bad_arguments_are_refused(tmp_path):
    with pytest.raises(ValueError, match="confidence"):
        scan([tmp_path], [FFT_CALL], ROOTS, confidence="certain")
    with pytest.raises(ValueError, match="use must be"):
        scan([tmp_path], [Target("torch.fft", "function")], ROOTS)
