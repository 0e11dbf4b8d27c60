"""The report of `releasekb check` in its four formats: text for people, JSON (check_schema.json),
SARIF 2.1.0 for code scanning, and GitHub workflow annotations. Every text is in the chosen
language; the JSON gives messages and migrations in every language."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from releasekb.check import KINDS, STRINGS, UNREADABLE, Finding, Report, scanner_text
from releasekb.safe_text import github_command, github_log_line, json_escaped, visible

SCHEMA_VERSION = 1
SCHEMA_FILE = Path(__file__).parent / "check_schema.json"
SCHEMA_PATH = f"api/schema/check-v{SCHEMA_VERSION}.json"  # where the site publishes it
FORMATS = ("text", "json", "sarif", "github")
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
# SARIF and annotation levels by finding kind: what breaks is an error, what will break or
# needs a newer release a warning, an unstable API a note.
LEVELS = {
    "removed": "error",
    "breaking": "error",
    "deprecated": "warning",
    "newer": "warning",
    "unstable": "note",
    "used": "note",
}
_GITHUB_COMMANDS = {"error": "error", "warning": "warning", "note": "notice"}
_COLOURS = {"removed": "31", "breaking": "31", "deprecated": "33", "newer": "33", "unstable": "36", "used": "32"}


def render(report: Report, output_format: str, *, colour: bool = False) -> str:
    """The report in `output_format`. Texts from the index and the code (titles, names, paths)
    can hold control characters: each format writes them so that a terminal or CI log shows
    them rather than acting on them (JSON and SARIF escape them, and keep them once decoded)."""
    if output_format == "json":
        return json_escaped(json.dumps(json_report(report), ensure_ascii=False, indent=1)) + "\n"
    if output_format == "sarif":
        return json_escaped(json.dumps(sarif_report(report), ensure_ascii=False, indent=1)) + "\n"
    if output_format == "github":
        return "".join(line + "\n" for line in github_annotations(report))
    return text_report(report, colour=colour)


def use_colour(stream) -> bool:
    """ANSI colours only on a terminal, and never when NO_COLOR is set (https://no-color.org)."""
    return stream.isatty() and not os.environ.get("NO_COLOR")


def schema() -> dict:
    return json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))


# --------------------------------------------------------------------------- text


def location(report: Report, path: str, line: int, column: int | None, cell: int | None) -> str:
    """path:line:col, or path:cell N:line L in a notebook."""
    if cell is not None:
        return STRINGS[report.options.lang]["location_cell"].format(path=path, cell=cell, line=line)
    return f"{path}:{line}:{column}" if column else f"{path}:{line}"


def text_report(report: Report, *, colour: bool = False) -> str:
    """The report for people. Every line is made visible (safe_text.visible) where it is made:
    a painted one inside `paint`, before its colour codes, the others as they are added."""
    t = STRINGS[report.options.lang]
    paint = _painter(colour)
    lines = [paint("1", _header(report))]
    if report.options.old_defaulted:
        lines.append(visible(t["header_old_default"].format(old=report.options.old)))
    for kind in KINDS:
        lines += _kind_section(report, kind, paint)
    lines += ["", visible(_min_release_line(report))]
    if report.errors:
        lines += ["", paint("1", t["unreadable_heading"].format(count=len(report.errors)))]
        lang = report.options.lang
        lines += [
            visible(f"  {location(report, e.path, e.line, None, None)}: {scanner_text(e.message, lang)}")
            for e in report.errors
        ]
    lines += ["", visible(summary_line(report))]
    return "\n".join(lines) + "\n"


def _painter(colour: bool):
    def paint(code: str, text: str) -> str:
        return f"\033[{code}m{visible(text)}\033[0m" if colour else visible(text)

    return paint


def _header(report: Report) -> str:
    t, options = STRINGS[report.options.lang], report.options
    product = report.product[options.lang]
    return t["header"].format(product=product, old=options.old, new=options.new, kb=report.knowledge_base)


def _kind_section(report: Report, kind: str, paint) -> list[str]:
    t, options = STRINGS[report.options.lang], report.options
    findings = [f for f in report.findings if f.kind == kind]
    if not findings:
        return []
    heading = t["heading_count"].format(heading=t[f"heading_{kind}"], count=len(findings))
    lines = ["", paint(f"1;{_COLOURS[kind]}", heading)]
    groups = (
        (True, t["group_in_effect"].format(old=options.old)),
        (False, t["group_new"].format(old=options.old, new=options.new)),
    )
    if kind in ("newer", "used"):  # after --to, or a plain use: neither in effect at --from nor on the way
        groups = ((False, None),)
    for in_effect, title in groups:
        grouped = [f for f in findings if f.in_effect_at_from is in_effect]
        if grouped and title:
            lines.append(f"  {paint('1', title)}")
        for same in _same_finding(grouped, report.options.lang):
            lines += _finding_lines(report, same, paint)
    return lines


def _same_finding(findings: list[Finding], lang: str) -> list[list[Finding]]:
    """Findings that say the same thing (one entry, one API, one message) at several places, so
    that what to do is said once, followed by every place: a library using `torch.sum` a hundred
    times reads one migration text, not a hundred."""
    groups: dict[tuple, list[Finding]] = {}
    for finding in findings:
        groups.setdefault((finding.entry, finding.release, finding.api, finding.message[lang]), []).append(finding)
    return list(groups.values())


def _finding_lines(report: Report, findings: list[Finding], paint) -> list[str]:
    """The message, what to do and where to read more once, then each place with how its name resolved."""
    lang = report.options.lang
    t, first = STRINGS[lang], findings[0]
    lines = [f"    {paint(_COLOURS[first.kind], first.message[lang])}"]
    if first.migration:
        lines.append("      " + visible(t["migration"].format(text=first.migration[lang])))
    lines.append("      " + visible(t["more"].format(url=first.urls[lang])))
    for finding in findings:
        where = location(report, finding.path, finding.line, finding.column, finding.cell)
        guarded = t["guarded"] if finding.guarded else ""
        lines.append(visible(f"      {where}: {_why(finding, t, lang)}{guarded}"))
    return lines


def _why(finding: Finding, t: dict[str, str], lang: str) -> str:
    """How the name at this place resolved to the API, and how sure the scanner is."""
    confidence = t.get(f"confidence_{finding.confidence}", finding.confidence)
    how = scanner_text(finding.how, lang)
    template = t["why_same"] if finding.written == finding.resolved else t["why"]
    return template.format(written=finding.written, resolved=finding.resolved, how=how, confidence=confidence)


def _min_release_line(report: Report) -> str:
    t, found = STRINGS[report.options.lang], report.min_release
    if found is None:
        return t["min_release_none"]
    where = location(report, found["path"], found["line"], found["column"], found["cell"])
    how = scanner_text(found["how"], report.options.lang)
    return t["min_release"].format(version=found["version"], api=found["api"], location=where, how=how)


def summary_line(report: Report) -> str:
    t = STRINGS[report.options.lang]
    counts = t["list_separator"].join(t[f"count_{kind}"].format(n=n) for kind, n in report.counts().items())
    line = t["summary"].format(
        files=report.files_checked,
        files_word=t["files_word_one"] if report.files_checked == 1 else t["files_word_many"],
        skipped=report.files_skipped,
        counts=counts,
        suppressed=report.suppressed,
        unreadable=len(report.errors),
        roots=t["roots_separator"].join(report.roots),
    )
    return line + (t["summary_baselined"].format(count=report.baselined) if report.baselined else "")


# --------------------------------------------------------------------------- JSON


def json_report(report: Report) -> dict:
    """The documented JSON report (check_schema.json)."""
    options = report.options
    return {
        "schema_version": SCHEMA_VERSION,
        "lang": options.lang,
        "from": options.old,
        "to": options.new,
        "max_stability": options.max_stability,
        "fail_on": sorted(options.fail_on),
        "failed": report.failed(),
        "knowledge_base": report.knowledge_base,
        "files_checked": report.files_checked,
        "files_skipped": report.files_skipped,
        "min_release": report.min_release,
        "counts": report.counts(),
        "findings": [_finding_record(finding, options.lang) for finding in report.findings],
        "errors": [{"path": e.path, "line": e.line, "message": e.message} for e in report.errors],
        "suppressed": report.suppressed,
        "baselined": report.baselined,
    }


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


# --------------------------------------------------------------------------- SARIF


def _absolute(url: str) -> bool:
    return url.startswith(("https://", "http://"))


def sarif_report(report: Report) -> dict:
    """A SARIF 2.1.0 log GitHub code scanning accepts: one run, one rule per entry id cited,
    unreadable files as tool execution notifications (the run itself succeeded)."""
    lang = report.options.lang
    rules: dict[str, dict] = {}
    for finding in report.findings:
        rules.setdefault(finding.entry, _rule(report, finding))
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
                "results": [_result(finding, rule_index, lang) for finding in report.findings],
            }
        ],
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


def _rule(report: Report, finding: Finding) -> dict:
    lang, options = report.options.lang, report.options
    t = STRINGS[lang]
    kind = t[f"kind_{finding.kind}"]
    description = t["rule_description"].format(kind=kind, release=finding.release, title=finding.title[lang])
    command = f"releasekb check {' '.join(report.paths)} --from {options.old} --to {options.new}"
    advice = t["help_command"].format(command=command, ignore=f"# releasekb: ignore[{finding.entry}]")
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
        "defaultConfiguration": {"level": LEVELS[finding.kind]},
        "properties": {"tags": ["releasekb", finding.kind]},
    }
    if _absolute(finding.feature_urls[lang]):
        rule["helpUri"] = finding.feature_urls[lang]
    return rule


def _rule_name(entry_id: str) -> str:
    """SARIF rule names are PascalCase identifiers: torch-fft-function -> TorchFftFunction."""
    return "".join(part.capitalize() for part in re.split(r"[^A-Za-z0-9]+", entry_id) if part)


def _physical_location(path: str, line: int, column: int | None = None) -> dict:
    region = {"startLine": max(line, 1)}
    if column:
        region["startColumn"] = column
    return {"physicalLocation": {"artifactLocation": {"uri": path, "uriBaseId": "%SRCROOT%"}, "region": region}}


def _result(finding: Finding, rule_index: dict[str, int], lang: str) -> dict:
    text = finding.message[lang]
    if finding.cell is not None:  # the region is the line inside the cell: say which cell
        text = (
            f"{text} ({STRINGS[lang]['location_cell'].format(path=finding.path, cell=finding.cell, line=finding.line)})"
        )
    return {
        "ruleId": finding.entry,
        "ruleIndex": rule_index[finding.entry],
        "level": LEVELS[finding.kind],
        "message": {"text": text},
        "locations": [_physical_location(finding.path, finding.line, finding.column)],
        "properties": {
            "kind": finding.kind,
            "api": finding.api,
            "release": finding.release,
            "inEffectAtFrom": finding.in_effect_at_from,
            "guarded": finding.guarded,
            "confidence": finding.confidence,
            **({"cell": finding.cell} if finding.cell is not None else {}),
        },
    }


def _invocation(report: Report) -> dict:
    level = "error" if UNREADABLE in report.options.fail_on else "warning"
    return {
        "executionSuccessful": True,
        "toolExecutionNotifications": [
            {
                "level": level,
                "message": {"text": scanner_text(error.message, report.options.lang)},
                "locations": [_physical_location(error.path, error.line)],
            }
            for error in report.errors
        ],
    }


# --------------------------------------------------------------------------- GitHub annotations


def github_annotations(report: Report) -> list[str]:
    """One workflow command per finding and per unreadable file, then the summary as a log line
    (which names the index's code roots: never read as a command)."""
    lines = [_github_finding(report, finding) for finding in report.findings]
    lang = report.options.lang
    command = "error" if UNREADABLE in report.options.fail_on else "warning"
    lines += [
        github_command(command, scanner_text(e.message, lang), file=e.path, line=e.line or None, title="releasekb")
        for e in report.errors
    ]
    lines.append(github_log_line(summary_line(report)))
    return lines


def _github_finding(report: Report, finding: Finding) -> str:
    lang = report.options.lang
    t = STRINGS[lang]
    # A guarded use never fails the run: a notice, whatever its kind.
    command = "notice" if finding.guarded else _GITHUB_COMMANDS[LEVELS[finding.kind]]
    message = finding.message[lang]
    line, col = finding.line, finding.column
    if finding.cell is not None:  # the line is inside a cell, not a line of the file: annotate the file
        message += f" ({location(report, finding.path, finding.line, None, finding.cell)})"
        line, col = None, None
    if finding.migration:
        message += "\n" + t["migration"].format(text=finding.migration[lang])
    message += "\n" + t["more"].format(url=finding.urls[lang])
    title = f"releasekb: {t['heading_' + finding.kind]} ({finding.entry})"
    return github_command(command, message, file=finding.path, line=line, col=col, title=title)


def write(report: Report, output_format: str, output: Path | None, stdout) -> None:
    """The report to --output (no colours), else to stdout (colours on a terminal); a file
    output still prints the one-line summary, so a terminal or CI log shows the outcome."""
    if output is None:
        stdout.write(render(report, output_format, colour=output_format == "text" and use_colour(stdout)))
        return
    output.write_text(render(report, output_format), encoding="utf-8")
    summary = github_log_line if output_format == "github" else visible
    stdout.write(summary(summary_line(report)) + "\n")
