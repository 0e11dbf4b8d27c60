"""The report model of `releasekb check`: the findings (each citing the entry that says what the
code meets), what was read and how, and what the run decides (counts, exit). The formats
(formats/) write it; they hold no decision of their own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from releasekb.check.coverage import Coverage
from releasekb.check.kinds import BY_NAME, KINDS, TABLE, UNREADABLE, outcome
from releasekb.check.messages import Message, check_strings, explained
from releasekb.check.records import ApiRecord, IndexEntry

if TYPE_CHECKING:
    from releasekb.check.min_release import MinRelease
    from releasekb.check.options import Options

# Interface strings of the command, in every language of the site (common/locales/<lang>.yaml,
# `check.report`). Messages name APIs in backticks, as release notes do; {subject} is the API as the
# entry means it (see analysis.subject).
STRINGS = check_strings("report")
# What a finding takes from the use it is about (scan.Use has each of these fields)
_USE_FIELDS = ("path", "line", "column", "cell", "confidence", "guarded", "resolved", "written", "resolution")


@dataclass(frozen=True)
class Finding:
    kind: str
    api: str
    use: str
    entry: str
    release: str
    path: str
    line: int
    column: int
    cell: int | None
    confidence: str
    guarded: bool
    in_effect_at_from: bool
    resolved: str
    written: str
    resolution: tuple[Message, ...]  # how `written` was resolved, step by step (scan.Use.resolution)
    message: dict[str, str]
    migration: dict[str, str] | None
    replacement: str | None
    replacement_drop_in: bool | None  # None without a replacement
    urls: dict[str, str]  # the entry's permanent address in every language
    feature_urls: dict[str, str]
    title: dict[str, str]
    # in a notebook: the line of the notebook file (its JSON text) that holds the use, where
    # SARIF places it; None elsewhere, or when the file cannot be read again
    file_line: int | None = None

    @classmethod
    def cite(cls, kind: str, record: ApiRecord, entry: IndexEntry, use, **fields) -> Finding:
        """A finding of `kind` about `use` (a scan.Use) of `record`, citing `entry`: what they
        say, and `fields` for the rest (and for what differs from the use: a requirement finding is
        placed at the declaration)."""
        cited = {
            "api": record.name,
            "use": record.use,
            "entry": entry.id,
            "release": entry.release,
            "urls": entry.urls,
            "feature_urls": entry.feature_urls,
            "title": entry.title,
            **{name: getattr(use, name) for name in _USE_FIELDS},
        }
        return cls(kind=kind, **{**cited, **fields})

    @property
    def how(self) -> str:
        """How the use was resolved, in English (the JSON and SARIF reports give it so)."""
        return explained(self.resolution)

    @property
    def met_at_from(self) -> bool:
        """A change already in effect at --from: the code runs on --from, so it has met that
        change already (a removal or breaking change is behind it, a deprecation still only
        warns). It is reported for what it tells, and does not fail the run: the run is about
        what changes on the way to --to."""
        return BY_NAME[self.kind].entry_kind is not None and self.in_effect_at_from

    @property
    def can_fail(self) -> bool:
        """Whether this finding fails the run when its kind is among --fail-on: guarded uses and
        changes met at --from never do."""
        return not self.guarded and not self.met_at_from

    def outcome(self, options: Options) -> tuple[bool, str]:
        """(whether it fails the run, its level): see kinds.outcome."""
        return outcome(self.kind, options.fail_on, can_fail=self.can_fail)


@dataclass
class Report:
    options: Options
    knowledge_base: str
    product: dict[str, str]
    paths: list[str]
    roots: list[str] = field(default_factory=list)  # the Python roots, which the summary names
    releases: list[str] = field(default_factory=list)  # the releases the knowledge base describes
    files_checked: int = 0
    files_skipped: int = 0
    findings: list[Finding] = field(default_factory=list)
    errors: list = field(default_factory=list)  # scan.FileError, with paths as reports show them
    not_regular: list = field(default_factory=list)  # scan.FileError: pipes, devices... skipped unread
    read_otherwise: list = field(default_factory=list)  # scan.FileError: old code read another way, and how
    suppressed: int = 0
    baselined: int = 0  # findings left out because the baseline (--baseline) accepts them
    min_release: MinRelease | None = None
    distribution: str | None = None  # whose declared requirement was looked for (None: no Python root)
    declared: list[dict] = field(default_factory=list)  # {requirement, path, line} as reports show them
    # {field, path, line}: a setup.py declaration computed when it runs, whose requirement is not known
    declared_not_readable: list[dict] = field(default_factory=list)
    # (order, use, record): the unguarded use of the distribution's APIs that needs the latest release
    needed: tuple | None = field(default=None, repr=False)

    # what the knowledge base can tell about the range compared (coverage.py): the reports end with it
    coverage: Coverage | None = None

    def counts(self) -> dict[str, int]:
        """Findings per kind, of this upgrade only (a change already in effect at --from is not
        counted: see in_effect): `used` only with --only, `requirement` only when the project
        declares a requirement to compare with."""
        shown = {"always": True, "only": bool(self.options.only), "declared": bool(self.declared)}
        counted = [f for f in self.findings if not f.met_at_from]
        return {kind.name: sum(1 for f in counted if f.kind == kind.name) for kind in TABLE if shown[kind.counted]}

    def in_effect(self) -> list[Finding]:
        """The changes already in effect at --from: the code runs there already. They are listed
        only with --show-in-effect, apart, and never counted with the changes of this upgrade."""
        return [f for f in self.findings if f.met_at_from]

    def listed(self) -> list[Finding]:
        """The findings every format lists: those of this upgrade, and with --show-in-effect the
        changes already in effect at --from."""
        return [f for f in self.findings if self.options.show_in_effect or not f.met_at_from]

    def failed(self) -> bool:
        """Whether the run fails (exit 1): a finding, or an unreadable file, whose outcome() says
        so. The levels of every format come from the same function."""
        fail_on = self.options.fail_on
        if self.errors and outcome(UNREADABLE, fail_on)[0]:
            return True
        return any(f.outcome(self.options)[0] for f in self.findings)


def place_text(lang: str, path: str, line: int, column: int | None, cell: int | None) -> str:
    """path:line:col, or path:cell N:line L in a notebook, as reports name a place."""
    if cell is not None:
        return STRINGS[lang]["location_cell"].format(path=path, cell=cell, line=line)
    return f"{path}:{line}:{column}" if column else f"{path}:{line}"


def finding_order(finding: Finding) -> tuple:
    """The order reports list findings in: by kind (the table's order), the changes already in
    effect at --from first within a kind, then by place."""
    return (
        KINDS.index(finding.kind),
        not finding.in_effect_at_from,
        finding.path,
        finding.cell or 0,
        finding.line,
        finding.column,
        finding.api,
    )
