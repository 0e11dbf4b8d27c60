"""The URL contract (tests/url_contract.txt): generated from the data, resolving in the built
site (anchors included), and the README's URL table promising exactly its fixed part."""

from __future__ import annotations

import html
import re
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from helpers import LANGUAGES, ROOT, catalog_of, real_data, run_releasekb
from releasekb.common.i18n import url_prefix
from releasekb.site.contract import FIXED_ADDRESSES, contract_addresses, contract_text

CONTRACT = ROOT / "tests" / "url_contract.txt"
REFRESH = re.compile(r'<meta http-equiv="refresh" content="0; url=([^"]+)"')


def committed() -> list[str]:
    return [line for line in CONTRACT.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]


def test_committed_contract_is_what_the_data_generates(real_catalog):
    expected = contract_text(real_catalog)
    assert CONTRACT.read_text(encoding="utf-8") == expected, (
        "tests/url_contract.txt differs from the data: run `releasekb contract > tests/url_contract.txt` "
        "after adding data; a line that disappears is a page other sites may link to"
    )


def test_contract_covers_every_page_kind_in_every_language(real_catalog):
    catalog = real_catalog
    addresses = set(committed())
    for lang in LANGUAGES:
        prefix = "/" + url_prefix(lang, LANGUAGES)
        assert {prefix + f"releases/{r.version}/" for r in catalog.releases} <= addresses
        assert {
            prefix + f"releases/{e.release.version}/#{e.id}" for f in catalog.features.values() for e in f.entries
        } <= addresses
        assert {prefix + f"features/{feature_id}/" for feature_id in catalog.features} <= addresses
        assert {prefix + f"stability/{key}/" for key in catalog.levels} <= addresses
        assert {prefix + old for old in catalog.redirects} <= addresses
        assert {prefix + f"badges/{feature_id}.svg" for feature_id in catalog.features} <= addresses
        assert {prefix + "objects.inv", prefix + "feed.xml"} <= addresses
        assert {prefix, prefix + "changelog/", prefix + "changelog/upgrade/?from=1.4&to=1.7"} <= addresses
    assert {f"/api/releases/{r.version}.json" for r in catalog.releases} | {"/api/features.json"} <= addresses


def test_dropping_a_release_is_reported_as_exactly_the_dropped_addresses(tmp_path, real_catalog):
    """`releasekb contract --check` names what a data change took away, each address once, and
    exits 1; the committed list still passes against the real data."""
    newest = real_catalog.latest.version
    # features only the newest release has (torch-fft's page is a fixed address: it stays)
    only_there = [f.id for f in real_catalog.features.values() if f.releases == [real_catalog.latest]]
    only_there.remove("torch-fft")
    data = real_data(tmp_path)
    (data / f"{newest}.yaml").unlink()
    result = run_releasekb(ROOT, "contract", "--data", str(data), "--check", str(CONTRACT))
    assert result.returncode == 1, result.stderr
    lost = [
        line.removeprefix(f"{CONTRACT}: ").partition(": ")[0]
        for line in result.stderr.splitlines()
        if "published, but the data no longer generates it" in line
    ]
    assert sorted(lost) == sorted(set(committed()) - set(contract_addresses(catalog_of(data))))
    for prefix in ("/", "/zh/"):
        assert f"{prefix}features/{only_there[0]}/" in lost
        assert f"{prefix}releases/{newest}/#{only_there[0]}" in lost
    assert "`aliases: [<old id>]`" in result.stderr  # and the ways to keep an address
    assert run_releasekb(ROOT, "contract", "--check", str(CONTRACT)).returncode == 0


def page_file(site: Path, path: str) -> Path:
    """The file a static host serves for a site path: '/zh/releases/1.7/' -> zh/releases/1.7/index.html,
    '/badges/torch-fft.svg' -> that file."""
    relative = path.lstrip("/")
    return site / relative if relative and not relative.endswith("/") else site / relative / "index.html"


def test_every_contract_address_resolves_in_the_built_site(real_site):
    unresolved = []
    for address in committed():
        parts = urlsplit(address)
        target = page_file(real_site, parts.path)
        if not target.is_file():
            unresolved.append(f"{address}: no page")
            continue
        if target.suffix != ".html":
            continue  # a published file (JSON, SVG, objects.inv, feed): it exists
        text = target.read_text(encoding="utf-8")
        if parts.fragment and f'id="{parts.fragment}"' not in text:
            unresolved.append(f"{address}: no element with id {parts.fragment}")
        refresh = REFRESH.search(text)
        if refresh:  # a former address: where it sends the reader must exist too
            moved = urlsplit(urljoin(parts.path, html.unescape(refresh.group(1))))
            if not page_file(real_site, moved.path).is_file():
                unresolved.append(f"{address}: redirects to a missing page {moved.path}")
    assert not unresolved, "\n".join(unresolved)


def readme_url_table() -> list[tuple[str, str]]:
    """(English, Chinese) addresses of the README's URL scheme table."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## URL scheme", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and "`" in line]
    return [tuple(re.findall(r"`([^`]+)`", row)) for row in rows]


def test_readme_url_table_is_the_fixed_part_of_the_contract(real_catalog):
    rows = readme_url_table()
    assert all(len(row) == 2 for row in rows), rows
    assert [english for english, _ in rows] == list(FIXED_ADDRESSES)
    assert all(chinese == "/zh" + english for english, chinese in rows), rows
    addresses = set(contract_addresses(real_catalog))
    assert {address for row in rows for address in row} <= addresses
