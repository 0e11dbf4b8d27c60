"""Jupyter notebooks: their cells read from nbformat 3 or 4, IPython magics set aside, and the
code cells analysed in order, as one module. A notebook's size is the scanner's file size limit;
its JSON nesting is bounded here, before it is parsed (the parser recurses once per level)."""

from __future__ import annotations

import ast
import json
import re

from releasekb.check.messages import message
from releasekb.check.scan import decoding
from releasekb.check.scan.analyzer import PythonAnalyzer
from releasekb.check.scan.decoding import decode_utf8, deep_recursion
from releasekb.check.scan.jobs import SKIPPED, Job, Outcome, failed
from releasekb.check.scan.model import FileError
from releasekb.check.scan.old_code import columns_as_written, parse_rewritten, rewritten_note
from releasekb.check.scan.targets import (
    Config,
)

# IPython syntax that is not Python: line magics, shell escapes, `x = !cmd`, help requests.
# (A line ending in `?` counts only without a comment or a string on it: `x = 1  # why?` is code.)
_MAGIC_LINE = re.compile(r"^([ \t]*)(?:[%!?]|[^#'\"]*\?[ \t]*$|[\w., \t]+=[ \t]*[%!])")

# A notebook nests a handful of levels (notebook, cells, a cell, its outputs, their data and
# metadata); widgets' state adds a few. Deeper is not a notebook, and parsing it would recurse as deep.
MAX_NOTEBOOK_DEPTH = 100
_JSON_NESTING = re.compile(r'[\[\]{}"\\]')  # what opens or closes a level or a string, and escapes


def _without_magics(source: str) -> str | None:
    """The cell as Python, magic lines turned into `pass` so line numbers stay; None for a `%%` cell."""
    lines = source.split("\n")
    first = next((line.strip() for line in lines if line.strip()), "")
    if first.startswith("%%"):
        return None
    for index, line in enumerate(lines):
        match = _MAGIC_LINE.match(line)
        if match:
            lines[index] = match.group(1) + "pass"
    return "\n".join(lines)


def cell_source(cell: dict) -> str:
    source = cell.get("source", cell.get("input", ""))
    if isinstance(source, list):
        return "".join(part if isinstance(part, str) else "" for part in source)
    return source if isinstance(source, str) else ""


def notebook_cells(notebook: object) -> list | None:
    """nbformat 4 keeps cells at the top; nbformat 3 in worksheets. None when it is not a notebook."""
    if not isinstance(notebook, dict):
        return None
    cells = notebook.get("cells")
    if cells is None and isinstance(notebook.get("worksheets"), list):
        cells = [c for sheet in notebook["worksheets"] if isinstance(sheet, dict) for c in sheet.get("cells", [])]
    if cells is None:
        return []
    return cells if isinstance(cells, list) else None


def _notebook_language(notebook: dict) -> str:
    metadata = notebook.get("metadata")
    if not isinstance(metadata, dict):
        return ""
    for key, field in (("kernelspec", "language"), ("language_info", "name")):
        section = metadata.get(key)
        if isinstance(section, dict) and isinstance(section.get(field), str):
            return section[field].lower()
    return ""


def _cell_tree(source: str, rel: str) -> tuple[ast.Module | None, str, tuple[int, str] | None]:
    """Parse a cell as written first (a line starting with `%` may be a continued modulo), else without magics."""
    tree, failure = decoding.parse(source, rel)
    if tree is not None:
        return tree, source, None
    cleaned = _without_magics(source)
    if cleaned is None:
        return None, "", None
    tree, failure = decoding.parse(cleaned, rel)
    return tree, cleaned, failure


def _nested_deeper_than(text: str, limit: int) -> bool:
    """Whether JSON text opens more than `limit` arrays or objects inside each other, brackets in
    strings not counted; one pass, without parsing (invalid JSON is the parser's to report)."""
    if text.count("[") + text.count("{") <= limit:
        return False
    depth, in_string, escaped = 0, False, -1
    for match in _JSON_NESTING.finditer(text):
        at, char = match.start(), match.group()
        if at == escaped:
            continue
        if char == "\\":
            escaped = at + 1  # the next character is part of an escape
        elif char == '"':
            in_string = not in_string
        elif in_string:
            continue
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


def _load_notebook(data: bytes, rel: str) -> tuple[dict | None, list | None, Outcome | None]:
    text, failure = decode_utf8(data)
    if text is None:
        return None, None, failed(rel, *failure)
    if _nested_deeper_than(text, MAX_NOTEBOOK_DEPTH):
        return None, None, failed(rel, 1, message("notebook_too_deep", limit=MAX_NOTEBOOK_DEPTH))
    try:
        notebook = json.loads(text)
    except json.JSONDecodeError as error:
        return None, None, failed(rel, error.lineno, message("invalid_json", line=error.lineno, why=error.msg))
    cells = notebook_cells(notebook)
    if cells is None:
        return None, None, failed(rel, 1, message("not_notebook"))
    return notebook, cells, None


def scan_notebook(job: Job, data: bytes, config: Config) -> Outcome:
    notebook, cells, failed = _load_notebook(data, job.rel)
    if failed is not None:
        return failed
    if _notebook_language(notebook) not in ("", "python", "python3", "ipython", "ipython3"):
        return SKIPPED  # an R or Julia notebook cannot use a Python package
    analyzer = PythonAnalyzer(config, job.rel)  # one analyzer: later cells see earlier cells' imports
    errors: list[FileError] = []
    for index, cell in enumerate(cells, start=1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        tree, source, failure = _cell_tree(cell_source(cell), job.rel)
        old = None if failure is None or not decoding.syntax_error(failure) else parse_rewritten(source, job.rel)
        if old is not None:  # old code, a Python 2 `print x`: read as it was written (old_code.py)
            tree, fixed = old
            forms = rewritten_note(fixed)
            errors.append(
                FileError(job.rel, failure[0], message("cell_read_rewritten", cell=index, why=failure[1], forms=forms))
            )
        elif failure is not None:
            errors.append(FileError(job.rel, failure[0], message("cell_not_python", cell=index, why=failure[1])))
        if tree is None:
            continue
        first = len(analyzer.uses)
        try:
            with deep_recursion():
                analyzer.run(tree, source if old is None else old[1].text, cell=index)
        except RecursionError:
            errors.append(FileError(job.rel, 1, message("cell_too_deep", cell=index)))
        if old is not None:
            analyzer.uses[first:] = columns_as_written(analyzer.uses[first:], old[1])
    return ("scanned", analyzer.uses, errors)
