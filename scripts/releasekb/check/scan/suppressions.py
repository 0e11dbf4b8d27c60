"""Suppression comments: `# releasekb: ignore[ids]` in Python, `//`, `/*` or `#` in other files."""

from __future__ import annotations

import io
import re
import tokenize

from releasekb.check.scan.decoding import NEWLINE

_PYTHON_SUPPRESSION = re.compile(r"releasekb:\s*ignore(?:\[([^\]]*)\])?")
_TOKEN_SUPPRESSION = re.compile(r"(?://|/\*|#)\s*releasekb:\s*ignore(?:\[([^\]]*)\])?")


NO_SUPPRESSION: frozenset[str] = frozenset()


def _suppression_ids(bracket: str | None) -> frozenset[str]:
    """`ignore[a, b]` names ids; a bare `ignore` (or empty brackets) suppresses everything: `*`."""
    if bracket is None:
        return frozenset({"*"})
    ids = frozenset(part.strip() for part in bracket.split(",") if part.strip())
    return ids or frozenset({"*"})


def _add_suppression(found: dict[int, frozenset[str]], line: int, match: re.Match[str] | None) -> None:
    if match is not None:
        found[line] = found.get(line, NO_SUPPRESSION) | _suppression_ids(match.group(1))


def python_suppressions(text: str) -> dict[int, frozenset[str]]:
    """Suppressions from real comments only (tokenize), so a string that contains the text does not count."""
    found: dict[int, frozenset[str]] = {}
    if "releasekb" not in text:
        return found
    try:
        for token in tokenize.generate_tokens(io.StringIO(text, newline=None).readline):
            if token.type == tokenize.COMMENT:
                _add_suppression(found, token.start[0], _PYTHON_SUPPRESSION.search(token.string))
    except (tokenize.TokenError, SyntaxError):
        # ast accepted the code, so this is rare; fall back to reading `#` comments line by line.
        for number, line in enumerate(NEWLINE.split(text), start=1):
            if "#" in line:
                _add_suppression(found, number, _PYTHON_SUPPRESSION.search(line, line.index("#")))
    return found


def token_suppressions(lines: list[str]) -> dict[int, frozenset[str]]:
    found: dict[int, frozenset[str]] = {}
    for number, line in enumerate(lines, start=1):
        if "releasekb" in line:
            _add_suppression(found, number, _TOKEN_SUPPRESSION.search(line))
    return found
