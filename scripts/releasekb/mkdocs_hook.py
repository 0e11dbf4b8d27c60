"""The thin glue between MkDocs and the pipeline, loaded by mkdocs.yml's `hooks:`.

Each language is its own MkDocs build (mkdocs.yml for English, mkdocs.zh.yml for Chinese),
with its own search index. on_config validates the data and writes the generated pages of
the build's language before MkDocs collects files (once per data version: `releasekb build`
generates them before starting the language builds), and asks `mkdocs serve` to watch the
data folder. Generated pages are written as HTML (see render.py): on_page_markdown hands
that HTML to MkDocs instead of converting it. The other events add the
files both languages share (docs/assets) and point the language switcher, the hreflang links
and the sitemap at the same page in the other language. Everything else lives in plain
modules that the tests call directly.
"""

from __future__ import annotations

import functools
import re
import sys
from pathlib import Path
from urllib.parse import urljoin

import jinja2
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc

from releasekb import afterwards, progress, publish, search
from releasekb.generate import SHARED_DOCS, build_language, data_dir_of, docs_root, generate_once
from releasekb.i18n import DEFAULT_LANGUAGE, LANGUAGES, interface_strings, url_prefix
from releasekb.problems import DataError
from releasekb.render import Outline, not_found_page, outline
from releasekb.urls import relative_site_url


@event_priority(100)  # before the other plugins read the configuration
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    data_dir = data_dir_of(config)
    for watched in [data_dir, *(docs_root(config) / name for name in SHARED_DOCS)]:
        if str(watched) not in config.watch:
            config.watch.append(str(watched))
    lang = build_language(config)
    root_url = config.site_url or ""
    config.extra["releasekb_root_url"] = root_url  # before the Chinese build moves site_url to /zh/
    config.extra["releasekb_not_found"] = not_found_page(root_url)  # read by docs/overrides/404.html
    try:
        generated = generate_once(data_dir, docs_root(config), root_url, lang)
    except DataError as error:
        # Printed here because `mkdocs serve` logs only "Aborted with a BuildError!" for
        # plugin errors; the curator needs the same lines `releasekb validate` prints.
        print(error.report(), file=sys.stderr, flush=True)
        raise PluginError("invalid release data (problems listed above)") from None
    # The product's and the site's names come from project.yaml only: another product changes
    # its data folder, not the MkDocs configurations, and gets its own names in every title.
    strings = interface_strings(lang)
    config.site_name = generated.catalog.site_name[lang]
    config.site_description = strings["site_description"].format(product=generated.catalog.product_name[lang])
    if root_url and lang != DEFAULT_LANGUAGE:
        config.site_url = urljoin(root_url, url_prefix(lang))  # canonical URLs under /zh/
    # read by docs/overrides/main.html (the search box's settings) and 404.html (every language's)
    hints = {other: search.search_hint(generated.catalog, other) for other in LANGUAGES}
    config.extra["releasekb_search"] = {
        "worker": search.SEARCH_WORKER,
        "hint": hints[lang],
        "hints": hints,
        "without_js": strings["search_without_js"],
        "features": strings["nav_features"],
    }
    global _html_pages
    _html_pages = generated.pages
    progress.start(lang)
    return config


# The generated pages of the build under way (paths inside its docs_dir): written as HTML.
_html_pages: frozenset[str] = frozenset()


def on_pre_build(config: MkDocsConfig) -> None:
    """Material's search plugin keeps its search box; Pagefind indexes the pages (search.py).
    Installed after Material's on_config, which makes a new index for every build."""
    material = _material_search(config)
    if material is None:
        return  # no search box: nothing to index
    lang = build_language(config)
    generated = generate_once(data_dir_of(config), docs_root(config), config.extra["releasekb_root_url"], lang)
    material_config = {key: material.config[key] for key in ("lang", "separator", "pipeline", "fields")}
    material.search_index = search.feed_for(lang).prepare(generated.catalog, material_config)


def _material_search(config: MkDocsConfig):
    """Material's search plugin when it is on (the search box shows only then), else None."""
    material = config.plugins.get("material/search")
    return material if material is not None and material.config.enabled else None


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Files both languages share (docs/assets) are copied into each language's site."""
    root = docs_root(config)
    for name in SHARED_DOCS:
        for path in sorted((root / name).rglob("*")):
            if path.is_file():
                uri = path.relative_to(root).as_posix()
                files.append(File(uri, str(root), config.site_dir, config.use_directory_urls))
    progress.total(len(files.documentation_pages()))
    search.feed_for(build_language(config)).keep_only({file.src_uri for file in files.documentation_pages()})
    return files


def on_nav(nav, config: MkDocsConfig, files: Files):
    """Read the navigation's pages now: a dirty build (`releasekb serve` after a data edit)
    renders only changed pages, and the navigation tabs need every tab's title."""
    for page in nav.pages:
        if page.markdown is None:
            page.read_source(config)
    return nav


class _Relative(str):
    """A link already relative to the current page: the `url` filter must leave it alone
    (it cannot express a page in the other language's tree, above this build's root)."""


def on_env(env: jinja2.Environment, config: MkDocsConfig, files: Files) -> jinja2.Environment:
    """Every page learns its address in each language (the same page, or that language's home
    when it has no such page), before the sitemap and the pages are rendered."""
    root, root_url = docs_root(config), config.extra["releasekb_root_url"]
    generated = generate_once(data_dir_of(config), root, root_url, build_language(config)).pages
    for file in files.documentation_pages():
        targets = {}
        for alternate in config.extra["alternate"]:
            other = alternate["lang"]
            # every language has the generated pages (perhaps not written yet: the languages
            # are generated in parallel); hand-written ones exist when their file does
            exists = file.src_uri in generated or (root / other / file.src_uri).is_file()
            targets[other] = url_prefix(other) + (file.url if exists else "")
        file.page.releasekb_targets = targets
        # read by docs/overrides/sitemap.xml
        file.page.releasekb_alternates = (
            [(lang, urljoin(root_url, t)) for lang, t in targets.items()] if root_url else []
        )

    # Compiling the theme's templates costs each build about half a second; Jinja's own cache
    # keeps their compiled code between builds, checked against each template's source.
    env.bytecode_cache = jinja2.FileSystemBytecodeCache()
    url_filter = env.filters["url"]

    @jinja2.pass_context
    def url(context, value):
        return value if isinstance(value, _Relative) else url_filter(context, value)

    env.filters["url"] = url
    return env


def on_page_context(context: dict, page: Page, config: MkDocsConfig, nav) -> dict:
    """The language switcher and the hreflang links of this page."""
    here = url_prefix(build_language(config)) + page.url
    config.extra["alternate"] = [
        {**alternate, "link": _Relative(relative_site_url(here, page.releasekb_targets[alternate["lang"]]))}
        for alternate in config.extra["alternate"]
    ]
    return context


def on_post_build(config: MkDocsConfig) -> None:
    """The machine-readable outputs (JSON API, badges, objects.inv, feed) and the search index
    of this language; after the page has reloaded, under `serve` (afterwards.py)."""
    lang = build_language(config)
    generated = generate_once(data_dir_of(config), docs_root(config), config.extra["releasekb_root_url"], lang)
    site_dir = Path(config.site_dir)
    root_url = config.extra["releasekb_root_url"]
    if afterwards.deferring():  # under `serve`: renamed into place, as the site is being served
        write = functools.partial(publish.write_outputs, whole=True)
        afterwards.later(f"outputs ({lang})", write, generated.catalog, lang, root_url, site_dir)
    else:
        publish.write_outputs(generated.catalog, lang, root_url, site_dir)
    if _material_search(config) is not None:
        try:
            search.feed_for(lang).write_index(site_dir, Path(config.config_file_path).parent)
        except RuntimeError as error:
            raise PluginError(f"search index: {error}") from None


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """A generated page is HTML already: MkDocs takes it as the page's content unconverted
    (_render_generated) and keeps only its title as the page's Markdown."""
    if page.file.src_uri not in _html_pages:
        return markdown
    page_outline = outline(markdown)
    # MkDocs' Page.render builds a new Markdown converter, with every extension, for each page:
    # that was most of what a generated page cost MkDocs, for HTML with nothing to convert.
    page.render = functools.partial(_render_generated, page, markdown, page_outline)
    return "# " + markdown_title(page_outline.title)


def markdown_title(title: str) -> str:
    """The page title MkDocs makes of the heading `# title`, as HTML: punctuation as character
    references, which Markdown keeps as the characters (a title such as "`__init__` hooks"
    must not turn into emphasis), whitespace collapsed. Rendered titles have no line breaks;
    tests/test_render.py checks the result against MkDocs' own conversion."""
    return " ".join(_PUNCTUATION.sub(lambda m: f"&#{ord(m[0])};", title).split())


_PUNCTUATION = re.compile(r"[!-/:-@\[-`{-~]")  # every ASCII punctuation character


def _render_generated(page: Page, page_html: str, page_outline: Outline, config: MkDocsConfig, files: Files) -> None:
    """Page.render for a generated page: what converting its Markdown would have told MkDocs
    (content, title, table of contents, anchors), read from its HTML."""
    page.content = page_html
    page._title_from_render = markdown_title(page_outline.title)
    page.toc = get_toc(page_outline.toc_tokens)
    page.present_anchor_ids = set(page_outline.anchor_ids)
    # The links of generated pages are checked by the tests (tests/test_links.py), not by MkDocs.
    page.links_to_anchors = {}
    del page.render  # Page.render again; the page's HTML is held once, as its content


def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    progress.page_done()
    return output
