"""The URL contract: every address other sites may link to, which must keep working.

It is a fixed part (the sections, and the examples the README's URL table promises) plus a
part generated from the data (every release and its former title anchor, every feature inside
each release and every former anchor of an entry, every feature, every former feature id, every
stability level, every former address listed under `redirects:` in project.yaml), in every
language, and the machine-readable files the site publishes (JSON API, badges, objects.inv,
feeds: publish.outputs is their one list). `releasekb contract` prints it; the list is
committed as tests/url_contract.txt and only grows (`releasekb contract --append`): the tests
fail when a committed address is no longer generated (so a page or an anchor cannot silently
disappear; keep it with an alias) and check that every address resolves in the built site,
anchors included.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from releasekb.common import atomic
from releasekb.kb.catalog import Catalog
from releasekb.kb.pages import pages
from releasekb.kb.urls import page_url, release_path, site_path
from releasekb.site import publish

# The fixed part, as site paths in the default language (each language has them under its
# prefix): the README's URL table lists exactly these, so the examples there keep working. An
# example is part of a knowledge base's contract when its data has what the address names (this
# repository's has them all; a new team's has only the sections): fixed_addresses.
FIXED_ADDRESSES = (
    "/",
    "/releases/",
    "/releases/1.7/",
    "/releases/1.7/#torch-fft",
    "/features/",
    "/features/torch-fft/",
    "/features/?stability=beta&release=1.7&q=fft&sort=first",
    "/features/?stability=stable&as_of=1.5&q=rpc",
    "/stability/",
    "/stability/beta/",
    "/changelog/",
    "/changelog/upgrade/?from=1.4&to=1.7",
    "/changelog/1.4-to-1.7/",
)

# The committed list is read whole: this project's is 30 KB; a list over 16 MB is not one.
MAX_LIST_BYTES = 16_000_000

# The list's header names no path: the list is wherever a team keeps it (this repository's is
# tests/url_contract.txt), and the header is the same printed or appended.
HEADER = (
    "# The URL contract: addresses other sites link to (see README, URL scheme). It only grows:\n"
    "# `releasekb contract --append <this file>` adds new addresses; one the data no longer\n"
    "# generates fails `releasekb contract --check <this file>`, and is kept with an alias, never\n"
    "# removed from here.\n"
)


def generated_addresses(catalog: Catalog) -> list[str]:
    """The data's part, in the default language: the pages of the kinds in the contract
    (releases, features, former feature ids, levels), the releases' entries' anchors and
    former addresses."""
    paths = [page.path for page in pages(catalog) if page.kind.in_contract]  # page_kinds.py says which
    addresses = ["/" + page_url(path) for path in paths]
    addresses += [
        "/" + page_url(release_path(release.version)) + "#" + anchor
        for release in catalog.releases
        for anchor in (
            release.former_title_anchor,
            *(entry.id for entry in release.entries),
            *(anchor for entry in release.entries for anchor in entry.former_anchors),
        )
    ]
    addresses += ["/" + old for old in catalog.redirects]
    return addresses


def fixed_addresses(catalog: Catalog) -> list[str]:
    """The fixed addresses whose releases, features, entries and levels the data has: another
    team's contract holds no address of this repository's examples (/features/torch-fft/)."""
    versions = {release.version for release in catalog.releases}
    anchors = {entry.id for release in catalog.releases for entry in release.entries}
    named = {"releases": versions, "features": set(catalog.features), "stability": set(catalog.levels)}
    kept = []
    for address in FIXED_ADDRESSES:
        parts = urlsplit(address)
        section, _, name = parts.path.strip("/").partition("/")
        query = parse_qs(parts.query)
        wanted = [(versions, value) for key in ("release", "as_of", "from", "to") for value in query.get(key, [])]
        wanted += [(set(catalog.levels), value) for value in query.get("stability", [])]
        if name and section in named:
            wanted.append((named[section], name.strip("/")))
        if section == "changelog" and "-to-" in name:
            wanted += [(versions, version) for version in name.strip("/").split("-to-")]
        if parts.fragment:
            wanted.append((anchors, parts.fragment))
        if all(value in values for values, value in wanted):
            kept.append(address)
    return kept


def contract_addresses(catalog: Catalog) -> list[str]:
    """Every contract address in every language ('/zh/releases/1.7/#torch-fft'), sorted."""
    english = {*fixed_addresses(catalog), *generated_addresses(catalog)}
    languages = catalog.languages
    pages = {site_path(languages, lang, address.removeprefix("/")) for lang in languages for address in english}
    files = {site_path(languages, lang, path) for lang in languages for path in publish.outputs(catalog, lang, "")}
    return sorted(pages | files)


def contract_text(catalog: Catalog) -> str:
    """What the data generates, as the committed file writes it: the header, then one address per line."""
    return HEADER + "".join(address + "\n" for address in contract_addresses(catalog))


def write_list(path: Path, addresses: Iterable[str]) -> None:
    """Write the committed list (header, one address per line) in one step: an interrupted run
    leaves the old list or the new one, never half a list whose lost addresses nothing would
    notice. Creates the file when there is none; raises atomic.WriteFailed."""
    atomic.write_text(Path(path), HEADER + "".join(address + "\n" for address in addresses))
