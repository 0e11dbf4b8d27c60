"""Stale translations: an English text edited after its translation was reviewed is caught."""

import gc
import json
import weakref

from helpers import catalog_of, fixture_data, html_pages, line_of
from releasekb.cli import main
from releasekb.kb.translations import LOCK_FILE

WIDGETS_SUMMARY = (
    "summary: {en: Widgets keep their API from now on.",
    "summary: {en: Widgets keep their API for good.",
)


def reviewed_data(tmp_path, capsys):
    """Fixture data with every translation marked reviewed."""
    data = fixture_data(tmp_path)
    assert main(["--data", str(data), "translations", "--reviewed", "--all"]) == 0
    assert "reviewed" in capsys.readouterr().out
    return data


def edit(data, name, old, new):
    """Edit a data copy in place, after it was marked reviewed (fixture_data edits a fresh copy)."""
    path = data / name
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def validate(data, capsys, *args):
    code = main(["--data", str(data), "validate", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_edited_english_text_warns_at_its_line_naming_the_chinese_text(tmp_path, capsys):
    data = reviewed_data(tmp_path, capsys)
    edit(data, "1.1.yaml", *WIDGETS_SUMMARY)
    code, out, err = validate(data, capsys)
    line = line_of(data / "1.1.yaml", "Widgets keep their API for good")
    assert code == 0  # a warning, not an error
    assert err.splitlines() == [
        f"{data / '1.1.yaml'}:{line}:19: warning: features[0].summary.en: the English text changed after its "
        f"translation was last reviewed: review features[0].summary.zh (line {line}), then run "
        "`releasekb translations --reviewed 1.1:widgets.summary`"
    ]
    assert "1 translation may be out of date" in out


def test_strict_validation_fails_on_a_stale_translation(tmp_path, capsys):
    data = reviewed_data(tmp_path, capsys)
    assert validate(data, capsys, "--strict")[0] == 0
    edit(data, "1.1.yaml", *WIDGETS_SUMMARY)
    assert validate(data, capsys, "--strict")[0] == 1


def test_reflowing_whitespace_is_not_a_change(tmp_path, capsys):
    data = reviewed_data(tmp_path, capsys)
    edit(data, "1.1.yaml", "Widgets keep their API from now on.", "Widgets  keep their\n      API from now on.")
    code, _, err = validate(data, capsys, "--strict")
    assert (code, err) == (0, "")


def test_texts_without_a_record_start_reviewed(tmp_path, capsys):
    data = fixture_data(tmp_path)  # no lock file at all
    edit(data, "1.1.yaml", *WIDGETS_SUMMARY)
    code, out, err = validate(data, capsys, "--strict")
    assert (code, err) == (0, "")
    assert "no review record yet" in out


def test_marking_one_text_reviewed_clears_only_that_text(tmp_path, capsys):
    data = reviewed_data(tmp_path, capsys)
    edit(data, "1.1.yaml", *WIDGETS_SUMMARY)
    edit(data, "1.1.yaml", "It will be removed in 2.0.", "It is removed in 2.0.")
    assert main(["--data", str(data), "translations", "--reviewed", "1.1:widgets.summary"]) == 0
    assert "marked 1 text reviewed" in capsys.readouterr().out
    _, _, err = validate(data, capsys)
    assert [line.split(": ")[2] for line in err.splitlines()] == ["changes[0].summary.en"]


def test_marking_by_file_by_id_and_all(tmp_path, capsys):
    for target in ([str(tmp_path / "releases" / "1.1.yaml")], ["widgets"], ["1.1"], ["1.1:widgets"], ["--all"]):
        data = reviewed_data(tmp_path, capsys)
        edit(data, "1.1.yaml", *WIDGETS_SUMMARY)
        assert main(["--data", str(data), "translations", "--reviewed", *target]) == 0, target
        assert validate(data, capsys, "--strict")[0] == 0, target
        (data.parent / "releases").rename(tmp_path / f"done-{len(list(tmp_path.iterdir()))}")


def test_unknown_target_is_refused(tmp_path, capsys):
    data = reviewed_data(tmp_path, capsys)
    before = (data / LOCK_FILE).read_bytes()
    assert main(["--data", str(data), "translations", "--reviewed", "no-such-feature"]) == 1
    assert "'no-such-feature' names no release file, version, entry id or text" in capsys.readouterr().err
    assert (data / LOCK_FILE).read_bytes() == before


def test_listing_shows_stale_translations(tmp_path, capsys):
    data = reviewed_data(tmp_path, capsys)
    edit(data, "1.1.yaml", *WIDGETS_SUMMARY)
    assert main(["--data", str(data), "translations"]) == 0
    out = capsys.readouterr().out
    assert "features[0].summary.en" in out and "1 translation may be out of date" in out


def test_lock_file_is_sorted_deterministic_and_drops_removed_texts(tmp_path, capsys):
    data = reviewed_data(tmp_path, capsys)
    first = (data / LOCK_FILE).read_text(encoding="utf-8")
    records = json.loads(first)["zh"]
    assert list(records) == sorted(records)
    assert "1.1:crash-on-empty-file.title" in records
    assert main(["--data", str(data), "translations", "--reviewed", "--all"]) == 0
    assert (data / LOCK_FILE).read_text(encoding="utf-8") == first
    text = (data / "1.1.yaml").read_text(encoding="utf-8")
    start, end = text.index("  - id: crash-on-empty-file"), text.index("changes:")
    (data / "1.1.yaml").write_text(text[:start] + text[end:], encoding="utf-8")
    assert main(["--data", str(data), "translations", "--reviewed", "1.1"]) == 0
    assert "1.1:crash-on-empty-file.title" not in json.loads((data / LOCK_FILE).read_text(encoding="utf-8"))["zh"]


def test_broken_lock_file_is_a_located_problem(tmp_path, capsys):
    data = reviewed_data(tmp_path, capsys)
    (data / LOCK_FILE).write_text('{\n "zh": {"1.1:title": }\n}\n', encoding="utf-8")
    code, _, err = validate(data, capsys)
    assert code == 1
    assert f"{data / LOCK_FILE}:2:22: (document): not valid JSON (Expecting value); restore it" in err


def test_chinese_pages_note_the_stale_entry_until_it_is_reviewed(tmp_path, capsys):
    data = reviewed_data(tmp_path, capsys)
    edit(data, "1.1.yaml", *WIDGETS_SUMMARY)
    pages = html_pages(catalog_of(data))
    note = '<p class="rkb-outdated">此译文可能已过时：原文在上次审校之后有改动。</p>'
    release = pages["zh/releases/1.1.md"]
    assert release.count(note) == 1
    # on the widgets entry: after its heading, before the next entry's heading
    assert release.index('id="widgets"') < release.index(note) < release.index('id="crash-on-empty-file"')
    feature = pages["zh/features/widgets.md"]
    assert feature.count(note) == 1
    assert feature.index('id="v1-1"') < feature.index(note) < feature.index('id="v1-0"')
    assert "rkb-outdated" not in pages["en/releases/1.1.md"] + pages["en/features/widgets.md"]
    assert "rkb-outdated" not in pages["zh/releases/1.0.md"]

    assert main(["--data", str(data), "translations", "--reviewed", "widgets"]) == 0
    pages = html_pages(catalog_of(data))
    assert "rkb-outdated" not in pages["zh/releases/1.1.md"] + pages["zh/features/widgets.md"]


def test_release_summary_note(tmp_path, capsys):
    data = reviewed_data(tmp_path, capsys)
    edit(data, "1.1.yaml", "summary: {en: Widgets become stable", "summary: {en: Widgets are now stable")
    release = html_pages(catalog_of(data))["zh/releases/1.1.md"]
    summary_at = release.index("小部件转为稳定，旧读取器被弃用。")
    assert summary_at < release.index("rkb-outdated") < release.index('id="features"')


def test_after_an_edit_only_the_changed_file_is_hashed_again_and_staleness_follows(tmp_path, capsys, monkeypatch):
    """Under `serve` the data is loaded again after every save: each release file's texts and
    their hashes are worked out again only for the file that changed, and what is stale is the
    same as a fresh load finds."""
    from releasekb.kb import translations
    from releasekb.kb.validate import LoadedReleases, load_data

    data = reviewed_data(tmp_path, capsys)
    read = []
    original = translations._texts_of
    monkeypatch.setattr(
        translations, "_texts_of", lambda release: read.append(release.record.version) or original(release)
    )
    loaded = LoadedReleases()
    assert translations.stale_entry_keys(load_data(data, loaded)) == {}
    assert sorted(read) == ["1.0", "1.1", "2.0"]
    read.clear()
    assert translations.stale_entry_keys(load_data(data, loaded)) == {}  # nothing saved
    assert read == []

    edit(data, "1.1.yaml", *WIDGETS_SUMMARY)
    assert translations.stale_entry_keys(load_data(data, loaded)) == {"1.1:widgets": {"zh"}}
    assert read == ["1.1"]
    assert translations.stale_entry_keys(load_data(data)) == {"1.1:widgets": {"zh"}}  # as a fresh load finds

    read.clear()
    edited = weakref.ref(next(r for r in load_data(data, loaded).releases if r.record.version == "1.1"))
    edit(data, "1.1.yaml", *reversed(WIDGETS_SUMMARY))  # the text as reviewed again: nothing stale
    assert translations.stale_entry_keys(load_data(data, loaded)) == {}
    assert read == ["1.1"]
    gc.collect()
    assert edited() is None  # what was kept of the file as it was went with it, not kept forever
