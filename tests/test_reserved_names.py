"""Names the site reserves, and files the data folder holds but does not read: an id, a former id
or a label key that names a page the URL scheme fixes (the features index), the built-in level, a
Windows device or a name too long for a file is refused at its line; a release file that is not
read is a warning naming it; a link out of the data folder is not read."""

import os
import shutil
import subprocess
import sys

import pytest

from helpers import (
    FIXTURE_RELEASES,
    FIXTURES,
    build,
    command_env,
    copy_project,
    fixture_data,
    line_of,
    run_validate,
)
from releasekb.cli import main
from releasekb.kb.model import SLUG_PATTERN
from releasekb.kb.urls import FIXED_PAGES, MAX_NAME_LENGTH


def problems_in(data, capsys, file):
    code, lines = run_validate(data, capsys)
    return code, [line for line in lines if line.startswith(f"{data / file}:")]


def test_every_fixed_page_is_one_the_site_generates(fixture_catalog):
    """The reserved names come from the URL scheme's list of fixed pages: a page the site makes
    from no release, feature or level and not in that list would be one an id could replace."""
    from releasekb.kb.pages import REDIRECT_TEMPLATE, pages

    made_from_data = {"release", "feature", "level"}
    fixed = {
        page.path
        for page in pages(fixture_catalog)
        if page.template != REDIRECT_TEMPLATE and not made_from_data & set(page.context)
    }
    assert fixed == set(FIXED_PAGES)


@pytest.mark.parametrize("name", ["index", "con", "nul", "aux", "prn", "com1", "lpt9"])
def test_an_id_that_names_a_fixed_page_or_a_windows_device_is_refused_at_its_line(tmp_path, capsys, name):
    """`index` replaced the features index (exit 0); `con` could not be a file on Windows."""
    data = fixture_data(tmp_path, {"1.0.yaml": [("id: old-reader", f"id: {name}")]})
    code, problems = problems_in(data, capsys, "1.0.yaml")
    assert code == 1
    line = line_of(data / "1.0.yaml", f"id: {name}")
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"{data / '1.0.yaml'}:{line}:9: features[1].id: '{name}' cannot be an id: ")
    assert problems[0].endswith("; choose another id")
    if name == "index":
        assert "its page features/index.md is the features index, which it would replace" in problems[0]
    else:
        assert f"{name} is a device name on Windows" in problems[0]


def test_a_former_id_that_names_a_fixed_page_is_refused(tmp_path, capsys):
    data = fixture_data(tmp_path, {"2.0.yaml": [("aliases: [widget-colors]", "aliases: [index]")]})
    code, problems = problems_in(data, capsys, "2.0.yaml")
    assert code == 1
    assert (
        len(problems) == 1
        and "features[0].aliases[0]: 'index' cannot be an id: its page features/index.md" in problems[0]
    )


@pytest.mark.parametrize(
    ("key", "message"),
    [
        ("index", "'index' cannot be a label key: its page stability/index.md is the stability index"),
        ("unlabeled", "'unlabeled' is the built-in level of features no release gave a level, and would replace"),
        ("lpt1", "'lpt1' cannot be a label key: lpt1 is a device name on Windows"),
    ],
)
def test_a_label_key_that_names_a_fixed_page_or_the_built_in_level_is_refused_at_its_line(
    tmp_path, capsys, key, message
):
    """`index` replaced the stability index; `unlabeled` silently replaced the project's label by
    the built-in level (both exit 0)."""
    data = fixture_data(
        tmp_path,
        {
            "project.yaml": [
                ("    experimental: {rank", f"    {key}: {{rank"),
                ("[stable, experimental]", f"[stable, {key}]"),
            ],
            "1.0.yaml": [("stability: experimental", f"stability: {key}")],
        },
    )
    code, problems = problems_in(data, capsys, "project.yaml")
    assert code == 1
    line = line_of(data / "project.yaml", f"    {key}: {{rank")
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"{data / 'project.yaml'}:{line}:5: stability.labels.{key}: {message}")


def test_an_upper_case_windows_name_with_an_extension_is_reserved_too():
    """Windows reserves the name in any case and with any extension ('NUL.md'); slugs are lower
    case, so the check is on the name as it would be a file."""
    from releasekb.kb.urls import reserved_name

    assert "device name on Windows" in reserved_name("features/NUL.md")
    assert "device name on Windows" in reserved_name("badges/Com3.svg")
    assert reserved_name("features/console.md") == reserved_name("features/com10.md") == ""


@pytest.mark.parametrize("field", ["id", "version"])
def test_an_id_or_version_too_long_for_a_file_name_is_refused_at_its_line(tmp_path, capsys, field):
    """A 300-character id crashed the build (file name too long): names are bounded well under a
    file name's 255 bytes."""
    long = "a" * 300 if field == "id" else "1." + "1" * 298
    assert len(long) > MAX_NAME_LENGTH
    edit = ("id: old-reader", f"id: {long}") if field == "id" else ('version: "1.0"', f'version: "{long}"')
    data = fixture_data(tmp_path, {"1.0.yaml": [edit]})
    code, problems = problems_in(data, capsys, "1.0.yaml")
    assert code == 1
    where = "features[1].id" if field == "id" else "version"
    assert any(
        f": {where}: is 300 characters long, over the {MAX_NAME_LENGTH} allowed: it names a file" in p for p in problems
    ), problems


def test_an_id_at_the_bound_builds_its_pages(tmp_path, capsys):
    long = "-".join(["a" * 9] * 10)[:MAX_NAME_LENGTH].rstrip("-")
    assert len(long) >= MAX_NAME_LENGTH - 1
    import re

    assert re.fullmatch(SLUG_PATTERN, long)
    data = fixture_data(
        tmp_path, {name: [("id: old-reader", f"id: {long}")] for name in ("1.0.yaml", "1.1.yaml", "2.0.yaml")}
    )
    assert run_validate(data, capsys) == (0, [])


def test_new_refuses_a_version_too_long_for_a_file_name(tmp_path, capsys):
    """`releasekb new` with a 300-character version was a traceback."""
    data = fixture_data(tmp_path)
    before = sorted(os.listdir(data))
    code = main(["--data", str(data), "new", "1." + "1" * 298])
    err = capsys.readouterr().err
    assert code == 2
    assert err == (
        f"releasekb new: the version is 300 characters long, over the {MAX_NAME_LENGTH} allowed (it names the "
        "release file): give a version like 1.8 or 1.10; nothing was written\n"
    )
    assert sorted(os.listdir(data)) == before


# ----------------------------------------------------------------- files not read


@pytest.mark.parametrize(
    ("name", "right"),
    [
        ("1.1.yml", "1.1.yaml"),
        ("1.1.YAML", "1.1.yaml"),
        ("Draft-1.1.yaml", "1.1.yaml"),
        ("old/0.9.yaml", "0.9.yaml"),
    ],
)
def test_a_release_file_that_is_not_read_is_a_warning_naming_it(tmp_path, capsys, name, right):
    """They were silently ignored ("1 releases, no problems"): a warning, which fails only --strict."""
    data = fixture_data(tmp_path)
    path = data / name
    path.parent.mkdir(exist_ok=True)
    path.write_text((data / "1.1.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    (data / "1.1.yaml").unlink()
    code, lines = run_validate(data, capsys)
    assert code == 0
    suggested = data / right
    assert (
        f"{path}:1:1: warning: (document): this file is not read: release files are named <version>.yaml in "
        f"the data folder itself, so its release is missing from the site; rename it to {suggested}, or move it "
        "out of the data folder" in lines
    )
    assert main(["--data", str(data), "validate", "--strict"]) == 1


def test_files_that_do_not_look_like_releases_are_left_alone(tmp_path, capsys):
    """The schemas, an editor's hidden files, a YAML file named without a version."""
    data = fixture_data(tmp_path)
    (data / ".#1.1.yaml").symlink_to("nowhere@host")  # an editor's lock file, dangling
    (data / ".drafts").mkdir()
    (data / ".drafts" / "3.0.yaml").write_text("x", encoding="utf-8")
    (data / "notes.yml").write_text("x", encoding="utf-8")
    (data / "1.1.yaml.orig").write_text("x", encoding="utf-8")
    code, lines = run_validate(data, capsys)
    assert code == 0 and lines == []
    assert main(["--data", str(data), "validate", "--strict"]) == 0


# ----------------------------------------------------------------- links out of the data folder


def test_a_release_file_linking_outside_the_data_folder_is_not_read_nor_echoed(tmp_path, capsys):
    """Its target's content was echoed in the YAML error (a line of any file of the machine)."""
    data = fixture_data(tmp_path)
    secret = tmp_path / "secret.txt"
    secret.write_text("root:x:0:0:the-secret-line: here\n", encoding="utf-8")
    (data / "1.8.yaml").symlink_to(secret)
    code = main(["--data", str(data), "validate"])
    err = capsys.readouterr().err
    assert code == 1
    assert err.splitlines()[0] == (
        f"{data / '1.8.yaml'}:1:1: (document): is a symbolic link to a file outside the data folder, which is "
        "not read (copy the file into the data folder, or remove the link)"
    )
    assert "the-secret-line" not in err and "secret.txt" not in err


def test_a_release_file_linking_inside_the_data_folder_is_read(tmp_path, capsys):
    data = fixture_data(tmp_path)
    (data / "drafts").mkdir()
    (data / "1.1.yaml").rename(data / "drafts" / "1.1.yaml")
    (data / "1.1.yaml").symlink_to(data / "drafts" / "1.1.yaml")
    code, lines = run_validate(data, capsys)
    assert (code, lines) == (0, [])  # and the file it is read from is no unread file


# ----------------------------------------------------------------- the upgrade page of one release


@pytest.mark.browser
def test_the_upgrade_page_of_a_single_release_says_so_without_a_script_error(tmp_path, chromium):
    """Right after `init` there is one release: the page's script threw `TypeError ... reading
    'value'` (no version to upgrade from). The page now says there is nothing to upgrade between."""
    from helpers import static_server
    from releasekb.common.i18n import interface_strings

    knowledge_base = tmp_path / "kb"
    assert main(["init", str(knowledge_base), "--product", "A", "--languages", "en,zh"]) == 0
    site = build(knowledge_base)
    with static_server(site) as url:
        context = chromium.new_context()
        try:
            page = context.new_page()
            errors = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.on("console", lambda message: message.type == "error" and errors.append(message.text))
            for prefix, lang in (("", "en"), ("zh/", "zh")):
                page.goto(f"{url}/{prefix}changelog/upgrade/")
                page.wait_for_load_state("load")
                assert errors == []
                assert interface_strings(lang)["upgrade_one_release"] in page.inner_text("article")
        finally:
            context.close()


# ----------------------------------------------------------------- another plugin's page at a path of ours

# A hooks file (MkDocs' `hooks:`, a plugin of the site's own) whose on_files adds a page, as
# mkdocs-gen-files does: releasekb's page at that path replaced it silently.
ANOTHER_PLUGINS_PAGE = """
from mkdocs.structure.files import File


def on_files(files, config):
    if (there := files.get_file_from_path({uri!r})) is not None:
        files.remove(there)  # a page of the docs at that path: replaced, as mkdocs-gen-files does
    files.append(File.generated(config, {uri!r}, content="# Made by another plugin\\n"))
    return files
"""


def mkdocs_build(project):
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build"],
        cwd=project,
        capture_output=True,
        text=True,
        env=command_env(),
        timeout=300,
    )


@pytest.mark.parametrize("mode", ["section", "whole site"])
def test_a_page_another_plugin_adds_at_a_path_of_ours_is_an_error_naming_both(tmp_path, mode):
    if mode == "section":
        project = tmp_path / "handbook"
        shutil.copytree(FIXTURES / "material-site", project)
        shutil.copytree(FIXTURE_RELEASES, project / "releases")
        uri = "release-notes/releases/index.md"
    else:
        project = copy_project(tmp_path / "kb", FIXTURE_RELEASES)
        uri = "releases/index.md"
    (project / "another_plugin.py").write_text(ANOTHER_PLUGINS_PAGE.format(uri=uri), encoding="utf-8")
    config = project / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8") + "hooks:\n  - another_plugin.py\n", encoding="utf-8")
    result = mkdocs_build(project)
    assert result.returncode == 1, result.stderr
    assert (
        f"releasekb: the plugin 'another_plugin.py' adds a page at {uri}, where releasekb generates a page of "
        "its own: one would silently replace the other (have that plugin write its page elsewhere"
    ) in result.stderr
    assert "Traceback" not in result.stderr


def test_another_plugins_pages_elsewhere_are_kept(tmp_path):
    project = tmp_path / "handbook"
    shutil.copytree(FIXTURES / "material-site", project)
    shutil.copytree(FIXTURE_RELEASES, project / "releases")
    (project / "another_plugin.py").write_text(ANOTHER_PLUGINS_PAGE.format(uri="api/index.md"), encoding="utf-8")
    config = project / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8") + "hooks:\n  - another_plugin.py\n", encoding="utf-8")
    result = mkdocs_build(project)
    assert result.returncode == 0, result.stderr
    assert "Made by another plugin" in (project / "site" / "api" / "index.html").read_text(encoding="utf-8")


# ----------------------------------------------------------------- settings the generated links do not support


@pytest.mark.parametrize("mode", ["section", "whole site"])
def test_use_directory_urls_false_is_refused_naming_the_setting(tmp_path, mode):
    """Every link the generator writes is a directory URL: with `.html` pages the build had 27
    broken links (26 in a section), exit 0 with strict on."""
    if mode == "section":
        project = tmp_path / "handbook"
        shutil.copytree(FIXTURES / "material-site", project)
        shutil.copytree(FIXTURE_RELEASES, project / "releases")
    else:
        project = copy_project(tmp_path / "kb", FIXTURE_RELEASES)
    config = project / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8") + "use_directory_urls: false\n", encoding="utf-8")
    result = mkdocs_build(project)
    assert result.returncode == 1, result.stderr
    assert (
        f"{config}: releasekb does not support `use_directory_urls: false`: its pages, feeds, API and permanent "
        "addresses are directory URLs (releases/1.7/), which would all be broken links; remove the setting"
    ) in result.stderr
    assert "Traceback" not in result.stderr
    assert not (project / "site").exists()


STATIC_I18N = """  - i18n:
      docs_structure: {structure}
      languages:
        - {{locale: en, default: true, name: English}}
        - {{locale: zh, name: 中文}}
"""


@pytest.mark.parametrize(("structure", "before"), [("suffix", False), ("folder", True)])
def test_mkdocs_static_i18n_beside_the_section_is_refused_with_a_sentence(tmp_path, structure, before):
    """Listed after releasekb it ended in a TypeError traceback on the section's in-memory pages."""
    project = tmp_path / "handbook"
    shutil.copytree(FIXTURES / "material-site", project)
    shutil.copytree(FIXTURE_RELEASES, project / "releases")
    config = project / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    i18n = STATIC_I18N.format(structure=structure)
    anchor = "  - releasekb:" if before else "markdown_extensions:"  # listed before or after releasekb
    config.write_text(text.replace(anchor, i18n + anchor), encoding="utf-8")
    result = mkdocs_build(project)
    assert result.returncode == 1, result.stderr
    assert (
        f"{config}: releasekb does not support mkdocs-static-i18n (`i18n` in `plugins:`): a section is built in "
        "the site's language (theme.language)"
    ) in result.stderr
    assert "Traceback" not in result.stderr
