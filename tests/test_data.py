"""Checks over the curated PyTorch data (issue: curate the four releases)."""

import re
from pathlib import Path

import pytest

from releasekb.catalog import build_catalog
from releasekb.rules import HAN, texts
from releasekb.validate import load_data

RELEASES = Path(__file__).resolve().parent.parent / "releases"


@pytest.fixture(scope="module")
def data():
    return load_data(RELEASES)  # raises DataError, listing every problem, if anything is invalid


@pytest.fixture(scope="module")
def catalog(data):
    return build_catalog(data)


def test_the_four_releases_are_curated(catalog):
    assert [r.version for r in catalog.releases] == ["0.2", "1.4", "1.5", "1.7"]
    assert {r.version: r.date for r in catalog.releases} == {
        "0.2": "2017-08",
        "1.4": "2020-01",
        "1.5": "2020-04-21",
        "1.7": "2020-10-27",
    }


def test_every_text_has_both_languages_in_the_right_script(data):
    count, entries = 0, 0
    for release in data.releases:
        entries += len(release.record.features) + len(release.record.changes)
        for _, text in texts(release.record):
            assert text.en.strip() and text.zh.strip()
            assert HAN.search(text.zh), text.zh
            assert not HAN.search(text.en), text.en
            count += 1
    assert count >= 2 * entries + 2 * len(data.releases)  # title and summary of each, at least


def test_every_release_has_sources_with_an_original(catalog):
    for release in catalog.releases:
        kinds = {(s.kind, s.lang) for s in release.sources}
        # 1.4's Chinese source is a news article about the release, not a translation of the notes.
        chinese = "report" if release.version == "1.4" else "translation"
        assert ("original", "en") in kinds and (chinese, "zh") in kinds, release.version
        assert release.highlights, release.version


def test_schemes_are_the_ones_each_release_used(catalog):
    assert {r.version: r.scheme for r in catalog.releases} == {
        "0.2": "unlabeled",
        "1.4": "stable-experimental",
        "1.5": "stable-experimental",
        "1.7": "stable-beta-prototype",
    }
    assert {e.level.key for e in catalog.release("0.2").features} == {"unlabeled"}
    assert {e.level.key for e in catalog.release("1.7").features} <= {"stable", "beta", "prototype", "unlabeled"}


def test_no_two_entries_of_a_release_share_an_id_or_a_title(catalog):
    for release in catalog.releases:
        ids = [e.id for e in release.entries]
        assert len(ids) == len(set(ids))
        for lang in ("en", "zh"):
            titles = [e.title[lang].casefold() for e in release.entries]
            assert len(titles) == len(set(titles))


def test_lifecycles_are_ordered_and_consistent(catalog):
    order = [r.version for r in catalog.releases]
    for feature in catalog.features.values():
        versions = [e.release.version for e in feature.entries]
        assert versions == sorted(versions, key=order.index) and len(set(versions)) == len(versions)
        if feature.removed_in:
            assert feature.latest.kind == "removal"
        if feature.parent:
            assert order.index(feature.parent.first.release.version) <= order.index(feature.first.release.version)


@pytest.mark.parametrize(
    "feature_id, lifecycle",
    [
        ("distributed-rpc", [("1.4", "experimental"), ("1.5", "stable")]),
        ("custom-cpp-classes", [("1.5", "experimental"), ("1.7", "stable")]),
        ("rpc-remote-reference", [("1.4", "experimental"), ("1.5", "stable")]),
    ],
)
def test_published_level_changes(catalog, feature_id, lifecycle):
    feature = catalog.features[feature_id]
    assert [(e.release.version, e.level.key) for e in feature.entries] == lifecycle
    assert feature.events[-1].kind == "promoted"


@pytest.mark.parametrize(
    "parent, child, version",
    [
        ("rpc-api", "rpc-torchscript-sync-remote", "1.7"),
        ("rpc-api", "rpc-per-call-timeout", "1.7"),
        ("rpc-remote-reference", "rref-helpers", "1.7"),
        ("distributed-package", "windows-distributed-training", "1.7"),
        ("distributed-collectives", "nccl-async-error-handling", "1.7"),
        ("pytorch-mobile", "mobile-ios-android-binaries", "1.7"),
        ("distributed-rpc", "rpc-profiling", "1.7"),
        ("cpp-frontend", "cpp-transformer", "1.7"),
        ("distributed-data-parallel", "ddp-uneven-inputs", "1.7"),
        ("lr-schedulers", "lr-scheduler-chaining", "1.4"),
    ],
)
def test_later_additions_link_to_their_feature(catalog, parent, child, version):
    assert catalog.features[child].parent is catalog.features[parent]
    assert catalog.features[child].first.release.version == version


def test_cpp_frontend_starts_at_its_first_published_level(catalog):
    """1.4's unlabeled "C++ API updates" are their own entry: reusing cpp-frontend for them read
    as unlabeled -> stable and hid that 1.5 calls the frontend previously experimental."""
    frontend = catalog.features["cpp-frontend"]
    assert [(e.release.version, e.level.key) for e in frontend.entries] == [("1.5", "stable")]
    assert "experimental" in frontend.entries[0].summary["en"]
    assert catalog.features["cpp-api-updates-1-4"].first.release.version == "1.4"


def test_bug_fixes_of_14_span_several_areas(catalog):
    assert catalog.features["bug-fixes-1-4"].first.area.key == "general"


def test_python2_support_ends(catalog):
    entries = catalog.features["python2-support"].entries
    assert [(e.release.version, e.kind) for e in entries] == [("1.4", "deprecation"), ("1.5", "removal")]
    assert all(e.migration for e in entries)


def test_glossary_keeps_traps_out_of_chinese(data):
    traps = re.compile("变压器|视网膜|焦距损失|火炬脚本")
    for release in data.releases:
        for _, text in texts(release.record):
            assert not traps.search(text.zh), text.zh
