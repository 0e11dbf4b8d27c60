"""The one interface every format of `releasekb check`'s report has (as vermin's formats/format.py):
a name (`--format NAME`) and a function that writes the report as text. The registry of formats
is formats/__init__.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from releasekb.common.safe_text import visible

if TYPE_CHECKING:
    from releasekb.check.report import Report


@dataclass(frozen=True)
class Format:
    name: str  # --format NAME
    # the report as this format writes it; `colour`: for a terminal (only a format with colours uses it)
    render: Callable[[Report, bool], str]
    # the report's one-line summary as printed when --output writes the report to a file, so that
    # a terminal or CI log shows the outcome: made safe for where this format is read
    summary: Callable[[str], str] = visible
    colours: bool = False  # whether it colours its text on a terminal (unless NO_COLOR is set)
