"""Stage 1, load: read YAML files into plain Python data that remembers where every value came from.

PyYAML's safe loader silently keeps the last of two duplicate keys and turns `1.10`
into the float 1.1. We therefore compose the node graph ourselves (with libyaml's C
parser when present) and convert it by hand: duplicate keys become problems, every
value and key keeps its line and column, and dates stay as the text the curator wrote.

Files may come from anywhere, so reading is bounded before YAML sees them: a size limit,
UTF-8 only (a byte-order mark and CRLF line ends are fine), no control characters. The
node graph is composed from parser events here rather than by PyYAML's composer, so that
anchors and aliases (which release data has no use for, and whose expansion is the
"billion laughs" attack) are refused at the first one, and nesting stops at a fixed depth
long before Python's recursion limit. YAML's escapes in double quotes ("\\e", "\\x1b", "\\n")
can still write a control character into a value, so every text and key is checked again
once decoded (see _Converter).
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from releasekb.common.problems import Problem
from releasekb.common.safe_text import unsafe_character, visible

YamlParser = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_constructor = yaml.constructor.SafeConstructor()

# The largest data file read; release files are a few KB, so this is far beyond any real one
# and keeps every check of a hostile file within seconds. Documented in the README.
MAX_FILE_BYTES = 1_000_000
# Release data nests about six levels deep (document > features > entry > title > en).
MAX_NESTING = 32
# The largest real release file holds about 1,600 values (keys, texts, lists, mappings); the
# cap bounds the time spent on, and the problems reported for, a file of many tiny values.
MAX_VALUES = 10_000
# What YAML 1.1 accepts as printable; anything else (NUL, other control characters) is refused.
_NOT_PRINTABLE = re.compile("[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")

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


def _mark(node: yaml.Node | yaml.Event) -> Position:
    return Position(node.start_mark.line + 1, node.start_mark.column + 1)


class _Refused(Exception):
    """A construct the loader does not accept (alias, anchor, deep nesting, second document)."""

    def __init__(self, event: yaml.Event, message: str):
        super().__init__(message)
        self.position = _mark(event)
        self.message = message


def _node(parser: Any, event: yaml.Event) -> yaml.Node:
    """The node a scalar or collection-start event begins, its tag resolved as PyYAML would."""
    if isinstance(event, yaml.ScalarEvent):
        tag = event.tag
        if tag in (None, "!"):
            tag = parser.resolve(yaml.ScalarNode, event.value, event.implicit)
        return yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark, style=event.style)
    kind = yaml.MappingNode if isinstance(event, yaml.MappingStartEvent) else yaml.SequenceNode
    tag = event.tag if event.tag not in (None, "!") else parser.resolve(kind, None, event.implicit)
    return kind(tag, [], event.start_mark, None, flow_style=event.flow_style)


def _compose(parser: Any) -> yaml.Node | None:
    """The document's node graph, built from parser events without recursion. Raises _Refused
    at the first anchor or alias, at nesting deeper than MAX_NESTING, past MAX_VALUES values
    and at a second document."""
    parser.get_event()  # stream start
    if parser.check_event(yaml.StreamEndEvent):
        return None
    parser.get_event()  # document start
    root: yaml.Node | None = None
    open_nodes: list[yaml.Node] = []  # the collections being filled, innermost last
    pending_keys: list[yaml.Node | None] = []  # per open mapping: its key still waiting for a value
    count = 0
    while not parser.check_event(yaml.DocumentEndEvent):
        event = parser.get_event()
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            raise _Refused(
                event,
                "YAML anchors and aliases (&name, *name) are not supported in release data; write the value out",
            )
        if isinstance(event, yaml.CollectionEndEvent):
            node = open_nodes.pop()
            pending_keys.pop()
            node.end_mark = event.end_mark
            continue
        count += 1
        if count > MAX_VALUES:
            raise _Refused(event, f"more than {MAX_VALUES:,} values in one file; no release needs that many")
        node = _node(parser, event)
        if not open_nodes:
            root = node
        elif isinstance(open_nodes[-1], yaml.SequenceNode):
            open_nodes[-1].value.append(node)
        elif pending_keys[-1] is None:
            pending_keys[-1] = node
        else:
            open_nodes[-1].value.append((pending_keys[-1], node))
            pending_keys[-1] = None
        if isinstance(node, yaml.CollectionNode):
            if len(open_nodes) >= MAX_NESTING:
                raise _Refused(event, f"nested deeper than {MAX_NESTING} levels (release data needs far fewer)")
            open_nodes.append(node)
            pending_keys.append(None)
    parser.get_event()  # document end
    if not parser.check_event(yaml.StreamEndEvent):
        raise _Refused(parser.peek_event(), "a second YAML document ('---'); a data file holds exactly one")
    return root


_PLAIN_COLLECTION_TAGS = ("tag:yaml.org,2002:map", "tag:yaml.org,2002:seq")


# Line breaks: a multi-line text's lines end in newlines; anywhere else, one would make a value
# printed on one line (a title in a log, a name in objects.inv) start another.
_LINE_BREAKS = "\n\r\x85\u2028\u2029"
_CATEGORIES = {"Cc": "a control character", "Cf": "an invisible formatting character"}


def _unsafe_text_message(char: str, multiline: bool) -> str:
    """Why a text holding `char` (a character safe_text.visible rewrites) is refused, and what
    the value may hold instead."""
    if char in _LINE_BREAKS:
        kind = "a line break"
    elif char == "\t":
        kind = "a tab"
    else:
        kind = _CATEGORIES.get(unicodedata.category(char), "a code point that is not a character")
    found = f"{kind} (U+{ord(char):04X}, {visible(char)})"
    if multiline:
        return f"{found} is not allowed in a text, which holds printable characters, newlines and tabs: remove it"
    return (
        f"{found} is not allowed in this value, which is one line of printable characters: remove it "
        "(newlines and tabs belong only in multi-line texts: summaries, migrations, descriptions)"
    )


class _Converter:
    """Converts a node graph to plain data. Every text is checked here, keys too, once for all
    files: control characters (which would reach terminals and CI logs as commands, and which
    XML outputs cannot carry) are refused, and line breaks and tabs outside multi-line texts."""

    def __init__(self, document: Document, problems: list[Problem], multiline: Callable[[Location], bool]):
        self.document = document
        self.problems = problems
        self.multiline = multiline

    def convert(self, node: yaml.Node, location: Location) -> Any:
        self.document.values[location] = _mark(node)
        if isinstance(node, yaml.CollectionNode) and node.tag not in _PLAIN_COLLECTION_TAGS:
            self._report(node, location, f"unsupported YAML tag '{node.tag}' (use plain values)")
            return None
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
            if (char := unsafe_character(key)) is not None:
                self._report(key_node, child, _unsafe_text_message(char, multiline=False))
                continue
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
            value = _construct(node)
        except yaml.YAMLError:
            self._report(node, location, f"unsupported YAML tag '{node.tag}' (use plain values)")
            return None
        except ValueError:  # e.g. an integer of more digits than Python converts
            self._report(node, location, f"'{node.value[:20]}...' is not a usable number (put text in quotes)")
            return None
        if isinstance(value, str):
            multiline = self.multiline(location)
            if (char := unsafe_character(value, block=multiline)) is not None:
                self._report(node, location, _unsafe_text_message(char, multiline))
                return None
        return value

    def _report(self, node: yaml.Node, location: Location, message: str) -> None:
        pos = _mark(node)
        self.problems.append(
            Problem(self.document.display_path, pos.line, pos.column, format_location(location), message)
        )


def _construct(node: yaml.ScalarNode) -> Any:
    """A scalar's value as PyYAML's safe loader makes it: a text as it is (most values are), any
    other through PyYAML's constructor, which is then made to forget the node: it remembers every
    node it made, and a long `serve` would keep every file it ever loaded."""
    if node.tag == "tag:yaml.org,2002:str":
        return node.value  # what SafeConstructor.construct_yaml_str returns
    try:
        return _constructor.construct_object(node, deep=True)
    finally:
        _constructor.constructed_objects.clear()
        _constructor.recursive_objects.clear()


def _position_at(text: str, index: int) -> Position:
    """Line and column (1-based, in characters) of `text[index]`."""
    line_start = text.rfind("\n", 0, index) + 1
    return Position(text.count("\n", 0, index) + 1, index - line_start + 1)


def _read_text(path: Path, display: str, raw: bytes | None) -> tuple[str | None, list[Problem]]:
    """The file's text, or the problem that keeps it from being read as YAML. raw: its bytes
    (at most MAX_FILE_BYTES + 1 of them) when the caller has read them already."""
    if raw is None:
        with path.open("rb") as file:
            raw = file.read(MAX_FILE_BYTES + 1)
    if len(raw) > MAX_FILE_BYTES:
        size = path.stat().st_size
        message = (
            f"the file is {size:,} bytes; data files are limited to {MAX_FILE_BYTES:,} bytes (1 MB), "
            "far more than any release needs (is this the file you meant?)"
        )
        return None, [Problem(display, 1, 1, "(document)", message)]
    try:
        text = raw.decode("utf-8-sig")  # a byte-order mark, as some Windows editors write, is fine
    except UnicodeDecodeError as error:
        start = error.start + (len(codecs.BOM_UTF8) if raw.startswith(codecs.BOM_UTF8) else 0)
        prefix = raw[len(raw) - len(raw.removeprefix(codecs.BOM_UTF8)) : start].decode("utf-8")
        pos = _position_at(prefix, len(prefix))
        byte = raw[start : start + 1].hex()
        message = f"not UTF-8 text: byte 0x{byte} cannot be read as UTF-8 ({error.reason}); save the file as UTF-8"
        return None, [Problem(display, pos.line, pos.column, "(document)", message)]
    if bad := _NOT_PRINTABLE.search(text):
        pos = _position_at(text, bad.start())
        message = (
            f"character U+{ord(bad.group()):04X} is not allowed in YAML "
            "(control characters cannot appear even in quotes; remove it)"
        )
        return None, [Problem(display, pos.line, pos.column, "(document)", message)]
    return text, []


def _parse(text: str) -> yaml.Node | None:
    """The document's node graph (see _compose). libyaml (PyYAML 6.0.4 and later) stops at a
    flow nesting depth of its own, 1,000, in its scanner, which reads ahead of the events
    _compose refuses at MAX_NESTING: such a file is read again with PyYAML's own scanner, so
    that the curator hears of the first level too deep, where it is."""
    for parser_class in dict.fromkeys((YamlParser, yaml.SafeLoader)):
        parser = parser_class(text)
        try:
            return _compose(parser)
        except yaml.MarkedYAMLError as error:
            if "maximum nesting depth" not in str(error.problem) or parser_class is yaml.SafeLoader:
                raise
        finally:
            parser.dispose()
    return None  # not reached: the last parser returns or raises


def load_document(
    path: Path,
    display_path: str | None = None,
    multiline: Callable[[Location], bool] = lambda location: False,
    raw: bytes | None = None,
) -> tuple[Document, list[Problem]]:
    """Load one YAML file, or its bytes `raw` as read before (validate.read_files). Problems
    (size, encoding, syntax, anchors, nesting, duplicate keys, control characters in a text) are
    returned, not raised. `multiline` says which values are multi-line texts, where line breaks
    and tabs are allowed (by default none)."""
    document = Document(path=path, display_path=display_path or str(path))
    text, problems = _read_text(path, document.display_path, raw)
    if text is None:
        return document, problems
    lines = text.splitlines()
    document.first_line = lines[0].strip() if lines else ""
    try:
        node = _parse(text)
    except _Refused as refused:
        line, column = refused.position.line, refused.position.column
        problems.append(Problem(document.display_path, line, column, "(document)", refused.message))
        return document, problems
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        message = " ".join(part for part in (error.context, error.problem) if part)
        problems.append(Problem(document.display_path, line, column, "(document)", f"YAML syntax: {message}"))
        return document, problems
    except yaml.YAMLError as error:
        problems.append(Problem(document.display_path, 1, 1, "(document)", f"YAML syntax: {error}"))
        return document, problems
    if node is None:
        problems.append(Problem(document.display_path, 1, 1, "(document)", "the file is empty"))
        return document, problems
    document.data = _Converter(document, problems, multiline).convert(node, ())
    return document, problems
