"""Which MkDocs-compatible engine builds the site: MkDocs 1.6 or ProperDocs, its maintained fork.

The pages are files under docs/ (HTML inside .md files) and the glue (site.py,
mkdocs_hook.py) imports `mkdocs.*`, the API both engines share. Choosing ProperDocs imports
its own `properdocs.replacement` module, which redirects every later `mkdocs.*` import (ours,
Material's) to `properdocs.*`: the same mechanism ProperDocs' own command line uses. This is
the one place that names the engines; it must run before anything imports `mkdocs`.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import sys

ENGINES = ("mkdocs", "properdocs")
AUTO = "auto"


class EngineError(Exception):
    pass


def installed(name: str) -> bool:
    return importlib.util.find_spec(name) is not None


def select(name: str = AUTO) -> str:
    """Make `mkdocs.*` imports resolve to the engine `name` (auto: MkDocs when installed, else
    ProperDocs) and return the engine chosen. Raises EngineError when it is not installed."""
    if name == AUTO:
        name = next((engine for engine in ENGINES if installed(engine)), ENGINES[0])
    if name not in ENGINES:
        raise EngineError(f"unknown engine '{name}' (one of {', '.join(ENGINES)})")
    if not installed(name):
        raise EngineError(f"the engine '{name}' is not installed (pip install {name})")
    if name == "properdocs":
        loaded = sys.modules.get("mkdocs.config")
        if loaded is not None and not loaded.__name__.startswith("properdocs"):
            raise EngineError("MkDocs was already imported in this process; choose the engine first")
        importlib.import_module("properdocs.replacement")
        # As ProperDocs' command line does: plugins and themes (Material) log to "mkdocs.*";
        # under "properdocs" their warnings are shown and count in strict mode.
        legacy = logging.getLogger("mkdocs")
        legacy.parent, legacy.propagate = logging.getLogger("properdocs"), True
        legacy.setLevel(logging.NOTSET)
    return name
