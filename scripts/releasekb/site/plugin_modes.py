"""The plugin's two modes (plugin.py chooses one by its `path` option and hands it MkDocs' events):
the whole site (WholeSite) and a section of a team's site (Section), over one base (Mode). The
state of a build lives on the mode, as in Material's plugins; what a process keeps between its
builds is its Session (session.py)."""

from __future__ import annotations

import functools
import posixpath
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urljoin

import jinja2
from markupsafe import Markup
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.pages import Page
from mkdocs.utils import get_markdown_title, get_relative_url
from mkdocs.utils import meta as markdown_meta

from releasekb.common.i18n import has_interface_strings, interface_strings, known_languages, url_prefix
from releasekb.common.locales import team_signature
from releasekb.common.problems import DataError
from releasekb.common.safe_text import visible
from releasekb.kb.pipeline import load_knowledge_base
from releasekb.kb.urls import GENERATED_PATHS, relative_site_url
from releasekb.kb.validate import read_files
from releasekb.site import level_colours, publish, search
from releasekb.site.generate import build_language, docs_root
from releasekb.site.language_config import alternates, refuse_static_i18n
from releasekb.site.material_search import answer_with_pagefind, material_search
from releasekb.site.mkdocs_pages import GeneratedFile, GeneratedPage, navigation_titles
from releasekb.site.plugin_config import data_dir_of
from releasekb.site.render import (
    bytecode_cache,
    index_titles,
    navigation_kinds,
    not_found_page,
    render_pages,
)
from releasekb.site.rendered_page import RenderedPage
from releasekb.site.session import Session
from releasekb.site.shared_partials import RelativeLink, SharedPartials
from releasekb.site.theme_language import ThemeStrings

if TYPE_CHECKING:
    from releasekb.site.plugin import ReleaseKBPlugin

# The package's theme overrides (main.html, 404.html, the search box, the sitemap) and the
# assets every page of a whole site loads: MkDocs copies the files of a theme folder into the site.
THEME_DIR = Path(__file__).parent / "theme"
STYLESHEET = "assets/releasekb.css"
SCRIPT = "assets/releasekb.js"


class Mode:
    """What both modes do: check the configuration, read the generated pages' front matter, give
    MkDocs their HTML, and mark the tab of the page being rendered. The state of a build lives
    here, as in Material's plugins; what lasts longer is the plugin's session."""

    def __init__(self, plugin: ReleaseKBPlugin, section: str):
        self.plugin = plugin
        self.section = section  # the `path` option, without slashes ("" for the whole site)
        self.lang = ""  # the build's language (theme.language), set by on_config
        self.data_dir = Path("releases")
        self.root_url = ""  # the whole site's address (site_url before a language moves it)
        self.catalog = None
        self.html_pages: frozenset[str] = frozenset()  # generated pages of this build (src_uri)
        self.rendered: dict[str, RenderedPage] = {}  # the generated pages' objects, by src_uri
        self._section_page: Page | None = None  # the navigation's page of the page being rendered
        self._rendering_own_page = False  # whether the page being rendered is a generated one

    @property
    def session(self) -> Session:
        return self.plugin.session

    # ------------------------------------------------------------------ configuration

    def on_config(self, config: MkDocsConfig) -> None:
        if not config.use_directory_urls:
            # Every address the pages, feeds, API, inventory, redirects and the script make is a
            # directory URL (kb/urls.py: 'releases/1.7/'); with .html pages each would be a 404.
            raise PluginError(
                f"{config.config_file_path}: releasekb does not support `use_directory_urls: false`: its pages, "
                "feeds, API and permanent addresses are directory URLs (releases/1.7/), which would all be "
                "broken links; remove the setting (or set it to true)"
            )
        refuse_static_i18n(config)
        self.lang = build_language(config)
        self.data_dir = data_dir_of(config)
        if not has_interface_strings(self.lang, self.data_dir):
            raise PluginError(
                f"releasekb: theme.language '{visible(str(self.lang))}' has no interface strings "
                f"(one of {', '.join(known_languages(self.data_dir))})"
            )
        if not (self.data_dir / "project.yaml").is_file():
            raise PluginError(
                f"releasekb: no project.yaml in {self.data_dir} (set the plugin's `data:` to the data folder, "
                "or start one with `releasekb init`)"
            )
        if str(self.data_dir) not in config.watch:
            config.watch.append(str(self.data_dir))
        self.root_url = config.site_url or ""
        self.configure(config)

    def configure(self, config: MkDocsConfig) -> None:
        """This mode's pages and settings, once the shared checks have passed."""
        raise NotImplementedError

    # ------------------------------------------------------------------ files and search

    def on_pre_build(self, config: MkDocsConfig) -> None:
        pass

    def on_files(self, files: Files, config: MkDocsConfig) -> Files:
        """The site's files with this mode's pages among them."""
        raise NotImplementedError

    def make_pages(self, files: Files, config: MkDocsConfig) -> None:
        """The generated pages as GeneratedPage, given before MkDocs makes pages of the files (as
        Material's blog gives its views); a title the site's `nav` gives one stays its title."""
        titles = navigation_titles(config.nav, files)
        for uri, made in self.rendered.items():
            file = files.get_file_from_path(uri)
            if file is not None:
                GeneratedPage(titles.get(uri), file, config, made)

    def on_nav(self, nav, config: MkDocsConfig) -> None:
        """Read the navigation's pages now: a dirty build (`releasekb serve` after a data edit)
        renders only changed pages, and the navigation tabs need every tab's title."""
        for page in nav.pages:
            if page.markdown is None:
                page.read_source(config)

    # ------------------------------------------------------------------ pages

    def on_env(self, env: jinja2.Environment, config: MkDocsConfig, files: Files) -> None:
        env.filters["striptags"] = self._striptags_as_html(env.filters["striptags"])

    def _striptags_as_html(self, striptags):
        """Jinja's `striptags`, giving escaped HTML (Markup) on the plugin's pages. A page title is
        HTML (a feature named "a <b>" has the title "a &#60;b&#62;"); `striptags` decodes it
        into text, which Material prints into <title> as it is: in a section of a site, whose
        templates are the site's own, "</title><script>" in a feature's name would be markup."""

        # Not a pass_context filter: Jinja compiles a filter's call by its kind, and the compiled
        # templates are cached between builds (and versions), under the template's source only.
        def striptags_as_html(value):
            text = striptags(value)
            return Markup.escape(text) if self._rendering_own_page else text

        return striptags_as_html

    def on_page_content(self, html: str, page: Page) -> None:
        pass

    def on_page_context(self, page: Page, config: MkDocsConfig, nav) -> None:
        """The tab of this page's section."""
        self._rendering_own_page = page.file.src_uri in self.html_pages  # until on_post_page
        if page.file.src_uri in self.html_pages:
            self._section_page = _section_page_of(page, nav)
            if self._section_page is not None:
                self._section_page.active = True  # until on_post_page
                self.lead_through(page, self._section_page)

    def lead_through(self, page: Page, section_page: Page) -> None:
        """What else a page outside the navigation takes from the page of its folder, until on_post_page."""

    def on_post_page(self, output: str, page: Page) -> str:
        self._rendering_own_page = False
        if self._section_page is not None:
            self._section_page.active = False
            if page.parent is self._section_page:
                page.parent = None
            self._section_page = None
        return output

    def on_post_build(self, config: MkDocsConfig) -> None:
        raise NotImplementedError


class WholeSite(Mode):
    """The whole site is the knowledge base (`- releasekb`): each language a build of its own,
    its generated pages files of docs/<lang>/, the theme's overrides, the search by Pagefind,
    the language switcher, the 404 page in every language, and the outputs of the whole site."""

    def __init__(self, plugin: ReleaseKBPlugin, section: str):
        super().__init__(plugin, section)
        self.filter_text = ""  # the features index's FILTER_TEXT_FILE
        self._from_plugin = False  # whether the plugin generated this build's pages itself (mkdocs build)
        self._destinations: tuple = (None, {})  # (html_pages, {the address of each: its src_uri})
        self._walk: tuple = (None, [])  # (html_pages, their src_uris in the order of a walk of the docs)
        # ((languages, site address), {src_uri of a generated page: (its address, its addresses in
        # each language, its alternates)})
        self._addresses: tuple = (None, {})
        self.feed: search.PagefindFeed | None = None  # this build's search feed, when the site has a search box

    def configure(self, config: MkDocsConfig) -> None:
        lang = self.lang
        # The package's overrides, below the site's own custom_dir when it has one.
        if str(THEME_DIR) not in config.theme.dirs:
            config.theme.dirs.insert(1 if config.theme.custom_dir else 0, str(THEME_DIR))
        if STYLESHEET not in config.extra_css:
            config.extra_css.append(STYLESHEET)
        if SCRIPT not in [str(script) for script in config.extra_javascript]:
            config.extra_javascript.append(SCRIPT)
        generated = self._generate(config)
        languages = generated.catalog.languages
        if lang not in languages:
            raise PluginError(
                f"releasekb: theme.language '{visible(lang)}' is not a language of the knowledge base "
                f"({', '.join(languages)}, project.yaml `languages`)"
            )
        config.extra["alternate"] = alternates(config.extra.get("alternate"), languages, self.root_url, self.data_dir)
        config.extra["releasekb_not_found"] = not_found_page(
            self.root_url, languages, self.data_dir
        )  # the theme's 404.html
        # read by the theme's main.html: every page may show a level (a search result's badge)
        config.extra["releasekb_level_colours"] = Markup(level_colours.style_element(generated.catalog.levels.values()))
        # The product's and the site's names come from project.yaml only: another product changes
        # its data folder, not the MkDocs configurations, and gets its own names in every title.
        # Themes print both into HTML as they are (Material's header and navigation, in text and in
        # attributes: `aria-label="{{ config.site_name }}"`): they are given as escaped HTML, Markup,
        # which the templates' `| e` leaves as it is.
        strings = interface_strings(lang, self.data_dir)
        config.site_name = Markup.escape(generated.catalog.site_name[lang])
        description = strings["site_description"].format(product=generated.catalog.product_name[lang])
        config.site_description = Markup.escape(description)
        if self.root_url and lang != languages[0]:
            config.site_url = urljoin(self.root_url, url_prefix(lang, languages))  # canonical URLs under /<lang>/
        # read by the theme's main.html (the search box's settings) and 404.html (every language's)
        hints = {other: search.search_hint(generated.catalog, other) for other in languages}
        config.extra["releasekb_search"] = {
            "worker": search.worker_address(),
            "hint": hints[lang],
            "hints": hints,
            "without_js": strings["search_without_js"],
            "features": strings["nav_features"],
        }
        config.extra["releasekb_made_with"] = strings["footer_made_with"]  # the theme's copyright.html
        self.session.progress.start(lang, languages)

    def _generate(self, config: MkDocsConfig):
        """The whole site's pages of this language, made in memory (once per data version). Every
        later stage of the build uses the catalog made here, never the data files again."""
        generated, self.plugin.given = self.plugin.given, None  # for this build only
        self._from_plugin = generated is None
        try:
            if generated is None:  # a plain `mkdocs build` or `mkdocs serve`: the plugin reads the data
                data = read_files(self.data_dir)
                generated = self.session.pages.generate_once(data, self.root_url, self.lang)
        except DataError as error:
            raise _invalid_data(error) from None
        self.catalog = generated.catalog
        self.html_pages = generated.pages
        self.rendered = generated.rendered
        self.filter_text = generated.filter_text
        return generated

    def on_pre_build(self, config: MkDocsConfig) -> None:
        """Material's search plugin keeps its search box; Pagefind indexes the pages (search.py),
        and Material's own index holds only settings (material_search.py). After Material's
        on_config, which makes a new index for every build."""
        self.feed = None
        if material_search(config) is None:
            return  # no search box: nothing to index
        self.feed = self.session.indexer.feed_for(self.lang).prepare(self.catalog)
        answer_with_pagefind(config, self.feed.settings)

    def on_files(self, files: Files, config: MkDocsConfig) -> Files:
        files = self._with_generated_files(files, config)
        self.make_pages(files, config)
        self.session.progress.total(len(files.documentation_pages()))
        self.session.indexer.feed_for(self.lang).keep_only({file.src_uri for file in files.documentation_pages()})
        return files

    def _with_generated_files(self, files: Files, config: MkDocsConfig) -> Files:
        """The docs' files and the generated pages, in memory (mkdocs_pages.GeneratedFile). The
        generated folders (urls.GENERATED_PATHS) are the generator's: a file there, written by
        `releasekb export` or by an older version's builds, is replaced by the page made now, and
        one whose page is gone (a feature removed since the export) is left out."""
        name = self.plugin.name_in(config)
        kept = [file for file in files if file.generated_by != name and not _in_generated_folders(file)]
        self._refuse_pages_of_other_plugins(kept, config)  # before ours join: one would replace the other
        # In the order of a walk of the docs folder, as when the pages were files there: MkDocs lists
        # the pages in the order of the files, in its navigation (without a `nav`) and its sitemap.
        # Sorted once per set of pages: an edit under `serve` makes a new set, most often an equal one.
        if self._walk[0] != self.html_pages:
            self._walk = (self.html_pages, sorted(self.html_pages, key=_walk_order))
        pages = self.session.pages
        ours = [
            GeneratedFile.of(config, uri, self.rendered.get(uri, self.filter_text), pages.is_unbuilt(uri))
            for uri in self._walk[1]
        ]
        return Files(_in_walk_order(kept, ours))

    def _refuse_pages_of_other_plugins(self, others: list[File], config: MkDocsConfig) -> None:
        """Another plugin's page, or a hand-written one (`releases.md` beside the generated
        `releases/index.md`), at one of the generated pages' addresses would replace it, or be
        replaced (MkDocs keeps one file per path and per address). others: the site's files,
        the generated folders' left out."""
        # Once per set of pages: an edit under `serve` makes a new set, most often an equal one.
        if self._destinations[0] != self.html_pages:
            destinations = {File(uri, None, config.site_dir, True).dest_uri: uri for uri in self.html_pages}
            self._destinations = (self.html_pages, destinations)
        _refuse_files_at(self._destinations[1], others, self.plugin.name_in(config))

    def on_nav(self, nav, config: MkDocsConfig) -> None:
        super().on_nav(nav, config)
        self._name_navigation_for_not_found_page(nav, config)

    def _name_navigation_for_not_found_page(self, nav, config: MkDocsConfig) -> None:
        """The navigation's entries in every language, for the 404 page, which serves every
        language from this build's file: [[title, address], ...] in the order of its tabs."""
        root = docs_root(config)
        for language in config.extra["releasekb_not_found"]["languages"]:
            lang, entries = language["lang"], []
            for item in nav.items:
                while getattr(item, "children", None):  # a section: its first page, as Material's tabs
                    item = item.children[0]
                if not isinstance(item, Page):
                    entries.append([item.title, item.url])
                    continue
                title = self._title_in(item, lang, root)
                address = item.url if title is not None else ""
                entries.append([title or item.title, language["home"] + address])
            language["site_name"] = self.catalog.site_name[lang]
            language["navigation"] = entries

    def _title_in(self, page: Page, lang: str, root: Path) -> str | None:
        """The title, as text, of the same page in another language; None when that language has no
        such page."""
        if page.file.src_uri in self.html_pages:  # as text: a generated page's own title is HTML
            return index_titles(self.catalog, lang).get(page.file.src_uri, page.title)
        if lang == self.lang:
            return page.title
        source = root / lang / page.file.src_uri
        if not source.is_file():
            return None
        markdown, meta = markdown_meta.get_data(source.read_text(encoding="utf-8-sig"))
        return meta.get("title") or get_markdown_title(markdown) or page.title

    def on_env(self, env: jinja2.Environment, config: MkDocsConfig, files: Files) -> None:
        """Every page learns its address in each language (the same page, or that language's home
        when it has no such page), before the sitemap and the pages are rendered."""
        super().on_env(env, config, files)
        root = docs_root(config)
        languages = self.catalog.languages
        # A generated page's addresses are made of its own address, the languages and the site's
        # address only (every language has it): kept from build to build while those are the same
        # (an edit under `serve` makes one build each, of thousands of pages).
        if self._addresses[0] != (languages, self.root_url):
            self._addresses = ((languages, self.root_url), {})
        kept = self._addresses[1]
        for file in files.documentation_pages():
            generated = file.src_uri in self.html_pages
            if generated and (known := kept.get(file.src_uri)) and known[0] == file.url:
                file.page.releasekb_targets, file.page.releasekb_alternates = known[1:]
                continue
            targets = {}
            for other in languages:
                # every language has the generated pages (perhaps not written yet: the languages
                # are generated in parallel); hand-written ones exist when their file does
                exists = generated or (root / other / file.src_uri).is_file()
                targets[other] = url_prefix(other, languages) + (file.url if exists else "")
            file.page.releasekb_targets = targets
            # read by the theme's sitemap.xml
            file.page.releasekb_alternates = (
                [(lang, urljoin(self.root_url, t)) for lang, t in targets.items()] if self.root_url else []
            )
            if generated:
                kept[file.src_uri] = (file.url, targets, file.page.releasekb_alternates)

        # Compiling the theme's templates costs each build about half a second; Jinja's own cache
        # keeps their compiled code between builds (render.bytecode_cache says how it is kept apart).
        env.bytecode_cache = bytecode_cache()
        url_filter = env.filters["url"]

        @jinja2.pass_context
        def url(context, value):
            return value if isinstance(value, RelativeLink) else url_filter(context, value)

        env.filters["url"] = url
        ThemeStrings(env).install()
        SharedPartials(env, config.theme.dirs, str(THEME_DIR)).install(env)

    def on_page_content(self, html: str, page: Page) -> None:
        """The page's text for the search, from the page as rendered."""
        if self.feed is not None:
            self.feed.add(page, html)

    def on_page_context(self, page: Page, config: MkDocsConfig, nav) -> None:
        """And the language switcher and the hreflang links of this page."""
        super().on_page_context(page, config, nav)
        here = url_prefix(self.lang, self.catalog.languages) + page.url
        config.extra["alternate"] = [
            {**alternate, "link": RelativeLink(relative_site_url(here, page.releasekb_targets[alternate["lang"]]))}
            if alternate.get("lang") in page.releasekb_targets
            else alternate
            for alternate in config.extra["alternate"]
        ]

    def on_post_page(self, output: str, page: Page) -> str:
        self.session.progress.page_done()
        return super().on_post_page(output, page)

    def on_post_build(self, config: MkDocsConfig) -> None:
        """The machine-readable outputs (JSON API, badges, objects.inv, feed) and the search index
        of this language; after the page has reloaded, under `serve` (afterwards.py)."""
        site_dir = Path(config.site_dir)
        jobs = self.session.jobs
        lang = self.lang
        outputs = functools.partial(publish.write_outputs, self.catalog, lang, self.root_url, site_dir)
        if jobs.deferring():  # under `serve`: renamed into place, as the site is being served
            # The folder as an argument of its own: a whole build's moves with it (Jobs.release).
            write = functools.partial(publish.write_outputs, whole=True, give_way=jobs.give_way)
            jobs.later(f"outputs ({lang})", write, self.catalog, lang, self.root_url, site_dir)
            outputs = _nothing
        if self.feed is None:
            outputs()
        else:
            try:  # the outputs written while Pagefind starts on the first page (PagefindFeed.write_index)
                self.feed.write_index(site_dir, meanwhile=outputs)
            except RuntimeError as error:  # Pagefind's (the outputs raise OutputError or OSError)
                raise PluginError(f"search index: {error}") from None
        if self._from_plugin:  # `mkdocs serve --dirty`: the pages are in the site (build.py says so for its own)
            self.session.pages.built()


class Section(Mode):
    """A section of an existing site (`- releasekb: {path: release-notes}`): the pages of the
    site's language under that folder, in memory (MkDocs 1.6's generated files), with their own
    stylesheet, script and outputs; the site's name, theme, navigation and search stay its own."""

    def __init__(self, plugin: ReleaseKBPlugin, section: str):
        super().__init__(plugin, section)
        self.section_pages: dict[str, str] = {}  # the section's pages, {src_uri: text}
        self._level_style = ""  # the labels' colours (level_colours.py)
        self._made_from: tuple = ()  # what section_pages were rendered from

    def configure(self, config: MkDocsConfig) -> None:
        """The section's pages, rendered in memory once per data version."""
        data = read_files(self.data_dir)
        made_from = (data.fingerprint, team_signature(self.data_dir), self.section, self.lang, self._section_url())
        if made_from == self._made_from:
            return
        try:
            knowledge_base = load_knowledge_base(data, self.session.releases)
        except DataError as error:
            raise _invalid_data(error) from None
        self.catalog = knowledge_base.catalog
        if self.lang not in self.catalog.languages:
            raise PluginError(
                f"releasekb: theme.language '{visible(self.lang)}' is not a language of the knowledge base "
                f"({', '.join(self.catalog.languages)}, project.yaml `languages` in {self.data_dir})"
            )
        # Addresses inside the section have no language prefix: they are made as the default
        # language's, whatever the language of the text.
        rendered = render_pages(self.catalog, self.lang, self._section_url(), url_lang=self.catalog.default_language)
        self.section_pages = {f"{self.section}/{path}": text for path, text in rendered.texts.items()}
        self.rendered = {f"{self.section}/{path}": page for path, page in rendered.pages.items()}
        self._level_style = level_colours.style_element(self.catalog.levels.values())  # in each page's head
        self.html_pages = frozenset(uri for uri in self.section_pages if uri.endswith(".md"))
        self._made_from = made_from

    def _section_url(self) -> str:
        """The section's address: absolute with the site's, else a path from the site's root."""
        return urljoin(self.root_url or "/", self.section + "/")

    def on_files(self, files: Files, config: MkDocsConfig) -> Files:
        """The section's pages and assets, in memory; a file of the site's own at one of their
        addresses is an error naming both (the plugin never replaces a page it did not make).
        The site's search is left as it is."""
        section_files = dict(self.section_pages)
        for asset in (STYLESHEET, SCRIPT):
            section_files[f"{self.section}/{asset}"] = (THEME_DIR / asset).read_text(encoding="utf-8")
        # a site without its own `nav` lists the navigation's kinds of page (not the others:
        # thousands at scale, and Material renders the whole navigation into every page)
        nav_pages = {f"{self.section}/{kind.path}" for kind in navigation_kinds()}
        name = self.plugin.name_in(config)
        for theirs in [file for file in files if file.generated_by == name]:
            files.remove(theirs)  # ours, from the previous build under `mkdocs serve`
        ours = []
        for uri, content in section_files.items():
            # A site with its own `nav` lists what it wants; one without gets the section's indexes.
            listed = uri in nav_pages and not config.nav
            inclusion = InclusionLevel.UNDEFINED if listed else InclusionLevel.NOT_IN_NAV
            ours.append(File.generated(config, uri, content=content, inclusion=inclusion))
        # The outputs written after the build (feed, badges, objects.inv) are addresses of the
        # section too: a file of the site's own there would be overwritten.
        outputs = publish.output_paths(self.catalog, self.lang, self._section_url(), section=True)
        destinations = {file.dest_uri: file.src_uri for file in ours}
        destinations.update({f"{self.section}/{path}": f"{self.section}/{path}" for path in outputs})
        _refuse_files_at(destinations, files, name, "or set releasekb's `path:` to another folder")
        for file in ours:
            files.append(file)
        self.make_pages(files, config)
        return files

    def lead_through(self, page: Page, section_page: Page) -> None:
        if page.parent is None:
            # The host's breadcrumbs (Material's navigation.path) lead through that page.
            page.parent = section_page  # until on_post_page

    def on_post_page(self, output: str, page: Page) -> str:
        output = super().on_post_page(output, page)
        if page.file.src_uri not in self.html_pages:
            return output
        # Only the section's own pages load its stylesheet and script: the site's stay as they are.
        css, js = (get_relative_url(f"{self.section}/{asset}", page.url) for asset in (STYLESHEET, SCRIPT))
        head = f'<link rel="stylesheet" href="{css}">\n{self._level_style}\n'
        output = output.replace("</head>", head + "</head>", 1)
        return output.replace("</body>", f'<script src="{js}"></script>\n</body>', 1)

    def on_post_build(self, config: MkDocsConfig) -> None:
        """The section's machine-readable outputs (JSON API, badges, objects.inv, feed)."""
        section_dir = Path(config.site_dir) / self.section
        publish.write_outputs(self.catalog, self.lang, self._section_url(), section_dir, section=True)


def _in_generated_folders(file: File) -> bool:
    """Whether a file of the docs is in one of the generated folders (urls.GENERATED_PATHS)."""
    return file.generated_by is None and file.src_uri.split("/")[0] in GENERATED_PATHS


def _in_walk_order(docs: list[File], ours: list[File]) -> list[File]:
    """ours (in the order of a walk) inserted among the files of the docs folder (generated_by
    None, in the order of a walk) where a walk would find them; the other plugins' files keep
    their places."""
    merged, taken, after_docs = [], 0, 0
    for file in docs:
        if file.generated_by is None:
            here = _walk_order(file.src_uri)
            while taken < len(ours) and _walk_order(ours[taken].src_uri) < here:
                merged.append(ours[taken])
                taken += 1
        merged.append(file)
        if file.generated_by is None:
            after_docs = len(merged)
    return merged[:after_docs] + ours[taken:] + merged[after_docs:]  # the rest of ours after the docs' last file


def _walk_order(src_uri: str) -> tuple:
    """Where a walk of the docs folder finds a file, as MkDocs' get_files walks it: the files
    of a folder before its sub-folders', and in a folder its index page first."""
    folder, _, name = src_uri.rpartition("/")
    return tuple(folder.split("/")) if folder else (), (posixpath.splitext(name)[0] not in ("index", "README"), name)


def _section_page_of(page: Page, nav) -> Page | None:
    """For a page the navigation does not list (a release, a feature, a level: thousands of
    them, see mkdocs.yml's not_in_nav), the index page of the folder it is in, which the
    navigation lists: Material highlights the tab (and the navigation entry) of that page."""
    if any(listed is page for listed in nav.pages):
        return None
    found, folder = None, ""
    for listed in nav.pages:
        uri = listed.file.src_uri
        if posixpath.basename(uri) not in ("index.md", "README.md"):
            continue
        candidate = posixpath.dirname(uri)
        if candidate and page.file.src_uri.startswith(candidate + "/") and len(candidate) > len(folder):
            found, folder = listed, candidate
    return found


def _refuse_files_at(destinations: dict[str, str], files: Iterable[File], name: str, or_else: str = "") -> None:
    """An error naming both files when a file not made by this plugin would be written at one of
    its addresses, `destinations` ({the address in the site: the page or output there}). Compared
    by address, not by source path: with directory URLs the site's `release-notes.md` is served at
    release-notes/, where the section's `release-notes/index.md` is."""
    for theirs in sorted(files, key=lambda file: file.src_uri):
        if theirs.generated_by == name or theirs.dest_uri not in destinations:
            continue
        uri = destinations[theirs.dest_uri]
        if theirs.generated_by:
            raise _generated_by_another(theirs, uri, or_else)
        raise PluginError(
            f"releasekb: {visible(theirs.abs_src_path or theirs.src_uri)} is the site's own file, served at "
            f"{visible(theirs.dest_uri)}, where releasekb writes its {uri} (move or rename it"
            f"{', ' + or_else if or_else else ''})"
        )


def _generated_by_another(theirs: File, uri: str, or_else: str = "") -> PluginError:
    return PluginError(
        f"releasekb: the plugin '{theirs.generated_by}' adds a page at {uri}, where releasekb generates a page "
        f"of its own: one would silently replace the other (have that plugin write its page elsewhere"
        f"{', ' + or_else if or_else else ''})"
    )


def _invalid_data(error: DataError) -> PluginError:
    # Printed here because `mkdocs serve` logs only "Aborted with a BuildError!" for plugin
    # errors; the curator needs the same lines `releasekb validate` prints.
    print(error.report(), file=sys.stderr, flush=True)
    return PluginError("invalid release data (problems listed above)")


def require_local_assets(files: Files, config: MkDocsConfig) -> None:
    """A stylesheet, script or image the configuration names must be in the site: MkDocs links
    to it regardless, and the page then loads without its colours or its search (a 404 that
    the strict build did not report)."""
    named = [str(path) for path in [*config.extra_css, *config.extra_javascript]]
    named += [config.theme.get(key) or "" for key in ("favicon", "logo")]
    for path in named:
        if not path or "://" in path or path.startswith("//") or path.startswith("data:"):
            continue
        uri = posixpath.normpath(path.split("?")[0].lstrip("/"))
        if files.get_file_from_path(uri) is None and not uri.startswith("assets/images/favicon"):
            raise PluginError(
                f"{config.config_file_path}: '{path}' is not a file of the site (not in {config.docs_dir} "
                "nor in the theme): the pages would load it and get 404"
            )


def _nothing() -> None:
    """Work left to be done elsewhere (a deferred job)."""
