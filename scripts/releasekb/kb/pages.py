"""The site's pages: which pages each language's tree has (one per item of each kind in
page_kinds.py's registry), and the checks that need that list (a former address must lead to one of them).

The list is the same in every language. The renderer renders it, the URL contract and the
redirect check read its addresses, and nothing else decides which pages exist.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from releasekb.common.problems import Problem, suggest
from releasekb.kb.catalog import Catalog
from releasekb.kb.dataset import ValidatedData
from releasekb.kb.page_kinds import REDIRECT, PageKind, page_kinds
from releasekb.kb.urls import GENERATED_PATHS, page_url, split_address

REDIRECT_TEMPLATE = REDIRECT.template


@dataclass(frozen=True)
class Page:
    path: str  # inside a language tree, e.g. "releases/1.7.md"
    kind: PageKind
    context: dict = field(default_factory=dict)

    @property
    def template(self) -> str:
        return self.kind.template


def pages(catalog: Catalog) -> list[Page]:
    """Every generated page of one language tree (the same list for every language), kind by
    kind in the registry's order (page_kinds.py)."""
    return [Page(path, kind, context) for kind in page_kinds() for path, context in kind.pages_of(catalog)]


def page_addresses(catalog: Catalog) -> set[str]:
    """The address of every page the site generates, redirects excepted ('releases/1.7/')."""
    return {page_url(page.path) for page in pages(catalog) if page.kind is not REDIRECT}


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
