"""The report for people (`--format text`, the default): coloured on a terminal unless NO_COLOR
is set; each finding's message, advice and address once, then its places."""

from __future__ import annotations

from releasekb.check import coverage
from releasekb.check.formats.format import Format
from releasekb.check.formats.shared import coverage_statement, header, location, scope_notes, summary_line
from releasekb.check.kinds import BY_NAME, KINDS, UNREADABLE
from releasekb.check.messages import OLD_CODE_STRINGS, explained
from releasekb.check.report import STRINGS, Finding, Report
from releasekb.common.safe_text import visible

PLACES_SHOWN = 10  # lists this many places of one finding, then counts the rest


def text_report(report: Report, *, colour: bool = False) -> str:
    """The report for people. Every line is made visible (safe_text.visible) where it is made:
    a painted one inside `paint`, before its colour codes, the others as they are added."""
    t = STRINGS[report.options.lang]
    paint = _painter(colour)
    lines = [paint("1", header(report))]
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


def _kind_section(report: Report, kind: str, among: list[Finding], paint, level: str = "") -> list[str]:
    """The findings of `kind` among `among`, under a heading that counts them; a change is
    said to be new between --from and --to, unless `level` indents the section in a group of
    its own (the changes already in effect at --from)."""
    t, options = STRINGS[report.options.lang], report.options
    findings = [f for f in among if f.kind == kind]
    if not findings:
        return []
    row = BY_NAME[kind]
    heading = t["heading_count"].format(heading=t[row.heading_key], count=len(findings))
    lines = ["", level + paint(f"1;{row.colour}", heading)]
    # a change guarded or not is new on the way (newer, used, requirement: not a change)
    if not level and row.new_on_the_way:
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
    lines = [f"    {paint(BY_NAME[first.kind].colour, first.message[lang])}"]
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


FORMAT = Format(
    "text",
    lambda report, colour: text_report(report, colour=colour),
    colours=True,
)
