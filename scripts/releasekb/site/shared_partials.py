"""Material's navigation and tabs, rendered once for all the pages they look the same from.

A whole site has thousands of pages the navigation does not list (every release, feature and
level page, see mkdocs.yml's `not_in_nav`), and Material renders its navigation sidebar and its
tabs again for each: a fifth of the time MkDocs spent on a generated page. For such a page, both
are made of the navigation's state (which entries are active: the tab of the page's folder, see
plugin_modes._section_page_of) and of addresses relative to the page's folder, since nothing in
the navigation leads into the page itself. Pages that share the folder and that state get the
same HTML, so it is rendered for the first of them and reused.

The theme's `partials/nav.html` and `partials/tabs.html` (theme/) call `releasekb_shared_partial`
with their own name. The partial itself is rendered as the theme has it without the package's
overrides: Material's, or the site's own custom_dir copy, with the same variables an `include`
passes. A page the navigation lists, or one it leads into, is rendered every time.
"""

from __future__ import annotations

import posixpath

import jinja2
from markupsafe import Markup

# The global the theme's partials call (theme/partials/nav.html, tabs.html).
GLOBAL_NAME = "releasekb_shared_partial"


class SharedPartials:
    """One build's shared partials: the HTML of each partial per (folder, navigation state)."""

    def __init__(self, env: jinja2.Environment, theme_dirs: list[str], own_theme_dir: str):
        # The theme's templates without the package's overrides, which call this: a partial
        # named here resolves to the one they stand in front of.
        below = [folder for folder in theme_dirs if folder != own_theme_dir]
        self._env = env.overlay(loader=jinja2.FileSystemLoader(below))
        self._html: dict[tuple, Markup] = {}
        self.rendered = 0  # how many times a partial was rendered (the rest were reused): for the tests

    def install(self, env: jinja2.Environment) -> None:
        env.globals[GLOBAL_NAME] = self.render

    @jinja2.pass_context
    def render(self, context: jinja2.runtime.Context, name: str) -> Markup:
        """The partial `name`, as `{% include name %}` would render it at this point."""
        key = _same_from(context.get("page"), context.get("nav"))
        if key is not None and (name, key) in self._html:
            return self._html[(name, key)]
        self.rendered += 1
        html = Markup(self._env.get_template(name).render(context.get_all()))
        if key is not None:
            self._html[(name, key)] = html
        return html


def _same_from(page, nav) -> tuple | None:
    """What the navigation's HTML depends on for this page: its folder (every address in it is
    relative to the page) and which entries are active; None when it depends on the page itself
    (the navigation lists it, or leads to an address inside it)."""
    if page is None or nav is None or not page.url:
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
