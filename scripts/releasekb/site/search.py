"""Stage 6b, search: each language's search index, made by Pagefind from the pages' text.

Why Pagefind: Material's own search sends every reader the whole index of their language
(12.8 MB in English at 80 releases x 60 entries) and builds a lunr index from it in the browser
before it answers anything. Pagefind splits its index into fragments: a first query downloads
what that query needs, about the same bytes whatever the history's size. Its extended binary
(`pagefind[extended]`) splits Chinese into words at index time; the worker splits Chinese
queries with the same words (see han_words), so jieba is no longer needed for our search.

What readers keep: Material's search box, its results list, keyboard shortcuts and `?h=`
highlighting. Material lets a site bring its own search worker (its `__config.search`): ours,
theme/assets/releasekb-search.js, answers Material's messages from Pagefind, and
theme/assets/releasekb-search-page.js starts it when the reader first uses the box. Material's
search plugin stays configured (the header shows the box only when it is); its own index is
replaced by one that holds only the settings (material_search.py, which says why). The plugin
hands each rendered page to this language's `PagefindFeed`.

Each language build writes its own bundle (site/pagefind/, site/zh/pagefind/), so a query only
ever loads its page's language; a query that finds nothing there asks the other language's
(worker_settings). Filters (level, release, area), what each result shows (page_facts) and
what ranks a feature first (its title and API names, page_meta) come from the catalog.
"""

from __future__ import annotations

import functools
import gzip
import html
import json
import os
import posixpath
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

from releasekb.common.cjk import han_or_kana_words, has_han_or_kana
from releasekb.common.i18n import interface_strings, url_prefix
from releasekb.common.locales import Strings, plural_text
from releasekb.common.markup import text_of
from releasekb.kb.catalog import Catalog
from releasekb.kb.page_kinds import Facts
from releasekb.kb.pages import Page, pages
from releasekb.kb.urls import FEATURES_INDEX, SEARCH_BUNDLE, SEARCH_WORKER, page_url
from releasekb.site import afterwards, pagefind_files, pagefind_service

# The filters a query can name ("rpc level:beta"), with the interface string that names each
# in a language: a reader may type the English key or their language's word (级别:beta).
FILTERS = {"level": "col_level", "release": "col_release", "area": "area"}
# Results whose text the worker loads for one query: each costs a fragment download (a few KB),
# so a broad query stays as cheap as a narrow one; the rest are counted, and the last item says
# how to narrow the search. Ten is what Material shows before the reader scrolls.
RESULTS_SHOWN = 10
# The Han words of a language's index, for the worker to split Chinese queries the way the index
# was split (see han_words): beside the bundle's own files.
HAN_WORDS_FILE = "releasekb-han-words.json"
# Languages whose index Pagefind's extended binary splits into words (its segmenter joins them
# with zero-width spaces): API names are cut at their dots there ("torch", ".", "fft"), so the
# worker searches "torch.fft" as its parts, and Han words as the index has them (han_words).
SEGMENTED_LANGUAGES = frozenset({"zh", "ja", "ko"})
# What each page tells Pagefind besides its text (data-pagefind-meta, searched too), and how
# much a query's match in each counts for ranking (Pagefind's ranking.metaWeights; the title's
# 5 is Pagefind's default): a feature whose title or API names the query ranks above pages that
# only mention it.
META_WEIGHTS = {"title": 5.0, "apis": 5.0}
# Pagefind's own user interfaces: Material's box and our worker replace them.
_UNUSED_BUNDLE_FILES = re.compile(r"pagefind-(component-ui|modular-ui|ui|highlight)\.(js|css)")
# Material's permalink after each heading: not part of the heading's text in results.
_HEADERLINK = re.compile(r'<a class="headerlink"[^>]*>.*?</a>', re.S)
# Material's mark for parts of a page its search leaves out, as Pagefind spells it.
_EXCLUDED = re.compile(r"\sdata-search-exclude\b")
EXCLUDED_MARK = "data-search-exclude"


@dataclass(frozen=True)
class SearchDocument:
    """One page as Pagefind indexes it: its text, title and filter values."""

    url: str  # inside the language's site, "features/torch-fft/"
    title: str
    content_html: str
    filters: tuple[tuple[str, str], ...] = ()
    meta: tuple[tuple[str, str], ...] = ()  # besides the title (META_WEIGHTS)

    def html(self, lang: str) -> str:
        filters = "".join(
            f'<span data-pagefind-filter="{_attribute(name, value)}"></span>' for name, value in self.filters
        )
        meta = "".join(
            f'<span data-pagefind-meta="{_attribute(name, value)}"></span>'
            for name, value in (("title", self.title), *self.meta)
        )
        return (
            f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><title>{html.escape(self.title)}</title>'
            f"</head><body><main data-pagefind-body>{meta}"
            f"{_EXCLUDED.sub(' data-pagefind-ignore', _without_unindexed(_HEADERLINK.sub('', self.content_html)))}"
            f"{filters}"
            "</main></body></html>"
        )


def _without_unindexed(content: str) -> str:
    """`content` without what Pagefind would read only to leave out of the index: the elements
    marked data-search-exclude, and SVG images, whose text Pagefind never indexes. Each is left
    out whole where its end is found (the same tag, balanced, as the pages this site renders
    are); any other keeps its mark, which Pagefind's data-pagefind-ignore then reads.

    At 80 releases they are a third of the pages' HTML (each feature's lifecycle chart, its
    permanent-link and badge boxes, the stability page's table). Pagefind also took the first
    image of a page, in them or not, as the page's image: a badge's, which no result shows."""
    return _without_elements(_without_elements(content, EXCLUDED_MARK), "<svg", "svg")


def _without_elements(content: str, mark: str, name: str | None = None) -> str:
    """`content` without each element whose start tag holds `mark` (and is named `name`, when
    given), where its end is found."""
    kept, position, found = [], 0, content.find(mark)
    while found >= 0:
        start = content.rfind("<", position, found + 1)
        tag = _TAG_NAME.match(content, start + 1) if start >= 0 and content.find(">", start, found) < 0 else None
        end = None
        if tag is not None and name in (None, tag.group(0).lower()):
            tag_end = content.find(">", found) + 1
            # A start tag that closes itself (`<svg ... />`, as XML writes it) is the whole element.
            closed = tag_end > 1 and content[tag_end - 2] == "/"
            end = tag_end if closed else _element_end(content, tag.group(0).lower(), tag_end)
        if end is None:  # not in a start tag, or no end found: left as it is
            found = content.find(mark, found + len(mark))
            continue
        kept.append(content[position:start])
        position = end
        found = content.find(mark, position)
    if not kept:
        return content
    kept.append(content[position:])
    return "".join(kept)


_TAG_NAME = re.compile(r"[a-zA-Z][a-zA-Z0-9-]*")


def _element_end(html_text: str, name: str, after: int) -> int | None:
    """Where the element `name` whose start tag ends at `after` ends (after its end tag), counting
    the same elements inside it; None when it has no end tag (a void element) or none is found."""
    if after <= 0 or name in _VOID_ELEMENTS:
        return None
    depth = 1
    for tag in _tags_named(name).finditer(html_text, after):
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            return tag.end()
    return None


_VOID_ELEMENTS = frozenset("area base br col embed hr img input link meta source track wbr".split())


@functools.lru_cache(maxsize=64)
def _tags_named(name: str) -> re.Pattern:
    """The start and end tags of the elements `name` (group 1: the end tag's slash)."""
    return re.compile(rf"<(/?){re.escape(name)}(?:[\s/][^>]*)?>", re.I)


def _attribute(name: str, value: str) -> str:
    """A data-pagefind-filter or -meta value, "name:value". Pagefind (1.5) keeps a comma in the
    value as it is, and a backslash before one too: nothing is escaped but for HTML."""
    return f"{name}:{html.escape(value)}"


def page_filters(catalog: Catalog, lang: str) -> dict[str, Facts]:
    """{generated page path: its filter values}, for the kinds of page that have some (release
    and feature pages; page_kinds.py). A value is given both as its key and as its name in the
    language, so `level:beta` and `级别:测试版` find the same pages."""
    return {page.path: found for page in pages(catalog) if (found := filters_of(page, catalog, lang)) is not None}


def filters_of(page: Page, catalog: Catalog, lang: str) -> Facts | None:
    """One page's filter values (page_filters), None for a kind of page without filters."""
    make = page.kind.search_filters
    return None if make is None else make(page.context, catalog, lang)


def page_meta(catalog: Catalog, lang: str) -> dict[str, Facts]:
    """{generated page path: what Pagefind keeps for it besides its title}: a feature's API
    names, searched and ranked as its title is (META_WEIGHTS)."""
    return {page.path: meta for page in pages(catalog) if (meta := meta_of(page, catalog, lang))}


def meta_of(page: Page, catalog: Catalog, lang: str) -> Facts:
    """One page's metadata (page_meta), () where it has none."""
    make = page.kind.search_meta
    return (make(page.context, catalog, lang) or ()) if make is not None else ()


def page_facts(catalog: Catalog, lang: str) -> dict[str, Facts]:
    """{generated page path: what each result shows and ranks by, as Pagefind filters (which,
    unlike its metadata, no query matches)}: a feature's badge as its page shows it, the
    release that badge is stated as of, and how many features are parts of it (an umbrella
    feature ranks above its parts, see releasekb-search.js). No query can name these filters:
    they are not in FILTERS."""
    return {page.path: found for page in pages(catalog) if (found := facts_of(page, catalog, lang)) is not None}


def facts_of(page: Page, catalog: Catalog, lang: str) -> Facts | None:
    """One page's facts (page_facts), None for a kind of page without them."""
    make = page.kind.search_facts
    return None if make is None else make(page.context, catalog, lang)


def _own_bundle() -> str:
    """Where a language's Pagefind bundle is, relative to its own search worker (each language's
    site has both, at the same places)."""
    return posixpath.relpath(SEARCH_BUNDLE, posixpath.dirname(SEARCH_WORKER)) + "/"


def worker_address() -> str:
    """The search worker's address inside a language's site, naming its bundle in the fragment
    (`assets/releasekb-search.js#bundle=../pagefind/`): the worker starts loading Pagefind before
    the page's first message reaches it (see startEarly in releasekb-search.js)."""
    return f"{SEARCH_WORKER}#{urlencode({'bundle': _own_bundle()}, safe='/')}"


def worker_settings(catalog: Catalog, lang: str) -> dict:
    """What the search worker needs besides the index: where the bundle is (relative to the
    worker), the filters' names, the ranking, the other language's bundle (a query that finds
    nothing here offers its results there), and the strings it shows."""
    strings = interface_strings(lang, catalog.data_dir)
    languages = catalog.languages

    def prefix(code: str) -> str:
        return url_prefix(code, languages)

    worker_dir = posixpath.dirname(prefix(lang) + SEARCH_WORKER)
    others = [other for other in languages if other != lang]
    return {
        "lang": lang,
        "bundle": _own_bundle(),
        "han_words": HAN_WORDS_FILE,
        "segmented": lang in SEGMENTED_LANGUAGES,
        "meta_weights": META_WEIGHTS,
        "other": [
            {
                "lang": other,
                "name": interface_strings(other, catalog.data_dir)["language_name"],
                "bundle": posixpath.relpath(prefix(other) + SEARCH_BUNDLE, worker_dir) + "/",
                "segmented": other in SEGMENTED_LANGUAGES,
                # the other language's home, from this language's (Material's base): Material
                # opens its search box for the ?q= of any page
                "home": posixpath.relpath(prefix(other) or ".", prefix(lang) or ".") + "/",
            }
            for other in others
        ],
        "filters": {name: sorted({name, strings[key].lower()}) for name, key in FILTERS.items()},
        "shown": RESULTS_SHOWN,
        "more_url": page_url(FEATURES_INDEX),
        "strings": worker_strings(strings),
        # A query of filters alone is a list of features: the features index shows it, with its
        # own filters (?stability=beta&release=1.5&area=mobile), by key.
        "features_filters": {"level": "stability", "release": "release", "area": "area"},
        "keys": {
            "level": {value: level.key for level in catalog.levels.values() for value in (level.key, level.name[lang])},
            "area": {value: area.key for area in catalog.areas.values() for value in (area.key, area.name[lang])},
            "release": {release.version: release.version for release in catalog.releases},
        },
    }


_WORKER_STRINGS = ("search_more_title", "search_more_text", "search_unknown_filter", "search_filters_only_title")
_WORKER_STRINGS += ("search_filters_only_text", "search_other_language", "search_other_language_text", "as_of")


_WORKER_PLURALS = ("search_other_language",)


def worker_strings(strings: Strings) -> dict[str, str]:
    """The strings the search worker shows. A plural text is given as the worker picks it, by
    `count === 1`: `key` is its `other` form, `key_one` its form for 1 (the same text in a
    language with one form)."""
    given = {key: strings[key] for key in _WORKER_STRINGS}
    for key in _WORKER_PLURALS:
        value = strings[key]
        given[key] = value["other"] if isinstance(value, dict) else value
        given[f"{key}_one"] = plural_text(strings.lang, value, 1)
    return given


def search_hint(catalog: Catalog, lang: str) -> str:
    """The search box's prompt, with filters the reader can type taken from this site's data."""
    strings = interface_strings(lang, catalog.data_dir)
    levels = [key for key, level in catalog.levels.items() if level.rank is not None] or list(catalog.levels)
    examples = {
        "level": levels[min(1, len(levels) - 1)],  # the second most stable level: "beta" rather than "stable"
        "release": catalog.releases[-1].version if catalog.releases else "1.0",
        "area": next(iter(catalog.areas), "core"),
    }
    return strings["search_hint"].format(
        **{name: f"{strings[FILTERS[name]].lower()}:{value}" for name, value in examples.items()}
    )


class PagefindFeed:
    """Each rendered page's text for Pagefind, as the plugin hands it over (add), and the search
    worker's settings for this build.

    One feed per language lives as long as its build process (in its Indexer): under `serve`, a
    dirty build renders only the pages that changed, and the feed keeps every other page's text
    from the builds before (pages the site no longer has are dropped, see keep_only)."""

    def __init__(self, lang: str, indexer: Indexer):
        self.lang = lang
        self.indexer = indexer
        self.settings: dict = {}
        self.catalog: Catalog | None = None
        self.pages: dict[str, Page] = {}  # this build's pages, by path
        self.documents: dict[str, SearchDocument] = {}  # by source file

    def prepare(self, catalog: Catalog) -> PagefindFeed:
        """Ready for a build of this catalog; returns the feed."""
        self.settings = worker_settings(catalog, self.lang)
        self.catalog = catalog
        self.pages = {page.path: page for page in pages(catalog)}
        return self

    def facts(self, path: str) -> tuple[Facts, Facts]:
        """(the filters, the metadata) of the page at `path`: worked out for each page a build
        hands over, which under `serve` are the few an edit changed, not every page's (a tenth of
        an edit's time at 80x60)."""
        page = self.pages.get(path)
        if page is None:
            return (), ()
        filters = filters_of(page, self.catalog, self.lang)
        if filters is not None:
            filters += facts_of(page, self.catalog, self.lang) or ()
        return filters or (), meta_of(page, self.catalog, self.lang)

    def keep_only(self, sources: set[str]) -> None:
        """Forget the pages a build no longer has (by source file: 'releases/1.7.md')."""
        for source in set(self.documents) - sources:
            del self.documents[source]

    def add(self, page, content: str) -> None:
        """A page as rendered (`content`: its HTML, after every plugin's on_page_content).
        Pages that repeat other pages (lists, redirects) say `search: {exclude: true}` in their
        front matter, as Material's search reads it; parts of pages say data-search-exclude."""
        if (page.meta.get("search") or {}).get("exclude") or content is None:
            self.documents.pop(page.file.src_uri, None)
            return
        title = text_of(page.title or "")
        filters, meta = self.facts(page.file.src_uri)
        self.documents[page.file.src_uri] = SearchDocument(page.url, title, content, filters, meta)

    def write_index(self, site_dir: Path, meanwhile: Callable[[], None] = lambda: None) -> None:
        """Index this language's pages into site_dir/pagefind: at once, doing `meanwhile` while
        Pagefind starts (pagefind_service.index_pages), or under `serve` after the build, while
        the page reloads (afterwards.py), where `meanwhile` is left to the caller."""
        documents = list(self.documents.values())
        bundle = site_dir / SEARCH_BUNDLE
        jobs, index = self.indexer.jobs, self.indexer.index
        if jobs.deferring():
            jobs.later(f"search index ({self.lang})", index, documents, self.lang, bundle)
        else:
            index(documents, self.lang, bundle, meanwhile)


def pagefind_executable() -> Path:
    """The extended Pagefind binary (the one that segments Chinese), from `pagefind[extended]`."""
    try:
        from pagefind_bin_extended import get_executable
    except ImportError:
        raise RuntimeError(
            "search needs Pagefind's extended binary: pip install 'pagefind[extended]' (see pyproject.toml)"
        ) from None
    return Path(get_executable())


class Indexer:
    """One process's search indexing: each language's feed, and what the process keeps between
    its builds to index again only what changed (the pages given to Pagefind, the Han words of
    the fragments read, the bundle files it put in place). Its jobs (afterwards.py) run the
    indexing after the page under `serve`, and Pagefind."""

    def __init__(self, jobs: afterwards.Jobs | None = None):
        self.jobs = jobs if jobs is not None else afterwards.Jobs()
        self._feeds: dict[str, PagefindFeed] = {}
        # {(fragment file name, size): its Han words}. Pagefind names a fragment by a hash of its
        # content, so after a save under `serve` only the fragments of the pages that changed are read.
        self._fragment_words: dict[tuple[str, int], frozenset[str]] = {}
        # The files of the bundle this process last put in each folder (the one before, once replaced).
        self._installed: dict[Path, set[str]] = {}

    def feed_for(self, lang: str) -> PagefindFeed:
        """The feed of a language built in this process."""
        if lang not in self._feeds:
            self._feeds[lang] = PagefindFeed(lang, self)
        return self._feeds[lang]

    def index(
        self, documents: list[SearchDocument], lang: str, bundle_dir: Path, meanwhile: Callable[[], None] = lambda: None
    ) -> None:
        """Index the documents with Pagefind into a new bundle at bundle_dir (replaced whole).
        Pagefind is given each page's HTML as it is in memory and gives the bundle's files back
        (pagefind_service.py says why), which are written once, as the site ships them.
        `meanwhile`: work done while Pagefind starts on the first page."""
        self.jobs.give_way()
        # In the order of their addresses: Pagefind numbers the pages in the order it is given
        # them, and the same pages must make the same files, however they were handed over.
        in_order = sorted(documents, key=lambda document: document.url)
        pages = ((_pagefind_url(document.url), document.html(lang)) for document in in_order)
        command = [str(pagefind_executable()), pagefind_service.SERVICE_FLAG]
        bundle = self.jobs.talk_to_command(
            command, lambda process: pagefind_service.index_pages(process, pages, self.jobs.give_way, meanwhile)
        )
        for unused in [path for path in bundle if _UNUSED_BUNDLE_FILES.fullmatch(path)]:
            del bundle[unused]
        pagefind_files.sort_filter_values(bundle)
        cjk = any(has_han_or_kana(document.content_html) for document in documents)
        words = self.han_words(bundle) if cjk else []
        bundle[HAN_WORDS_FILE] = json.dumps(words, ensure_ascii=False).encode("utf-8")
        # Written beside its place: moved there by renames, which cannot cross file systems (a /tmp
        # in memory, as many systems have, and a site on disk).
        bundle_dir.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix=".releasekb-search-", dir=bundle_dir.parent) as tmp:
            output = Path(tmp) / "bundle"
            for folder in sorted({posixpath.dirname(path) for path in bundle}):
                (output / folder).mkdir(parents=True, exist_ok=True)
            for path, content in bundle.items():
                self.jobs.give_way()
                (output / path).write_bytes(content)
            self._install(output, set(bundle), bundle_dir)

    def han_words(self, bundle: dict[str, bytes]) -> list[str]:
        """Every Han word of two or more characters that Pagefind's segmenter made of the pages.

        Pagefind splits Chinese into words twice: at index time with its own dictionary, and in the
        browser with the browser's (which, in Chromium, splits 自动求导 into 自动/求/导 where the
        index has 自动/求导, so the query finds nothing). The worker asks Pagefind not to split
        queries and splits them itself, longest word first, with the words the index really has.
        Pagefind keeps each page's text in its fragment, the words joined by zero-width spaces.

        Kana words too, for Japanese: the segmenter splits a katakana compound (ハートビート into
        ハート/ビート), and the query ハートビート, searched whole, found nothing."""
        words: set[str] = set()
        for path, content in bundle.items():
            if not path.startswith("fragment/"):
                continue
            # Pagefind names a fragment by a hash of its content, so under `serve` only the
            # fragments of the pages that changed are read again after a save.
            key = (path, len(content))
            if key not in self._fragment_words:
                self.jobs.give_way()
                text = gzip.decompress(content).decode("utf-8")
                content_text = json.loads(text[text.index("{") :]).get("content", "")
                self._fragment_words[key] = frozenset(han_or_kana_words(content_text, _WORD_BREAKS))
            words |= self._fragment_words[key]
        return sorted(words)

    def _install(self, new: Path, new_files: set[str], bundle_dir: Path) -> None:
        """Put a new bundle in place so that a reader searching meanwhile never sees half of it.

        Pagefind names its index files by their content, and a reader's query starts from
        pagefind-entry.json: the new files go in beside the old ones, then the entry file is
        replaced in one rename. Files of the bundle before the previous one are removed (a page
        opened before the last update may still ask for the previous ones). `new_files`: the
        paths of the files in `new`."""
        if not bundle_dir.exists():  # a new site (every `build`): the whole bundle in one rename
            os.replace(new, bundle_dir)
            self._installed[bundle_dir] = new_files
            return
        present = _bundle_files(bundle_dir)
        entry = "pagefind-entry.json"
        for folder in {(bundle_dir / relative).parent for relative in new_files}:
            folder.mkdir(parents=True, exist_ok=True)
        for relative in sorted(new_files - {entry}):
            target = bundle_dir / relative
            if "/" in relative and target.exists():
                continue  # an index file, named by its content: the same file
            os.replace(new / relative, target)
        os.replace(new / entry, bundle_dir / entry)
        previous = self._installed.get(bundle_dir, present)
        for stale in present - new_files - previous:
            (bundle_dir / stale).unlink(missing_ok=True)
        self._installed[bundle_dir] = new_files


def _pagefind_url(page_url: str) -> str:
    """A page's address as Pagefind's command line gave it for the page's file (<url>index.html,
    "index.html" left out), so results link to the same addresses: site-relative, from the
    language's root."""
    return "/" + page_url.lstrip("/")


# What separates the words in a fragment's text (a character class): white space, and the
# zero-width spaces with which Pagefind's segmenter joins the words it split.
_WORD_BREAKS = r"\s\u200b"


def _bundle_files(folder: Path) -> set[str]:
    return {path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file()}
