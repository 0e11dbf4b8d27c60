"""The cross-version model: lifecycles and changelog events computed from the data."""

from pathlib import Path

import pytest

from helpers import FIXTURE_RELEASES
from releasekb.catalog import build_catalog
from releasekb.validate import load_data

REAL_RELEASES = Path(__file__).resolve().parent.parent / "releases"


@pytest.fixture(scope="module")
def fixture_catalog():
    return build_catalog(load_data(FIXTURE_RELEASES))


@pytest.fixture(scope="module")
def real_catalog():
    return build_catalog(load_data(REAL_RELEASES))


def events(catalog, version):
    return [(ev.kind, ev.feature.id) for ev in catalog.release(version).events]


def test_releases_are_ordered_by_version_and_linked(fixture_catalog):
    versions = [r.version for r in fixture_catalog.releases]
    assert versions == ["1.0", "1.1", "2.0"]
    assert fixture_catalog.release("1.1").previous.version == "1.0"
    assert fixture_catalog.release("1.1").next.version == "2.0"
    assert fixture_catalog.latest.version == "2.0"


def test_changelog_events_of_each_release(fixture_catalog):
    assert events(fixture_catalog, "1.0") == [("introduced", "widgets"), ("introduced", "old-reader")]
    assert events(fixture_catalog, "1.1") == [
        ("deprecation", "old-reader"),
        ("promoted", "widgets"),
        ("fix", "crash-on-empty-file"),
    ]
    assert events(fixture_catalog, "2.0") == [
        ("breaking", "default-colour"),
        ("removal", "old-reader"),
        ("addition", "widget-colours"),
    ]


def test_promotion_records_both_levels(fixture_catalog):
    promotion = fixture_catalog.release("1.1").events[1]
    assert (promotion.before.key, promotion.after.key) == ("experimental", "stable")


def test_lifecycle_of_a_feature_includes_its_parts(fixture_catalog):
    widgets = fixture_catalog.features["widgets"]
    assert [(ev.release.version, ev.kind) for ev in widgets.timeline] == [
        ("1.0", "introduced"),
        ("1.1", "promoted"),
        ("2.0", "addition"),
    ]
    assert widgets.level.key == "stable"
    assert [part.id for part in widgets.parts] == ["widget-colours"]
    assert fixture_catalog.features["widget-colours"].parent is widgets


def test_feature_title_is_its_name_not_a_headline(fixture_catalog):
    assert fixture_catalog.features["widgets"].title == {"en": "Widgets", "zh": "小部件"}
    assert fixture_catalog.features["crash-on-empty-file"].title["en"] == "No crash on empty files"


def test_removed_feature(fixture_catalog):
    reader = fixture_catalog.features["old-reader"]
    assert reader.removed_in.version == "2.0"
    assert [e.kind for e in reader.entries] == ["new", "deprecation", "removal"]


def test_upgrade_view_lists_everything_between_two_versions(fixture_catalog):
    old, new = fixture_catalog.release("1.0"), fixture_catalog.release("2.0")
    kinds = [
        (ev.release.version, ev.kind, ev.feature.id)
        for ev in fixture_catalog.events_between(old, new, ("breaking", "removal", "deprecation", "promoted"))
    ]
    assert kinds == [
        ("2.0", "breaking", "default-colour"),
        ("2.0", "removal", "old-reader"),
        ("1.1", "deprecation", "old-reader"),
        ("1.1", "promoted", "widgets"),
    ]
    assert [r.version for r in fixture_catalog.releases_between(old, new)] == ["2.0", "1.1"]
    # The upgrade view has one section per release one can upgrade to, not one page per pair.
    assert [r.version for r in fixture_catalog.upgrade_releases] == ["1.1", "2.0"]
    upgrade = {r.version: [(ev.kind, ev.feature.id) for ev in r.upgrade_events] for r in fixture_catalog.releases}
    assert upgrade == {
        "1.0": [],
        "1.1": [("deprecation", "old-reader"), ("promoted", "widgets")],
        "2.0": [("breaking", "default-colour"), ("removal", "old-reader")],
    }


def test_unlabeled_is_not_stable(fixture_catalog):
    reader = fixture_catalog.features["old-reader"].first
    assert reader.level.key == "unlabeled" and reader.level.rank is None


def test_level_counts(fixture_catalog):
    counts = {level.key: n for level, n in fixture_catalog.release("1.1").level_counts}
    assert counts == {"stable": 1, "experimental": 0, "unlabeled": 1}


def test_real_rpc_framework_goes_from_experimental_to_stable(real_catalog):
    rpc = real_catalog.features["distributed-rpc"]
    assert [(e.release.version, e.level.key) for e in rpc.entries] == [("1.4", "experimental"), ("1.5", "stable")]
    assert rpc.events[1].kind == "promoted"
    additions_17 = [ev for ev in rpc.timeline if ev.release.version == "1.7"]
    assert "rpc-profiling" in {ev.feature.id for ev in additions_17}
    # TorchScript support for rpc_sync/remote extends the RPC API part, not the framework directly.
    api_additions_17 = [ev for ev in real_catalog.features["rpc-api"].timeline if ev.release.version == "1.7"]
    assert "rpc-torchscript-sync-remote" in {ev.feature.id for ev in api_additions_17}


def test_real_custom_cpp_classes_promoted_in_17(real_catalog):
    classes = real_catalog.features["custom-cpp-classes"]
    assert [(e.release.version, e.level.key) for e in classes.entries] == [("1.5", "experimental"), ("1.7", "stable")]
    assert classes.events[-1].kind == "promoted"


def test_real_python2_deprecated_then_removed(real_catalog):
    py2 = real_catalog.features["python2-support"]
    assert [(e.release.version, e.kind) for e in py2.entries] == [("1.4", "deprecation"), ("1.5", "removal")]


def test_real_02_has_no_labels(real_catalog):
    assert {e.level.key for e in real_catalog.release("0.2").features} == {"unlabeled"}
