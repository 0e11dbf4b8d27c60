"""The formats of `releasekb check`'s report, one module each behind one interface (format.Format),
as vermin's formats/ are: text, json, sarif, github. FORMATS is the one list: --format's choices,
`write` and the documentation read it; `register` adds a format (CONTRIBUTING.md shows how).
"""

from __future__ import annotations

import os
from pathlib import Path

from releasekb.check.formats import github, sarif, text
from releasekb.check.formats import json as json_format
from releasekb.check.formats.format import Format
from releasekb.check.formats.shared import summary_line
from releasekb.check.report import Report
from releasekb.common import atomic

FORMATS: dict[str, Format] = {module.FORMAT.name: module.FORMAT for module in (text, json_format, sarif, github)}


def register(output_format: Format) -> None:
    """Add a format (or replace one of the same name): `--format NAME` then writes it."""
    FORMATS[output_format.name] = output_format


def render(report: Report, output_format: str, *, colour: bool = False) -> str:
    """The report in `output_format`. Texts from the index and the code (titles, names, paths)
    can hold control characters: each format writes them so that a terminal or CI log shows
    them rather than acting on them (JSON and SARIF escape them, and keep them once decoded)."""
    return FORMATS[output_format].render(report, colour)


def use_colour(stream) -> bool:
    """ANSI colours only on a terminal, and never when NO_COLOR is set (https://no-color.org)."""
    return stream.isatty() and not os.environ.get("NO_COLOR")


def write(report: Report, output_format: str, output: Path | None, stdout) -> None:
    """The report to --output (no colours), else to stdout (colours on a terminal); a file
    output still prints the one-line summary, so a terminal or CI log shows the outcome."""
    chosen = FORMATS[output_format]
    if output is None:
        stdout.write(render(report, output_format, colour=chosen.colours and use_colour(stdout)))
        return
    atomic.write_text(output, render(report, output_format))  # only a regular file; raises WriteFailed
    stdout.write(chosen.summary(summary_line(report)) + "\n")
