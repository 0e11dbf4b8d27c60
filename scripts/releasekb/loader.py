"""Stage 1, load: read YAML files into plain Python data that remembers where every value came from.

PyYAML's safe loader silently keeps the last of two duplicate keys and turns `1.10`
into the float 1.1. We therefore compose the node graph ourselves (with libyaml's C
parser when present) and convert it by hand: duplicate keys become problems, every
value and key keeps its line and column, and dates stay as the text the curator wrote.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from releasekb.problems import Problem

YamlParser = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_constructor = yaml.constructor.SafeConstructor()

# Path inside a document, e.g. ("features", 3, "stability").
Location = tuple[str | int, ...]


@dataclass(frozen=True)
class Position:
    line: int
    column: int


@dataclass
class Document:
    """One YAML file: its data plus the position of every value and mapping key in it."""

    path: Path
    display_path: str
    data: Any = None
    values: dict[Location, Position] = field(default_factory=dict)
    keys: dict[Location, Position] = field(default_factory=dict)
    raw_scalars: dict[Location, str] = field(default_factory=dict)
    first_line: str = ""

    def position(self, location: Location, *, key: bool = False) -> Position:
        """The closest known position: the key or value itself, else its nearest parent."""
        table = self.keys if key else self.values
        for end in range(len(location), -1, -1):
            prefix = location[:end]
            if prefix in table:
                return table[prefix]
            if prefix in self.values:
                return self.values[prefix]
        return Position(1, 1)

    def problem(self, location: Location, message: str, *, key: bool = False) -> Problem:
        pos = self.position(location, key=key)
        return Problem(self.display_path, pos.line, pos.column, format_location(location), message)


def format_location(location: Location) -> str:
    """("features", 3, "stability") -> "features[3].stability"."""
    text = ""
    for part in location:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text or "(document)"


def _mark(node: yaml.Node) -> Position:
    return Position(node.start_mark.line + 1, node.start_mark.column + 1)


class _Converter:
    def __init__(self, document: Document, problems: list[Problem]):
        self.document = document
        self.problems = problems

    def convert(self, node: yaml.Node, location: Location) -> Any:
        self.document.values[location] = _mark(node)
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, location)
        if isinstance(node, yaml.SequenceNode):
            return [self.convert(item, (*location, i)) for i, item in enumerate(node.value)]
        return self._scalar(node, location)

    def _mapping(self, node: yaml.MappingNode, location: Location) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                self._report(key_node, location, "mapping keys must be plain text")
                continue
            key = key_node.value
            child = (*location, key)
            if key in result:
                first = self.document.keys[child]
                self._report(
                    key_node,
                    child,
                    f"duplicate key '{key}' (first defined at line {first.line}; "
                    "YAML would silently keep only the last one)",
                )
                continue
            self.document.keys[child] = _mark(key_node)
            result[key] = self.convert(value_node, child)
        return result

    def _scalar(self, node: yaml.ScalarNode, location: Location) -> Any:
        self.document.raw_scalars[location] = node.value
        if node.tag == "tag:yaml.org,2002:timestamp":
            return node.value  # keep "2020-10-27" as written; the model checks the format
        try:
            return _constructor.construct_object(node, deep=True)
        except yaml.YAMLError:
            self._report(node, location, f"unsupported YAML tag '{node.tag}' (use plain values)")
            return None

    def _report(self, node: yaml.Node, location: Location, message: str) -> None:
        pos = _mark(node)
        self.problems.append(
            Problem(self.document.display_path, pos.line, pos.column, format_location(location), message)
        )


def load_document(path: Path, display_path: str | None = None) -> tuple[Document, list[Problem]]:
    """Load one YAML file. Problems (syntax, duplicate keys, encoding) are returned, not raised."""
    document = Document(path=path, display_path=display_path or str(path))
    problems: list[Problem] = []
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        problems.append(Problem(document.display_path, 1, 1, "(document)", f"not UTF-8 text: {error.reason}"))
        return document, problems
    document.first_line = text.split("\n", 1)[0].strip()
    parser = YamlParser(text)
    try:
        node = parser.get_single_node()
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        message = " ".join(part for part in (error.context, error.problem) if part)
        problems.append(Problem(document.display_path, line, column, "(document)", f"YAML syntax: {message}"))
        return document, problems
    except yaml.YAMLError as error:
        problems.append(Problem(document.display_path, 1, 1, "(document)", f"YAML syntax: {error}"))
        return document, problems
    finally:
        parser.dispose()
    if node is None:
        problems.append(Problem(document.display_path, 1, 1, "(document)", "the file is empty"))
        return document, problems
    document.data = _Converter(document, problems).convert(node, ())
    return document, problems
