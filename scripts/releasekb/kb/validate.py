"""Stage 2, validate: turn loaded documents into typed records, collecting every problem.

Shape problems (types, unknown or missing keys, patterns) come from the pydantic models
in `model.py`, translated here into messages a curator can act on; meaning problems
(vocabularies, references, lifecycles, glossary) come from the rules in `rules.py`.
Nothing here raises on the first problem: a run reports all of them, sorted.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import os
import re
import stat
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from types import UnionType
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

from releasekb.common.i18n import has_interface_strings, interface_strings, language_name
from releasekb.common.locales import team_catalogue_problems
from releasekb.common.problems import DataError, Problem, not_one_of, suggest
from releasekb.common.regular_files import read_regular_file
from releasekb.common.versions import version_key
from releasekb.kb import notes, rules, translations
from releasekb.kb.dataset import LoadedRelease, ValidatedData
from releasekb.kb.loader import MAX_FILE_BYTES, Document, Location, format_location, load_document
from releasekb.kb.model import (
    DATE_PATTERN,
    HEX_COLOUR_PATTERN,
    MULTILINE,
    PLACEHOLDER,
    SLUG_PATTERN,
    TEXT_LANGUAGE_ERROR,
    URL_PATTERN,
    VERSION_PATTERN,
    ChangeEntry,
    FeatureEntry,
    InLanguages,
    ProjectFile,
    ReleaseFile,
    context_languages,
)

PROJECT_FILE = "project.yaml"
RELEASE_FILE_PATTERN = re.compile(r"^[0-9][^/]*\.yaml$")

_PATTERN_HINTS = {
    SLUG_PATTERN: "is not an ASCII slug (lowercase letters, digits and single hyphens, like 'fast-io')",
    VERSION_PATTERN: "is not a version (digits and dots, like '1.7' or '1.10')",
    DATE_PATTERN: "is not a date written YYYY-MM-DD (or YYYY-MM when only the month is known)",
    HEX_COLOUR_PATTERN: "is not a colour written #RRGGBB (six hexadecimal digits, like '#2e7d32')",
    URL_PATTERN: "is not an absolute http(s) URL (like 'https://example.com/docs/')",
}
_TYPE_NAMES = {
    "string_type": "text",
    "int_type": "a whole number",
    "bool_type": "true or false",
    "list_type": "a list",
    "dict_type": "a mapping (key: value)",
    "model_type": "a mapping (key: value)",
    "model_attributes_type": "a mapping (key: value)",
}


def display_path(path: Path) -> str:
    """Paths as the curator typed them: relative to the working directory when inside it."""
    try:
        absolute = Path(path).resolve()
    except (OSError, RuntimeError):  # a symbolic link in a loop (a problem of its own)
        absolute = Path(path).absolute()
    try:
        return str(absolute.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(absolute)


def release_paths(data_dir: Path) -> list[Path]:
    return sorted(p for p in data_dir.glob("*.yaml") if RELEASE_FILE_PATTERN.match(p.name))


# A YAML file whose name holds a digit looks like a release file ('1.1.yml', 'Draft-1.1.yaml',
# 'old/0.9.yaml'); release_paths reads only <version>.yaml in the data folder itself.
_YAML_EXTENSIONS = (".yaml", ".yml")
_VERSION_IN_NAME = re.compile(r"[0-9][0-9a-z.-]*[0-9a-z]|[0-9]")


def unread_release_files(data_dir: Path) -> list[Problem]:
    """Warnings at the files of a data folder that look like release files but are not read (a
    `.yml` or upper-case extension, a name that is not a version, a subfolder): their release
    would be silently missing from the site. Hidden files and folders (an editor's) are left alone."""
    data_dir = Path(data_dir)
    read = {PROJECT_FILE, *(path.name for path in release_paths(data_dir))}
    linked = {os.path.realpath(path) for path in release_paths(data_dir) if path.is_symlink()}  # read as links
    problems = []
    for folder, subfolders, names in os.walk(data_dir):
        subfolders[:] = sorted(
            name
            for name in subfolders
            if not name.startswith(".") and not (Path(folder) == data_dir and name == notes.NOTES_FOLDER)
        )
        inside = Path(folder) != data_dir
        for name in sorted(names):
            stem, extension = os.path.splitext(name)
            if name.startswith(".") or extension.lower() not in _YAML_EXTENSIONS or not re.search("[0-9]", stem):
                continue
            if (inside or name not in read) and os.path.realpath(Path(folder) / name) not in linked:
                problems.append(_unread_file_warning(data_dir, Path(folder) / name, stem))
    return problems


def _unread_file_warning(data_dir: Path, path: Path, stem: str) -> Problem:
    found = _VERSION_IN_NAME.search(stem.lower())
    version = found.group() if found and re.fullmatch(VERSION_PATTERN, found.group()) else None
    name = f"{version}.yaml" if version else "<version>.yaml (like 1.7.yaml)"
    right = display_path(data_dir / name) if version else f"{display_path(data_dir)}/{name}"
    message = (
        f"this file is not read: release files are named <version>.yaml in the data folder itself, so its "
        f"release is missing from the site; rename it to {right}, or move it out of the data folder"
    )
    return Problem(display_path(path), 1, 1, "(document)", message, severity="warning")


def missing_project(data_dir: Path) -> DataError | None:
    """The problem of a data folder without project.yaml, which every command reads first (its
    vocabularies decide what release files may say): one message for all of them, pointing a
    curator in a fresh folder at `init`. None when the file is there."""
    path = Path(data_dir) / PROJECT_FILE
    return None if path.is_file() else _no_project(path)


def _no_project(path: Path) -> DataError:
    message = (
        "file not found: every data folder needs a project.yaml with the vocabularies; "
        "start a knowledge base with `releasekb init --product NAME`, or pass --data"
    )
    return DataError([Problem(display_path(path), 1, 1, "(document)", message)])


def load_project(data_dir: Path) -> ProjectFile:
    """Only project.yaml, validated; raises DataError."""
    if (missing := missing_project(data_dir)) is not None:
        raise missing
    problems: list[Problem] = []
    _, project = _load_record(
        Path(data_dir) / PROJECT_FILE,
        ProjectFile,
        problems,
        context_for=functools.partial(project_context, data_dir=Path(data_dir)),
    )
    if problems or project is None:
        raise DataError(problems)
    return project


@dataclass(frozen=True)
class DataFiles:
    """The bytes of a data folder's files, each file read once: what a command validates. A build
    reads them once and hands them to every language and every output it writes, so a file saved
    during the build changes none of them (the next build shows it everywhere)."""

    folder: Path
    files: dict[str, bytes]  # {name: bytes}: project.yaml, translations.lock, the release files read
    problems: tuple[Problem, ...] = ()  # the files there that could not be read (a folder, no permission)
    # The notes (releases/unreleased/), composed into one release file, which `files` holds too;
    # None when they are left out (a published build) or there are none.
    notes: notes.Composed | None = None

    @property
    def release_names(self) -> list[str]:
        return sorted(name for name in self.files if RELEASE_FILE_PATTERN.match(name))

    @cached_property
    def fingerprint(self) -> str:
        """Changes whenever a file's bytes change, or a file can be read again or no longer."""
        digest = hashlib.sha256()
        for name, content in sorted(self.files.items()):
            digest.update(f"{name}\0{len(content)}\0".encode())
            digest.update(content)
        digest.update("\n".join(map(str, self.problems)).encode())
        return digest.hexdigest()


def read_files(data_dir: Path, with_notes: notes.NotesAs | None = None) -> DataFiles:
    """Read project.yaml, translations.lock and every release file of a data folder, once each.
    One that cannot be read is a problem at its line 1, as any other problem of the data.
    with_notes: read the notes too, as the entries of the release it says (the preview of the
    next one, or the one `releasekb release` writes)."""
    data_dir = Path(data_dir)
    files, problems = {}, []
    for path in [data_dir / PROJECT_FILE, data_dir / translations.LOCK_FILE, *release_paths(data_dir)]:
        content = _read_data_file(path, data_dir, problems)
        if content is not None:
            files[path.name] = content
    composed = None
    done = notes.released_already(data_dir) if with_notes is not None else set()
    if with_notes is not None and (paths := [p for p in notes.note_paths(data_dir) if p.name not in done]):
        composed = _composed_notes(data_dir, paths, files, problems, with_notes)
        if composed is not None:
            files[composed.name] = composed.text.encode("utf-8")
    return DataFiles(data_dir, files, tuple(problems), composed)


def _read_data_file(path: Path, data_dir: Path, problems: list[Problem]) -> bytes | None:
    try:
        if _links_outside(path, data_dir):
            raise _LinkOutside(
                "is a symbolic link to a file outside the data folder, which is not read (copy the file "
                "into the data folder, or remove the link)"
            )
        return _read_file(path)
    except FileNotFoundError:
        return None  # load_data says what the absence means (no project.yaml; no review yet)
    except OSError as error:
        # the path as listed, its last link not followed: a link's target is not named
        shown = str(Path(display_path(path.parent)) / path.name)
        problems.append(Problem(shown, 1, 1, "(document)", _unreadable(error)))
        return None


def _composed_notes(
    data_dir: Path, paths: list[Path], files: dict[str, bytes], problems: list[Problem], target: notes.NotesAs
) -> notes.Composed | None:
    """The notes as one release file (notes.compose) after the latest of `files`; each note that
    cannot be read, is no entry, or repeats another's id is a problem instead."""
    read: list[notes.Note] = []
    first_of: dict[str, notes.Note] = {}
    for path in paths:
        content = _read_data_file(path, data_dir, problems)
        if content is None:
            continue
        note, found = notes.read_note(path, display_path(path), content)
        problems.extend(found)
        if note is None:
            continue
        if note.id is not None and note.id in first_of:
            first = first_of[note.id]
            problems.append(
                Problem(
                    note.display_path,
                    note.id_line,
                    note.id_column,
                    "id",
                    f"'{note.id}' is also the id of {first.display_path}: one release describes a feature once, "
                    "so write both in one note, or give this one the id of the feature it is about",
                )
            )
            continue
        if note.id is not None:
            first_of[note.id] = note
        read.append(note)
    if not read:
        return None
    versions = sorted(
        (name.removesuffix(".yaml") for name in files if RELEASE_FILE_PATTERN.match(name)), key=version_key
    )
    latest = versions[-1] if versions else None
    strings = {lang: interface_strings(lang, data_dir) for lang in project_languages(data_dir)}
    header = notes.release_header(target, latest, _scheme_of(files.get(f"{latest}.yaml")), strings)
    ordered = notes.in_release_order(read, _areas_of(files.get(PROJECT_FILE)))
    composed = notes.compose(ordered, header, preview=target.version is None)
    return dataclasses.replace(composed, shown_as=display_path(data_dir / composed.name))


def _plain(content: bytes | None) -> Any:
    """A file's data as plain YAML reads it, before any validation; None when it cannot be read."""
    import yaml

    try:
        return yaml.safe_load(content) if content is not None else None
    except (yaml.YAMLError, UnicodeDecodeError):
        return None


def _scheme_of(content: bytes | None) -> str | None:
    data = _plain(content)
    scheme = data.get("scheme") if isinstance(data, dict) else None
    return scheme if isinstance(scheme, str) else None


def _areas_of(content: bytes | None) -> list[str]:
    data = _plain(content)
    areas = data.get("areas") if isinstance(data, dict) else None
    return [key for key in areas if isinstance(key, str)] if isinstance(areas, dict) else []


def _links_outside(path: Path, data_dir: Path) -> bool:
    """Whether `path` is a symbolic link to a file outside the data folder. Such a file is not
    read: a cloned repository can carry a link to any file of the reader's machine, and a problem
    in it would be echoed with its content (a line of /etc/passwd, a key). A link inside the
    folder (a loop included, reported when read) is read as its target."""
    if not path.is_symlink():
        return False
    target, folder = os.path.realpath(path), os.path.realpath(data_dir)
    return os.path.commonpath([target, folder]) != folder


def _read_file(path: Path) -> bytes:
    """The bytes of a regular file, at most MAX_FILE_BYTES + 1 of them (the loader reports a longer
    one). Opened without blocking: a named pipe is refused, not waited on forever."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    mode = os.fstat(descriptor).st_mode
    if not stat.S_ISREG(mode):
        os.close(descriptor)
        raise _NotAFile("is a folder, not a file" if stat.S_ISDIR(mode) else "is not a regular file (a pipe?)")
    with os.fdopen(descriptor, "rb") as file:
        return file.read(MAX_FILE_BYTES + 1)


class _NotAFile(OSError):
    pass


class _LinkOutside(OSError):
    pass


def _unreadable(error: OSError) -> str:
    if isinstance(error, _LinkOutside):
        return str(error)
    if isinstance(error, _NotAFile):
        return f"{error} (rename or remove it)"
    if isinstance(error, PermissionError):
        return "cannot be read: permission denied (give yourself read access, e.g. `chmod u+r`)"
    return f"cannot be read: {error.strerror or error}"


def load_data(source: Path | DataFiles, loaded: LoadedReleases | None = None) -> ValidatedData:
    """Load and validate project.yaml and every release file of a data folder (read now, or read
    before: a DataFiles); raise DataError listing all problems. loaded: the release files loaded
    before by this process, to load again only those that changed."""
    read = source if isinstance(source, DataFiles) else read_files(Path(source))
    data_dir = read.folder
    problems: list[Problem] = list(read.problems)
    project_path = data_dir / PROJECT_FILE
    if PROJECT_FILE not in read.files:
        unreadable = [problem for problem in problems if problem.file == display_path(project_path)]
        raise DataError(unreadable) if unreadable else _no_project(project_path)
    project_document, project = _load_record(
        project_path,
        ProjectFile,
        problems,
        read.files[PROJECT_FILE],
        # with the data folder: a language only the team's locales/<lang>.yaml speaks is one
        context_for=functools.partial(project_context, data_dir=data_dir),
    )

    if loaded is not None and project is not None:
        project = loaded.same_project(project)
    releases: list[LoadedRelease] = []
    names = read.release_names
    if not names and not problems:
        problems.append(
            Problem(display_path(data_dir), 1, 1, "(folder)", "no release files found (expected files like 1.7.yaml)")
        )
    load = loaded.load if loaded is not None else _load_release
    for name in names:
        release = load(data_dir / name, read.files[name], problems, project)
        if release is not None:
            releases.append(release)
    if project is None:
        raise DataError([read.notes.located(problem) for problem in problems] if read.notes else problems)

    lock_display = display_path(data_dir / translations.LOCK_FILE)
    records, lock_problems = translations.read_records(
        read.files.get(translations.LOCK_FILE), lock_display, project.languages
    )
    problems.extend(lock_problems)
    problems.extend(team_catalogue_problems(data_dir))  # the team's interface strings (locales/)
    releases.sort(key=lambda r: version_key(r.record.version))
    complete = not problems and len(releases) == len(names)
    data = ValidatedData(project, project_document, tuple(releases), complete, records, read.notes)
    problems.extend(rules.check_all(data))
    if problems:
        raise DataError([data.located(problem) for problem in problems])
    return data


def project_languages(data_dir: Path) -> tuple[str, ...]:
    """The languages project.yaml names, read before it is validated (a builder starts one worker
    per language first); those of a project.yaml without the key when it cannot tell (the
    validation then reports what is wrong)."""
    import yaml

    try:
        content = read_regular_file(Path(data_dir) / PROJECT_FILE, MAX_FILE_BYTES)
        data = yaml.safe_load(content)
    except (OSError, yaml.YAMLError, UnicodeDecodeError):
        data = None
    languages = context_languages(project_context(data, data_dir))
    if len(set(languages)) != len(languages) or not all(has_interface_strings(lang, data_dir) for lang in languages):
        return context_languages(None)  # wrong: reported by the validation, at its line
    return languages


def project_context(data: Any, data_dir: Path | None = None) -> dict:
    """The languages project.yaml's own texts are written in: those it names (when `languages`
    is a list of texts; a wrong one is reported by the model), else those of a project.yaml
    without the key (model.context_languages)."""
    data = data if isinstance(data, dict) else {}
    languages = data.get("languages")
    context = {"untranslated": data.get("untranslated"), "data_dir": data_dir}
    if isinstance(languages, list) and languages and all(isinstance(lang, str) for lang in languages):
        context["languages"] = tuple(languages)
    return context


def vocabulary_context(project: ProjectFile | None, data: Any) -> dict | None:
    """The allowed values of vocabulary fields for one release file (see model.vocabulary), and
    the languages its texts are written in."""
    if project is None:
        return None
    schemes = project.stability.schemes
    scheme = data.get("scheme") if isinstance(data, dict) else None
    return {
        "languages": tuple(project.languages),
        "untranslated": project.untranslated,
        "areas": list(project.areas),
        "schemes": list(schemes),
        "scheme": scheme,
        "labels": schemes.get(scheme) if isinstance(scheme, str) else None,
        "all_labels": list(project.stability.labels),
    }


class LoadedReleases:
    """The release files one process has loaded, for its next load of the same folder. Under
    `serve` one process loads the data folder again after every save, and parsing the YAML was
    most of that: a release file of the same bytes, read with the same project vocabularies, is
    not parsed and validated again. Held by a build session (site/session.py)."""

    def __init__(self):
        # {resolved path: (the file's bytes and display path, the project, the problems found, the release)}
        self._loaded: dict[str, tuple] = {}
        self._project: ProjectFile | None = None

    def same_project(self, project: ProjectFile) -> ProjectFile:
        """The project loaded before when `project` equals it, else `project`: what is kept for a
        release file (here and in kept.py) then tells the project is unchanged by identity, not
        by comparing it whole again for every file and rule."""
        if self._project is None or self._project != project:
            self._project = project
        return self._project

    def load(
        self, path: Path, content: bytes, problems: list[Problem], project: ProjectFile | None
    ) -> LoadedRelease | None:
        """_load_release, remembered while the file's bytes and the project are unchanged."""
        key, before = str(path.resolve()), (content, display_path(path))
        remembered = self._loaded.get(key)
        same_project = remembered is not None and (remembered[1] is project or remembered[1] == project)
        if same_project and remembered[0] == before:
            problems.extend(remembered[2])
            return remembered[3]
        found: list[Problem] = []
        release = _load_release(path, content, found, project)
        problems.extend(found)
        if project is not None:
            self._loaded[key] = (before, project, tuple(found), release)
        return release


def _load_release(
    path: Path, content: bytes, problems: list[Problem], project: ProjectFile | None
) -> LoadedRelease | None:
    """Validate a release file; when only some entries are invalid, keep the valid ones
    (with their original locations) so that the rules report problems in those too."""
    before = len(problems)
    document, record = _load_record(
        path, ReleaseFile, problems, content, lambda data: vocabulary_context(project, data), placeholders=True
    )
    data = document.data
    context = vocabulary_context(project, data)
    if record is not None:
        locations = [("features", i) for i in range(len(record.features))]
        locations += [("changes", i) for i in range(len(record.changes))]
        return LoadedRelease(document, record, tuple(locations), complete=len(problems) == before)
    if not isinstance(data, dict):
        return None
    partial, locations = dict(data), []
    for key, entry_model in (("features", FeatureEntry), ("changes", ChangeEntry)):
        items = data.get(key)
        if not isinstance(items, list):
            continue
        valid = [(i, item) for i, item in enumerate(items) if _is_valid(entry_model, item, context)]
        partial[key] = [item for _, item in valid]
        locations += [(key, i) for i, _ in valid]
    try:
        record = ReleaseFile.model_validate(partial, context=context)
    except ValidationError:
        return None  # the release's own fields are invalid; already reported
    return LoadedRelease(document, record, tuple(locations), complete=False)


def _is_valid(model: type[BaseModel], item: Any, context: dict | None) -> bool:
    try:
        model.model_validate(item, context=context)
    except ValidationError:
        return False
    return True


def _load_record(
    path: Path,
    model: type[BaseModel],
    problems: list[Problem],
    content: bytes | None = None,
    context_for=lambda data: None,
    placeholders=False,
):
    """content: the file's bytes, as read before; None reads the file now."""
    document, load_problems = load_document(
        path, display_path(path), lambda location: is_multiline(model, location), raw=content
    )
    problems.extend(load_problems)
    if document.data is None and load_problems:
        return document, None  # unreadable; a duplicate key alone still lets us check the rest
    # a file holding only `null` or `~` goes on to the model: "expected a mapping", never dropped
    left = placeholder_locations(document.data) if placeholders else []
    problems.extend(document.problem(location, _placeholder_message(location)) for location in left)
    try:
        record = model.model_validate(document.data, context=context_for(document.data))
    except ValidationError as error:
        # a placeholder (or a value the loader refused, such as a tag) is reported once, as
        # such, not also as a malformed date or a missing text
        reported = {*map(format_location, left), *(p.where for p in load_problems)}
        problems.extend(p for p in shape_problems(error, document, model) if p.where not in reported)
        return document, None
    return (document, None) if left else (document, record)


_PLACEHOLDER_HINTS = {
    "date": "write the release date as YYYY-MM-DD, or YYYY-MM when only the month is known",
    "url": "write the address, or delete `url` when the source has none",
    "id": "write an ASCII slug such as 'fast-io'; it becomes the permanent address /features/<id>/",
    "stability": "write a label of the release's scheme, or delete the line when the release stated no level",
}


def placeholder_locations(data: Any, location: Location = ()) -> list[Location]:
    """Where a release file still holds a `TODO` placeholder from `releasekb new`."""
    if isinstance(data, dict):
        return [found for key, value in data.items() for found in placeholder_locations(value, (*location, key))]
    if isinstance(data, list):
        return [found for i, value in enumerate(data) for found in placeholder_locations(value, (*location, i))]
    return [location] if isinstance(data, str) and data.lstrip().startswith(PLACEHOLDER) else []


def _placeholder_message(location: Location) -> str:
    key = str(location[-1]) if location else ""
    hint = _PLACEHOLDER_HINTS.get(key) or (
        f"write the {language_name(key)} text, in your own words" if has_interface_strings(key) else "write the value"
    )
    return f"still the {PLACEHOLDER} placeholder from `releasekb new`: {hint}"


def shape_problems(error: ValidationError, document: Document, model: type[BaseModel]) -> list[Problem]:
    """Translate pydantic's errors into `file:line:col: where: message` problems."""
    problems = []
    for detail in error.errors(include_url=False):
        location = _document_location(detail["loc"], document.data)
        kind = detail["type"]
        if kind == TEXT_LANGUAGE_ERROR:
            language = detail["ctx"]["language"]
            if detail["ctx"]["missing"]:  # at the text, named as the missing key's place
                problems.append(document.problem((*location, language), detail["msg"]))
            else:  # at the key that names it
                problems.append(document.problem((*location, language), detail["msg"], key=True))
            continue
        if kind == "extra_forbidden":
            name = location[-1]
            known = _field_names(model, location[:-1])
            message = f"unknown key '{name}'{suggest(name, known)}; known keys: {', '.join(known)}"
            problems.append(document.problem(location, message, key=True))
            continue
        problems.append(document.problem(location, _message(detail, location, document, model)))
    return problems


def _message(detail: dict, location: Location, document: Document, model: type[BaseModel]) -> str:
    kind, value, context = detail["type"], detail.get("input"), detail.get("ctx", {})
    if kind == "missing":
        return f"required key '{location[-1]}' is missing"
    if kind == "string_type" and isinstance(value, int | float) and not isinstance(value, bool):
        raw = document.raw_scalars.get(location, str(value))
        return f'YAML reads {raw} as the number {value!r}, not as text; put it in quotes: "{raw}"'
    if kind in _TYPE_NAMES:
        return f"expected {_TYPE_NAMES[kind]}, got {_describe(value)}"
    if kind == "string_pattern_mismatch":
        hint = _PATTERN_HINTS.get(context.get("pattern"), f"does not match {context.get('pattern')}")
        return f"'{value}' {hint}"
    if kind == "string_too_long":
        return (
            f"is {len(value)} characters long, over the {context.get('max_length')} allowed: it names a file, "
            "and file systems refuse long names; shorten it"
        )
    if kind == "string_too_short":
        return "must not be empty"
    if kind == "too_short":
        return "needs at least one item"
    if kind == "literal_error":
        return not_one_of(value, re.findall(r"'([^']*)'", context.get("expected", "")))
    if kind == "value_error":
        return str(context.get("error", detail["msg"]))
    return detail["msg"]


def _describe(value: Any) -> str:
    if value is None:
        return "nothing (an empty value)"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, int | float):
        return f"the number {value!r}"
    return f"'{value}'"


def _document_location(loc: tuple, data: Any) -> Location:
    """Map pydantic's error location onto the document, dropping its internal parts
    (union branch and validator names such as 'str', 'ApiUse' or 'function-after[...]'). A name
    the document lacks is a missing key only as the last part, and only below a mapping."""
    result: list[str | int] = []
    node = data
    for i, part in enumerate(loc):
        if isinstance(node, list) and isinstance(part, int):
            node = node[part] if part < len(node) else None
        elif isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(part, str) and (
            "[" in part or part in _PYDANTIC_BRANCHES or not isinstance(node, dict) or i < len(loc) - 1
        ):
            continue
        else:
            node = None  # a missing key: keep its name, there is nothing below it
        result.append(part)
    return tuple(result)


_PYDANTIC_BRANCHES = {"str", "int", "float", "bool", "list", "dict", "none", "literal"}


def _steps(model: type[BaseModel], location: Location) -> list[tuple[Any, FieldInfo | None]] | None:
    """The way to `location` through a document shaped like `model`: per part of it, the type
    reached and the model's field the part names (None for a list item or a mapping's value).
    None when a part names a key the model does not have."""
    steps: list[tuple[Any, FieldInfo | None]] = []
    current: Any = model
    for part in location:
        current, field = _unwrap(current), None
        if isinstance(part, int):
            args = get_args(current)
            current = args[0] if args else current
        elif isinstance(current, type) and issubclass(current, InLanguages) and part not in current.model_fields:
            current = str  # a language's text (the model's extra keys)
        elif isinstance(current, type) and issubclass(current, BaseModel):
            field = current.model_fields.get(part)
            if field is None:
                return None
            current = field.annotation
        elif get_origin(current) is dict:
            current = get_args(current)[1]
        steps.append((current, field))
    return steps


def _field_names(model: type[BaseModel], location: Location) -> list[str]:
    """The keys allowed at `location` of a document shaped like `model`."""
    steps = _steps(model, location)
    if steps is None:
        return []
    current = _unwrap(steps[-1][0] if steps else model)
    if isinstance(current, type) and issubclass(current, BaseModel):
        return list(current.model_fields)
    return []


def is_multiline(model: type[BaseModel], location: Location) -> bool:
    """Whether the value at `location` of a document shaped like `model` is (in) a multi-line
    text, model.TextBlock: ("features", 3, "summary", "en") is, ("features", 3, "title", "en") is not."""
    # Asked for every text of every file: answered once per shape of location, a list item's
    # type being the same whatever its index (a fifth of loading the data, asked each time).
    return _is_multiline_shape(model, tuple(0 if isinstance(part, int) else part for part in location))


@functools.lru_cache(maxsize=4096)  # bounded: a file's unknown keys are shapes too
def _is_multiline_shape(model: type[BaseModel], shape: Location) -> bool:
    steps = _steps(model, shape) or []
    return any(field is not None and MULTILINE in field.metadata for _, field in steps)


def _unwrap(annotation: Any) -> Any:
    """Optional[X] -> X, Annotated[X, ...] -> X."""
    while get_origin(annotation) in (Union, UnionType, Annotated):
        annotation = next(a for a in get_args(annotation) if a is not type(None))
    return annotation
