"""The site's pages: which pages each language's tree has, made from which template, and the
checks that need that list (a former address must lead to one of them).

The list is the same in every language. The renderer renders it, the URL contract and the
redirect check read its addresses, and nothing else decides which pages exist.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator
from dataclasses import dataclass, field

from releasekb.common.problems import Problem, suggest
from releasekb.kb.catalog import Catalog
from releasekb.kb.dataset import ValidatedData
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
    page_url,
    release_path,
    split_address,
)

REDIRECT_TEMPLATE = "redirect.html.j2"


@dataclass(frozen=True)
class Page:
    path: str  # inside a language tree, e.g. "releases/1.7.md"
    template: str
    context: dict = field(default_factory=dict)


def pages(catalog: Catalog) -> list[Page]:
    """Every generated page of one language tree (the same list for every language)."""
    result = [
        Page(HOME, "home.html.j2"),
        Page(RELEASES_INDEX, "releases.html.j2"),
        Page(FEATURES_INDEX, "features.html.j2", {"filter_text_url": posixpath.basename(FILTER_TEXT_FILE)}),
        Page(STABILITY_INDEX, "stability.html.j2"),
        Page(CHANGELOG, "changelog.html.j2"),
    ]
    result += [Page(release_path(r.version), "release.html.j2", {"release": r}) for r in catalog.releases]
    result += [Page(feature_path(f.id), "feature.html.j2", {"feature": f}) for f in catalog.features.values()]
    result += [Page(level_path(key), "level.html.j2", {"level": level}) for key, level in catalog.levels.items()]
    result += [
        Page(feature_path(alias), "alias.html.j2", {"feature": f})
        for f in catalog.features.values()
        for alias in f.aliases
    ]
    result.append(Page(UPGRADE, "upgrade.html.j2"))
    result += [
        Page(address_path(old), REDIRECT_TEMPLATE, {"target_path": address_path(path), "target_suffix": suffix})
        for old, (path, suffix) in ((old, split_address(new)) for old, new in catalog.redirects.items())
    ]
    return result


def page_addresses(catalog: Catalog) -> set[str]:
    """The address of every page the site generates, redirects excepted ('releases/1.7/')."""
    return {page_url(page.path) for page in pages(catalog) if page.template != REDIRECT_TEMPLATE}


def redirects_lead_to_pages(data: ValidatedData, catalog: Catalog) -> Iterator[Problem]:
    """A former address (project.yaml `redirects:`) must not hide a page the site generates,
    must lie in a generated folder (so the build owns and cleans its page) and must lead to a
    page the site generates."""
    addresses = page_addresses(catalog)
    folders = [path for path in GENERATED_PATHS if "." not in path]
    document = data.project_document
    for old, new in data.project.redirects.items():
        location = ("redirects", old)
        if old in addresses:
            yield document.problem(location, f"'{old}' is a page the site generates (remove this redirect)", key=True)
        elif old.split("/")[0] not in folders:
            yield document.problem(
                location,
                f"'{old}' is outside the generated folders (start it with one of: {', '.join(folders)})",
                key=True,
            )
        path = split_address(new)[0]
        if path not in addresses:
            hint = suggest(path, sorted(addresses))
            yield document.problem(
                location,
                f"'{path}' is not a page of the site{hint or ' (point it at a page it generates, like changelog/)'}",
            )
