"""What several formats of the report say alike: where a finding is, its level, the header, the
notes on the versions compared, the summary and the coverage statement every report ends with.
"""

from __future__ import annotations

from releasekb.check import coverage
from releasekb.check.kinds import BY_NAME, KINDS, UNREADABLE, outcome
from releasekb.check.options import SHOW_IN_EFFECT, Options
from releasekb.check.report import STRINGS, Finding, Report, place_text
from releasekb.common.i18n import interface_strings
from releasekb.common.locales import plural_text
from releasekb.kb.catalog import list_text


def level(finding: Finding, options: Options) -> str:
    """The finding's level in SARIF and GitHub annotations: what fails the run is an error and
    nothing else is (kinds.outcome decides both)."""
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


def location(report: Report, path: str, line: int, column: int | None, cell: int | None) -> str:
    """path:line:col, or path:cell N:line L in a notebook."""
    return place_text(report.options.lang, path, line, column, cell)


def header(report: Report) -> str:
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


def summary_line(report: Report) -> str:
    t = STRINGS[report.options.lang]
    counts = t["list_separator"].join(t[BY_NAME[kind].count_key].format(n=n) for kind, n in report.counts().items())
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


def in_effect_record(report: Report) -> dict:
    """The changes already in effect at --from: how many, per kind, and whether `findings` lists
    them (with the option that does)."""
    in_effect = report.in_effect()
    return {
        "count": len(in_effect),
        "counts": {kind: n for kind in KINDS if (n := sum(1 for f in in_effect if f.kind == kind))},
        "listed": report.options.show_in_effect,
        "option": SHOW_IN_EFFECT,
    }
