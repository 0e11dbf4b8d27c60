"""The cross-version model: lifecycles and changelog events computed from the data."""

from helpers import catalog_of, fixture_data, release_file


def events(catalog, version):
    return [(ev.kind, ev.feature.id) for ev in catalog.release(version).events]


def test_releases_are_ordered_by_version_and_linked(fixture_catalog):
    versions = [r.version for r in fixture_catalog.releases]
    assert versions == ["1.0", "1.1", "2.0"]
    assert fixture_catalog.release("1.1").previous.version == "1.0"
    assert fixture_catalog.release("1.1").next.version == "2.0"
    assert fixture_catalog.latest.version == "2.0"


def test_releases_are_in_version_order_with_pre_releases_before_their_release(tmp_path):
    """Neither the file names' order (1.8.1, 1.8, 1.8rc1, 1.10) nor the versions' as text
    (1.10, 1.8, 1.8.1, 1.8rc1): numbers compare as numbers, a pre-release comes first."""
    data = fixture_data(tmp_path)
    for version in ("1.8.1", "1.8", "1.8rc1", "1.10"):
        (data / f"{version}.yaml").write_text(release_file(version), encoding="utf-8")
    catalog = catalog_of(data)
    assert [r.version for r in catalog.releases] == ["1.0", "1.1", "1.8rc1", "1.8", "1.8.1", "1.10", "2.0"]
    assert catalog.release("1.8").previous.version == "1.8rc1"
    assert catalog.release("1.8").next.version == "1.8.1"
    assert catalog.latest.version == "2.0"


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


def test_upgrade_view_has_a_section_per_release_with_what_an_upgrade_must_not_miss(fixture_catalog):
    """One upgrade page answers every pair of versions: each release one can upgrade to has a
    section listing its breaking changes, removals, deprecations and level changes."""
    assert [r.version for r in fixture_catalog.upgrade_releases] == ["1.1", "2.0"]
    upgrade = {r.version: [(ev.kind, ev.feature.id) for ev in r.upgrade_events] for r in fixture_catalog.releases}
    assert upgrade == {
        "1.0": [],
        "1.1": [("deprecation", "old-reader"), ("promoted", "widgets")],
        "2.0": [("breaking", "default-colour"), ("removal", "old-reader")],
    }
    # the additions and fixes of those releases are not among them
    assert ("fix", "crash-on-empty-file") in events(fixture_catalog, "1.1")
    assert ("addition", "widget-colours") in events(fixture_catalog, "2.0")


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


def test_catalog_objects_print_in_one_line(fixture_catalog):
    """pytest prints a failing test's arguments and the values its assertion compares. The
    catalog's objects refer to each other (an entry to its release, the release to its entries,
    and on); a printout that follows those references runs to megabytes for the fixture data and
    to more memory than the machine has for the real data."""
    release = fixture_catalog.release("1.1")
    feature = fixture_catalog.features["widgets"]
    objects = [fixture_catalog, release, feature, feature.first, feature.events[0]]
    assert [len(repr(thing)) < 200 for thing in objects] == [True] * len(objects)
