"""The package reads top to bottom: no module imports, even inside a function, a module that
imports it back (imports under `if TYPE_CHECKING:` excepted: they never run)."""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter

from helpers import ROOT

PACKAGE = ROOT / "scripts" / "releasekb"


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def package_imports(source: str) -> set[str]:
    """The package's modules one module imports, wherever the import statement is."""
    imported: set[str] = set()
    skipped: set[int] = set()
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _is_type_checking(node):
            skipped |= {id(inner) for stmt in node.body for inner in ast.walk(stmt)}
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[1] for alias in node.names if alias.name.startswith("releasekb.")}
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "releasekb":
                imported |= {alias.name for alias in node.names}
            elif node.module.startswith("releasekb."):
                imported.add(node.module.split(".")[1])
    return imported


def import_graph() -> dict[str, set[str]]:
    return {
        path.stem: package_imports(path.read_text(encoding="utf-8")) - {path.stem}
        for path in sorted(PACKAGE.glob("*.py"))
        if path.stem != "__init__"
    }


def test_the_package_has_no_import_cycle():
    graph = import_graph()
    try:
        list(TopologicalSorter(graph).static_order())
    except CycleError as error:
        raise AssertionError(f"import cycle: {' -> '.join(error.args[1])}") from None


def test_the_cycle_check_finds_a_function_level_import_and_ignores_type_checking():
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from releasekb.site.render import Page\n"
        "def f():\n    from releasekb.kb.catalog import build_catalog\n    import releasekb.kb.urls\n"
        "from releasekb import api, svg\n"
    )
    assert package_imports(source) == {"catalog", "urls", "api", "svg"}
    graph = {"a": {"b"}, "b": {"a"}}
    try:
        list(TopologicalSorter(graph).static_order())
    except CycleError:
        pass
    else:
        raise AssertionError("a two-module cycle went unnoticed")


def test_validation_never_builds_the_catalog_or_lists_pages():
    """The catalog is built once per command, after validation (pipeline.py): a rule that needs it
    runs there. So the validation stage does not import the stages above it."""
    graph = import_graph()
    below_catalog = {"loader", "model", "dataset", "rules", "translations", "validate"}
    for module in below_catalog:
        assert not graph[module] & {"catalog", "pages", "render", "generate", "build", "pipeline"}, module


def imported_modules(source: str) -> set[str]:
    """The top-level modules a test module imports (`from helpers import x` -> 'helpers')."""
    imported: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            imported.add(node.module.split(".")[0])
    return imported


def test_test_modules_share_helpers_and_fixtures_only_through_helpers_and_conftest():
    """One helpers layer: plain functions in helpers.py, fixtures in conftest.py (which pytest
    hands to every test). A test module importing another, or conftest, grows a second layer."""
    tests = ROOT / "tests"
    crossing = {
        path.name: sorted(
            name
            for name in imported_modules(path.read_text(encoding="utf-8"))
            if name.startswith("test_") or name == "conftest"
        )
        for path in sorted(tests.glob("*.py"))
    }
    assert {name: found for name, found in crossing.items() if found} == {}
    assert imported_modules("from conftest import x\nimport test_serve\nfrom helpers import y\n") == {
        "conftest",
        "test_serve",
        "helpers",
    }
