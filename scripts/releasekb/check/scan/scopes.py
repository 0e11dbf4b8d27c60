"""The scope model of the Python analysis: what a name stands for (`Binding`), the scopes it is
bound in (`Scope`), and which names a function binds, as Python decides."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from releasekb.check.messages import Message


@dataclass(frozen=True)
class Binding:
    """What a name stands for: an API (`qualname`) or something else that hides outer names (None)."""

    qualname: str | None
    how: tuple[Message, ...] = ()
    confidence: str = "high"


SHADOW = Binding(None)


@dataclass(frozen=True)
class Resolution:
    qualname: str
    written: str
    how: tuple[Message, ...]
    confidence: str


class Scope:
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
        parent: Scope | None,
        local_names: frozenset[str] | None = frozenset(),
        node: ast.FunctionDef | ast.AsyncFunctionDef | None = None,
        walrus: bool = False,
    ) -> None:
        self.kind = kind  # "module" | "class" | "function"
        self.parent = parent
        self.bindings: dict[str, Binding] = {}
        self.stars: list[Star] = []
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
Star = tuple[str, int, str]


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


def names_bound_by(node: ast.AST) -> Iterator[str]:
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


def argument_names(args: ast.arguments) -> set[str]:
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
                yield from names_bound_by(node)
    else:
        yield from names_bound_by(statement)  # def, class, import


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
    names = argument_names(node.args)
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
