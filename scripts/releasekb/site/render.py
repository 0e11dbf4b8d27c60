"""Stage 4, render: catalog -> pages, one tree per language, through Jinja templates.

Each page is made once, as an object (rendered_page.RenderedPage): the HTML its template wrote
(the HTML MkDocs' Markdown would produce: headings with anchors and permanent links,
admonitions, tables), its headings as they were written, its description and search setting.
The plugin hands that object to MkDocs as the page (plugin.GeneratedPage) instead of converting
Markdown: conversion was half of a build's time, and the generated pages have nothing to convert.
The same object is exported as a standalone .md file (RenderedPage.markdown) that every
MkDocs-compatible engine builds as a page without the plugin.

Every value printed by a template is data and is HTML-escaped by the environment's `finalize`
(so `<b>` in a summary is shown as text); only helpers below return Markup. Templates receive
catalog objects and interface strings and contain no data logic.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Collection
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from urllib.parse import urlsplit

import jinja2
import yaml
from babel import Locale, UnknownLocaleError
from markupsafe import Markup

from releasekb.common.formatting import format_number, format_release_date
from releasekb.common.i18n import count_text, interface_strings, url_prefix
from releasekb.common.locales import plural_text
from releasekb.kb import urls
from releasekb.kb.catalog import Catalog, Entry, Feature, LevelInEffect, Relation, UntranslatedText, list_text
from releasekb.kb.page_kinds import PageKind, page_kinds, template_folders
from releasekb.kb.pages import Page, pages
from releasekb.kb.urls import (
    ABOUT,
    ABOUT_LEVELS_ANCHOR,
    FEATURES_INDEX,
    FILTER_TEXT_FILE,
    UPGRADE,
    badge_path,
    feature_path,
    features_query,
    level_path,
    page_url,
    permanent_url,
    relative_site_url,
    relative_url,
    release_path,
    upgrade_query,
)
from releasekb.site import svg
from releasekb.site.rendered_page import Heading, RenderedPage

TEMPLATES_DIR = Path(__file__).parent / "templates"
# A team's own templates, in its data folder beside project.yaml (as its interface strings are in
# locales/): a file there replaces the package's of the same name, a page's template or a piece
# of markup the helpers print (`markup/badge.html.j2`). Read once per process, as the package's.
TEAM_TEMPLATES = "templates"


def escape_text(value: object) -> Markup:
    """Data text -> safe inline HTML: whitespace collapsed, markup characters escaped,
    `backtick` spans shown as code."""
    if isinstance(value, Markup):
        return value
    text = str(value)
    if _needs_no_change(text):
        return Markup(text)  # most printed values: pages print hundreds of thousands
    if "  " in text or not text.isprintable():  # any whitespace but single spaces (see below)
        text = _WHITESPACE_RUN.sub(" ", text)  # a newline in data must not end a table row
    parts = text.split("`")
    if len(parts) % 2 == 0:  # an unmatched backtick is just a character
        parts = [text]
    out = []
    for i, part in enumerate(parts):
        escaped = html.escape(part, quote=False)
        out.append(_code(escaped) if i % 2 else escaped)
    return Markup("".join(out))


def code(text: object) -> Markup:
    """An API name or other code as inline code, as a backtick span shows it."""
    return Markup(_code(html.escape(str(text), quote=False)))


def _code(escaped: str) -> str:
    """Escaped text as <code>, where a narrow line may break after a dot, a slash, `::` or an
    underscore inside a name (<wbr>, which the text, copying and search ignore), and nowhere
    else: the stylesheet keeps code from breaking inside `set_deterministic`'s words."""
    return "<code>" + _CODE_BREAK.sub("<wbr>", escaped) + "</code>"


# After a separator between two letters or digits: `torch.nn`, `set_deterministic`, `c10::Scalar`
# (not the underscores of `__init__`, nor after a one-letter part: `x.shape`, `F.relu`). The place
# itself is matched, not the separator, so that the replacement is a plain string: one with a
# group is expanded by a Python function at every match, two and a half times the cost.
_CODE_BREAK = re.compile(r"(?:(?<=[A-Za-z0-9]{2}[./_])|(?<=[A-Za-z0-9]{2}::))(?=[A-Za-z0-9])")


def css_labels(**labels: str) -> str:
    """CSS custom properties holding interface strings for the stylesheet's generated content
    (`--rkb-label-area: "Area"`), as a style attribute's text."""
    return ";".join(f"--rkb-label-{name}:{_css_string(text)}" for name, text in labels.items())


def _css_string(text: str) -> str:
    return '"' + "".join(f"\\{ord(c):x} " if c in '"\\\n<>&' else c for c in text) + '"'


def _needs_no_change(text: str) -> bool:
    """Whether escape_text leaves `text` as it is: no markup character, no backtick and no
    whitespace but single spaces (any other whitespace character is not printable). Six times
    as fast as a regular expression."""
    return (
        text.isprintable()
        and "  " not in text
        and "&" not in text
        and "<" not in text
        and ">" not in text
        and "`" not in text
    )


# Whitespace that is not one space between words: the spaces between words make no match.
_WHITESPACE_RUN = re.compile(r"\s{2,}|[^\S ]")


@jinja2.pass_environment
def _finalize(env: jinja2.Environment, value: object) -> str:
    """Every printed value, for the environment: escape_text's HTML. Text that needs no change,
    not even its quotes, stays a plain string: autoescape's own escaping then leaves it as it
    is, where a Markup made here would be made again there (twice the cost, for most values).
    A text shown in another language than the page's is marked so (markup/untranslated.html.j2)."""
    if type(value) is int:
        return str(value)
    if type(value) is str and _needs_no_change(value) and '"' not in value and "'" not in value:
        return value
    if isinstance(value, UntranslatedText):  # marked with its language for screen readers, and flagged
        untranslated = env.get_template("markup/untranslated.html.j2")
        return Markup(
            untranslated.render(lang=escape_text(value.lang), text=escape_text(value), note=escape_text(value.note))
        )
    return escape_text(value)


def attr(value: object) -> Markup:
    """A value for an HTML attribute."""
    return Markup(html.escape(str(value), quote=True))


def not_found_page(root_url: str, languages: tuple[str, ...], data_dir: Path | None = None) -> dict:
    """What the 404 page (docs/overrides/404.html) needs. Static hosts answer every missing
    address with the root 404.html, so it carries every language (its script shows the one of
    the address) and absolute links from the site's root path."""
    root = urlsplit(root_url).path or "/"
    found = []
    for lang in languages:
        home = root + url_prefix(lang, languages)
        found.append(
            {
                "lang": lang,
                "prefix": url_prefix(lang, languages),
                "t": interface_strings(lang, data_dir),
                "home": home,
                "search": home + page_url(FEATURES_INDEX),
                # {feature id: text} (the features index's words filter): the ids the page
                # suggests the nearest of, for a mistyped feature address
                "features_list": home + FILTER_TEXT_FILE,
                "features_prefix": page_url(FEATURES_INDEX),
                "links": [
                    (home + page_url(kind.path), kind.not_found_key) for kind in page_kinds() if kind.not_found_key
                ],
            }
        )
    return {"root": root, "upgrade": page_url(UPGRADE), "languages": found}


@cache
def bytecode_cache() -> jinja2.FileSystemBytecodeCache:
    """Jinja's cache of compiled templates, kept between runs. Jinja checks an entry against its
    template's source only, but compiled code also depends on the filters it calls (a filter that
    becomes `pass_context` is called differently): so the entries are named after the versions of
    Jinja, the engine and Material and after ReleaseKB's own code, and an upgrade starts a new set."""
    import hashlib
    from importlib.metadata import PackageNotFoundError, version

    key = hashlib.sha256()
    for package in ("jinja2", "mkdocs", "properdocs", "mkdocs-material", "releasekb"):
        try:  # the engine is MkDocs or ProperDocs, not always both; a source tree has no version
            key.update(f"{package}={version(package)};".encode())
        except PackageNotFoundError:
            key.update(f"{package} absent;".encode())
    for module in sorted(Path(__file__).parent.glob("*.py")):  # where the filters are made
        stat = module.stat()
        key.update(f"{module.name}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    return jinja2.FileSystemBytecodeCache(pattern=f"__releasekb_{key.hexdigest()[:16]}_%s.cache")


def environment(data_dir: Path | None = None) -> jinja2.Environment:
    """The templates' environment, one per process and set of templates folders (Jinja compiles
    each template once and keeps it): a team's own (`data_dir`'s TEAM_TEMPLATES, when it has
    them), the package's, then those of the registered page kinds."""
    team = Path(data_dir) / TEAM_TEMPLATES if data_dir is not None else None
    own = (team,) if team is not None and team.is_dir() else ()
    return _environment((*own, TEMPLATES_DIR, *template_folders()))


@cache
def _environment(folders: tuple[Path, ...]) -> jinja2.Environment:
    """folders: where templates are looked up, the first that has one winning."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(list(folders)),
        undefined=jinja2.StrictUndefined,
        # finalize escapes every printed value for HTML; autoescape makes macro
        # output Markup, so it is not escaped a second time.
        autoescape=True,
        finalize=_finalize,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        # Jinja comments are {## ... ##}, as they were when pages held Markdown anchors ({#torch-fft}).
        comment_start_string="{##",
        comment_end_string="##}",
        # compiled templates are kept between runs (checked against each template's source)
        bytecode_cache=bytecode_cache(),
        # The templates are the package's, read once per process: checking their files' times
        # at every use cost two system calls per page.
        auto_reload=False,
    )
    env.filters["attr"] = attr
    return env


def compile_templates() -> None:
    """Compile every template now (a build's worker does it while it waits for work)."""
    env = environment()
    for name in env.list_templates(extensions=["j2"]):
        env.get_template(name)


def render_language(catalog: Catalog, lang: str, site_url: str = "") -> dict[str, str]:
    """Render every page of one language, and the features index's FILTER_TEXT_FILE:
    {path inside the language tree: text}."""
    return render_pages(catalog, lang, site_url).texts


@dataclass(frozen=True)
class Rendered:
    """Pages of one language tree, what each of them links to, and the features index's
    FILTER_TEXT_FILE."""

    pages: dict[str, RenderedPage]  # {path inside the language tree: page}
    links: dict[str, frozenset[str]]  # {page path: the page paths it links to}
    filter_text: str

    @property
    def texts(self) -> dict[str, str]:
        """{path inside the language tree: text} of the standalone export, FILTER_TEXT_FILE included."""
        return export_texts(self.pages, self.filter_text)


def export_texts(pages: dict[str, RenderedPage], filter_text: str) -> dict[str, str]:
    """{path inside the language tree: text} of the standalone export (markdown_export.py): each
    page's Markdown, and the features index's FILTER_TEXT_FILE."""
    return {**{path: page.markdown() for path, page in pages.items()}, FILTER_TEXT_FILE: filter_text}


def render_pages(
    catalog: Catalog,
    lang: str,
    site_url: str = "",
    only: Collection[str] | None = None,
    rows: Rows | None = None,
    url_lang: str | None = None,
) -> Rendered:
    """Render the pages of one language (those whose path is in `only`, when given) and
    FILTER_TEXT_FILE, noting the pages each one links to (incremental.py reads them: a page
    shows what it links to, so it must be rendered again when one of those changes).

    rows: the overviews' rows kept from the caller's last render of this catalog's pages, which
    the caller has told what changed since (Rows.forget); the rows rendered now are added to
    them. None: every row is rendered.
    url_lang: the language whose address prefix permanent links take (default: lang); a
    section of another site (plugin.py) has its pages at the section's root in any language."""
    env = environment(catalog.data_dir)
    strings = interface_strings(lang, catalog.data_dir)
    made, links, badges = {}, {}, {}
    rows = Rows() if rows is None else rows
    # the helpers and the context every page shares, made once: each page only moves them to its path
    helpers = _PageHelpers("", lang, strings, site_url, badges, url_lang or lang, rows, catalog.languages, env)
    shared = {
        "catalog": catalog,
        "lang": lang,
        "t": strings,
        "paths": _PATHS,
        "svg": svg,
        **helpers.functions(),
    }
    for page in pages(catalog):
        if only is not None and page.path not in only:
            continue
        helpers.start(page.path)
        context = {**shared, "page_path": page.path, **page.context}
        own_front_matter, body = _own_front_matter(env.get_template(page.template).render(context))
        made[page.path] = RenderedPage(
            page.path,
            body,
            tuple(helpers.headings),
            page_description(page, catalog, lang, strings),
            page.kind.searched,
            own_front_matter,
            tuple((yaml.safe_load(own_front_matter) or {}).items()) if own_front_matter else (),
        )
        links[page.path] = frozenset(helpers.linked)
    # {"id":"text",...}, as json.dumps writes the dict (ensure_ascii=False, no spaces)
    members = ",".join(_filter_member(feature, lang, site_url, rows) for feature in catalog.features.values())
    return Rendered(made, links, "{" + members + "}\n")


def _filter_member(feature: Feature, lang: str, site_url: str, rows: Rows) -> str:
    """A feature's member of FILTER_TEXT_FILE's JSON object: its id and its text for the features
    index's filter (Feature.filter_text). Kept with the rows: made of the feature's own entries,
    it is made again when they change (Rows.forget)."""
    key = (site_url, lang, FILTER_TEXT_FILE, "filter_text", feature.id)
    if key not in rows:
        member = _json_text(feature.id) + ":" + _json_text(feature.filter_text(lang))
        rows[key] = (member, frozenset())
    return rows[key][0]


def _json_text(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _own_front_matter(text: str) -> tuple[str, str]:
    """(the lines of a template's own front matter, the rest): Material's `hide:` on the home page
    and the features index."""
    if not text.startswith("---\n"):
        return "", text
    end = text.find("\n---\n", 3)
    if end < 0:
        return "", text
    return text[4 : end + 1], text[end + 5 :]


def page_description(page: Page, catalog: Catalog, lang: str, strings: dict[str, str]) -> str:
    """One line that says what a page holds (its front matter's `description`, the page's
    <meta name="description">): the release's or feature's own summary, the level's meaning,
    else what the site is about."""
    if page.kind.description is not None:
        text = page.kind.description(page.context, lang)
    else:
        text = strings["site_description"].format(product=catalog.product_name[lang])
    text = " ".join(text.replace("`", "").split())
    # what search results and link previews show: about two lines
    return text if len(text) <= DESCRIPTION_LENGTH else text[:DESCRIPTION_LENGTH].rsplit(" ", 1)[0] + " …"


DESCRIPTION_LENGTH = 200


def render_all(catalog: Catalog, site_url: str = "") -> dict[str, str]:
    """{"en/releases/1.7.md": ..., "zh/releases/1.7.md": ...} for every language."""
    return {
        f"{lang}/{path}": text
        for lang in catalog.languages
        for path, text in render_language(catalog, lang, site_url).items()
    }


def index_titles(catalog: Catalog, lang: str) -> dict[str, str]:
    """{path: title} of the pages in the navigation, as their templates' headings say them in a
    language: the 404 page names the navigation in every language (test_render checks the two agree)."""
    return {kind.path: kind.nav_title(catalog, lang) for kind in navigation_kinds()}


def navigation_kinds() -> list[PageKind]:
    """The kinds of page the navigation lists (the overviews with a title), in the registry's order."""
    return [kind for kind in page_kinds() if kind.path and (kind.title or kind.nav_title_key)]


# The index pages (and the feed) templates link to, by name: paths.RELEASES_INDEX and the like.
_PATHS = {
    name: getattr(urls, name)
    for name in ("HOME", "RELEASES_INDEX", "FEATURES_INDEX", "STABILITY_INDEX", "CHANGELOG", "UPGRADE", "FEED")
}


def check_command(feature: Feature) -> str:
    """The `releasekb check` command that lists the uses of a feature's APIs in a codebase, with
    the --include patterns its non-Python APIs need; '' when none of its APIs is code."""
    languages = feature.code_languages
    if not languages:
        return ""
    files = feature.first.release.catalog.code_files
    includes = [f"--include '{pattern}'" for language in languages for pattern in files.get(language, ())]
    return " ".join(["releasekb check .", f"--only {feature.id}", *includes])


def stability_attribute(feature: Feature) -> str:
    """The features index row's `data-stability`, which docs/assets/releasekb.js reads: each
    release's status of the feature, '1.4=experimental 1.5=stable 1.7=change-deprecation'."""
    return " ".join(f"{entry.release.version}={entry.status_key}" for entry in feature.entries)


def levels_attribute(feature: Feature) -> str:
    """The features index row's `data-levels`, which releasekb.js reads to answer 'at level L as
    of release R': the level in effect from each release on where it changes, 'removed' from the
    removal on ('1.4=experimental 1.5=stable'); before the first, the feature did not exist."""
    return " ".join(f"{release.version}={state}" for release, state in feature.level_history)


class Rows(dict[tuple[str, str, str, str, str], tuple[str, frozenset[str]]]):
    """The overviews' rows (HTML), by (site_url, language, page path, macro, what the row shows: a
    feature id, or the path of the release page whose section it is), with the pages each links
    to: under `serve`, an edit renders again the rows of what it changed, not the thousands of
    others. The features' texts for the index's filter are kept here too (_filter_member). Kept by
    the caller of render_pages between its renders (generate.py)."""

    def forget(self, shown: Collection[str], shown_elsewhere: Collection[str]) -> None:
        """An edit changed what these rows show: the rows of `shown` (changed features' ids and
        changed pages' paths: a changelog section is its release page's row) are rendered again,
        and every row linking to a page of `shown_elsewhere`, whose change the pages linking to it
        show (incremental.Change.shown_elsewhere). A row linking to a release page whose entries
        alone changed is kept: it shows of them only those of the features it links to."""
        shown, linked = frozenset(shown), frozenset(shown_elsewhere)
        for key in [key for key, (_, links) in self.items() if key[-1] in shown or not linked.isdisjoint(links)]:
            del self[key]


class _PageHelpers:
    """Link and formatting helpers bound to the page being rendered. `badges` keeps each badge's
    HTML for the next pages of the same language and catalog: they show tens of thousands."""

    def __init__(
        self,
        path: str,
        lang: str,
        strings: dict[str, str],
        site_url: str,
        badges: dict | None = None,
        url_lang: str | None = None,
        rows: Rows | None = None,
        languages: tuple[str, ...] = (),
        env: jinja2.Environment | None = None,
    ):
        self.env = env or environment()
        self.path, self.lang, self.strings, self.site_url = path, lang, strings, site_url
        self.languages = languages or (lang,)  # the knowledge base's: the first's pages have no prefix
        self.url_lang = url_lang or lang  # the language prefix of permanent links
        self.badges: dict[tuple[str, str], Markup] = {} if badges is None else badges
        # the pages this page links to, or shows data of without a link (a part's event names the
        # feature it is part of): incremental.py renders it again when one of them changes
        self.linked: set[str] = set()
        self.headings: list[Heading] = []  # the page's headings, as `heading` wrote them
        self.rows = Rows() if rows is None else rows
        self._about_levels: Markup | None = None

    def markup(self, template: str, **values) -> Markup:
        """A piece of markup the helpers print (a badge, an admonition), from its template in
        templates/markup/, which a team's TEAM_TEMPLATES can replace: `values` are what it shows."""
        return Markup(self.env.get_template(f"markup/{template}.html.j2").render(values))

    def start(self, path: str) -> None:
        """Bind the helpers to the next page to render."""
        self.path = path
        self.linked = set()
        self.headings = []
        self._about_levels = None

    def functions(self) -> dict:
        return {
            "heading": self.heading,
            "href": self.href,
            "permalink": self.permalink,
            "file_href": self.file_href,
            "file_permalink": self.file_permalink,
            "about_levels_href": self.about_levels_href,
            "badge_path": badge_path,
            "format_date": self.format_date,
            "feature_path": feature_path,
            "release_path": release_path,
            "level_path": level_path,
            "upgrade_path": UPGRADE,
            "upgrade_href": self.upgrade_href,
            "redirect_href": self.redirect_href,
            "depends_on_entries": self.depends_on_entries,
            "badge": self.badge,
            "short_badge": self.short_badge,
            "change_badge": self.change_badge,
            "status_badge": self.status_badge,
            "entry_level": self.entry_level,
            "level_in_effect": self.level_in_effect,
            "current_level": self.current_level,
            "provenance": self.provenance,
            "feature_badge": self.feature_badge,
            "removed_badge": self.removed_badge,
            "levels_as_of": self.levels_as_of,
            "stability_attribute": stability_attribute,
            "levels_attribute": levels_attribute,
            "features_filter_href": self.features_filter_href,
            "check_command": check_command,
            "event_text": self.event_text,
            "related_text": self.related_text,
            "translation_note": self.translation_note,
            "language_label": self.language_label,
            "entry_links": self.entry_links,
            "migration": self.migration,
            "row": self.row,
            "code": code,
            "css_labels": css_labels,
            "label": self.label,
            "parens": self.parens,
            "count": self.count,
            "versions_text": self.versions_text,
            "plural_form": self.plural_form,
            "number": self.number,
        }

    def label(self, text: object) -> Markup:
        """'Current level: ' before a value, with this language's colon (当前级别：)."""
        return Markup(self.strings["label"]).format(label=escape_text(text))

    def parens(self, text: object) -> Markup:
        """'(as of 1.5)', with this language's parentheses (（截至 1.5）)."""
        return Markup(self.strings["parenthesized"]).format(text=escape_text(text))

    def count(self, key: str, number: int) -> str:
        """'1 breaking change', '3 breaking changes': the interface string `key` for a count."""
        return count_text(self.strings, key, number)

    def versions_text(self, key: str, versions: list[str], **values: str) -> str:
        """The plural text `key` for a list of releases ('1.6 is', '1.3 and 1.6 are'), with the
        list as {versions} and `values` for its other placeholders."""
        return plural_text(self.lang, self.strings[key], len(versions)).format(
            versions=list_text(versions, self.strings), **values
        )

    def heading(self, level: int, text: object, anchor: str) -> Markup:
        """A section heading with its anchor, as a Markdown heading on a line of its own
        (`## text {#anchor}`, attr_list's syntax), kept on the page as it is written: an engine
        that converts the standalone page without our plugin gives it the same heading, anchor and
        table-of-contents entry, and the plugin takes the page's HTML, title and table of contents
        from what is kept (rendered_page.py) without converting the page. A function rather than
        a macro: a macro call costs Jinja several times as much, and a language's pages have a
        heading per entry, tens of thousands for a long history."""
        written = Heading.of(level, escape_text(text), attr(anchor))
        self.headings.append(written)
        return Markup(f"\n{written.markdown_line}\n\n")

    def row(self, shown: str, macro, *args) -> Markup:
        """macro(*args): a row of an overview that shows only the data of `shown` (a feature id:
        its entries; a release page's path: that release's section) and of the pages it links to,
        kept while none of them changed (Rows.forget). A row holds no heading: a kept row would not
        tell the page it has one."""
        # the macro's name too: a page may show a feature in two lists (a level page's now and before)
        key = (self.site_url, self.lang, self.path, macro.name, shown)
        if key not in self.rows:
            page_links, self.linked = self.linked, set()
            self.rows[key] = (Markup(macro(*args)), frozenset(self.linked))
            self.linked = page_links
        row, links = self.rows[key]
        self.linked |= links  # a kept row links where it did when it was made (incremental.py reads them)
        return row

    def href(self, to_path: str, anchor: str = "") -> Markup:
        self.linked.add(to_path)
        return attr(relative_url(self.path, to_path) + (f"#{anchor}" if anchor else ""))

    def depends_on_entries(self, release) -> str:
        """Note that what is shown depends on every entry of `release`, linked or not (the upgrade
        view lists only the entries an upgrader must know of: an edit elsewhere in a feature's
        history can add or remove one); prints nothing."""
        self.linked.update(feature_path(entry.feature.id) for entry in release.entries)
        return ""

    def upgrade_href(self, old: str, new: str) -> Markup:
        """A link to the upgrade view showing what changed from `old` to `new`."""
        return attr(relative_url(self.path, UPGRADE) + upgrade_query(old, new))

    def redirect_href(self, to_path: str, suffix: str) -> Markup:
        """A link to a page with a query or an anchor ('?from=1.4&to=1.7')."""
        self.linked.add(to_path)
        return attr(relative_url(self.path, to_path) + suffix)

    def features_filter_href(self, level: str, as_of: str = "") -> Markup:
        """A link to the features index listing the features at `level` as of release `as_of` (by
        default the latest)."""
        return self.redirect_href(FEATURES_INDEX, features_query(stability=level, as_of=as_of))

    def language_label(self, code: str) -> str:
        """A language's name in this page's language: the interface strings' `lang_<code>` when
        they have one, else Babel's (CLDR) name."""
        named = self.strings.get(f"lang_{code}")
        if named:
            return named
        try:
            return Locale.parse(code).get_display_name(self.lang) or code
        except (ValueError, UnknownLocaleError):
            return code

    def permalink(self, to_path: str) -> str:
        """The permanent address of a page in this language: absolute when site_url is set."""
        return permanent_url(self.site_url, self.languages, self.url_lang, page_url(to_path))

    def format_date(self, text: str) -> str:
        """A release date in this language's long form (October 27, 2020; 2020年10月27日)."""
        return format_release_date(self.lang, text)

    def number(self, value: int) -> str:
        """A count as this language writes numbers (12,345)."""
        return format_number(self.lang, value)

    def plural_form(self, key: str, count: int | None = None) -> str:
        """The unformatted form of a plural text for a count (None: the `other` form), for a
        script that fills it in (releasekb.js picks the form for 1 or the other one)."""
        value = self.strings[key]
        if count is None:
            return value["other"] if isinstance(value, dict) else value
        return plural_text(self.lang, value, count)

    def badge(self, level) -> Markup:
        if level is None:
            return Markup("")
        key = ("level", level.key)
        if key not in self.badges:
            name, description = escape_text(level.name[self.lang]), attr(level.description[self.lang])
            self.badges[key] = self.markup("badge", level=level, name=name, description=description)
        return self.badges[key]

    def short_badge(self, level) -> Markup:
        """A badge without the level's description: for long tables, whose legend explains it."""
        if level is None:
            return Markup("")
        key = ("short", level.key)
        if key not in self.badges:
            self.badges[key] = self.markup("short_badge", level=level, name=escape_text(level.name[self.lang]))
        return self.badges[key]

    def change_badge(self, kind: str) -> Markup:
        key = ("change", kind)
        if key not in self.badges:
            text = escape_text(self.strings["change_" + kind])
            self.badges[key] = self.markup("change_badge", kind=f"change-{kind}", text=text)
        return self.badges[key]

    def entry_level(self, entry: Entry | None) -> Markup:
        """The feature's level as of an entry's release, saying where it comes from when not the
        release's own statement: 'Experimental (stated in the 1.5 announcement)', 'Experimental
        (stated for 1.4 in the 1.5 announcement; 1.5 did not restate it)'. Empty for a change."""
        if entry is None or entry.in_effect is None:
            return Markup("")
        return self.level_in_effect(entry.in_effect)

    def level_in_effect(self, state: LevelInEffect | None, short: bool = False) -> Markup:
        """A level in effect: its badge (short: without the description, for tables) and its
        provenance."""
        if state is None:
            return Markup("")
        badge = self.short_badge(state.level) if short else self.badge(state.level)
        text = state.provenance(self.strings, short)
        return badge + self._provenance_note(text) if text else badge

    def provenance(self, entry: Entry, short: bool = False) -> Markup:
        """' (stated in the 1.5 announcement)' and the like for a level the entry's release did
        not state itself, else nothing."""
        text = entry.in_effect.provenance(self.strings, short) if entry.in_effect else ""
        return self._provenance_note(text) if text else Markup("")

    def _provenance_note(self, text: str) -> Markup:
        """' (per 1.5)', a link to the about page's section that explains such notes: a reader
        who does not know why a level comes from another release finds out there."""
        return self.markup("provenance", href=self.about_levels_href(), text=Markup.escape(text))

    def about_levels_href(self) -> Markup:
        """The about page's section on reading levels (one address per page, worked out once)."""
        if self._about_levels is None:
            self._about_levels = attr(relative_url(self.path, ABOUT) + "#" + ABOUT_LEVELS_ANCHOR)
        return self._about_levels

    def file_href(self, path: str) -> Markup:
        """A file of this language's site that is not a page (the feed, a badge), from this page."""
        folder, _, name = path.rpartition("/")
        return attr(relative_site_url(page_url(self.path), folder + "/" if folder else "./") + name)

    def file_permalink(self, path: str) -> str:
        """The permanent address of a file of this language's site (a badge), as permalink's."""
        return permanent_url(self.site_url, self.languages, self.url_lang, path)

    def status_badge(self, entry: Entry) -> Markup:
        """What a release said about a feature, for tables: its level in effect, or for a change its kind."""
        if entry.in_effect is None:
            return self.change_badge(entry.kind)
        return self.level_in_effect(entry.in_effect, short=True)

    def removed_badge(self, release) -> Markup:
        """The current state of a feature a release removed: 'Removed in 2.0', never its last level."""
        key = ("removed", release.version)
        if key not in self.badges:
            text = self.strings["state_removed_in"].format(version=release.version)
            self.badges[key] = self.markup("change_badge", kind="change-removal", text=escape_text(text))
        return self.badges[key]

    def current_level(self, feature: Feature, short: bool = True) -> Markup:
        """A feature's current level ('Removed in 2.0' once removed), empty when only changes
        mention it; short: for long tables (see level_in_effect)."""
        if feature.removed_in:
            return self.removed_badge(feature.removed_in)
        return self.level_in_effect(feature.current, short=short)

    def feature_badge(self, feature: Feature) -> Markup:
        """A feature's current level ('Removed in 2.0' once removed), or, when only changes
        mention it, the kind of the latest."""
        if feature.removed_in:
            return self.removed_badge(feature.removed_in)
        if feature.current is None:
            return self.change_badge(feature.latest.kind)
        return self.level_in_effect(feature.current, short=True)

    def levels_as_of(self, feature: Feature) -> Markup:
        """The features index's level cell: a badge per state the feature has been in (its
        level_history; for a feature only changes mention, the kind of each change), each marked
        with the release it holds from and its sort key, the latest shown. The script shows the
        one in effect as of the reader's 'as of' release, and none before the feature existed."""
        catalog = feature.first.release.catalog
        if any(entry.in_effect for entry in feature.entries):
            steps = [
                (
                    release,
                    state,
                    self.removed_badge(release) if state == "removed" else self.short_badge(catalog.levels[state]),
                )
                for release, state in feature.level_history
            ]
        else:
            steps = [(entry.release, "", self.change_badge(entry.kind)) for entry in feature.entries]
        steps[-1] = (*steps[-1][:2], self.feature_badge(feature))  # with where its level comes from
        shown = [
            {"version": Markup.escape(release.version), "order": catalog.state_order(state), "badge": badge}
            for release, state, badge in steps
        ]
        return self.markup("level_steps", steps=shown)

    def entry_links(self, entry: Entry) -> Markup:
        """An entry's API names and links, a paragraph each (none for what it has none of)."""
        replacements = []
        for ref in entry.api_refs:
            if ref.replacement:  # a swap only when it is one: else the migration says what to do
                key = "replacement_drop_in" if ref.drop_in else "replacement_not_drop_in"
                text = escape_text(self.strings[key].format(api=ref.name, replacement=ref.replacement))
                provider = entry.release.catalog.provider_of(ref.replacement)
                if provider is not None and provider is not entry.feature:  # the way to what replaces it
                    link = Markup('<a href="{}">{}</a>').format(
                        self.href(feature_path(provider.id)), escape_text(provider.title[self.lang])
                    )
                    text += Markup(" ") + Markup(escape_text(self.strings["replacement_provided_by"])).format(
                        feature=link
                    )
                replacements.append(text)
        return self.markup(
            "entry_links",
            apis=[code(api) for api in entry.apis],
            separator=escape_text(self.strings["list_separator"]),
            apis_label=self.label(self.strings["apis"]),
            replacements=replacements,
            links=[{"url": attr(link.url), "label": escape_text(self.strings[link.label_key])} for link in entry.links],
            links_label=self.label(self.strings["links"]),
        )

    def migration(self, text: str) -> Markup:
        """A change's migration advice, as an admonition."""
        return self.markup("migration", t=self.strings, text=escape_text(text))

    def translation_note(self, item) -> Markup:
        """On a release or an entry whose translation in this language may be out of date (its
        English text changed since it was reviewed), a note saying so; else nothing."""
        if self.lang not in item.stale_languages:
            return Markup("")
        return self.markup("translation_note", t=self.strings)

    def related_text(self, relation: Relation) -> Markup:
        """Why a feature page links to another: '`torch.fft` is also the name of an older API:'."""
        template = Markup(escape_text(self.strings[relation.text_key]))
        return template.format(api=code(relation.api), replacement=code(relation.replacement))

    def event_text(self, event) -> Markup:
        """'promoted from Experimental to Stable' and the like, in this language."""
        template = self.strings[event.kind_info.text_key]
        parent = event.feature.parent
        if parent:
            self.linked.add(feature_path(parent.id))  # its title is shown, without a link
        names = {
            "before": escape_text(event.before.name[self.lang]) if event.before else "",
            "after": escape_text(event.after.name[self.lang]) if event.after else "",
            "parent": escape_text(parent.title[self.lang]) if parent else "",
        }
        return Markup(template.format(**names))
