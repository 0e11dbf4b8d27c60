"""Machine-readable outputs other sites and tools link to, written beside each language's pages.

`outputs(catalog, lang, site_url)` returns {path inside that language's site: bytes}; the MkDocs
hook writes them after each language's build (so `build` and `serve` both have them):
- the JSON API (default language only, every text in every language): /api/features.json,
  /api/releases.json, /api/releases/<version>.json, /api/changelog.json and its JSON Schema;
- a badge per feature, /badges/<id>.svg (and /zh/badges/<id>.svg): current level and since when;
- an intersphinx inventory, /objects.inv (and /zh/objects.inv), written with sphobjinv;
- an Atom feed of releases, /feed.xml (and /zh/feed.xml), written with feedgen.
Everything is deterministic: the same data gives the same bytes. Every output is well-formed for
any text: `validate` refuses control characters, and these writers neutralise them anyway (a
badge shows them as visible escapes, an inventory line holds no line break); a writer that still
refuses a text stops the build with an OutputError that names the output and the text.
"""

from __future__ import annotations

import html
import os
import re
from collections.abc import Callable
from pathlib import Path

from mkdocs.exceptions import PluginError

from releasekb.common.cjk import is_wide
from releasekb.common.dates import utc_datetime
from releasekb.common.i18n import interface_strings
from releasekb.common.safe_text import visible
from releasekb.kb import api, api_index, check_schema
from releasekb.kb.catalog import Catalog, Feature
from releasekb.kb.urls import (
    API_CHANGELOG,
    API_FEATURES,
    API_RELEASES,
    API_SCHEMA,
    FEED,
    INVENTORY,
    api_release_path,
    badge_path,
    feature_path,
    page_url,
    permanent_url,
    release_path,
)
from releasekb.site import level_colours

# Badge colours: a level's is its own (level_colours.py, the light scheme's: white text on it);
# grey for unlabeled, red for removed.
_UNLABELED_COLOUR, _REMOVED_COLOUR, _LABEL_COLOUR = "#616161", "#c62828", "#455a64"


class OutputError(PluginError):
    """An output the data cannot be written into: the build stops with this message, which names
    the output and, where known, the text (a library's traceback would name neither)."""


def _go_on() -> None:
    """give_way outside a job of afterwards.py: nothing to wait for."""


def outputs(
    catalog: Catalog, lang: str, site_url: str, *, section: bool = False, give_way: Callable[[], None] = _go_on
) -> dict[str, bytes]:
    """section: the knowledge base is one language's section of another site (the plugin's
    `path`). Its pages exist in that language only, so what states the addresses of every
    language's pages (the JSON API, the feed of another language than the default) is left out.
    give_way: called between steps (a job's, under `serve`: afterwards.Jobs.give_way).
    Raises OutputError."""
    files: dict[str, bytes] = {}
    if lang == catalog.default_language and not section:
        files.update(_made("the JSON API (api/)", api_files, catalog, site_url, give_way))
    give_way()  # under `serve`, made after the page: a rebuild goes first
    files.update(_made(f"the badges ({lang})", badges, catalog, lang))
    give_way()
    files[INVENTORY] = _made(f"{INVENTORY} ({lang})", inventory, catalog, lang)
    if lang == catalog.default_language or not section:
        files[FEED] = _made(f"{FEED} ({lang})", feed, catalog, lang, site_url)
    return files


def output_paths(catalog: Catalog, lang: str, site_url: str, *, section: bool = False) -> set[str]:
    """The paths `outputs` writes, without making them: the addresses a site's own files must
    leave free."""
    paths = {badge_path(feature.id) for feature in catalog.features.values()} | {INVENTORY}
    if lang == catalog.default_language or not section:
        paths.add(FEED)
    if lang == catalog.default_language and not section:
        paths.update(api_files(catalog, site_url))
    return paths


def _made(what: str, make: Callable, *args):
    """What `make(*args)` returns. A writer's ValueError (a text its format cannot carry, as
    lxml's "All strings must be XML compatible") becomes an OutputError naming the output."""
    try:
        return make(*args)
    except ValueError as error:  # UnicodeEncodeError included
        raise OutputError(f"{what} cannot be written from the data: {error}") from None


def write_outputs(
    catalog: Catalog,
    lang: str,
    site_url: str,
    site_dir: Path,
    *,
    whole: bool = False,
    section: bool = False,
    give_way: Callable[[], None] = _go_on,
) -> None:
    """Write the outputs of one language into its site, only those whose bytes changed. whole:
    each as a new file renamed over the old (`serve` may be serving it; a build's folder is not
    served until it is complete, and is spared the extra renames)."""
    files = outputs(catalog, lang, site_url, section=section, give_way=give_way)
    for folder in {(site_dir / path).parent for path in files}:  # once each, not once per badge
        folder.mkdir(parents=True, exist_ok=True)
    for path, content in files.items():
        give_way()
        target = site_dir / path
        if target.is_file() and target.read_bytes() == content:
            continue  # unchanged: `serve` must not see a write
        if not whole:
            target.write_bytes(content)
            continue
        written = target.with_name(f".{target.name}.new")
        written.write_bytes(content)
        os.replace(written, target)


def api_files(catalog: Catalog, site_url: str, give_way: Callable[[], None] = _go_on) -> dict[str, bytes]:
    documents = {
        API_FEATURES: api.features_document(catalog, list(catalog.features.values()), site_url),
        API_RELEASES: api.releases_document(catalog, site_url),
        API_CHANGELOG: api.changelog_document(catalog, site_url),
        API_SCHEMA: api.schema(),
        api_index.INDEX_PATH: api_index.index_document(catalog, site_url),
        check_schema.SCHEMA_PATH: check_schema.schema(),
    }
    for release in catalog.releases:
        give_way()
        documents[api_release_path(release.version)] = api.release_document(catalog, release, site_url)
    return {path: api.to_json(document, compact=True) for path, document in documents.items()}


# --------------------------------------------------------------------------- badges


def badge_label(feature: Feature) -> str:
    """The badge's left half: the feature's first API name (what README readers recognise),
    else its id."""
    return feature.apis[0] if feature.apis else feature.id


def badge_status(feature: Feature, lang: str) -> str:
    t = interface_strings(lang, feature.first.release.catalog.data_dir)
    if feature.removed_in:
        return t["badge_removed"].format(version=feature.removed_in.version)
    if feature.level is None:
        return t["badge_changes"]
    since = feature.level_since
    status = t["badge_since"].format(level=feature.level.name[lang], version=since.version if since else "")
    stated_by = feature.current.stated_by  # "since" already covers releases that did not restate it
    return f"{status} {t['level_stated_by_short'].format(version=stated_by)}" if stated_by else status


def badge_colour(feature: Feature) -> str:
    if feature.removed_in:
        return _REMOVED_COLOUR
    level = feature.level
    if level is None or level.rank is None:
        return _UNLABELED_COLOUR
    return level_colours.badge(level, feature.first.release.catalog.levels.values())


def _text_width(text: str) -> int:
    """Approximate width in pixels at 11px Verdana: wide (CJK) characters count double."""
    return sum(12 if is_wide(c) else 7 for c in text) + 10


def badges(catalog: Catalog, lang: str) -> dict[str, bytes]:
    return {badge_path(feature.id): badge(feature, lang) for feature in catalog.features.values()}


def badge(feature: Feature, lang: str) -> bytes:
    """A flat two-part badge like the ones code hosts show in READMEs, with a <title> for
    screen readers and tooltips."""
    # XML allows no control character: one is shown as its escape (`\x1b`), the badge stays readable
    label, status = visible(badge_label(feature)), visible(badge_status(feature, lang))
    left, right = _text_width(label), _text_width(status)
    width = left + right
    title = html.escape(f"{label}: {status}")
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="20" role="img" aria-label="{title}">'
        f"<title>{title}</title>"
        f'<rect width="{left}" height="20" fill="{_LABEL_COLOUR}"/>'
        f'<rect x="{left}" width="{right}" height="20" fill="{badge_colour(feature)}"/>'
        '<g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">'
        f'<text x="{left / 2:g}" y="14">{html.escape(label)}</text>'
        f'<text x="{left + right / 2:g}" y="14">{html.escape(status)}</text>'
        "</g></svg>\n"
    )
    return svg.encode("utf-8")


# --------------------------------------------------------------------------- intersphinx


def inventory_name(kind: str, key: str) -> str:
    """Inventory names: `feature-<id>` and `release-<version>` (Sphinx labels are lowercase)."""
    return f"{kind}-{key}".lower()


def inventory_field(text: str) -> str:
    """A text as a field of an inventory line, which holds one entry: every run of whitespace (a
    line break too) one space, and control characters visible. A title with a line break would
    otherwise end its line and write an entry of its own, which could send a name another
    project links to (`feature-torch-fft`) to another host."""
    return visible(" ".join(text.split()))


def inventory(catalog: Catalog, lang: str) -> bytes:
    """A Sphinx inventory (objects.inv, as `std:label` entries) of every feature and release,
    so Sphinx (intersphinx) and mkdocstrings (autorefs) projects can cross-reference them."""
    import sphobjinv

    inv = sphobjinv.Inventory()
    inv.project = inventory_field(catalog.site_name[lang])
    inv.version = inventory_field(catalog.latest.version)
    entries = [
        (inventory_name("release", r.version), release_path(r.version), f"{catalog.product_name[lang]} {r.version}")
        for r in catalog.releases
    ]
    entries += [(inventory_name("feature", f.id), feature_path(f.id), f.title[lang]) for f in catalog.features.values()]
    for name, path, dispname in entries:
        inv.objects.append(
            sphobjinv.DataObjStr(
                name=inventory_field(name),
                domain="std",
                role="label",
                priority="-1",
                uri=page_url(path),
                dispname=inventory_field(dispname),
            )
        )
    return sphobjinv.compress(inv.data_file(contract=True))


# --------------------------------------------------------------------------- feed


def feed(catalog: Catalog, lang: str, site_url: str) -> bytes:
    """An Atom feed of the releases (newest first) in one language."""
    from feedgen.feed import FeedGenerator

    t = interface_strings(lang, catalog.data_dir)
    home = permanent_url(site_url, catalog.languages, lang, "")
    generator = FeedGenerator()
    generator.id(home)
    generator.title(_xml_writable(catalog.site_name[lang], f"project.yaml, product.site_name.{lang}"))
    product = _xml_writable(catalog.product_name[lang], f"project.yaml, product.name.{lang}")
    generator.subtitle(t["feed_subtitle"].format(product=product))
    generator.language(lang)
    generator.link(href=home, rel="alternate")
    generator.link(href=home + FEED, rel="self")
    generator.updated(utc_datetime(catalog.latest.date))
    generator.generator("ReleaseKB")
    for release in catalog.releases:  # feedgen puts the last added entry first
        url = api.release_urls(site_url, release)[lang]
        entry = generator.add_entry()
        entry.id(url)
        title = _xml_writable(release.title[lang], f"{release.version}.yaml, title.{lang}")
        entry.title(feed_entry_title(product, release.version, title))
        entry.link(href=url)
        entry.summary(_xml_writable(release.summary[lang], f"{release.version}.yaml, summary.{lang}"))
        entry.published(utc_datetime(release.date))
        entry.updated(utc_datetime(release.date))
    return generator.atom_str(pretty=True)


def _xml_writable(text: str, where: str) -> str:
    """The text, if lxml (which writes the feed for feedgen) accepts it; else an OutputError
    naming the text. feedgen hands texts to lxml only when it writes the whole feed, and lxml's
    refusal names neither the release nor the field."""
    from lxml import etree

    try:
        etree.Element("text").text = text
    except ValueError as error:  # UnicodeEncodeError (a lone surrogate) included
        raise OutputError(
            f"{FEED}: {where} cannot be written into the Atom feed ({error}); remove the character "
            "(`releasekb validate` locates it)"
        ) from None
    return text


# A release title that begins with the product's name: what follows it, and whether that is a
# version ("PyTorch 1.7: ...", "Acme 2") or the rest of the title after a separator ("Acme: ...").
_VERSION_WORD = re.compile(r"v?[0-9][0-9A-Za-z.+-]*")
_SEPARATOR = re.compile(r"[\s:：,，-]+")


def feed_entry_title(product: str, version: str, title: str) -> str:
    """A feed entry's title: product, version, then the release's title, each once. Titles often
    start with the product and its version already (every PyTorch title does), and a reader of
    the feed should not see "PyTorch 1.7: PyTorch 1.7: ...".

    >>> feed_entry_title("Acme DB", "3.0", "Acme DB 3.0: faster joins")
    'Acme DB 3.0: faster joins'
    >>> feed_entry_title("PyTorch", "1.7", "PyTorch 1.7：CUDA 11 二进制包")
    'PyTorch 1.7：CUDA 11 二进制包'
    >>> feed_entry_title("Acme DB", "3.0", "acme db: faster joins"), feed_entry_title("Acme", "2.0", "Acme 2")
    ('Acme DB 3.0: faster joins', 'Acme 2')
    >>> feed_entry_title("Acme", "1.1", "Widgets are stable"), feed_entry_title("Acme", "1.1", "Acmeflow")
    ('Acme 1.1: Widgets are stable', 'Acme 1.1: Acmeflow')
    """
    named = f"{product} {version}"
    if not title.casefold().startswith(product.casefold()):
        return f"{named}: {title}"
    after = title[len(product) :]
    separator = _SEPARATOR.match(after)
    if separator is None:  # "Acmeflow": another word that begins like the product
        return f"{named}: {title}"
    rest = after[separator.end() :]
    if _VERSION_WORD.match(rest):  # the title names its version itself
        return title
    return f"{named}: {rest}"
