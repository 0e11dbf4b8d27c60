"""The one shape every data problem takes, so the CLI, the MkDocs hook and the tests agree."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Problem:
    """`file:line:col: where: what is wrong (what would be right)`."""

    file: str
    line: int
    column: int
    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.where}: {self.message}"


class DataError(Exception):
    """Raised when the release data is invalid; carries every problem found, sorted."""

    def __init__(self, problems: Iterable[Problem]):
        self.problems = sorted(set(problems))
        super().__init__(self.report())

    def report(self) -> str:
        count = len(self.problems)
        lines = [str(p) for p in self.problems]
        lines.append(f"{count} problem{'s' if count != 1 else ''} found; nothing was built.")
        return "\n".join(lines)


def suggest(value: object, choices: Iterable[str]) -> str:
    """ " (did you mean 'beta'?)" when a choice is close to the given value, else ""."""
    close = difflib.get_close_matches(str(value), list(choices), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def not_one_of(value: object, choices: Iterable[str]) -> str:
    choices = list(choices)
    listed = ", ".join(choices) if choices else "(none)"
    return f"'{value}' is not one of {listed}{suggest(value, choices)}"
