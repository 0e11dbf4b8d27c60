"""The files behind a `check` report: which file a reported path names, and its lines as the
scanner numbered them. `--fix` rewrites those lines and the baseline recognises a finding by its
line's text, so both need the file itself, not only the path the report shows."""

from __future__ import annotations

import json
import re
from pathlib import Path

from releasekb.check.run import display_prefix
from releasekb.check.scan.notebooks import cell_source, notebook_cells
from releasekb.check.scan.reading import read_regular_text

# ast ends a line at CRLF, CR or LF (and nowhere else): line numbers count the same way here
LINE_END = re.compile(r"\r\n|\r|\n")
UTF8_BOM = "\ufeff"


def real_file(paths: list[str], shown: str) -> Path | None:
    """The file a report path names. Reports show a file relative to the current directory when
    its folder is below it, else relative to the folder it was found in (run.display_prefix):
    the path is tried under each folder given, the way it was made."""
    for given in map(Path, paths):
        folder = given if given.is_dir() else given.parent
        prefix = display_prefix(folder)
        if prefix and not shown.startswith(prefix + "/"):
            continue
        candidate = folder / (shown[len(prefix) + 1 :] if prefix else shown)
        if candidate.is_file() and (given.is_dir() or candidate.resolve() == given.resolve()):
            return candidate
    return None


def split_lines(text: str) -> list[str]:
    """The lines of a text without their endings, numbered as the scanner numbers them."""
    return LINE_END.split(text)


def source_lines(file: Path, cell: int | None) -> list[str]:
    """The lines of a file, or of one cell of a notebook (cells counted from 1, as reports do);
    [] when they cannot be read."""
    try:
        # a file scanned before, read again: only if it is still a regular file (never a pipe to wait on)
        text = read_regular_text(file, None, errors="replace").removeprefix(UTF8_BOM)
        if cell is None:
            return split_lines(text)
        cells = notebook_cells(json.loads(text)) or []
    except (OSError, ValueError):
        return []
    if not 0 < cell <= len(cells) or not isinstance(cells[cell - 1], dict):
        return []
    return split_lines(cell_source(cells[cell - 1]))
