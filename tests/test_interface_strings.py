"""Interface strings: the catalogues ReleaseKB ships (en, ja, zh) agree key for key, a team adds or
changes a language with its own locales/<lang>.yaml in the data folder, and plurals, dates and
numbers come from CLDR (Babel), not from rules written per language."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
import yaml

from helpers import FIXTURE_RELEASES, catalog_of, problems_of
from releasekb.cli import main
from releasekb.common.formatting import format_number, format_release_date, plural_categories
from releasekb.common.i18n import count_text, interface_strings
from releasekb.common.locales import (
    PACKAGE_LOCALES,
    is_plural,
    known_languages,
    leaf_keys,
    package_languages,
    placeholders,
    read_team_file,
    starter_text,
)
from releasekb.common.problems import DataError
from releasekb.kb.urls import UPGRADE
from releasekb.kb.validate import read_files
from releasekb.site.generate import LanguagePages
from releasekb.site.render import render_pages

SHIPPED = ("en", "ja", "zh")


def _catalogue(lang: str) -> dict:
    return yaml.safe_load((PACKAGE_LOCALES / f"{lang}.yaml").read_text(encoding="utf-8"))


@pytest.fixture
def data(tmp_path):
    """A copy of the fixture data folder (Acme), for a team's own locales/."""
    folder = tmp_path / "releases"
    shutil.copytree(FIXTURE_RELEASES, folder)
    (folder / "locales").mkdir()
    return folder


# --------------------------------------------------------------------------- the shipped catalogues


def test_the_package_ships_english_japanese_and_chinese():
    assert package_languages() == SHIPPED


@pytest.mark.parametrize("lang", SHIPPED)
def test_every_catalogue_has_the_keys_and_placeholders_of_the_english_one(lang):
    """Nested keys (the `check` sub-tree too) and {placeholders} per key. A language without plural
    forms may leave out only a `*word` placeholder, the word that agrees with a count ("files")."""
    english, table = leaf_keys(_catalogue("en")), leaf_keys(_catalogue(lang))
    assert table.keys() == english.keys()
    assert len(english) > 300 and any(key.startswith("check.scanner.") for key in english)
    for key, text in english.items():
        left_out = placeholders(text) - placeholders(table[key])
        assert placeholders(table[key]) <= placeholders(text), (lang, key)
        assert all(name.endswith("word") for name in left_out), (lang, key, left_out)


@pytest.mark.parametrize("lang", SHIPPED)
def test_a_plural_text_has_only_the_forms_of_its_language(lang):
    for key, text in leaf_keys(_catalogue(lang)).items():
        if isinstance(text, dict):
            assert is_plural(text), key
            assert set(text) <= plural_categories(lang), (lang, key)


def test_the_japanese_catalogue_uses_the_usual_technical_terms():
    ja = _catalogue("ja")
    assert ja["change_breaking"] == "破壊的変更"
    assert ja["change_deprecation"] == "非推奨化"
    assert ja["check"]["report"]["heading_deprecated"] == "非推奨"
    assert ja["nav_changelog"] == "変更履歴"
    assert ja["language_name"] == "日本語"
    assert ja["label"] == "{label}："  # full-width punctuation, as Japanese text writes it
    # written in Japanese, not copied from Chinese (a copied zh.yaml would pass the key test): the
    # texts the two share are punctuation and single characters (（）, 高, 中, 低)
    zh = leaf_keys(_catalogue("zh"))
    shared = [text for key, text in leaf_keys(ja).items() if text and text == zh[key] and not str(text).isascii()]
    assert all(len(str(text).replace("{", "").replace("}", "")) < 30 for text in shared)
    assert len(shared) < 15, shared


# --------------------------------------------------------------------------- plurals, dates, numbers


def test_a_count_takes_the_form_cldr_gives_it_in_each_language():
    en, zh, ja = (interface_strings(lang) for lang in ("en", "zh", "ja"))
    assert count_text(en, "timeline_additions", 1) == "1 addition"
    assert count_text(en, "timeline_additions", 2) == "2 additions"
    assert count_text(en, "count_breaking", 0) == "0 breaking changes"
    assert count_text(en, "count_breaking", 12345) == "12,345 breaking changes"
    assert count_text(zh, "count_breaking", 1) == "1 项不兼容变更"
    assert count_text(ja, "count_breaking", 1) == "破壊的変更 1 件"


def test_release_dates_are_written_in_each_language_by_babel():
    assert format_release_date("en", "2020-10-27") == "October 27, 2020"
    assert format_release_date("en", "2017-08") == "August 2017"
    assert format_release_date("zh", "2020-10-27") == "2020年10月27日"
    assert format_release_date("zh", "2017-08") == "2017年8月"
    assert format_release_date("ja", "2020-10-27") == "2020年10月27日"
    assert format_release_date("fr", "2020-10-27") == "27 octobre 2020"
    assert format_number("en", 1234567) == "1,234,567"


def test_pages_show_dates_and_counts_in_the_page_language(fixture_catalog):
    english = render_pages(fixture_catalog, "en", only={"releases/1.0.md"}).texts["releases/1.0.md"]
    chinese = render_pages(fixture_catalog, "zh", only={"releases/1.0.md"}).texts["releases/1.0.md"]
    assert "January 15, 2020" in english
    assert "2020年1月15日" in chinese
    upgrade = render_pages(fixture_catalog, "en", only={UPGRADE}).texts[UPGRADE]
    assert 'data-template="From {from} to {to}: {count} releases to read."' in upgrade
    assert 'data-template-one="From {from} to {to}: {count} release to read."' in upgrade


# --------------------------------------------------------------------------- a team's own strings


def test_a_team_file_changes_a_shipped_language_on_the_pages(data):
    (data / "locales" / "zh.yaml").write_text('released: "发布于"\ncheck:\n  report:\n    more: "参见：{url}"\n')
    catalog = catalog_of(data)
    page = render_pages(catalog, "zh", only={"releases/1.0.md"}).texts["releases/1.0.md"]
    assert "发布于" in page
    strings = interface_strings("zh", data)
    assert strings["check"]["report"]["more"] == "参见：{url}"
    assert strings["check"]["report"]["migration"] == interface_strings("zh")["check"]["report"]["migration"]
    assert interface_strings("zh")["released"] == "发布日期"  # the package's own catalogue is unchanged


def test_an_edited_team_file_is_read_again(data):
    path = data / "locales" / "en.yaml"
    path.write_text('released: "Out on"\n')
    assert interface_strings("en", data)["released"] == "Out on"
    path.write_text('released: "Shipped on"\n')
    os.utime(path, ns=(1, 1))  # a different modification time, whatever the clock's resolution
    assert interface_strings("en", data)["released"] == "Shipped on"


def test_an_unknown_key_is_an_error_naming_the_key_and_the_file(data, capsys):
    (data / "locales" / "zh.yaml").write_text('released: "发布于"\nreleasd_on: "x"\n')
    assert main(["--data", str(data), "validate"]) == 1
    error = capsys.readouterr().err
    assert f"{data / 'locales' / 'zh.yaml'}:2:1: releasd_on: unknown key" in error
    assert "did you mean 'released'?" in error
    assert "Traceback" not in error


def test_a_new_language_must_have_every_key(data):
    (data / "locales" / "fr.yaml").write_text('nav_releases: "Versions"\n')
    problems = problems_of(data)
    missing = [p for p in problems if "missing key" in p]
    assert len(missing) > 100
    assert any(f"{data / 'locales' / 'fr.yaml'}:1:1: check: missing key" in p for p in missing)
    assert any(": home_intro: missing key" in p and "`releasekb locale fr`" in p for p in missing)


def test_a_new_language_is_known_and_counts_by_its_own_rules(data):
    path = data / "locales" / "fr.yaml"
    path.write_text(starter_text("fr").replace('one: "{count} addition"', 'one: "{count} ajout"'))
    assert known_languages(data) == ("en", "fr", "ja", "zh")
    assert known_languages() == SHIPPED
    french = interface_strings("fr", data)
    assert count_text(french, "timeline_additions", 0) == "0 ajout"  # French counts 0 as one
    assert count_text(french, "timeline_additions", 1234) == "1\u202f234 additions"
    with pytest.raises(DataError, match=r"no interface strings for 'fr'"):
        interface_strings("fr")  # without the team's folder


def test_a_team_only_language_marks_its_untranslated_texts_in_its_own_words(data):
    """A language only the team's locales/ file speaks, with `untranslated: fallback`: a text not
    yet written in it shows the default language's, with the note from the team's file. The
    catalog took the note from the package's catalogues, which have no such language: a
    DataError, and nothing built."""
    path = data / "locales" / "fr.yaml"
    path.write_text(starter_text("fr").replace('"(not yet translated)"', '"(pas encore traduit)"'))
    project = data / "project.yaml"
    project.write_text(project.read_text(encoding="utf-8") + "languages: [en, zh, fr]\nuntranslated: fallback\n")
    catalog = catalog_of(data)
    title = next(iter(catalog.features.values())).title
    assert title["fr"] == title["en"]
    assert title["fr"].lang == "en" and title["fr"].note == "(pas encore traduit)"
    assert not hasattr(title["zh"], "note")  # written in Chinese: shown as it is


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        ('upgrade_from: "{old} to {neww}"\n', "upgrade_from", "{neww} is not a placeholder of this text"),
        ('upgrade_from: "{old"\n', "upgrade_from", "the braces do not pair up"),
        ("count_breaking:\n  few: x\n  other: y\n", "count_breaking.few", "not a plural form of 'zh'"),
        ("count_breaking:\n  one: x\n", "count_breaking", "needs its `other` form"),
        ("released: [a, b]\n", "released", "must be a text"),
        ("check: text\n", "check", "must be a mapping of keys"),
        ("released: &a x\nnav_releases: *a\n", "(document)", "YAML aliases"),
        ("- a\n- b\n", "(document)", "must be a mapping of keys to texts"),
        ("released: x\nreleased: y\n", "released", "the key appears twice"),
    ],
)
def test_a_wrong_team_text_is_an_error_saying_what_is_right(tmp_path, text, where, message):
    path = tmp_path / "zh.yaml"
    path.write_text(text)
    _, problems = read_team_file(path, "zh", complete=False)
    assert all(problem.file == str(path) for problem in problems)
    assert any(problem.where == where and message in problem.message for problem in problems), problems


def test_a_team_file_that_is_a_pipe_is_refused_not_waited_on(data):
    os.mkfifo(data / "locales" / "zh.yaml")
    code = "import sys; from helpers import problems_of; print(problems_of(sys.argv[1]))"
    tests = os.path.dirname(__file__)
    try:
        result = subprocess.run(
            [sys.executable, "-c", code, str(data)], capture_output=True, text=True, timeout=60, cwd=tests
        )
    except subprocess.TimeoutExpired:
        pytest.fail("reading a named pipe as interface strings waited for a writer")
    assert "zh.yaml:1:1: (document): cannot be read (it is a named pipe (FIFO), not a regular file)" in result.stdout


def test_a_file_name_that_is_no_language_is_an_error(data):
    (data / "locales" / "english.yaml").write_text('released: "x"\n')
    assert any("'english' (the file's name) is not a language code CLDR knows" in p for p in problems_of(data))


# --------------------------------------------------------------------------- releasekb locale


def test_locale_writes_a_starter_of_every_key_for_a_new_language(data, capsys):
    assert main(["--data", str(data), "locale", "de"]) == 0
    assert "translate every text marked TODO" in capsys.readouterr().out
    path = data / "locales" / "de.yaml"
    text = path.read_text(encoding="utf-8")
    table, problems = read_team_file(path, "de", complete=True)
    assert problems == []
    assert leaf_keys(table).keys() == leaf_keys(_catalogue("en")).keys()
    assert text.count("# TODO translate") == len(leaf_keys(_catalogue("en")))
    assert problems_of(data) == []
    assert interface_strings("de", data)["nav_releases"] == "Releases"  # English until translated


def test_locale_writes_every_key_commented_out_for_a_shipped_language(data, capsys):
    assert main(["--data", str(data), "locale", "ja"]) == 0
    text = (data / "locales" / "ja.yaml").read_text(encoding="utf-8")
    assert '# nav_changelog: "変更履歴"' in text
    assert '#     heading_deprecated: "非推奨"' in text
    assert interface_strings("ja", data) == interface_strings("ja")  # nothing changed until uncommented
    assert problems_of(data) == []
    (data / "locales" / "ja.yaml").write_text(text.replace('# nav_changelog: "変更履歴"', 'nav_changelog: "更新履歴"'))
    assert interface_strings("ja", data)["nav_changelog"] == "更新履歴"


def test_locale_refuses_an_existing_file_and_a_code_that_is_no_language(data, capsys):
    (data / "locales" / "zh.yaml").write_text('released: "发布于"\n')
    assert main(["--data", str(data), "locale", "zh"]) == 1
    assert "already exists; nothing was written" in capsys.readouterr().err
    assert (data / "locales" / "zh.yaml").read_text() == 'released: "发布于"\n'
    assert main(["--data", str(data), "locale", "klingon"]) == 2
    assert "'klingon' is not a language code CLDR knows" in capsys.readouterr().err
    assert not (data / "locales" / "klingon.yaml").exists()


def test_an_edited_team_file_renders_every_page_again_under_serve(data):
    """A language process (serve) keeps its pages between builds and renders only what a data edit
    changed; the data's fingerprint does not cover locales/, so an edited string renders all."""
    pages = LanguagePages()
    page = "releases/1.0.md"
    assert "Released" in pages.generate_once(read_files(data), "", "en").rendered[page].body
    pages.built()
    (data / "locales" / "en.yaml").write_text('released: "Out on"\n')
    assert "Out on" in pages.generate_once(read_files(data), "", "en").rendered[page].body
    assert pages.is_unbuilt(page)
