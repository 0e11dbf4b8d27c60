"""Where a notebook cell's source lines are in the notebook file itself.

The scanner reports a use in a notebook by cell and line inside the cell. GitHub code scanning
shows an alert on a line of the file as it is stored, and a notebook is stored as JSON: the SARIF
report places such a use on the line of the JSON text that holds that source line (Jupyter writes
each source line as its own string, one a line), so the alert opens on the code it is about.
place_in_notebook_files gives each finding in a notebook that line (Finding.file_line).
"""

from __future__ import annotations

import dataclasses
import json
import json.decoder
import json.scanner
import posixpath
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from releasekb.check.report import Report


class _Placed(str):
    """A JSON string value that remembers the offset of its opening quote in the document."""

    offset: int


def _placing_decoder() -> json.JSONDecoder:
    """A JSONDecoder whose string values are _Placed. Only the pure-Python scanner lets a decoder
    replace how strings are parsed; object keys stay plain strings."""
    decoder = json.JSONDecoder()

    def parse_string(text: str, end: int, strict: bool) -> tuple[str, int]:
        value, after = json.decoder.scanstring(text, end, strict)
        placed = _Placed(value)
        placed.offset = end - 1
        return placed, after

    decoder.parse_string = parse_string
    decoder.scan_once = json.scanner.py_make_scanner(decoder)
    return decoder


def cell_line_numbers(text: str) -> dict[int, list[int]]:
    """{cell number (1 = first cell, as the scanner counts them): [the file line of each of its
    source lines]} for a notebook's JSON text; {} when it is not a notebook this can read.

    >>> cell_line_numbers('{"cells": [\\n {"cell_type": "markdown", "source": ["# T"]},\\n'
    ...                   ' {"cell_type": "code", "source": [\\n  "import torch\\\\n",\\n  "x = 1"\\n ]}\\n]}')
    {1: [2], 2: [4, 5]}
    """
    try:
        notebook = _placing_decoder().decode(text)
    except (ValueError, RecursionError):
        return {}
    if not isinstance(notebook, dict):
        return {}
    cells = notebook.get("cells")
    if cells is None and isinstance(notebook.get("worksheets"), list):  # nbformat 3, as the scanner reads it
        cells = [c for sheet in notebook["worksheets"] if isinstance(sheet, dict) for c in sheet.get("cells", [])]
    if not isinstance(cells, list):
        return {}
    line_at = _LineCounter(text)
    return {
        number: _source_lines(line_at, cell.get("source", cell.get("input", "")))
        for number, cell in enumerate(cells, start=1)
        if isinstance(cell, dict)
    }


class _LineCounter:
    """The line of an offset in a text, counting only the newlines since the offset asked before:
    the cells' strings are asked for in the order they are written, so a whole notebook costs one
    pass over its text (counting from the start each time was quadratic: 10,000 cells took 40 s)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.offset = 0
        self.line = 1

    def __call__(self, offset: int) -> int:
        if offset < self.offset:  # out of order (a hand-made notebook): count from the start again
            self.offset, self.line = 0, 1
        self.line += self.text.count("\n", self.offset, offset)
        self.offset = offset
        return self.line


def _source_lines(line_at: _LineCounter, source: object) -> list[int]:
    """The file line of each line of a cell's source (a string, or a list of strings that the
    scanner joins): a JSON string never spans lines, so each source line is on its string's line."""
    parts = source if isinstance(source, list) else [source]
    lines: list[int] = []
    at_start = True  # the next character begins a line
    for part in parts:
        if not isinstance(part, _Placed) or not part:
            continue
        file_line = line_at(part.offset)
        # lines beginning in this part: at its start, and after each newline but a final one
        lines += [file_line] * ((1 if at_start else 0) + part.count("\n", 0, len(part) - 1))
        at_start = part.endswith("\n")
    return lines


# --------------------------------------------------------------------------- notebooks as files


def notebook_files(groups: list[tuple[str, list[str]]], results: list) -> dict[str, Path]:
    """{notebook as reports show it: the file on disk} for every notebook with a use. The scanner
    names a file of a folder scanned relative to the folder, and a file given by itself by its name
    (see scan_groups)."""
    files = {}
    for (prefix, group), (_, result) in zip(groups, results, strict=True):
        given = {Path(path).name: Path(path) for path in group if not Path(path).is_dir()}
        for use in result.uses:
            on_disk = Path(group[0]) / use.path if Path(group[0]).is_dir() else given.get(use.path)
            if use.cell is not None and on_disk is not None:
                files[posixpath.join(prefix, use.path) if prefix else use.path] = on_disk
    return files


def place_in_notebook_files(report: Report, files: dict[str, Path], limit: int | None) -> None:
    """Give each finding in a notebook the line of the notebook file that holds it (file_line).
    The file is read again as the scanner read it: a regular file within `limit` bytes only."""
    from releasekb.check.scan.reading import read_regular_text

    lines_of: dict[str, dict[int, list[int]]] = {}
    for number, finding in enumerate(report.findings):
        if finding.cell is None or finding.path not in files:
            continue
        if finding.path not in lines_of:
            try:
                text = read_regular_text(files[finding.path], limit, "utf-8-sig")
                # lines as a text-mode read counts them (universal newlines)
                lines_of[finding.path] = cell_line_numbers(text.replace("\r\n", "\n").replace("\r", "\n"))
            except (OSError, UnicodeDecodeError):
                lines_of[finding.path] = {}
        cell_lines = lines_of[finding.path].get(finding.cell, [])
        if 1 <= finding.line <= len(cell_lines):
            report.findings[number] = dataclasses.replace(finding, file_line=cell_lines[finding.line - 1])
