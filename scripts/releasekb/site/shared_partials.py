"""The parts of a page that look the same from many pages, rendered once for all of them:
Material's navigation, tabs and colour toggle, the search box and the scripts' settings.

A whole site has thousands of pages the navigation does not list (every release, feature and
level page, see mkdocs.yml's `not_in_nav`), and the theme rendered these parts again for each:
a third of the time MkDocs spent on a generated page. For such a page, they are made of the site's
settings, of the navigation's state (which entries are active: the tab of the page's folder, see
plugin_modes._section_page_of) and of addresses relative to the page's folder, since none of them
leads into the page itself. Pages that share the folder and that state get the same HTML, so it is
rendered for the first of them and reused.

The theme's stubs (theme/partials/nav.html, tabs.html, palette.html, search.html, and main.html's
`config` block) call `releasekb_shared_partial` with a name from SHARED. The partial is rendered as
the theme has it without the package's stubs: Material's, or the site's own custom_dir copy, or
for a releasekb-* name the package's own, with the same variables an `include` passes. A page
the navigation lists, or one that a shared part leads into, is rendered every time.
"""

from __future__ import annotations

import posixpath

import jinja2
from markupsafe import Markup

from releasekb.kb.urls import FEATURES_INDEX, SEARCH_WORKER, page_url

# The global the theme's stubs call.
GLOBAL_NAME = "releasekb_shared_partial"

# {partial: the addresses it leads to besides the navigation's entries}: the one list of the
# parts shared, read by the key (_same_from) so that a page one of them leads into has its own.
SHARED: dict[str, tuple[str, ...]] = {
    "partials/nav.html": (),
    "partials/tabs.html": (),
    "partials/palette.html": (),
    "partials/releasekb-search.html": (page_url(FEATURES_INDEX),),  # the form's way on without JavaScript
    "partials/releasekb-config.html": (SEARCH_WORKER,),  # the search worker's address
}


class SharedPartials:
    """One build's shared partials: the HTML of each partial per (folder, navigation state)."""

    def __init__(self, env: jinja2.Environment, theme_dirs: list[str], own_theme_dir: str):
        # The theme's templates with the package's folder last: a name the theme has (Material's,
        # or the site's custom_dir) is the template its stub stands in front of; the package's
        # own partials (releasekb-*) are found after them.
        below = [folder for folder in theme_dirs if folder != own_theme_dir]
        self._env = env.overlay(loader=jinja2.FileSystemLoader([*below, own_theme_dir]))
        self._html: dict[tuple, Markup] = {}
        self.rendered = 0  # how many times a partial was rendered (the rest were reused): for the tests

    def install(self, env: jinja2.Environment) -> None:
        env.globals[GLOBAL_NAME] = self.render

    @jinja2.pass_context
    def render(self, context: jinja2.runtime.Context, name: str) -> Markup:
        """The partial `name` (one of SHARED), as `{% include name %}` would render it here."""
        key = _same_from(context.get("page"), context.get("nav"), SHARED[name])
        if key is not None and (name, key) in self._html:
            return self._html[(name, key)]
        self.rendered += 1
        html = Markup(self._env.get_template(name).render(context.get_all()))
        if key is not None:
            self._html[(name, key)] = html
        return html


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
