"""The MkDocs plugin `releasekb` (entry point `mkdocs.plugins`): the glue between MkDocs and the pipeline.

    plugins:
      - search
      - releasekb                    # the whole site is the knowledge base (`releasekb init`)
      - releasekb: {data: releases, path: release-notes}   # a section of an existing site

**The whole site** (`path` empty, this repository's and every `releasekb init` site): each
language of project.yaml's `languages` is its own MkDocs build of the one mkdocs.yml (`releasekb
build` sets each language's own settings: configure_language) with its own search index. The
plugin brings the package's theme overrides and assets (theme/), validates the data and writes
the generated pages of the build's language into docs/<lang>/ before MkDocs collects files, takes
the site's names from project.yaml, answers the search box from Pagefind (search.py), points the
language switcher and the sitemap at the same page in the other languages, and writes the
machine-readable outputs (publish.py). The pages are real files, so an engine that reads
mkdocs.yml without running plugins builds the same pages (their export: rendered_page.RenderedPage.markdown).

**A section of an existing site** (`path: release-notes`): the pages of the site's language
(`theme.language`) under that prefix, held in memory (MkDocs 1.6's generated files): nothing is
written into the site's docs, and its name, theme, navigation, search and pages stay its own.
Only the plugin's own pages get its stylesheet and script.

The two modes are two classes over one base (plugin_modes.py: Mode, WholeSite, Section), which the
plugin, the one entry point, chooses by its typed options (plugin_config.py: ReleaseKBConfig,
`path`) and hands MkDocs' events to. The generated pages reach MkDocs as page objects
(mkdocs_pages.py: GeneratedPage); each language's settings are language_config.py's.
The state of a build lives on the mode, as in Material's plugins on the plugin; what a process keeps
between its builds is its Session (session.py), which a worker of `releasekb build` and `serve`
gives the plugin with the pages it generated before the build started (build_with), and which
the plugin holds itself under a plain `mkdocs build` or `mkdocs serve`, where it reads the data
and generates the pages itself.
"""

from __future__ import annotations

import jinja2
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from releasekb.site.generate import Generated
from releasekb.site.plugin_config import ReleaseKBConfig
from releasekb.site.plugin_modes import Mode, Section, WholeSite, require_local_assets
from releasekb.site.session import Session


class ReleaseKBPlugin(BasePlugin[ReleaseKBConfig]):
    """The entry point: one plugin name, `releasekb`, for both modes. Which one a build is in
    is known once its options are read (`path`), so the plugin holds its mode (WholeSite or
    Section) and hands each MkDocs event to it; the mode is kept across `mkdocs serve`'s
    rebuilds while `path` stays the same."""

    def __init__(self):
        self.session = Session()  # this process's; a language worker gives the plugin its own
        self.mode: Mode | None = None
        self.given: Generated | None = None  # the pages a language worker generated for its next build

    def build_with(self, session: Session, generated: Generated) -> None:
        """A language worker's build (build.py): its session, and the pages it has generated for
        this build from the data as its builder read them, which the build uses as they are."""
        self.session = session
        self.given = generated

    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Nothing to do: defined so that MkDocs keeps this instance, and its session, across
        `mkdocs serve`'s rebuilds (MkDocs 1.4+), as a language worker keeps its own."""

    @event_priority(100)  # before the other plugins read the configuration
    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        section = self.config.path.strip("/")  # checked by _SectionPath
        mode = Section if section else WholeSite
        if type(self.mode) is not mode or self.mode.section != section:
            self.mode = mode(self, section)
        self.mode.on_config(config)
        return config

    def on_pre_build(self, config: MkDocsConfig) -> None:
        self.mode.on_pre_build(config)

    # After the other plugins' on_files (and hooks'), which may add pages (mkdocs-gen-files): a
    # page of theirs at a path of ours is then seen, and refused, rather than silently replaced.
    @event_priority(-100)
    def on_files(self, files: Files, config: MkDocsConfig) -> Files:
        files = self.mode.on_files(files, config)
        require_local_assets(files, config)
        return files

    def on_nav(self, nav, config: MkDocsConfig, files: Files):
        self.mode.on_nav(nav, config)
        return nav

    def on_env(self, env: jinja2.Environment, config: MkDocsConfig, files: Files) -> jinja2.Environment:
        self.mode.on_env(env, config, files)
        return env

    # Last, so that the search indexes a page's HTML as every other plugin left it.
    @event_priority(-100)
    def on_page_content(self, html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        self.mode.on_page_content(html, page)
        return html

    def on_page_context(self, context: dict, page: Page, config: MkDocsConfig, nav) -> dict:
        self.mode.on_page_context(page, config, nav)
        return context

    def on_post_page(self, output: str, page: Page, config: MkDocsConfig) -> str:
        return self.mode.on_post_page(output, page)

    def on_post_build(self, config: MkDocsConfig) -> None:
        self.mode.on_post_build(config)

    def name_in(self, config: MkDocsConfig) -> str:
        """The name MkDocs gives this plugin (a generated file's `generated_by`)."""
        return next((name for name, plugin in config.plugins.items() if plugin is self), "releasekb")
