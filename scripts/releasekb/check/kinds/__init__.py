"""The kinds of finding `releasekb check` reports: one row each, in the order reports list them
(the most urgent first). Everything that lists kinds (the rule engine, the report's counts, the
--fail-on choices, the formats' headings, colours and rule ids, CHECK.md's table of kinds and its
levels table) reads them here. A kind with logic of its own has a module beside this one that
finds it (changes.py: removed, breaking, deprecated; newer.py; unstable.py; used.py;
requirement.py); `unreadable` is a file the scanner could not read, reported by the scan itself.

Levels: what fails the run is an error, and nothing else is (outcome), so no kind is an error by
itself; `level` is a kind's level when it does not fail the run.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FindingKind:
    name: str  # as --fail-on, JSON `kind` and SARIF's tags write it
    # when the kind is reported, in Markdown for the reader: CHECK.md's table of kinds (kinds_table.py)
    trigger: str
    fails_by_default: bool  # in the default --fail-on
    level: str  # SARIF `level` (and `github` command) when it does not fail the run: see outcome
    # the change entry kind (kb.model.CHANGE_KINDS) that makes it; None for a kind that is no change
    entry_kind: str | None = None
    # whether the finding carries its entry's migration advice (an introduction or a level gives none)
    migration: bool = False
    # SARIF rule id: None for the id of the entry a finding cites; a kind that breaks no entry's
    # rule has one of its own, whose id no entry can have (entry ids have no '/')
    rule: str | None = None
    colour: str = ""  # its ANSI colour in the text report
    # whether the text report heads its findings "new between --from and --to" (a kind made of
    # entries released on the way; a declared requirement, an API newer than --to or a plain use
    # is not one)
    new_on_the_way: bool = False
    # when the summary counts it: "always", "only" (with --only), "declared" (when the project
    # declares a requirement to compare with)
    counted: str = "always"

    @property
    def message_key(self) -> str:
        """Its message in the `check.report` strings (`{subject} was removed in {release}`)."""
        return self.name

    @property
    def heading_key(self) -> str:
        return f"heading_{self.name}"

    @property
    def count_key(self) -> str:
        return f"count_{self.name}"


TABLE = (
    FindingKind(
        "removed",
        "a change new between `--from` and `--to` removes an API the code uses"
        " (a change already in effect at `--from`: see below)",
        fails_by_default=True,
        level="warning",
        entry_kind="removal",
        migration=True,
        colour="31",
        new_on_the_way=True,
    ),
    FindingKind(
        "breaking",
        "a change new between `--from` and `--to` changes an API the code uses incompatibly"
        " (a change already in effect at `--from`: see below)",
        fails_by_default=True,
        level="warning",
        entry_kind="breaking",
        migration=True,
        colour="31",
        new_on_the_way=True,
    ),
    FindingKind(
        "deprecated",
        "a change new between `--from` and `--to` deprecates an API the code uses"
        " (a change already in effect at `--from`: see below)",
        fails_by_default=True,
        level="warning",
        entry_kind="deprecation",
        migration=True,
        colour="33",
        new_on_the_way=True,
    ),
    FindingKind(
        "requirement",
        "the project declares a requirement on the product (`torch>=1.4`) that allows releases before the one"
        " its code needs (it uses `torch.fft.fft`, from 1.7); reported at the declaration's file and line",
        fails_by_default=True,
        level="warning",
        migration=True,
        rule="releasekb/declared-requirement",
        colour="31",
        counted="declared",
    ),
    FindingKind(
        "newer",
        "the code uses an API introduced after `--to`",
        fails_by_default=False,
        level="warning",
        colour="33",
    ),
    FindingKind(
        "unstable",
        "the used API's level as of `--to` (the latest level its feature was published at) ranks below"
        " `--max-stability` (default: the most stable label); only the most specific API counts, so"
        " `torch.fft.fft(x)` is reported once, as the beta `torch.fft.fft`",
        fails_by_default=False,
        level="note",
        colour="36",
        new_on_the_way=True,
    ),
    FindingKind(
        "used",
        "with `--only`: every use of the APIs of the features asked for, whatever their level (what a"
        ' feature page\'s "Find it in your code" command finds)',
        fails_by_default=False,
        level="note",
        migration=True,
        colour="32",
        counted="only",
    ),
)
# a file the scanner could not read: it fails the run like a finding, and is listed apart
UNREADABLE_ROW = FindingKind(
    "unreadable",
    "a file that could not be checked, listed apart from the findings: one that cannot be read or decoded,"
    " is over `--max-file-size`, has a null byte or is too deeply nested (old code read another way is"
    " not unreadable), a notebook cell that still does not parse, or a packaging file that cannot be parsed",
    fails_by_default=True,
    level="warning",
)

BY_NAME = {kind.name: kind for kind in (*TABLE, UNREADABLE_ROW)}
KINDS = tuple(kind.name for kind in TABLE)
UNREADABLE = UNREADABLE_ROW.name
FAIL_ON_CHOICES = tuple(BY_NAME)
DEFAULT_FAIL_ON = tuple(name for name, kind in BY_NAME.items() if kind.fails_by_default)
# the finding kind each change entry kind makes (removal -> removed)
BY_ENTRY_KIND = {kind.entry_kind: kind.name for kind in TABLE if kind.entry_kind}


def outcome(kind: str, fail_on: frozenset[str], *, can_fail: bool = True) -> tuple[bool, str]:
    """(whether it fails the run, its level) for a finding of `kind`, or an unreadable file: the
    one decision of both, so that the exit status and every format's level (SARIF `level`, the
    `github` command) agree. What fails the run is an error; what does not is never one: a
    finding that cannot fail it (a guarded use, a change already in effect at --from) is a note,
    another its kind's `level`."""
    if can_fail and kind in fail_on:
        return True, "error"
    return False, BY_NAME[kind].level if can_fail else "note"


def rule_id(kind: str, entry_id: str) -> str:
    """The SARIF rule a finding of `kind` citing `entry_id` breaks: the entry's, or its kind's own."""
    return BY_NAME[kind].rule or entry_id
