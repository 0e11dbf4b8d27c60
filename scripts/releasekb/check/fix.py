"""`releasekb check --fix`: rewrite the uses whose replacement the knowledge base marks as a
drop-in (`drop_in`, true unless a release file says false), and nothing else.

A use is rewritten only where the file says exactly what the report says is there: the name as
written starts at the reported column of the reported line. Only the attribute part that differs
from the replacement changes (`t.Tensor.masked_copy_` after `import torch as t` becomes
`t.Tensor.masked_scatter_`); a name bound by an import (`from torch import old`) is left, since
its import would have to change too. Strings and comments are never uses, so they never change.
Notebooks are left as they are: their cells are JSON strings, and rewriting the file would
re-serialise every cell and output. Each file is written in one step (atomic.write_text).
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from releasekb.check.messages import check_strings
from releasekb.check.report import Finding, Report
from releasekb.check.scan.reading import read_regular
from releasekb.check.source import LINE_END, UTF8_BOM, real_file
from releasekb.common.atomic import write_text
from releasekb.common.locales import plural_text

STRINGS = check_strings("fix")  # common/locales/<lang>.yaml, `check.fix`


@dataclass(frozen=True)
class _Edit:
    line: int
    start: int  # character offset in the line of the text replaced
    old: str
    new: str


@dataclass
class FixResult:
    """What --fix did: the uses rewritten (each a list of the findings at one place), the files
    written, and the drop-in uses left as they are, with the reason (a STRINGS key)."""

    fixed: list[list[Finding]] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    left: list[tuple[Finding, str]] = field(default_factory=list)


def fixable(finding: Finding) -> bool:
    return bool(finding.replacement) and finding.replacement_drop_in is True


def apply_fixes(report: Report) -> FixResult:
    """Rewrite every drop-in replacement the report lists; raises atomic.WriteFailed."""
    result = FixResult()
    by_file: dict[Path, list[list[Finding]]] = {}
    for place in _places(f for f in report.findings if fixable(f)):
        reason = _reason_to_leave(place)
        file = real_file(report.paths, place[0].path) if reason is None else None
        if reason is None and file is None:
            reason = "reason_missing"
        if reason is not None:
            result.left.append((place[0], reason))
        else:
            by_file.setdefault(file.resolve(), []).append(place)
    for file, places in by_file.items():
        _fix_file(file, places, result)
    return result


def _places(findings) -> list[list[Finding]]:
    """Findings grouped by the name in the code they are about: one rewrite each."""
    places: dict[tuple, list[Finding]] = {}
    for finding in findings:
        key = (finding.path, finding.cell, finding.line, finding.column, finding.written)
        places.setdefault(key, []).append(finding)
    return list(places.values())


def _reason_to_leave(place: list[Finding]) -> str | None:
    first = place[0]
    if first.cell is not None:
        return "reason_notebook"
    if first.guarded:
        return "reason_guarded"
    if len({(f.api, f.replacement) for f in place}) > 1:
        return "reason_conflict"
    if rename(first) is None:
        return "reason_import"
    return None


def rename(finding: Finding) -> tuple[int, str, str] | None:
    """(offset in the name as written, old text, new text) that turns the use into its
    replacement by changing attributes only; None when the part to change is not an attribute
    written at the use (the name itself, bound by an import or an alias)."""
    written = finding.written.split(".")
    beyond = finding.resolved.removeprefix(finding.api)  # `.fft` of `torch.fft.fft` under `torch.fft`
    if beyond == finding.resolved or (beyond and not beyond.startswith(".")):
        return None
    beyond_parts = beyond.split(".")[1:]
    if beyond_parts:
        if written[-len(beyond_parts) :] != beyond_parts:
            return None
        written = written[: -len(beyond_parts)]
    old, new = finding.api.split("."), finding.replacement.split(".")
    same = 0
    while same < min(len(old), len(new)) - 1 and old[same] == new[same]:
        same += 1
    old_tail, new_tail = old[same:], new[same:]
    # the first part written is a local name (perhaps an alias of the root): never rewritten
    if len(old_tail) >= len(written) or written[-len(old_tail) :] != old_tail:
        return None
    kept = written[: len(written) - len(old_tail)]
    return len(".".join(kept)) + 1, ".".join(old_tail), ".".join(new_tail)


def _fix_file(file: Path, places: list[list[Finding]], result: FixResult) -> None:
    text, bom, reason = _read(file)
    if text is None:
        result.left += [(place[0], reason) for place in places]
        return
    parts = re.split(f"({LINE_END.pattern})", text)  # [line, its ending, line, its ending, ..., last line]
    lines, ends = parts[::2], parts[1::2]
    applied = []
    for place, edit in _edits(places):
        if _matches(lines, place[0], edit):
            applied.append((place, edit))
        else:
            result.left.append((place[0], "reason_text"))
    if not applied:
        return
    # right to left, so that an earlier rewrite on a line does not move the later ones
    for _, edit in sorted(applied, key=lambda item: (item[1].line, item[1].start), reverse=True):
        line = lines[edit.line - 1]
        lines[edit.line - 1] = line[: edit.start] + edit.new + line[edit.start + len(edit.old) :]
    write_text(file, bom + "".join(line + end for line, end in zip(lines, [*ends, ""], strict=True)))
    result.fixed += [place for place, _ in applied]
    result.files.append(file)


def _read(file: Path) -> tuple[str | None, str, str]:
    """(the file's text without its byte-order mark, that mark, ""), or (None, "", why not): a
    file that is not UTF-8 is left, since the atomic writer writes UTF-8 and a file declaring
    another encoding must stay in it."""
    try:
        data = read_regular(file, None)  # scanned before; only if it is still a regular file
    except OSError:
        return None, "", "reason_missing"
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        text = data.decode("utf-8")
    except (SyntaxError, UnicodeDecodeError):
        return None, "", "reason_encoding"
    if encoding not in ("utf-8", "utf-8-sig") and not data.isascii():
        return None, "", "reason_encoding"
    return text.removeprefix(UTF8_BOM), UTF8_BOM if text.startswith(UTF8_BOM) else "", ""


def _edits(places: list[list[Finding]]) -> Iterator[tuple[list[Finding], _Edit]]:
    for place in places:
        first = place[0]
        offset, old, new = rename(first)
        yield place, _Edit(first.line, first.column - 1 + offset, old, new)


def _matches(lines: list[str], finding: Finding, edit: _Edit) -> bool:
    """Whether the line holds the name exactly as written at the reported column, and not as
    the start of a longer name."""
    if not 0 < finding.line <= len(lines):
        return False
    line, start = lines[finding.line - 1], finding.column - 1
    end = start + len(finding.written)
    after = line[end : end + 1]
    return line[start:end] == finding.written and not (after.isidentifier() or after.isdigit())


def summary(result: FixResult, lang: str, location) -> list[str]:
    """The lines that say what --fix did; `location(finding)` names a place as the report does."""
    t = STRINGS[lang]
    uses, files = len(result.fixed), len(result.files)
    lines = [
        t["fixed"].format(
            uses=uses,
            uses_word=plural_text(lang, t["uses_word"], uses),
            files=files,
            files_word=plural_text(lang, t["files_word"], files),
        )
    ]
    if result.left:
        lines.append(t["left"].format(count=len(result.left)))
        for finding, reason in result.left:
            text = t[reason].format(written=finding.written)
            lines.append(t["left_item"].format(location=location(finding), written=finding.written, reason=text))
    return lines
