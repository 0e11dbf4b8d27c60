"""`releasekb check` on old code (issue 37, items 3, 4 and 6): a file today's Python cannot parse is
read as it was written (its older syntax rewritten on its lines, else by tokens) and the report says
how; setup.py's requirements are read from its syntax tree; `releasekb --version`; and how a name
was resolved names the import that had bound it at the use's line.

The files are small ones of our own with the shapes met in era codebases: kornia 0.2.0's
parenthesised starred element, Python 2 print statements, a setup.py with literal and computed
requirements. Expected lines and columns are found in the sources themselves.
"""

from __future__ import annotations

import importlib.metadata
import json
import warnings
from pathlib import Path

import jsonschema
import pytest

from helpers import run_check
from releasekb.check.scan import Roots, Target, scan
from releasekb.check.setup_py import Computed, setup_py_requirements
from releasekb.cli import main
from releasekb.kb import check_schema

ROOTS = Roots(python=("torch",))
RFFT = Target("torch.rfft", "call")
FFT = Target("torch.fft", "call")
UPSAMPLE = Target("torch.nn.functional.upsample")
RANGE = ("--from", "1.4", "--to", "1.7")

# kornia 0.2.0's line (valid in 3.7 and 3.8, a syntax error since 3.9), with an API the knowledge
# base knows on the line after it.
KORNIA = """import torch


def spectrum(input):
    flat = input.view((-1, (*input.shape[-3:])))
    return torch.rfft(flat, 1)
"""

# Python 2: print statements (one printing to a file), `except E, e`, backticks, an octal literal
# that shifts the columns after it, and uses of known APIs among them.
PYTHON2 = """import torch
import torch.nn.functional as F


def main(x, log):
    print "spectrum", torch.fft(x, 1)
    try:
        y = F.upsample(x, 2)
    except ValueError, e:
        print >>log, `e`
    print >>log, 0777, torch.fft(y, 1)
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def position(text: str, needle: str, occurrence: int = 0) -> tuple[int, int]:
    """(line, 1-based column) of the `occurrence`-th line holding `needle`, in the text as written."""
    found = [(n, line.index(needle) + 1) for n, line in enumerate(text.splitlines(), start=1) if needle in line]
    return found[occurrence]


def places(result) -> list[tuple]:
    return [(u.path, u.line, u.column, u.target.name, u.confidence) for u in result.uses]


# --- item 3: old code is read ---------------------------------------------------------------


def test_kornia_parenthesised_starred_element_is_read_and_its_uses_found(tmp_path):
    write(tmp_path, "color.py", KORNIA)
    result = scan([tmp_path], [RFFT], ROOTS, jobs=1)
    assert result.errors == []
    assert places(result) == [("color.py", *position(KORNIA, "torch.rfft"), "torch.rfft", "high")]
    (note,) = result.read_otherwise
    assert (note.path, note.line) == ("color.py", position(KORNIA, "(*input")[0])
    assert "`(*x)`" in note.message and "rewritten" in note.message


def test_python2_print_statements_are_read_with_columns_as_written(tmp_path):
    write(tmp_path, "legacy.py", PYTHON2)
    result = scan([tmp_path], [FFT, UPSAMPLE], ROOTS, jobs=1)
    assert result.errors == []
    expected = [
        ("legacy.py", *position(PYTHON2, "torch.fft"), "torch.fft", "high"),
        ("legacy.py", *position(PYTHON2, "F.upsample"), "torch.nn.functional.upsample", "high"),
        # after `0777`, rewritten `0o777`: the column is still the one of the line as written
        ("legacy.py", *position(PYTHON2, "torch.fft", 1), "torch.fft", "high"),
    ]
    assert places(result) == expected
    (note,) = result.read_otherwise
    for form in ("`print x`", "`except E, e`", "`0777`", "`` `x` ``"):
        assert form in note.message


BROKEN = """import torch as th
from torch.nn.functional import (
    upsample as up,
)
def f(x:
    return th.fft(up(x, 2), 1)
label = "th.fft(x, 1)"  # th.fft
"""


def test_code_no_rewriting_makes_valid_is_read_by_tokens_one_confidence_lower(tmp_path):
    write(tmp_path, "broken.py", BROKEN)
    result = scan([tmp_path], [FFT, UPSAMPLE], ROOTS, jobs=1)
    assert result.errors == []
    # the string and the comment are not uses; the names resolve through the imports, brackets and all
    assert places(result) == [
        ("broken.py", *position(BROKEN, "th.fft"), "torch.fft", "medium"),
        ("broken.py", *position(BROKEN, "up(x"), "torch.nn.functional.upsample", "medium"),
    ]
    assert "import torch as th" in result.uses[0].how and "tokens" in result.uses[0].how
    assert "`from torch.nn.functional import upsample as up` (line 2)" in result.uses[1].how
    (note,) = result.read_otherwise
    assert note.reason.kind == "read_by_tokens_file" and note.line == position(BROKEN, "def f(x:")[0]


def test_a_python2_notebook_cell_is_read_rewritten_and_a_broken_one_stays_unreadable(tmp_path):
    cells = [
        {"cell_type": "code", "source": ["import torch\n"]},
        {"cell_type": "code", "source": ["%matplotlib inline\n", "print >>log, 0777, torch.fft(x, 1)\n"]},
        {"cell_type": "code", "source": ["def broken(:\n", "    torch.fft(x, 1)\n"]},
    ]
    write(tmp_path, "era.ipynb", json.dumps({"cells": cells, "metadata": {}, "nbformat": 4}))
    result = scan([tmp_path], [FFT], ROOTS, jobs=1)
    column = cells[1]["source"][1].index("torch.fft") + 1
    assert [(u.cell, u.line, u.column, u.confidence) for u in result.uses] == [(2, 2, column, "high")]
    assert [(note.reason.kind, dict(note.reason.params)["cell"]) for note in result.read_otherwise] == [
        ("cell_read_rewritten", 2)
    ]
    assert [(error.reason.kind, dict(error.reason.params)["cell"]) for error in result.errors] == [
        ("cell_not_python", 3)
    ]


def test_old_code_does_not_fail_the_run_and_the_report_names_the_method(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "src/color.py", KORNIA)
    write(tmp_path, "src/legacy.py", PYTHON2)
    status, out, err = run_check(capsys, "src", *RANGE, "--fail-on", "unreadable", "--no-cache")
    assert status == 0, err
    assert "Old code read another way (2)" in out and "unreadable" not in out.split("Old code")[0].lower()
    assert f"src/color.py:{position(KORNIA, 'torch.rfft')[0]}:" in out  # its use is among the findings
    status, out, _ = run_check(capsys, "src", *RANGE, "--format", "json", "--no-cache")
    report = json.loads(out)
    jsonschema.validate(report, check_schema.schema())
    assert report["errors"] == [] and status == 1  # the deprecated uses fail it, as in new code
    assert {(note["path"], note["method"]) for note in report["read_otherwise"]} == {
        ("src/color.py", "rewritten"),
        ("src/legacy.py", "rewritten"),
    }
    assert {finding["path"] for finding in report["findings"]} == {"src/color.py", "src/legacy.py"}


def test_old_code_read_otherwise_is_kept_by_the_cache(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "src/color.py", KORNIA)
    first = run_check(capsys, "src", *RANGE, "--format", "json")
    second = run_check(capsys, "src", *RANGE, "--format", "json", "--stats")
    assert "took 1 from the cache" in second[2]
    assert json.loads(second[1]) == json.loads(first[1]) and json.loads(first[1])["read_otherwise"]


@pytest.mark.parametrize(("fail_on", "fails"), [((), True), (("--fail-on", "deprecated"), False)])
def test_the_unreadable_heading_says_whether_those_files_fail_the_run(tmp_path, monkeypatch, capsys, fail_on, fails):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "latin.py").write_bytes(b"import torch\nname = '\xe9'\n")  # not UTF-8: no method reads it
    status, out, _ = run_check(capsys, "src", *RANGE, *fail_on, "--no-cache")
    assert status == (1 if fails else 0)
    heading = next(line for line in out.splitlines() if line.startswith("Files that could not be checked"))
    assert ("they fail the run" in heading) is fails and ("do not fail the run" in heading) is not fails


# --- item 4: setup.py requirements ----------------------------------------------------------

SETUP_PY = """from setuptools import setup

REQUIRES = [
    "numpy",
    "torch>=1.0.0",
]


def read_requirements():
    return open("requirements-dev.txt").read().splitlines()


setup(
    name="old",
    install_requires=REQUIRES,
    extras_require=dict(
        vision=["torchvision", "torch>=1.2"],
        dev=read_requirements(),
    ),
)
"""


def test_setup_py_literals_and_constants_are_read_and_computed_values_named():
    found = setup_py_requirements(SETUP_PY)
    literal = [(line, text) for line, text in found if isinstance(text, str)]
    assert literal == [
        (position(SETUP_PY, '"numpy"')[0], "numpy"),
        (position(SETUP_PY, '"torch>=1.0.0"')[0], "torch>=1.0.0"),
        (position(SETUP_PY, '"torchvision"')[0], "torchvision"),
        (position(SETUP_PY, '"torch>=1.2"')[0], "torch>=1.2"),
    ]
    assert [(line, text) for line, text in found if isinstance(text, Computed)] == [
        (position(SETUP_PY, "dev=read_requirements()")[0], Computed("extras_require"))
    ]


@pytest.mark.parametrize(
    ("call", "field"),
    [
        ("setup(install_requires=read_requirements())", "install_requires"),
        ("REQUIRES.append('x')\nsetup(install_requires=REQUIRES)", None),  # a constant changed later
        ("setup(**options)", "**options"),
        ("setup(install_requires=['torch>=' + VERSION])", "install_requires"),
    ],
)
def test_setup_py_values_known_only_when_it_runs_are_computed(call, field):
    text = f"REQUIRES = ['torch>=1.0']\nREQUIRES += ['numpy']\n{call}\n"
    found = setup_py_requirements(text)
    assert all(isinstance(value, Computed) for _, value in found) and found
    if field is not None:
        assert found[0][1] == Computed(field)


def test_setup_py_requirement_is_declared_and_checked(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "setup.py", SETUP_PY)
    write(tmp_path, "old/fft.py", "import torch\nspectrum = torch.fft.fft(torch.zeros(4))\n")
    status, out, _ = run_check(capsys, ".", *RANGE, "--format", "json", "--no-cache")
    report = json.loads(out)
    jsonschema.validate(report, check_schema.schema())
    lines = {position(SETUP_PY, '"torch>=1.0.0"')[0], position(SETUP_PY, '"torch>=1.2"')[0]}
    assert {(d["path"], d["line"]) for d in report["declared"]} == {("setup.py", line) for line in lines}
    assert {(f["path"], f["line"]) for f in report["findings"] if f["kind"] == "requirement"} == {
        ("setup.py", line) for line in lines
    }
    assert report["declared_not_readable"] == [
        {"field": "extras_require", "path": "setup.py", "line": position(SETUP_PY, "dev=")[0]}
    ]
    assert status == 1
    _, text, _ = run_check(capsys, ".", *RANGE, "--no-cache")
    assert "Requirement not readable from setup.py: `extras_require`" in text
    assert "No declared requirement" not in text


def test_a_setup_py_that_only_computes_is_said_so_not_nothing_declared(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "setup.py", "from setuptools import setup\nsetup(install_requires=open('r.txt').readlines())\n")
    write(tmp_path, "a.py", "import torch\nx = torch.fft.fft(torch.zeros(4))\n")
    _, text, _ = run_check(capsys, ".", *RANGE, "--no-cache")
    assert "Requirement not readable from setup.py: `install_requires`" in text and "(setup.py:2)" in text
    assert "No declared requirement" not in text


def test_setup_py_arguments_from_a_constant_dict_are_read():
    """torchtext 0.5.0 and kymatio 0.2.0: `setup_info = dict(...)`, then `setup(**setup_info)`."""
    text = (
        "from setuptools import setup\n"
        "with open('requirements.txt') as f:\n"
        "    REQUIREMENTS = f.read().split()\n"
        "info = dict(name='x', install_requires=['torch>=1.2'], extras_require={'all': REQUIREMENTS})\n"
        "setup(**info)\n"
    )
    assert setup_py_requirements(text) == [(4, "torch>=1.2"), (4, Computed("extras_require"))]


def test_a_python2_setup_py_is_read_too():
    text = 'from distutils.core import setup\nprint "building"\nsetup(install_requires=["torch>=0.4"])\n'
    assert setup_py_requirements(text) == [(3, "torch>=0.4")]


# --- item 6: --version, and the import that binds a name at the use's line -------------------


def test_version_prints_the_installed_version(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.split() == ["releasekb", importlib.metadata.version("releasekb")]


def test_how_names_the_import_bound_at_the_uses_line_not_a_later_one(tmp_path):
    lines = ["import torch", *[""] * 7, "def f(x):", "    return torch.fft(x, 1)", *[""] * 9, "import torch.fft"]
    lines.append("y = torch.fft(1, 1)")
    write(tmp_path, "m.py", "\n".join(lines) + "\n")
    result = scan([tmp_path], [FFT], ROOTS, jobs=1)
    how = {use.line: use.how for use in result.uses}
    assert how == {
        10: "'torch' is `import torch` (line 1)",  # in a function body, walked when the module has run
        21: "'torch' is `import torch.fft` (line 20)",
    }


def test_the_compilers_warnings_about_old_code_are_not_printed(tmp_path):
    """`"\\d"` warns when compiled (DeprecationWarning, SyntaxWarning since 3.12): check never runs the
    code, and a run over old code would print one warning per string."""
    write(tmp_path, "pattern.py", 'import torch\nDIGITS = "\\d+"\nprint "x", torch.fft(x, 1)\n')
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = scan([tmp_path], [FFT], ROOTS, jobs=1)
    assert [use.line for use in result.uses] == [3] and caught == []
