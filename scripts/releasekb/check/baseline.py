"""`releasekb check --write-baseline FILE` and `--baseline FILE`: accept today's findings, and
report only the new ones.

A finding is recognised by what stays when unrelated lines are added or removed around it: its
file (relative to the baseline file's folder, so that the check may run from anywhere), the entry
that reports it, the API, the text of its line without indentation, and which occurrence of that
same text it is in the file (the second identical line is the second occurrence). A use moved to
another line keeps its key; a new use, or an old use on a line whose code changed, is new.
The file is JSON, sorted, one key per finding, so that it reads well in a diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from releasekb.check.messages import check_strings
from releasekb.check.options import CheckUsage
from releasekb.check.report import Finding, Report
from releasekb.check.source import real_file, source_lines
from releasekb.common.atomic import write_text
from releasekb.common.locales import plural_text
from releasekb.common.regular_files import NotReadable, read_regular_text

FORMAT = "releasekb-check-baseline"
# About 300,000 findings: far more than a baseline accepts in practice; a larger file is not one.
MAX_BASELINE_BYTES = 64_000_000
VERSION = 1
_KEY_FIELDS = ("path", "entry", "api", "text", "occurrence")
STRINGS = check_strings("baseline")  # common/locales/<lang>.yaml, `check.baseline`


def keys(report: Report, baseline_file: Path) -> list[tuple[Finding, tuple]]:
    """Each finding of the report with its baseline key."""
    folder = baseline_file.resolve().parent
    files: dict[str, Path | None] = {}  # each path once: a file has many findings
    lines: dict[tuple[str, int | None], list[str]] = {}
    seen: dict[tuple, int] = {}
    keyed = []
    for finding in sorted(report.findings, key=_position):
        if finding.path not in files:
            files[finding.path] = real_file(report.paths, finding.path)
        file = files[finding.path]
        path = Path(os.path.relpath(file.resolve(), folder)).as_posix() if file else finding.path
        if (finding.path, finding.cell) not in lines:
            lines[(finding.path, finding.cell)] = source_lines(file, finding.cell) if file else []
        text = _line_text(lines[(finding.path, finding.cell)], finding.line)
        same = (path, finding.entry, finding.api, text)
        occurrence = seen.get(same, 0)
        seen[same] = occurrence + 1
        keyed.append((finding, (*same, occurrence)))
    return keyed


def _position(finding: Finding) -> tuple:
    return (finding.path, finding.cell or 0, finding.line, finding.column, finding.entry, finding.api)


def _line_text(lines: list[str], line: int) -> str:
    return lines[line - 1].strip() if 0 < line <= len(lines) else ""


def write_baseline(report: Report, file: Path) -> set[tuple]:
    """Write every finding of the report to `file`; returns their keys. Raises atomic.WriteFailed."""
    written = {key for _, key in keys(report, file)}
    records = sorted(written)
    document = {
        "format": FORMAT,
        "version": VERSION,
        "findings": [dict(zip(_KEY_FIELDS, key, strict=True)) for key in records],
    }
    write_text(file, json.dumps(document, ensure_ascii=False, indent=1) + "\n")
    return written


def written_line(count: int, file: Path, lang: str) -> str:
    t = STRINGS[lang]
    return t["written"].format(count=count, word=plural_text(lang, t["findings_word"], count), file=file)


def read_baseline(file: Path) -> set[tuple]:
    """The keys a baseline file holds; raises CheckUsage saying what is wrong with it (a pipe, a
    device or a file over MAX_BASELINE_BYTES is refused unread)."""
    try:
        document = json.loads(read_regular_text(file, MAX_BASELINE_BYTES))
    except NotReadable as error:  # not a file to write over either: no advice to
        raise CheckUsage(f"{file}: cannot read the baseline ({error.strerror})") from None
    except OSError as error:
        reason = error.strerror or error
        raise CheckUsage(
            f"{file}: cannot read the baseline ({reason}); write one with --write-baseline {file}"
        ) from None
    except RecursionError:
        raise CheckUsage(f"{file}: not a baseline (nested too deeply); write it again with --write-baseline") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        where = f"line {error.lineno}: {error.msg}" if isinstance(error, json.JSONDecodeError) else str(error)
        raise CheckUsage(f"{file}: not a baseline ({where}); write it again with --write-baseline {file}") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT or document.get("version") != VERSION:
        raise CheckUsage(
            f"{file}: not a releasekb check baseline (version {VERSION}); write it again with --write-baseline {file}"
        )
    found = set()
    for position, record in enumerate(document.get("findings") or []):
        if not isinstance(record, dict) or not _valid(record):
            raise CheckUsage(
                f"{file}: finding {position + 1} needs {', '.join(_KEY_FIELDS)} "
                "(texts, and a whole number for occurrence); write it again with --write-baseline"
            )
        found.add(tuple(record[name] for name in _KEY_FIELDS))
    return found


def _valid(record: dict) -> bool:
    return all(isinstance(record.get(name), str) for name in _KEY_FIELDS[:-1]) and type(record.get("occurrence")) is int


def accept(report: Report, baseline: set[tuple], baseline_file: Path) -> None:
    """Leave out of the report the findings the baseline holds; they are counted, not listed."""
    kept = []
    for finding, key in keys(report, baseline_file):
        if key in baseline:
            report.baselined += 1
        else:
            kept.append(finding)
    kept_ids = {id(finding) for finding in kept}
    report.findings = [finding for finding in report.findings if id(finding) in kept_ids]
