"""A History (history_import.py) written as release files and notes, in the project's vocabulary.

Each release becomes `releases/<version>.yaml` in the shape and order of any release file (the
schema comment first; version, date, scheme, title, summary, sources, highlights, features,
changes); the `[Unreleased]` entries become notes, `releases/unreleased/<id>.yaml`, one entry
each. Every entry is marked `imported: true` (validate warns at each until a curator removes
it), its source line is a comment beside its id, and its id is a slug of its title, unique
across the knowledge base: an id shared by two releases would make one feature of two entries.

Nothing is invented: a level only where the text states one of the project's labels (`(beta)`,
`Beta: ...`), a change's `migration` is the changelog's own text, a release with no date in its
source gets the `TODO` placeholder `releasekb new` writes, which validate refuses until filled.

All files or none: a release file that exists refuses the import (or is skipped with
`skip_existing`), before anything is written; the files are then written at once
(atomic.write_files).
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from releasekb.common import atomic
from releasekb.common.problems import not_one_of
from releasekb.common.versions import version_key
from releasekb.kb.history_import import History, HistoryEntry, HistoryRelease, Unplaced
from releasekb.kb.loader import load_document
from releasekb.kb.model import (
    PLACEHOLDER,
    RESERVED_ANCHOR_PREFIX,
    RESERVED_ANCHORS,
    SCHEMA_COMMENT,
    UNLABELED,
    ProjectFile,
)
from releasekb.kb.schema import write_schemas
from releasekb.kb.starter import starter_text
from releasekb.kb.urls import feature_path, reserved_name
from releasekb.kb.validate import PROJECT_FILE, display_path, load_project, release_paths

NOTES_FOLDER = "unreleased"  # the notes' folder in the data folder (README, "Working as a team")
DEFAULT_AREA = "general"  # the area of imported entries, added to project.yaml when missing
TITLE_LENGTH = 100  # a title is one line: a longer first sentence is cut at a word
ID_WORDS = 6  # an id is a slug of its title's first words


class ImportRefused(Exception):
    """A reason the import writes nothing; `usage` marks a wrong argument (exit 2)."""

    def __init__(self, message: str, usage: bool = False):
        super().__init__(message)
        self.usage = usage


@dataclass
class ImportPlan:
    """What the import writes, and what it says about it."""

    files: dict[Path, str] = field(default_factory=dict)
    releases: list[tuple[HistoryRelease, Path]] = field(default_factory=list)
    notes: list[Path] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # releases that exist, left as they are
    undated: list[HistoryRelease] = field(default_factory=list)
    unplaced: list[Unplaced] = field(default_factory=list)  # besides the History's own
    area: str = DEFAULT_AREA
    area_added: bool = False

    @property
    def entry_count(self) -> int:
        return sum(len(release.entries) for release, _ in self.releases) + len(self.notes)


def plan_import(data_dir: Path, history: History, area: str | None = None, skip_existing: bool = False) -> ImportPlan:
    """The files importing `history` writes; raises ImportRefused (nothing written) when the
    project cannot take it."""
    data_dir = Path(data_dir)
    project = load_project(data_dir)  # a DataError when project.yaml is missing or invalid
    _check_languages(project)
    plan = ImportPlan()
    plan.area, project_text = _area(data_dir, project, area)
    if project_text is not None:
        plan.area_added = True
        plan.files[data_dir / PROJECT_FILE] = project_text
    releases, conflicts = _new_releases(data_dir, project, history, plan)
    existing_notes = _note_titles(data_dir, project.languages[0])
    unreleased = []
    for entry in history.unreleased:
        if (note := existing_notes.get(_title(entry.text).casefold())) is not None:
            conflicts.append(f"{display_path(note)} already holds the note of {entry.where}")
        else:
            unreleased.append(entry)
    if conflicts and not skip_existing:
        raise ImportRefused(
            "; ".join(conflicts) + ": nothing was written (pass --skip-existing to import the rest and leave "
            "these as they are)"
        )
    plan.skipped = conflicts
    taken = _taken_ids(data_dir)
    for release in releases:
        path = data_dir / f"{release.version}.yaml"
        plan.files[path] = _release_file(release, project, plan.area, history.source, taken)
        plan.releases.append((release, path))
        if release.date is None:
            plan.undated.append(release)
    for entry in unreleased:
        entry_id = _entry_id(_title(entry.text), taken)
        path = data_dir / NOTES_FOLDER / f"{entry_id}.yaml"
        plan.files[path] = _note(entry, entry_id, project, plan.area)
        plan.notes.append(path)
    return plan


def write_import(data_dir: Path, plan: ImportPlan) -> None:
    """Write every file of the plan, all or none; then the schemas, when an area was added."""
    if plan.notes:
        (Path(data_dir) / NOTES_FOLDER).mkdir(exist_ok=True)
    atomic.write_files(plan.files)
    if plan.area_added:
        write_schemas(data_dir)  # the editors' schema lists the new area


def _check_languages(project: ProjectFile) -> None:
    languages = project.languages
    if len(languages) > 1 and project.untranslated != "fallback":
        raise ImportRefused(
            f"project.yaml's languages are {', '.join(languages)} and every text must be written in each, but "
            f"imported entries are in {languages[0]} only (as the changelog wrote them): set `untranslated: "
            "fallback` in project.yaml (pages then mark them as not yet translated) and import again"
        )


def _area(data_dir: Path, project: ProjectFile, area: str | None) -> tuple[str, str | None]:
    """The area of imported entries, and project.yaml's new text when the area is added to it."""
    if area is not None:
        if area not in project.areas:
            raise ImportRefused(f"--area: {not_one_of(area, list(project.areas))}", usage=True)
        return area, None
    if DEFAULT_AREA in project.areas:
        return DEFAULT_AREA, None
    path = data_dir / PROJECT_FILE
    text = path.read_text(encoding="utf-8")
    names = ", ".join(
        f"{lang}: {json.dumps(starter_text('area_general', lang), ensure_ascii=False)}" for lang in project.languages
    )
    added = _with_area(text, f"{DEFAULT_AREA}: {{{names}}}")
    if added is None:
        raise ImportRefused(
            f"{display_path(path)}: imported entries go in the area '{DEFAULT_AREA}', which project.yaml does not "
            f"have, and its `areas:` is not a block the import can add a line to: add `{DEFAULT_AREA}` to it, or "
            f"pass --area with one of {', '.join(project.areas)}",
            usage=True,
        )
    return DEFAULT_AREA, added


def _with_area(text: str, line: str) -> str | None:
    """project.yaml's text with `line` as the last entry of its `areas:` block, comments and
    all else as they were; None when `areas:` is no block mapping (a flow mapping, say)."""
    lines = text.split("\n")
    start = next((i for i, current in enumerate(lines) if re.fullmatch(r"areas:\s*(#.*)?", current)), None)
    if start is None:
        return None
    last, indent = None, None
    for i in range(start + 1, len(lines)):
        current = lines[i]
        if current.strip() and not current[0].isspace():
            break  # the next top-level key (or a comment at the margin)
        if current.strip() and not current.lstrip().startswith("#"):
            last = i
            indent = indent or current[: len(current) - len(current.lstrip())]
    if last is None:
        return None
    new = "\n".join([*lines[: last + 1], f"{indent}{line}", *lines[last + 1 :]])
    try:
        before, after = yaml.safe_load(text).get("areas"), yaml.safe_load(new).get("areas")
    except yaml.YAMLError:
        return None
    if not isinstance(after, dict) or list(after) != [*before, DEFAULT_AREA]:
        return None
    return new


def _new_releases(
    data_dir: Path, project: ProjectFile, history: History, plan: ImportPlan
) -> tuple[list[HistoryRelease], list[str]]:
    """The releases to write, in version order, and why each of the others cannot be."""
    existing = {version_key(path.stem): path for path in release_paths(data_dir)}
    not_described = {version_key(version) for version in project.releases_not_described}
    conflicts, releases, seen = [], [], set()
    for release in sorted(history.releases, key=lambda r: version_key(r.version)):
        key = version_key(release.version)
        if key in seen:
            plan.unplaced.append(Unplaced(release.where, release.version, "the same release as a version above"))
            continue
        seen.add(key)
        if key in existing:
            conflicts.append(f"{display_path(existing[key])} already describes {release.version}")
        elif key in not_described:
            conflicts.append(f"project.yaml lists {release.version} under `releases_not_described`")
        else:
            releases.append(release)
    return releases, conflicts


def _note_paths(data_dir: Path) -> list[Path]:
    folder = data_dir / NOTES_FOLDER
    return sorted(p for p in folder.glob("*.yaml") if not p.name.startswith(".")) if folder.is_dir() else []


def _note_titles(data_dir: Path, lang: str) -> dict[str, Path]:
    """{title, case folded: note} of the notes there: an import run again finds its notes written."""
    titles = {}
    for path in _note_paths(data_dir):
        data = load_document(path, multiline=lambda location: True)[0].data
        title = data.get("title") if isinstance(data, dict) else None
        if isinstance(title, dict) and isinstance(title.get(lang), str):
            titles[title[lang].casefold()] = path
    return titles


def _taken_ids(data_dir: Path) -> set[str]:
    """Every id, former id and former anchor of the knowledge base, and the notes' ids: an
    imported entry takes none of them."""
    taken: set[str] = set()
    for path in _note_paths(data_dir):
        taken.add(path.stem)
        data = load_document(path, multiline=lambda location: True)[0].data
        if isinstance(data, dict) and isinstance(data.get("id"), str):
            taken.add(data["id"])
    for path in release_paths(data_dir):
        data = load_document(path, multiline=lambda location: True)[0].data
        if not isinstance(data, dict):
            continue
        for key in ("features", "changes"):
            for entry in data.get(key) or []:
                if isinstance(entry, dict):
                    taken.update(v for v in (entry.get("id"), *_list(entry.get("aliases"))) if isinstance(v, str))
                    taken.update(v for v in _list(entry.get("former_anchors")) if isinstance(v, str))
    return taken


def _list(value) -> list:
    return value if isinstance(value, list) else []


# --- The files ---------------------------------------------------------------------------------


def _release_file(release: HistoryRelease, project: ProjectFile, area: str, source: str, taken: set[str]) -> str:
    lang = project.languages[0]
    product = project.product.name[lang]
    levels = [_stated_level(entry, project) for entry in release.entries]
    scheme = _scheme(project, {level for level in levels if level})
    title_key = "imported_release_title_yanked" if release.yanked else "imported_release_title"
    title = release.name or starter_text(title_key, lang, product=product, version=release.version)
    summary = release.summary or starter_text(
        "imported_release_summary", lang, product=product, version=release.version, source=source
    )
    date = release.date or f"{PLACEHOLDER}                     # {source} gives no date: YYYY-MM-DD, or YYYY-MM"
    source_line = f"{{kind: original, lang: {lang}" + (f", url: {_quoted(release.url)}}}" if release.url else "}")
    lines = [
        SCHEMA_COMMENT,
        f"# Imported by `releasekb import` from {release.where}. Each entry marked `imported: true` waits",
        "# for a curator: `releasekb validate` names each one; review it, then remove the mark.",
        f"version: {_quoted(release.version)}",
        f"date: {date}",
        f"scheme: {scheme}",
        f"title: {_text(lang, title)}",
        f"summary: {_text(lang, summary)}",
        "sources:",
        f"  - {source_line}",
        "highlights: []",
    ]
    titles: set[str] = set()
    features, changes = [], []
    for entry, level in zip(release.entries, levels, strict=True):
        title = _unique_title(_title(entry.text), titles)
        entry_lines = _entry(entry, _entry_id(title, taken), title, lang, area, level)
        (changes if entry.is_change else features).append(
            ["  - " + entry_lines[0], *("    " + x for x in entry_lines[1:])]
        )
    for key, items in (("features", features), ("changes", changes)):
        lines.append(f"{key}:" if items else f"{key}: []")
        lines += [line for item in items for line in item]
    return "\n".join(lines) + "\n"


def _note(entry: HistoryEntry, entry_id: str, project: ProjectFile, area: str) -> str:
    lang = project.languages[0]
    header = [
        f"# Imported by `releasekb import` from {entry.where} (its [Unreleased] section): review it, then",
        "# remove `imported: true`.",
    ]
    return (
        "\n".join([*header, *_entry(entry, entry_id, _title(entry.text), lang, area, _stated_level(entry, project))])
        + "\n"
    )


def _entry(entry: HistoryEntry, entry_id: str, title: str, lang: str, area: str, level: str | None) -> list[str]:
    """An entry's lines, in the order release files write them."""
    lines = [f"id: {entry_id}  # {entry.where}", "imported: true"]
    if entry.is_change:
        lines.append("standalone: true  # or the id of the feature it changes")
    lines += [f"kind: {entry.kind}", f"area: {area}"]
    if level is not None:
        lines.append(f"stability: {level}  # the text states it")
    lines += [f"title: {_text(lang, title)}", f"summary: {_text(lang, entry.text)}"]
    if entry.is_change:
        lines.append(f"migration: {_text(lang, entry.text)}  # the changelog's own words: say what code does now")
    return lines


def _stated_level(entry: HistoryEntry, project: ProjectFile) -> str | None:
    """The label the entry's text states, by its key or name: `(beta)`, `[Beta]`, `Beta: ...`;
    None when it states none, or more than one. Changes have no level."""
    if entry.is_change:
        return None
    lang = project.languages[0]
    stated = set()
    for key, label in project.stability.labels.items():
        for name in {key, label.name[lang]}:
            word = re.escape(name)
            if re.search(rf"[(\[]\s*{word}\s*[)\]]|^{word}\s*:", entry.text, re.IGNORECASE):
                stated.add(key)
    return stated.pop() if len(stated) == 1 else None


def _scheme(project: ProjectFile, levels: set[str]) -> str:
    """The release's scheme: the latest one holding every stated level; with none stated, one
    without labels (the release published none), else the latest."""
    schemes = project.stability.schemes
    if levels:
        holding = [name for name, labels in schemes.items() if levels <= set(labels)]
        if holding:
            return holding[-1]
    empty = [name for name, labels in schemes.items() if not labels]
    return (empty or list(schemes))[-1]


def _title(text: str) -> str:
    """The entry's first sentence, one line of at most TITLE_LENGTH characters, without its
    closing full stop."""
    outside_code = re.sub(r"`[^`]*`", lambda m: "x" * len(m.group()), text)
    end = re.search(r"[.!?](\s|$)", outside_code)
    title = text[: end.start() + 1] if end else text
    if len(title) > TITLE_LENGTH:
        cut = title.rfind(" ", 0, TITLE_LENGTH - 1)
        title = title[: cut if cut > TITLE_LENGTH // 2 else TITLE_LENGTH - 1].rstrip(" ,;:") + "…"
        if title.count("`") % 2:  # a code span cut open
            title = title[:-1] + "`…"
    return title.rstrip(".").strip() or text


def _unique_title(title: str, titles: set[str]) -> str:
    """Two entries of one release cannot share a title (validate): the second gets a number."""
    candidate, number = title, 1
    while candidate.casefold() in titles:
        number += 1
        candidate = f"{title} ({number})"
    titles.add(candidate.casefold())
    return candidate


def _entry_id(title: str, taken: set[str]) -> str:
    """An ASCII slug of the title's first words ('Added `Foo.bar()` support' -> 'added-foo-bar-support'),
    unique in the knowledge base, and no name a page or an anchor of the site has."""
    ascii_text = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode().lower()
    words = re.findall(r"[a-z0-9]+", re.sub(r"\(#\d+\)|#\d+", " ", ascii_text))
    base = "-".join(words[:ID_WORDS])[:60].strip("-") or "entry"
    if base.startswith(RESERVED_ANCHOR_PREFIX):
        base = f"entry-{base}"
    candidate, number = base, 1
    while (
        candidate in taken
        or candidate in RESERVED_ANCHORS
        or candidate == UNLABELED
        or reserved_name(feature_path(candidate))
    ):
        number += 1
        candidate = f"{base}-{number}"
    taken.add(candidate)
    return candidate


def _quoted(value: str) -> str:
    """A YAML double-quoted scalar (JSON's string syntax is YAML's)."""
    return json.dumps(value, ensure_ascii=False)


def _text(lang: str, text: str) -> str:
    return f"{{{lang}: {_quoted(text)}}}"


def report_lines(history: History, plan: ImportPlan) -> list[str]:
    """What the import tells its user, one line each: what it left out and why."""
    lines = [*history.skipped, *(f"{reason}: skipped" for reason in plan.skipped)]
    lines += [str(item) for item in [*history.unplaced, *plan.unplaced]]
    lines += [
        f"{release.where}: {release.version} has no date: write it in {display_path(path)}'s `date: TODO`"
        for release, path in plan.releases
        if release.date is None
    ]
    return lines
