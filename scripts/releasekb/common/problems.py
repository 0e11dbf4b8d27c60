"""The one shape every data problem takes, so the CLI, the MkDocs hook and the tests agree."""

from __future__ import annotations

import dataclasses
import difflib
import json
from collections.abc import Iterable
from dataclasses import dataclass

from releasekb.common.safe_text import github_command, github_log_line, visible


@dataclass(frozen=True, order=True)
class Problem:
    """`file:line:col: where: what is wrong (what would be right)`."""

    file: str
    line: int
    column: int
    where: str
    message: str
    # "error" makes the data invalid; "warning" (a translation that may be out of date) is
    # reported but fails only `validate --strict`.
    severity: str = "error"

    def __str__(self) -> str:
        """One line, whatever a quoted value or path holds: control characters made visible, and
        never read as a workflow command in a CI log."""
        marker = "warning: " if self.severity == "warning" else ""
        return github_log_line(f"{self.file}:{self.line}:{self.column}: {marker}{self.where}: {self.message}")


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


# Output formats of `releasekb validate --format`: text for people, github for workflow
# annotations on pull-request lines, json for editors and scripts.
FORMATS = ("text", "github", "json")


def github_annotation(problem: Problem) -> str:
    """A GitHub Actions workflow command: shown on the file's line in a pull request."""
    command = "warning" if problem.severity == "warning" else "error"
    return github_command(
        command, problem.message, file=problem.file, line=problem.line, col=problem.column, title=problem.where
    )


def json_report(problems: Iterable[Problem]) -> str:
    problems = sorted(problems)
    return json.dumps(
        {
            "errors": sum(p.severity == "error" for p in problems),
            "warnings": sum(p.severity == "warning" for p in problems),
            "problems": [_visible_fields(p) for p in problems],
        },
        ensure_ascii=False,
        indent=2,
    )


def _visible_fields(problem: Problem) -> dict:
    """A problem as JSON data, its texts as the text output shows them: a reader that prints a
    message prints no control character a quoted value held."""
    return {
        name: visible(value) if isinstance(value, str) else value for name, value in dataclasses.asdict(problem).items()
    }
