"""The parts of a page that look the same from many pages, rendered once for all of them:
Material's navigation, tabs and colour toggle, the search box, the scripts' settings, the footer
and the table of contents.

A whole site has thousands of pages the navigation does not list (every release, feature and
level page, see mkdocs.yml's `not_in_nav`), and the theme rendered these parts again for each:
a third of the time MkDocs spent on a generated page. For such a page, they are made of the site's
settings, of the navigation's state (which entries are active: the tab of the page's folder, see
plugin_modes._section_page_of) and of addresses relative to the page's folder, since none of them
leads into the page itself. Pages that share the folder and that state get the same HTML, so it is
rendered for the first of them and reused.

The header is shared too, but for what is the page's own in it: its title, and the language
switcher's links (to the same page in each language). It is rendered once per folder and state with
a mark for each, which each page's own replaces: the title, and the switcher rendered for the page
(its stub, theme/partials/alternate.html, calls `releasekb_page_part`, which prints the mark while a
shared header renders). A page whose front matter sets its title is rendered on its own. The
switcher itself differs from page to page only by its links, each already relative to its page
(RelativeLink, which the `url` filter leaves as it is): it is rendered once with a mark in place of
each link (BY_LINKS), which each page's links replace.

The table of contents (Material's toc.html) is made of the page's contents alone, whose links are
the page's own anchors: it is shared by pages with the same contents, wherever they are
(BY_CONTENTS). At 80 releases, 3,606 feature pages have 970 different ones.

The theme's stubs (theme/partials/header.html, nav.html, tabs.html, palette.html, search.html,
footer.html, toc.html, and main.html's `config` block) call `releasekb_shared_partial` with a name
from SHARED. The partial is rendered as the theme has it without the package's stubs: Material's,
or the site's own custom_dir copy, or for a releasekb-* name the package's own, with the same
variables an `include` passes. A page the navigation lists, or one that a shared part leads into,
is rendered every time.
"""

from __future__ import annotations

import posixpath
from collections import Counter

import jinja2
from markupsafe import Markup

from releasekb.kb.urls import FEATURES_INDEX, SEARCH_WORKER, page_url

# The globals the theme's stubs call.
GLOBAL_NAME = "releasekb_shared_partial"
PAGE_PART_NAME = "releasekb_page_part"

# {partial: the addresses it leads to besides the navigation's entries}: the one list of the
# parts shared, read by the key (_same_from) so that a page one of them leads into has its own.
SHARED: dict[str, tuple[str, ...]] = {
    "partials/header.html": (),  # its page parts excepted (PAGE_PARTS, the title)
    "partials/nav.html": (),
    "partials/tabs.html": (),
    "partials/palette.html": (),
    "partials/releasekb-search.html": (page_url(FEATURES_INDEX),),  # the form's way on without JavaScript
    "partials/releasekb-config.html": (SEARCH_WORKER,),  # the search worker's address
    "partials/toc.html": (),  # made of the page's table of contents alone (BY_CONTENTS)
    "partials/footer.html": (),  # its previous and next links are only on pages the navigation lists
}
# The partials that are the same for every page with the same table of contents, wherever it is
# (its links are the page's own anchors): shared by that, not by folder and navigation state.
BY_CONTENTS = frozenset({"partials/toc.html"})
# The partial that prints the page's title (Material's header): shared with a mark in its place.
TITLED = "partials/header.html"
# {a part of a shared partial that is each page's own: the mark a shared render prints for it}.
PAGE_PARTS = {"partials/alternate.html": "\x00releasekb-page-part:alternate\x00"}
TITLE_MARK = "\x00releasekb-page-part:title\x00"
# The page parts that differ from page to page only by the links of `config.extra.alternate`:
# shared by the rest of those entries, with a mark for each link (_alternate_key).
BY_LINKS = frozenset({"partials/alternate.html"})
LINK_MARK = "\x00releasekb-link:{}\x00"


class RelativeLink(str):
    """A link already relative to the current page: the `url` filter leaves it as it is (it cannot
    express a page in the other language's tree, above this build's root), so a theme prints it
    as it is, which is what lets a mark stand in for it (BY_LINKS)."""


class SharedPartials:
    """One build's shared partials: the HTML of each partial per (folder, navigation state)."""

    def __init__(self, env: jinja2.Environment, theme_dirs: list[str], own_theme_dir: str):
        # The theme's templates with the package's folder last: a name the theme has (Material's,
        # or the site's custom_dir) is the template its stub stands in front of; the package's
        # own partials (releasekb-*) are found after them.
        below = [folder for folder in theme_dirs if folder != own_theme_dir]
        theirs = jinja2.FileSystemLoader([*below, own_theme_dir])
        self._theme = env.overlay(loader=theirs)  # a page part, as the theme has it

        def only(loader: jinja2.BaseLoader, names) -> jinja2.FunctionLoader:
            return jinja2.FunctionLoader(lambda name: loader.get_source(env, name) if name in names else None)

        # A shared partial: itself as the theme has it; what it includes as a page includes it (the
        # header's search box is the package's, through its stub), but for the page parts, which
        # are the package's stubs whatever the site overrides (page_part prints their marks).
        own = jinja2.FileSystemLoader(own_theme_dir)
        self._env = env.overlay(loader=jinja2.ChoiceLoader([only(own, PAGE_PARTS), only(theirs, SHARED), env.loader]))
        self._html: dict[tuple, Markup] = {}
        self._state: tuple = (None, None, None)  # (page, nav, _same_from of them): _folder_state's last
        self._marking = 0  # how many shared renders are under way: page parts print their marks
        self.rendered: Counter[str] = Counter()  # {partial: times rendered (the rest were reused)}: for the tests

    def install(self, env: jinja2.Environment) -> None:
        env.globals[GLOBAL_NAME] = self.render
        env.globals[PAGE_PART_NAME] = self.page_part

    @jinja2.pass_context
    def render(self, context: jinja2.runtime.Context, name: str) -> Markup:
        """The partial `name` (one of SHARED), as `{% include name %}` would render it here."""
        page = context.get("page")
        key = _sharing_key(name, page, context.get("nav"), self._folder_state)
        if key is None:
            self.rendered[name] += 1
            return Markup(self._env.get_template(name).render(context.get_all()))
        if (name, key) not in self._html:
            self.rendered[name] += 1
            variables = context.get_all()
            if name == TITLED:
                variables["page"] = _TitledAs(page, TITLE_MARK)
            self._marking += 1
            try:
                self._html[(name, key)] = Markup(self._env.get_template(name).render(variables))
            finally:
                self._marking -= 1
        return self._with_page_parts(self._html[(name, key)], context, page)

    def _folder_state(self, page, nav) -> tuple | None:
        """_same_from(page, nav), worked out once for the page rather than by each partial."""
        if self._state[0] is not page or self._state[1] is not nav:
            self._state = (page, nav, _same_from(page, nav))
        return self._state[2]

    @jinja2.pass_context
    def page_part(self, context: jinja2.runtime.Context, name: str) -> Markup:
        """The partial `name` (one of PAGE_PARTS) as `{% include name %}` would render it here; its
        mark while a shared partial is rendered, which each page's own replaces."""
        if self._marking:
            return Markup(PAGE_PARTS[name])
        config = context.get("config")
        alternates = config.extra.get("alternate") if config is not None else None
        key = _sharing_key(name, context.get("page"), context.get("nav"), lambda page, nav: _alternate_key(alternates))
        if key is None:
            self.rendered[name] += 1
            return Markup(self._theme.get_template(name).render(context.get_all()))
        if (name, key) not in self._html:
            self.rendered[name] += 1
            config.extra["alternate"] = [
                {**alternate, "link": RelativeLink(LINK_MARK.format(number))}
                for number, alternate in enumerate(alternates)
            ]
            try:
                self._html[(name, key)] = Markup(self._theme.get_template(name).render(context.get_all()))
            finally:
                config.extra["alternate"] = alternates
        text = str(self._html[(name, key)])
        for number, alternate in enumerate(alternates):
            text = text.replace(LINK_MARK.format(number), alternate["link"])
        return Markup(text)

    def _with_page_parts(self, html: Markup, context: jinja2.runtime.Context, page) -> Markup:
        """A shared partial's HTML with each mark replaced by the page's own, as the theme prints
        it (str: Markup's own replace would escape the title)."""
        text = str(html)
        if TITLE_MARK in text:
            text = text.replace(TITLE_MARK, str(page.title))
        for name, mark in PAGE_PARTS.items():
            if mark in text:
                text = text.replace(mark, self.page_part(context, name))
        return Markup(text)


class _TitledAs:
    """A page as a shared partial sees it: itself, but for its title."""

    def __init__(self, page, title: str):
        self._page = page
        self.title = title

    def __getattr__(self, name: str):
        return getattr(self._page, name)


def _sharing_key(name: str, page, nav, shared_state) -> tuple | None:
    """What the shared partial `name` depends on for this page: pages with the same key get the
    same HTML (but for their page parts); None: it is the page's own. shared_state(page, nav): what
    the rest depends on, worked out once for the page: _same_from(page, nav) for the parts of
    SHARED, the entries of `config.extra.alternate` but for their links for those of BY_LINKS."""
    if name in BY_LINKS:
        return shared_state(page, nav)  # the page part's: its entries but for their links (_alternate_key)
    if name in BY_CONTENTS:
        toc = list(getattr(page, "toc", None) or ())
        titled = bool(toc) and toc[0].level == 1  # as toc.html: the page's title is not an entry
        contents = _contents_of(toc[0].children if titled else toc)
        return None if contents is None else (titled, contents)  # `titled` changes its white space too
    if name == TITLED and (getattr(page, "meta", None) or {}).get("title"):
        return None  # Material prints the front matter's title, which no mark stands for
    if page is not None and page.url and any(address.startswith(page.url) for address in SHARED[name]):
        return None  # it leads into the page
    return shared_state(page, nav)


def _alternate_key(alternates) -> tuple | None:
    """What a BY_LINKS part depends on: each entry of `config.extra.alternate` but for its link;
    None (rendered for the page alone) unless every link is a RelativeLink, which the theme prints
    as it is, and every other value can be compared."""
    if not isinstance(alternates, list) or not alternates:
        return None
    key = []
    for alternate in alternates:
        link = alternate.get("link") if isinstance(alternate, dict) else None
        if not isinstance(link, RelativeLink) or any(char in link for char in "&<>\"'"):
            return None  # printed through a filter, or changed by escaping: not the mark's place
        rest = tuple(sorted((name, value) for name, value in alternate.items() if name != "link"))
        if not all(isinstance(value, str) for _, value in rest):
            return None
        key.append(rest)
    return tuple(key)


def _contents_of(toc) -> tuple | None:
    """A table of contents as what Material's toc.html prints of it: each entry's address, title
    and level, and its entries; None for one whose entries carry more (a plugin's `typeset`)."""
    entries = []
    for item in toc:
        if getattr(item, "typeset", None) is not None:
            return None
        children = _contents_of(item.children)
        if children is None:
            return None
        entries.append((item.url, item.title, item.level, children))
    return tuple(entries)


def _same_from(page, nav, leads_to: tuple[str, ...] = ()) -> tuple | None:
    """What a shared part's HTML depends on for this page: its folder (every address in it is
    relative to the page) and which of the navigation's entries are active; None when it depends
    on the page itself (the navigation lists it, or the part leads to an address inside it:
    an entry's or one of `leads_to`)."""
    if page is None or nav is None or not page.url:
        return None
    if any(address.startswith(page.url) for address in leads_to):
        return None
    active = []
    for item in _entries(nav.items):
        if item is page:
            return None
        url = getattr(item, "url", None)
        if isinstance(url, str) and url.startswith(page.url):
            return None
        active.append(bool(getattr(item, "active", False)))
    return posixpath.dirname(page.url.rstrip("/")), tuple(active)


def _entries(items):
    for item in items:
        yield item
        yield from _entries(getattr(item, "children", None) or ())
