"""Interface-string catalogues: the package's, and a team's own in its data folder.

The package ships one catalogue per language (common/locales/<lang>.yaml, the same keys in
each; tests/test_interface_strings.py checks). A team adds a language, or changes some strings
of a shipped one, with `<data folder>/locales/<lang>.yaml`: beside project.yaml, because the data
folder is what every command (--data), the MkDocs plugin (`data_dir`) and `serve`'s watcher
already know as the knowledge base, so the strings travel with the data they describe. A team's
file is merged over the package's catalogue of its language; for a language the package does not
ship it must have every key. `releasekb locale LANG` writes a starter file listing every key.

A text is a string with `{placeholders}`, or, where a count decides the words, a mapping of CLDR
plural categories to strings (`{one: "{count} file", other: "{count} files"}`): formatting.py
says which category a count takes in a language. A language with one form (Chinese, Japanese)
writes a plain string.
"""

from __future__ import annotations

import json
import os
import string
from functools import cache, lru_cache
from pathlib import Path

import yaml

from releasekb.common.formatting import PLURAL_CATEGORIES, is_cldr_language, plural_categories, plural_category
from releasekb.common.problems import DataError, Problem, suggest
from releasekb.common.regular_files import read_regular_text

PACKAGE_LOCALES = Path(__file__).parent / "locales"
TEAM_LOCALES = "locales"  # the folder inside the data folder
REFERENCE_LANGUAGE = "en"  # the catalogue whose keys every other must have
MAX_CATALOGUE_BYTES = 1024 * 1024  # the shipped ones are about 30 KB

Catalogue = dict  # key -> text, plural mapping or sub-catalogue (`check:`)


class Strings(dict):
    """One language's catalogue; `lang` tells count_text which plural rules and digits apply."""

    def __init__(self, lang: str, catalogue: Catalogue):
        super().__init__(catalogue)
        self.lang = lang


def plural_text(lang: str, value: str | dict[str, str], count: int) -> str:
    """The form of a text for a count, unformatted: a plain text is every form; of a plural text,
    the form of the count's CLDR category, else `other`."""
    if isinstance(value, dict):
        return value.get(plural_category(lang, count), value["other"])
    return value


def package_languages() -> tuple[str, ...]:
    """The languages whose catalogue the package ships: ('en', 'ja', 'zh')."""
    return tuple(sorted(path.stem for path in PACKAGE_LOCALES.glob("*.yaml")))


def team_file(data_dir: Path, lang: str) -> Path:
    return Path(data_dir) / TEAM_LOCALES / f"{lang}.yaml"


def team_languages(data_dir: Path | None) -> tuple[str, ...]:
    """The languages a team's data folder has a catalogue for (locales/<lang>.yaml)."""
    folder = Path(data_dir) / TEAM_LOCALES if data_dir is not None else None
    if folder is None or not folder.is_dir():
        return ()
    return tuple(sorted(path.stem for path in folder.glob("*.yaml")))


def team_signature(data_dir: Path) -> tuple[tuple[str, tuple[int, int] | None], ...]:
    """What tells the team's catalogues from those read before: `serve` renders every page again
    when a string changes (the data files' fingerprint does not cover them)."""
    return tuple((lang, _signature(team_file(data_dir, lang))) for lang in team_languages(data_dir))


def known_languages(data_dir: Path | None = None) -> tuple[str, ...]:
    """Every language that has interface strings: the package's catalogues, and those of the
    team's data folder when given (sorted, no duplicates). A site may use exactly these
    languages; project.yaml's `languages` is checked against them."""
    return tuple(sorted(set(package_languages()) | set(team_languages(data_dir))))


def load_catalogue(lang: str, data_dir: Path | None = None) -> Strings:
    """The interface strings of one language: the package's catalogue, with the team's file of
    that language (data_dir/locales/<lang>.yaml) merged over it. Raises DataError naming the
    file, the key and what would be right for a team file with a missing or unknown key, and for
    a language that has no catalogue at all."""
    path = team_file(data_dir, lang) if data_dir is not None else None
    signature = _signature(path) if path is not None else None
    return _merged(lang, str(path) if signature else None, signature)


def _signature(path: Path) -> tuple[int, int] | None:
    """What tells an edited file from the one read before (`serve` rebuilds after an edit)."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    return status.st_mtime_ns, status.st_size


@lru_cache(maxsize=32)
def _merged(lang: str, path: str | None, signature: tuple[int, int] | None) -> Strings:
    shipped = lang in package_languages()
    if path is None:
        if not shipped:
            raise DataError([_no_catalogue(lang)])
        return Strings(lang, _package(lang))
    team, problems = read_team_file(Path(path), lang, complete=not shipped)
    if problems:
        raise DataError(problems)
    return Strings(lang, _merge(_package(lang), team) if shipped else team)


def _no_catalogue(lang: str) -> Problem:
    known = ", ".join(package_languages())
    return Problem(
        f"{TEAM_LOCALES}/{lang}.yaml",
        1,
        1,
        "(document)",
        f"there are no interface strings for '{lang}' (the package ships {known}): write them in the "
        f"data folder's {TEAM_LOCALES}/{lang}.yaml (`releasekb locale {lang}` writes a starter file)",
    )


@cache
def _package(lang: str) -> Catalogue:
    # libyaml's reader where PyYAML has it, as kb/loader.py's YamlParser (common/ does not import
    # kb/): PyYAML's own took 0.05 s for each catalogue, in each process of every build (the file
    # is the package's, so no line of it is ever reported)
    with open(PACKAGE_LOCALES / f"{lang}.yaml", encoding="utf-8") as handle:
        return yaml.load(handle, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def _merge(base: Catalogue, over: Catalogue) -> Catalogue:
    merged = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict) and not is_plural(base[key]):
            merged[key] = _merge(base[key], value)
        else:
            merged[key] = value
    return merged


def is_plural(value: object) -> bool:
    """Whether a catalogue value is a plural text ({one: ..., other: ...}), not a sub-catalogue."""
    return isinstance(value, dict) and "other" in value and set(value) <= set(PLURAL_CATEGORIES)


def placeholders(value: object) -> set[str]:
    """The {placeholder} names of a text, or of every form of a plural text; ValueError for a
    text whose braces do not pair up."""
    texts = value.values() if isinstance(value, dict) else [value]
    return {field for text in texts for _, field, _, _ in string.Formatter().parse(str(text)) if field is not None}


def leaf_keys(catalogue: Catalogue, prefix: str = "") -> dict[str, object]:
    """{'check.report.removed': text, ...}: every text of a catalogue by its dotted key."""
    leaves = {}
    for key, value in catalogue.items():
        if isinstance(value, dict) and not is_plural(value):
            leaves.update(leaf_keys(value, f"{prefix}{key}."))
        else:
            leaves[f"{prefix}{key}"] = value
    return leaves


# --------------------------------------------------------------------------- a team's file


def team_catalogue_problems(data_dir: Path) -> list[Problem]:
    """The problems of every catalogue in a data folder's locales/ (`validate` reports them with
    the data's, whether or not the site uses that language yet)."""
    problems = []
    for lang in team_languages(data_dir):
        problems += read_team_file(team_file(data_dir, lang), lang, complete=lang not in package_languages())[1]
    return problems


def read_team_file(path: Path, lang: str, *, complete: bool) -> tuple[Catalogue, list[Problem]]:
    """A team's catalogue and its problems: every key must be one of the English catalogue's, with
    only its placeholders; `complete` (a language the package does not ship): every key present."""
    shown = str(path)
    problem = _Problems(shown)
    if not is_cldr_language(lang):
        problem.at(
            1,
            "(document)",
            f"'{lang}' (the file's name) is not a language code CLDR knows: name the file "
            "after one, such as fr.yaml or pt-BR.yaml",
        )
        return {}, problem.found
    try:
        text = read_regular_text(path, MAX_CATALOGUE_BYTES)
        node = _compose(text)
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        problem.at(1, "(document)", f"cannot be read ({reason}); interface strings are UTF-8 YAML files")
        return {}, problem.found
    except _Refused as refused:
        problem.at(refused.line, "(document)", refused.message)
        return {}, problem.found
    if node is None:  # comments only: a starter file with nothing uncommented yet
        node = yaml.MappingNode("tag:yaml.org,2002:map", [])
    if not isinstance(node, yaml.MappingNode):
        problem.at(1, "(document)", "must be a mapping of keys to texts, as the package's en.yaml is")
        return {}, problem.found
    catalogue = _Checker(problem, lang, complete).mapping(node, _package(REFERENCE_LANGUAGE), "")
    return catalogue, problem.found


class _Refused(Exception):
    def __init__(self, line: int, message: str):
        self.line, self.message = line, message


def _compose(text: str) -> yaml.Node | None:
    """The YAML node tree, aliases refused (an alias of an alias of ... costs exponential time to
    walk, and a catalogue has no use for one)."""
    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(event, yaml.AliasEvent):
                raise _Refused(event.start_mark.line + 1, "YAML aliases (*name) are not used in interface strings")
        return yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        raise _Refused(mark.line + 1 if mark else 1, f"YAML syntax: {error.problem or error}") from None
    except (yaml.YAMLError, RecursionError) as error:
        raise _Refused(1, f"YAML syntax: {error}") from None


class _Problems:
    def __init__(self, shown: str):
        self.shown, self.found = shown, []

    def at(self, line: int, where: str, message: str) -> None:
        self.found.append(Problem(self.shown, line, 1, where, message))


class _Checker:
    """Walks a team's file beside the English catalogue, keeping the texts and noting problems."""

    def __init__(self, problems: _Problems, lang: str, complete: bool):
        self.problems, self.lang, self.complete = problems, lang, complete

    def mapping(self, node: yaml.MappingNode, reference: Catalogue, prefix: str) -> Catalogue:
        catalogue: Catalogue = {}
        seen: set[str] = set()  # the keys given, a key whose text has a problem too
        for key_node, value_node in node.value:
            key, line = str(key_node.value), key_node.start_mark.line + 1
            where = prefix + key
            if not isinstance(key_node, yaml.ScalarNode):
                self.problems.at(line, prefix.rstrip(".") or "(document)", "a key must be a plain name")
            elif key in seen:
                self.problems.at(line, where, "the key appears twice; keep one")
            elif key not in reference:
                choices = reference.keys()
                self.problems.at(
                    line, where, f"unknown key: the package's catalogues have no such key{suggest(key, choices)}"
                )
            else:
                value = self.value(value_node, reference[key], where)
                if value is not None:
                    catalogue[key] = value
            seen.add(key)
        if self.complete:
            for key in reference:
                if key not in seen:
                    line = node.start_mark.line + 1 if node.start_mark else 1
                    self.problems.at(
                        line,
                        prefix + key,
                        f"missing key: a language the package does not ship needs every key "
                        f"(`releasekb locale {self.lang}` lists them)",
                    )
        return catalogue

    def value(self, node: yaml.Node, reference: object, where: str) -> object:
        line = node.start_mark.line + 1
        if isinstance(reference, dict) and not is_plural(reference):
            if not isinstance(node, yaml.MappingNode):
                self.problems.at(line, where, "must be a mapping of keys, as in the English catalogue")
                return None
            return self.mapping(node, reference, where + ".")
        if isinstance(node, yaml.ScalarNode):
            value: object = "" if node.tag.endswith(":null") else str(node.value)
        elif isinstance(node, yaml.MappingNode) and is_plural(reference):
            value = self.plural(node, where)
            if value is None:
                return None
        else:
            kind = "a text, or a mapping of plural forms (one:, other:)" if is_plural(reference) else "a text"
            self.problems.at(line, where, f"must be {kind}")
            return None
        try:
            extra = placeholders(value) - placeholders(reference)
        except ValueError as error:
            self.problems.at(line, where, f"the braces do not pair up ({error}); write {{{{ and }}}} for a brace")
            return None
        if extra:
            known = ", ".join(f"{{{name}}}" for name in sorted(placeholders(reference))) or "none"
            unknown = ", ".join(f"{{{name}}}" for name in sorted(extra))
            self.problems.at(line, where, f"{unknown} is not a placeholder of this text (it has: {known})")
            return None
        return value

    def plural(self, node: yaml.MappingNode, where: str) -> dict[str, str] | None:
        forms, allowed = {}, plural_categories(self.lang)
        for key_node, value_node in node.value:
            category, line = str(key_node.value), key_node.start_mark.line + 1
            if category not in allowed:
                listed = ", ".join(sorted(allowed))
                self.problems.at(line, f"{where}.{category}", f"not a plural form of '{self.lang}' (it has: {listed})")
            elif not isinstance(value_node, yaml.ScalarNode):
                self.problems.at(line, f"{where}.{category}", "must be a text")
            else:
                forms[category] = str(value_node.value)
        if "other" not in forms:
            self.problems.at(node.start_mark.line + 1, where, "a plural text needs its `other` form")
            return None
        return forms


# --------------------------------------------------------------------------- a starter file

_STARTER_NEW = """\
# Interface strings of the '{lang}' site, started by `releasekb locale {lang}`.
# Every key of the package's catalogues is here, with its English text marked TODO: the site
# builds at once, and `grep -n TODO {name}` lists what is left to translate. Keep each
# {{placeholder}} (a text may leave one out, never add one); a text that depends on a count
# has one form per plural category of the language (CLDR: one, few, many, other...).
"""
_STARTER_OVERRIDE = """\
# Changes to the package's '{lang}' interface strings, started by `releasekb locale {lang}`.
# Every key is listed, commented out, with the package's text: uncomment the ones to change
# (with the keys above them, for a key under `check:`) and edit their text. The keys left
# commented keep the package's text, and take its corrections when ReleaseKB is upgraded.
"""


def starter_text(lang: str) -> str:
    """A team file listing every key: for a language the package ships, each commented out with
    the package's text; for a new one, each with the English text marked TODO."""
    shipped = lang in package_languages()
    header = (_STARTER_OVERRIDE if shipped else _STARTER_NEW).format(lang=lang, name=f"{lang}.yaml")
    source = _package(lang) if shipped else _package(REFERENCE_LANGUAGE)
    lines = _starter_lines(_package(REFERENCE_LANGUAGE), source, lang, 0, shipped)
    return header + "\n".join(lines) + "\n"


def _starter_lines(reference: Catalogue, source: Catalogue, lang: str, depth: int, shipped: bool) -> list[str]:
    lines, pad = [], "  " * depth
    mark, todo = ("# ", "") if shipped else ("", "  # TODO translate")
    for key, reference_value in reference.items():
        if isinstance(reference_value, dict) and not is_plural(reference_value):
            lines.append(f"{mark}{pad}{key}:")
            lines += _starter_lines(reference_value, source.get(key, {}), lang, depth + 1, shipped)
            continue
        value = source.get(key, reference_value)
        if not shipped and is_plural(value):
            value = _forms_of(lang, value)
        if isinstance(value, dict):
            lines.append(f"{mark}{pad}{key}:{todo}")
            lines += [f"{mark}{pad}  {category}: {_quoted(text)}" for category, text in value.items()]
        else:
            lines.append(f"{mark}{pad}{key}: {_quoted(value)}{todo}")
    return lines


def _forms_of(lang: str, english: dict[str, str]) -> str | dict[str, str]:
    """An English plural text as the forms `lang` has: a plain text for a language with one form."""
    categories = [category for category in PLURAL_CATEGORIES if category in plural_categories(lang)]
    if categories == ["other"]:
        return english["other"]
    return {category: english.get(category, english["other"]) for category in categories}


def _quoted(text: str) -> str:
    """A YAML double-quoted scalar (JSON's string syntax is YAML's)."""
    return json.dumps(text, ensure_ascii=False)
