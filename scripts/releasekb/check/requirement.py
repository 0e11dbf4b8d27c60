"""The requirement a checked project declares on the knowledge base's product, for `releasekb check`.

A project says which releases it supports in its packaging files; `check` compares that with the
lowest release providing every API the code uses (`torch>=1.4` declared, `torch.fft.fft` from 1.7
used: the declaration is too low). Read from the folder checked and, when it lies below the current
directory, every folder up to it (`check src/` from a repository's root reads its pyproject.toml):

- pyproject.toml: `[project] dependencies` and `optional-dependencies` (an extra that needs torch
  declares which torch the code using it supports);
- setup.cfg: `[options] install_requires` and `[options.extras_require]`;
- requirements*.txt and requirements/*.txt;
- the METADATA of an unpacked wheel (`*.dist-info`, when the folder holds exactly one) and the
  PKG-INFO of an unpacked source distribution (`Requires-Dist`);
- setup.py: the `install_requires` and `extras_require` of its `setup(...)` call, read from its
  syntax tree, never run (setup_py.py). A value computed when it runs (a function's result, a
  file read, a list built up) cannot be known: it is listed as not readable (`Computed`).

Poetry's own dependency tables are not PEP 508 and are not read. Requirements are parsed with
`packaging`, as pip parses them.
"""

from __future__ import annotations

import configparser
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from releasekb.check.messages import Message, message
from releasekb.check.scan.reading import NotRead, read_regular_text
from releasekb.check.setup_py import Computed, setup_py_requirements

# A packaging file is read whole; the largest in practice (a METADATA with a long description)
# are a few hundred KB. A larger one is reported unreadable, as a pipe or a device is.
MAX_PACKAGING_FILE_BYTES = 16_000_000


@dataclass(frozen=True)
class Declared:
    """One requirement on the distribution, where it is written."""

    text: str  # as written: torch>=1.4
    file: Path  # the file, as found on disk
    line: int
    specifier: SpecifierSet


@dataclass(frozen=True)
class Unreadable:
    """A packaging file that cannot be read: its requirements are not checked."""

    file: Path
    line: int
    reason: Message  # why (messages.py)

    @property
    def message(self) -> str:
        """Why, in English."""
        return self.reason.text()


def project_folders(paths: list[str], cwd: Path) -> list[Path]:
    """The folders whose packaging files declare the requirements of the code under `paths`:
    each folder checked (a file's own folder) and its parents up to `cwd` when it is below it."""
    folders: dict[Path, None] = {}
    for path in paths:
        folder = Path(path).resolve()
        folder = folder if folder.is_dir() else folder.parent
        folders[folder] = None
        if folder.is_relative_to(cwd):
            for parent in folder.parents:
                if not parent.is_relative_to(cwd):
                    break
                folders[parent] = None
    return list(folders)


@dataclass(frozen=True)
class NotLiteral:
    """A declaration whose value setup.py computes when it runs: what it requires is not known."""

    file: Path
    line: int
    field: str  # install_requires, extras_require, or the `**name` the call takes its arguments from


def declared(folders: list[Path], distribution: str) -> tuple[list[Declared], list[Unreadable], list[NotLiteral]]:
    """Every requirement on `distribution` in the packaging files of `folders`, the files that
    could not be read, and the declarations of a setup.py that cannot be read without running it."""
    found: list[Declared] = []
    unreadable: list[Unreadable] = []
    computed: list[NotLiteral] = []
    wanted = canonicalize_name(distribution)
    for file, reader in _packaging_files(folders):
        try:  # a regular file within its limit: a pipe or /dev/zero is not read
            text = read_regular_text(file, MAX_PACKAGING_FILE_BYTES)
            lines = reader(text)
        except NotRead as error:
            unreadable.append(Unreadable(file, 1, error.reason))
            continue
        except (OSError, UnicodeDecodeError) as error:
            unreadable.append(Unreadable(file, 1, message("requirements_unreadable", why=_reason(error))))
            continue
        except _BadFile as error:
            unreadable.append(Unreadable(file, error.line, error.reason))
            continue
        for line, requirement_text in lines:
            if isinstance(requirement_text, Computed):
                computed.append(NotLiteral(file, line, requirement_text.field))
                continue
            requirement = _requirement(requirement_text)
            if requirement is not None and canonicalize_name(requirement.name) == wanted:
                found.append(Declared(requirement_text.strip(), file, line, requirement.specifier))
    return found, unreadable, computed


def allows_before(specifier: SpecifierSet, needed: str) -> bool:
    """Whether `specifier` allows a final release before `needed` (a release of the knowledge
    base): the lowest versions it allows are its own bounds, or any version when it has none.

    >>> [allows_before(SpecifierSet(s), "1.7") for s in (">=1.4", ">=1.7", "==1.6.*", ">1.6", "<1.5", "", ">=2")]
    [True, False, True, True, True, True, False]
    >>> allows_before(SpecifierSet(">=1.7.0rc1"), "1.7"), allows_before(SpecifierSet("~=1.7.0"), "1.7")
    (False, False)
    """
    try:
        limit = Version(_numbers(needed))
    except InvalidVersion:
        return False
    candidates = ["0"]
    for clause in specifier:
        bound = clause.version.removesuffix(".*")
        # just above `>X`: X.0.0.1 is above X and below every later release (X.post1 is not allowed by >X)
        candidates.append(bound + ".0.0.1" if clause.operator == ">" else bound)
    return any(
        version < limit and not version.is_prerelease and specifier.contains(version)
        for version in filter(None, map(_version, candidates))
    )


class _BadFile(Exception):
    def __init__(self, line: int, reason: Message):
        super().__init__(reason.text())
        self.line, self.reason = line, reason


def _reason(error: Exception) -> str:
    return getattr(error, "strerror", None) or str(error)


def _version(text: str) -> Version | None:
    try:
        return Version(text)
    except InvalidVersion:
        return None


def _numbers(release: str) -> str:
    """A release of the knowledge base as a PEP 440 version: its leading numbers (1.8-lts -> 1.8)."""
    match = re.match(r"[0-9]+(?:\.[0-9]+)*", release)
    return match.group() if match else release


def _requirement(text: str) -> Requirement | None:
    """A PEP 508 requirement with a version specifier, or None: a line of another form, or one
    naming a URL (its version cannot be known without fetching it)."""
    try:
        requirement = Requirement(text)
    except InvalidRequirement:
        return None
    return None if requirement.url else requirement


def _packaging_files(folders: list[Path]):
    """(file, reader) for every packaging file of `folders`; a reader turns a file's text into
    (line, requirement text) pairs."""
    for folder in folders:
        readers = (
            ("pyproject.toml", _pyproject),
            ("setup.cfg", _setup_cfg),
            ("setup.py", _setup_py),
            ("PKG-INFO", _metadata),
        )
        for name, reader in readers:
            if (folder / name).is_file():
                yield folder / name, reader
        for file in [*sorted(folder.glob("requirements*.txt")), *sorted(folder.glob("requirements/*.txt"))]:
            if file.is_file():
                yield file, _requirements_txt
        wheels = sorted(folder.glob("*.dist-info/METADATA"))
        if len(wheels) == 1:  # several: a site-packages folder, whose packages are not the code's project
            yield wheels[0], _metadata


def _line_of(text: str, needle: str, default: int = 1) -> int:
    """The first line of `text` that holds `needle` (a requirement inside a TOML or INI list)."""
    for number, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            return number
    return default


def _pyproject(text: str) -> list[tuple[int, str]]:
    try:
        document = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError) as error:
        # tomllib says where as "(at line 3, column 5)", or "(at end of document)"; it recurses
        # into nested arrays, so a deep one is a RecursionError, at no line in particular
        match = re.search(r"line (\d+)", str(error))
        line = int(match.group(1)) if match else max(len(text.splitlines()), 1)
        why = "nested too deeply" if isinstance(error, RecursionError) else str(error)
        raise _BadFile(line, message("requirements_invalid_toml", why=why)) from None
    project = document.get("project")
    if not isinstance(project, dict):
        return []
    lists = [project.get("dependencies")]
    extras = project.get("optional-dependencies")
    if isinstance(extras, dict):
        lists += list(extras.values())
    texts = [item for items in lists if isinstance(items, list) for item in items if isinstance(item, str)]
    return [(_line_of(text, item), item) for item in texts]


def _setup_cfg(text: str) -> list[tuple[int, str]]:
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error as error:
        line = getattr(error, "lineno", 1) or 1
        raise _BadFile(line, message("requirements_invalid_setup_cfg", why=error.message)) from None
    values = []
    if parser.has_option("options", "install_requires"):
        values.append(parser.get("options", "install_requires"))
    if parser.has_section("options.extras_require"):
        values += [value for _, value in parser.items("options.extras_require")]
    items = [item.strip() for value in values for item in value.splitlines() if item.strip()]
    return [(_line_of(text, item), item) for item in items if not item.startswith("#")]


def _setup_py(text: str) -> list[tuple[int, str | Computed]]:
    try:
        return setup_py_requirements(text)
    except SyntaxError as error:
        line = error.lineno or 1
        raise _BadFile(line, message("requirements_invalid_setup_py", why=f"line {line}: {error.msg}")) from None


def _requirements_txt(text: str) -> list[tuple[int, str]]:
    """pip's requirements file: one requirement a line, `#` comments, `\\` continuations; options
    (-r, -e, --index-url) and URLs are not requirements on a version."""
    found: list[tuple[int, str]] = []
    pieces: list[str] = []  # the lines of one requirement, continued with a final backslash
    start = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if not pieces:
            start = number
        line = re.sub(r"(^|\s)#.*", "", line).strip()
        pieces.append(line.removesuffix("\\").strip())
        if line.endswith("\\"):
            continue
        item, pieces = " ".join(piece for piece in pieces if piece), []
        if item and not item.startswith("-"):
            found.append((start, item))
    return found


def _metadata(text: str) -> list[tuple[int, str]]:
    """Core metadata (METADATA, PKG-INFO): `Requires-Dist:` headers, before the description."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():  # the headers end at the first empty line; the description follows
            break
        name, _, value = line.partition(":")
        if name.strip().lower() == "requires-dist":
            found.append((number, value.strip()))
    return found
