"""The one place that meets the internals of Material's search plugin, and why it must.

Material shows its search box only while its search plugin is on (partials/header.html asks
whether `material/search` is in `config.plugins`), and that plugin always builds a lunr index of
every page: its on_page_context calls `self.search_index.add_entry_from_context(page)`, which
parses the page's HTML, and its on_post_build writes what
`self.search_index.generate_search_index(previous)` returns to search/search_index.json. It has no
setting that keeps the box and skips the index. This site's pages are indexed by Pagefind
(search.py), fed by this plugin's own pages; Material's index would be work thrown away (a plain
MkDocs baseline pays seconds for it at 80 releases) and a second copy of every page for readers.

So the plugin's index is replaced by a SettingsOnlyIndex, before each build (after Material's
on_config has made its own): it indexes nothing and gives, as the index file, the settings the
search worker (theme/assets/releasekb-search.js) reads where Material's worker reads its index.
That is one public attribute of another plugin, set in one place;
tests/test_material_search.py fails, naming this module, if an installed Material no longer
calls the two methods it has.
"""

from __future__ import annotations

import json
import sys

from mkdocs.config.defaults import MkDocsConfig

# What Material's highlighter and worker read from the index file's `config` (its search settings).
MATERIAL_SETTINGS = ("lang", "separator", "pipeline", "fields")


def import_material_search() -> None:
    """Import Material's search plugin without jieba, even where jieba is installed.

    Its module imports jieba when it can, only to segment Chinese in the lunr index it builds;
    here that index is a SettingsOnlyIndex, so jieba would never be called. Importing it costs
    about 0.2 s of CPU in each language's worker of every build and `serve` (jieba loads
    pkg_resources) wherever `releasekb[bench]` is installed. So the import of jieba fails for
    that one module (Material's own fallback: no segmentation), and jieba stays importable for
    anything else."""
    if "material.plugins.search.plugin" in sys.modules or "jieba" in sys.modules:
        return  # imported already (jieba, if it is loaded, costs nothing more)
    sys.modules["jieba"] = None  # `import jieba` raises ImportError while this is there
    try:
        import material.plugins.search.plugin  # noqa: F401
    finally:
        del sys.modules["jieba"]


def material_search(config: MkDocsConfig):
    """Material's search plugin when it is on (the search box shows only then), else None."""
    material = config.plugins.get("material/search")
    return material if material is not None and material.config.enabled else None


class SettingsOnlyIndex:
    """What Material's search plugin takes for its index: the two methods it calls."""

    def __init__(self, material_settings: dict, settings: dict):
        self.material_settings = material_settings
        self.settings = settings

    def add_entry_from_context(self, page) -> None:
        """Nothing: Pagefind indexes the pages (search.PagefindFeed)."""

    def generate_search_index(self, previous=None) -> str:
        """The file Material's search box fetches before it starts its worker: Material's settings
        and the worker's, no pages."""
        config = {**self.material_settings, "releasekb": self.settings}
        return json.dumps({"config": config, "docs": []}, ensure_ascii=False, separators=(",", ":"))


def answer_with_pagefind(config: MkDocsConfig, settings: dict) -> bool:
    """Give Material's search plugin a SettingsOnlyIndex for this build; False when its search is
    off (no box: nothing to index)."""
    material = material_search(config)
    if material is None:
        return False
    material_settings = {key: material.config[key] for key in MATERIAL_SETTINGS}
    material.search_index = SettingsOnlyIndex(material_settings, settings)
    return True
