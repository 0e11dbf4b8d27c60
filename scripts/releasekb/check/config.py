"""`[tool.releasekb.check]` in the checked project's pyproject.toml: the options a team always
passes to `releasekb check`, kept with its code.

The project's file is the nearest pyproject.toml at or above the folder that holds every path
checked, looking no higher than the repository's root (the folder with `.git`): so a check of
`src/` or of the files pre-commit passes reads the same file, whatever the current directory.
Command-line options win over the file's values. The folder of that file is the project's root:
relative paths in it (`baseline`) are read from there, and the cache lives there.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from releasekb.check.options import CheckUsage
from releasekb.check.requirement import MAX_PACKAGING_FILE_BYTES
from releasekb.common.problems import suggest
from releasekb.common.regular_files import read_regular_text

DOTTED = "tool.releasekb.check"
TABLE = f"[{DOTTED}]"
# key in the file -> (the command's option, what its value must be)
KEYS = {
    "from": ("old", "text"),
    "to": ("new", "text"),
    "exclude": ("exclude", "texts"),
    "fail-on": ("fail_on", "texts"),
    "max-stability": ("max_stability", "text"),
    "baseline": ("baseline", "text"),
    "show-in-effect": ("show_in_effect", "flag"),
}
_EXPECTED = {
    "text": 'a string in quotes (a version is a string too: from = "1.4")',
    "texts": 'a string or a list of strings (["a", "b"])',
    "flag": "true or false",
}


@dataclass(frozen=True)
class ProjectConfig:
    root: Path  # the project's folder: the pyproject.toml's, else the repository's or the checked one
    file: Path | None = None  # the pyproject.toml read, if any
    values: dict[str, object] = field(default_factory=dict)  # option name -> value
    # The file cannot be read as TOML: the check goes on without its options, and says so (the
    # declared requirement reports the file as unreadable too, as any broken packaging file).
    warning: str | None = None


def project_config(paths: list[str]) -> ProjectConfig:
    """The checked project's configuration; raises CheckUsage naming the file, line and key
    when the table is wrong."""
    start = _common_folder(paths)
    for folder in (start, *start.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            try:
                text = read_regular_text(candidate, MAX_PACKAGING_FILE_BYTES)
                document = tomllib.loads(text)
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError) as error:
                nested = isinstance(error, RecursionError)  # tomllib recurses into nested arrays
                reason = "nested too deeply" if nested else getattr(error, "strerror", None) or error
                warning = f"{candidate}: cannot be read as TOML ({reason}); its {TABLE} options are not applied"
                return ProjectConfig(folder, candidate, warning=warning)
            return ProjectConfig(folder, candidate, _values(candidate, text, document))
        if (folder / ".git").exists():
            return ProjectConfig(folder)
    return ProjectConfig(start)


def _common_folder(paths: list[str]) -> Path:
    folders = [os.path.abspath(path if os.path.isdir(path) else os.path.dirname(path) or ".") for path in paths]
    return Path(os.path.commonpath(folders))


def _values(file: Path, text: str, document: dict) -> dict[str, object]:
    """The options [tool.releasekb.check] sets, by the command's names."""
    tool = document.get("tool", {})
    section = tool.get("releasekb", {}) if isinstance(tool, dict) else {}
    if not isinstance(section, dict):
        raise CheckUsage(f"{file}: [tool.releasekb] must be a table")
    unknown = sorted(set(section) - {"check"})
    if unknown:
        line = _line_of(text, "tool.releasekb", unknown[0])
        raise CheckUsage(
            f"{file}{line}: [tool.releasekb]: unknown key '{unknown[0]}'{suggest(unknown[0], ['check'])} "
            f"(releasekb reads {TABLE})"
        )
    table = section.get("check", {})
    if not isinstance(table, dict):
        raise CheckUsage(f"{file}: {TABLE} must be a table of options")
    values = {}
    for key, value in table.items():
        option, kind = _option(file, text, key)
        values[option] = _value(file, text, key, kind, value)
    return values


def _option(file: Path, text: str, key: str) -> tuple[str, str]:
    """(the command's option, the kind of value) a key of the table sets; CheckUsage when none."""
    if key not in KEYS:
        raise CheckUsage(
            f"{file}{_line_of(text, DOTTED, key)}: {TABLE}: unknown key '{key}'{suggest(key, KEYS)} "
            f"(known: {', '.join(KEYS)})"
        )
    return KEYS[key]


def _value(file: Path, text: str, key: str, kind: str, value: object) -> object:
    """The option's value as the command line would give it; CheckUsage when it is not one."""
    if kind == "flag":
        if isinstance(value, bool):
            return value
    elif isinstance(value, str) and value.strip():
        return [value] if kind == "texts" else value
    if kind == "texts" and isinstance(value, list) and value and all(isinstance(v, str) and v for v in value):
        return value
    raise CheckUsage(f"{file}{_line_of(text, DOTTED, key)}: {TABLE}: '{key}' must be {_EXPECTED[kind]}, not {value!r}")


def _line_of(text: str, table: str, key: str) -> str:
    """':LINE' where `key` of the dotted `table` (tool.releasekb.check) is opened as a table or
    set after the table's header, for the message; '' when it cannot be told."""
    lines = text.splitlines()
    header = re.compile(rf"^\s*\[\s*{re.escape(table)}\.{re.escape(key)}\s*[\].]")
    opened = re.compile(rf"^\s*\[\s*{re.escape(table)}\s*\]")
    assignment = re.compile(rf"""^\s*(?:[\w.-]+\.)?["']?{re.escape(key)}["']?\s*=""")
    start = next((number for number, line in enumerate(lines) if opened.match(line)), 0)
    for number, line in enumerate(lines):
        if header.match(line) or (number >= start and assignment.match(line)):
            return f":{number + 1}"
    return ""


def apply_config(args, config: ProjectConfig) -> str:
    """Give every option the command line left out its value from the file. `fail-on` and
    `exclude` may be lists there; `baseline` is relative to the file's folder. Returns what to
    add to an error about those options: where they were set."""
    applied = []
    for option, value in config.values.items():
        if getattr(args, option) not in (None, []):
            continue  # given on the command line
        if option == "fail_on":
            value = ",".join(value)
        elif option == "baseline":
            value = config.root / value
        setattr(args, option, value)
        applied.append(next(key for key, (name, _) in KEYS.items() if name == option))
    return f" ({', '.join(applied)} set in {config.file} {TABLE})" if applied else ""
