"""`--format github`: GitHub workflow annotations on the pull request (the default when
GITHUB_ACTIONS=true), every text escaped so that none is read as a command."""

from __future__ import annotations

from releasekb.check.formats.format import Format
from releasekb.check.formats.shared import (
    coverage_statement,
    header,
    level,
    location,
    scope_notes,
    summary_line,
    unreadable_level,
)
from releasekb.check.kinds import BY_NAME
from releasekb.check.report import STRINGS, Finding, Report
from releasekb.common.safe_text import github_command, github_log_line

# the workflow command of each level
COMMANDS = {"error": "error", "warning": "warning", "note": "notice"}


def render(report: Report, colour: bool = False) -> str:
    return "".join(line + "\n" for line in github_annotations(report))


def github_annotations(report: Report) -> list[str]:
    """One workflow command per finding listed and per unreadable file, a notice for each path
    skipped because it is not a regular file and for each version that is not a release described
    (scope_notes), then the header (which names the releases compared) and the summary as log
    lines (which name the index's code roots: never read as a command), and last the coverage
    statement as a notice, which the run's page shows."""
    lines = [_github_finding(report, finding) for finding in report.listed()]
    lang = report.options.lang
    command = COMMANDS[unreadable_level(report.options)]
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
    lines += [github_log_line(header(report)), github_log_line(summary_line(report))]
    return [*lines, github_command("notice", coverage_statement(report), title="releasekb")]


def _github_finding(report: Report, finding: Finding) -> str:
    lang = report.options.lang
    t = STRINGS[lang]
    command = COMMANDS[level(finding, report.options)]
    message = finding.message[lang]
    line, col = finding.line, finding.column
    if finding.cell is not None:  # the line is inside a cell: annotate the line of the notebook file holding it
        message += f" ({location(report, finding.path, finding.line, None, finding.cell)})"
        line, col = finding.file_line, None
    if finding.migration:
        message += "\n" + t["migration"].format(text=finding.migration[lang])
    message += "\n" + t["more"].format(url=finding.urls[lang])
    title = f"releasekb: {t[BY_NAME[finding.kind].heading_key]} ({finding.entry})"
    return github_command(command, message, file=finding.path, line=line, col=col, title=title)


FORMAT = Format("github", render, summary=github_log_line)
