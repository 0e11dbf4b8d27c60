"""Find every use of known API names in a user's source tree, for `releasekb check`.

The scanner knows nothing about releases: it is given fully qualified names (`Target`) and the
top-level packages they live under (`Roots`), and returns where the code uses them (`Use`).
Python files and notebooks are parsed with `ast`, so that aliases, shadowing, strings and
comments are handled the way Python sees them; other files (C++ sources named by `include`)
are searched for whole tokens such as `torch::class_`. A call's use records how it passes its
arguments (`CallArguments`), so that a change that concerns only some calls can be told apart;
relative imports resolve against the package a file is in (found from `__init__.py` files), and
the bodies of module-level functions see the whole module, as they do when they run.

Everything here is standard library only and every worker argument is picklable, so a large
tree can be scanned in a process pool.
"""

from __future__ import annotations

import ast
import builtins
import concurrent.futures
import contextlib
import fnmatch
import gc
import io
import itertools
import json
import os
import queue
import re
import sys
import threading
import tokenize
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path

from releasekb.check.messages import Message, explained, message

__all__ = [
    "CONFIDENCE_LEVELS",
    "COMMON_METHOD_NAMES",
    "DEFAULT_MAX_FILE_SIZE",
    "DEFAULT_SKIPPED_DIRS",
    "CallArguments",
    "FileError",
    "Message",
    "Roots",
    "ScanResult",
    "Target",
    "Use",
    "scan",
]

# ---------------------------------------------------------------------------------------------
# Public data


@dataclass(frozen=True)
class Target:
    """An API to look for, by its canonical fully qualified name and how a use of it counts."""

    name: str
    use: str = "any"  # "any" | "call" | "module"


@dataclass(frozen=True)
class Roots:
    """Where target names live: importable packages, and prefixes of names in non-Python files."""

    python: tuple[str, ...]
    tokens: tuple[str, ...] = ()


@dataclass(frozen=True)
class CallArguments:
    """How a call passes its arguments: enough to tell which parameters it gives, or that it cannot be told."""

    positional: int  # arguments given by position, not counting `*args`
    keywords: tuple[str, ...]  # the names given as `name=value`
    unpacked_positional: bool  # a `*args`: more arguments by position, how many unknown
    unpacked_keywords: bool  # a `**kwargs`: more arguments by name, which unknown

    def passes(self, name: str, position: int | None) -> bool | None:
        """Whether the call gives the parameter `name`, which takes the argument at `position` (from 0)
        when it can be given by position: True, False, or None when unpacked arguments may or may not."""
        if name in self.keywords or (position is not None and position < self.positional):
            return True
        if self.unpacked_keywords or (position is not None and self.unpacked_positional):
            return None
        return False


@dataclass(frozen=True)
class Use:
    """One place in the code that refers to a target, with enough context to explain it."""

    path: str
    line: int
    column: int
    cell: int | None
    target: Target
    written: str
    resolved: str
    resolution: tuple[Message, ...]  # how `written` was resolved, step by step (messages.py)
    confidence: str
    guarded: bool
    suppressed: frozenset[str]
    arguments: CallArguments | None = None  # how a call passes its arguments; None when it is not a call

    @property
    def how(self) -> str:
        """How the use was resolved, in English."""
        return explained(self.resolution)


@dataclass(frozen=True)
class FileError:
    """A file (or notebook cell) that could not be scanned; the rest of the scan went on."""

    path: str
    line: int
    reason: Message  # why it could not be scanned (messages.py)

    @property
    def message(self) -> str:
        """Why it could not be scanned, in English."""
        return self.reason.text()


@dataclass(frozen=True)
class ScanResult:
    """Every use found, every file that could not be read, and how many files were looked at."""

    uses: list[Use]
    errors: list[FileError]
    files_scanned: int
    files_skipped: int


CONFIDENCE_LEVELS = ("low", "medium", "high")
_RANK = {level: rank for rank, level in enumerate(CONFIDENCE_LEVELS)}
_USE_KINDS = frozenset({"any", "call", "module"})

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
        ".releasekb_cache",
    }
)
_SKIPPED_DIR_PATTERNS = ("*.egg-info",)
_PYTHON_SUFFIXES = (".py", ".pyi")
_NOTEBOOK_SUFFIX = ".ipynb"
_SCANNED_SUFFIXES = (*_PYTHON_SUFFIXES, _NOTEBOOK_SUFFIX)
_PACKAGE_MARKER = "__init__.py"  # a folder with one is a (regular) package
# A file larger than this is skipped unread: generated code or data of that size takes minutes and
# gigabytes to parse, and is rarely code anyone migrates by hand.
DEFAULT_MAX_FILE_SIZE = 5_000_000
# Below this many files a process pool costs more to start than it saves.
PARALLEL_THRESHOLD = 50
_RECURSION_LIMIT = 10_000

_GUARD_EXCEPTIONS = frozenset({"ImportError", "ModuleNotFoundError", "AttributeError"})
_PYTHON_SUPPRESSION = re.compile(r"releasekb:\s*ignore(?:\[([^\]]*)\])?")
_TOKEN_SUPPRESSION = re.compile(r"(?://|/\*|#)\s*releasekb:\s*ignore(?:\[([^\]]*)\])?")
_UTF8_BOM = b"\xef\xbb\xbf"
_NEWLINE = re.compile(r"\r\n|\r|\n")
_NO_SUPPRESSION: frozenset[str] = frozenset()

_BUILTINS = frozenset(dir(builtins))

# Method names that objects of every Python program have: strings, bytes, lists, dicts, sets,
# numbers, files, paths, threads, queues and futures. A method target with one of these names (the
# last part of `torch.nn.parallel.DistributedDataParallel.join`) is never matched by the method name
# alone, at any confidence: every `os.path.join(...)` and `", ".join(...)` would be reported as a use.
COMMON_METHOD_NAMES = frozenset(
    name
    for kind in (
        str, bytes, bytearray, list, tuple, dict, set, frozenset, int, float,
        io.TextIOWrapper, io.BytesIO, Path, threading.Thread, queue.Queue, concurrent.futures.Future,
    )
    for name in dir(kind)
    if not name.startswith("_")
)  # fmt: skip
_SCOPE_WORDS = ("global", "nonlocal")  # a body that declares these can rebind names outside it
_TOKEN_HOW = (message("token"),)

# ---------------------------------------------------------------------------------------------
# Configuration shared by every file (built once, sent once to each worker)


@dataclass(frozen=True)
class _Config:
    """The targets indexed for fast lookup; picklable so process-pool workers can receive it."""

    python_roots: frozenset[str]
    exact: dict[str, tuple[Target, ...]]  # Python targets by name
    by_prefix: dict[str, tuple[Target, ...]]  # Python targets a longer name can match ("any", "module")
    name_prefixes: frozenset[str]  # proper prefixes of Python target names, for star imports
    methods: dict[str, tuple[Target, ...]]  # method targets by last segment; empty unless confidence "low"
    tokens: dict[str, tuple[Target, ...]]  # token targets by name
    token_roots: tuple[bytes, ...]
    token_pattern: re.Pattern[str] | None
    python_prefilter: re.Pattern[bytes] | None
    # words without which a function or class body cannot use an API (besides names bound to one)
    body_words: tuple[tuple[str, ...], re.Pattern[str]]
    # names that are both a module and a function (`torch.fft` in 1.7): a reference that is neither
    # a call nor an attribute of it may be either
    ambiguous: frozenset[str]
    min_rank: int
    max_file_size: int | None  # in bytes: a larger file is skipped unread


def _is_python_target(name: str, roots: frozenset[str]) -> bool:
    segments = name.split(".")
    return segments[0] in roots and all(segment.isidentifier() for segment in segments)


def _is_method_target(name: str) -> bool:
    """`torch.Tensor.masked_copy_`: a capitalised segment (after the root) with a segment after it."""
    segments = name.split(".")
    return any(segment[:1].isupper() for segment in segments[1:-1])


def _matches_by_method_name(name: str) -> bool:
    """A method target that a call on an object of unknown type can match by its name (see COMMON_METHOD_NAMES)."""
    return _is_method_target(name) and name.rsplit(".", 1)[-1] not in COMMON_METHOD_NAMES


def _group(pairs: Iterable[tuple[str, Target]]) -> dict[str, tuple[Target, ...]]:
    grouped: dict[str, list[Target]] = {}
    for key, target in pairs:
        grouped.setdefault(key, []).append(target)
    return {key: tuple(targets) for key, targets in grouped.items()}


def _longest_first(alternatives: set) -> list:
    """Longest first, so that a pattern tries `torch.fft` before `torch`; equal lengths in order,
    so that the same words always make the same pattern (cache.py compares configurations)."""
    return sorted(alternatives, key=lambda word: (-len(word), word))


def _word_pattern(words: Iterable[str]) -> re.Pattern[bytes] | None:
    alternatives = _longest_first({re.escape(word.encode()) for word in words if word})
    if not alternatives:
        return None
    return re.compile(rb"\b(?:" + b"|".join(alternatives) + rb")\b")


def _text_word_pattern(words: Iterable[str]) -> re.Pattern[str]:
    alternatives = _longest_first({re.escape(word) for word in words if word})
    return re.compile(r"\b(?:" + "|".join(alternatives) + r")\b") if alternatives else re.compile(r"(?!)")


def _words_and_pattern(words: Iterable[str]) -> tuple[tuple[str, ...], re.Pattern[str]]:
    words = tuple(sorted(set(words)))
    return words, _text_word_pattern(words)


_GLOBAL_WORD = _words_and_pattern(("global",))  # a function body with it may bind module names


def _mentions(text: str, start: int, end: int, words: tuple[tuple[str, ...], re.Pattern[str]]) -> bool:
    """Does text[start:end] contain one of the words, as a whole word? A few substring searches
    (fast) rule most texts out before the regular expression (slow) looks at word boundaries."""
    names, pattern = words
    if len(names) <= 16 and not any(text.find(name, start, end) >= 0 for name in names):
        return False
    return pattern.search(text, start, end) is not None


def _line_offsets(text: str) -> list[int]:
    """Where each line starts, with lines ended the way ast ends them (CRLF, CR or LF)."""
    if "\r" in text:
        return [0, *(match.end() for match in _NEWLINE.finditer(text))]
    return [0, *itertools.accumulate(len(line) + 1 for line in text.split("\n"))]


def _token_pattern(roots: Sequence[str]) -> re.Pattern[str] | None:
    """A token starts at a root with no name character (or `:`) before it and runs to the name's end."""
    alternatives = _longest_first({re.escape(root) for root in roots if root})
    if not alternatives:
        return None
    return re.compile(r"(?<![A-Za-z0-9_:])(?:" + "|".join(alternatives) + r")[A-Za-z0-9_:]*")


def _check_arguments(targets: list[Target], confidence: str) -> None:
    if confidence not in _RANK:
        raise ValueError(f"confidence must be one of {', '.join(CONFIDENCE_LEVELS)}, not {confidence!r}")
    for target in targets:
        if target.use not in _USE_KINDS:
            raise ValueError(f"target {target.name!r}: use must be 'any', 'call' or 'module', not {target.use!r}")


def _build_config(targets: Iterable[Target], roots: Roots, confidence: str, max_file_size: int | None) -> _Config:
    unique = list(dict.fromkeys(targets))
    _check_arguments(unique, confidence)
    python_roots = frozenset(roots.python)
    python = [t for t in unique if _is_python_target(t.name, python_roots)]
    token_targets = [t for t in unique if any(root and t.name.startswith(root) for root in roots.tokens)]
    methods = [t for t in python if _matches_by_method_name(t.name)] if confidence == "low" else []
    prefixes = {t.name[:i] for t in python for i, char in enumerate(t.name) if char == "."}
    called = {t.name for t in python if t.use == "call"}
    return _Config(
        python_roots=python_roots,
        exact=_group((t.name, t) for t in python),
        by_prefix=_group((t.name, t) for t in python if t.use != "call"),
        name_prefixes=frozenset(prefixes),
        methods=_group((t.name.rsplit(".", 1)[-1], t) for t in methods),
        tokens=_group((t.name, t) for t in token_targets),
        token_roots=tuple(root.encode() for root in roots.tokens if root),
        token_pattern=_token_pattern(roots.tokens),
        python_prefilter=_word_pattern(roots.python),
        body_words=_words_and_pattern({*roots.python, *(t.name.rsplit(".", 1)[-1] for t in methods), *_SCOPE_WORDS}),
        ambiguous=frozenset(t.name for t in python if t.use == "module" and t.name in called),
        min_rank=_RANK[confidence],
        max_file_size=max_file_size,
    )


def _use_matches(use: str, is_call: bool) -> bool:
    """How a reference whose resolved name equals the target's name counts, by the target's `use`."""
    if use == "call":
        return is_call
    if use == "module":
        return not is_call
    return True


def _python_matches(config: _Config, qualname: str, is_call: bool) -> list[Target]:
    """Targets a reference to `qualname` matches: the same name, or a module/any target it lies under."""
    found = [t for t in config.exact.get(qualname, ()) if _use_matches(t.use, is_call)]
    dot = qualname.rfind(".")
    while dot > 0:
        found.extend(config.by_prefix.get(qualname[:dot], ()))
        dot = qualname.rfind(".", 0, dot)
    return found


def _is_known(config: _Config, qualname: str) -> bool:
    """True when `qualname` is a target, lies under one, or leads to one (a star import may supply it)."""
    if qualname in config.exact or qualname in config.name_prefixes:
        return True
    dot = qualname.rfind(".")
    while dot > 0:
        if qualname[:dot] in config.exact:
            return True
        dot = qualname.rfind(".", 0, dot)
    return False


# ---------------------------------------------------------------------------------------------
# Suppression comments


def _suppression_ids(bracket: str | None) -> frozenset[str]:
    """`ignore[a, b]` names ids; a bare `ignore` (or empty brackets) suppresses everything: `*`."""
    if bracket is None:
        return frozenset({"*"})
    ids = frozenset(part.strip() for part in bracket.split(",") if part.strip())
    return ids or frozenset({"*"})


def _add_suppression(found: dict[int, frozenset[str]], line: int, match: re.Match[str] | None) -> None:
    if match is not None:
        found[line] = found.get(line, _NO_SUPPRESSION) | _suppression_ids(match.group(1))


def _python_suppressions(text: str) -> dict[int, frozenset[str]]:
    """Suppressions from real comments only (tokenize), so a string that contains the text does not count."""
    found: dict[int, frozenset[str]] = {}
    if "releasekb" not in text:
        return found
    try:
        for token in tokenize.generate_tokens(io.StringIO(text, newline=None).readline):
            if token.type == tokenize.COMMENT:
                _add_suppression(found, token.start[0], _PYTHON_SUPPRESSION.search(token.string))
    except (tokenize.TokenError, SyntaxError):
        # ast accepted the code, so this is rare; fall back to reading `#` comments line by line.
        for number, line in enumerate(_NEWLINE.split(text), start=1):
            if "#" in line:
                _add_suppression(found, number, _PYTHON_SUPPRESSION.search(line, line.index("#")))
    return found


def _token_suppressions(lines: list[str]) -> dict[int, frozenset[str]]:
    found: dict[int, frozenset[str]] = {}
    for number, line in enumerate(lines, start=1):
        if "releasekb" in line:
            _add_suppression(found, number, _TOKEN_SUPPRESSION.search(line))
    return found


# ---------------------------------------------------------------------------------------------
# Python analysis: scopes, bindings, references


@dataclass(frozen=True)
class _Binding:
    """What a name stands for: an API (`qualname`) or something else that hides outer names (None)."""

    qualname: str | None
    how: tuple[Message, ...] = ()
    confidence: str = "high"


_SHADOW = _Binding(None)


@dataclass(frozen=True)
class _Resolution:
    qualname: str
    written: str
    how: tuple[Message, ...]
    confidence: str


class _Scope:
    """A Python scope; bindings are recorded in source order, as Python runs module and class bodies.

    A function's local names (every name it binds anywhere in its body) are found only when a
    lookup needs them, that is when a name would otherwise reach an API bound outside the
    function: most functions never need them, and finding them costs a walk of the body.
    """

    __slots__ = (
        "kind",
        "parent",
        "bindings",
        "stars",
        "declared_global",
        "declared_nonlocal",
        "_locals",
        "_node",
        "_walrus",
    )

    def __init__(
        self,
        kind: str,
        parent: _Scope | None,
        local_names: frozenset[str] | None = frozenset(),
        node: ast.FunctionDef | ast.AsyncFunctionDef | None = None,
        walrus: bool = False,
    ) -> None:
        self.kind = kind  # "module" | "class" | "function"
        self.parent = parent
        self.bindings: dict[str, _Binding] = {}
        self.stars: list[_Star] = []
        self.declared_global: set[str] = set()  # Python requires the declaration before any use
        self.declared_nonlocal: set[str] = set()
        self._locals = local_names
        self._node = node
        self._walrus = walrus  # the source has `:=`, which can bind inside expressions

    def local_names(self) -> frozenset[str]:
        if self._locals is None:
            self._locals = _function_locals(self._node, self._walrus)
        return self._locals


# (module, line, the statement's text) of `from module import *`; module is absolute, the text as
# written (`from .functional import *`)
_Star = tuple[str, int, str]


_NESTED_SCOPES = (
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.Lambda,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
)


def _names_bound_by(node: ast.AST) -> Iterator[str]:
    """Names one node binds in the scope it is in (without looking into nested scopes)."""
    if isinstance(node, ast.Name):
        if not isinstance(node.ctx, ast.Load):
            yield node.id
    elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        yield node.name
    elif isinstance(node, (ast.Import, ast.ImportFrom)):
        for alias in node.names:
            if alias.name != "*":
                yield alias.asname or alias.name.split(".")[0]
    elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)):
        if node.name:
            yield node.name
    elif isinstance(node, ast.MatchMapping) and node.rest:
        yield node.rest


def _argument_names(args: ast.arguments) -> set[str]:
    return {arg.arg for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg) if arg}


def _target_names(targets: Iterable[ast.expr | None]) -> Iterator[str]:
    """Names an assignment target binds: `a`, `a, *b`, not `a.b` or `a[i]`."""
    for target in targets:
        if target is not None:
            for node in ast.walk(target):
                if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                    yield node.id


def _statement_binds(statement: ast.stmt) -> Iterator[str]:
    """Names one statement binds in its own scope (the statements nested in it are walked separately)."""
    if isinstance(statement, (ast.Assign, ast.Delete)):
        yield from _target_names(statement.targets)
    elif isinstance(statement, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor)):
        yield from _target_names([statement.target])
    elif isinstance(statement, (ast.With, ast.AsyncWith)):
        yield from _target_names(item.optional_vars for item in statement.items)
    elif isinstance(statement, (ast.Try, ast.TryStar)):
        yield from (handler.name for handler in statement.handlers if handler.name)
    elif isinstance(statement, ast.Match):
        for case in statement.cases:
            for node in ast.walk(case.pattern):
                yield from _names_bound_by(node)
    else:
        yield from _names_bound_by(statement)  # def, class, import


def _inner_blocks(statement: ast.stmt) -> Iterator[list[ast.stmt]]:
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return  # their bodies are scopes of their own
    for field in ("body", "orelse", "finalbody"):
        block = getattr(statement, field, None)
        if block:
            yield block
    for part in (*getattr(statement, "handlers", ()), *getattr(statement, "cases", ())):
        yield part.body


def _walrus_targets(body: list[ast.stmt]) -> Iterator[str]:
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.NamedExpr):
            yield node.target.id
        if not isinstance(node, _NESTED_SCOPES):
            stack.extend(ast.iter_child_nodes(node))


def _function_locals(node: ast.FunctionDef | ast.AsyncFunctionDef, walrus: bool) -> frozenset[str]:
    """Every name the function binds anywhere in its body (not in nested scopes), as Python decides.

    Only statements can bind, except `:=`, so expressions are walked only in code that has one.
    """
    names = _argument_names(node.args)
    declared: set[str] = set()
    blocks = [node.body]
    while blocks:
        for statement in blocks.pop():
            if isinstance(statement, (ast.Global, ast.Nonlocal)):
                declared.update(statement.names)
            names.update(_statement_binds(statement))
            blocks.extend(_inner_blocks(statement))
    if walrus:
        names.update(_walrus_targets(node.body))
    return frozenset(names - declared)


def _is_guard_handler(handler: ast.ExceptHandler) -> bool:
    """`except ImportError`, `except (AttributeError, ValueError)`, `except builtins.ImportError`."""
    kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    for kind in kinds:
        name = kind.id if isinstance(kind, ast.Name) else kind.attr if isinstance(kind, ast.Attribute) else None
        if name in _GUARD_EXCEPTIONS:
            return True
    return False


def _has_hasattr(test: ast.expr) -> bool:
    return any(
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "hasattr"
        for node in ast.walk(test)
    )


def _has_negated_hasattr(test: ast.expr) -> bool:
    return any(
        isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not) and _has_hasattr(node.operand)
        for node in ast.walk(test)
    )


def _short_source(node: ast.expr) -> str:
    """The receiver of a method as the user wrote it, cut short when it is long."""
    text = ast.unparse(node)
    return text if len(text) <= 40 and "\n" not in text else "…"


def _import_text(alias: ast.alias) -> str:
    return f"import {alias.name}" + (f" as {alias.asname}" if alias.asname else "")


def _from_import_text(module: str, alias: ast.alias) -> str:
    return f"from {module} import {alias.name}" + (f" as {alias.asname}" if alias.asname else "")


def _absolute_module(node: ast.ImportFrom, package: str | None) -> str | None:
    """The module a `from ... import` names: `from ..io import x` in package `torchvision.datasets`
    is `torchvision.io`. None for a relative import outside a known package, or above its top."""
    if not node.level:
        return node.module or ""
    parts = package.split(".") if package else []
    if node.level > len(parts):
        return None
    base = parts[: len(parts) - node.level + 1]
    return ".".join([*base, node.module] if node.module else base)


_DECORATOR_CALL = CallArguments(1, (), False, False)  # a decorator is called with what it decorates


def _call_arguments(call: ast.expr) -> CallArguments:
    """How the call `call` passes its arguments (a decorator, which is no ast.Call, passes one)."""
    if not isinstance(call, ast.Call):
        return _DECORATOR_CALL
    return CallArguments(
        positional=sum(not isinstance(argument, ast.Starred) for argument in call.args),
        keywords=tuple(keyword.arg for keyword in call.keywords if keyword.arg is not None),
        unpacked_positional=any(isinstance(argument, ast.Starred) for argument in call.args),
        unpacked_keywords=any(keyword.arg is None for keyword in call.keywords),
    )


def _lower(level: str) -> str:
    return CONFIDENCE_LEVELS[max(_RANK[level] - 1, 0)]


# The parts that are expressions, of common nodes with nothing else to them: read directly, which
# is several times faster than ast.iter_child_nodes.
_PARTS: dict[type, tuple[str, ...]] = {
    ast.Subscript: ("value", "slice"),
    ast.Compare: ("left", "comparators"),
    ast.BoolOp: ("values",),
    ast.Tuple: ("elts",),
    ast.List: ("elts",),
    ast.Set: ("elts",),
    ast.Dict: ("keys", "values"),
    ast.UnaryOp: ("operand",),
    ast.Starred: ("value",),
    ast.JoinedStr: ("values",),
    ast.FormattedValue: ("value", "format_spec"),
    ast.Await: ("value",),
    ast.Yield: ("value",),
    ast.YieldFrom: ("value",),
    ast.Slice: ("lower", "upper", "step"),
    ast.Return: ("value",),
    ast.Raise: ("exc", "cause"),
    ast.Assert: ("test", "msg"),
}

_Snapshot = tuple[dict[str, _Binding], list[_Star]]


class _PythonAnalyzer:
    """Walks one module (or the cells of one notebook) in source order, tracking what names mean.

    The walk is hand-written rather than an `ast.NodeVisitor` because evaluation order matters:
    in `x = x.attr` the value is read before the name is rebound, and default arguments and
    decorators belong to the enclosing scope while the body has its own.
    """

    def __init__(self, config: _Config, path: str, package: str | None = None) -> None:
        self.config = config
        self.path = path
        self.package = package  # the dotted name of the package the file is in, for relative imports
        self.module = _Scope("module", None)
        self.scope = self.module
        self.uses: list[Use] = []
        self.guard_depth = 0
        self.cell: int | None = None
        self.text = ""
        self.lines: list[str] | None = None
        self.walrus = False
        self.hasattr_used = False
        self.api_names: set[str] = set()  # names bound to an API anywhere so far
        self.api_pattern: tuple[tuple[str, ...], re.Pattern[str]] = ((), _text_word_pattern(()))
        self.line_offsets: list[int] | None = None
        self.suppressions: dict[int, frozenset[str]] = {}
        # The call (or decorator) whose function is being visited: the function is reported before
        # anything else inside the call is visited, so this is the call a use with is_call belongs to.
        self.calling: ast.expr | None = None
        # Bodies of functions defined at module level, walked when the module's body has run (see _function).
        self.deferred: list[tuple[ast.FunctionDef | ast.AsyncFunctionDef, _Scope, int]] | None = []

    # -- entry point and reporting ------------------------------------------------------------

    def run(self, tree: ast.Module, text: str, cell: int | None = None) -> None:
        """Analyse one module or notebook cell; names bound by earlier cells stay bound."""
        self.cell, self.text, self.lines, self.line_offsets = cell, text, None, None
        self.walrus = ":=" in text
        self.hasattr_used = "hasattr" in text
        self.suppressions = _python_suppressions(text)
        self.scope, self.guard_depth = self.module, 0
        self._statements(tree.body)
        self._deferred_bodies()

    def _character_column(self, line: int, byte_offset: int) -> int:
        """ast columns count UTF-8 bytes; users (and editors) count characters."""
        if self.lines is None:
            self.lines = _NEWLINE.split(self.text)
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        if text.isascii():
            return byte_offset + 1
        return len(text.encode("utf-8")[:byte_offset].decode("utf-8", "ignore")) + 1

    def _emit(
        self,
        line: int,
        column: int,
        target: Target,
        written: str,
        resolved: str,
        how: tuple[Message, ...],
        level: str,
        *,
        arguments: CallArguments | None = None,
    ):
        if _RANK[level] < self.config.min_rank:
            return
        self.uses.append(
            Use(
                path=self.path,
                line=line,
                column=column,
                cell=self.cell,
                target=target,
                written=written,
                resolved=resolved,
                resolution=how,
                confidence=level,
                guarded=self.guard_depth > 0,
                suppressed=self.suppressions.get(line, _NO_SUPPRESSION),
                arguments=arguments,
            )
        )

    def _report(
        self,
        node: ast.expr | ast.alias,
        found: _Resolution,
        is_call: bool,
        column: int | None = None,
        *,
        module_import: bool = False,
    ):
        """One use per target the reference matches, where the referring expression starts.

        A name that is both a module and a function, referred to otherwise than by a call or an
        attribute (`fn = torch.fft`, `from torch import fft`), may be either: it is reported as both,
        one confidence level lower, saying so. `import torch.fft` (module_import) is the module."""
        targets = _python_matches(self.config, found.qualname, is_call)
        how, level = found.how, found.confidence
        if not is_call and not module_import and found.qualname in self.config.ambiguous:
            targets += [t for t in self.config.exact[found.qualname] if t.use == "call"]
            how, level = (*how, message("module_or_function", name=found.qualname)), _lower(level)
        if not targets:
            return
        if column is None:
            column = self._character_column(node.lineno, node.col_offset)
        arguments = _call_arguments(self.calling) if is_call else None
        for target in targets:
            self._emit(node.lineno, column, target, found.written, found.qualname, how, level, arguments=arguments)

    # -- names and scopes ---------------------------------------------------------------------

    def _lookup(self, name: str) -> _Binding | None:
        """The binding a name has here; None when nothing binds it (a builtin, or from a star import)."""
        scope = self.scope
        if scope.kind == "class":
            if name in scope.bindings:
                return scope.bindings[name]
            scope = scope.parent
        passed: list[_Scope] = []  # functions the name is not (yet) bound in
        while scope.kind != "module":
            if scope.kind == "function":
                if name in scope.declared_global:
                    break
                if name in scope.bindings:
                    return scope.bindings[name]
                if name not in scope.declared_nonlocal:
                    passed.append(scope)
            scope = scope.parent
        found = self.module.bindings.get(name)
        if found is None and not self.module.stars or found is not None and found.qualname is None:
            return found  # not an API whether or not a function in between binds the name
        if any(name in function.local_names() for function in passed):
            return _SHADOW  # local to a function, so not the outer name even before it is assigned
        return found

    def _bind(self, name: str, binding: _Binding) -> None:
        if binding.qualname is not None:
            self.api_names.add(name)
        scope = self.scope
        if scope.kind == "function" and name in scope.declared_global:
            scope = self.module
        elif scope.kind == "function" and name in scope.declared_nonlocal:
            scope = self._enclosing_owner(name) or scope
        scope.bindings[name] = binding

    def _enclosing_owner(self, name: str) -> _Scope | None:
        scope = self.scope.parent
        while scope is not None and scope.kind != "module":
            if scope.kind == "function" and name in scope.local_names():
                return scope
            scope = scope.parent
        return None

    @contextlib.contextmanager
    def _entered(self, scope: _Scope) -> Iterator[None]:
        outer, self.scope = self.scope, scope
        try:
            yield
        finally:
            self.scope = outer

    def _guard_test(self, test: ast.expr) -> bool:
        """Is this `if` test a `hasattr(...)` check? (No walk at all in code that never calls hasattr.)"""
        return self.hasattr_used and _has_hasattr(test)

    def _may_use_an_api(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> bool:
        """Can the body refer to an API? Not if its text has no root, no name bound to an API, no method
        being looked for and no `global`: then it is skipped, which saves most of the walk in large files.
        Its own scope ends with it, so skipping it changes nothing outside."""
        if self.module.stars:
            return True  # any name may come from the star import
        start, end = self._body_span(node)
        if _mentions(self.text, start, end, self.config.body_words):
            return True
        if len(self.api_pattern[0]) != len(self.api_names):
            self.api_pattern = (tuple(self.api_names), _text_word_pattern(self.api_names))
        return _mentions(self.text, start, end, self.api_pattern)

    def _body_span(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> tuple[int, int]:
        """Where the body's text starts and ends."""
        if self.line_offsets is None:
            self.line_offsets = _line_offsets(self.text)
        offsets = self.line_offsets
        start = offsets[node.body[0].lineno - 1]
        end = offsets[node.end_lineno] if node.end_lineno < len(offsets) else len(self.text)
        return start, end

    def _snapshot(self) -> _Snapshot:
        return dict(self.scope.bindings), list(self.scope.stars)

    def _restore(self, snapshot: _Snapshot) -> None:
        self.scope.bindings, self.scope.stars = dict(snapshot[0]), list(snapshot[1])

    def _merge(self, *snapshots: _Snapshot) -> None:
        """After branches, a name that is an API on any path stays that API (`except ImportError: x = None`)."""
        merged: dict[str, _Binding] = {}
        stars: list[_Star] = []
        for bindings, branch_stars in snapshots:
            for name, binding in bindings.items():
                current = merged.get(name)
                if current is None or (current.qualname is None and binding.qualname is not None):
                    merged[name] = binding
            stars.extend(star for star in branch_stars if star not in stars)
        self.scope.bindings, self.scope.stars = merged, stars

    # -- resolution -------------------------------------------------------------------------

    def _resolve(self, node: ast.expr) -> _Resolution | None:
        """The API a name or attribute chain (`F.grid_sample`) stands for, if it leads to a root."""
        attributes: list[str] = []
        while isinstance(node, ast.Attribute):
            attributes.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name) or node.id not in self.api_names and not self.module.stars:
            return None  # most names (self, x, len) never stood for an API: no need to look them up
        suffix = "".join("." + attribute for attribute in reversed(attributes))
        written = node.id + suffix
        binding = self._lookup(node.id)
        if binding is None:
            return self._resolve_star(node.id, suffix, written)
        if binding.qualname is None:
            return None
        return _Resolution(binding.qualname + suffix, written, binding.how, binding.confidence)

    def _resolve_star(self, name: str, suffix: str, written: str) -> _Resolution | None:
        """An unbound name may come from a star import, but only a name we are looking for is assumed to."""
        if name in _BUILTINS:
            return None
        for module, line, text in self.module.stars:
            qualname = f"{module}.{name}{suffix}"
            if _is_known(self.config, qualname):
                how = message("star_import", name=name, text=text, line=line)
                return _Resolution(qualname, written, (how,), "medium")
        return None

    def _alias_binding(self, name: str, value: ast.expr | None, line: int) -> _Binding:
        """`up = torch.nn.functional.upsample` makes `up` that API; any other value hides outer names."""
        found = self._resolve(value) if isinstance(value, (ast.Name, ast.Attribute)) else None
        if found is None:
            return _SHADOW
        how = message("alias", name=name, value=found.written, line=line)
        return _Binding(found.qualname, (how, *found.how), found.confidence)

    # -- statements ---------------------------------------------------------------------------

    def _statements(self, body: Sequence[ast.stmt]) -> None:
        handlers = _STATEMENT_HANDLERS
        for statement in body:
            handler = handlers.get(type(statement))
            if handler is None:
                self._children(statement)
            else:
                handler(self, statement)

    def _children(self, node: ast.AST) -> None:
        """Statements and expressions without binding rules of their own: visit what they contain."""
        fields = _PARTS.get(type(node))
        if fields is not None:
            for field in fields:
                part = getattr(node, field)
                if isinstance(part, list):
                    for item in part:
                        if item is not None:
                            self._expression(item)
                elif part is not None:
                    self._expression(part)
            return
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self._expression(child)
            elif isinstance(child, ast.stmt):
                self._statements([child])
            else:
                self._children(child)

    def _nothing(self, node: ast.AST, is_call: bool = False) -> None:
        """Nodes that can neither use nor bind a name."""

    def _declare(self, node: ast.Global | ast.Nonlocal) -> None:
        if self.scope.kind == "function":
            declared = self.scope.declared_global if isinstance(node, ast.Global) else self.scope.declared_nonlocal
            declared.update(node.names)

    def _expression_statement(self, node: ast.Expr) -> None:
        self._expression(node.value)

    def _import(self, node: ast.Import) -> None:
        for alias in node.names:
            text = _import_text(alias)
            root = alias.name.split(".")[0]
            bound = alias.asname or root
            if root not in self.config.python_roots:
                self._bind(bound, _SHADOW)
                continue
            found = _Resolution(alias.name, alias.name, (message("import_statement", text=text),), "high")
            self._report(alias, found, False, module_import=True)
            qualname = alias.name if alias.asname else root
            self._bind(bound, _Binding(qualname, (message("import_name", name=bound, text=text, line=node.lineno),)))

    def _import_from(self, node: ast.ImportFrom) -> None:
        module = _absolute_module(node, self.package)
        if module is None or module.split(".")[0] not in self.config.python_roots:
            for alias in node.names:
                if alias.name != "*":
                    self._bind(alias.asname or alias.name, _SHADOW)
            return
        written = "." * node.level + (node.module or "")  # the module as the statement names it
        for alias in node.names:
            if alias.name == "*":
                self._star_import(node, written, module)
                continue
            text = _from_import_text(written, alias)
            qualname = f"{module}.{alias.name}"
            self._report(
                alias, _Resolution(qualname, alias.name, (message("import_statement", text=text),), "high"), False
            )
            bound = alias.asname or alias.name
            self._bind(bound, _Binding(qualname, (message("import_name", name=bound, text=text, line=node.lineno),)))

    def _star_import(self, node: ast.ImportFrom, written: str, module: str) -> None:
        """Reported at the module's name; later unbound names may come from it."""
        start = self._character_column(node.lineno, node.col_offset) - 1
        found = self.lines[node.lineno - 1].find(written, start) if self.lines else -1
        column = found + 1 if found >= 0 else start + 1
        text = f"from {written} import *"
        self._report(
            node, _Resolution(module, written, (message("import_statement", text=text),), "high"), False, column=column
        )
        self.scope.stars.append((module, node.lineno, text))

    def _assign(self, node: ast.Assign) -> None:
        self._expression(node.value)
        for target in node.targets:
            self._assign_to(target, node.value, node.lineno)

    def _assign_to(self, target: ast.expr, value: ast.expr | None, line: int) -> None:
        if isinstance(target, ast.Name):
            self._bind(target.id, self._alias_binding(target.id, value, line))
        elif isinstance(target, (ast.Tuple, ast.List)):
            values: list[ast.expr | None] = [None] * len(target.elts)
            if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts):
                values = list(value.elts)
            for element, element_value in zip(target.elts, values, strict=True):
                self._assign_to(element, element_value, line)
        elif isinstance(target, ast.Starred):
            self._assign_to(target.value, None, line)
        else:
            self._expression(target)  # `torch.backends.cudnn.benchmark = True` uses the API it sets

    def _annotated_assign(self, node: ast.AnnAssign) -> None:
        self._expression(node.annotation)
        if node.value is not None:
            self._expression(node.value)
            self._assign_to(node.target, node.value, node.lineno)
        elif not isinstance(node.target, ast.Name):
            self._expression(node.target)

    def _augmented_assign(self, node: ast.AugAssign) -> None:
        self._expression(node.value)
        self._assign_to(node.target, None, node.lineno)

    def _delete(self, node: ast.Delete) -> None:
        for target in node.targets:
            self._assign_to(target, None, node.lineno)

    def _for(self, node: ast.For | ast.AsyncFor) -> None:
        self._expression(node.iter)
        before = self._snapshot()
        self._assign_to(node.target, None, node.lineno)
        self._statements(node.body)
        self._statements(node.orelse)
        self._merge(before, self._snapshot())

    def _while(self, node: ast.While) -> None:
        self._expression(node.test)
        before = self._snapshot()
        self._statements(node.body)
        self._statements(node.orelse)
        self._merge(before, self._snapshot())

    def _if(self, node: ast.If) -> None:
        # guard_depth is not restored on an exception: an exception abandons the whole file
        guard = self._guard_test(node.test)
        self.guard_depth += guard
        self._expression(node.test)
        before = self._snapshot()
        self._statements(node.body)
        self.guard_depth -= guard
        after_body = self._snapshot()
        self._restore(before)
        guard = guard and _has_negated_hasattr(node.test)  # `if not hasattr(...): ... else: <uses>`
        self.guard_depth += guard
        self._statements(node.orelse)
        self.guard_depth -= guard
        self._merge(after_body, self._snapshot())

    def _with(self, node: ast.With | ast.AsyncWith) -> None:
        for item in node.items:
            self._expression(item.context_expr)
            if item.optional_vars is not None:
                self._assign_to(item.optional_vars, None, node.lineno)
        self._statements(node.body)

    def _try(self, node: ast.Try | ast.TryStar) -> None:
        guard = any(_is_guard_handler(handler) for handler in node.handlers)
        self.guard_depth += guard
        self._statements(node.body)
        self.guard_depth -= guard
        after_body = self._snapshot()
        self._statements(node.orelse)
        outcomes = [self._snapshot()]
        for handler in node.handlers:
            self._restore(after_body)
            if handler.type is not None:
                self._expression(handler.type)
            if handler.name:
                self._bind(handler.name, _SHADOW)
            self._statements(handler.body)
            outcomes.append(self._snapshot())
        self._merge(*outcomes)
        self._statements(node.finalbody)

    def _signature(self, args: ast.arguments) -> None:
        """Defaults and annotations are evaluated in the scope around the function."""
        for default in (*args.defaults, *args.kw_defaults):
            if default is not None:
                self._expression(default)
        for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg):
            if arg is not None and arg.annotation is not None:
                self._expression(arg.annotation)

    def _decorators(self, decorators: Sequence[ast.expr]) -> None:
        """`@torch.jit.script` calls the decorator although ast shows no Call, so it counts as a call."""
        for decorator in decorators:
            self.calling = decorator
            self._expression(decorator, isinstance(decorator, (ast.Name, ast.Attribute)))

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        """A body runs when the function is called, which for a function defined at module level (or
        in a class there) is mostly after the module has run: it sees the names the module binds
        below it too (`import torch` after the `def`), so its walk waits for the end of the module.
        A body with `global` is walked at once: it may bind what the module uses below it (a lazy
        `global torch; import torch` that module code calls)."""
        self._decorators(node.decorator_list)
        self._signature(node.args)
        if node.returns is not None:
            self._expression(node.returns)
        self._bind(node.name, _SHADOW)
        if self.deferred is None or _mentions(self.text, *self._body_span(node), _GLOBAL_WORD):
            self._body(node)
        else:
            self.deferred.append((node, self.scope, self.guard_depth))

    def _body(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        if self._may_use_an_api(node):
            with self._entered(_Scope("function", self.scope, None, node, self.walrus)):
                self._statements(node.body)

    def _deferred_bodies(self) -> None:
        """The bodies of the module-level functions, in the scope they were defined in (functions
        defined inside them are walked with them)."""
        deferred, self.deferred = self.deferred, None
        for node, scope, guard_depth in deferred:
            self.scope, self.guard_depth = scope, guard_depth
            self._body(node)
        self.scope, self.guard_depth, self.deferred = self.module, 0, []

    def _class(self, node: ast.ClassDef) -> None:
        self._decorators(node.decorator_list)
        for base in node.bases:
            self._expression(base)
        for keyword in node.keywords:
            self._expression(keyword.value)
        # at module level the methods' bodies wait for the module's end, which may bind what they use
        if self.deferred is not None or self._may_use_an_api(node):
            with self._entered(_Scope("class", self.scope)):
                self._statements(node.body)
        self._bind(node.name, _SHADOW)

    def _match(self, node: ast.Match) -> None:
        self._expression(node.subject)
        before = self._snapshot()
        outcomes = [before]
        for case in node.cases:
            self._restore(before)
            self._pattern(case.pattern)
            if case.guard is not None:
                self._expression(case.guard)
            self._statements(case.body)
            outcomes.append(self._snapshot())
        self._merge(*outcomes)

    def _pattern(self, pattern: ast.pattern) -> None:
        """Capture names bind; value patterns (`case torch.float32:`) and class patterns are uses."""
        for node in ast.walk(pattern):
            if isinstance(node, ast.MatchValue):
                self._expression(node.value)
            elif isinstance(node, ast.MatchClass):
                self._expression(node.cls)
            elif isinstance(node, ast.MatchMapping):
                for key in node.keys:
                    self._expression(key)
            for name in _names_bound_by(node):
                self._bind(name, _SHADOW)

    # -- expressions --------------------------------------------------------------------------

    def _expression(self, node: ast.expr, is_call: bool = False) -> None:
        handler = _EXPRESSION_HANDLERS.get(type(node))
        if handler is None:
            self._children(node)
        else:
            handler(self, node, is_call)

    def _name(self, node: ast.Name, is_call: bool) -> None:
        if isinstance(node.ctx, ast.Load):
            found = self._resolve(node)
            if found is not None:
                self._report(node, found, is_call)

    def _attribute(self, node: ast.Attribute, is_call: bool) -> None:
        """A chain that resolves is one reference at its start; otherwise look inside it."""
        found = self._resolve(node)
        if found is not None:
            self._report(node, found, is_call)
            return
        if self.config.methods:
            self._method_on_unknown_receiver(node, is_call)
        self._expression(node.value)

    def _method_on_unknown_receiver(self, node: ast.Attribute, is_call: bool) -> None:
        """`x.masked_copy_()` with `x` of unknown type may be the Tensor method: report it as a guess."""
        targets = self.config.methods.get(node.attr)
        if not targets:
            return
        receiver = _short_source(node.value)
        written = f"{receiver}.{node.attr}"
        how = (message("method_name", attr=node.attr, receiver=receiver),)
        column = self._character_column(node.lineno, node.col_offset)
        arguments = _call_arguments(self.calling) if is_call else None
        for target in targets:
            if _use_matches(target.use, is_call):
                self._emit(node.lineno, column, target, written, target.name, how, "low", arguments=arguments)

    def _call(self, node: ast.Call, is_call: bool) -> None:
        self.calling = node
        self._expression(node.func, True)
        for argument in node.args:
            self._expression(argument)
        for keyword in node.keywords:
            self._expression(keyword.value)

    def _binary_operation(self, node: ast.BinOp, is_call: bool) -> None:
        """Long `a + b + c + ...` chains nest to the left: walk them in a loop, not by recursion."""
        rights = []
        while isinstance(node, ast.BinOp):
            rights.append(node.right)
            node = node.left
        self._expression(node)
        for right in reversed(rights):
            self._expression(right)

    def _conditional_expression(self, node: ast.IfExp, is_call: bool) -> None:
        guard = self._guard_test(node.test)
        self.guard_depth += guard
        self._expression(node.test)
        self._expression(node.body)
        self.guard_depth -= guard
        self._expression(node.orelse)

    def _named_expression(self, node: ast.NamedExpr, is_call: bool) -> None:
        self._expression(node.value)
        self._bind(node.target.id, self._alias_binding(node.target.id, node.value, node.lineno))

    def _lambda(self, node: ast.Lambda, is_call: bool) -> None:
        self._signature(node.args)
        with self._entered(_Scope("function", self.scope, frozenset(_argument_names(node.args)))):
            self._expression(node.body)

    def _comprehension(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp, is_call: bool):
        """The first iterable is evaluated outside; loop variables are local to the comprehension."""
        generators = node.generators
        self._expression(generators[0].iter)
        names = frozenset(name for g in generators for n in ast.walk(g.target) for name in _names_bound_by(n))
        with self._entered(_Scope("function", self.scope, names)):
            for index, generator in enumerate(generators):
                if index:
                    self._expression(generator.iter)
                self._assign_to(generator.target, None, node.lineno)
                for condition in generator.ifs:
                    self._expression(condition)
            for part in (node.key, node.value) if isinstance(node, ast.DictComp) else (node.elt,):
                self._expression(part)


# What each kind of node is handled by; module-level tables of plain functions (not bound methods,
# which would tie each analyzer into a reference cycle and keep it alive until a garbage collection).
_STATEMENT_HANDLERS = {
    ast.Import: _PythonAnalyzer._import,
    ast.ImportFrom: _PythonAnalyzer._import_from,
    ast.Assign: _PythonAnalyzer._assign,
    ast.AnnAssign: _PythonAnalyzer._annotated_assign,
    ast.AugAssign: _PythonAnalyzer._augmented_assign,
    ast.For: _PythonAnalyzer._for,
    ast.AsyncFor: _PythonAnalyzer._for,
    ast.While: _PythonAnalyzer._while,
    ast.If: _PythonAnalyzer._if,
    ast.With: _PythonAnalyzer._with,
    ast.AsyncWith: _PythonAnalyzer._with,
    ast.Try: _PythonAnalyzer._try,
    ast.TryStar: _PythonAnalyzer._try,
    ast.FunctionDef: _PythonAnalyzer._function,
    ast.AsyncFunctionDef: _PythonAnalyzer._function,
    ast.ClassDef: _PythonAnalyzer._class,
    ast.Delete: _PythonAnalyzer._delete,
    ast.Match: _PythonAnalyzer._match,
    ast.Global: _PythonAnalyzer._declare,
    ast.Nonlocal: _PythonAnalyzer._declare,
    ast.Pass: _PythonAnalyzer._nothing,
    ast.Break: _PythonAnalyzer._nothing,
    ast.Continue: _PythonAnalyzer._nothing,
    ast.Expr: _PythonAnalyzer._expression_statement,
}
_EXPRESSION_HANDLERS = {
    ast.Name: _PythonAnalyzer._name,
    ast.Attribute: _PythonAnalyzer._attribute,
    ast.Call: _PythonAnalyzer._call,
    ast.BinOp: _PythonAnalyzer._binary_operation,
    ast.IfExp: _PythonAnalyzer._conditional_expression,
    ast.Lambda: _PythonAnalyzer._lambda,
    ast.ListComp: _PythonAnalyzer._comprehension,
    ast.SetComp: _PythonAnalyzer._comprehension,
    ast.GeneratorExp: _PythonAnalyzer._comprehension,
    ast.DictComp: _PythonAnalyzer._comprehension,
    ast.NamedExpr: _PythonAnalyzer._named_expression,
    ast.Constant: _PythonAnalyzer._nothing,
}


# ---------------------------------------------------------------------------------------------
# Reading files


@dataclass(frozen=True)
class _Job:
    """One file to scan: how to read it and the path to report. Picklable for the process pool."""

    kind: str  # "python" | "notebook" | "tokens"
    path: str
    rel: str
    package: str | None = None  # the dotted name of the package the file is in (see _package_name)


# (status, uses, errors); status is "scanned", "skipped" (pre-filter) or "error"
_Outcome = tuple[str, list[Use], list[FileError]]
_SKIPPED: _Outcome = ("skipped", [], [])


def _failed(rel: str, line: int, reason: Message) -> _Outcome:
    return ("error", [], [FileError(rel, line, reason)])


def _decode_failure(data: bytes, error: UnicodeDecodeError, encoding: str) -> tuple[int, Message]:
    """Where the first undecodable byte is, so the user can find it."""
    line = data.count(b"\n", 0, error.start) + 1
    label = "UTF-8" if encoding.replace("_", "-").lower() in ("utf-8", "utf8") else encoding
    byte = data[error.start] if error.start < len(data) else 0
    return line, message("undecodable", encoding=label, byte=byte, line=line)


def _decode_utf8(data: bytes) -> tuple[str | None, tuple[int, Message] | None]:
    if data.startswith(_UTF8_BOM):
        data = data[len(_UTF8_BOM) :]
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as error:
        return None, _decode_failure(data, error, "utf-8")


def _decode_python(data: bytes) -> tuple[str | None, tuple[int, Message] | None]:
    """Bytes to text as Python would read them: BOM, then a PEP 263 coding cookie, else UTF-8."""
    if data.startswith(_UTF8_BOM):
        data = data[len(_UTF8_BOM) :]
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as error:
        return None, (1, message("bad_encoding_declaration", why=str(error)))
    try:
        return data.decode(encoding), None
    except UnicodeDecodeError as error:
        return None, _decode_failure(data, error, encoding)


@contextlib.contextmanager
def _deep_recursion() -> Iterator[None]:
    """The walk recurses once per nesting level; allow deeply nested (generated) code."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, _RECURSION_LIMIT))
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)


def _parse(text: str, rel: str) -> tuple[ast.Module | None, tuple[int, str] | None]:
    """The syntax tree, or (line, what is wrong) to report."""
    null = text.find("\0")
    if null >= 0:  # Python refuses these without saying where (ValueError or SyntaxError, by version)
        line = text.count("\n", 0, null) + 1
        return None, (line, f"line {line}: contains a null byte")
    try:
        with _deep_recursion():  # building the tree of `1 + 1 + ... + 1` recurses once per term
            return ast.parse(text, filename=rel), None
    except SyntaxError as error:
        line = error.lineno or 1
        where = f"line {line}" + (f", column {error.offset}" if error.offset else "")
        return None, (line, f"{where}: {error.msg}")
    except (RecursionError, MemoryError):
        return None, (1, "line 1: too deeply nested to parse")


def _scan_python(job: _Job, data: bytes, config: _Config) -> _Outcome:
    text, failure = _decode_python(data)
    if text is None:
        return _failed(job.rel, *failure)
    tree, failure = _parse(text, job.rel)
    if tree is None:
        line, why = failure
        return _failed(job.rel, line, message("not_python", why=why))
    analyzer = _PythonAnalyzer(config, job.rel, job.package)
    try:
        with _deep_recursion():
            analyzer.run(tree, text)
    except RecursionError:
        return _failed(job.rel, 1, message("too_deep"))
    return ("scanned", analyzer.uses, [])


# IPython syntax that is not Python: line magics, shell escapes, `x = !cmd`, help requests.
# (A line ending in `?` counts only without a comment or a string on it: `x = 1  # why?` is code.)
_MAGIC_LINE = re.compile(r"^([ \t]*)(?:[%!?]|[^#'\"]*\?[ \t]*$|[\w., \t]+=[ \t]*[%!])")


def _without_magics(source: str) -> str | None:
    """The cell as Python, magic lines turned into `pass` so line numbers stay; None for a `%%` cell."""
    lines = source.split("\n")
    first = next((line.strip() for line in lines if line.strip()), "")
    if first.startswith("%%"):
        return None
    for index, line in enumerate(lines):
        match = _MAGIC_LINE.match(line)
        if match:
            lines[index] = match.group(1) + "pass"
    return "\n".join(lines)


def _cell_source(cell: dict) -> str:
    source = cell.get("source", cell.get("input", ""))
    if isinstance(source, list):
        return "".join(part if isinstance(part, str) else "" for part in source)
    return source if isinstance(source, str) else ""


def _notebook_cells(notebook: object) -> list | None:
    """nbformat 4 keeps cells at the top; nbformat 3 in worksheets. None when it is not a notebook."""
    if not isinstance(notebook, dict):
        return None
    cells = notebook.get("cells")
    if cells is None and isinstance(notebook.get("worksheets"), list):
        cells = [c for sheet in notebook["worksheets"] if isinstance(sheet, dict) for c in sheet.get("cells", [])]
    if cells is None:
        return []
    return cells if isinstance(cells, list) else None


def _notebook_language(notebook: dict) -> str:
    metadata = notebook.get("metadata")
    if not isinstance(metadata, dict):
        return ""
    for key, field in (("kernelspec", "language"), ("language_info", "name")):
        section = metadata.get(key)
        if isinstance(section, dict) and isinstance(section.get(field), str):
            return section[field].lower()
    return ""


def _cell_tree(source: str, rel: str) -> tuple[ast.Module | None, str, tuple[int, str] | None]:
    """Parse a cell as written first (a line starting with `%` may be a continued modulo), else without magics."""
    tree, failure = _parse(source, rel)
    if tree is not None:
        return tree, source, None
    cleaned = _without_magics(source)
    if cleaned is None:
        return None, "", None
    tree, failure = _parse(cleaned, rel)
    return tree, cleaned, failure


def _load_notebook(data: bytes, rel: str) -> tuple[dict | None, list | None, _Outcome | None]:
    text, failure = _decode_utf8(data)
    if text is None:
        return None, None, _failed(rel, *failure)
    try:
        notebook = json.loads(text)
    except json.JSONDecodeError as error:
        return None, None, _failed(rel, error.lineno, message("invalid_json", line=error.lineno, why=error.msg))
    cells = _notebook_cells(notebook)
    if cells is None:
        return None, None, _failed(rel, 1, message("not_notebook"))
    return notebook, cells, None


def _scan_notebook(job: _Job, data: bytes, config: _Config) -> _Outcome:
    notebook, cells, failed = _load_notebook(data, job.rel)
    if failed is not None:
        return failed
    if _notebook_language(notebook) not in ("", "python", "python3", "ipython", "ipython3"):
        return _SKIPPED  # an R or Julia notebook cannot use a Python package
    analyzer = _PythonAnalyzer(config, job.rel)  # one analyzer: later cells see earlier cells' imports
    errors: list[FileError] = []
    for index, cell in enumerate(cells, start=1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        tree, source, failure = _cell_tree(_cell_source(cell), job.rel)
        if failure is not None:
            errors.append(FileError(job.rel, failure[0], message("cell_not_python", cell=index, why=failure[1])))
        if tree is None:
            continue
        try:
            with _deep_recursion():
                analyzer.run(tree, source, cell=index)
        except RecursionError:
            errors.append(FileError(job.rel, 1, message("cell_too_deep", cell=index)))
    return ("scanned", analyzer.uses, errors)


def _token_targets(config: _Config, token: str) -> list[Target]:
    """Targets a token names: itself, or a name it continues with `::` (`torch::class_::def`)."""
    found = list(config.tokens.get(token, ()))
    position = token.find("::")
    while position > 0:
        found.extend(config.tokens.get(token[:position], ()))
        position = token.find("::", position + 2)
    return found


def _scan_tokens(job: _Job, data: bytes, config: _Config) -> _Outcome:
    if config.token_pattern is None or not any(root in data for root in config.token_roots):
        return _SKIPPED
    text, failure = _decode_utf8(data)
    if text is None:
        return _failed(job.rel, *failure)
    lines = text.split("\n")
    suppressions = _token_suppressions(lines)
    uses = []
    if _RANK["medium"] < config.min_rank:
        return ("scanned", uses, [])
    for number, line in enumerate(lines, start=1):
        for match in config.token_pattern.finditer(line):
            for target in _token_targets(config, match.group()):
                uses.append(
                    Use(
                        path=job.rel,
                        line=number,
                        column=match.start() + 1,
                        cell=None,
                        target=target,
                        written=target.name,
                        resolved=target.name,
                        resolution=_TOKEN_HOW,
                        confidence="medium",
                        guarded=False,
                        suppressed=suppressions.get(number, _NO_SUPPRESSION),
                    )
                )
    return ("scanned", uses, [])


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """A syntax tree is many small objects without cycles; not collecting while it is built saves ~10%."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _scan_one(job: _Job, config: _Config) -> _Outcome:
    """Read one file and scan it with the scanner its kind needs; never raises for a bad file."""
    path = Path(job.path)
    try:
        size = path.stat().st_size  # before reading: a file over the limit is never read
        if config.max_file_size is not None and size > config.max_file_size:
            return _failed(job.rel, 1, message("too_large", size=size, limit=config.max_file_size))
        data = path.read_bytes()
    except OSError as error:
        return _failed(job.rel, 1, message("unreadable_file", why=str(error.strerror or error)))
    with _collector_paused():
        return _scan_data(job, data, config)


def _in_a_root_package(job: _Job, config: _Config) -> bool:
    """A file of a root's own package (the tree holds `torchvision/`) can reach the root by relative
    imports alone, without naming it."""
    return job.package is not None and job.package.split(".")[0] in config.python_roots


def _scan_data(job: _Job, data: bytes, config: _Config) -> _Outcome:
    if job.kind == "tokens":
        return _scan_tokens(job, data, config)
    if config.python_prefilter is None:
        return _SKIPPED
    if not config.python_prefilter.search(data) and not _in_a_root_package(job, config):
        return _SKIPPED
    if job.kind == "notebook":
        return _scan_notebook(job, data, config)
    return _scan_python(job, data, config)


# ---------------------------------------------------------------------------------------------
# Finding files


def _normalise_patterns(patterns: Sequence[str]) -> tuple[str, ...]:
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


def _walk(top: Path, include: tuple[str, ...], exclude: tuple[str, ...], errors: list[FileError]) -> list[_Job]:
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
                jobs.append(_Job(kind, os.path.join(directory, name), rel, packages[directory]))
    return jobs


def _collect(
    paths: Sequence[Path], include: tuple[str, ...], exclude: tuple[str, ...]
) -> tuple[list[_Job], list[FileError]]:
    """Files to scan under the given paths; a path given explicitly is never skipped by the defaults."""
    jobs: list[_Job] = []
    errors: list[FileError] = []
    for given in map(Path, paths):
        if given.is_dir():
            jobs.extend(_walk(given, include, exclude, errors))
        elif given.is_file():
            # an explicit file that is neither Python nor a notebook goes to the token scanner
            if not _matches_any(given.name, exclude):
                kind = _kind(given.name, given.name, include) or "tokens"
                jobs.append(_Job(kind, str(given), given.name, _package_name(str(given.parent))))
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


# ---------------------------------------------------------------------------------------------
# Running


_WORKER_CONFIG: _Config | None = None


def _start_worker(config: _Config) -> None:
    """Each worker receives the configuration once, not with every file."""
    global _WORKER_CONFIG
    _WORKER_CONFIG = config


def _scan_in_worker(job: _Job) -> _Outcome:
    return _scan_one(job, _WORKER_CONFIG)


def _run(jobs: list[_Job], config: _Config, workers: int) -> list[_Outcome]:
    """Small inputs run here; larger ones in a process pool (falls back to here if a pool cannot start)."""
    if workers > 1 and len(jobs) > PARALLEL_THRESHOLD:
        workers = min(workers, len(jobs))
        chunksize = max(1, min(32, len(jobs) // (workers * 16)))
        try:
            with concurrent.futures.ProcessPoolExecutor(workers, initializer=_start_worker, initargs=(config,)) as pool:
                return list(pool.map(_scan_in_worker, jobs, chunksize=chunksize))
        except (OSError, NotImplementedError, BrokenProcessPool):
            pass
    return [_scan_one(job, config) for job in jobs]


def _use_order(use: Use) -> tuple:
    return (use.path, use.cell or 0, use.line, use.column, use.target.name, use.target.use, use.resolved)


def scan(
    paths: Sequence[Path],
    targets: Iterable[Target],
    roots: Roots,
    *,
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
    confidence: str = "medium",
    jobs: int | None = None,
    max_file_size: int | None = DEFAULT_MAX_FILE_SIZE,
    cache=None,
) -> ScanResult:
    """Every use of `targets` in the Python files, notebooks and `include`d files under `paths`.

    A file that cannot be read, decoded or parsed, or is larger than `max_file_size` bytes (None:
    no limit), becomes a `FileError` and the scan goes on. Uses below `confidence` ("high" >
    "medium" > "low") are left out. A `cache` (cache.ScanCache) gives the outcome of files
    it has seen unchanged and hands the others to the scanner.
    """
    if jobs is not None and jobs < 0:
        raise ValueError(f"jobs must be a positive number of processes, not {jobs}")
    if max_file_size is not None and max_file_size < 0:
        raise ValueError(f"max_file_size must be a number of bytes, not {max_file_size}")
    config = _build_config(targets, roots, confidence, max_file_size)
    found, errors = _collect(paths, _normalise_patterns(include), _normalise_patterns(exclude))
    uses: list[Use] = []
    counts = {"scanned": 0, "skipped": 0, "error": 0}
    workers = jobs or os.cpu_count() or 1

    def run(some: list[_Job]) -> list[_Outcome]:
        return _run(some, config, workers)

    for status, file_uses, file_errors in run(found) if cache is None else cache.outcomes(found, config, run):
        counts[status] += 1
        uses.extend(file_uses)
        errors.extend(file_errors)
    return ScanResult(
        uses=sorted(uses, key=_use_order),
        errors=sorted(errors, key=lambda error: (error.path, error.line, error.message)),
        files_scanned=counts["scanned"],
        files_skipped=counts["skipped"],
    )
