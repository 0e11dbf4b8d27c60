"""Kinds of page in one registry (kb/page_kinds.py): every consumer loops over it, and a package
adds a kind as CONTRIBUTING.md ("Adding a page kind") shows, with nothing else to edit. And the
markup the page helpers print, in templates a team can replace."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from helpers import (
    FIXTURE_RELEASES,
    ROOT,
    catalog_of,
    command_env,
    copy_project,
    fixture_data,
    page_html,
    real_data,
    run_releasekb,
    search_pages,
    write_tree,
)
from releasekb.common.i18n import interface_strings
from releasekb.kb import page_kinds, urls
from releasekb.kb.page_kinds import PageKind
from releasekb.kb.pages import pages
from releasekb.site import incremental, publish, render, search
from releasekb.site.outputs import OUTPUTS
from releasekb.site.render import index_titles, not_found_page, render_language

# The example of CONTRIBUTING.md, as a package would ship it: a module naming the kind and its
# template, and an entry point in the group releasekb reads.
DIGEST_MODULE = """
from pathlib import Path

from releasekb.kb.page_kinds import PageKind

DIGEST = PageKind(
    "digest",
    "digest.html.j2",
    path="changelog/digest.md",
    title=lambda catalog, lang: {"en": "Digest", "zh": "摘要"}[lang],
    description=lambda context, lang: "Every release in one line each.",
    searched=False,
    templates=Path(__file__).parent / "templates",
)
"""
DIGEST_TEMPLATE = """\
{{ heading(1, "Digest", "_title") }}
<ul class="digest">
{% for release in catalog.releases %}
<li><a href="{{ href(release_path(release.version)) }}">{{ release.display_name[lang] }}</a></li>
{% endfor %}
</ul>
"""


def digest_package(folder: Path) -> Path:
    """An installed package offering the digest kind: its module, its template and its entry point."""
    (folder / "digest_kind" / "templates").mkdir(parents=True)
    (folder / "digest_kind" / "__init__.py").write_text(textwrap.dedent(DIGEST_MODULE), encoding="utf-8")
    (folder / "digest_kind" / "templates" / "digest.html.j2").write_text(DIGEST_TEMPLATE, encoding="utf-8")
    metadata = folder / "digest_kind-1.0.dist-info"
    metadata.mkdir()
    (metadata / "METADATA").write_text("Metadata-Version: 2.1\nName: digest-kind\nVersion: 1.0\n", encoding="utf-8")
    (metadata / "entry_points.txt").write_text(
        f"[{page_kinds.ENTRY_POINT_GROUP}]\ndigest = digest_kind:DIGEST\n", encoding="utf-8"
    )
    return folder


@pytest.fixture(scope="module")
def digest_site(tmp_path_factory) -> Path:
    """The fixture data's site, built with the digest package installed (on the path)."""
    package = digest_package(tmp_path_factory.mktemp("digest-package"))
    project = copy_project(tmp_path_factory.mktemp("digest-site"), FIXTURE_RELEASES)
    env = command_env()
    env["PYTHONPATH"] = str(package) + (":" + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    result = run_releasekb(project, "build", env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    return project / "site"


def test_a_registered_page_kind_is_built_in_every_language(digest_site, fixture_catalog):
    """The kind's page is rendered from its own template with the shared helpers, in every
    language, with its description, and search leaves it out as its kind says."""
    releases = [release.version for release in fixture_catalog.releases]
    for prefix in ("", "zh/"):
        html = page_html(digest_site, prefix + "changelog/digest")
        assert '<ul class="digest">' in html
        for version in releases:
            assert f'href="../../releases/{version}/"' in html
        assert '<meta name="description" content="Every release in one line each.">' in html
        assert "changelog/digest/" not in search_pages(digest_site, prefix)
        assert "releases/" + releases[0] + "/" in search_pages(digest_site, prefix)  # search did run


def test_a_registered_kind_reaches_every_consumer(fixture_catalog, tmp_path):
    """Registered in process: the pages, the navigation's titles and the 404 page list it, an
    edit renders it again as the overview it is, and search gives it the facts its kind makes."""
    (tmp_path / "digest.html.j2").write_text(DIGEST_TEMPLATE, encoding="utf-8")
    kind = PageKind(
        "digest",
        "digest.html.j2",
        path="changelog/digest.md",
        title=lambda catalog, lang: "Digest",
        not_found_key="nav_changelog",
        search_facts=lambda context, catalog, lang: (("parts", "0"),),
        templates=tmp_path,
    )
    page_kinds.register(kind)
    try:
        site_pages = pages(fixture_catalog)
        assert [page.path for page in site_pages if page.kind is kind] == ["changelog/digest.md"]
        assert index_titles(fixture_catalog, "en")["changelog/digest.md"] == "Digest"
        links = not_found_page("/", fixture_catalog.languages)["languages"][0]["links"]
        assert links[-1] == ("/changelog/digest/", "nav_changelog")
        unchanged = {page.path: frozenset() for page in site_pages}
        assert "changelog/digest.md" in incremental.pages_to_render(
            site_pages, incremental.Change(frozenset(), frozenset()), unchanged
        )
        assert search.page_facts(fixture_catalog, "en")["changelog/digest.md"] == (("parts", "0"),)
    finally:
        page_kinds.unregister("digest")
    assert "changelog/digest.md" not in {page.path for page in pages(fixture_catalog)}


def test_an_entry_point_that_names_no_page_kind_is_refused_in_one_sentence(tmp_path, monkeypatch):
    package = digest_package(tmp_path)
    entry_points = package / "digest_kind-1.0.dist-info" / "entry_points.txt"
    entry_points.write_text(entry_points.read_text().replace("digest_kind:DIGEST", "textwrap:dedent"))
    monkeypatch.syspath_prepend(str(package))
    monkeypatch.setattr(page_kinds, "_entry_points_read", False)
    monkeypatch.setattr(page_kinds, "_KINDS", list(page_kinds._BUILT_IN))
    with pytest.raises(page_kinds.PageKindError) as refused:
        page_kinds.page_kinds()
    assert str(refused.value) == (
        "the entry point 'digest = textwrap:dedent' (releasekb.page_kinds) names function, "
        "where a releasekb.kb.page_kinds.PageKind was expected"
    )


@pytest.mark.parametrize(
    ("target", "said"),
    [
        ("textwrap:dedent", "names function, where a releasekb.kb.page_kinds.PageKind was expected"),
        ("digest_missing:DIGEST", "cannot be loaded: ModuleNotFoundError: No module named 'digest_missing'"),
    ],
)
def test_a_broken_installed_page_kind_is_one_line_from_the_command(tmp_path, target, said):
    """The command a curator runs says which installed package is at fault, with no traceback."""
    package = digest_package(tmp_path / "package")
    entry_points = package / "digest_kind-1.0.dist-info" / "entry_points.txt"
    entry_points.write_text(entry_points.read_text().replace("digest_kind:DIGEST", target))
    data = fixture_data(tmp_path / "data")
    result = run_releasekb(tmp_path, "--data", str(data), "validate", env={**command_env(), "PYTHONPATH": str(package)})
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"releasekb validate: the entry point 'digest = {target}' (releasekb.page_kinds) {said}"
    ]


# Markup in templates (issue 39, item 6): the badges and admonitions the helpers print come from
# templates/markup/, which a team's data folder can replace, as its locales/ replace strings.
TEAM_BADGE = '<em class="team-badge" data-level="{{ level.key|attr }}">{{ name }}</em>'
TEAM_MIGRATION = '<aside class="team-migration">{{ t.migration }}: {{ text }}</aside>\n'


def test_a_team_template_replaces_the_markup_of_a_badge_and_an_admonition(tmp_path, fixture_catalog):
    data = fixture_data(tmp_path / "data")
    write_tree(
        data, {"templates/markup/badge.html.j2": TEAM_BADGE, "templates/markup/migration.html.j2": TEAM_MIGRATION}
    )
    theirs = render_language(catalog_of(data), "en")
    ours = render_language(fixture_catalog, "en")
    levels = [key for key in fixture_catalog.levels if f'rkb-level-{key}" title=' in ours[f"stability/{key}.md"]]
    assert levels  # each level's page shows its badge with its description
    for key in levels:
        name = fixture_catalog.levels[key].name["en"]
        assert f'<em class="team-badge" data-level="{key}">{name}</em>' in theirs[f"stability/{key}.md"]
        assert f'rkb-level-{key}" title=' not in theirs[f"stability/{key}.md"]
    advice = interface_strings("en")["migration"]
    with_migration = [path for path, text in ours.items() if 'class="admonition tip"' in text]
    assert with_migration
    for path in with_migration:
        assert 'class="admonition tip"' not in theirs[path]
        shown = f'<aside class="team-migration">{advice}: '
        assert theirs[path].count(shown) == ours[path].count("admonition tip")


def test_every_piece_of_markup_is_a_template_a_team_can_replace_and_the_readme_lists_them(tmp_path, real_catalog):
    """The entry's API names and links, the "(per 1.5)" note and the features index's level cell
    are templates too, not Python: a team's file of the same name replaces each."""
    package = sorted(path.name for path in (render.TEMPLATES_DIR / "markup").glob("*.html.j2"))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    listed = readme[readme.index("The markup around your data") : readme.index("To change one")]
    assert sorted(re.findall(r"`(\w+\.html\.j2)`", listed)) == package
    data = real_data(tmp_path / "data")
    theirs_of = {name: f'<i class="team-{name.split(".")[0]}"></i>' for name in package}
    write_tree(data, {f"templates/markup/{name}": text for name, text in theirs_of.items()})
    theirs = "".join(render_language(catalog_of(data), "en").values())
    ours = "".join(render_language(real_catalog, "en").values())
    apis_label = render._PageHelpers("", "en", interface_strings("en"), "").label(interface_strings("en")["apis"])
    ours_of = {"entry_links": f"<p><strong>{apis_label}</strong><code>", "provenance": 'class="rkb-provenance"'}
    ours_of["level_steps"] = "<span data-from="
    # (a text shown untranslated is marked so, on a page of a language that lacks it: see below)
    for stem, mark in ours_of.items():
        assert mark in ours and mark not in theirs, stem
        assert f'<i class="team-{stem}"></i>' in theirs, stem


def test_the_helpers_every_page_shares_are_made_once_per_language(fixture_catalog, monkeypatch):
    made = []
    functions = render._PageHelpers.functions

    def spy(helpers):
        made.append(helpers.path)
        return functions(helpers)

    monkeypatch.setattr(render._PageHelpers, "functions", spy)
    texts = render_language(fixture_catalog, "en")
    assert len(made) == 1
    assert len([path for path in texts if path.endswith(".md")]) == len(pages(fixture_catalog)) > 1


# The site's outputs in one registry (outputs.OUTPUTS): publish writes what each one's `files`
# gives, and the paths each one states without making them are those files.


@pytest.mark.parametrize("section", [False, True])
def test_every_output_states_the_paths_it_writes_and_publish_writes_them_all(fixture_catalog, section):
    for lang in fixture_catalog.languages:
        written = publish.outputs(fixture_catalog, lang, "https://kb.example.org/", section=section)
        wanted = [output for output in OUTPUTS if output.wanted(fixture_catalog, lang, section)]
        made = {}
        for output in wanted:
            files = output.files(fixture_catalog, lang, "https://kb.example.org/", lambda: None)
            assert set(files) == output.paths(fixture_catalog, lang, "https://kb.example.org/"), output.__name__
            assert files and made.keys().isdisjoint(files), output.__name__  # each writes its own files
            made.update(files)
        assert written == made
        assert set(written) == publish.output_paths(fixture_catalog, lang, "", section=section)
    assert {output.__name__.rsplit(".", 1)[1] for output in OUTPUTS} == {"json_api", "badges", "inventory", "feed"}


def test_the_url_scheme_names_the_pages_and_folders_of_the_registry_s_overviews():
    """urls.FIXED_PAGES (the names no id may take) and urls.GENERATED_PATHS (what a build owns and
    cleans) are the URL scheme's, which the registry cannot import: they must say what it says."""
    overviews = [kind.path for kind in page_kinds.page_kinds() if kind.path]
    assert set(overviews) == set(urls.FIXED_PAGES)
    assert set(dict.fromkeys(path.split("/")[0] for path in overviews)) == set(urls.GENERATED_PATHS)


def test_a_kind_outside_the_generated_folders_is_refused_in_one_sentence():
    with pytest.raises(page_kinds.PageKindError) as refused:
        page_kinds.register(PageKind("news", "news.html.j2", path="news/index.md"))
    assert str(refused.value) == (
        "the page kind 'news' has its page at news/index.md, outside the generated folders, which a build "
        f"cleans (put it in one of: {', '.join(urls.GENERATED_PATHS)})"
    )
    assert "news" not in [kind.name for kind in page_kinds.page_kinds()]
