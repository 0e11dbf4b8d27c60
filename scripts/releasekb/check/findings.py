"""`releasekb check`: the knowledge base applied to a codebase.

The scanner (scan/) finds where the code uses the APIs of the index (kb/api_index.py, or a
published one read by index_source.py); this module turns those uses into findings for an
upgrade from release A (--from) to release B (--to):
- removed, breaking, deprecated: a change entry released at or before B lists an API the code
  uses; it was either already in effect at A or comes between A and B;
- newer: the code uses an API introduced after B;
- unstable: the used API's level as of B ranks below --max-stability;
and the lowest release that provides every API the code uses (min_release). check/output.py
prints the report as text, JSON, SARIF or GitHub annotations.
"""

from __future__ import annotations

import dataclasses
import difflib
import posixpath
from dataclasses import dataclass, field
from pathlib import Path

from releasekb.check.coverage import Coverage, coverage, in_effect_at_from
from releasekb.check.messages import Message, check_strings, explained, message
from releasekb.check.records import ApiRecord, CallCondition, IndexEntry, Level
from releasekb.common.safe_text import visible
from releasekb.common.versions import is_version, release_as_of, version_key

# Finding kinds, in the order reports list them (the most urgent first).
# "used" is reported only with --only: every use of the features asked for (what each feature
# page's command finds), whatever their level; it fails the run only when --fail-on names it.
# "requirement": the project declares a requirement on the product (torch>=1.4) that allows
# releases before the one the code needs (see requirement.py).
KINDS = ("removed", "breaking", "deprecated", "requirement", "newer", "unstable", "used")
UNREADABLE = "unreadable"  # a file the scanner could not read: fails the run like a finding
FAIL_ON_CHOICES = (*KINDS, UNREADABLE)
DEFAULT_FAIL_ON = ("removed", "breaking", "deprecated", "requirement", UNREADABLE)
# What a finding's kind is when it does not fail the run (see outcome): what fails the run is an
# error, and nothing else is, so no kind is an error by itself. A removal, a breaking change, a
# deprecation, a declared requirement that is too low and an API newer than --to are warnings; an
# unstable API or a plain use (--only) a note; a file that could not be checked a warning.
LEVELS_WHEN_NOT_FAILING = {
    "removed": "warning",
    "breaking": "warning",
    "deprecated": "warning",
    "requirement": "warning",
    "newer": "warning",
    "unstable": "note",
    "used": "note",
    UNREADABLE: "warning",
}
# The option (and [tool.releasekb.check] key) that lists the changes already in effect at --from
SHOW_IN_EFFECT = "--show-in-effect"
PLACES_SHOWN = 10  # the text report lists this many places of one finding, then counts the rest
CONFIDENCES = ("high", "medium", "low")
_CHANGE_FINDINGS = {"removal": "removed", "breaking": "breaking", "deprecation": "deprecated"}
BARE_IGNORE = "*"  # `# releasekb: ignore` without ids suppresses every finding on its line
# What a finding takes from the use it is about (scan.Use has each of these fields)
_USE_FIELDS = ("path", "line", "column", "cell", "confidence", "guarded", "resolved", "written", "resolution")

# Interface strings of the command, in every language of the site (common/locales/<lang>.yaml,
# `check.report`). Messages name APIs in backticks, as release notes do; {subject} is the API as the
# entry means it (see _subject).
STRINGS = check_strings("report")

# Added to how a use was resolved when the entry concerns only some calls (`when`) and the use does
# not tell whether it is one of them: `torch.mean(*args)`, `torch.mean(x, **options)`.
UNKNOWN_ARGUMENTS = message("unknown_arguments")


class CheckUsage(Exception):
    """Wrong usage of `check` (unknown version, --from newer than --to...): exit 2."""


class ApiIndex:
    """An API index document (api_index.index_document or a published apis.json), parsed into
    records (records.py) ready to query. The document must be valid: index_source.load_index
    checks a published one against its schema and references."""

    def __init__(self, document: dict, source: str):
        self.source = source  # what the report names as the knowledge base
        self.product: dict[str, str] = document["product"]
        # the knowledge base's languages, in its order (its texts, the product's name first, have one text in each)
        self.languages: tuple[str, ...] = tuple(self.product)
        self.versions = [release["version"] for release in document["releases"]]
        # the product's releases the knowledge base does not describe (absent from indexes
        # published before it existed)
        self.not_described: list[str] = document.get("not_described") or []
        # the change entries that list no API, which no scan can find (see coverage.py); None
        # when the index does not say (published before releases listed them)
        self.changes_without_apis: list[dict] | None = _changes_without_apis(document["releases"])
        self.order = {version: position for position, version in enumerate(self.versions)}
        self.levels = {level["key"]: Level.parse(level) for level in document["levels"]}
        self.code_roots: dict[str, list[str]] = document.get("code_roots") or {}
        parsed = map(ApiRecord.parse, document["apis"])
        self.records: dict[tuple[str, str], ApiRecord] = {record.key: record for record in parsed}

    def ranked_levels(self) -> list[str]:
        """Level keys with a rank, most stable first: the choices of --max-stability."""
        return [key for key, level in self.levels.items() if level.rank is not None]

    def level_as_of(self, record: ApiRecord, version: str | None) -> tuple[str, str] | None:
        """(release, level key) of the latest level with a rank that the introducing feature
        was published at, at or before the release `version`; None when there is none (an
        unlabeled mention says nothing about stability, so it does not replace a stated level)
        or `version` is None (before the first release described)."""
        if version is None:
            return None
        published = [
            (release, key)
            for release, key in record.levels.items()
            if self.order[release] <= self.order[version] and self.levels[key].rank is not None
        ]
        return max(published, key=lambda item: self.order[item[0]], default=None)

    def position(self, release: str | None) -> int:
        """Where a compared release (Options.old_release/new_release) is in the index's order: -1
        before the first release, so that no release described is at or before it."""
        return -1 if release is None else self.order[release]


def _changes_without_apis(releases: list[dict]) -> list[dict] | None:
    if any("changes_without_apis" not in release for release in releases):
        return None
    return [{**change, "release": r["version"]} for r in releases for change in r["changes_without_apis"]]


def open_index(index_source: str | None, data_dir: Path, site_url: str = "", timeout: float | None = None) -> ApiIndex:
    """The API index from a published apis.json (--index: a file or an http(s) address, read
    within `timeout` seconds), else built from the data folder, as the site would publish it.
    Raises index_source.IndexUnreadable or problems.DataError when it cannot be read."""
    from releasekb.check.index_source import DEFAULT_TIMEOUT_SECONDS, load_index
    from releasekb.kb.api_index import index_document
    from releasekb.kb.model import suggested_code_section

    if index_source:
        # load_index checks the schema and every reference: ApiIndex and the findings rely on both
        index = ApiIndex(load_index(index_source, timeout or DEFAULT_TIMEOUT_SECONDS), index_source)
        where = "its knowledge base needs `code.roots` in project.yaml"
    else:
        from releasekb.kb.pipeline import load_catalog

        catalog = load_catalog(data_dir)
        index = ApiIndex(index_document(catalog, site_url or catalog.site_url), str(data_dir))
        names = [name for name, _ in index.records]
        where = f"add `{suggested_code_section(names)}` to {Path(data_dir) / 'project.yaml'}"
    if not any(index.code_roots.values()):
        # the scanner would look for nothing and report a clean codebase, whatever it uses
        raise CheckUsage(f"{index.source} declares no code roots, so no use of its APIs can be found in code: {where}")
    return index


@dataclass(frozen=True)
class Options:
    old: str  # --from as asked; a release of the knowledge base as it spells it (1.4.0 -> 1.4)
    new: str  # --to, likewise
    old_defaulted: bool  # --from was not given (the text header says so)
    max_stability: str
    fail_on: frozenset[str]
    # The releases compared: the latest release described at or before --from and --to; None
    # when the version comes before the first release described (nothing described applies yet).
    old_release: str | None
    new_release: str | None
    lang: str = ""  # the report's language: one of `languages`
    # the knowledge base's languages (the index's texts have one text in each): messages are made in each
    languages: tuple[str, ...] = ()
    only: frozenset[str] = frozenset()  # --only: report just these features (ids), and every use of them
    # --show-in-effect: list the changes already in effect at --from (apart, never counted)
    show_in_effect: bool = False
    # The releases the knowledge base does not describe after --from up to --to: what they changed
    # is not checked (the report's header says so).
    not_described: tuple[str, ...] = ()


def resolve_options(
    index: ApiIndex,
    old: str | None,
    new: str | None,
    max_stability: str | None,
    fail_on: str | None,
    lang: str | None,
    only: str | None = None,
    show_in_effect: bool = False,
) -> Options:
    """Check the command's choices against the index; raise CheckUsage naming what is allowed.
    lang None: the knowledge base's first language."""
    languages = index.languages
    if lang is not None and lang not in languages:
        raise CheckUsage(
            f"--lang {visible(lang)}: not a language of the knowledge base (one of: {', '.join(languages)})"
        )
    resolved_old = _asked_version(index, "--from", old) if old is not None else index.versions[0]
    resolved_new = _asked_version(index, "--to", new) if new is not None else index.versions[-1]
    if version_key(resolved_old) > version_key(resolved_new):
        raise CheckUsage(f"--from {resolved_old} is newer than --to {resolved_new}")
    ranked = index.ranked_levels()
    if max_stability is not None and max_stability not in ranked:
        raise CheckUsage(f"--max-stability {max_stability}: not a stability level (one of: {', '.join(ranked)})")
    failing = parse_fail_on(fail_on)
    return Options(
        old=resolved_old,
        new=resolved_new,
        old_defaulted=old is None,
        max_stability=max_stability or ranked[0],
        fail_on=failing,
        old_release=release_as_of(resolved_old, index.versions),
        new_release=release_as_of(resolved_new, index.versions),
        lang=lang or languages[0],
        languages=languages,
        only=_parse_only(index, only),
        show_in_effect=show_in_effect,
        not_described=tuple(
            version
            for version in index.not_described
            if version_key(resolved_old) < version_key(version) <= version_key(resolved_new)
        ),
    )


def _asked_version(index: ApiIndex, flag: str, text: str) -> str:
    """--from/--to as the report names it: any version; a release described here in the knowledge
    base's own spelling (1.4.0 is 1.4). Only text that is no version is wrong usage."""
    version = text.strip().removeprefix("v").removeprefix("V")
    if not is_version(version):
        raise CheckUsage(
            f"{flag} {visible(text)}: not a version (write it as 1.4 or 1.7.1; "
            f"this knowledge base describes {', '.join(index.versions)})"
        )
    same = [release for release in index.versions if version_key(release) == version_key(version)]
    return same[0] if same else version


def _parse_only(index: ApiIndex, text: str | None) -> frozenset[str]:
    """'torch-fft,rpc-api' -> those feature ids, each of which must list an API in the index."""
    if not text:
        return frozenset()
    ids = {part.strip() for part in text.split(",") if part.strip()}
    known = {entry.id for record in index.records.values() for entry in record.entries}
    unknown = sorted(ids - known)
    if unknown:
        hint = difflib.get_close_matches(unknown[0], sorted(known), n=1)
        near = f" (did you mean {hint[0]}?)" if hint else ""
        raise CheckUsage(f"--only {','.join(unknown)}: no feature of the knowledge base lists an API by that id{near}")
    return frozenset(ids)


def parse_fail_on(text: str | None) -> frozenset[str]:
    """'removed,breaking' -> those kinds; 'none' or '' -> nothing fails the run."""
    if text is None:
        return frozenset(DEFAULT_FAIL_ON)
    kinds = {part.strip() for part in text.split(",") if part.strip()} - {"none"}
    unknown = sorted(kinds - set(FAIL_ON_CHOICES))
    if unknown:
        raise CheckUsage(
            f"--fail-on {','.join(unknown)}: unknown kind (choose from {','.join(FAIL_ON_CHOICES)}, or none)"
        )
    return frozenset(kinds)


def outcome(kind: str, fail_on: frozenset[str], *, can_fail: bool = True) -> tuple[bool, str]:
    """(whether it fails the run, its level) for a finding of `kind`, or an unreadable file: the
    one decision of both, so that the exit status and every format's level (SARIF `level`, the
    `github` command) agree. What fails the run is an error; what does not is never one: a
    finding that cannot fail it (a guarded use, a change already in effect at --from) is a note,
    another its kind's LEVELS_WHEN_NOT_FAILING."""
    if can_fail and kind in fail_on:
        return True, "error"
    return False, LEVELS_WHEN_NOT_FAILING[kind] if can_fail else "note"


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
        return self.kind in _CHANGE_FINDINGS.values() and self.in_effect_at_from

    @property
    def can_fail(self) -> bool:
        """Whether this finding fails the run when its kind is among --fail-on: guarded uses and
        changes met at --from never do."""
        return not self.guarded and not self.met_at_from

    def outcome(self, options: Options) -> tuple[bool, str]:
        """(whether it fails the run, its level): see outcome()."""
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
        left_out = {"used"} - (set(KINDS) if self.options.only else set())
        if not self.declared:
            left_out.add("requirement")
        counted = [f for f in self.findings if not f.met_at_from]
        return {kind: sum(1 for f in counted if f.kind == kind) for kind in KINDS if kind not in left_out}

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


def run_check(
    index: ApiIndex,
    options: Options,
    paths: list[str],
    *,
    include=(),
    exclude=(),
    confidence: str = "medium",
    max_file_size: int | None = None,
    cache=None,
) -> Report:
    """Scan `paths` for the index's APIs and report what an upgrade from --from to --to means.
    A file larger than `max_file_size` bytes is skipped (default: the scanner's limit); with
    `cache`, a cache.ScanCache, unchanged files are not scanned again."""
    from releasekb.check import scan

    targets = [scan.Target(name, use) for name, use in index.records]
    python_roots = tuple(index.code_roots.get("python", ()))
    tokens = tuple(root for language, roots in index.code_roots.items() if language != "python" for root in roots)
    roots = scan.Roots(python_roots, tokens)
    limit = scan.DEFAULT_MAX_FILE_SIZE if max_file_size is None else max_file_size
    scan_options = {"include": include, "exclude": exclude, "confidence": confidence, "max_file_size": limit}
    groups = scan_groups(paths)
    results = [(prefix, scan.scan(group, targets, roots, **scan_options, cache=cache)) for prefix, group in groups]
    report = analyse(index, options, _merged(results), paths, confidence)
    check_declared_requirement(options, report, paths)
    place_in_notebook_files(report, _notebook_files(groups, results), limit)
    return report


def scan_groups(paths: list[str]) -> list[tuple[str, list[str]]]:
    """(display prefix, paths) for one scan each. The scanner reports a file relative to the
    folder it was given, and a file given by itself by its name: each folder is scanned alone and
    files are scanned with the others of their folder, so that every reported path can be made
    unambiguous again (pre-commit passes `a/__init__.py b/__init__.py`)."""
    groups: dict[tuple[str, str], list[str]] = {}
    for path in paths:
        folder = Path(path) if Path(path).is_dir() else Path(path).parent
        key = (display_prefix(folder), path if Path(path).is_dir() else "")
        groups.setdefault(key, []).append(path)
    return [(prefix, group) for (prefix, _), group in groups.items()]


def display_prefix(folder: Path) -> str:
    """How reports name a scanned folder: relative to the current directory when it is below it
    (what GitHub annotations and SARIF's %SRCROOT% expect when run from the repository's root,
    and what a terminal can open), else nothing: paths are then relative to the scanned folder."""
    cwd, absolute = Path.cwd().resolve(), folder.resolve()
    if absolute.is_relative_to(cwd):
        relative = absolute.relative_to(cwd).as_posix()
        return "" if relative == "." else relative
    return ""


def _merged(results: list):
    """One scan.ScanResult from several, with every path as reports show it."""
    from releasekb.check.scan import ScanResult

    def shown(prefix: str, path: str) -> str:
        return posixpath.join(prefix, path) if prefix else path

    def each_shown(errors: str) -> list:
        return [dataclasses.replace(e, path=shown(prefix, e.path)) for prefix, r in results for e in getattr(r, errors)]

    return ScanResult(
        uses=[dataclasses.replace(use, path=shown(prefix, use.path)) for prefix, r in results for use in r.uses],
        errors=each_shown("errors"),
        files_scanned=sum(r.files_scanned for _, r in results),
        files_skipped=sum(r.files_skipped for _, r in results),
        not_regular=each_shown("not_regular"),
        read_otherwise=each_shown("read_otherwise"),
    )


def analyse(index: ApiIndex, options: Options, result, paths: list[str], confidence: str = "low") -> Report:
    """Findings and min_release from a scan result (scan.ScanResult with the paths to show); a
    finding whose confidence is below `confidence` is left out (see Analysis._finding)."""
    report = Report(options, index.source, index.product, list(paths), list(index.code_roots.get("python", ())))
    report.releases = list(index.versions)
    report.distribution = product_distribution(index)
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
            if _suppressed(uses[0], finding.entry):
                report.suppressed += 1
            else:
                report.findings.append(finding)
        decisive = _later_requirement(index, decisive, uses[0], records)
        needed = _later_requirement(index, needed, uses[0], _needing(report.distribution, uses[0], records))
    report.findings.sort(key=_finding_order)
    report.min_release = _min_release(decisive)
    report.needed = needed
    report.coverage = coverage(index, options)
    return report


def _references(uses) -> list[list]:
    """Uses grouped by the reference in the code they come from (one per matched target)."""
    groups: dict[tuple, list] = {}
    for use in uses:
        groups.setdefault((use.path, use.cell, use.line, use.column, use.written), []).append(use)
    return list(groups.values())


def _suppressed(use, entry_id: str) -> bool:
    return BARE_IGNORE in use.suppressed or entry_id in use.suppressed


def _finding_order(finding: Finding) -> tuple:
    return (
        KINDS.index(finding.kind),
        not finding.in_effect_at_from,
        finding.path,
        finding.cell or 0,
        finding.line,
        finding.column,
        finding.api,
    )


# --------------------------------------------------------------------------- findings of one reference


def _specific_first(records: list[ApiRecord]) -> list[ApiRecord]:
    """The matched records, the most specific name first (torch.fft.fft before torch.fft)."""
    return sorted(records, key=lambda record: (-len(record.name), record.use))


@dataclass(frozen=True)
class Analysis:
    """The findings that the upgrade of `options` (--from to --to) makes of one reference at a time."""

    index: ApiIndex
    options: Options

    def findings_of(self, use, records: list[ApiRecord]) -> list[Finding]:
        """One finding per entry for one reference: a change entry listing any name it matched
        (the most specific name cites it), an introduction after --to, the level as of --to; none
        for an entry that concerns other calls than this one (`when`)."""
        cited = [
            (kind, record, entry)
            for record in _specific_first(records)
            for kind, entry in [*self._change_entries(record), *self._newer_entries(record)]
        ]
        unstable = self._unstable(records)
        if unstable:
            record, entry = unstable
            cited.append(("unstable", record, entry))
        by_entry: dict[tuple[str, str, str], Finding] = {}
        for kind, record, entry in cited:
            key = (kind, entry.id, entry.release)
            if key not in by_entry:
                finding = self._finding(kind, record, entry, use)
                if finding is not None:
                    by_entry[key] = finding
        return list(by_entry.values())

    def uses_of(self, use, records: list[ApiRecord]) -> list[Finding]:
        """With --only: the reference as a use of each feature asked for whose APIs it matched,
        cited by the feature's first entry listing the API."""
        found: dict[str, Finding] = {}
        for record in _specific_first(records):
            for entry in record.entries:
                if entry.id in self.options.only and entry.id not in found:
                    finding = self._finding("used", record, entry, use)
                    if finding is not None:
                        found[entry.id] = finding
        return list(found.values())

    def _change_entries(self, record: ApiRecord) -> list[tuple[str, IndexEntry]]:
        newest = self.index.position(self.options.new_release)
        return [
            (_CHANGE_FINDINGS[entry.kind], entry)
            for entry in record.entries
            if entry.is_change and entry.kind in _CHANGE_FINDINGS and self.index.order[entry.release] <= newest
        ]

    def _newer_entries(self, record: ApiRecord) -> list[tuple[str, IndexEntry]]:
        introduced = record.introduced_in
        if introduced is None or self.index.order[introduced] <= self.index.position(self.options.new_release):
            return []
        return [("newer", record.introducing_entry())]

    def _unstable(self, records: list[ApiRecord]) -> tuple[ApiRecord, IndexEntry] | None:
        """The most specific matched record whose feature has a stated level as of --to decides:
        a stable function of a beta module is stable. Returns (record, entry) when it ranks below
        --max-stability."""
        for record in _specific_first(records):
            if record.introduced_in is None:
                continue
            published = self.index.level_as_of(record, self.options.new_release)
            if published is None:
                continue
            release, key = published
            if self.index.levels[key].rank >= self.index.levels[self.options.max_stability].rank:
                return None
            return record, _level_entry(record, release, key)
        return None

    def _finding(self, kind: str, record: ApiRecord, entry: IndexEntry, use) -> Finding | None:
        """The finding `entry` makes of `use`; None when the entry concerns other calls (`when`),
        one confidence level lower when the use does not tell."""
        concerns = _concerns(entry.when, use.arguments)
        if concerns is False:
            return None
        confidence, how = use.confidence, use.resolution
        if concerns is None:
            confidence, how = _lower(confidence), (*how, UNKNOWN_ARGUMENTS)
        replacement = record.replacement if kind in _CHANGE_FINDINGS.values() else None
        drop_in = record.replacement_drop_in if replacement else None
        return Finding.cite(
            kind,
            record,
            entry,
            use,
            confidence=confidence,
            resolution=how,
            # a plain use (--only) is not a change: it is neither in effect at --from nor on the way
            in_effect_at_from=kind != "used"
            and in_effect_at_from(self.index, self.options, entry.release, entry.takes_effect),
            message=self._message(kind, record, entry, replacement, drop_in),
            migration=entry.migration if kind not in ("newer", "unstable") else None,
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
            text = strings[kind].format(**values)
            if replacement:
                text += strings["use_instead" if drop_in else "replaced_by"].format(replacement=replacement)
            messages[lang] = _sentence(text.strip())
        return messages


def _level_entry(record: ApiRecord, release: str, level: str) -> IndexEntry:
    """The feature's entry in `release` as a finding cites it. The index lists only entries that
    name the API; a later entry of the same feature (a promotion that names no API) has the same
    id, and its address differs only by the release."""
    introducing = record.introducing_entry()
    if introducing.release == release:
        return introducing
    old = f"/releases/{introducing.release}/#"
    moved = {lang: url.replace(old, f"/releases/{release}/#") for lang, url in introducing.urls.items()}
    return dataclasses.replace(introducing, release=release, kind="new", level=level, migration=None, urls=moved)


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


# --------------------------------------------------------------------------- lowest release


def _later_requirement(index: ApiIndex, decisive, use, records: list[ApiRecord]):
    """(order, use, record) of the latest introduction among this reference's matched records
    (its whole prefix chain) and the one found so far; ties keep the earlier use, and within a
    use the most specific name (torch.fft.fft rather than the torch.fft module it is under)."""
    for record in _specific_first(records):
        introduced = record.introduced_in
        if introduced is None or _suppressed(use, record.feature):
            continue
        candidate = (index.order[introduced], use, record)
        if decisive is None or _later(candidate, decisive):
            decisive = candidate
    return decisive


def _later(candidate, current) -> bool:
    def place(item):
        order, use, _ = item
        return (-order, use.path, use.cell or 0, use.line, use.column)

    return place(candidate) < place(current)


@dataclass(frozen=True)
class MinRelease:
    """The lowest release that provides every API the code uses, and the use that decides it."""

    version: str
    api: str
    path: str
    line: int
    column: int
    cell: int | None
    written: str
    resolved: str
    resolution: tuple[Message, ...]

    def record(self) -> dict:
        """As the JSON report gives it (check_schema.json): how it was resolved in English."""
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "resolution"}
        return {**fields, "how": explained(self.resolution)}


def _min_release(decisive) -> MinRelease | None:
    if decisive is None:
        return None
    _, use, record = decisive
    return MinRelease(
        version=record.introduced_in,
        api=record.name,
        path=use.path,
        line=use.line,
        column=use.column,
        cell=use.cell,
        written=use.written,
        resolved=use.resolved,
        resolution=use.resolution,
    )


# --------------------------------------------------------------------------- the declared requirement


def product_distribution(index: ApiIndex) -> str | None:
    """The distribution whose versions the knowledge base's releases are: its first Python code
    root (torch). The other roots (torchvision, torchaudio) are released with versions of their
    own, which the knowledge base's releases do not number."""
    python_roots = index.code_roots.get("python") or []
    return python_roots[0] if python_roots else None


def _needing(root: str | None, use, records: list[ApiRecord]) -> list[ApiRecord]:
    """The records of a reference that tell which release of `root` the code needs: names under
    the root, used unguarded (a guarded use runs only where the API exists)."""
    if root is None or use.guarded:
        return []
    return [record for record in records if record.name == root or record.name.startswith(root + ".")]


def check_declared_requirement(options: Options, report: Report, paths: list[str]) -> None:
    """Read what the checked project declares on the product (requirement.py) into the report,
    with a `requirement` finding for each declaration that allows releases before the one the
    code needs, and the packaging files that could not be read among the report's errors."""
    from releasekb.check import requirement
    from releasekb.check.scan import FileError

    if report.distribution is None:
        return
    cwd = Path.cwd().resolve()
    found, unreadable, computed = requirement.declared(requirement.project_folders(paths, cwd), report.distribution)
    report.declared_not_readable = [
        {"field": c.field, "path": _shown_file(c.file, paths, cwd), "line": c.line} for c in computed
    ]
    for declared in found:
        where = _shown_file(declared.file, paths, cwd)
        report.declared.append({"requirement": declared.text, "path": where, "line": declared.line})
        if report.needed and requirement.allows_before(declared.specifier, report.needed[2].introduced_in):
            finding = _requirement_finding(options, report, declared.text, where, declared.line)
            if not options.only or finding.entry in options.only:
                report.findings.append(finding)
    report.errors += [FileError(_shown_file(u.file, paths, cwd), u.line, u.reason) for u in unreadable]
    report.errors.sort(key=lambda error: (error.path, error.line))
    report.findings.sort(key=_finding_order)


def _shown_file(file: Path, paths: list[str], cwd: Path) -> str:
    """A packaging file as reports name it: like the scanned files (relative to the current
    directory when below it, else to the scanned folder it belongs to)."""
    if file.is_relative_to(cwd):
        return file.relative_to(cwd).as_posix()
    for path in paths:
        folder = Path(path).resolve()
        folder = folder if folder.is_dir() else folder.parent
        if file.is_relative_to(folder):
            return file.relative_to(folder).as_posix()
    return file.as_posix()


def _requirement_finding(options: Options, report: Report, declared: str, path: str, line: int) -> Finding:
    """A declaration that allows releases before the one the code needs, cited by the entry that
    introduced the deciding API."""
    _, use, record = report.needed
    values = {"declared": declared, "release": record.introduced_in, "api": record.name}
    message, migration = {}, {}
    for lang in options.languages:
        strings = STRINGS[lang]
        where = place_text(lang, use.path, use.line, use.column, use.cell)
        message[lang] = strings["requirement"].format(**values, location=where)
        migration[lang] = strings["requirement_migration"].format(**values, distribution=report.distribution)
    return Finding.cite(
        "requirement",
        record,
        record.introducing_entry(),
        use,
        path=path,
        line=line,
        column=0,
        cell=None,
        guarded=False,
        in_effect_at_from=False,
        message=message,
        migration=migration,
        replacement=None,
        replacement_drop_in=None,
    )


def place_text(lang: str, path: str, line: int, column: int | None, cell: int | None) -> str:
    """path:line:col, or path:cell N:line L in a notebook, as reports name a place."""
    if cell is not None:
        return STRINGS[lang]["location_cell"].format(path=path, cell=cell, line=line)
    return f"{path}:{line}:{column}" if column else f"{path}:{line}"


# --------------------------------------------------------------------------- notebooks as files


def _notebook_files(groups: list[tuple[str, list[str]]], results: list) -> dict[str, Path]:
    """{notebook as reports show it: the file on disk} for every notebook with a use. The scanner
    names a file of a folder scanned relative to the folder, and a file given by itself by its name
    (see scan_groups)."""
    files = {}
    for (prefix, group), (_, result) in zip(groups, results, strict=True):
        given = {Path(path).name: Path(path) for path in group if not Path(path).is_dir()}
        for use in result.uses:
            on_disk = Path(group[0]) / use.path if Path(group[0]).is_dir() else given.get(use.path)
            if use.cell is not None and on_disk is not None:
                files[posixpath.join(prefix, use.path) if prefix else use.path] = on_disk
    return files


def place_in_notebook_files(report: Report, files: dict[str, Path], limit: int | None) -> None:
    """Give each finding in a notebook the line of the notebook file that holds it (file_line).
    The file is read again as the scanner read it: a regular file within `limit` bytes only."""
    from releasekb.check.notebook_lines import cell_line_numbers
    from releasekb.check.scan.reading import read_regular_text

    lines_of: dict[str, dict[int, list[int]]] = {}
    for number, finding in enumerate(report.findings):
        if finding.cell is None or finding.path not in files:
            continue
        if finding.path not in lines_of:
            try:
                text = read_regular_text(files[finding.path], limit, "utf-8-sig")
                # lines as a text-mode read counts them (universal newlines)
                lines_of[finding.path] = cell_line_numbers(text.replace("\r\n", "\n").replace("\r", "\n"))
            except (OSError, UnicodeDecodeError):
                lines_of[finding.path] = {}
        cell_lines = lines_of[finding.path].get(finding.cell, [])
        if 1 <= finding.line <= len(cell_lines):
            report.findings[number] = dataclasses.replace(finding, file_line=cell_lines[finding.line - 1])
