"""Absolute "More:" links in `check`'s reports, so that they open from a terminal, a CI log or a
code-scanning alert. The index gives addresses from the site's root (`/releases/0.2/#...`) unless
it was built with the site's address; this puts that address in front of them."""

from __future__ import annotations

from releasekb.check.findings import ApiIndex


def site_address(index: ApiIndex, site_url: str) -> str:
    """--site-url, else the site a published index was fetched from
    (`https://kb.example.org/api/apis.json` is on `https://kb.example.org/`), else ''."""
    if site_url:
        return site_url
    source = index.source
    if source.startswith(("https://", "http://")) and "/api/" in source:
        return source.rsplit("/api/", 1)[0] + "/"
    return ""


def make_absolute(index: ApiIndex, site_url: str) -> None:
    """Put the site's address in front of every address of the index that starts at the site's
    root; addresses that are absolute already are left as they are."""
    base = site_address(index, site_url).rstrip("/")
    if not base:
        return
    for record in index.records.values():
        for entry in record["entries"]:
            for key in ("urls", "feature_urls"):
                entry[key] = {lang: _absolute(base, url) for lang, url in entry[key].items()}


def _absolute(base: str, url: str) -> str:
    return base + url if url.startswith("/") else url
