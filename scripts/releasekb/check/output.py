"""The report of `releasekb check` in its four formats: text for people, JSON (check_schema.json),
SARIF 2.1.0 for code scanning, and GitHub workflow annotations. Every text is in the chosen
language; the JSON gives messages and migrations in every language."""

from __future__ import annotations

import json
import os
import re
import shlex
import urllib.parse
from pathlib import Path

from releasekb.check import coverage
from releasekb.check.kinds import DEFAULT_FAIL_ON, KINDS, TABLE, UNREADABLE, outcome
from releasekb.check.messages import OLD_CODE_STRINGS, explained
from releasekb.check.options import SHOW_IN_EFFECT, Options
from releasekb.check.report import STRINGS, Finding, Report, place_text
from releasekb.check.scan.old_code import read_method
from releasekb.common import atomic
from releasekb.common.i18n import interface_strings
from releasekb.common.locales import plural_text
from releasekb.common.safe_text import github_command, github_log_line, json_escaped, visible
from releasekb.kb.catalog import list_text
from releasekb.kb.check_schema import SCHEMA_VERSION

FORMATS = ("text", "json", "sarif", "github")
PLACES_SHOWN = 10  # the text report lists this many places of one finding, then counts the rest
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_GITHUB_COMMANDS = {"error": "error", "warning": "warning", "note": "notice"}
_COLOURS = {kind.name: kind.colour for kind in TABLE}


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


def level(finding: Finding, options: Options) -> str:
    """The finding's level in SARIF and GitHub annotations: what fails the run is an error and
    nothing else is (findings.outcome decides both)."""
    return finding.outcome(options)[1]


def unreadable_level(options: Options) -> str:
    """The level of a file that could not be checked: an error when it fails the run."""
    return outcome(UNREADABLE, options.fail_on)[1]


def coverage_statement(report: Report) -> str:
    """The line every report ends with: what the knowledge base can tell about the range."""
    return coverage.statement(report.coverage, report.options, report.options.lang)


def scope_notes(report: Report, *, not_described: bool = True) -> list[str]:
    """What --from and --to mean when they are not releases the knowledge base describes: the
    release compared instead, where the knowledge base ends or begins; and, unless
    `not_described` is False (the format's coverage statement says it), the releases of the range
    the knowledge base does not describe."""
    t, options = STRINGS[report.options.lang], report.options
    first, last = report.releases[0], report.releases[-1]
    notes = []
    for flag, version, release in (
        ("--from", options.old, options.old_release),
        ("--to", options.new, options.new_release),
    ):
        if release == version:
            continue
        if release is None:
            notes.append(t["scope_before"].format(flag=flag, version=version, first=first))
        elif release == last:
            notes.append(t["scope_after"].format(flag=flag, version=version, last=last))
        else:
            notes.append(t["scope_between"].format(flag=flag, version=version, release=release))
    if options.not_described and not_described:
        # the range crosses releases not described: their changes are not among the findings
        versions = list_text(list(options.not_described), interface_strings(options.lang))
        notes.append(t["not_described_crossed"].format(versions=versions))
    return notes


# --------------------------------------------------------------------------- text


def location(report: Report, path: str, line: int, column: int | None, cell: int | None) -> str:
    """path:line:col, or path:cell N:line L in a notebook."""
    return place_text(report.options.lang, path, line, column, cell)


def text_report(report: Report, *, colour: bool = False) -> str:
    """The report for people. Every line is made visible (safe_text.visible) where it is made:
    a painted one inside `paint`, before its colour codes, the others as they are added."""
    t = STRINGS[report.options.lang]
    paint = _painter(colour)
    lines = [paint("1", _header(report))]
    if report.options.old_defaulted:
        lines.append(visible(t["header_old_default"].format(old=report.options.old)))
    lines += [visible(note) for note in scope_notes(report)]
    new = [f for f in report.findings if not f.met_at_from]
    for kind in KINDS:
        lines += _kind_section(report, kind, new, paint)
    lines += _in_effect_section(report, paint)
    lines += ["", visible(_min_release_line(report)), *map(visible, _declared_lines(report))]
    lang = report.options.lang
    if report.read_otherwise:
        heading = OLD_CODE_STRINGS[lang]["read_otherwise_heading"].format(count=len(report.read_otherwise))
        lines += ["", paint("1", heading)]
        lines += [
            visible(f"  {location(report, e.path, e.line, None, None)}: {e.reason.text(lang)}")
            for e in report.read_otherwise
        ]
    if report.errors:
        lines += ["", paint("1", _unreadable_heading(report))]
        lines += [
            visible(f"  {location(report, e.path, e.line, None, None)}: {e.reason.text(lang)}") for e in report.errors
        ]
    if report.not_regular:
        lines += ["", paint("1", t["not_regular_heading"].format(count=len(report.not_regular)))]
        lines += [visible(f"  {e.path}: {e.reason.text(report.options.lang)}") for e in report.not_regular]
    lines += ["", visible(summary_line(report)), visible(coverage_statement(report))]
    return "\n".join(lines) + "\n"


def _unreadable_heading(report: Report) -> str:
    """How many files could not be checked, and whether they fail the run (--fail-on)."""
    which = "unreadable_heading_fails" if UNREADABLE in report.options.fail_on else "unreadable_heading_passes"
    return OLD_CODE_STRINGS[report.options.lang][which].format(count=len(report.errors))


def _painter(colour: bool):
    def paint(code: str, text: str) -> str:
        return f"\033[{code}m{visible(text)}\033[0m" if colour else visible(text)

    return paint


def _header(report: Report) -> str:
    """The product, --from and --to, and the releases compared when they are not those two."""
    t, options = STRINGS[report.options.lang], report.options
    values = {"product": report.product[options.lang], "old": options.old, "new": options.new}
    if (options.old_release, options.new_release) == (options.old, options.new):
        return t["header"].format(**values, kb=report.knowledge_base)
    before = t["before_first"].format(first=report.releases[0])
    return t["header_compared"].format(
        **values,
        compared_old=options.old_release or before,
        compared_new=options.new_release or before,
        kb=report.knowledge_base,
    )


def _kind_section(report: Report, kind: str, among: list[Finding], paint, level: str = "") -> list[str]:
    """The findings of `kind` among `among`, under a heading that counts them; a change is
    said to be new between --from and --to, unless `level` indents the section in a group of
    its own (the changes already in effect at --from)."""
    t, options = STRINGS[report.options.lang], report.options
    findings = [f for f in among if f.kind == kind]
    if not findings:
        return []
    heading = t["heading_count"].format(heading=t[f"heading_{kind}"], count=len(findings))
    lines = ["", level + paint(f"1;{_COLOURS[kind]}", heading)]
    # a change guarded or not is new on the way (newer, used, requirement: not a change)
    if not level and kind not in ("newer", "used", "requirement"):
        lines.append(f"  {paint('1', t['group_new'].format(old=options.old, new=options.new))}")
    for same in _same_finding(findings, report.options.lang):
        lines += _finding_lines(report, same, paint)
    return lines


def _in_effect_section(report: Report, paint) -> list[str]:
    """With --show-in-effect, the changes already in effect at --from, in a group of their own
    after this upgrade's findings: the code runs on --from already, so they are never counted
    with them."""
    in_effect = report.in_effect()
    if not (report.options.show_in_effect and in_effect):
        return []
    t = coverage.STRINGS[report.options.lang]
    lines = ["", paint("1", t["in_effect_heading"].format(old=report.options.old, count=len(in_effect)))]
    for kind in KINDS:
        section = _kind_section(report, kind, in_effect, paint, level="  ")
        lines += section[1:] if len(lines) == 2 else section  # the first kind right under the group's heading
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
    for finding in findings[:PLACES_SHOWN]:
        where = location(report, finding.path, finding.line, finding.column, finding.cell)
        guarded = t["guarded"] if finding.guarded else ""
        lines.append(visible(f"      {where}: {_why(finding, t, lang)}{guarded}"))
    if len(findings) > PLACES_SHOWN:
        lines.append("      " + t["more_places"].format(count=f"{len(findings) - PLACES_SHOWN:,}"))
    return lines


def _why(finding: Finding, t: dict[str, str], lang: str) -> str:
    """How the name at this place resolved to the API, and how sure the scanner is."""
    confidence = t.get(f"confidence_{finding.confidence}", finding.confidence)
    how = explained(finding.resolution, lang)
    template = t["why_same"] if finding.written == finding.resolved else t["why"]
    return template.format(written=finding.written, resolved=finding.resolved, how=how, confidence=confidence)


def _min_release_line(report: Report) -> str:
    t, found = STRINGS[report.options.lang], report.min_release
    if found is None:
        return t["min_release_none"]
    where = location(report, found.path, found.line, found.column, found.cell)
    how = explained(found.resolution, report.options.lang)
    return t["min_release"].format(version=found.version, api=found.api, location=where, how=how)


def _declared_lines(report: Report) -> list[str]:
    """The requirements on the product the project declares, or that none was found."""
    t = STRINGS[report.options.lang]
    if report.distribution is None:
        return []
    not_readable = [
        OLD_CODE_STRINGS[report.options.lang]["declared_not_readable"].format(
            field=d["field"],
            location=location(report, d["path"], d["line"], None, None),
            distribution=report.distribution,
        )
        for d in report.declared_not_readable
    ]
    if not report.declared and not not_readable:
        return [t["declared_none"].format(distribution=report.distribution)]
    return [
        t["declared"].format(requirement=d["requirement"], location=location(report, d["path"], d["line"], None, None))
        for d in report.declared
    ] + not_readable


def summary_line(report: Report) -> str:
    t = STRINGS[report.options.lang]
    counts = t["list_separator"].join(t[f"count_{kind}"].format(n=n) for kind, n in report.counts().items())
    line = t["summary"].format(
        files=report.files_checked,
        files_word=plural_text(report.options.lang, t["files_word"], report.files_checked),
        skipped=report.files_skipped,
        counts=counts,
        suppressed=report.suppressed,
        unreadable=len(report.errors),
        roots=t["roots_separator"].join(report.roots),
    )
    line += t["summary_not_regular"].format(count=len(report.not_regular)) if report.not_regular else ""
    line += t["summary_baselined"].format(count=report.baselined) if report.baselined else ""
    return line + _in_effect_count(report)


def _in_effect_count(report: Report) -> str:
    """How many changes already in effect at --from the summary does not count, and whether
    they are listed (else the option that lists them)."""
    count = len(report.in_effect())
    if not count:
        return ""
    t = coverage.STRINGS[report.options.lang]
    key = "summary_in_effect_shown" if report.options.show_in_effect else "summary_in_effect_left_out"
    return t[key].format(count=count, old=report.options.old, option=SHOW_IN_EFFECT)


# --------------------------------------------------------------------------- JSON


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
        "in_effect_at_from": _in_effect_record(report),
        "coverage": coverage.record(report.coverage, options),
        "findings": [_finding_record(finding, options.lang) for finding in report.listed()],
        "errors": [{"path": e.path, "line": e.line, "message": e.message} for e in report.errors],
        "not_regular": [{"path": e.path, "message": e.message} for e in report.not_regular],
        "read_otherwise": [
            {"path": e.path, "line": e.line, "method": read_method(e), "message": e.message}
            for e in report.read_otherwise
        ],
        "suppressed": report.suppressed,
        "baselined": report.baselined,
    }


def _in_effect_record(report: Report) -> dict:
    """The changes already in effect at --from: how many, per kind, and whether `findings` lists
    them (with the option that does)."""
    in_effect = report.in_effect()
    return {
        "count": len(in_effect),
        "counts": {kind: n for kind in KINDS if (n := sum(1 for f in in_effect if f.kind == kind))},
        "listed": report.options.show_in_effect,
        "option": SHOW_IN_EFFECT,
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
        "inEffectAtFrom": _in_effect_record(report),
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


# A declaration that allows too old a release breaks no entry's rule: it has a rule of its own,
# whose id no entry can have (entry ids have no '/').
REQUIREMENT_RULE = "releasekb/declared-requirement"


def _rule_id(finding: Finding) -> str:
    return REQUIREMENT_RULE if finding.kind == "requirement" else finding.entry


def rerun_command(report: Report) -> str:
    """The command that checks the same paths again, quoted for a POSIX shell."""
    options = report.options
    words = ["releasekb", "check", *report.paths, "--from", options.old, "--to", options.new]
    return " ".join(shlex.quote(word) for word in words)


def _rule(report: Report, finding: Finding) -> dict:
    if finding.kind == "requirement":
        return _requirement_rule(report, finding)
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


def _requirement_rule(report: Report, finding: Finding) -> dict:
    """The rule of every declared requirement that allows releases before the one the code needs."""
    t = STRINGS[report.options.lang]
    description = t["requirement_rule"].format(distribution=report.distribution)
    advice = t["help_command_only"].format(command=rerun_command(report))
    return {
        "id": REQUIREMENT_RULE,
        "name": _rule_name(REQUIREMENT_RULE),
        "shortDescription": {"text": t["heading_requirement"]},
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


# --------------------------------------------------------------------------- GitHub annotations


def github_annotations(report: Report) -> list[str]:
    """One workflow command per finding listed and per unreadable file, a notice for each path
    skipped because it is not a regular file and for each version that is not a release described
    (scope_notes), then the header (which names the releases compared) and the summary as log
    lines (which name the index's code roots: never read as a command), and last the coverage
    statement as a notice, which the run's page shows."""
    lines = [_github_finding(report, finding) for finding in report.listed()]
    lang = report.options.lang
    command = _GITHUB_COMMANDS[unreadable_level(report.options)]
    lines += [
        github_command(command, e.reason.text(lang), file=e.path, line=e.line or None, title="releasekb")
        for e in report.errors
    ]
    lines += [github_command("notice", e.reason.text(lang), file=e.path, title="releasekb") for e in report.not_regular]
    lines += [
        github_command("notice", e.reason.text(lang), file=e.path, line=e.line, title="releasekb")
        for e in report.read_otherwise
    ]
    lines += [github_command("notice", note, title="releasekb") for note in scope_notes(report, not_described=False)]
    lines += [github_log_line(_header(report)), github_log_line(summary_line(report))]
    return [*lines, github_command("notice", coverage_statement(report), title="releasekb")]


def _github_finding(report: Report, finding: Finding) -> str:
    lang = report.options.lang
    t = STRINGS[lang]
    command = _GITHUB_COMMANDS[level(finding, report.options)]
    message = finding.message[lang]
    line, col = finding.line, finding.column
    if finding.cell is not None:  # the line is inside a cell: annotate the line of the notebook file holding it
        message += f" ({location(report, finding.path, finding.line, None, finding.cell)})"
        line, col = finding.file_line, None
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
    atomic.write_text(output, render(report, output_format))  # only a regular file; raises WriteFailed
    summary = github_log_line if output_format == "github" else visible
    stdout.write(summary(summary_line(report)) + "\n")


# --------------------------------------------------------------------------- levels and exit, as CHECK.md shows them

LEVELS_TABLE_MARKER = "<!-- levels and exit -->"  # CHECK.md holds levels_table() under it
# The --fail-on values the table shows: the default, none, and two lists of one's own
_TABLE_FAIL_ON = (None, "none", "removed,breaking", "newer,unstable")


def levels_table() -> str:
    """The Markdown table of CHECK.md: for each finding and --fail-on value, the exit status it
    leads to and its level in SARIF and `github`, as outcome() decides them (a test keeps
    CHECK.md's copy equal to this)."""
    from releasekb.check.options import parse_fail_on

    situations = [(f"`{kind}`", kind, True) for kind in KINDS]
    situations += [
        ("a change already in effect at `--from` (any kind, with `--show-in-effect`)", "breaking", False),
        ("a guarded use (any kind)", "removed", False),
        ("`unreadable`: a file that could not be checked", UNREADABLE, True),
    ]
    columns = [
        (f"default (`{','.join(DEFAULT_FAIL_ON)}`)" if v is None else f"`{v}`", parse_fail_on(v))
        for v in _TABLE_FAIL_ON
    ]
    lines = [
        "| finding | " + " | ".join(title for title, _ in columns) + " |",
        "| --- |" + " --- |" * len(columns),
    ]
    for title, kind, can_fail in situations:
        cells = []
        for _, fail_on in columns:
            fails, level_ = outcome(kind, fail_on, can_fail=can_fail)
            cells.append(f"exit {int(fails)}, `{level_}`, `::{_GITHUB_COMMANDS[level_]}`")
        lines.append(f"| {title} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
