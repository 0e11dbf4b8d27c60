"""The machine-readable outputs of the built real site: JSON API and its schema, badges,
the intersphinx inventory, Atom feeds; and `releasekb query` (exit codes, same shape)."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest
import sphobjinv

from helpers import REAL_RELEASES
from releasekb.kb import api
from releasekb.kb.urls import API_SCHEMA, API_SCHEMA_VERSION
from releasekb.site.outputs import feed as atom_feed

ATOM = "{http://www.w3.org/2005/Atom}"
SVG = "{http://www.w3.org/2000/svg}"


def read_json(site: Path, path: str) -> dict:
    return json.loads((site / path).read_text(encoding="utf-8"))


def validator() -> jsonschema.Draft202012Validator:
    schema = api.schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_every_api_document_of_the_site_follows_the_published_schema(real_site):
    published = read_json(real_site, API_SCHEMA)
    assert published == api.schema()
    documents = sorted((real_site / "api").rglob("*.json"))
    documents = [d for d in documents if "schema" not in d.parts]
    assert len(documents) >= 4
    for document in documents:
        errors = list(validator().iter_errors(json.loads(document.read_text(encoding="utf-8"))))
        assert not errors, f"{document}: {errors[0].message}"


def test_the_schema_rejects_a_feature_without_levels_or_a_text_without_a_language():
    feature = {"schema_version": 1, "product": {"en": "P", "zh": "P"}, "features": [{"id": "x"}]}
    assert not validator().is_valid(feature)
    # the languages are the knowledge base's (project.yaml): a text needs one, named by a language code
    assert validator().is_valid({"schema_version": 1, "product": {"en": "P"}})
    assert not validator().is_valid({"schema_version": 1, "product": {}})
    assert not validator().is_valid({"schema_version": 1, "product": {"English": "P"}})


def test_features_json_has_every_feature_with_both_languages_and_levels(real_site, real_catalog):
    document = read_json(real_site, "api/features.json")
    assert document["schema_version"] == API_SCHEMA_VERSION
    by_id = {f["id"]: f for f in document["features"]}
    assert list(by_id) == list(real_catalog.features)
    fft = by_id["torch-fft"]
    assert fft["level"]["key"] == "beta" and fft["level_since"] == "1.7"
    assert fft["entries"][0]["level"]["name"] == {"en": "Beta", "zh": "测试版"}
    assert fft["entries"][0]["scheme"] == real_catalog.release("1.7").scheme
    assert fft["urls"] == {"en": "/features/torch-fft/", "zh": "/zh/features/torch-fft/"}
    assert set(fft["title"]) == {"en", "zh"}
    rpc = by_id["distributed-rpc"]
    assert [e["level"]["key"] for e in rpc["entries"][:2]] == ["experimental", "stable"]


def test_release_and_changelog_documents_match_the_catalog(real_site, real_catalog):
    for release in real_catalog.releases:
        document = read_json(real_site, f"api/releases/{release.version}.json")["release"]
        assert document["version"] == release.version and document["date"] == release.date
        assert document["features"] == [e.id for e in release.features]
    releases = read_json(real_site, "api/releases.json")["releases"]
    assert [r["version"] for r in releases] == [r.version for r in real_catalog.releases]
    events = read_json(real_site, "api/changelog.json")["events"]
    assert len(events) == sum(len(r.events) for r in real_catalog.releases)
    assert events[0]["release"] == real_catalog.latest.version


def test_api_urls_are_absolute_when_the_site_url_is_set(real_catalog):
    document = api.features_document(real_catalog, [real_catalog.features["torch-fft"]], "https://kb.example.org/")
    assert document["features"][0]["urls"]["zh"] == "https://kb.example.org/zh/features/torch-fft/"
    entry_url = document["features"][0]["entries"][0]["urls"]["en"]
    assert entry_url == "https://kb.example.org/releases/1.7/#torch-fft"


@pytest.mark.parametrize("prefix", ["", "zh/"])
def test_objects_inv_resolves_every_feature_and_release_to_a_built_page(real_site, real_catalog, prefix):
    inventory = sphobjinv.Inventory(fname_zlib=real_site / prefix / "objects.inv")
    by_name = {obj.name: obj for obj in inventory.objects}
    for feature in real_catalog.features.values():
        obj = by_name[f"feature-{feature.id}"]
        assert (obj.domain, obj.role) == ("std", "label")
        assert (real_site / prefix / obj.uri / "index.html").is_file(), obj.uri
    for release in real_catalog.releases:
        assert (real_site / prefix / by_name[f"release-{release.version}"].uri / "index.html").is_file()
    assert len(by_name) == len(real_catalog.features) + len(real_catalog.releases)
    assert by_name["feature-torch-fft"].dispname == real_catalog.features["torch-fft"].title["zh" if prefix else "en"]


@pytest.mark.parametrize(("prefix", "lang"), [("", "en"), ("zh/", "zh")])
def test_atom_feed_lists_the_releases_newest_first(real_site, real_catalog, prefix, lang):
    feed = ET.parse(real_site / prefix / "feed.xml").getroot()
    assert feed.tag == f"{ATOM}feed"
    entries = feed.findall(f"{ATOM}entry")
    assert len(entries) == len(real_catalog.releases)
    newest = real_catalog.latest
    assert entries[0].find(f"{ATOM}title").text.endswith(newest.title[lang])
    assert entries[0].find(f"{ATOM}link").get("href") == f"/{prefix}releases/{newest.version}/"
    assert entries[0].find(f"{ATOM}published").text.startswith(newest.date)


def feed_titles(catalog, lang: str) -> list[str]:
    feed = ET.fromstring(atom_feed.feed(catalog, lang, ""))
    return [entry.find(f"{ATOM}title").text for entry in feed.findall(f"{ATOM}entry")]


def test_feed_titles_name_the_product_and_version_once(real_catalog, fixture_catalog):
    """PyTorch's titles begin with "PyTorch 1.7: ..." already; the feed used to say it twice."""
    assert feed_titles(real_catalog, "en")[0] == (
        "PyTorch 1.7: CUDA 11 binaries, a NumPy-style `torch.fft` and distributed training on Windows"
    )
    assert feed_titles(real_catalog, "zh")[0].startswith("PyTorch 1.7：CUDA 11 二进制包")
    for lang in ("en", "zh"):
        assert feed_titles(real_catalog, lang) == [release.title[lang] for release in reversed(real_catalog.releases)]
    # titles that do not name the release get the product and version in front
    assert feed_titles(fixture_catalog, "en") == ["Acme 2", "Acme 1.1: Widgets are stable", "Acme 1.0: First release"]


def test_badges_show_level_and_since_with_a_title_and_level_colours(real_site):
    def parse(path: str):
        svg = ET.parse(real_site / path).getroot()
        return svg.find(f"{SVG}title").text, svg.findall(f"{SVG}rect")[1].get("fill")

    fft_title, beta_colour = parse("badges/torch-fft.svg")
    assert fft_title == "torch.fft: Beta since 1.7"
    zh_title, _ = parse("zh/badges/torch-fft.svg")
    assert zh_title == "torch.fft: 自 1.7 起为测试版"
    _, stable_colour = parse("badges/distributed-rpc.svg")
    assert stable_colour != beta_colour


def query(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "releasekb.cli", "--data", str(REAL_RELEASES), "query", *args],
        capture_output=True,
        text=True,
    )


def test_query_exit_status_is_0_with_results_1_without_and_2_on_usage_errors():
    assert query("--text", "torch.fft").returncode == 0
    none = query("--text", "no-such-words-anywhere")
    assert none.returncode == 1 and "no feature matches" in none.stderr
    unknown = query("--stability", "bta")
    assert unknown.returncode == 2 and "beta" in unknown.stderr
    assert query("--lang", "fr").returncode == 2


def test_query_json_is_the_api_shape_and_honours_every_filter(real_catalog):
    result = query("--stability", "beta", "--release", "1.7", "--area", "distributed", "--format", "json")
    document = json.loads(result.stdout)
    assert validator().is_valid(document)
    assert document["features"], result.stderr
    for feature in document["features"]:
        assert feature["area"]["key"] == "distributed"
        assert any(e["release"] == "1.7" and e["level"]["key"] == "beta" for e in feature["entries"])
    expected = [
        f.id
        for f in real_catalog.features.values()
        if f.area.key == "distributed"
        and any(e.release.version == "1.7" and e.level and e.level.key == "beta" for e in f.entries)
    ]
    assert [f["id"] for f in document["features"]] == expected


def test_query_text_searches_the_chosen_language():
    chinese = query("--text", "自动求导", "--lang", "zh", "--format", "json")
    assert chinese.returncode == 0 and json.loads(chinese.stdout)["features"]
    assert query("--text", "自动求导", "--lang", "en").returncode == 1
