"""Absolute "More:" links in every format of `releasekb check`, when the knowledge base declares
its public address (`site_url` in project.yaml) or `--site-url` gives it."""

from __future__ import annotations

import dataclasses
import json

import pytest

from helpers import REAL_RELEASES, real_data, run_check, write_tree
from releasekb.check.index import ApiIndex
from releasekb.check.links import make_absolute, site_address
from releasekb.common.problems import DataError
from releasekb.kb import api_index
from releasekb.kb.pipeline import load_catalog
from releasekb.site.outputs import json_api

CODE = "import torch\n\nspectrum = torch.fft(signal, 1)\n"
ENTRY = "releases/1.7/#torch-fft-function"
FEATURE = "features/torch-fft-function/"


def outputs(capsys, *args: str, data=REAL_RELEASES) -> dict[str, str]:
    """The report in every format."""
    found = {}
    for output_format in ("text", "json", "sarif", "github"):
        status, out, err = run_check(capsys, ".", "--from", "1.4", "--format", output_format, *args, kb=data)
        assert status == 1, err
        found[output_format] = out
    return found


def assert_absolute_everywhere(found: dict[str, str], site: str) -> None:
    assert f"More: {site}{ENTRY}" in found["text"]
    assert json.loads(found["json"])["findings"][0]["url"] == f"{site}{ENTRY}"
    rule = json.loads(found["sarif"])["runs"][0]["tool"]["driver"]["rules"][0]
    assert rule["helpUri"] == f"{site}{FEATURE}" and rule["help"]["text"].endswith(f"\n\n{site}{ENTRY}")
    assert f"More: {site}{ENTRY}" in found["github"]


def test_links_are_site_relative_without_an_address(checked_project, capsys):
    write_tree(checked_project, {"a.py": CODE})
    found = outputs(capsys)
    assert f"More: /{ENTRY}" in found["text"] and json.loads(found["json"])["findings"][0]["url"] == f"/{ENTRY}"


def test_the_address_in_project_yaml_makes_every_link_absolute(checked_project, tmp_path, capsys):
    data = real_data(
        tmp_path, {"project.yaml": [("\nredirects:", "\nsite_url: https://kb.example.org/torch/\nredirects:")]}
    )
    write_tree(checked_project, {"a.py": CODE})
    assert_absolute_everywhere(outputs(capsys, data=data), "https://kb.example.org/torch/")
    # the command line wins
    found = outputs(capsys, "--site-url", "https://mirror.example.net", data=data)
    assert_absolute_everywhere(found, "https://mirror.example.net/")
    zh = outputs(capsys, "--lang", "zh", data=data)["text"]
    assert f"详情：https://kb.example.org/torch/zh/{ENTRY}" in zh


def test_site_url_makes_the_links_of_a_site_relative_index_absolute(checked_project, tmp_path, capsys):
    index = tmp_path / "apis.json"
    index.write_bytes(json_api.api_files(load_catalog(REAL_RELEASES), "")[api_index.INDEX_PATH])
    write_tree(checked_project, {"a.py": CODE})
    assert f"More: /{ENTRY}" in outputs(capsys, "--index", str(index))["text"]
    found = outputs(capsys, "--index", str(index), "--site-url", "https://kb.example.org")
    assert_absolute_everywhere(found, "https://kb.example.org/")


@pytest.mark.parametrize(
    ("source", "site_url", "address"),
    [
        ("https://kb.example.org/torch/api/apis.json", "", "https://kb.example.org/torch/"),
        ("https://kb.example.org/api/apis.json", "https://other.example.org/", "https://other.example.org/"),
        ("saved/apis.json", "", ""),
    ],
)
def test_an_index_fetched_from_a_site_links_to_that_site(source, site_url, address):
    index = ApiIndex(api_index.index_document(load_catalog(REAL_RELEASES), ""), source)
    assert site_address(index, site_url) == address


def test_absolute_links_are_new_records_of_the_index_as_its_records_are_frozen():
    index = ApiIndex(api_index.index_document(load_catalog(REAL_RELEASES), ""), "saved/apis.json")
    relative = index.records[("torch.fft", "call")]
    make_absolute(index, "https://kb.example.org/")
    absolute = index.records[("torch.fft", "call")]
    assert [e.urls for e in relative.entries] == [{"en": f"/{ENTRY}", "zh": f"/zh/{ENTRY}"}]
    assert [e.urls for e in absolute.entries] == [
        {"en": f"https://kb.example.org/{ENTRY}", "zh": f"https://kb.example.org/zh/{ENTRY}"}
    ]
    assert absolute.entries[0].feature_urls["en"] == f"https://kb.example.org/{FEATURE}"
    with pytest.raises(dataclasses.FrozenInstanceError):
        absolute.entries[0].urls = {}


def test_project_yaml_accepts_only_an_address_as_site_url(tmp_path):
    data = real_data(tmp_path, {"project.yaml": [("\nredirects:", "\nsite_url: kb.example.org\nredirects:")]})
    with pytest.raises(DataError, match="site_url"):
        load_catalog(data)
