"""Stage 5, generate: one language's pages as objects, in memory, once per data version.

The pages are RenderedPage objects (rendered_page.py), which the plugin gives MkDocs as generated
files (mkdocs_pages.GeneratedFile): a build writes nothing into docs/. The standalone Markdown
pages, for an engine that does not run the plugin, are written only by `releasekb export`
(markdown_export.py).

Each language's build (build.py) generates its own pages in its own process, from the data files
its builder read once for every language, and gives the plugin what it generated
(plugin.build_with); what the process generated last, for the next build, is its LanguagePages:
after an edit under `serve` only the pages that show what changed are rendered again
(incremental.py), and only the pages whose object changed are built again (MkDocs' dirty build,
GeneratedFile.is_modified). The functions reading a build's MkDocs configuration are here too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from releasekb.common import collector
from releasekb.common.locales import team_signature
from releasekb.kb.catalog import Catalog
from releasekb.kb.dataset import ValidatedData
from releasekb.kb.pages import pages
from releasekb.kb.pipeline import KnowledgeBase, load_knowledge_base
from releasekb.kb.urls import FILTER_TEXT_FILE
from releasekb.kb.validate import DataFiles, LoadedReleases
from releasekb.site.incremental import changed_references, cross_references, pages_to_render, what_changed
from releasekb.site.render import Rows, export_texts, render_pages
from releasekb.site.rendered_page import RenderedPage


@dataclass(frozen=True)
class _Generation:
    """One language's pages as this process last generated them, and what they were made from."""

    data: ValidatedData
    paths: tuple[str, ...]  # every page's path, in the order of pages.pages
    links: dict[str, frozenset[str]]  # {page path: the page paths it links to}
    rendered: dict[str, RenderedPage]  # {page path: the page as rendered}
    references: dict[tuple[str, str], tuple]  # each page's references to others (incremental.cross_references)
    filter_text: str  # the features index's FILTER_TEXT_FILE


def generate_language(
    knowledge_base: KnowledgeBase, site_url: str, lang: str, last: _Generation | None, rows: Rows
) -> _Generation:
    """One language's pages: after an edit, only the pages that show what it changed are rendered
    again (incremental.py), else all of them. rows: the overviews' rows of the render before,
    for the pages rendered after an edit."""
    catalog = knowledge_base.catalog
    page_list = pages(catalog)
    paths = tuple(page.path for page in page_list)
    change = None if last is None or last.paths != paths else what_changed(last.data, knowledge_base.data)
    references = cross_references(catalog)
    if change is not None:
        change = change.with_references(changed_references(last.references, references))
    if change is None:
        rows.clear()
        rendered = render_pages(catalog, lang, site_url, rows=rows)
        links, made = rendered.links, rendered.pages
    else:
        only = pages_to_render(page_list, change, last.links)
        rows.forget(change.features | change.pages, change.shown_elsewhere)
        rendered = render_pages(catalog, lang, site_url, only=only, rows=rows)
        links, made = {**last.links, **rendered.links}, {**last.rendered, **rendered.pages}
    return _Generation(knowledge_base.data, paths, links, made, references, rendered.filter_text)


@dataclass(frozen=True)
class Target:
    """What one language's pages are made for: a build generates for one target at a time."""

    data_dir: str
    site_url: str
    lang: str


@dataclass(frozen=True)
class Generated:
    """What a language build needs to know about the pages generated for it."""

    target: Target
    fingerprint: str  # of the data files it was generated from
    strings: tuple  # the team's interface strings it was generated with (locales.team_signature)
    pages: frozenset[str]  # paths inside a language tree, FILTER_TEXT_FILE's too; every language has the same
    dropped_pages: bool = False  # pages generated before in this process are gone now
    catalog: Catalog | None = field(default=None, compare=False)  # for the machine-readable outputs
    # {path inside the language tree: the page object}: what the engine shows (plugin.GeneratedPage)
    rendered: dict[str, RenderedPage] = field(default_factory=dict, compare=False)
    filter_text: str = field(default="", compare=False)  # FILTER_TEXT_FILE's text

    def texts(self) -> dict[str, str]:
        """{path inside the language tree: text} of the standalone export (markdown_export.py),
        FILTER_TEXT_FILE included."""
        return export_texts(self.rendered, self.filter_text)


class LanguagePages:
    """The pages one process last generated, and what they were made from, for its next build's:
    a rebuild under `serve` (or `mkdocs serve`) renders only the pages an edit changed, and
    nothing when the data did not; its dirty build builds only the pages whose object changed
    since the last build that was kept (unbuilt). Held by the process's session (session.py)."""

    def __init__(self, releases: LoadedReleases | None = None):
        self.releases = releases if releases is not None else LoadedReleases()
        self._generated: Generated | None = None
        self._last: _Generation | None = None
        self._rows = Rows()
        self._unbuilt: set[str] = set()

    def generate_once(self, data: DataFiles, site_url: str, lang: str) -> Generated:
        """Validate and render one language's pages unless this data version is rendered already
        by this process. Raises DataError on invalid data."""
        target = Target(str(data.folder), site_url, lang)
        before = self._generated
        strings = team_signature(data.folder)
        if before is None or (before.target, before.fingerprint, before.strings) != (target, data.fingerprint, strings):
            with collector.paused():  # the catalog and the pages: kept, and too many to scan (collector.py)
                self._generate(data, target, before, strings)
        return self._generated

    def _generate(self, data: DataFiles, target: Target, before: Generated | None, strings: tuple) -> None:
        knowledge_base = load_knowledge_base(data, self.releases)
        same_target = before is not None and before.target == target
        # an edited string may be on any page: all of them are rendered again
        last = self._last if same_target and before.strings == strings else None
        earlier = self._last if same_target else None
        self._last = generate_language(knowledge_base, target.site_url, target.lang, last, self._rows)
        self._note_changes(earlier, self._last)
        tree = frozenset(self._last.paths) | {FILTER_TEXT_FILE}
        dropped = same_target and not before.pages <= tree
        catalog, rendered, filter_text = knowledge_base.catalog, self._last.rendered, self._last.filter_text
        self._generated = Generated(target, data.fingerprint, strings, tree, dropped, catalog, rendered, filter_text)

    def _note_changes(self, earlier: _Generation | None, now: _Generation) -> None:
        """The pages whose object differs from the one generated before (every page, the first
        time), added to those a build has not built yet."""
        before = earlier.rendered if earlier is not None else {}
        # `is` first: the pages an edit did not render again are the very same objects
        self._unbuilt.update(path for path, page in now.rendered.items() if not _same(before.get(path), page))
        if earlier is None or earlier.filter_text != now.filter_text:
            self._unbuilt.add(FILTER_TEXT_FILE)

    def is_unbuilt(self, path: str) -> bool:
        """Whether the page at path changed since the last build of this process that was kept."""
        return path in self._unbuilt

    def built(self) -> None:
        """The pages generated last are in the site now: a build of them was kept."""
        self._unbuilt.clear()


def _same(before: RenderedPage | None, now: RenderedPage) -> bool:
    return before is now or before == now


def build_language(config) -> str:
    """The language of one MkDocs build: its Material `theme.language`."""
    return config.theme["language"]


def docs_root(config) -> Path:
    """docs/, the parent of every language's docs_dir (docs/en, docs/zh)."""
    return Path(config.docs_dir).parent
