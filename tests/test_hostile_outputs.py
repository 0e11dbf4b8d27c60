"""Whatever text the data holds, the site's outputs stay well-formed and `query` prints nothing raw.

`validate` refuses control characters in values (test_hostile_input.py), so these tests put
them straight into a catalog, as a validation gap would: the writers must hold on their own. An
objects.inv line holds one entry, badges and charts are valid XML, a feed that cannot be written
says which text, `query` output holds no control character. One build then checks that texts
`validate` allows over several lines (summaries, descriptions) give outputs that parse.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
import zlib

import pytest

from helpers import LANGUAGES, build, catalog_of, copy_project, fixture_data
from releasekb.common.i18n import interface_strings
from releasekb.common.safe_text import unsafe_character
from releasekb.kb import query
from releasekb.kb.catalog import ApiRef, Catalog
from releasekb.site import publish, svg
from releasekb.site.outputs import badges as feature_badges
from releasekb.site.outputs import inventory as sphinx_inventory

ATOM = "{http://www.w3.org/2005/Atom}"
# Sphinx's own reading of an inventory line (sphinx.util.inventory, version 2): name, domain:role,
# priority, address, display name. Sphinx is not installed for the tests; its rule is this line.
SPHINX_LINE = re.compile(r"(.+?)\s+(\S+)\s+(-?\d+)\s+?(\S*)\s+(.*)")
ESCAPES = "\x1b]0;pwned\x07\x1b[31m\x9b\u202e\x00"


def hostile_catalog(tmp_path) -> Catalog:
    return catalog_of(fixture_data(tmp_path))


def inventory_lines(inventory: bytes) -> tuple[list[str], list[str]]:
    """(header lines, entry lines) of objects.inv, read as Sphinx reads it: four lines of text,
    then zlib-compressed lines, split at newlines."""
    *header, compressed = inventory.split(b"\n", 4)
    entries = zlib.decompress(compressed).decode("utf-8").split("\n")
    return [line.decode("utf-8") for line in header], [line for line in entries if line]


def test_a_title_with_a_line_break_cannot_write_a_second_inventory_entry(tmp_path):
    catalog = hostile_catalog(tmp_path)
    injected = "No crash\nfeature-widgets std:label -1 https://evil.example/ Widgets\r\x0bmore"
    catalog.features["crash-on-empty-file"].first.title["en"] = injected
    catalog.site_name["en"] = "Acme\n# Version: 666"
    header, entries = inventory_lines(sphinx_inventory.inventory(catalog, "en"))
    assert header[1:3] == ["# Project: Acme # Version: 666", f"# Version: {catalog.latest.version}"]
    assert len(entries) == len(catalog.releases) + len(catalog.features)
    names = [SPHINX_LINE.fullmatch(line).group(1) for line in entries]
    assert len(set(names)) == len(names)
    assert "evil.example" not in " ".join(SPHINX_LINE.fullmatch(line).group(4) for line in entries)
    crash = next(line for line in entries if line.startswith("feature-crash-on-empty-file "))
    assert crash.endswith(" No crash feature-widgets std:label -1 https://evil.example/ Widgets more")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_badges_are_valid_xml_whatever_an_api_name_or_level_holds(tmp_path, lang):
    catalog = hostile_catalog(tmp_path)
    widget = catalog.features["widgets"].first
    widget.api_refs = (ApiRef(f"acme.wid{ESCAPES}get<&>\"'"),)
    catalog.levels["stable"].name[lang] = f"Stable{ESCAPES}"
    badges = feature_badges.badges(catalog, lang)
    for badge in badges.values():
        ET.fromstring(badge)  # raises on invalid XML
    title = ET.fromstring(badges["badges/widgets.svg"]).find("{http://www.w3.org/2000/svg}title").text
    assert title.startswith("acme.wid\\x1b]0;pwned\\x07\\x1b[31m\\x9b\\u202e\\x00get<&>\"':")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_charts_are_valid_xml_whatever_a_title_or_level_holds(tmp_path, lang):
    catalog = hostile_catalog(tmp_path)
    catalog.features["widgets"].first.title[lang] = f"Widgets{ESCAPES}"
    for level in catalog.levels.values():
        level.name[lang] += ESCAPES
    charts = [svg.distribution(catalog, lang, "Levels"), svg.release_levels(catalog.latest, lang, "Levels")]
    charts += [svg.timeline(feature, lang, interface_strings(lang)) for feature in catalog.features.values()]
    for chart in charts:
        ET.fromstring(str(chart))


def test_a_feed_text_lxml_refuses_stops_the_build_naming_the_text(tmp_path):
    catalog = hostile_catalog(tmp_path)
    catalog.release("1.1").title["zh"] = "小部件\x1b[1m转为稳定"
    publish.outputs(catalog, "en", "https://example.org/")  # the English feed does not hold it
    with pytest.raises(publish.OutputError) as refused:
        publish.outputs(catalog, "zh", "https://example.org/")
    assert str(refused.value) == (
        "feed.xml: 1.1.yaml, title.zh cannot be written into the Atom feed (All strings must be XML compatible: "
        "Unicode or ASCII, no NULL bytes or control characters); remove the character (`releasekb validate` "
        "locates it)"
    )


def test_an_output_a_writer_cannot_encode_stops_the_build_naming_the_output(tmp_path):
    catalog = hostile_catalog(tmp_path)
    catalog.features["widgets"].first.title["en"] = "Widgets \ud800"  # a lone surrogate: not UTF-8
    with pytest.raises(publish.OutputError) as refused:
        publish.outputs(catalog, "en", "https://example.org/")
    assert str(refused.value).startswith(
        "the JSON API (api/) cannot be written from the data: 'utf-8' codec can't encode character '\\ud800'"
    )


def test_query_prints_no_control_character_and_no_line_a_ci_log_would_run(tmp_path, capsys):
    catalog = hostile_catalog(tmp_path)
    catalog.features["crash-on-empty-file"].first.title["en"] = f"No crash\n::error::injected{ESCAPES}"
    catalog.areas["io"].name["en"] = f"Input{ESCAPES}"
    query.print_table(list(catalog.features.values()), "en")
    printed = capsys.readouterr().out
    assert unsafe_character(printed, block=True) is None, printed
    assert len(printed.splitlines()) == 1 + len(catalog.features)
    assert not [line for line in printed.splitlines() if line.startswith("::")]
    assert "No crash\\n::error::injected\\x1b]0;pwned" in printed

    problems = query.unknown_values(catalog, query.Query(area=f"io{ESCAPES}"))
    assert unsafe_character("".join(problems), block=True) is None, problems


def test_query_json_writes_control_characters_as_json_escapes(tmp_path, capsys):
    catalog = hostile_catalog(tmp_path)
    title = f"No crash{ESCAPES}\u2028"
    catalog.features["crash-on-empty-file"].first.title["en"] = title
    query.print_json(catalog, list(catalog.features.values()), "")
    printed = capsys.readouterr().out
    assert unsafe_character(printed, block=True) is None
    features = {feature["id"]: feature for feature in json.loads(printed)["features"]}
    assert features["crash-on-empty-file"]["title"]["en"] == title  # the same data for a JSON reader


MULTI_LINE = [
    (
        "summary: {en: Widgets become stable and the old reader is deprecated.,",
        'summary: {en: "Widgets\\n\\tbecome stable.",',
    ),
    (
        "summary: {en: Widgets keep their API from now on., zh: 小部件的 API 从此保持不变。}",
        "summary:\n      en: |\n        Widgets keep their API\n        \tfrom now on.\n"
        "      zh: 小部件的 API 从此保持不变。",
    ),
]


def test_texts_over_several_lines_give_outputs_that_parse(tmp_path):
    """Newlines and tabs are allowed in summaries (and only there): every output is written, and the
    feed keeps them."""
    releases = fixture_data(tmp_path, {"1.1.yaml": MULTI_LINE})
    project = copy_project(tmp_path / "project", releases)
    site = build(project)
    for prefix in ("", "zh/"):
        header, entries = inventory_lines((site / prefix / "objects.inv").read_bytes())
        assert len(header) == 4 and all(SPHINX_LINE.fullmatch(line) for line in entries)
        badges = sorted((site / prefix / "badges").glob("*.svg"))
        assert badges
        for badge in badges:
            ET.parse(badge)
        ET.parse(site / prefix / "feed.xml")
    feed = ET.parse(site / "feed.xml").getroot()
    summaries = [entry.find(f"{ATOM}summary").text for entry in feed.findall(f"{ATOM}entry")]
    assert "Widgets\n\tbecome stable." in summaries
