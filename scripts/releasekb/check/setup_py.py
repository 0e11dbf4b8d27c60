"""The requirements a setup.py declares, read from its syntax tree: setup.py is code, never run.

`setup(install_requires=[...], extras_require={...})` with literal strings gives its requirements
at their lines, and so does a name assigned a literal list once at module level (`REQUIRES =
["torch>=1.0"]`, then `install_requires=REQUIRES`). Anything else is only known when setup.py runs
(`install_requires=read("requirements.txt")`, a list built up, `setup(**options)`): it is a
`Computed` declaration, which the report names rather than ignores. A setup.py the running Python
cannot parse is read as old code is (scan/old_code.py), its older syntax rewritten on its lines.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from releasekb.check.scan import decoding
from releasekb.check.scan.old_code import parse_rewritten

FIELDS = ("install_requires", "extras_require")


@dataclass(frozen=True)
class Computed:
    """A declaration whose value is computed when setup.py runs."""

    field: str  # install_requires, extras_require, or `**name`


def setup_py_requirements(text: str) -> list[tuple[int, str | Computed]]:
    """(line, requirement text) for each literal requirement of a `setup(...)` call, and (line,
    Computed) for each declaration that is not literal; SyntaxError when it cannot be parsed."""
    tree = _tree(text)
    constants = _constant_lists(tree)
    found: list[tuple[int, str | Computed]] = []
    for call in ast.walk(tree):
        if isinstance(call, ast.Call) and _is_setup(call.func):
            for field, value in _arguments(call, constants):
                if field is None:
                    found.append((value.lineno, Computed(f"**{ast.unparse(value)}")))
                elif field in FIELDS:
                    found += _requirements(field, value, constants)
    return found


def _arguments(call: ast.Call, constants: dict[str, ast.expr]) -> list[tuple[str | None, ast.expr]]:
    """(name, value) of the call's keyword arguments, those of `**info` included when `info` is a
    module-level constant `dict(...)` or `{...}` (field None: a `**` whose content is unknown)."""
    found: list[tuple[str | None, ast.expr]] = []
    for keyword in call.keywords:
        if keyword.arg is not None:
            found.append((keyword.arg, keyword.value))
            continue
        known = _known(keyword.value, constants)
        keys = _keys(known)
        if keys is None:
            found.append((None, keyword.value))
        else:
            found += [(key, value) for key, value in zip(keys, _extras(known), strict=True)]
    return found


def _keys(value: ast.expr) -> list[str] | None:
    """The names of a `dict(name=...)` or `{"name": ...}` whose keys are all written out."""
    if _extras(value) is None:
        return None
    if isinstance(value, ast.Dict):
        if not all(isinstance(key, ast.Constant) and isinstance(key.value, str) for key in value.keys):
            return None
        return [key.value for key in value.keys]
    return [keyword.arg for keyword in value.keywords]


def _tree(text: str) -> ast.Module:
    """The module, as today's Python reads it or, failing that, with its older syntax rewritten."""
    tree, failure = decoding.parse(text, "setup.py")
    if tree is not None:
        return tree
    old = parse_rewritten(text, "setup.py")
    if old is not None:
        return old[0]
    line, why = failure
    raise SyntaxError(why.split(": ", 1)[-1], ("setup.py", line, 0, ""))


def _is_setup(function: ast.expr) -> bool:
    """`setup(...)`, `setuptools.setup(...)`, `distutils.core.setup(...)`."""
    return (isinstance(function, ast.Name) and function.id == "setup") or (
        isinstance(function, ast.Attribute) and function.attr == "setup"
    )


def _constant_lists(tree: ast.Module) -> dict[str, ast.expr]:
    """Names bound once at module level, to a literal: the only names whose value is known unrun."""
    values: dict[str, ast.expr] = {}
    bound: dict[str, int] = {}
    for statement in tree.body:
        targets = []
        if isinstance(statement, ast.Assign):
            targets = statement.targets
        elif isinstance(statement, (ast.AnnAssign, ast.AugAssign)):
            targets = [statement.target]
        for target in targets:
            for node in ast.walk(target):
                if isinstance(node, ast.Name):
                    bound[node.id] = bound.get(node.id, 0) + 1
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
            if isinstance(target, ast.Name):
                values[target.id] = statement.value
    # a name also changed elsewhere (`REQUIRES.append(...)` aside) holds what runs decide
    return {name: value for name, value in values.items() if bound.get(name) == 1}


def _requirements(field: str, value: ast.expr, constants: dict[str, ast.expr]) -> list[tuple[int, str | Computed]]:
    value = _known(value, constants)
    if field != "extras_require":
        return _literal_list(field, value)
    extras = _extras(value)
    if extras is None:
        return [(value.lineno, Computed(field))]
    return [found for extra in extras for found in _literal_list(field, _known(extra, constants))]


def _known(value: ast.expr, constants: dict[str, ast.expr]) -> ast.expr:
    """A name's literal value when it is a module-level constant, else the expression itself."""
    return constants.get(value.id, value) if isinstance(value, ast.Name) else value


def _extras(value: ast.expr) -> list[ast.expr] | None:
    """The values of `{"extra": [...]}` or `dict(extra=[...])`; None when they are computed."""
    if isinstance(value, ast.Dict) and all(key is not None for key in value.keys):
        return list(value.values)
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict" and not value.args:
        if all(keyword.arg is not None for keyword in value.keywords):
            return [keyword.value for keyword in value.keywords]
    return None


def _literal_list(field: str, value: ast.expr) -> list[tuple[int, str | Computed]]:
    """The strings of a literal list, tuple or newline-separated string, each at its line."""
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        lines = [line.strip() for line in value.value.splitlines()]
        return [(value.lineno, line) for line in lines if line and not line.startswith("#")]
    if not isinstance(value, (ast.List, ast.Tuple)):
        return [(value.lineno, Computed(field))]
    found: list[tuple[int, str | Computed]] = []
    for item in value.elts:
        if isinstance(item, ast.Constant) and isinstance(item.value, str):
            found.append((item.lineno, item.value))
        else:
            found.append((item.lineno, Computed(field)))
    return found
