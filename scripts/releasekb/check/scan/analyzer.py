"""The Python analysis: one module (or the cells of a notebook) walked in source order,
tracking what each name stands for, and every reference to a target reported as a `Use`."""

from __future__ import annotations

import ast
import builtins
import contextlib
import functools
import itertools
import re
from collections.abc import Iterator, Sequence

from releasekb.check.messages import Message, message
from releasekb.check.scan import decoding
from releasekb.check.scan.decoding import NEWLINE, decode_python, deep_recursion
from releasekb.check.scan.jobs import Job, Outcome, failed
from releasekb.check.scan.model import CONFIDENCE_LEVELS, RANK, CallArguments, Target, Use
from releasekb.check.scan.old_code import scan_old_code
from releasekb.check.scan.scopes import SHADOW, Binding, Resolution, Scope, Star, argument_names, names_bound_by
from releasekb.check.scan.suppressions import NO_SUPPRESSION, python_suppressions
from releasekb.check.scan.targets import (
    GLOBAL_WORD,
    Config,
    is_known,
    mentions,
    python_matches,
    text_word_pattern,
    use_matches,
)

_GUARD_EXCEPTIONS = frozenset({"ImportError", "ModuleNotFoundError", "AttributeError"})


_BUILTINS = frozenset(dir(builtins))


def _line_offsets(text: str) -> list[int]:
    """Where each line starts, with lines ended the way ast ends them (CRLF, CR or LF)."""
    if "\r" in text:
        return [0, *(match.end() for match in NEWLINE.finditer(text))]
    return [0, *itertools.accumulate(len(line) + 1 for line in text.split("\n"))]


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
    return CONFIDENCE_LEVELS[max(RANK[level] - 1, 0)]


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

_Snapshot = tuple[dict[str, Binding], list[Star]]


class PythonAnalyzer:
    """Walks one module (or the cells of one notebook) in source order, tracking what names mean.

    The walk is hand-written rather than an `ast.NodeVisitor` because evaluation order matters:
    in `x = x.attr` the value is read before the name is rebound, and default arguments and
    decorators belong to the enclosing scope while the body has its own.
    """

    def __init__(self, config: Config, path: str, package: str | None = None) -> None:
        self.config = config
        self.path = path
        self.package = package  # the dotted name of the package the file is in, for relative imports
        self.module = Scope("module", None)
        self.scope = self.module
        self.uses: list[Use] = []
        self.guard_depth = 0
        self.cell: int | None = None
        self.text = ""
        self.lines: list[str] | None = None
        self.walrus = False
        self.hasattr_used = False
        self.api_names: set[str] = set()  # names bound to an API anywhere so far
        self.api_pattern: tuple[tuple[str, ...], re.Pattern[str]] = ((), text_word_pattern(()))
        self.line_offsets: list[int] | None = None
        self.suppressions: dict[int, frozenset[str]] = {}
        # The call (or decorator) whose function is being visited: the function is reported before
        # anything else inside the call is visited, so this is the call a use with is_call belongs to.
        self.calling: ast.expr | None = None
        # Bodies of functions defined at module level, walked when the module's body has run (see _function).
        self.deferred: list[tuple[ast.FunctionDef | ast.AsyncFunctionDef, Scope, int]] | None = []
        # Where the statement being walked is, (cell or 0, line), and every module-level binding of
        # a name with where it was made: a deferred body sees the module's last binding of a name,
        # but the import to name for a use is the one that had bound it by the use's line.
        self.position = (0, 0)
        self.module_history: dict[str, list[tuple[tuple[int, int], Binding]]] = {}

    # -- entry point and reporting ------------------------------------------------------------

    def run(self, tree: ast.Module, text: str, cell: int | None = None) -> None:
        """Analyse one module or notebook cell; names bound by earlier cells stay bound."""
        self.cell, self.text, self.lines, self.line_offsets = cell, text, None, None
        self.walrus = ":=" in text
        self.hasattr_used = "hasattr" in text
        self.suppressions = python_suppressions(text)
        self.scope, self.guard_depth = self.module, 0
        self._statements(tree.body)
        self._deferred_bodies()

    def _character_column(self, line: int, byte_offset: int) -> int:
        """ast columns count UTF-8 bytes; users (and editors) count characters."""
        if self.lines is None:
            self.lines = NEWLINE.split(self.text)
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
        if RANK[level] < self.config.min_rank:
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
                suppressed=self.suppressions.get(line, NO_SUPPRESSION),
                arguments=arguments,
            )
        )

    def _report(
        self,
        node: ast.expr | ast.alias,
        found: Resolution,
        is_call: bool,
        column: int | None = None,
        *,
        module_import: bool = False,
    ):
        """One use per target the reference matches, where the referring expression starts.

        A name that is both a module and a function, referred to otherwise than by a call or an
        attribute (`fn = torch.fft`, `from torch import fft`), may be either: it is reported as both,
        one confidence level lower, saying so. `import torch.fft` (module_import) is the module."""
        targets = python_matches(self.config, found.qualname, is_call)
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

    def _lookup(self, name: str) -> Binding | None:
        """The binding a name has here; None when nothing binds it (a builtin, or from a star import)."""
        scope = self.scope
        if scope.kind == "class":
            if name in scope.bindings:
                return scope.bindings[name]
            scope = scope.parent
        passed: list[Scope] = []  # functions the name is not (yet) bound in
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
            return SHADOW  # local to a function, so not the outer name even before it is assigned
        return found

    def _bind(self, name: str, binding: Binding) -> None:
        if binding.qualname is not None:
            self.api_names.add(name)
        scope = self.scope
        if scope.kind == "function" and name in scope.declared_global:
            scope = self.module
        elif scope.kind == "function" and name in scope.declared_nonlocal:
            scope = self._enclosing_owner(name) or scope
        scope.bindings[name] = binding
        if scope is self.module and binding.qualname is not None:
            self.module_history.setdefault(name, []).append((self.position, binding))

    def _enclosing_owner(self, name: str) -> Scope | None:
        scope = self.scope.parent
        while scope is not None and scope.kind != "module":
            if scope.kind == "function" and name in scope.local_names():
                return scope
            scope = scope.parent
        return None

    @contextlib.contextmanager
    def _entered(self, scope: Scope) -> Iterator[None]:
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
        if mentions(self.text, start, end, self.config.body_words):
            return True
        if len(self.api_pattern[0]) != len(self.api_names):
            self.api_pattern = (tuple(self.api_names), text_word_pattern(self.api_names))
        return mentions(self.text, start, end, self.api_pattern)

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
        merged: dict[str, Binding] = {}
        stars: list[Star] = []
        for bindings, branch_stars in snapshots:
            for name, binding in bindings.items():
                current = merged.get(name)
                if current is None or (current.qualname is None and binding.qualname is not None):
                    merged[name] = binding
            stars.extend(star for star in branch_stars if star not in stars)
        self.scope.bindings, self.scope.stars = merged, stars

    # -- resolution -------------------------------------------------------------------------

    def _resolve(self, node: ast.expr) -> Resolution | None:
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
        if self.deferred is None and binding is self.module.bindings.get(node.id):
            binding = self._bound_by_then(node.id, binding, (self.cell or 0, node.lineno))
        return Resolution(binding.qualname + suffix, written, binding.how, binding.confidence)

    def _bound_by_then(self, name: str, binding: Binding, position: tuple[int, int]) -> Binding:
        """In a deferred body, the module binding of `name` that stands for the same API and had been
        made by `position` (`import torch` at line 1 for a use at line 10, rather than `import
        torch.fft` at line 20, which binds the same name later); `binding` when none had been."""
        earlier, latest = binding, None
        for where, candidate in self.module_history.get(name, ()):
            same = candidate.qualname == binding.qualname and candidate.confidence == binding.confidence
            if same and where <= position and (latest is None or where >= latest):
                earlier, latest = candidate, where
        return earlier

    def _resolve_star(self, name: str, suffix: str, written: str) -> Resolution | None:
        """An unbound name may come from a star import, but only a name we are looking for is assumed to."""
        if name in _BUILTINS:
            return None
        for module, line, text in self.module.stars:
            qualname = f"{module}.{name}{suffix}"
            if is_known(self.config, qualname):
                how = message("star_import", name=name, text=text, line=line)
                return Resolution(qualname, written, (how,), "medium")
        return None

    def _alias_binding(self, name: str, value: ast.expr | None, line: int) -> Binding:
        """`up = torch.nn.functional.upsample` makes `up` that API; any other value hides outer names."""
        found = self._resolve(value) if isinstance(value, (ast.Name, ast.Attribute)) else None
        if found is None:
            return SHADOW
        how = message("alias", name=name, value=found.written, line=line)
        return Binding(found.qualname, (how, *found.how), found.confidence)

    # -- statements ---------------------------------------------------------------------------

    def _statements(self, body: Sequence[ast.stmt]) -> None:
        handlers = _STATEMENT_HANDLERS
        for statement in body:
            self.position = (self.cell or 0, statement.lineno)
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
                self._bind(bound, SHADOW)
                continue
            found = Resolution(alias.name, alias.name, (message("import_statement", text=text),), "high")
            self._report(alias, found, False, module_import=True)
            qualname = alias.name if alias.asname else root
            self._bind(bound, Binding(qualname, (message("import_name", name=bound, text=text, line=node.lineno),)))

    def _import_from(self, node: ast.ImportFrom) -> None:
        module = _absolute_module(node, self.package)
        if module is None or module.split(".")[0] not in self.config.python_roots:
            for alias in node.names:
                if alias.name != "*":
                    self._bind(alias.asname or alias.name, SHADOW)
            return
        written = "." * node.level + (node.module or "")  # the module as the statement names it
        for alias in node.names:
            if alias.name == "*":
                self._star_import(node, written, module)
                continue
            text = _from_import_text(written, alias)
            qualname = f"{module}.{alias.name}"
            self._report(
                alias, Resolution(qualname, alias.name, (message("import_statement", text=text),), "high"), False
            )
            bound = alias.asname or alias.name
            self._bind(bound, Binding(qualname, (message("import_name", name=bound, text=text, line=node.lineno),)))

    def _star_import(self, node: ast.ImportFrom, written: str, module: str) -> None:
        """Reported at the module's name; later unbound names may come from it."""
        start = self._character_column(node.lineno, node.col_offset) - 1
        found = self.lines[node.lineno - 1].find(written, start) if self.lines else -1
        column = found + 1 if found >= 0 else start + 1
        text = f"from {written} import *"
        self._report(
            node, Resolution(module, written, (message("import_statement", text=text),), "high"), False, column=column
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
                self._bind(handler.name, SHADOW)
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
        self._bind(node.name, SHADOW)
        if self.deferred is None or mentions(self.text, *self._body_span(node), GLOBAL_WORD):
            self._body(node)
        else:
            self.deferred.append((node, self.scope, self.guard_depth))

    def _body(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        if self._may_use_an_api(node):
            with self._entered(Scope("function", self.scope, None, node, self.walrus)):
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
            with self._entered(Scope("class", self.scope)):
                self._statements(node.body)
        self._bind(node.name, SHADOW)

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
            for name in names_bound_by(node):
                self._bind(name, SHADOW)

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
            if use_matches(target.use, is_call):
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
        with self._entered(Scope("function", self.scope, frozenset(argument_names(node.args)))):
            self._expression(node.body)

    def _comprehension(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp, is_call: bool):
        """The first iterable is evaluated outside; loop variables are local to the comprehension."""
        generators = node.generators
        self._expression(generators[0].iter)
        names = frozenset(name for g in generators for n in ast.walk(g.target) for name in names_bound_by(n))
        with self._entered(Scope("function", self.scope, names)):
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
    ast.Import: PythonAnalyzer._import,
    ast.ImportFrom: PythonAnalyzer._import_from,
    ast.Assign: PythonAnalyzer._assign,
    ast.AnnAssign: PythonAnalyzer._annotated_assign,
    ast.AugAssign: PythonAnalyzer._augmented_assign,
    ast.For: PythonAnalyzer._for,
    ast.AsyncFor: PythonAnalyzer._for,
    ast.While: PythonAnalyzer._while,
    ast.If: PythonAnalyzer._if,
    ast.With: PythonAnalyzer._with,
    ast.AsyncWith: PythonAnalyzer._with,
    ast.Try: PythonAnalyzer._try,
    ast.TryStar: PythonAnalyzer._try,
    ast.FunctionDef: PythonAnalyzer._function,
    ast.AsyncFunctionDef: PythonAnalyzer._function,
    ast.ClassDef: PythonAnalyzer._class,
    ast.Delete: PythonAnalyzer._delete,
    ast.Match: PythonAnalyzer._match,
    ast.Global: PythonAnalyzer._declare,
    ast.Nonlocal: PythonAnalyzer._declare,
    ast.Pass: PythonAnalyzer._nothing,
    ast.Break: PythonAnalyzer._nothing,
    ast.Continue: PythonAnalyzer._nothing,
    ast.Expr: PythonAnalyzer._expression_statement,
}
_EXPRESSION_HANDLERS = {
    ast.Name: PythonAnalyzer._name,
    ast.Attribute: PythonAnalyzer._attribute,
    ast.Call: PythonAnalyzer._call,
    ast.BinOp: PythonAnalyzer._binary_operation,
    ast.IfExp: PythonAnalyzer._conditional_expression,
    ast.Lambda: PythonAnalyzer._lambda,
    ast.ListComp: PythonAnalyzer._comprehension,
    ast.SetComp: PythonAnalyzer._comprehension,
    ast.GeneratorExp: PythonAnalyzer._comprehension,
    ast.DictComp: PythonAnalyzer._comprehension,
    ast.NamedExpr: PythonAnalyzer._named_expression,
    ast.Constant: PythonAnalyzer._nothing,
}


def scan_python(job: Job, data: bytes, config: Config) -> Outcome:
    text, failure = decode_python(data)
    if text is None:
        return failed(job.rel, *failure)
    tree, failure = decoding.parse(text, job.rel)
    if tree is None:
        line, why = failure
        if not decoding.syntax_error(failure):
            return failed(job.rel, line, message("not_python", why=why))
        try:  # old code, valid in the Python it was written for: read it as it was written
            return scan_old_code(job.rel, text, why, config, functools.partial(_analysed, job, config))
        except RecursionError:
            return failed(job.rel, 1, message("too_deep"))
    try:
        return ("scanned", _analysed(job, config, tree, text), [])
    except RecursionError:
        return failed(job.rel, 1, message("too_deep"))


def _analysed(job: Job, config: Config, tree: ast.Module, text: str) -> list[Use]:
    analyzer = PythonAnalyzer(config, job.rel, job.package)
    with deep_recursion():
        analyzer.run(tree, text)
    return analyzer.uses
