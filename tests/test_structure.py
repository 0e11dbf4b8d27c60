"""The package reads top to bottom: one sub-package per product, each importing only the packages
below it (MAY_IMPORT), and no module importing, even inside a function, a module that imports it
back (imports under `if TYPE_CHECKING:` excepted: they never run)."""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter

import pytest

from helpers import ROOT

PACKAGE = ROOT / "scripts" / "releasekb"
# The packages each package's modules may import besides their own. Every arrow points down:
# common is below everything, the knowledge base below the products, and only the command line
# (cli.py at the top, and commands/, its one module per command, under it) imports the bench.
# The site publishes check's report schema through kb.
MAY_IMPORT = {
    "common": set(),
    "kb": {"common"},
    "site": {"common", "kb"},
    "check": {"common", "kb"},
    "serve": {"common", "kb", "site"},
    "bench": {"common", "kb", "site"},
    "commands": {"common", "kb", "site", "check", "serve", "bench"},
    "cli": {"common", "kb", "site", "check", "serve", "bench", "commands"},
    "__init__": set(),  # releasekb/__init__.py, the package's docstring
}


def module_name(path) -> str:
    """'kb.catalog' for scripts/releasekb/kb/catalog.py, 'kb' for its package's __init__.py,
    'cli' for releasekb/cli.py."""
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    if parts[-1] == "__init__" and len(parts) > 1:
        parts = parts[:-1]
    return ".".join(parts)


MODULES = {module_name(path) for path in PACKAGE.rglob("*.py")}


def package_of(module: str) -> str:
    """The sub-package a module belongs to; a top-level module (cli) is its own."""
    return module.split(".")[0]


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imported_from(node: ast.ImportFrom, package: str) -> set[str]:
    """The releasekb modules `from X import a, b` imports: X.a where that is a module, else X.
    A relative import is read from `package`, the importing module's package."""
    if node.level:
        base = package.split(".")[: len(package.split(".")) - node.level + 1] if package else []
        module = ".".join([*base, *([node.module] if node.module else [])])
    elif node.module == "releasekb" or (node.module or "").startswith("releasekb."):
        module = node.module.removeprefix("releasekb").removeprefix(".")
    else:
        return set()
    named = {f"{module}.{alias.name}".lstrip(".") for alias in node.names}
    return {name for name in named if name in MODULES} or {module}


def package_imports(source: str, package: str = "") -> set[str]:
    """The package's modules (dotted below releasekb: 'kb.catalog') one module imports, wherever
    the import statement is; `package` is the importing module's package, for relative imports."""
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
            imported |= {
                alias.name.removeprefix("releasekb.") for alias in node.names if alias.name.startswith("releasekb.")
            }
        elif isinstance(node, ast.ImportFrom):
            imported |= _imported_from(node, package)
    return imported - {""}


def import_graph() -> dict[str, set[str]]:
    graph = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = module_name(path)
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        graph[module] = package_imports(path.read_text(encoding="utf-8"), package) - {module}
    return graph


def package_violations(graph: dict[str, set[str]]) -> list[str]:
    """'kb.catalog imports site.render' for every import MAY_IMPORT does not allow."""
    return sorted(
        f"{module} imports {target}"
        for module, targets in graph.items()
        for target in targets
        if package_of(target) != package_of(module) and package_of(target) not in MAY_IMPORT[package_of(module)]
    )


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
        "from releasekb.site import publish, svg\n"
    )
    assert package_imports(source) == {"kb.catalog", "kb.urls", "site.publish", "site.svg"}
    graph = {"a": {"b"}, "b": {"a"}}
    try:
        list(TopologicalSorter(graph).static_order())
    except CycleError:
        pass
    else:
        raise AssertionError("a two-module cycle went unnoticed")


def test_every_module_is_in_a_package_of_the_rules_and_the_rules_point_down():
    assert {package_of(module) for module in import_graph()} == set(MAY_IMPORT)
    list(TopologicalSorter(MAY_IMPORT).static_order())  # raises CycleError on an arrow up


def test_every_package_imports_only_the_packages_below_it():
    """common imports no other package; kb only common; check never the site and the site never
    check; nothing but the command line imports the bench, and nothing imports the command line."""
    assert package_violations(import_graph()) == []


@pytest.mark.parametrize(
    ("module", "source", "reported"),
    [
        ("kb.catalog", "from releasekb.site import render\n", "kb.catalog imports site.render"),
        ("kb.pages", "from ..site.render import render_all\n", "kb.pages imports site.render"),
        ("common.i18n", "def f():\n    import releasekb.kb.urls\n", "common.i18n imports kb.urls"),
        ("check.analysis", "from releasekb.site.publish import api_files\n", "check.analysis imports site.publish"),
        ("site.publish", "from releasekb.check import formats\n", "site.publish imports check.formats"),
        ("site.build", "from releasekb.bench.measure import command_env\n", "site.build imports bench.measure"),
        ("serve.server", "from releasekb.cli import main\n", "serve.server imports cli"),
        ("kb.pipeline", "from releasekb.commands import validate\n", "kb.pipeline imports commands.validate"),
    ],
)
def test_a_wrong_import_is_reported(module, source, reported):
    graph = import_graph()
    graph[module] = graph[module] | package_imports(source, module.rpartition(".")[0])
    assert package_violations(graph) == [reported]


def test_validation_never_builds_the_catalog_or_lists_pages():
    """The catalog is built once per command, after validation (kb/pipeline.py): a rule that needs
    it runs there. So the validation stage does not import the stages above it."""
    graph = import_graph()
    below_catalog = {"kb.loader", "kb.model", "kb.dataset", "kb.rules", "kb.translations", "kb.validate"}
    above = {"kb.catalog", "kb.pages", "site.render", "site.generate", "site.build", "kb.pipeline"}
    for module in below_catalog:
        assert not graph[module] & above, module


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
