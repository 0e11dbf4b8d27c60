"""`--format sarif`: a SARIF 2.1.0 log that GitHub code scanning accepts, the findings as alerts
on the lines of the code (a notebook's on the line of its JSON file that holds the source line).
"""

from __future__ import annotations

import json
import re
import shlex
import urllib.parse
from pathlib import Path

from releasekb.check import coverage
from releasekb.check.formats.format import Format
from releasekb.check.formats.shared import (
    coverage_statement,
    in_effect_record,
    level,
    location,
    scope_notes,
    unreadable_level,
)
from releasekb.check.kinds import BY_NAME, outcome, rule_id
from releasekb.check.report import STRINGS, Finding, Report
from releasekb.common.safe_text import json_escaped

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def render(report: Report, colour: bool = False) -> str:
    """Control characters written as `\\u001b`-style escapes (the same text once decoded)."""
    return json_escaped(json.dumps(sarif_report(report), ensure_ascii=False, indent=1)) + "\n"


def _absolute(url: str) -> bool:
    return url.startswith(("https://", "http://"))


def sarif_report(report: Report) -> dict:
    """A SARIF 2.1.0 log GitHub code scanning accepts: one run, one rule per entry id cited (and
    one for declared requirements), unreadable files as tool execution notifications (the run
    itself succeeded); the versions asked and the releases compared as the run's properties."""
    lang = report.options.lang
    rules: dict[str, dict] = {}
    for finding in report.listed():
        rules.setdefault(_rule_id(finding), _rule(report, finding))
    rule_index = {rule_id: position for position, rule_id in enumerate(rules)}
    driver = {"name": "releasekb", "rules": list(rules.values())}
    if information := _information_uri(report):
        driver["informationUri"] = information
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": driver},
                "language": lang,
                **_source_root(report),
                "invocations": [_invocation(report)],
                "results": [_result(report, finding, rule_index) for finding in report.listed()],
                "properties": _run_properties(report),
            }
        ],
    }


def _run_properties(report: Report) -> dict:
    options = report.options
    return {
        "from": options.old,
        "to": options.new,
        "comparedFrom": options.old_release,
        "comparedTo": options.new_release,
        "knowledgeBaseReleases": list(report.releases),
        "notDescribed": list(options.not_described),
        "declared": list(report.declared),
        "inEffectAtFrom": in_effect_record(report),
        "coverage": coverage.record(report.coverage, options),
        "declaredNotReadable": list(report.declared_not_readable),
    }


def _source_root(report: Report) -> dict:
    """originalUriBaseIds: where %SRCROOT% is, the folder the result paths are relative to (the
    current directory, or the one folder scanned outside it); none when that is ambiguous."""
    cwd = Path.cwd().resolve()
    folders = {path if path.is_dir() else path.parent for path in (Path(p).resolve() for p in report.paths)}
    if all(folder.is_relative_to(cwd) for folder in folders):
        root = cwd
    elif len(folders) == 1:
        (root,) = folders
    else:
        return {}
    return {"originalUriBaseIds": {"%SRCROOT%": {"uri": root.as_uri() + "/"}}}


def _information_uri(report: Report) -> str | None:
    """The knowledge base's site: from its absolute addresses, or from the address of a
    published index (https://kb.example.org/api/apis.json); None when neither is known."""
    for finding in report.findings:
        if _absolute(finding.feature_urls["en"]):
            return finding.feature_urls["en"].split("/features/", 1)[0] + "/"
    if _absolute(report.knowledge_base) and "/api/" in report.knowledge_base:
        return report.knowledge_base.rsplit("/api/", 1)[0] + "/"
    return None


def _rule_id(finding: Finding) -> str:
    return rule_id(finding.kind, finding.entry)


def rerun_command(report: Report) -> str:
    """The command that checks the same paths again, quoted for a POSIX shell."""
    options = report.options
    words = ["releasekb", "check", *report.paths, "--from", options.old, "--to", options.new]
    return " ".join(shlex.quote(word) for word in words)


def _rule(report: Report, finding: Finding) -> dict:
    if BY_NAME[finding.kind].rule:
        return _kind_rule(report, finding)
    lang = report.options.lang
    t = STRINGS[lang]
    kind = t[f"kind_{finding.kind}"]
    description = t["rule_description"].format(kind=kind, release=finding.release, title=finding.title[lang])
    advice = t["help_command"].format(command=rerun_command(report), ignore=f"# releasekb: ignore[{finding.entry}]")
    migration = finding.migration[lang] if finding.migration else ""
    rule = {
        "id": finding.entry,
        "name": _rule_name(finding.entry),
        "shortDescription": {"text": finding.title[lang]},
        "fullDescription": {"text": description},
        "help": {
            "text": "\n\n".join(part for part in (migration, advice, finding.urls[lang]) if part),
            "markdown": "\n\n".join(
                part for part in (migration, advice, f"[{finding.urls[lang]}]({finding.urls[lang]})") if part
            ),
        },
        "defaultConfiguration": {"level": outcome(finding.kind, report.options.fail_on)[1]},
        "properties": {"tags": ["releasekb", finding.kind]},
    }
    if _absolute(finding.feature_urls[lang]):
        rule["helpUri"] = finding.feature_urls[lang]
    return rule


def _kind_rule(report: Report, finding: Finding) -> dict:
    """The rule of a kind that breaks no entry's rule: every declared requirement that allows
    releases before the one the code needs."""
    t = STRINGS[report.options.lang]
    description = t["requirement_rule"].format(distribution=report.distribution)
    advice = t["help_command_only"].format(command=rerun_command(report))
    return {
        "id": _rule_id(finding),
        "name": _rule_name(_rule_id(finding)),
        "shortDescription": {"text": t[BY_NAME[finding.kind].heading_key]},
        "fullDescription": {"text": description},
        "help": {"text": f"{description}\n\n{advice}", "markdown": f"{description}\n\n{advice}"},
        "defaultConfiguration": {"level": outcome(finding.kind, report.options.fail_on)[1]},
        "properties": {"tags": ["releasekb", finding.kind]},
    }


def _rule_name(entry_id: str) -> str:
    """SARIF rule names are PascalCase identifiers: torch-fft-function -> TorchFftFunction."""
    return "".join(part.capitalize() for part in re.split(r"[^A-Za-z0-9]+", entry_id) if part)


def sarif_uri(path: str) -> str:
    """A report path as a SARIF artifact URI, relative to %SRCROOT%: every character but letters,
    digits, '-._~' and '/' percent-encoded as UTF-8 (a space, '#', '%', '?', ':' and non-ASCII
    letters would otherwise end or change the URI).

    >>> sarif_uri("nb/my notes#1 100%.ipynb"), sarif_uri("数据/a:b.py")
    ('nb/my%20notes%231%20100%25.ipynb', '%E6%95%B0%E6%8D%AE/a%3Ab.py')
    """
    return urllib.parse.quote(path, safe="/")


def _physical_location(path: str, line: int, column: int | None = None) -> dict:
    region = {"startLine": max(line, 1)}
    if column:
        region["startColumn"] = column
    return {
        "physicalLocation": {"artifactLocation": {"uri": sarif_uri(path), "uriBaseId": "%SRCROOT%"}, "region": region}
    }


def _finding_location(finding: Finding) -> dict:
    """Where code scanning shows the finding. A notebook is stored as JSON, and code scanning shows
    the lines of the file as stored: a use in a cell is placed on the line of the notebook file
    that holds its source line (file_line), without a column (the JSON line is indented and
    quoted); the message names the cell and the line inside it."""
    if finding.cell is None:
        return _physical_location(finding.path, finding.line, finding.column)
    return _physical_location(finding.path, finding.file_line or 1)


def _result(report: Report, finding: Finding, rule_index: dict[str, int]) -> dict:
    lang = report.options.lang
    text = finding.message[lang]
    if finding.cell is not None:  # the region is a line of the notebook's JSON: say which cell
        text = f"{text} ({location(report, finding.path, finding.line, None, finding.cell)})"
    return {
        "ruleId": _rule_id(finding),
        "ruleIndex": rule_index[_rule_id(finding)],
        "level": level(finding, report.options),
        "message": {"text": text},
        "locations": [_finding_location(finding)],
        "properties": {
            "kind": finding.kind,
            "api": finding.api,
            "release": finding.release,
            "inEffectAtFrom": finding.in_effect_at_from,
            "guarded": finding.guarded,
            "confidence": finding.confidence,
            **({"cell": finding.cell, "lineInCell": finding.line} if finding.cell is not None else {}),
        },
    }


def _invocation(report: Report) -> dict:
    """Unreadable files (errors when they fail the run), and notes: what --from and --to meant,
    and the paths skipped because they are not regular files."""
    level_ = unreadable_level(report.options)
    notes = [
        {"level": "note", "message": {"text": note}}
        for note in (*scope_notes(report, not_described=False), coverage_statement(report))
    ]
    return {
        "executionSuccessful": True,
        "toolExecutionNotifications": notes
        + [
            {
                "level": level_,
                "message": {"text": error.reason.text(report.options.lang)},
                "locations": [_physical_location(error.path, error.line)],
            }
            for error in report.errors
        ]
        + [
            {
                "level": "note",
                "message": {"text": skipped.reason.text(report.options.lang)},
                "locations": [_physical_location(skipped.path, 1)],
            }
            for skipped in report.not_regular
        ]
        + [
            {
                "level": "note",
                "message": {"text": note.reason.text(report.options.lang)},
                "locations": [_physical_location(note.path, note.line)],
            }
            for note in report.read_otherwise
        ],
    }


FORMAT = Format("sarif", render)
