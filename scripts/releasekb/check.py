"""`releasekb check`: the knowledge base applied to a codebase.

The scanner (scan.py) finds where the code uses the APIs of the index (apiindex.py); this module
turns those uses into findings for an upgrade from release A (--from) to release B (--to):
- removed, breaking, deprecated: a change entry released at or before B lists an API the code
  uses; it was either already in effect at A or comes between A and B;
- newer: the code uses an API introduced after B;
- unstable: the used API's level as of B ranks below --max-stability;
and the lowest release that provides every API the code uses (min_release). check_output.py
prints the report as text, JSON, SARIF or GitHub annotations.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

# Finding kinds, in the order reports list them (the most urgent first).
KINDS = ("removed", "breaking", "deprecated", "newer", "unstable")
UNREADABLE = "unreadable"  # a file the scanner could not read: fails the run like a finding
FAIL_ON_CHOICES = (*KINDS, UNREADABLE)
DEFAULT_FAIL_ON = ("removed", "breaking", "deprecated", UNREADABLE)
CONFIDENCES = ("high", "medium", "low")
_CHANGE_FINDINGS = {"removal": "removed", "breaking": "breaking", "deprecation": "deprecated"}
BARE_IGNORE = "*"  # `# releasekb: ignore` without ids suppresses every finding on its line

# Interface strings of the command, in every language of the site. Messages name APIs in
# backticks, as release notes do; {subject} is the API as the entry means it (see _subject).
STRINGS = {
    "en": {
        "subject_any": "`{api}`",
        "subject_call": "`{api}` called as a function",
        "subject_module": "the `{api}` module",
        "removed": "{subject} was removed in {release}",
        "breaking": "{subject} has a breaking change in {release}: {title}",
        "deprecated": "{subject} is deprecated since {release}",
        "newer": "{subject} requires {release}, newer than --to {to}",
        "unstable": "{subject} is {level} as of {to} (level published in {release}), below {required}",
        "use_instead": "; use `{replacement}`",
        "heading_removed": "Removed",
        "heading_breaking": "Breaking changes",
        "heading_deprecated": "Deprecated",
        "heading_newer": "Introduced after --to",
        "heading_unstable": "Unstable APIs",
        "group_in_effect": "already in effect at {old}",
        "group_new": "new between {old} and {new}",
        "header": "releasekb check: {product} {old} → {new}, knowledge base {kb}",
        "header_old_default": "--from not given: comparing from the oldest release, {old}",
        "migration": "What to do: {text}",
        "more": "More: {url}",
        "why": "Why: `{written}` resolves to `{resolved}` ({how}, {confidence} confidence)",
        "guarded": "guarded: does not fail the run",
        "confidence_high": "high",
        "confidence_medium": "medium",
        "confidence_low": "low",
        "min_release": "Lowest release the code runs on: {version}, decided by `{api}` at {location} ({how})",
        "min_release_none": "Lowest release the code runs on: unknown (no API it uses records its introduction)",
        "unreadable_heading": "Files that could not be checked ({count})",
        "location_cell": "{path}:cell {cell}:line {line}",
        "summary": (
            "{files} files checked ({skipped} skipped): {counts}; {suppressed} suppressed, {unreadable} unreadable"
        ),
        "count_removed": "{n} removed",
        "count_breaking": "{n} breaking",
        "count_deprecated": "{n} deprecated",
        "count_newer": "{n} newer than --to",
        "count_unstable": "{n} unstable",
        "list_separator": ", ",
        "help_command": "Check again after the change: `{command}`. To accept a use, end its line with `{ignore}`.",
        "rule_description": "{kind} in {release}: {title}",
        "kind_removed": "Removed",
        "kind_breaking": "Breaking change",
        "kind_deprecated": "Deprecated",
        "kind_newer": "Introduced",
        "kind_unstable": "Stability level",
    },
    "zh": {
        "subject_any": "`{api}` ",
        "subject_call": "以函数方式调用 `{api}` ",
        "subject_module": "`{api}` 模块",
        "removed": "{subject}已在 {release} 中移除",
        "breaking": "{subject}在 {release} 中有不兼容变更：{title}",
        "deprecated": "自 {release} 起，{subject}已被弃用",
        "newer": "{subject}从 {release} 起才提供，晚于 --to 指定的 {to}",
        "unstable": "截至 {to}，{subject}的稳定性级别为“{level}”（{release} 公布），低于要求的“{required}”",
        "use_instead": "，请改用 `{replacement}`",
        "heading_removed": "已移除",
        "heading_breaking": "不兼容变更",
        "heading_deprecated": "已弃用",
        "heading_newer": "晚于 --to 版本才提供",
        "heading_unstable": "尚不稳定的 API",
        "group_in_effect": "在 {old} 时已生效",
        "group_new": "{old} 到 {new} 之间新出现",
        "header": "releasekb check：{product} {old} → {new}，知识库 {kb}",
        "header_old_default": "未指定 --from：从最早的版本 {old} 开始比较",
        "migration": "迁移方法：{text}",
        "more": "详情：{url}",
        "why": "依据：`{written}` 解析为 `{resolved}`（{how}，置信度{confidence}）",
        "guarded": "位于保护分支中，不会使检查失败",
        "confidence_high": "高",
        "confidence_medium": "中",
        "confidence_low": "低",
        "min_release": "代码可运行的最低版本：{version}，由 {location} 处的 `{api}` 决定（{how}）",
        "min_release_none": "代码可运行的最低版本：未知（所用 API 均未记录引入版本）",
        "unreadable_heading": "无法检查的文件（{count} 个）",
        "location_cell": "{path}:单元格 {cell}:第 {line} 行",
        "summary": (
            "已检查 {files} 个文件（跳过 {skipped} 个）：{counts}；已忽略 {suppressed} 项，无法读取 {unreadable} 个"
        ),
        "count_removed": "已移除 {n} 项",
        "count_breaking": "不兼容变更 {n} 项",
        "count_deprecated": "已弃用 {n} 项",
        "count_newer": "晚于 --to 版本 {n} 项",
        "count_unstable": "尚不稳定 {n} 项",
        "list_separator": "、",
        "help_command": "修改后再次检查：`{command}`。若要保留某处用法，在该行末尾加上 `{ignore}`。",
        "rule_description": "{release} {kind}：{title}",
        "kind_removed": "移除",
        "kind_breaking": "不兼容变更",
        "kind_deprecated": "弃用",
        "kind_newer": "引入",
        "kind_unstable": "稳定性级别",
    },
}


class CheckUsage(Exception):
    """Wrong usage of `check` (unknown version, --from newer than --to...): exit 2."""


class ApiIndex:
    """An API index document (apiindex.index_document or a published apis.json), ready to query."""

    def __init__(self, document: dict, source: str):
        self.document = document
        self.source = source  # what the report names as the knowledge base
        self.product: dict[str, str] = document["product"]
        self.versions = [release["version"] for release in document["releases"]]
        self.order = {version: position for position, version in enumerate(self.versions)}
        self.levels = {level["key"]: level for level in document["levels"]}
        self.code_roots: dict[str, list[str]] = document.get("code_roots") or {}
        self.records = {(record["name"], record["use"]): record for record in document["apis"]}

    def ranked_levels(self) -> list[str]:
        """Level keys with a rank, most stable first: the choices of --max-stability."""
        return [key for key, level in self.levels.items() if level["rank"] is not None]

    def level_as_of(self, record: dict, version: str) -> tuple[str, str] | None:
        """(release, level key) of the latest level with a rank that the introducing feature
        was published at, at or before `version`; None when there is none (an unlabeled
        mention says nothing about stability, so it does not replace a stated level)."""
        published = [
            (release, key)
            for release, key in record["levels"].items()
            if self.order[release] <= self.order[version] and self.levels[key]["rank"] is not None
        ]
        return max(published, key=lambda item: self.order[item[0]], default=None)


def open_index(index_source: str | None, data_dir: Path, site_url: str = "") -> ApiIndex:
    """The API index from a published apis.json (--index: a file or an http(s) address), else
    built from the data folder, as the site would publish it. Raises apiindex.IndexUnreadable or
    problems.DataError when it cannot be read."""
    from releasekb import apiindex

    if index_source:
        return ApiIndex(apiindex.load_index(index_source), index_source)
    from releasekb.catalog import build_catalog
    from releasekb.validate import load_data

    return ApiIndex(apiindex.index_document(build_catalog(load_data(data_dir)), site_url), str(data_dir))


@dataclass(frozen=True)
class Options:
    old: str
    new: str
    old_defaulted: bool  # --from was not given (the text header says so)
    max_stability: str
    fail_on: frozenset[str]
    lang: str = "en"


def resolve_options(
    index: ApiIndex, old: str | None, new: str | None, max_stability: str | None, fail_on: str | None, lang: str
) -> Options:
    """Check the command's choices against the index; raise CheckUsage naming what is allowed."""
    known = ", ".join(index.versions)
    for flag, version in (("--from", old), ("--to", new)):
        if version is not None and version not in index.order:
            raise CheckUsage(f"{flag} {version}: no such release in the knowledge base (known: {known})")
    resolved_old, resolved_new = old or index.versions[0], new or index.versions[-1]
    if index.order[resolved_old] > index.order[resolved_new]:
        raise CheckUsage(f"--from {resolved_old} is newer than --to {resolved_new}")
    ranked = index.ranked_levels()
    if max_stability is not None and max_stability not in ranked:
        raise CheckUsage(f"--max-stability {max_stability}: not a stability level (one of: {', '.join(ranked)})")
    return Options(
        old=resolved_old,
        new=resolved_new,
        old_defaulted=old is None,
        max_stability=max_stability or ranked[0],
        fail_on=parse_fail_on(fail_on),
        lang=lang,
    )


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
    how: str
    message: dict[str, str]
    migration: dict[str, str] | None
    replacement: str | None
    urls: dict[str, str]  # the entry's permanent address in every language
    feature_urls: dict[str, str]
    title: dict[str, str]


@dataclass
class Report:
    options: Options
    knowledge_base: str
    product: dict[str, str]
    paths: list[str]
    files_checked: int = 0
    files_skipped: int = 0
    findings: list[Finding] = field(default_factory=list)
    errors: list = field(default_factory=list)  # scan.FileError, with paths made relative
    suppressed: int = 0
    min_release: dict | None = None

    def counts(self) -> dict[str, int]:
        return {kind: sum(1 for f in self.findings if f.kind == kind) for kind in KINDS}

    def failed(self) -> bool:
        """Whether the run fails: an unguarded finding of a --fail-on kind, or an unreadable
        file when `unreadable` is among them. Guarded uses never fail it."""
        fail_on = self.options.fail_on
        if UNREADABLE in fail_on and self.errors:
            return True
        return any(f.kind in fail_on and not f.guarded for f in self.findings)


def run_check(
    index: ApiIndex,
    options: Options,
    paths: list[str],
    *,
    include=(),
    exclude=(),
    confidence: str = "medium",
) -> Report:
    """Scan `paths` for the index's APIs and report what an upgrade from --from to --to means."""
    from releasekb import scan

    targets = [scan.Target(name, use) for name, use in index.records]
    python_roots = tuple(index.code_roots.get("python", ()))
    tokens = tuple(root for language, roots in index.code_roots.items() if language != "python" for root in roots)
    result = scan.scan(
        paths, targets, scan.Roots(python_roots, tokens), include=include, exclude=exclude, confidence=confidence
    )
    return analyse(index, options, result, paths)


def analyse(index: ApiIndex, options: Options, result, paths: list[str]) -> Report:
    """Findings and min_release from a scan.ScanResult."""
    report = Report(options, index.source, index.product, list(paths))
    report.files_checked, report.files_skipped = result.files_scanned, result.files_skipped
    relative = _relative_to(paths)
    report.errors = sorted(
        (dataclasses.replace(error, path=relative(error.path)) for error in result.errors),
        key=lambda error: (error.path, error.line),
    )
    decisive = None
    for uses in _references(result.uses):
        records = [index.records[(use.target.name, use.target.use)] for use in uses]
        for finding in _findings_of(index, options, uses[0], records, relative):
            if _suppressed(uses[0], finding.entry):
                report.suppressed += 1
            else:
                report.findings.append(finding)
        decisive = _later_requirement(index, decisive, uses[0], records)
    report.findings.sort(key=_finding_order)
    report.min_release = _min_release(decisive, relative)
    return report


def _references(uses) -> list[list]:
    """Uses grouped by the reference in the code they come from (one per matched target)."""
    groups: dict[tuple, list] = {}
    for use in uses:
        groups.setdefault((use.path, use.cell, use.line, use.column, use.written), []).append(use)
    return list(groups.values())


def _suppressed(use, entry_id: str) -> bool:
    return BARE_IGNORE in use.suppressed or entry_id in use.suppressed


def _relative_to(paths: list[str]):
    """Report paths relative to the current directory when the file is below it (what SARIF's
    %SRCROOT% and GitHub's annotations expect when run from the repository's root), else relative
    to the scanned folder they were found in, else as given."""
    cwd = Path.cwd().resolve()
    bases = [cwd] + [p if p.is_dir() else p.parent for p in (Path(path).resolve() for path in paths)]

    def relative(path: str) -> str:
        absolute = Path(path).resolve()
        for base in bases:
            if absolute.is_relative_to(base):
                return absolute.relative_to(base).as_posix()
        return Path(path).as_posix()

    return relative


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


def _specific_first(records: list[dict]) -> list[dict]:
    """The matched records, the most specific name first (torch.fft.fft before torch.fft)."""
    return sorted(records, key=lambda record: (-len(record["name"]), record["use"]))


def _findings_of(index: ApiIndex, options: Options, use, records: list[dict], relative) -> list[Finding]:
    """One finding per entry for one reference: a change entry listing any name it matched
    (the most specific name cites it), an introduction after --to, the level as of --to."""
    by_entry: dict[tuple[str, str, str], Finding] = {}
    for record in _specific_first(records):
        for kind, entry in [*_change_entries(index, options, record), *_newer_entries(index, options, record)]:
            key = (kind, entry["id"], entry["release"])
            by_entry.setdefault(key, _finding(index, options, kind, record, entry, use, relative))
    unstable = _unstable(index, options, records)
    if unstable:
        record, entry = unstable
        by_entry.setdefault(
            ("unstable", entry["id"], entry["release"]),
            _finding(index, options, "unstable", record, entry, use, relative),
        )
    return list(by_entry.values())


def _change_entries(index: ApiIndex, options: Options, record: dict) -> list[tuple[str, dict]]:
    newest = index.order[options.new]
    return [
        (_CHANGE_FINDINGS[entry["kind"]], entry)
        for entry in record["entries"]
        if entry["is_change"] and entry["kind"] in _CHANGE_FINDINGS and index.order[entry["release"]] <= newest
    ]


def _newer_entries(index: ApiIndex, options: Options, record: dict) -> list[tuple[str, dict]]:
    introduced = record["introduced_in"]
    if introduced is None or index.order[introduced] <= index.order[options.new]:
        return []
    return [("newer", _introducing_entry(record))]


def _introducing_entry(record: dict) -> dict:
    return next(
        e for e in record["entries"] if e["release"] == record["introduced_in"] and e["id"] == record["feature"]
    )


def _unstable(index: ApiIndex, options: Options, records: list[dict]) -> tuple[dict, dict] | None:
    """The most specific matched record whose feature has a stated level as of --to decides:
    a stable function of a beta module is stable. Returns (record, entry) when it ranks below
    --max-stability."""
    for record in _specific_first(records):
        if record["introduced_in"] is None:
            continue
        published = index.level_as_of(record, options.new)
        if published is None:
            continue
        release, key = published
        if index.levels[key]["rank"] >= index.levels[options.max_stability]["rank"]:
            return None
        return record, _level_entry(record, release, key)
    return None


def _level_entry(record: dict, release: str, level: str) -> dict:
    """The feature's entry in `release` as a finding cites it. The index lists only entries that
    name the API; a later entry of the same feature (a promotion that names no API) has the same
    id, and its address differs only by the release."""
    introducing = _introducing_entry(record)
    if introducing["release"] == release:
        return introducing
    old = f"/releases/{introducing['release']}/#"
    moved = {lang: url.replace(old, f"/releases/{release}/#") for lang, url in introducing["urls"].items()}
    return {**introducing, "release": release, "kind": "new", "level": level, "migration": None, "urls": moved}


def _finding(index: ApiIndex, options: Options, kind: str, record: dict, entry: dict, use, relative) -> Finding:
    replacement = record["replacement"] if kind in ("removed", "deprecated", "breaking") else None
    return Finding(
        kind=kind,
        api=record["name"],
        use=record["use"],
        entry=entry["id"],
        release=entry["release"],
        path=relative(use.path),
        line=use.line,
        column=use.column,
        cell=use.cell,
        confidence=use.confidence,
        guarded=use.guarded,
        in_effect_at_from=index.order[entry["release"]] <= index.order[options.old],
        resolved=use.resolved,
        written=use.written,
        how=use.how,
        message=_message(index, options, kind, record, entry, replacement),
        migration=entry["migration"] if kind != "newer" and kind != "unstable" else None,
        replacement=replacement,
        urls=entry["urls"],
        feature_urls=entry["feature_urls"],
        title=entry["title"],
    )


def _message(index: ApiIndex, options: Options, kind: str, record: dict, entry: dict, replacement) -> dict[str, str]:
    messages = {}
    for lang, strings in STRINGS.items():
        subject = strings[f"subject_{record['use']}"].format(api=record["name"])
        values = {
            "subject": subject,
            "release": entry["release"],
            "to": options.new,
            "title": entry["title"][lang],
            "level": index.levels[entry["level"]]["name"][lang] if entry.get("level") else "",
            "required": index.levels[options.max_stability]["name"][lang],
        }
        text = strings[kind].format(**values)
        if replacement:
            text += strings["use_instead"].format(replacement=replacement)
        messages[lang] = _sentence(text.strip())
    return messages


def _sentence(text: str) -> str:
    """'the `torch.fft` module ...' -> 'The ...' (Chinese has no capitals: unchanged)."""
    return text[:1].upper() + text[1:]


# --------------------------------------------------------------------------- lowest release


def _later_requirement(index: ApiIndex, decisive, use, records: list[dict]):
    """(order, use, record) of the latest introduction among this reference's matched records
    (its whole prefix chain) and the one found so far; ties keep the earlier use."""
    for record in records:
        introduced = record["introduced_in"]
        if introduced is None or _suppressed(use, record["feature"]):
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


def _min_release(decisive, relative) -> dict | None:
    if decisive is None:
        return None
    _, use, record = decisive
    return {
        "version": record["introduced_in"],
        "api": record["name"],
        "path": relative(use.path),
        "line": use.line,
        "column": use.column,
        "cell": use.cell,
        "written": use.written,
        "resolved": use.resolved,
        "how": use.how,
    }
