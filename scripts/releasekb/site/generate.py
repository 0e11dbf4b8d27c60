"""Stage 5, generate: write the rendered pages into each language's docs tree, once per data version.

Pages are real files under docs/<lang>/, so every MkDocs-compatible engine (MkDocs,
ProperDocs) builds them as hand-written pages. Only the paths listed in urls.GENERATED_PATHS
are ours: .gitignore lists the same paths, a test checks they agree, and files there that no
longer correspond to data are removed. Files are rewritten only when their text changes,
so MkDocs' dirty checks and file watchers see only real changes.

Each language's build (build.py) generates its own pages in its own process, from the data files
its builder read once for every language, and gives the plugin what it generated
(plugin.build_with); what the process generated last, for the next build, is its LanguagePages. The
functions reading a build's MkDocs configuration are here too.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from releasekb.common.locales import team_signature
from releasekb.kb.catalog import Catalog
from releasekb.kb.dataset import ValidatedData
from releasekb.kb.pages import pages
from releasekb.kb.pipeline import KnowledgeBase, load_knowledge_base
from releasekb.kb.urls import FILTER_TEXT_FILE, GENERATED_PATHS
from releasekb.kb.validate import DataFiles, LoadedReleases
from releasekb.site.confined import LinkInTheWay, files_under, no_follow, refuse_links
from releasekb.site.incremental import changed_references, cross_references, pages_to_render, what_changed
from releasekb.site.render import Rows, render_pages
from releasekb.site.rendered_page import RenderedPage


def generated_roots(docs_dir: Path, languages: Iterable[str]) -> list[Path]:
    return [docs_dir / lang / path for lang in languages for path in GENERATED_PATHS]


def write_pages(pages: dict[str, str], docs_dir: Path, languages: Iterable[str]) -> list[str]:
    """Write pages (paths relative to docs_dir); delete generated files of these languages
    not among them. Returns the paths that changed."""
    changed = []
    wanted = {(docs_dir / path).resolve() for path in pages}
    for root in generated_roots(docs_dir, languages):
        # a link there (a cloned repository can hold one) is an error, never followed (confined.py)
        for stale in (f for f in files_under(root, docs_dir) if f.is_file() and f.resolve() not in wanted):
            stale.unlink()
            changed.append(str(stale.relative_to(docs_dir)))
    _make_folders((docs_dir / path for path in pages), docs_dir)
    changed += [path for path, text in pages.items() if _write_if_changed(docs_dir / path, text)]
    return changed


@dataclass(frozen=True)
class _Written:
    """One language's pages as this process last wrote them, and what they were made from."""

    data: ValidatedData
    paths: tuple[str, ...]  # every page's path, in the order of pages.pages
    links: dict[str, frozenset[str]]  # {page path: the page paths it links to}
    rendered: dict[str, RenderedPage]  # {page path: the page as rendered}
    references: dict[tuple[str, str], tuple]  # each page's references to others (incremental.cross_references)


def generate_language(
    knowledge_base: KnowledgeBase, docs_dir: Path, site_url: str, lang: str, written: _Written | None, rows: Rows
) -> tuple[frozenset[str], _Written]:
    """Write one language's pages: after an edit, only the pages that show what it changed
    (incremental.py), else all of them. Returns every page's path and what was written.
    rows: the overviews' rows of the render before, for the pages written after an edit."""
    catalog = knowledge_base.catalog
    page_list = pages(catalog)
    paths = tuple(page.path for page in page_list)
    change = None if written is None or written.paths != paths else what_changed(written.data, knowledge_base.data)
    references = cross_references(catalog)
    if change is not None:
        change = change.with_references(changed_references(written.references, references))
    if change is None:
        rows.clear()
        rendered = render_pages(catalog, lang, site_url, rows=rows)
        write_pages({f"{lang}/{path}": text for path, text in rendered.texts.items()}, docs_dir, [lang])
        links, made = rendered.links, rendered.pages
    else:
        only = pages_to_render(page_list, change, written.links)
        rows.forget(change.features | change.pages, change.shown_elsewhere)
        rendered = render_pages(catalog, lang, site_url, only=only, rows=rows)
        _make_folders((docs_dir / lang / path for path in rendered.texts), docs_dir)
        for path, text in rendered.texts.items():
            _write_if_changed(docs_dir / lang / path, text)
        links, made = {**written.links, **rendered.links}, {**written.rendered, **rendered.pages}
    return frozenset(paths) | {FILTER_TEXT_FILE}, _Written(knowledge_base.data, paths, links, made, references)


def _make_folders(files: Iterable[Path], docs_dir: Path) -> None:
    """The folders of these files, each made once: a folder per page cost a system call each,
    thousands of them at scale, for the few folders the pages are in. None is made or used
    through a link (confined.py)."""
    for folder in {file.parent for file in files}:
        refuse_links(folder, docs_dir)
        folder.mkdir(parents=True, exist_ok=True)


def _write_if_changed(target: Path, text: str) -> bool:
    """Write text to target (its folder exists) unless it holds that text already; never
    through a link at target (LinkInTheWay)."""
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and stat.S_ISLNK(mode):
        raise LinkInTheWay(target, target.parent)
    if mode is not None and stat.S_ISREG(mode) and target.read_text(encoding="utf-8") == text:
        return False
    with open(target, "w", encoding="utf-8", opener=no_follow) as page:
        page.write(text)
    return True


@dataclass(frozen=True)
class Target:
    """Where one language's pages go: a build generates for one target at a time."""

    data_dir: str
    docs_root: str
    site_url: str
    lang: str


@dataclass(frozen=True)
class Generated:
    """What a language build needs to know about the pages generated for it."""

    target: Target
    fingerprint: str  # of the data files it was generated from
    strings: tuple  # the team's interface strings it was generated with (locales.team_signature)
    pages: frozenset[str]  # paths inside a language tree; every language has the same ones
    dropped_pages: bool = False  # pages generated before in this process are gone now
    catalog: Catalog | None = field(default=None, compare=False)  # for the machine-readable outputs
    # {path inside the language tree: the page object}: what the engine shows (plugin.GeneratedPage)
    rendered: dict[str, RenderedPage] = field(default_factory=dict, compare=False)


class LanguagePages:
    """The pages one process last generated, and what they were made from, for its next build's:
    a rebuild under `serve` (or `mkdocs serve`) writes only the pages whose text changed, and
    nothing when the data did not. Held by the process's session (session.py)."""

    def __init__(self, releases: LoadedReleases | None = None):
        self.releases = releases if releases is not None else LoadedReleases()
        self._generated: Generated | None = None
        self._written: _Written | None = None
        self._rows = Rows()

    def generate_once(self, data: DataFiles, docs_root: Path, site_url: str, lang: str) -> Generated:
        """Validate and write one language's pages unless this data version is already written
        by this process. Raises DataError on invalid data."""
        target = Target(str(data.folder), str(docs_root), site_url, lang)
        before = self._generated
        strings = team_signature(data.folder)
        if before is None or (before.target, before.fingerprint, before.strings) != (target, data.fingerprint, strings):
            knowledge_base = load_knowledge_base(data, self.releases)
            same_target = before is not None and before.target == target
            # an edited string may be on any page: all of them are rendered again
            written = self._written if same_target and before.strings == strings else None
            tree, self._written = generate_language(knowledge_base, docs_root, site_url, lang, written, self._rows)
            dropped = same_target and not before.pages <= tree
            catalog, rendered = knowledge_base.catalog, self._written.rendered
            self._generated = Generated(target, data.fingerprint, strings, tree, dropped, catalog, rendered)
        return self._generated


def build_language(config) -> str:
    """The language of one MkDocs build: its Material `theme.language`."""
    return config.theme["language"]


def docs_root(config) -> Path:
    """docs/, the parent of every language's docs_dir (docs/en, docs/zh)."""
    return Path(config.docs_dir).parent
