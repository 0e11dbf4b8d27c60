"""An Atom feed of the releases, /feed.xml (and /zh/feed.xml), written with feedgen. A text lxml
refuses stops the build with an OutputError that names the release and the field."""

from __future__ import annotations

import re
from collections.abc import Callable

from releasekb.common.dates import utc_datetime
from releasekb.common.i18n import interface_strings
from releasekb.kb import api
from releasekb.kb.catalog import Catalog
from releasekb.kb.urls import FEED, permanent_url
from releasekb.site.outputs.output import OutputError, go_on


def describe(lang: str) -> str:
    return f"{FEED} ({lang})"


def wanted(catalog: Catalog, lang: str, section: bool) -> bool:
    """In every language of a whole site; in a section, the default language's only (the feed of
    another language would state addresses the section does not have)."""
    return lang == catalog.default_language or not section


def files(catalog: Catalog, lang: str, site_url: str, give_way: Callable[[], None] = go_on) -> dict[str, bytes]:
    return {FEED: feed(catalog, lang, site_url)}


def paths(catalog: Catalog, lang: str, site_url: str) -> set[str]:
    return {FEED}


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
