"""Finding the files to scan: the folders walked, the defaults and patterns that skip files, and
the package each file is in (from `__init__.py` files), for relative imports."""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Sequence
from pathlib import Path

from releasekb.check.messages import message
from releasekb.check.scan.jobs import Job
from releasekb.check.scan.model import FileError
from releasekb.common.cache_folder import CACHE_FOLDER, OLD_CHECK_CACHE_FOLDER

# Folders that hold tools' state, dependencies or build output rather than the user's code.
DEFAULT_SKIPPED_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".venv",
        "venv",
        "env",
        ".env",
        "__pycache__",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        "node_modules",
        "build",
        "dist",
        "site-packages",
        ".eggs",
        ".ipynb_checkpoints",
        CACHE_FOLDER,
        OLD_CHECK_CACHE_FOLDER,
    }
)
_SKIPPED_DIR_PATTERNS = ("*.egg-info",)
_PYTHON_SUFFIXES = (".py", ".pyi")
_NOTEBOOK_SUFFIX = ".ipynb"
_SCANNED_SUFFIXES = (*_PYTHON_SUFFIXES, _NOTEBOOK_SUFFIX)
_PACKAGE_MARKER = "__init__.py"  # a folder with one is a (regular) package


def normalise_patterns(patterns: Sequence[str]) -> tuple[str, ...]:
    cleaned = (pattern.strip().replace("\\", "/").removeprefix("./").rstrip("/") for pattern in patterns)
    return tuple(pattern for pattern in cleaned if pattern)


def _matches_any(rel: str, patterns: tuple[str, ...]) -> bool:
    """A pattern matches the whole relative path or any one of its components."""
    if not patterns:
        return False
    parts = rel.split("/")
    return any(fnmatch.fnmatchcase(rel, p) or any(fnmatch.fnmatchcase(part, p) for part in parts) for p in patterns)


def _is_default_skipped(directory: str, name: str) -> bool:
    if name in DEFAULT_SKIPPED_DIRS or any(fnmatch.fnmatchcase(name, p) for p in _SKIPPED_DIR_PATTERNS):
        return True
    return os.path.isfile(os.path.join(directory, name, "pyvenv.cfg"))  # a virtual environment


def _package_name(directory: str) -> str | None:
    """The dotted name of the package a folder is, from the `__init__.py` in it and in the folders
    above it (`src/torchvision/io` is `torchvision.io`); None when it is no package."""
    parts: list[str] = []
    directory = os.path.abspath(directory)
    while os.path.isfile(os.path.join(directory, _PACKAGE_MARKER)):
        parent, name = os.path.split(directory)
        if not name.isidentifier() or parent == directory:
            break
        parts.append(name)
        directory = parent
    return ".".join(reversed(parts)) or None


def _subpackage(package: str | None, name: str, files: list[str]) -> str | None:
    """The package name of the folder `name`, whose files are `files`, in a folder that is `package`."""
    if _PACKAGE_MARKER not in files or not name.isidentifier():
        return None
    return f"{package}.{name}" if package else name


def _kind(name: str, rel: str, include: tuple[str, ...]) -> str | None:
    if name.endswith(_PYTHON_SUFFIXES):
        return "python"
    if name.endswith(_NOTEBOOK_SUFFIX):
        return "notebook"
    if include and any(fnmatch.fnmatchcase(name, p) or fnmatch.fnmatchcase(rel, p) for p in include):
        return "tokens"
    return None


def _walk(top: Path, include: tuple[str, ...], exclude: tuple[str, ...], errors: list[FileError]) -> list[Job]:
    jobs = []

    def unreadable(error: OSError) -> None:
        rel = Path(os.path.relpath(error.filename, top)).as_posix() if error.filename else "."
        errors.append(FileError(rel, 1, message("unreadable_folder", why=str(error.strerror or error))))

    packages = {os.path.normpath(top): _package_name(top)}  # folder -> its package name, as the walk goes down
    for directory, subdirectories, files in os.walk(top, onerror=unreadable):
        base = Path(os.path.relpath(directory, top)).as_posix()
        prefix = "" if base == "." else base + "/"
        directory = os.path.normpath(directory)
        if directory not in packages:
            parent, name = os.path.split(directory)
            packages[directory] = _subpackage(packages.get(parent), name, files)
        subdirectories[:] = sorted(
            name
            for name in subdirectories
            if not _is_default_skipped(directory, name) and not _matches_any(prefix + name, exclude)
        )
        if not include:  # most files in a tree are neither Python nor notebooks: drop them cheaply
            files = [name for name in files if name.endswith(_SCANNED_SUFFIXES)]
        for name in sorted(files):
            rel = prefix + name
            kind = _kind(name, rel, include)
            if kind is not None and not _matches_any(rel, exclude):
                jobs.append(Job(kind, os.path.join(directory, name), rel, packages[directory]))
    return jobs


def collect(
    paths: Sequence[Path], include: tuple[str, ...], exclude: tuple[str, ...]
) -> tuple[list[Job], list[FileError]]:
    """Files to scan under the given paths; a path given explicitly is never skipped by the defaults."""
    jobs: list[Job] = []
    errors: list[FileError] = []
    for given in map(Path, paths):
        if given.is_dir():
            jobs.extend(_walk(given, include, exclude, errors))
        elif given.exists():
            # an explicit file that is neither Python nor a notebook goes to the token scanner (and
            # one that is not a regular file, a pipe or a device, to the reader, which skips it)
            if not _matches_any(given.name, exclude):
                kind = _kind(given.name, given.name, include) or "tokens"
                jobs.append(Job(kind, str(given), given.name, _package_name(str(given.parent))))
        else:
            errors.append(FileError(given.as_posix(), 1, message("missing")))
    seen: set[str] = set()
    unique = []
    for job in jobs:
        key = os.path.abspath(job.path)
        if key not in seen:
            seen.add(key)
            unique.append(job)
    return unique, errors
