"""The kinds of page the site has, in one registry: where each kind's pages are, which template
makes them, whether there is one per release or feature (or per former address of one) or one
overview, its navigation title, its description and what search learns of it besides its text.

Every consumer loops over this list: the pages of a language tree (pages.py), their descriptions
and search exclusion (render.py), what an edit renders again (incremental.py), search's filters,
metadata and facts (search.py), the navigation of a section and its index titles, the 404 page's
links and the URL contract. A new kind of page is one `PageKind` given to `register` (see
CONTRIBUTING.md, "Adding a page kind"); nothing else needs to know of it.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from releasekb.common.i18n import interface_strings
from releasekb.kb.catalog import Catalog, Feature
from releasekb.kb.urls import (
    CHANGELOG,
    FEATURES_INDEX,
    FILTER_TEXT_FILE,
    GENERATED_PATHS,
    HOME,
    RELEASES_INDEX,
    STABILITY_INDEX,
    UPGRADE,
    address_path,
    feature_path,
    level_path,
    release_path,
    split_address,
)


class PageKindError(ValueError):
    """A kind of page that cannot be registered (its templates folder, an entry point's target)."""


# What search keeps of a page besides its text: (name, value) pairs, in order.
Facts = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class PageKind:
    """One kind of page. An overview has one page at `path`; a kind with `items` has a page per
    (path, context) that items(catalog) gives. Every function takes the page's context (what its
    template receives besides the shared helpers), so a kind's knowledge stays here."""

    name: str  # 'release': what tests and errors call it
    template: str  # the Jinja template that renders its pages ('release.html.j2')
    path: str = ""  # an overview's page, inside a language tree ('releases/index.md')
    items: Callable[[Catalog], Iterable[tuple[str, dict]]] | None = None  # the pages of a per-item kind
    context: dict = field(default_factory=dict)  # an overview's own context
    # One page per release or feature (or per former address of one): its number grows with the
    # history, and an edit renders it again only when it shows what changed (incremental.py).
    # Every other page is an overview, rendered again after any edit.
    per_item: bool = False
    # The interface string of its title in the navigation (a section's menu, the 404 page's
    # links); None: not in the navigation. The home page's title is the site's name (`title`).
    nav_title_key: str | None = None
    not_found_key: str | None = None  # the 404 page's link to it, when it has one
    title: Callable[[Catalog, str], str] | None = None  # its navigation title, when no interface string is
    # One line that says what a page holds (its <meta name="description">), from its context and
    # language; None: what the site is about.
    description: Callable[[dict, str], str] | None = None
    searched: bool = True  # False: it repeats other pages, and search leaves it out
    # Search: filters a query can name (level:beta), metadata ranked as the title is, and facts
    # each result shows; each from the page's context, catalog and language.
    search_filters: Callable[[dict, Catalog, str], Facts] | None = None
    search_meta: Callable[[dict, Catalog, str], Facts] | None = None
    search_facts: Callable[[dict, Catalog, str], Facts] | None = None
    in_contract: bool = False  # its pages' addresses are in the URL contract (contract.py)
    templates: Path | None = None  # the folder of its template, for a kind from outside the package

    def pages_of(self, catalog: Catalog) -> Iterable[tuple[str, dict]]:
        """(path, context) of each of its pages."""
        if self.items is not None:
            return self.items(catalog)
        return [(self.path, self.context)]

    def nav_title(self, catalog: Catalog, lang: str) -> str:
        """Its title in the navigation, in a language ('' when it has none)."""
        if self.title is not None:
            return self.title(catalog, lang)
        return interface_strings(lang, catalog.data_dir)[self.nav_title_key] if self.nav_title_key else ""


def _feature_filters(context: dict, catalog: Catalog, lang: str) -> Facts:
    """A feature's area, level and releases, each as its key and as its name in the language, so
    that `level:beta` and `级别:测试版` find the same pages."""
    feature: Feature = context["feature"]
    values = [("area", feature.area.key), ("area", feature.area.name[lang])]
    if feature.level:
        values += [("level", feature.level.key), ("level", feature.level.name[lang])]
    values += [("release", version) for version in dict.fromkeys(r.version for r in feature.releases)]
    return tuple(dict.fromkeys(values))


def _feature_meta(context: dict, catalog: Catalog, lang: str) -> Facts:
    """A feature's API names, searched and ranked as its title is."""
    feature: Feature = context["feature"]
    return (("apis", ", ".join(feature.apis)),) if feature.apis else ()


def _feature_facts(context: dict, catalog: Catalog, lang: str) -> Facts:
    """A feature's badge as its page shows it (its level, or for a feature that only changed, a
    deprecation or a removal, its latest change), the release that badge is stated as of, and
    how many features are parts of it (an umbrella feature ranks above its parts)."""
    feature: Feature = context["feature"]
    strings = interface_strings(lang, catalog.data_dir)
    facts = []
    if feature.removed_in:  # its current state, as its page says it: never its last level
        version = feature.removed_in.version
        text = strings["state_removed_in"].format(version=version)
        facts += [("badge", "change-removal"), ("badge_text", text), ("as_of", version)]
    elif feature.level:
        facts += [("badge", f"level-{feature.level.key}"), ("badge_text", feature.level.name[lang])]
        if feature.level_stated_in:
            facts.append(("as_of", feature.level_stated_in.version))
    elif feature.latest.is_change:
        change = feature.latest
        facts += [("badge", f"change-{change.kind}"), ("badge_text", strings[change.label_key])]
        facts.append(("as_of", change.release.version))
    if feature.parts:
        facts.append(("parts", str(len(feature.parts))))
    return tuple(facts)


def _redirects(catalog: Catalog) -> Iterable[tuple[str, dict]]:
    for old, new in catalog.redirects.items():
        path, suffix = split_address(new)
        yield address_path(old), {"target_path": address_path(path), "target_suffix": suffix}


HOME_PAGE = PageKind("home", "home.html.j2", path=HOME, title=lambda catalog, lang: catalog.site_name[lang])
RELEASES = PageKind(
    "releases", "releases.html.j2", path=RELEASES_INDEX, nav_title_key="releases_title", not_found_key="nav_releases"
)
FEATURES = PageKind(
    "features",
    "features.html.j2",
    path=FEATURES_INDEX,
    context={"filter_text_url": posixpath.basename(FILTER_TEXT_FILE)},
    nav_title_key="features_title",
    not_found_key="nav_features",
    searched=False,
)
STABILITY = PageKind(
    "stability",
    "stability.html.j2",
    path=STABILITY_INDEX,
    nav_title_key="stability_title",
    not_found_key="nav_stability",
)
CHANGELOG_PAGE = PageKind(
    "changelog",
    "changelog.html.j2",
    path=CHANGELOG,
    nav_title_key="changelog_title",
    not_found_key="nav_changelog",
    searched=False,
)
RELEASE = PageKind(
    "release",
    "release.html.j2",
    items=lambda catalog: [(release_path(r.version), {"release": r}) for r in catalog.releases],
    per_item=True,
    description=lambda context, lang: context["release"].summary[lang],
    search_filters=lambda context, catalog, lang: (("release", context["release"].version),),
    in_contract=True,
)
FEATURE = PageKind(
    "feature",
    "feature.html.j2",
    items=lambda catalog: [(feature_path(f.id), {"feature": f}) for f in catalog.features.values()],
    per_item=True,
    description=lambda context, lang: context["feature"].latest.summary[lang],
    search_filters=_feature_filters,
    search_meta=_feature_meta,
    search_facts=_feature_facts,
    in_contract=True,
)
LEVEL = PageKind(
    "level",
    "level.html.j2",
    items=lambda catalog: [(level_path(key), {"level": level}) for key, level in catalog.levels.items()],
    description=lambda context, lang: context["level"].description[lang],
    searched=False,
    in_contract=True,
)
# A feature's former id: a page that sends the reader to the feature's own.
ALIAS = PageKind(
    "alias",
    "alias.html.j2",
    items=lambda catalog: [
        (feature_path(alias), {"feature": f}) for f in catalog.features.values() for alias in f.aliases
    ],
    per_item=True,
    description=lambda context, lang: context["feature"].latest.summary[lang],
    searched=False,
    in_contract=True,
)
UPGRADE_PAGE = PageKind("upgrade", "upgrade.html.j2", path=UPGRADE, not_found_key="not_found_upgrade", searched=False)
# A former address (project.yaml `redirects:`).
REDIRECT = PageKind("redirect", "redirect.html.j2", items=_redirects, per_item=True, searched=False)

# The registry, in the order pages are rendered and the navigation lists them.
_KINDS: list[PageKind] = [
    HOME_PAGE,
    RELEASES,
    FEATURES,
    STABILITY,
    CHANGELOG_PAGE,
    RELEASE,
    FEATURE,
    LEVEL,
    ALIAS,
    UPGRADE_PAGE,
    REDIRECT,
]
_BUILT_IN = tuple(_KINDS)


# Where another package offers its kinds of page: an entry point in this group names a
# PageKind (`digest = my_package.kinds:DIGEST`), registered the first time the kinds are listed.
ENTRY_POINT_GROUP = "releasekb.page_kinds"
_entry_points_read = False


def page_kinds() -> tuple[PageKind, ...]:
    """Every kind of page: the package's, then those of installed packages' entry points, then
    those given to `register`."""
    _read_entry_points()
    return tuple(_KINDS)


def _read_entry_points() -> None:
    """Register the kinds that installed packages offer (once per process)."""
    global _entry_points_read
    if _entry_points_read:
        return
    _entry_points_read = True
    from importlib.metadata import entry_points

    registered = [kind for kind in _KINDS if kind not in _BUILT_IN]  # by `register` before this
    _KINDS[:] = list(_BUILT_IN)
    for point in entry_points(group=ENTRY_POINT_GROUP):
        try:
            kind = point.load()
        except Exception as error:  # a third party's module: whatever it raises is its fault, said in one line
            raise PageKindError(
                f"the entry point '{point.name} = {point.value}' ({ENTRY_POINT_GROUP}) cannot be "
                f"loaded: {type(error).__name__}: {error}"
            ) from None
        if not isinstance(kind, PageKind):
            raise PageKindError(
                f"the entry point '{point.name} = {point.value}' ({ENTRY_POINT_GROUP}) names "
                f"{type(kind).__name__}, where a releasekb.kb.page_kinds.PageKind was expected"
            )
        register(kind)
    for kind in registered:
        register(kind)


def register(kind: PageKind) -> None:
    """Add a kind of page to every language's site. Its pages must lie in the generated folders
    (urls.GENERATED_PATHS), which the build owns and cleans; its template is looked up in
    `kind.templates` after the package's own templates. A kind of the same name is replaced."""
    if kind.path and kind.path.split("/")[0] not in GENERATED_PATHS:
        raise PageKindError(
            f"the page kind '{kind.name}' has its page at {kind.path}, outside the generated folders, "
            f"which a build cleans (put it in one of: {', '.join(GENERATED_PATHS)})"
        )
    if kind.templates is not None and not Path(kind.templates).is_dir():
        raise PageKindError(f"the page kind '{kind.name}' names a templates folder that is not one: {kind.templates}")
    _KINDS[:] = [known for known in _KINDS if known.name != kind.name] + [kind]


def unregister(name: str) -> None:
    """Take a registered kind of page away again (a test that added one)."""
    _KINDS[:] = [known for known in _KINDS if known.name != name]


def template_folders() -> tuple[Path, ...]:
    """The folders of the registered kinds' templates, beside the package's own."""
    return tuple(dict.fromkeys(Path(kind.templates) for kind in _KINDS if kind.templates is not None))
