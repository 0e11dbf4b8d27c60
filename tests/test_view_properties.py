"""What templates print comes from catalog and render properties, tested here in Python: the
templates only loop over them and print them."""

from __future__ import annotations

from helpers import html_pages
from releasekb.kb.catalog import EVENT_KINDS
from releasekb.site.render import check_command, stability_attribute


def grouped(groups) -> list[tuple[str, list[str]]]:
    return [(kind.key, [event.feature.id for event in events]) for kind, events in groups]


def test_one_table_of_event_kinds_says_their_order_and_roles():
    assert list(EVENT_KINDS) == [
        "breaking", "removal", "deprecation", "promoted", "demoted", "labeled",
        "introduced", "addition", "updated", "improvement", "fix", "security",
    ]  # fmt: skip
    assert [key for key, kind in EVENT_KINDS.items() if kind.upgrade] == [
        "breaking", "removal", "deprecation", "promoted", "demoted",
    ]  # fmt: skip
    assert [key for key, kind in EVENT_KINDS.items() if kind.changes_level] == ["promoted", "demoted", "labeled"]
    assert EVENT_KINDS["promoted"].heading_key == "events_promoted"
    assert EVENT_KINDS["promoted"].text_key == "event_promoted"


def test_release_events_grouped_by_kind_in_table_order(fixture_catalog):
    assert grouped(fixture_catalog.release("1.1").events_by_kind) == [
        ("deprecation", ["old-reader"]),
        ("promoted", ["widgets"]),
        ("fix", ["crash-on-empty-file"]),
    ]
    assert grouped(fixture_catalog.release("1.1").upgrade_events_by_kind) == [
        ("deprecation", ["old-reader"]),
        ("promoted", ["widgets"]),
    ]
    assert grouped(fixture_catalog.release("2.0").upgrade_events_by_kind) == [
        ("breaking", ["default-colour"]),
        ("removal", ["old-reader"]),
    ]


def test_entry_status_and_label_keys(fixture_catalog):
    old_reader = fixture_catalog.features["old-reader"]
    assert [e.status_key for e in old_reader.entries] == ["unlabeled", "change-deprecation", "change-removal"]
    assert [e.label_key for e in old_reader.entries] == ["kind_new", "change_deprecation", "change_removal"]
    assert stability_attribute(old_reader) == "1.0=unlabeled 1.1=change-deprecation 2.0=change-removal"
    assert stability_attribute(fixture_catalog.features["widgets"]) == "1.0=experimental 1.1=stable"


def test_level_badge_beside_an_event_only_when_its_text_does_not_name_the_levels(fixture_catalog):
    widgets = fixture_catalog.features["widgets"]
    assert [(ev.kind, ev.shows_level_badge) for ev in widgets.timeline] == [
        ("introduced", True),
        ("promoted", False),
        ("addition", True),
    ]
    assert [ev.shows_level_badge for ev in fixture_catalog.features["default-colour"].timeline] == [False]


def test_feature_level_key_and_since(fixture_catalog):
    widgets, default_colour = fixture_catalog.features["widgets"], fixture_catalog.features["default-colour"]
    assert (widgets.level_key, widgets.level_since_version) == ("stable", "1.1")
    assert (default_colour.level_key, default_colour.level_since_version) == ("", "")


def test_names_anchors_and_upgrade_choices(fixture_catalog):
    assert fixture_catalog.release("1.1").display_name == {"en": "Acme 1.1", "zh": "Acme 1.1"}
    assert fixture_catalog.areas["io"].anchor == "area-io"
    assert fixture_catalog.most_stable_level.key == "stable"
    assert [r.version for r in fixture_catalog.upgrade_sources] == ["1.0", "1.1"]
    assert [r.version for r in fixture_catalog.upgrade_releases] == ["1.1", "2.0"]


def test_feature_pages_show_the_check_command_for_their_code_apis(real_catalog):
    real = real_catalog
    assert check_command(real.features["torch-fft"]) == "releasekb check . --only torch-fft"
    assert check_command(real.features["cpp-transformer"]) == (
        "releasekb check . --only cpp-transformer --include '*.cpp' --include '*.cc' --include '*.h' --include '*.hpp'"
    )
    assert check_command(real.features["bug-fixes-1-4"]) == ""  # no API: no command, no section
    pages = html_pages(real, "zh")
    assert "releasekb check . --only torch-fft\n</code>" in pages["features/torch-fft.md"]
    assert 'id="check"' in pages["features/torch-fft.md"]
    assert 'id="check"' not in pages["features/bug-fixes-1-4.md"]
