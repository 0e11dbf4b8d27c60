"""The rule engine of `releasekb check`: the findings an upgrade from release A (--from) to
release B (--to) makes of each reference the scanner found in the code, and the lowest release the
code needs. Each kind of finding is found by its module (kinds/: changes, newer, unstable, used);
this module makes the findings they cite, in every language, and gathers them into the report.
"""

from __future__ import annotations

from dataclasses import dataclass

from releasekb.check.coverage import coverage, in_effect_at_from
from releasekb.check.index import ApiIndex
from releasekb.check.kinds import BY_NAME, changes, newer, requirement, unstable, used
from releasekb.check.messages import message
from releasekb.check.min_release import later_requirement, min_release_of
from releasekb.check.options import CONFIDENCES, Options
from releasekb.check.records import ApiRecord, CallCondition, IndexEntry
from releasekb.check.report import STRINGS, Finding, Report, finding_order
from releasekb.check.suppression import suppressed

# The kinds found in each reference of the code, each by its module, in the order they are cited
# (the report sorts its findings by the kinds' table); `used` only with --only.
PER_REFERENCE = (changes, newer, unstable)

# Added to how a use was resolved when the entry concerns only some calls (`when`) and the use does
# not tell whether it is one of them: `torch.mean(*args)`, `torch.mean(x, **options)`.
UNKNOWN_ARGUMENTS = message("unknown_arguments")


def analyse(index: ApiIndex, options: Options, result, paths: list[str], confidence: str = "low") -> Report:
    """Findings and min_release from a scan result (scan.ScanResult with the paths to show); a
    finding whose confidence is below `confidence` is left out (see Analysis._finding)."""
    report = Report(options, index.source, index.product, list(paths), list(index.code_roots.get("python", ())))
    report.releases = list(index.versions)
    report.distribution = requirement.product_distribution(index)
    # Files read: those parsed, and those skipped quickly because they never mention a root.
    report.files_checked = result.files_scanned + result.files_skipped
    report.files_skipped = result.files_skipped
    report.errors = sorted(result.errors, key=lambda error: (error.path, error.line))
    report.not_regular = sorted(result.not_regular, key=lambda error: error.path)
    report.read_otherwise = sorted(result.read_otherwise, key=lambda note: note.path)
    analysis = Analysis(index, options)
    decisive = needed = None
    for uses in _references(result.uses):
        records = [index.records[(use.target.name, use.target.use)] for use in uses]
        findings = analysis.findings_of(uses[0], records)
        if options.only:
            findings = [f for f in findings if f.entry in options.only] + analysis.uses_of(uses[0], records)
        for finding in findings:
            if CONFIDENCES.index(finding.confidence) > CONFIDENCES.index(confidence):
                continue
            if suppressed(uses[0], finding.entry):
                report.suppressed += 1
            else:
                report.findings.append(finding)
        decisive = later_requirement(index, decisive, uses[0], records)
        needed = later_requirement(index, needed, uses[0], requirement.needing(report.distribution, uses[0], records))
    report.findings.sort(key=finding_order)
    report.min_release = min_release_of(decisive)
    report.needed = needed
    report.coverage = coverage(index, options)
    return report


def _references(uses) -> list[list]:
    """Uses grouped by the reference in the code they come from (one per matched target)."""
    groups: dict[tuple, list] = {}
    for use in uses:
        groups.setdefault((use.path, use.cell, use.line, use.column, use.written), []).append(use)
    return list(groups.values())


@dataclass(frozen=True)
class Analysis:
    """The findings that the upgrade of `options` (--from to --to) makes of one reference at a time."""

    index: ApiIndex
    options: Options

    def findings_of(self, use, records: list[ApiRecord]) -> list[Finding]:
        """One finding per entry for one reference: a change entry listing any name it matched
        (the most specific name cites it), an introduction after --to, the level as of --to; none
        for an entry that concerns other calls than this one (`when`)."""
        cited = [item for kind in PER_REFERENCE for item in kind.cited(self.index, self.options, records)]
        return self._first_findings(cited, use, lambda kind, entry: (kind, entry.id, entry.release))

    def uses_of(self, use, records: list[ApiRecord]) -> list[Finding]:
        """With --only: the reference as a use of each feature asked for whose APIs it matched,
        cited by the feature's first entry listing the API."""
        cited = used.cited(self.index, self.options, records)
        return self._first_findings(cited, use, lambda kind, entry: entry.id)

    def _first_findings(self, cited, use, key) -> list[Finding]:
        """The finding of each (kind, record, entry) cited, one per key(kind, entry): the first
        cited that concerns this call."""
        found: dict[object, Finding] = {}
        for kind, record, entry in cited:
            if key(kind, entry) not in found:
                finding = self._finding(kind, record, entry, use)
                if finding is not None:
                    found[key(kind, entry)] = finding
        return list(found.values())

    def _finding(self, kind: str, record: ApiRecord, entry: IndexEntry, use) -> Finding | None:
        """The finding `entry` makes of `use`; None when the entry concerns other calls (`when`),
        one confidence level lower when the use does not tell."""
        concerns = _concerns(entry.when, use.arguments)
        if concerns is False:
            return None
        confidence, how = use.confidence, use.resolution
        if concerns is None:
            confidence, how = _lower(confidence), (*how, UNKNOWN_ARGUMENTS)
        row = BY_NAME[kind]
        replacement = record.replacement if row.entry_kind else None
        drop_in = record.replacement_drop_in if replacement else None
        return Finding.cite(
            kind,
            record,
            entry,
            use,
            confidence=confidence,
            resolution=how,
            # a plain use (--only) is not a change: it is neither in effect at --from nor on the way
            in_effect_at_from=kind != used.KIND
            and in_effect_at_from(self.index, self.options, entry.release, entry.takes_effect),
            message=self._message(kind, record, entry, replacement, drop_in),
            migration=entry.migration if row.migration else None,
            replacement=replacement,
            replacement_drop_in=drop_in,
        )

    def _message(
        self, kind: str, record: ApiRecord, entry: IndexEntry, replacement: str | None, drop_in: bool | None
    ) -> dict[str, str]:
        levels, options = self.index.levels, self.options
        messages = {}
        for lang in options.languages:
            strings = STRINGS[lang]
            values = {
                "subject": _subject(strings, record, entry.when),
                "release": entry.release,
                "to": options.new,
                "as_of": options.new_release,  # the level is known as of a release described, not of --to 2.1
                "title": entry.title[lang],
                "level": levels[entry.level].name[lang] if entry.level else "",
                "required": levels[options.max_stability].name[lang],
            }
            text = strings[BY_NAME[kind].message_key].format(**values)
            if replacement:
                text += strings["use_instead" if drop_in else "replaced_by"].format(replacement=replacement)
            messages[lang] = _sentence(text.strip())
        return messages


def _concerns(when: CallCondition | None, arguments) -> bool | None:
    """Whether a call that passes `arguments` (scan.CallArguments; None: not a call) is one an
    entry's `when` describes: True without a condition, None when its arguments cannot be known."""
    if when is None:
        return True
    if arguments is None:
        return None
    params = when.params
    positional = params[: params.index("*")] if "*" in params else params

    def passes(name: str) -> bool | None:
        return arguments.passes(name, positional.index(name) if name in positional else None)

    verdicts = [passes(name) for name in when.passed]
    verdicts += [None if passed is None else not passed for passed in map(passes, when.not_passed)]
    if False in verdicts:
        return False
    return None if None in verdicts else True


def _lower(confidence: str) -> str:
    return CONFIDENCES[min(CONFIDENCES.index(confidence) + 1, len(CONFIDENCES) - 1)]


def _subject(strings: dict[str, str], record: ApiRecord, when: CallCondition | None) -> str:
    """The API as the entry means it: '`torch.fft` called as a function', '`torch.mean` called with
    `dim` and without `keepdim`'."""
    if when is None:
        return strings[f"subject_{record.use}"].format(api=record.name)
    names = {
        part: strings["list_separator"].join(f"`{name}`" for name in listed)
        for part, listed in (("passed", when.passed), ("not_passed", when.not_passed))
    }
    condition = strings["when_and"].join(
        strings[f"when_{part}"].format(names=text) for part, text in names.items() if text
    )
    return strings["subject_when"].format(api=record.name, condition=condition)


def _sentence(text: str) -> str:
    """'the `torch.fft` module ...' -> 'The ...' (Chinese has no capitals: unchanged)."""
    return text[:1].upper() + text[1:]
