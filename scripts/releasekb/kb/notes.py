"""Notes: the entries of the next release, one file each, in `releases/unreleased/<id>.yaml`.

A team writes its next release in many pull requests at once; were they all to edit one release
file, every second merge would conflict. So each change is a file of its own, a note, in exactly
the shape of one entry of a release file, at the top level: what a curator would write under
`features:` or under `changes:`. Its `kind` says which of the two (README, "Working as a team"):
a kind of `changes:` (breaking, deprecation, removal) makes it a change; a kind of `features:`
(new, improvement, fix), or none (`new`), a feature. No key is added, so a note copied into a
release file, or an entry copied out of one, is valid as it is.

The notes are checked, previewed and released as what they will be: the entries of one release
after the latest. `compose` writes them, with a release's own keys around them, as the text of
that release file, each note's lines indented under its list; validation reads that text like
any release file, and `Composed.located` maps each problem back to the note's own file and line.
`releasekb release` writes the same text, with the version and date given, as the release file.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from releasekb.common.locales import Strings
from releasekb.common.problems import Problem
from releasekb.kb.loader import Location, load_document
from releasekb.kb.model import CHANGE_KINDS, FEATURE_KINDS, SCHEMA_COMMENT

# The notes' folder, inside the data folder.
NOTES_FOLDER = "unreleased"
# The sections of a release file, in the order a release file lists them.
SECTIONS = ("features", "changes")
# A note's lines, in the composed release file: under `  -`, indented this much.
_INDENT = "    "


# What `releasekb release` is doing, while it does it (kb/releasing.py): its version and notes.
JOURNAL = ".releasing.json"


def notes_folder(data_dir: Path) -> Path:
    return Path(data_dir) / NOTES_FOLDER


def note_paths(data_dir: Path) -> list[Path]:
    """The notes of a data folder, by name; hidden files (an editor's) are none."""
    folder = notes_folder(data_dir)
    if not folder.is_dir():
        return []
    return sorted(path for path in folder.glob("*.yaml") if not path.name.startswith("."))


def pending_release(data_dir: Path) -> tuple[str, list[str]] | None:
    """(version, the notes' file names) of a `releasekb release` an interruption left halfway
    (its journal is there), else None. A journal that cannot be read names nothing."""
    try:
        journal = json.loads((notes_folder(data_dir) / JOURNAL).read_text(encoding="utf-8"))
        version, names = journal["version"], journal["notes"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not isinstance(version, str) or not all(isinstance(name, str) for name in names):
        return None
    return version, list(names)


def released_already(data_dir: Path) -> set[str]:
    """The notes an interrupted `release` has already written into its release file (which
    exists): every reader leaves them out, so that the data holds them once, as released."""
    pending = pending_release(data_dir)
    if pending is None or not (Path(data_dir) / f"{pending[0]}.yaml").is_file():
        return set()
    return set(pending[1])


def section_of(entry: Any) -> str:
    """`changes` for a note whose kind is a change's, else `features` (a feature's kind, or none)."""
    return "changes" if isinstance(entry, dict) and entry.get("kind") in CHANGE_KINDS else "features"


_DOCUMENT_MARKER = re.compile(r"(---|\.\.\.)(\s+#.*)?\s*")


@dataclass(frozen=True)
class Note:
    """One note as read: its file (as shown in problems), its text and its data."""

    display_path: str
    text: str
    data: dict
    id_line: int = 1  # where its id is, for a problem about it
    id_column: int = 1

    @property
    def id(self) -> str | None:
        value = self.data.get("id")
        return value if isinstance(value, str) else None


def read_note(path: Path, display_path: str, raw: bytes) -> tuple[Note | None, list[Problem]]:
    """A note from its bytes, or the problems that keep it from being one entry: not YAML, or not
    a mapping. Texts may hold line breaks here; whether a key may is checked in the composed file,
    where the model says which keys are multi-line texts."""
    document, problems = load_document(path, display_path, lambda location: True, raw=raw)
    if problems:
        return None, problems
    if not isinstance(document.data, dict):
        message = (
            "a note is one entry of a release: a mapping of its keys (id, area, title, summary, ...), "
            "as under `features:` or `changes:` of a release file"
        )
        return None, [document.problem((), message)]
    text = raw.decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")
    # a note may mark its one document (`---`, `...`): inside the release file it is no document,
    # so the markers go, each line kept (blank) so that every other line keeps its number
    text = "\n".join("" if _DOCUMENT_MARKER.fullmatch(line) else line for line in text.split("\n"))
    at = document.position(("id",))
    return Note(display_path, text, document.data, at.line, at.column), []


def in_release_order(notes: list[Note], areas: list[str]) -> list[Note]:
    """The notes in the order `release` writes them, which merge order cannot decide: by area as
    project.yaml lists the areas, then by kind as the model lists the kinds, then by id (features
    and changes are apart in any case, each under its own key)."""
    kinds = {kind: i for i, kind in enumerate((*FEATURE_KINDS, *CHANGE_KINDS))}

    def key(note: Note) -> tuple:
        area, kind = note.data.get("area"), note.data.get("kind", "new")
        return (
            areas.index(area) if area in areas else len(areas),
            kinds.get(kind, len(kinds)) if isinstance(kind, str) else len(kinds),
            note.id or "",
            note.display_path,
        )

    return sorted(notes, key=key)


@dataclass(frozen=True)
class _Span:
    """Where a note's lines are in the composed text: from `start` (1-based), `length` lines."""

    display_path: str
    start: int
    length: int
    location: Location  # the entry's, ("features", 2)


@dataclass(frozen=True)
class NotesAs:
    """The release the notes are read as: `version` and `date` given (`releasekb release`), or,
    without a version, a preview of the next release (validate, serve, `build --unreleased`)."""

    version: str | None = None
    date: str | None = None


# The preview's version: after the latest release's (1.7 -> 1.7-unreleased, which versions.py
# orders after 1.7 and before any later release), so that every lifecycle continues into it.
PREVIEW_SUFFIX = "-unreleased"
# The preview, as a message names it.
NEXT_RELEASE = "the next release (the notes)"


def release_header(
    target: NotesAs, latest: str | None, scheme: str | None, strings: dict[str, Strings]
) -> dict[str, Any]:
    """The release's own keys around the notes: its version and date, the latest release's scheme
    (as `releasekb new` takes it), and the preview's title and summary in each language (`strings`:
    each language's interface strings, the first language's first); `release` writes TODO
    placeholders over those two texts."""
    languages = list(strings)
    return {
        "version": target.version or f"{latest or '0'}{PREVIEW_SUFFIX}",
        "date": target.date or datetime.date.today().isoformat(),
        "scheme": scheme or "",
        "title": {lang: strings[lang]["unreleased_title"] for lang in languages},
        "summary": {lang: strings[lang]["unreleased_summary"] for lang in languages},
        "sources": [{"kind": "original", "lang": languages[0]}],
    }


@dataclass(frozen=True)
class Composed:
    """The notes written as one release file's text, and where each note went in it."""

    version: str
    preview: bool  # a preview of the next release, not one `releasekb release` writes
    text: str
    spans: tuple[_Span, ...]
    notes: tuple[Note, ...] = ()  # in the order of `text`
    shown_as: str = ""  # the release file as problems name it (validate.display_path)

    @property
    def name(self) -> str:
        return f"{self.version}.yaml"

    @property
    def paths(self) -> tuple[str, ...]:
        """The notes it holds, as problems name them."""
        return tuple(span.display_path for span in self.spans)

    def located(self, problem: Problem) -> Problem:
        """`problem` at the note's own file and line when it is one of the composed file's; any
        other problem as it is. A preview's version is made up: a message calls it what it is."""
        if self.preview and self.version in problem.message:
            problem = dataclasses.replace(problem, message=problem.message.replace(self.version, NEXT_RELEASE))
        if problem.file != self.shown_as:
            return problem
        span = next((s for s in self.spans if s.start <= problem.line < s.start + s.length), None)
        if span is None:  # a release's own key: the notes are what the team wrote
            return Problem(
                str(Path(self.spans[0].display_path).parent) if self.spans else problem.file,
                1,
                1,
                "(notes)",
                problem.message,
                problem.severity,
            )
        where = _within_entry(problem.where, span.location)
        column = max(problem.column - len(_INDENT), 1)
        message = _RELATIVE_LINE.sub(lambda m: f"line {int(m.group(1)) - span.start + 1}", problem.message)
        return Problem(span.display_path, problem.line - span.start + 1, column, where, message, problem.severity)


# A message naming a line of the same file ("already used at line 57").
_RELATIVE_LINE = re.compile(r"\bline (\d+)\b")


def _within_entry(where: str, location: Location) -> str:
    """ "features[2].title.en" -> "title.en": a note's keys are at its top level."""
    section, index = location
    prefix = f"{section}[{index}]"
    if where == prefix:
        return "(document)"
    return where.removeprefix(prefix).removeprefix(".") if where.startswith(prefix) else where


def compose(notes: list[Note], header: dict[str, Any], preview: bool) -> Composed:
    """The release file of `header` (version, date, scheme, title, summary, sources: written as
    JSON values, which YAML reads as they are) with every note as an entry: features first, then
    changes, each in the order of `notes`. Its first line is the schema comment every release
    file starts with."""
    lines = [SCHEMA_COMMENT]
    lines += [f"{key}: {json.dumps(value, ensure_ascii=False)}" for key, value in header.items()]
    spans, ordered = [], []
    for section in SECTIONS:
        members = [note for note in notes if section_of(note.data) == section]
        ordered += members
        if not members:
            lines.append(f"{section}: []")
            continue
        lines.append(f"{section}:")
        for index, note in enumerate(members):
            # each line where it was, four columns to the right: `located` maps a problem back
            lines.append("  -")
            note_lines = note.text.rstrip("\n").split("\n")
            spans.append(_Span(note.display_path, len(lines) + 1, len(note_lines), (section, index)))
            lines += [f"{_INDENT}{line}" if line.strip() else "" for line in note_lines]
    return Composed(header["version"], preview, "\n".join(lines) + "\n", tuple(spans), tuple(ordered))


def entries_of(text: str) -> list:
    """The entries a release file's text holds, as the loader reads them, an empty list the same
    as none (the model's default): to compare two texts."""
    data = load_document(Path("release.yaml"), multiline=lambda location: True, raw=text.encode("utf-8"))[0].data
    if not isinstance(data, dict):
        return []
    return [
        {key: value for key, value in entry.items() if value != []} if isinstance(entry, dict) else entry
        for section in SECTIONS
        for entry in (data.get(section) or [])
    ]


# The help `releasekb add` writes after a note's values (skeleton.NOTE), and its empty lists: for
# the author of a note, not for the readers of a release file, so `release` leaves them out.
_ADD_HELP = re.compile(
    r"  # (a new feature: its permanent address .*|continues the feature of release .*|new \| improvement \| fix"
    r"|breaking \| deprecation \| removal|one of .*|e\.g\. .*|it concerns something no release describes)$"
)
_EMPTY_LISTS = ("apis: []", "links: []")


def release_file_text(composed: Composed, header_lines: list[str], tidy: bool = True) -> str:
    """The release file `releasekb release` writes: the schema comment, `header_lines` (the
    release's own keys), then the notes, each as a release file lists an entry (`  - id: ...`),
    without the comments `releasekb add` wrote for the note's author."""
    lines = [SCHEMA_COMMENT, *header_lines]
    for section in SECTIONS:
        members = [note for note in composed.notes if section_of(note.data) == section]
        lines.append(f"{section}:" if members else f"{section}: []")
        for note in members:
            body = note.text.rstrip("\n").split("\n")
            if tidy:
                body = [_ADD_HELP.sub("", line) for line in body]
                body = [line for line in body if line not in _EMPTY_LISTS]
            while body and (not body[0].strip() or body[0].lstrip().startswith("#")):
                body.pop(0)
            lines.append(f"  - {body[0]}")
            lines += [f"{_INDENT}{line}" if line.strip() else "" for line in body[1:]]
    return "\n".join(lines) + "\n"
