"""`--format json`: the documented JSON report (kb/check_schema.json, published at
/api/schema/check-v1.json), with messages and migrations in every language."""

from __future__ import annotations

import json

from releasekb.check import coverage
from releasekb.check.formats.format import Format
from releasekb.check.formats.shared import in_effect_record
from releasekb.check.report import Finding, Report
from releasekb.common.safe_text import json_escaped
from releasekb.kb.check_schema import SCHEMA_VERSION


def render(report: Report, colour: bool = False) -> str:
    """Control characters written as `\\u001b`-style escapes (the same text once decoded)."""
    return json_escaped(json.dumps(json_report(report), ensure_ascii=False, indent=1)) + "\n"


def json_report(report: Report) -> dict:
    """The documented JSON report (check_schema.json)."""
    options = report.options
    return {
        "schema_version": SCHEMA_VERSION,
        "lang": options.lang,
        "from": options.old,
        "to": options.new,
        "compared": {"from": options.old_release, "to": options.new_release},
        "knowledge_base_releases": list(report.releases),
        "not_described": list(options.not_described),
        "max_stability": options.max_stability,
        "fail_on": sorted(options.fail_on),
        "failed": report.failed(),
        "knowledge_base": report.knowledge_base,
        "files_checked": report.files_checked,
        "files_skipped": report.files_skipped,
        "min_release": report.min_release.record() if report.min_release else None,
        "declared": list(report.declared),
        "declared_not_readable": list(report.declared_not_readable),
        "counts": report.counts(),
        "in_effect_at_from": in_effect_record(report),
        "coverage": coverage.record(report.coverage, options),
        "findings": [_finding_record(finding, options.lang) for finding in report.listed()],
        "errors": [{"path": e.path, "line": e.line, "message": e.message} for e in report.errors],
        "not_regular": [{"path": e.path, "message": e.message} for e in report.not_regular],
        "read_otherwise": _read_otherwise(report),
        "suppressed": report.suppressed,
        "baselined": report.baselined,
    }


def _read_otherwise(report: Report) -> list[dict]:
    """The files of old code read another way than by parsing them (scan/old_code.py), and how."""
    # Imported here: the scanner is not needed to parse the command line, which imports this module
    # for --format's choices before every command, `build` among them.
    from releasekb.check.scan.old_code import read_method

    return [
        {"path": e.path, "line": e.line, "method": read_method(e), "message": e.message} for e in report.read_otherwise
    ]


def _finding_record(finding: Finding, lang: str) -> dict:
    return {
        "kind": finding.kind,
        "api": finding.api,
        "use": finding.use,
        "entry": finding.entry,
        "release": finding.release,
        "path": finding.path,
        "line": finding.line,
        "column": finding.column,
        "cell": finding.cell,
        "confidence": finding.confidence,
        "guarded": finding.guarded,
        "in_effect_at_from": finding.in_effect_at_from,
        "written": finding.written,
        "resolved": finding.resolved,
        "how": finding.how,
        "message": dict(finding.message),
        "migration": dict(finding.migration) if finding.migration else None,
        "replacement": finding.replacement,
        "replacement_drop_in": finding.replacement_drop_in,
        "url": finding.urls[lang],
    }


FORMAT = Format("json", render)
