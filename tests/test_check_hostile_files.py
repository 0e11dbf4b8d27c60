"""Whatever a repository holds, `releasekb check` reads only regular files, within its size
limit, and never blocks: a named pipe, a device or a socket under a `.py` name (or a symbolic link
to one) is listed as skipped with what it is; a notebook nested too deep is that file's unreadable
line; any unexpected problem in one file is that file's unreadable line, in this process or in a
worker, never a traceback; and a notebook's lines are placed in time linear in its cells.

A hang is caught by a subprocess timeout, which fails the test; work is counted, never timed.
"""

from __future__ import annotations

import concurrent.futures
import json
import os
import subprocess

import jsonschema
import pytest

from helpers import FFT_MODULE, REAL_KB, SARIF_SCHEMA, command_env, releasekb_command, run_check
from releasekb.check import notebook_lines
from releasekb.check.scan import decoding, pool
from releasekb.check.scan.notebooks import MAX_NOTEBOOK_DEPTH
from releasekb.kb import check_schema

HANG = 60  # seconds: far more than a check of a few files takes; reaching it means check waited
FIFO_SKIPPED = "is a named pipe (FIFO), not a regular file; not read, skipped"
NO_UNREADABLE = ("--fail-on", "removed,breaking,deprecated")  # what fails the run, unreadable files aside
CLEAN = "import torch\n\nvalue = torch.zeros(3)\n"  # no finding of a kind that fails the run


def check_in_subprocess(folder, *args: str) -> subprocess.CompletedProcess:
    """`releasekb check ARGS` in `folder`, in its own process: a hang is the test's failure."""
    command = releasekb_command("--data", str(REAL_KB), "check", *args)
    try:
        return subprocess.run(command, cwd=folder, capture_output=True, text=True, env=command_env(), timeout=HANG)
    except subprocess.TimeoutExpired:
        pytest.fail(f"`releasekb check {' '.join(args)}` did not end within {HANG} s: it waited on a file")


def notebook(*cell_sources: str | list[str], metadata: object = None) -> str:
    """A notebook's JSON as Jupyter writes it (each item of a list source on a line of its own)."""
    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "source": source} for source in cell_sources]
    return json.dumps({"cells": cells, "metadata": metadata or {}, "nbformat": 4, "nbformat_minor": 5}, indent=1)


# --------------------------------------------------------------------------- not regular files


def test_a_fifo_named_like_python_is_skipped_in_every_format_never_waited_on(code, capsys):
    folder = code(**{"a.py": CLEAN})
    os.mkfifo(folder / "f.py")  # opened for reading, it waited for a writer forever

    text = check_in_subprocess(folder, ".")  # with the cache, which hashes every file first
    assert (text.returncode, text.stderr) == (0, "")
    assert f"Skipped, not regular files (1)\n  f.py: {FIFO_SKIPPED}\n" in text.stdout
    assert "1 file checked" in text.stdout and text.stdout.splitlines()[-2].endswith("; 1 skipped (not regular files)")

    # it did not block in a process of its own: the other formats, in this one
    status, out, _ = run_check(capsys, ".", "--format", "json")
    report = json.loads(out)
    assert report["not_regular"] == [{"path": "f.py", "message": FIFO_SKIPPED}]
    assert (status, report["errors"], report["failed"], report["files_checked"]) == (0, [], False, 1)
    assert not list(jsonschema.Draft202012Validator(check_schema.schema()).iter_errors(report))

    github = run_check(capsys, ".", "--format", "github")[1]
    assert f"::notice file=f.py,title=releasekb::{FIFO_SKIPPED}" in github.splitlines()

    sarif = json.loads(run_check(capsys, ".", "--format", "sarif")[1])
    sarif_schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    assert not list(jsonschema.Draft4Validator(sarif_schema).iter_errors(sarif))
    notes = sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    skipped = [note for note in notes if note["message"]["text"] == FIFO_SKIPPED]
    assert [note["level"] for note in skipped] == ["note"]
    assert skipped[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "f.py"


def test_a_fifo_given_by_name_is_skipped_not_called_missing(code):
    folder = code(**{"a.py": CLEAN})
    os.mkfifo(folder / "f.py")
    result = check_in_subprocess(folder, "f.py", "a.py", "--format", "json")
    report = json.loads(result.stdout)
    assert (result.returncode, report["not_regular"], report["errors"]) == (
        0,
        [{"path": "f.py", "message": FIFO_SKIPPED}],
        [],
    )


def test_a_symlink_to_a_fifo_is_skipped_and_one_to_a_file_past_the_limit_is_not_read(code, tmp_path, capsys):
    folder = code(**{"a.py": CLEAN})
    os.mkfifo(tmp_path / "pipe")
    os.symlink(tmp_path / "pipe", folder / "z.py")
    with open(tmp_path / "sparse", "wb") as sparse:
        sparse.truncate(6_000_000)  # over the default 5 MB limit, and nothing written to disk
    os.symlink(tmp_path / "sparse", folder / "big.py")

    result = check_in_subprocess(folder, ".", "--format", "json")
    report = json.loads(result.stdout)
    link = f"is a symbolic link to {tmp_path / 'pipe'}, a named pipe (FIFO), not to a regular file; not read, skipped"
    assert report["not_regular"] == [{"path": "z.py", "message": link}]
    too_large = "is 6,000,000 bytes, more than the limit of 5,000,000 bytes (--max-file-size); file skipped"
    assert report["errors"] == [{"path": "big.py", "line": 1, "message": too_large}]
    # the file over the limit counts as unreadable, as it always did (--fail-on's `unreadable`)
    assert (result.returncode, report["failed"], result.stderr) == (1, True, "")
    assert run_check(capsys, ".", *NO_UNREADABLE)[0] == 0


# --------------------------------------------------------------------------- notebooks


def test_a_notebook_nested_deeper_than_a_notebook_is_is_its_unreadable_line(code, capsys):
    deep = "[" * 1000 + "]" * 1000  # 2 KB that parsing recursed into, a level at a time
    code(**{"deep.ipynb": notebook("import torch\n", metadata={"x": "PLACEHOLDER"}).replace('"PLACEHOLDER"', deep)})
    line = f"deep.ipynb:1: is JSON nested more than {MAX_NOTEBOOK_DEPTH} levels deep, deeper than a notebook is"

    status, out, err = run_check(capsys, ".", "--no-cache")
    assert line in out and "Traceback" not in out + err
    assert status == 1  # an unreadable file fails the run by default (--fail-on's `unreadable`)
    assert run_check(capsys, ".", "--no-cache", *NO_UNREADABLE)[0] == 0


def test_a_notebook_at_the_nesting_limit_is_scanned(code, capsys):
    # levels: the notebook, its metadata, a list holding a string, and lists down to the limit
    nested = "[" * (MAX_NOTEBOOK_DEPTH - 3) + "]" * (MAX_NOTEBOOK_DEPTH - 3)
    text = notebook("import torch\nx = torch.fft(s, 1)\n", metadata={"x": "PLACEHOLDER"})
    code(**{"edge.ipynb": text.replace('"PLACEHOLDER"', f'["[[[\\\\", {nested}]')})  # brackets in strings do not count
    status, out, _ = run_check(capsys, ".", "--no-cache", "--format", "json")
    report = json.loads(out)
    assert (report["errors"], [f["path"] for f in report["findings"]]) == ([], ["edge.ipynb"])


class CountingText(str):
    """A text that counts the characters its searches go over: the work of placing lines."""

    def __new__(cls, text: str):
        counted = super().__new__(cls, text)
        counted.work = 0
        return counted

    def count(self, sub, start=0, end=None):
        end = len(self) if end is None else end
        self.work += max(end - start, 0)
        return super().count(sub, start, end)


def test_placing_a_notebooks_lines_is_linear_in_its_cells():
    """The lines of a notebook's cells in the file (SARIF and GitHub annotations, and every report
    of a notebook with a finding): 10,000 cells took 43 s, counting from the start for each one."""

    def work(cells: int) -> int:
        text = CountingText(notebook(*[["import torch\n", f"x{n} = torch.fft(s, 1)\n"] for n in range(cells)]))
        lines = notebook_lines.cell_line_numbers(text)
        last = str.count(text, "\n", 0, text.rindex('"import torch')) + 1  # the last cell's first line
        assert (len(lines), lines[cells]) == (cells, [last, last + 1])
        return text.work

    small, large = work(1000), work(4000)
    assert small > 0
    assert 3.5 < large / small < 4.5, (small, large)  # counting from the start each time made it 16


# --------------------------------------------------------------------------- unexpected exceptions


@pytest.mark.parametrize(
    ("error", "reason"),
    [
        (RuntimeError("a bug"), "could not be scanned (RuntimeError: a bug); file skipped"),
        (ValueError("bad value"), "could not be scanned (ValueError: bad value); file skipped"),
        (UnicodeError("no"), "could not be scanned (UnicodeError: no); file skipped"),
        (RecursionError(), "too deeply nested to analyse; file skipped"),
        (MemoryError(), "ran out of memory while being scanned; file skipped"),
    ],
)
def test_an_unexpected_exception_in_one_file_is_its_unreadable_line(code, capsys, monkeypatch, error, reason):
    code(**{"a.py": FFT_MODULE, "bad.py": FFT_MODULE, "c.ipynb": notebook(FFT_MODULE)})
    real_parse = decoding.parse

    def parse(text, rel):
        if rel == "bad.py":
            raise error
        return real_parse(text, rel)

    monkeypatch.setattr(decoding, "parse", parse)
    status, out, err = run_check(capsys, ".", "--format", "json", *NO_UNREADABLE)
    report = json.loads(out)
    assert (status, err) == (0, "")
    assert report["errors"] == [{"path": "bad.py", "line": 1, "message": reason}]
    assert {finding["path"] for finding in report["findings"]} == {"a.py", "c.ipynb"}

    # the failure is not kept in the cache: the next run scans the file again
    monkeypatch.setattr(decoding, "parse", real_parse)
    report = json.loads(run_check(capsys, ".", "--format", "json")[1])
    assert (report["errors"], {f["path"] for f in report["findings"]}) == ([], {"a.py", "bad.py", "c.ipynb"})


def test_an_unexpected_exception_in_a_worker_is_that_files_line(code, capsys, monkeypatch):
    """In the process pool: the exception maps to the file it came from, the run goes on."""
    files = {f"m{n:02}.py": FFT_MODULE for n in range(pool.PARALLEL_THRESHOLD + 1)}
    # an integer of 5,000 digits: json refuses to convert it (ValueError), in any process
    files["huge.ipynb"] = notebook(FFT_MODULE, metadata={"n": "PLACEHOLDER"}).replace('"PLACEHOLDER"', "9" * 5000)
    code(**files)
    pools = []

    class Counted(concurrent.futures.ProcessPoolExecutor):
        def __init__(self, *args, **kwargs):
            pools.append(self)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Counted)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)  # a pool even on a machine of one core
    status, out, err = run_check(capsys, ".", "--format", "json", "--no-cache", *NO_UNREADABLE)
    report = json.loads(out)
    assert (status, err, len(pools)) == (0, "", 1)
    assert [(e["path"], e["message"].split(":")[0]) for e in report["errors"]] == [
        ("huge.ipynb", "could not be scanned (ValueError")
    ]
    assert {finding["path"] for finding in report["findings"]} == set(files) - {"huge.ipynb"}
