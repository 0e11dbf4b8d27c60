"""End to end: the real MkDocs and Material build the site from YAML, one build per language."""

import html
import json
import re
from pathlib import Path

import pytest
from mkdocs.config import load_config

from helpers import (
    FIXTURE_RELEASES,
    LANGUAGES,
    REAL_RELEASES,
    ROOT,
    build,
    copy_project,
    data_copy,
    page_html,
    run_releasekb,
    search_pages,
    search_settings,
)
from releasekb.common.cjk import has_han, is_all_han
from releasekb.kb.starter import STARTER_DIR
from releasekb.kb.urls import GENERATED_PATHS
from releasekb.site.build import language_configs, site_languages
from releasekb.site.language_config import configure_language
from releasekb.site.search import HAN_WORDS_FILE


def test_release_pages_exist_in_both_languages_with_lang_attribute(fixture_site):
    english = page_html(fixture_site, "releases/1.1")
    chinese = page_html(fixture_site, "zh/releases/1.1")
    assert '<html lang="en"' in english
    assert '<html lang="zh"' in chinese
    assert "Widgets become stable" in english
    assert "小部件转为稳定" in chinese


def test_language_switcher_leads_to_the_same_page(fixture_site):
    english = page_html(fixture_site, "releases/1.1")
    chinese = page_html(fixture_site, "zh/releases/1.1")
    assert re.search(r'<a href="\.\./\.\./zh/releases/1\.1/" hreflang="zh"', english)
    assert re.search(r'<a href="\.\./\.\./\.\./releases/1\.1/" hreflang="en"', chinese)
    # No hreflang <link> in the head: Material fetches sitemap.xml beside each one, and a page's
    # own address has none (its 404s on every view); the sitemaps carry the alternates instead.
    head = english.split("</head>", 1)[0]
    assert not re.search(r'<link rel="alternate"[^>]*hreflang', head)


def test_chinese_pages_use_material_chinese_interface_and_translated_navigation(fixture_site):
    chinese = page_html(fixture_site, "zh/features/widgets")
    assert 'placeholder="搜索"' in chinese
    nav = re.findall(r'class="md-tabs__link[^"]*"[^>]*>\s*([^<]+?)\s*<', chinese)
    assert "版本" in nav and "稳定性" in nav and "变更日志" in nav
    assert "Releases" not in nav


def test_feature_anchor_is_the_id_in_both_languages(fixture_site):
    for prefix in ("", "zh/"):
        assert 'id="widgets"' in page_html(fixture_site, f"{prefix}releases/1.0")


def test_every_feature_has_a_page_in_both_languages(fixture_site):
    for feature in ("widgets", "old-reader", "widget-colours", "default-colour", "crash-on-empty-file"):
        for prefix in ("", "zh/"):
            assert (fixture_site / prefix / "features" / feature / "index.html").is_file()


def test_each_language_has_its_own_search_index(fixture_site):
    english, chinese = search_pages(fixture_site, ""), search_pages(fixture_site, "zh")
    for prefix, lang in (("", "en"), ("zh", "zh")):
        entry = json.loads((fixture_site / prefix / "pagefind" / "pagefind-entry.json").read_text(encoding="utf-8"))
        assert set(entry["languages"]) == {lang}  # one language per index: a query loads only its own
        assert search_settings(fixture_site, prefix)["config"]["releasekb"]["lang"] == lang
        assert search_settings(fixture_site, prefix)["docs"] == []  # Material's box gets no pages
    assert "features/widgets/" in english
    assert not any(has_han(page["meta"]["title"]) for page in english.values())
    chinese_titles = " ".join(page["meta"]["title"] for page in chinese.values())
    assert "小部件" in chinese_titles and "Widgets become stable" not in chinese_titles
    # the same pages in each language, each once, none of the other language's
    assert set(chinese) == set(english)
    assert not any(url.startswith("zh/") for url in english)


def test_chinese_search_index_is_split_into_words(fixture_site):
    """Pagefind's extended binary splits Chinese into words (the content joins them with
    zero-width spaces); the worker splits queries with the same words."""
    content = " ".join(page["content"] for page in search_pages(fixture_site, "zh").values())
    words = {word for word in re.split(r"[\s\u200b]+", content) if is_all_han(word)}
    assert len(words) > 20 and max(len(word) for word in words) <= 8, sorted(words, key=len)[-5:]
    han_words = json.loads((fixture_site / "zh" / "pagefind" / HAN_WORDS_FILE).read_text(encoding="utf-8"))
    assert set(han_words) == {word for word in words if len(word) > 1}


def test_search_sections_follow_the_headings_and_keep_words_apart(fixture_site):
    """Generated pages reach MkDocs as HTML: the index must still know each section by its
    heading, and table cells and paragraphs must not run into each other."""
    pages = search_pages(fixture_site, "")
    release = pages["releases/1.0/"]
    headings = {anchor["id"]: anchor["text"] for anchor in release["anchors"]}
    assert headings["widgets"] == "Widgets arrive"  # the entry's heading, without its ¶ link
    assert release["meta"]["title"] == "Acme 1.0"
    assert "Version Date Title Entries" in pages[""]["content"]  # the home page's table, cells apart


def test_search_filters_come_from_the_catalog(fixture_site, fixture_catalog):
    for prefix, lang in (("", "en"), ("zh", "zh")):
        pages = search_pages(fixture_site, prefix)
        widgets = fixture_catalog.features["widgets"]
        filters = pages["features/widgets/"]["filters"]
        assert set(filters["level"]) == {widgets.level.key, widgets.level.name[lang]}
        assert set(filters["area"]) == {widgets.area.key, widgets.area.name[lang]}
        assert set(filters["release"]) == {release.version for release in widgets.releases}
        assert pages["releases/1.0/"]["filters"] == {"release": ["1.0"]}


def test_page_titles_keep_markdown_characters_as_text(tmp_path):
    """MkDocs names a generated page from its title: characters that mean something in Markdown
    (underscores, asterisks, brackets) stay what they are."""
    project = copy_project(tmp_path / "p", FIXTURE_RELEASES)
    release = project / "releases" / "1.0.yaml"
    text = release.read_text(encoding="utf-8")
    title = "`__init__` takes *args and [options]"
    release.write_text(text.replace("name: {en: Widgets,", f'name: {{en: "{title}",', 1), encoding="utf-8")
    page = (build(project) / "features" / "widgets" / "index.html").read_text(encoding="utf-8")
    assert "<title>__init__ takes *args and [options] - " in page  # not "init takes args..." with emphasis
    heading = re.search(r'<h1 id="_title">(.*?)<a class="headerlink"', page)[1]
    assert html.unescape(heading) == "<code>__init__</code> takes *args and [options]"


def test_feature_pages_stay_out_of_the_navigation(fixture_site):
    home = page_html(fixture_site, "")
    assert "features/widgets/" not in re.sub(r'<div class="md-content".*', "", home, flags=re.S)


def test_invalid_data_stops_the_build_and_keeps_the_previous_site(tmp_path):
    project = copy_project(tmp_path / "p", FIXTURE_RELEASES)
    assert run_releasekb(project, "build").returncode == 0
    before = {p: p.read_bytes() for p in (project / "site").rglob("*.html")}
    release = project / "releases" / "1.1.yaml"
    release.write_text(
        release.read_text(encoding="utf-8").replace("stability: stable", "stability: stabel"), encoding="utf-8"
    )
    result = run_releasekb(project, "build")
    assert result.returncode == 1
    assert (
        "releases/1.1.yaml:13:16: features[0].stability: 'stabel' is not one of stable, experimental" in result.stderr
    )
    assert "Traceback" not in result.stderr
    after = {p: p.read_bytes() for p in (project / "site").rglob("*.html")}
    assert after == before


def test_mkdocs_build_itself_reports_data_problems_without_traceback(tmp_path):
    import subprocess
    import sys

    project = copy_project(tmp_path / "p", FIXTURE_RELEASES)
    release = project / "releases" / "1.0.yaml"
    release.write_text(release.read_text(encoding="utf-8").replace("area: core", "area: cor", 1), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict"], cwd=project, capture_output=True, text=True
    )
    assert result.returncode == 1
    assert "releases/1.0.yaml:13:11: features[0].area: 'cor' is not one of core, io" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (project / "site").exists()


def test_removed_data_removes_its_pages_and_the_export_its_markdown(tmp_path):
    project = copy_project(tmp_path / "p", FIXTURE_RELEASES)
    exported = project / "docs" / "en" / "releases" / "2.0.md"
    result = run_releasekb(project, "export")
    assert result.returncode == 0, result.stderr
    assert exported.is_file()
    assert run_releasekb(project, "build").returncode == 0
    (project / "releases" / "2.0.yaml").unlink()
    assert run_releasekb(project, "build").returncode == 0
    assert not (project / "site" / "releases" / "2.0").exists()  # the export's file is not a page of the site
    assert (project / "site" / "releases" / "1.1" / "index.html").is_file()
    assert exported.is_file()  # a build writes nothing into docs/
    assert run_releasekb(project, "export").returncode == 0
    assert not exported.exists()
    again = run_releasekb(project, "export")  # nothing changed: no file written
    assert again.stdout.splitlines() == ["en: 0 files written or removed", "zh: 0 files written or removed"]


def test_gitignore_lists_exactly_the_generated_paths():
    ignored = {line.strip() for line in (ROOT / ".gitignore").read_text().splitlines()}
    expected = {
        f"/docs/{lang}/{path}" if path.endswith(".md") else f"/docs/{lang}/{path}/"
        for lang in LANGUAGES
        for path in GENERATED_PATHS
    }
    assert {line for line in ignored if line.startswith("/docs/")} == expected


def test_the_starters_gitignore_lists_exactly_the_generated_paths():
    """`releasekb init`'s .gitignore: every language's generated pages (docs/*/...), nothing else of docs/."""
    ignored = {line.strip() for line in (STARTER_DIR / "dot-gitignore").read_text().splitlines()}
    expected = {f"/docs/*/{path}" if path.endswith(".md") else f"/docs/*/{path}/" for path in GENERATED_PATHS}
    assert {line for line in ignored if line.startswith("/docs/")} == expected


def test_mkdocs_languages_match_the_data_model():
    assert site_languages(ROOT / "mkdocs.yml") == LANGUAGES
    configs = language_configs(ROOT / "mkdocs.yml", LANGUAGES)
    assert tuple(configs) == LANGUAGES
    for lang, path in configs.items():
        config = load_config(str(path))
        configure_language(config, lang)
        assert config.theme["language"] == lang
        assert Path(config.docs_dir) == ROOT / "docs" / lang


def test_sitemap_lists_each_page_with_its_alternates(tmp_path, monkeypatch):
    project = copy_project(tmp_path / "p", FIXTURE_RELEASES)
    monkeypatch.setenv("RELEASEKB_SITE_URL", "https://kb.example.org/docs/")  # read by mkdocs.yml
    site = build(project)
    chinese = (site / "zh" / "sitemap.xml").read_text(encoding="utf-8")
    assert "<loc>https://kb.example.org/docs/zh/releases/1.1/</loc>" in chinese
    assert 'hreflang="en" href="https://kb.example.org/docs/releases/1.1/"' in chinese
    english = (site / "sitemap.xml").read_text(encoding="utf-8")
    assert "<loc>https://kb.example.org/docs/releases/1.1/</loc>" in english
    assert 'hreflang="zh" href="https://kb.example.org/docs/zh/releases/1.1/"' in english
    assert 'rel="canonical" href="https://kb.example.org/docs/zh/releases/1.1/"' in page_html(site, "zh/releases/1.1")


@pytest.mark.parametrize("data", [REAL_RELEASES, FIXTURE_RELEASES], ids=["real", "fixture"])
def test_committed_schemas_are_up_to_date(tmp_path, data):
    """The JSON Schemas beside each data folder, which editors check with, are what the model
    gives (after a change to model.py: `releasekb --data DATA schema` regenerates them)."""
    result = run_releasekb(ROOT, "--data", str(data_copy(data, tmp_path)), "schema", "--check")
    assert result.returncode == 0, result.stderr


def test_build_shows_progress_on_a_terminal_and_stays_quiet_otherwise(tmp_path):
    import os
    import pty
    import subprocess
    import sys
    import threading

    project = copy_project(tmp_path / "p", FIXTURE_RELEASES)
    terminal, child_end = pty.openpty()
    chunks: list[bytes] = []

    def read_terminal():
        while True:
            try:
                chunk = os.read(terminal, 4096)
            except OSError:  # EIO: the build exited and closed its end
                return
            if not chunk:
                return
            chunks.append(chunk)

    reader = threading.Thread(target=read_terminal)
    reader.start()
    process = subprocess.Popen(
        [sys.executable, "-m", "releasekb.cli", "build"],
        cwd=project,
        stdout=subprocess.DEVNULL,
        stderr=child_end,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    os.close(child_end)
    assert process.wait(timeout=120) == 0
    reader.join(timeout=30)
    os.close(terminal)
    shown = b"".join(chunks).decode("utf-8", "replace")
    # the last redraw: every page of both languages done, and the time taken
    assert re.search(r"building: en (\d+)/\1, zh (\d+)/\2 pages, \d+\.\d s", shown), shown

    quiet = run_releasekb(project, "build")  # output to a pipe, as in CI
    assert quiet.returncode == 0
    assert "building:" not in quiet.stderr + quiet.stdout
