"""The engine adapter (site/plugin.py): MkDocs' view of the knowledge base, kept thin. The plugin
reads typed options, and its two modes, the whole site and a section of a team's site, are two
classes over one base, chosen by the `path` option under the one entry point `releasekb`."""

from __future__ import annotations

import collections
import inspect
import json
import re
import shutil
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from mkdocs.config import load_config
from mkdocs.structure.files import File, get_files
from mkdocs.structure.nav import get_navigation
from mkdocs.structure.pages import Page

from helpers import FIXTURE_RELEASES, FIXTURES, copy_project, run_releasekb, search_pages, search_settings
from releasekb.common.markup import text_of
from releasekb.site import (
    build,
    generate,
    mkdocs_pages,
    pagefind_files,
    plugin,
    plugin_config,
    plugin_modes,
    search,
    shared_partials,
)
from releasekb.site.session import Session


@pytest.fixture(scope="module")
def team_project(tmp_path_factory) -> Path:
    """A team's one-language Material site with the knowledge base as its section release-notes/."""
    project = tmp_path_factory.mktemp("engine") / "handbook"
    shutil.copytree(FIXTURES / "material-site", project)
    shutil.copytree(FIXTURE_RELEASES, project / "releases")
    return project


def configured(project: Path, **options):
    """The project's configuration, with the plugin's options replaced by `options`, after every
    plugin's on_config: (the configuration, the plugin)."""
    config = load_config(str(project / "mkdocs.yml"))
    releasekb = plugin_config.plugin_of(config)
    if options:
        errors, warnings = releasekb.load_config(options, config.config_file_path)
        assert (errors, warnings) == ([], [])
    return config.plugins.on_config(config), releasekb


def test_the_entry_point_is_the_plugin_with_typed_options():
    (entry,) = [entry for entry in entry_points(group="mkdocs.plugins") if entry.name == "releasekb"]
    assert entry.load() is plugin.ReleaseKBPlugin
    releasekb = plugin.ReleaseKBPlugin()
    assert releasekb.load_config({"data": "notes/data", "path": "release-notes"}) == ([], [])
    assert isinstance(releasekb.config, plugin.ReleaseKBConfig)
    assert (releasekb.config.data_, releasekb.config.path) == ("notes/data", "release-notes")
    assert releasekb.config["data"] == "notes/data"  # the option's name in mkdocs.yml
    defaults = plugin.ReleaseKBPlugin()
    defaults.load_config({})
    assert (defaults.config.data_, defaults.config.path) == ("releases", "")
    errors, _ = plugin.ReleaseKBPlugin().load_config({"data": 7})
    assert [key for key, _ in errors] == ["data"]
    errors, _ = plugin.ReleaseKBPlugin().load_config({"path": "../elsewhere"})
    assert [key for key, _ in errors] == ["path"]
    _, warnings = plugin.ReleaseKBPlugin().load_config({"pathh": "release-notes"})
    assert [key for key, _ in warnings] == ["pathh"]  # an unknown option (an error under strict)


def test_the_path_option_chooses_the_section_mode_and_a_rebuild_keeps_it(team_project):
    config, releasekb = configured(team_project)
    section = releasekb.mode
    assert type(section) is plugin_modes.Section and section.section == "release-notes"
    assert "release-notes/index.md" in section.html_pages and section.lang == "en"
    # The section's pages are the plugin's: the site's theme and settings stay its own.
    assert str(plugin_modes.THEME_DIR) not in config.theme.dirs and "releasekb_search" not in config.extra
    # `mkdocs serve` keeps the plugin between builds, and the mode with its pages while `path` is the same.
    config.plugins.on_config(config)
    assert releasekb.mode is section
    # A new `path` is a new section.
    releasekb.load_config({"data": "releases", "path": "notes"}, config.config_file_path)
    config.plugins.on_config(config)
    assert type(releasekb.mode) is plugin_modes.Section and releasekb.mode is not section
    assert releasekb.mode.section == "notes" and "notes/index.md" in releasekb.mode.html_pages


def test_without_a_path_the_plugin_is_in_the_whole_site_mode(team_project, tmp_path):
    project = tmp_path / "site-project"
    shutil.copytree(team_project, project, ignore=shutil.ignore_patterns("site"))
    config, releasekb = configured(project, data="releases")
    assert type(releasekb.mode) is plugin_modes.WholeSite and releasekb.mode.section == ""
    # The whole site's settings: the package's theme overrides and the search box's.
    assert str(plugin_modes.THEME_DIR) in config.theme.dirs and "releasekb_search" in config.extra
    assert "releases/index.md" in releasekb.mode.html_pages
    # in memory: nothing written into the docs (`releasekb export` writes them, for another engine)
    assert not (Path(config.docs_dir).parent / "en" / "releases").exists()


def test_a_generated_page_is_a_page_of_its_own_class_and_no_mkdocs_object_is_patched(team_project):
    """MkDocs gets the generated pages as GeneratedPage (a Page subclass, as Material's blog gives
    its views): their content, title, table of contents and anchors come from their own
    read_source and render, with no method replaced on an instance and no private attribute written."""
    config, releasekb = configured(team_project)
    files = config.plugins.on_files(get_files(config), config=config)
    nav = config.plugins.on_nav(get_navigation(files, config), config=config, files=files)
    release = files.get_file_from_path("release-notes/releases/1.1.md").page
    assert type(release) is mkdocs_pages.GeneratedPage
    generated = [files.get_file_from_path(uri).page for uri in releasekb.mode.html_pages]
    assert all(type(page) is mkdocs_pages.GeneratedPage for page in generated)
    assert type(files.get_file_from_path("guide.md").page) is Page  # the site's own pages stay MkDocs'
    # The site's `nav` names the section's index "Release notes": its title stays the site's.
    index = files.get_file_from_path("release-notes/index.md").page
    assert index in nav.pages and index.title == "Release notes"

    # The page is the renderer's object (rendered_page.py), made once: its file is never read back.
    assert release.made is releasekb.mode.rendered["release-notes/releases/1.1.md"]
    release.file.content_string = "# Not what the renderer made"
    release.read_source(config)
    release.render(config, files)
    assert release.content == release.made.html and "Not what" not in release.content
    assert "render" not in vars(release) and release._title_from_render is None
    heading = re.search(r"<h1 id=\"[^\"]*\">(.*?)<a class=\"headerlink\"", release.content)[1]
    assert "Acme 1.1" in heading and release.title == mkdocs_pages.markdown_title(text_of(heading))
    assert "title" not in release.meta and release.meta["description"]  # the description, as escaped HTML
    sections = [(item.id, item.level) for item in release.toc.items[0].children]
    assert sections and all(level == 2 for _, level in sections)
    assert {ident for ident, _ in sections} <= release.present_anchor_ids
    for ident, _ in sections:
        assert f'<h2 id="{ident}">' in release.content  # as Markdown's toc extension writes it
    assert "{#" not in release.content  # no Markdown heading left


def pagefind_bundle(folder: Path, documents: list) -> dict[str, bytes]:
    """{file: bytes} of the bundle Pagefind makes of the documents, as a build indexes them."""
    search.Indexer().index(documents, "en", folder)
    return {
        path.relative_to(folder).as_posix(): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()
    }


def test_pagefind_filter_files_are_rewritten_sorted_by_one_small_adapter(tmp_path):
    """The one rewrite of Pagefind's output that stays (pagefind_files.py says why): its filter
    values in a stable order, so that two builds of the same pages give the same files."""
    documents = [
        search.SearchDocument(
            f"features/f{number}/",
            f"Feature {number}",
            f"<h1>Feature {number}</h1><p>distributed training, part {number}</p>",
            (("release", f"1.{number}"), ("area", f"area-{number % 7}")),
        )
        for number in range(40)
    ]
    first = pagefind_bundle(tmp_path / "first", documents)
    assert pagefind_bundle(tmp_path / "second", documents[::-1]) == first  # reproducible

    bundle = tmp_path / "first"
    (language,) = json.loads(first["pagefind-entry.json"])["languages"].values()
    meta = pagefind_files.read_pagefind_file(bundle / f"pagefind.{language['hash']}.pf_meta")
    filters = meta[3]  # [[name, the filter file's name], ...]
    assert [name for name, _ in filters] == ["area", "release"]
    for name, chunk in filters:
        filter_name, values = pagefind_files.read_pagefind_file(bundle / "filter" / f"{chunk}.pf_filter")
        assert filter_name == name and len(values) == (7 if name == "area" else 40)
        assert values == sorted(values)
    # Every file the entry and the meta file name is there, and nothing else was left behind.
    assert {file for file in first if file.endswith((".pf_filter", ".pf_meta"))} == {
        f"pagefind.{language['hash']}.pf_meta",
        *(f"filter/{chunk}.pf_filter" for _, chunk in filters),
    }


def test_a_language_build_reads_its_configuration_once_and_generates_its_pages_once(tmp_path, monkeypatch):
    """One build of one language as a worker of `releasekb build` runs it (build.py), in this
    process: the builder asks for its folders (_sources), then the build runs. The configuration
    is read once, the pages are generated once, and the plugin is given them: it reads no data
    file and generates nothing itself."""
    import mkdocs.config

    project = copy_project(tmp_path / "project", FIXTURE_RELEASES)
    config_file = str(project / "mkdocs.yml")
    calls = collections.Counter()

    def counted(module, name):
        original = getattr(module, name)

        def spy(*args, **kwargs):
            calls[name] += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(module, name, spy)

    counted(mkdocs.config, "load_config")
    counted(generate, "generate_language")
    counted(generate.LanguagePages, "generate_once")  # a second call would find the pages written
    counted(plugin_modes, "read_files")
    monkeypatch.setattr(build, "_worker_session", Session())

    sources = build._sources(config_file, True)
    assert sources.data == project / "releases"
    data = build._read_once({"en": sources.data}, unreleased=False)["en"]
    result = build._build_one_language(config_file, "en", str(tmp_path / "site"), True, False, False, data)
    assert result.outcome is build.Outcome.BUILT, result.report
    assert calls == {"load_config": 1, "generate_once": 1, "generate_language": 1}
    assert (tmp_path / "site" / "releases" / "1.1" / "index.html").is_file()


def test_materials_search_plugin_still_calls_the_two_methods_its_index_is_given():
    """material_search.py gives Material's search plugin an index with two methods, because the
    plugin calls exactly those: a Material that calls others would index the pages itself, or fail."""
    from material.plugins.search import plugin as material_plugin

    from releasekb.site.material_search import SettingsOnlyIndex

    source = inspect.getsource(material_plugin.SearchPlugin)
    called = set(re.findall(r"self\.search_index\.(\w+)\(", source))
    assert called == {"add_entry_from_context", "generate_search_index"}, (
        f"Material's search plugin now calls {sorted(called)} on its index: see releasekb/site/material_search.py"
    )
    assert all(callable(getattr(SettingsOnlyIndex, name)) for name in called)


# Run first in the build's process and its language workers: Material's own index, asked to read
# a page, stops the build (it must never be asked: Pagefind indexes the pages).
_MATERIAL_INDEX_MUST_NOT_READ = """
from material.plugins.search import plugin as material_plugin
def refuse(self, page):
    raise SystemExit(f"Material's search index was given {page.file.src_uri}")
material_plugin.SearchIndex.add_entry_from_context = refuse
"""


def test_pages_reach_pagefind_from_the_plugin_and_materials_index_holds_settings_only(tmp_path):
    project = copy_project(tmp_path / "site", FIXTURE_RELEASES)
    result = run_releasekb(project, "build", change=_MATERIAL_INDEX_MUST_NOT_READ)
    assert result.returncode == 0, result.stderr
    for prefix in ("", "zh/"):
        settings = search_settings(project / "site", prefix)
        assert settings["docs"] == [] and settings["config"]["releasekb"]["lang"] == (prefix.strip("/") or "en")
        assert {"lang", "separator", "pipeline", "fields"} <= set(settings["config"])
        indexed = search_pages(project / "site", prefix)
        # every generated page kind, and a hand-written page, reach Pagefind through the plugin
        assert "releases/" in indexed and "about/" in indexed, sorted(indexed)[:20]
        assert any(url.startswith("features/") and url != "features/" for url in indexed)


def test_a_language_worker_imports_materials_search_without_jieba_and_leaves_jieba_importable():
    """Material's search plugin segments its own index with jieba when it can import it; that
    index is replaced here, so the workers import the plugin without jieba (0.2 s of CPU each,
    with pkg_resources). jieba is installed in the test environment (the bench's extra), so this
    would load it if the import were not held back, and anything else may still import it."""
    import importlib.util
    import subprocess
    import sys

    assert importlib.util.find_spec("jieba") is not None, "the test environment installs releasekb[bench]"
    program = (
        "import sys\n"
        "from releasekb.site.build import _warm_up\n"
        "_warm_up()\n"
        "from material.plugins.search import plugin\n"
        "print(plugin.jieba is None, 'jieba' in sys.modules, 'pkg_resources' in sys.modules)\n"
        "import jieba\n"
        "print(jieba.__name__)\n"
    )
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "False", "False", "jieba"]


def test_the_parts_many_pages_share_are_rendered_once_and_every_page_is_as_rendered_alone(tmp_path, monkeypatch):
    """The navigation, tabs, colour toggle, search box, scripts' settings and footer are rendered
    once per folder and navigation state, the table of contents once per different one
    (shared_partials.py), and every page still has the HTML the theme renders for it alone."""
    from mkdocs.commands.build import build as mkdocs_build

    project = copy_project(tmp_path / "project", FIXTURE_RELEASES)
    made = []
    install = shared_partials.SharedPartials.install
    monkeypatch.setattr(
        shared_partials.SharedPartials, "install", lambda self, env: (made.append(self), install(self, env))
    )

    def html_pages(site_dir: Path) -> dict[str, bytes]:
        mkdocs_build(load_config(str(project / "mkdocs.yml"), site_dir=str(site_dir)))
        return {str(path.relative_to(site_dir)): path.read_bytes() for path in site_dir.rglob("*.html")}

    shared = html_pages(tmp_path / "shared")
    (partials,) = made
    features = [path for path in shared if path.startswith("features/") and path.count("/") == 2]
    assert len(features) >= 5
    # The shared partials are on every page; those of all the feature pages (one folder, one tab
    # active) were rendered once.
    by_folder = len(shared_partials.SHARED) - len(shared_partials.BY_CONTENTS)
    by_page = shared_partials.BY_CONTENTS | shared_partials.BY_LINKS
    rendered_by_folder = sum(n for name, n in partials.rendered.items() if name not in by_page)
    assert rendered_by_folder <= by_folder * (len(shared) - len(features)) + by_folder
    # The table of contents: once for each different one (feature pages of one release share one).
    contents = re.compile(rb'<nav class="md-nav md-nav--secondary".*?</nav>\s*</div>', re.S)
    different = {contents.search(html)[0] for html in shared.values() if contents.search(html)}
    assert partials.rendered["partials/toc.html"] == len(different) < len(shared)
    # The language switcher: rendered once per set of languages (not per page), with marks for
    # the links, which every page's own replace: each feature page links to its own translation.
    switchers = re.findall(rb'<a href="([^"]*)" hreflang="zh"', b"".join(shared[path] for path in features))
    assert partials.rendered["partials/alternate.html"] < len(features) == len(set(switchers))
    assert not [path for path, html in shared.items() if b"releasekb-link:" in html]
    assert b'md-nav__item md-nav__item--active">\n      <a href="../"' in shared[features[0]]
    # What a shared part includes is what the page includes: the package's search box (a named
    # dialog, a form that leads readers without JavaScript to the features index), inside the
    # shared header, not Material's own.
    searched = [path for path in shared if b'data-md-component="search"' in shared[path]]
    assert len(searched) > len(features)
    ours = b'data-md-component="search" role="dialog" aria-label='
    assert [path for path in searched if ours not in shared[path] or b'name="q"' not in shared[path]] == []

    # Each page rendered on its own, as Material does without the sharing: the same bytes.
    monkeypatch.setattr(shared_partials, "_sharing_key", lambda name, page, nav, folder_state: None)
    alone = html_pages(tmp_path / "alone")
    assert sum(made[1].rendered.values()) > len(shared_partials.SHARED) * len(features)
    assert alone.keys() == shared.keys()
    assert [path for path in shared if shared[path] != alone[path]] == []


def test_the_shared_navigation_is_keyed_by_the_folder_and_the_active_entries(tmp_path):
    """What shared_partials reuses the navigation's HTML across: pages outside the navigation
    in one folder, with the same entries active; never a page the navigation lists or leads into."""
    docs = tmp_path / "docs"
    for name in (
        "index.md",
        "guide/index.md",
        "guide/a/index.md",
        "guide/a/deeper/index.md",
        "guide/b/index.md",
        "notes/c/index.md",
    ):
        (docs / name).parent.mkdir(parents=True, exist_ok=True)
        (docs / name).write_text(f"# {name}\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\nnav:\n  - index.md\n  - guide/index.md\n  - guide/a/deeper/index.md\n", encoding="utf-8"
    )
    config = load_config(str(tmp_path / "mkdocs.yml"))
    files = get_files(config)
    nav = get_navigation(files, config)

    def key(name: str):
        return shared_partials._same_from(files.get_file_from_path(name).page, nav)

    assert key("guide/b/index.md") is not None
    # A page the navigation lists, and one it leads into (guide/a/deeper/), are each their own.
    assert key("guide/index.md") is None and key("guide/a/index.md") is None
    # Another folder at the same depth, with the same entries active: its own addresses.
    assert key("notes/c/index.md") != key("guide/b/index.md")
    # A page a shared part leads into (the search box's form leads to features/): its own.
    assert shared_partials._same_from(files.get_file_from_path("guide/b/index.md").page, nav, ("guide/b/",)) is None
    assert shared_partials._same_from(files.get_file_from_path("guide/b/index.md").page, nav, ("notes/",)) is not None
    assert shared_partials.SHARED["partials/releasekb-search.html"] == ("features/",)
    # The same folder with the guide's entry active (the tab of its section): another state.
    before = key("guide/b/index.md")
    files.get_file_from_path("guide/index.md").page.active = True
    assert key("guide/b/index.md") != before


def test_the_generated_pages_take_the_places_a_walk_of_the_docs_gives_them(tmp_path):
    """MkDocs lists a site's pages in the order of its files (its navigation without a `nav`, its
    sitemap): the generated files, in memory, are put where they were when they were files of
    the docs."""
    docs = tmp_path / "docs"
    names = ["index.md", "about.md", "zeta.md", "releases/index.md", "releases/1.0.md", "features/a.md", "guide/x.md"]
    for name in names:
        (docs / name).parent.mkdir(parents=True, exist_ok=True)
        (docs / name).write_text("# x\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text("site_name: x\ndocs_dir: docs\n", encoding="utf-8")
    config = load_config(str(tmp_path / "mkdocs.yml"))
    walked = [file.src_uri for file in get_files(config)]
    files = list(get_files(config))
    config.plugins._current_plugin = "another"  # as MkDocs sets it while a plugin's on_files runs
    theirs = File.generated(config, "api/index.md", content="# api\n")  # another plugin's, added last
    docs_files = [file for file in files if not plugin_modes._in_generated_folders(file)]
    ours = [File.generated(config, file.src_uri, content="") for file in files if file not in docs_files]
    assert len(ours) == 4  # index.md, releases/*, features/*
    ours.sort(key=lambda file: plugin_modes._walk_order(file.src_uri))
    merged = plugin_modes._in_walk_order([*docs_files, theirs], ours)
    assert [file.src_uri for file in merged] == [*walked, "api/index.md"]
