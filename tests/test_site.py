"""End to end: the real MkDocs, Material and i18n plugin build the site from YAML."""

import json
import re
import shutil
from pathlib import Path

import yaml

from conftest import FIXTURES, ROOT, copy_project, run_releasekb
from releasekb.i18n import LANGUAGES
from releasekb.site import GENERATED_PATHS


def html(site: Path, path: str) -> str:
    return (site / path / "index.html").read_text(encoding="utf-8")


def test_release_pages_exist_in_both_languages_with_lang_attribute(fixture_site):
    english = html(fixture_site, "releases/1.1")
    chinese = html(fixture_site, "zh/releases/1.1")
    assert '<html lang="en"' in english
    assert '<html lang="zh"' in chinese
    assert "Widgets become stable" in english
    assert "小部件转为稳定" in chinese


def test_language_switcher_leads_to_the_same_page(fixture_site):
    english = html(fixture_site, "releases/1.1")
    chinese = html(fixture_site, "zh/releases/1.1")
    assert re.search(r'<a href="\.\./\.\./zh/releases/1\.1/" hreflang="zh"', english)
    assert re.search(r'<a href="\.\./\.\./\.\./releases/1\.1/" hreflang="en"', chinese)


def test_chinese_pages_use_material_chinese_interface_and_translated_navigation(fixture_site):
    chinese = html(fixture_site, "zh/features/widgets")
    assert 'placeholder="搜索"' in chinese
    nav = re.findall(r'class="md-tabs__link[^"]*"[^>]*>\s*([^<]+?)\s*<', chinese)
    assert "版本" in nav and "稳定性" in nav and "变更日志" in nav
    assert "Releases" not in nav


def test_feature_anchor_is_the_id_in_both_languages(fixture_site):
    for prefix in ("", "zh/"):
        assert 'id="widgets"' in html(fixture_site, f"{prefix}releases/1.0")


def test_every_feature_has_a_page_in_both_languages(fixture_site):
    for feature in ("widgets", "old-reader", "widget-colours", "default-colour", "crash-on-empty-file"):
        for prefix in ("", "zh/"):
            assert (fixture_site / prefix / "features" / feature / "index.html").is_file()


def test_chinese_search_index_has_jieba_tokens(fixture_site):
    index = json.loads((fixture_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    separator = re.compile(index["config"]["separator"])
    tokens = {
        token
        for doc in index["docs"]
        if doc["location"].startswith("zh/")
        for token in separator.split(doc["text"] + " " + doc["title"])
    }
    assert "小部件" in tokens  # a glossary term, segmented as one word
    assert separator.split("分布式\u200b训练") == ["分布式", "训练"]  # jieba's word boundary splits


def test_feature_pages_stay_out_of_the_navigation(fixture_site):
    home = html(fixture_site, "")
    assert "features/widgets/" not in re.sub(r'<div class="md-content".*', "", home, flags=re.S)


def test_invalid_data_stops_the_build_and_keeps_the_previous_site(tmp_path):
    project = copy_project(tmp_path / "p", FIXTURES / "releases")
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

    project = copy_project(tmp_path / "p", FIXTURES / "releases")
    release = project / "releases" / "1.0.yaml"
    release.write_text(release.read_text(encoding="utf-8").replace("area: core", "area: cor", 1), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict"], cwd=project, capture_output=True, text=True
    )
    assert result.returncode == 1
    assert "releases/1.0.yaml:13:11: features[0].area: 'cor' is not one of core, io" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (project / "site").exists()


def test_removed_data_removes_its_generated_pages(tmp_path):
    project = copy_project(tmp_path / "p", FIXTURES / "releases")
    assert run_releasekb(project, "build").returncode == 0
    (project / "releases" / "2.0.yaml").unlink()
    assert run_releasekb(project, "build").returncode == 0
    assert not (project / "docs" / "en" / "releases" / "2.0.md").exists()
    assert not (project / "site" / "releases" / "2.0").exists()
    assert (project / "site" / "releases" / "1.1" / "index.html").is_file()


def test_gitignore_lists_exactly_the_generated_paths():
    ignored = {line.strip() for line in (ROOT / ".gitignore").read_text().splitlines()}
    for lang in LANGUAGES:
        for path in GENERATED_PATHS:
            suffix = "" if path.endswith(".md") else "/"
            assert f"/docs/{lang}/{path}{suffix}" in ignored


def test_mkdocs_languages_match_the_data_model():
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)
    i18n = next(p["i18n"] for p in config["plugins"] if isinstance(p, dict) and "i18n" in p)
    assert tuple(lang["locale"] for lang in i18n["languages"]) == LANGUAGES


def test_committed_schemas_are_up_to_date(tmp_path):
    for data in (ROOT / "releases", FIXTURES / "releases"):
        copy = tmp_path / data.parent.name
        shutil.copytree(data, copy)
        assert run_releasekb(ROOT, "--data", str(copy), "schema", "--check").returncode == 0


def test_new_release_skeleton_is_valid_in_shape(tmp_path):
    data = tmp_path / "releases"
    shutil.copytree(FIXTURES / "releases", data)
    assert run_releasekb(ROOT, "--data", str(data), "new", "2.1").returncode == 0
    result = run_releasekb(ROOT, "--data", str(data), "validate")
    # The skeleton's TODO texts are valid; only what a curator must still decide is reported.
    assert result.returncode == 0, result.stderr
