"""Languages are data (issue 35): a knowledge base names its languages in project.yaml, in order,
and every text, the validator, the schemas, the site (one build per language, from one
mkdocs.yml), the switcher, query and the translation tracking follow them.

Knowledge bases are made as a team makes them, with `releasekb init --languages ...`, and built
once per module (a build takes seconds)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from helpers import build, line_of, run_releasekb
from releasekb.common.i18n import has_interface_strings
from releasekb.kb.starter import starter_languages

# Japanese needs its interface strings (common/locales/ja.yaml): tested once they are there.
JAPANESE = pytest.mark.skipif(not has_interface_strings("ja"), reason="no interface strings for ja yet")
SETS = [
    pytest.param(("en",), id="en"),
    pytest.param(("zh",), id="zh"),
    pytest.param(("en", "zh"), id="en-zh"),
    pytest.param(("en", "ja", "zh"), id="en-ja-zh", marks=JAPANESE),
]
SITE_NAMES = {"en": "Acme MQ release notes", "zh": "Acme MQ 版本说明", "ja": "Acme MQ リリースノート"}


def init(folder: Path, languages: tuple[str, ...]) -> Path:
    folder.parent.mkdir(parents=True, exist_ok=True)
    result = run_releasekb(
        folder.parent, "init", folder.name, "--product", "Acme MQ", "--languages", ",".join(languages)
    )
    assert result.returncode == 0, result.stderr
    return folder


@pytest.fixture(scope="module", params=SETS)
def built(request, tmp_path_factory) -> tuple[tuple[str, ...], Path]:
    """(languages, the built site) of a knowledge base `init` made in those languages."""
    languages = request.param
    project = init(tmp_path_factory.mktemp("kb") / "acme", languages)
    return languages, build(project)


def column_of(path: Path, text: str) -> int:
    """The column where `text` starts on its line of the file (the key a problem names)."""
    return next(line.index(text) + 1 for line in path.read_text(encoding="utf-8").splitlines() if text in line)


def prefix(lang: str, languages: tuple[str, ...]) -> str:
    return "" if lang == languages[0] else f"{lang}/"


def test_init_writes_the_languages_and_nothing_of_the_others(tmp_path):
    project = init(tmp_path / "kb", ("zh",))
    assert yaml.safe_load((project / "releases" / "project.yaml").read_text(encoding="utf-8"))["languages"] == ["zh"]
    assert sorted(path.name for path in (project / "docs").iterdir()) == ["zh"]
    assert not (project / "mkdocs.zh.yml").exists()  # one configuration for every language
    release = yaml.safe_load((project / "releases" / "1.0.yaml").read_text(encoding="utf-8"))
    assert set(release["title"]) == {"zh"}
    assert release["sources"][0]["lang"] == "zh"
    assert run_releasekb(project, "validate").returncode == 0


def test_init_without_languages_starts_an_english_knowledge_base(tmp_path):
    result = run_releasekb(tmp_path, "init", "kb", "--product", "Acme MQ")
    assert result.returncode == 0, result.stderr
    project = yaml.safe_load((tmp_path / "kb" / "releases" / "project.yaml").read_text(encoding="utf-8"))
    assert project["languages"] == ["en"]
    assert set(project["product"]["name"]) == {"en"}


@pytest.mark.parametrize("languages", ["en,xx", "en,en", ","])
def test_init_refuses_a_language_it_cannot_start(tmp_path, languages):
    result = run_releasekb(tmp_path, "init", "kb", "--product", "A", "--languages", languages)
    assert result.returncode == 2
    assert result.stderr.startswith("releasekb init: --languages")
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "kb").exists()


def test_init_offers_every_language_it_has_texts_and_interface_strings_for():
    assert {"en", "zh"} <= set(starter_languages())
    assert ("ja" in starter_languages()) == has_interface_strings("ja")


def test_the_site_has_pages_in_exactly_its_languages(built):
    languages, site = built
    for lang in languages:
        home = site / prefix(lang, languages) / "index.html"
        assert home.is_file(), home
        html = home.read_text(encoding="utf-8")
        assert re.search(rf'<html lang="{lang}"', html), lang
        assert f"<title>{SITE_NAMES[lang]}</title>" in html
        release = (site / prefix(lang, languages) / "releases" / "1.0" / "index.html").read_text(encoding="utf-8")
        assert "Acme MQ 1.0" in release
    others = {"en", "zh", "ja"} - set(languages)
    for lang in others:
        assert not (site / lang).exists(), f"a {lang} site in a knowledge base of {languages}"
    # the default language at the root, each other one under /<code>/, nothing else at the top
    folders = {path.name for path in site.iterdir() if path.is_dir() and len(path.name) == 2}
    assert folders == set(languages[1:])


def test_the_switcher_lists_exactly_the_languages_and_is_absent_on_one(built):
    languages, site = built
    for lang in languages:
        html = (site / prefix(lang, languages) / "releases" / "1.0" / "index.html").read_text(encoding="utf-8")
        switcher = re.findall(r'<a href="([^"]*)" hreflang="([^"]*)" class="md-select__link"', html)
        if len(languages) == 1:
            assert switcher == []
            continue
        assert [hreflang for _, hreflang in switcher] == list(languages)
        # each entry leads to the same page in its language
        here = Path(prefix(lang, languages) + "releases/1.0/")
        for href, other in switcher:
            target = (site / here / href).resolve()
            assert target == (site / prefix(other, languages) / "releases" / "1.0").resolve(), (lang, other, href)


def test_no_page_names_languages_the_site_does_not_have(built):
    languages, site = built
    text = "\n".join(path.read_text(encoding="utf-8") for path in site.rglob("index.html"))
    if "zh" not in languages:
        assert "Chinese" not in text and "中文" not in text
        assert '"/zh/' not in text and 'hreflang="zh"' not in text
    if "en" not in languages:
        assert 'hreflang="en"' not in text


def test_the_feeds_sitemap_and_api_follow_the_languages(built):
    languages, site = built
    for lang in languages:
        assert (site / prefix(lang, languages) / "feed.xml").is_file()
    api = json.loads((site / "api" / "features.json").read_text(encoding="utf-8"))
    feature = api["features"][0]
    assert list(feature["title"]) == list(languages)
    assert list(feature["urls"]) == list(languages)
    assert feature["urls"][languages[0]] == "/features/" + feature["id"] + "/"


def test_a_missing_or_extra_language_text_is_an_error_at_its_line(tmp_path):
    project = init(tmp_path / "kb", ("en", "zh"))
    release = project / "releases" / "1.0.yaml"
    text = release.read_text(encoding="utf-8")
    text = text.replace("name: {en: Connections, zh: 连接}", "name: {en: Connections}")
    text = text.replace("name: {en: Batch import, zh: 批量导入}", "name: {en: Batch import, zh: 批量导入, fr: Import}")
    release.write_text(text, encoding="utf-8")
    result = run_releasekb(project, "validate")
    assert result.returncode == 1
    errors = [line for line in result.stderr.splitlines() if line.startswith("releases/1.0.yaml")]
    assert errors == [
        f"releases/1.0.yaml:{line_of(release, 'name: {en: Connections}')}:11: features[0].name.zh: "
        "missing the 'zh' text (this knowledge base's languages: en, zh)",
        f"releases/1.0.yaml:{line_of(release, 'fr: Import')}:{column_of(release, 'fr: Import')}: features[1].name.fr: "
        "'fr' is not a language of this knowledge base (en, zh): remove it, or add it to `languages` in project.yaml",
    ]


def test_an_english_only_knowledge_base_needs_no_chinese_and_a_chinese_one_no_english(tmp_path):
    english = init(tmp_path / "en" / "kb", ("en",))
    release = english / "releases" / "1.0.yaml"
    # a Han character in an English text is no error where no language is written in Han
    release.write_text(release.read_text(encoding="utf-8").replace("Example: connections", "Example: 连接"), "utf-8")
    assert run_releasekb(english, "validate").returncode == 0
    chinese = init(tmp_path / "zh" / "kb", ("zh",))
    assert run_releasekb(chinese, "validate").returncode == 0


def test_a_text_in_chinese_or_japanese_must_hold_han_or_kana(tmp_path):
    project = init(tmp_path / "kb", ("en", "zh"))
    release = project / "releases" / "1.0.yaml"
    release.write_text(release.read_text(encoding="utf-8").replace("zh: 连接}", "zh: Connections}"), "utf-8")
    result = run_releasekb(project, "validate")
    assert result.returncode == 1
    assert "features[0].name.zh: the Chinese text contains no Chinese" in result.stderr


def test_the_glossary_maps_a_term_to_each_language(tmp_path):
    project = init(tmp_path / "kb", ("en", "zh"))
    settings = project / "releases" / "project.yaml"
    settings.write_text(
        settings.read_text(encoding="utf-8").replace(
            "glossary: []", "glossary:\n  - {en: pool, zh: 池, avoid: [水池]}"
        ),
        "utf-8",
    )
    release = project / "releases" / "1.0.yaml"
    release.write_text(release.read_text(encoding="utf-8").replace("从连接池中", "从连接水池中"), "utf-8")
    result = run_releasekb(project, "validate")
    assert result.returncode == 1
    assert "features[0].summary.zh: '水池' is a wrong rendering of 'pool'; write '池'" in result.stderr
    # a glossary term needs each language of the knowledge base
    settings.write_text(settings.read_text(encoding="utf-8").replace("{en: pool, zh: 池,", "{en: pool,"), "utf-8")
    result = run_releasekb(project, "validate")
    assert "glossary[0].zh: missing the 'zh' text" in result.stderr


def test_languages_must_have_interface_strings(tmp_path):
    project = init(tmp_path / "kb", ("en",))
    settings = project / "releases" / "project.yaml"
    settings.write_text(settings.read_text(encoding="utf-8").replace("languages: [en]", "languages: [en, xx]"), "utf-8")
    result = run_releasekb(project, "validate")
    assert result.returncode == 1
    assert f"releases/project.yaml:{line_of(settings, 'languages: [en, xx]')}" in result.stderr
    assert "'xx' is not a language the site has interface strings for" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_schemas_describe_the_languages(tmp_path):
    project = init(tmp_path / "kb", ("zh",))
    schema = json.loads((project / "releases" / "release.schema.json").read_text(encoding="utf-8"))
    text = schema["$defs"]["Text"]
    assert list(text["properties"]) == ["zh"]
    assert text["required"] == ["zh"]
    assert text["additionalProperties"] is False


def test_query_and_check_take_only_the_knowledge_bases_languages(tmp_path):
    project = init(tmp_path / "kb", ("zh",))
    result = run_releasekb(project, "query", "--lang", "en")
    assert result.returncode == 2
    assert "--lang en: not a language of the knowledge base (one of: zh)" in result.stderr
    result = run_releasekb(project, "query")
    assert result.returncode == 0
    assert "核心功能" in result.stdout and "连接" in result.stdout  # the knowledge base's first language
    (project / "app.py").write_text("import acme_mq\nacme_mq.connect()\n", encoding="utf-8")
    result = run_releasekb(project, "check", "app.py", "--lang", "en")
    assert result.returncode == 2
    assert "--lang en: not a language of the knowledge base (one of: zh)" in result.stderr
    # the starter's change is in its one release: in effect at --from, listed when asked (issue 37)
    result = run_releasekb(project, "check", "app.py", "--fail-on", "none", "--show-in-effect")
    assert result.returncode == 0, result.stderr
    assert "示例" in result.stdout  # the report in the knowledge base's language, with its texts


def test_untranslated_fallback_shows_the_default_text_marked_and_lists_it(tmp_path):
    project = init(tmp_path / "kb", ("en", "zh"))
    settings = project / "releases" / "project.yaml"
    settings.write_text(
        settings.read_text(encoding="utf-8").replace("untranslated: error", "untranslated: fallback"), "utf-8"
    )
    release = project / "releases" / "1.0.yaml"
    release.write_text(
        release.read_text(encoding="utf-8").replace(
            'title: {en: "Example: connections are pooled", zh: 示例：连接自动复用}',
            'title: {en: "Example: connections are pooled"}',
        ),
        "utf-8",
    )
    assert run_releasekb(project, "validate").returncode == 0
    listed = run_releasekb(project, "translations")
    assert listed.returncode == 0
    assert f"releases/1.0.yaml:{line_of(release, 'connections are pooled')}" in listed.stdout
    assert "not yet translated into 'zh'" in listed.stdout
    assert "1 not yet translated" in listed.stdout
    site = build(project)
    html = (site / "zh" / "releases" / "1.0" / "index.html").read_text(encoding="utf-8")
    assert '<span lang="en" class="rkb-untranslated">Example: connections are pooled</span>' in html
    assert "（尚未翻译）" in html
    # the default language's own page shows its text as it is
    english = (site / "releases" / "1.0" / "index.html").read_text(encoding="utf-8")
    assert "rkb-untranslated" not in english
    # without fallback, the same file is an error
    settings.write_text(settings.read_text(encoding="utf-8").replace("untranslated: fallback", ""), "utf-8")
    assert run_releasekb(project, "validate").returncode == 1


def test_a_languages_own_configuration_from_before_is_still_used(tmp_path):
    """A site made before one mkdocs.yml served every language has mkdocs.zh.yml (INHERIT: mkdocs.yml):
    the Chinese build still reads it."""
    project = init(tmp_path / "kb", ("en", "zh"))
    (project / "mkdocs.zh.yml").write_text(
        "INHERIT: mkdocs.yml\ndocs_dir: docs/zh\ntheme:\n  language: zh\n"
        "  palette:\n    - scheme: default\n      toggle: {icon: material/weather-night, name: 自己的名字}\n",
        encoding="utf-8",
    )
    site = build(project)
    assert "自己的名字" in (site / "zh" / "index.html").read_text(encoding="utf-8")
    assert "自己的名字" not in (site / "index.html").read_text(encoding="utf-8")


def test_each_language_built_from_one_mkdocs_yml_gets_its_own_settings(built):
    languages, site = built
    for lang in languages[1:]:
        html = (site / lang / "index.html").read_text(encoding="utf-8")
        if lang == "zh":
            assert "切换到深色模式" in html  # the palette toggle's name, from the interface strings
        assert "Switch to dark mode" not in html
