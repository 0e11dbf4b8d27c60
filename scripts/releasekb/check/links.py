"""Absolute "More:" links in `check`'s reports, so that they open from a terminal, a CI log or a
code-scanning alert. The index gives addresses from the site's root (`/releases/0.2/#...`) unless
it was built with the site's address; this puts that address in front of them."""

from __future__ import annotations

from dataclasses import replace

from releasekb.check.index import ApiIndex
from releasekb.check.records import ApiRecord


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
    root; addresses that are absolute already are left as they are. The records are frozen: the
    index gets new ones."""
    base = site_address(index, site_url).rstrip("/")
    if not base:
        return
    index.records = {key: _absolute_record(base, record) for key, record in index.records.items()}


def _absolute_record(base: str, record: ApiRecord) -> ApiRecord:
    entries = tuple(
        replace(entry, urls=_absolute_urls(base, entry.urls), feature_urls=_absolute_urls(base, entry.feature_urls))
        for entry in record.entries
    )
    return replace(record, entries=entries)


def _absolute_urls(base: str, urls: dict[str, str]) -> dict[str, str]:
    return {lang: _absolute(base, url) for lang, url in urls.items()}


def _absolute(base: str, url: str) -> str:
    return base + url if url.startswith("/") else url
