"""`releasekb import`: a Keep a Changelog file and GitHub's releases JSON as release files and notes.

The changelogs here are written for these tests, each reproducing a variation of the format
(yanked versions, link references, dates in words or missing, nested bullets, sections the
format does not have); the JSON is in the shape GitHub's REST API documents for "List releases".
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

import jsonschema
import pytest
import yaml

from helpers import build, page_html, problems_of
from releasekb.cli import main
from releasekb.kb import starter
from releasekb.kb.model import SCHEMA_COMMENT, SLUG_PATTERN, ReleaseFile
from releasekb.kb.urls import API_SCHEMA

CHANGELOG = """\
# Changelog

Every change to Widget worth a line. The format follows Keep a Changelog.

## [Unreleased]

### Added
- A `widget.retry` helper for connections that drop.

## [1.2.0] - 2024-03-10

A release about speed and safety.

### Added
- Streaming export through `widget.export_stream` (beta).
- Stable ordering of exported rows.
- An import wizard:
  - it reads CSV files
  - it reads JSON lines

### Changed
- BREAKING: `widget.open` needs a `mode` argument.
- Start-up is faster on large projects.

### Deprecated
- `widget.legacy_open` gives way to `widget.open`.

### Removed
- Support for Python 3.7.

### Fixed
- Empty configuration files no longer crash the loader.
- Documentation fixes.

### Security
- Access tokens are kept out of the debug log.

### Tooling
- The build moved to a new backend.

---

## [1.1.1] - 2023-12-01 [YANKED]

### Fixed
- Totals in the summary view add up again.

## 1.1.0 (5th November, 2023)

- Added a dark theme.
- Fixed a typo on the help page.
- Documentation fixes.

Some words under no heading of a section.

## [1.0.0] - 2023-06-01

### Added
- A first public release of the widget toolkit.

```text
widget --version
```

## v0.9.0-RC1 (May 2, 2023) [YANKED]

- Fix the installer on older systems.

[unreleased]: https://example.org/widget/compare/v1.2.0...HEAD
[1.2.0]: https://example.org/widget/compare/v1.1.1...v1.2.0
"""

VERSIONS = ("0.9.0-rc1", "1.0.0", "1.1.0", "1.1.1", "1.2.0")


def line_of(text: str, needle: str) -> int:
    """The 1-based line of the changelog holding `needle`."""
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def new_project(folder: Path, languages: tuple[str, ...] = ("en",)) -> Path:
    """A knowledge base as `releasekb init` makes it, without its example release."""
    starter.init(folder, "Widget", languages=languages)
    (folder / "releases" / "1.0.yaml").unlink()
    return folder / "releases"


def run_import(capsys, data: Path, *args: str) -> tuple[int, str, str]:
    status = main(["--data", str(data), "import", *args])
    out, err = capsys.readouterr()
    return status, out, err


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def entries_of(release: dict) -> dict[str, dict]:
    """{title: entry} of a release file's data, features and changes alike."""
    return {entry["title"]["en"]: entry for key in ("features", "changes") for entry in release[key]}


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    """A project with CHANGELOG imported: (project folder, status, stdout, stderr). A module
    fixture has no capsys: main's output is caught by redirecting its streams."""
    folder = tmp_path_factory.mktemp("imported")
    data = new_project(folder)
    (folder / "CHANGELOG.md").write_text(CHANGELOG, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["--data", str(data), "import", "keepachangelog", str(folder / "CHANGELOG.md")])
    return folder, status, out.getvalue(), err.getvalue()


def release_data(folder: Path, version: str) -> dict:
    return yaml.safe_load((folder / "releases" / f"{version}.yaml").read_text(encoding="utf-8"))


def test_each_version_becomes_a_release_file_in_the_shape_release_files_have(imported):
    folder, status, out, _ = imported
    assert status == 0, out
    names = sorted(p.name for p in (folder / "releases").glob("*.yaml") if p.name != "project.yaml")
    assert names == ["0.9.0-rc1.yaml", "1.0.0.yaml", "1.1.0.yaml", "1.1.1.yaml", "1.2.0.yaml"]
    fields = list(ReleaseFile.model_fields)
    for name in names:
        text = (folder / "releases" / name).read_text(encoding="utf-8")
        assert text.splitlines()[0] == SCHEMA_COMMENT
        data = yaml.safe_load(text)
        assert list(data) == [field for field in fields if field in data]
    newest = release_data(folder, "1.2.0")
    assert str(newest["date"]) == "2024-03-10"
    assert newest["summary"] == {"en": "A release about speed and safety."}
    assert newest["sources"] == [
        {"kind": "original", "lang": "en", "url": "https://example.org/widget/compare/v1.1.1...v1.2.0"}
    ]


def test_sections_map_to_kinds_and_nested_bullets_fold_into_their_parent(imported):
    folder = imported[0]
    entries = entries_of(release_data(folder, "1.2.0"))
    kinds = {title: entry["kind"] for title, entry in entries.items()}
    assert kinds == {
        "Streaming export through `widget.export_stream` (beta)": "new",
        "Stable ordering of exported rows": "new",
        "An import wizard: it reads CSV files; it reads JSON lines": "new",
        "BREAKING: `widget.open` needs a `mode` argument": "breaking",
        "Start-up is faster on large projects": "improvement",
        "`widget.legacy_open` gives way to `widget.open`": "deprecation",
        "Support for Python 3.7": "removal",
        "Empty configuration files no longer crash the loader": "fix",
        "Documentation fixes": "fix",
        "Access tokens are kept out of the debug log": "security",
    }
    change = entries["Support for Python 3.7"]
    assert change["standalone"] is True and change["migration"] == {"en": "Support for Python 3.7."}
    # Under no section heading, the first word says the kind.
    assert {t: e["kind"] for t, e in entries_of(release_data(folder, "1.1.0")).items()} == {
        "Added a dark theme": "new",
        "Fixed a typo on the help page": "fix",
        "Documentation fixes": "improvement",  # its first word says no kind
    }


def test_levels_are_taken_only_where_the_text_states_one(imported):
    folder = imported[0]
    release = release_data(folder, "1.2.0")
    entries = entries_of(release)
    assert entries["Streaming export through `widget.export_stream` (beta)"]["stability"] == "beta"
    assert release["scheme"] == "stable-beta-preview"  # the scheme holding the stated level
    stated = {title for title, entry in entries.items() if "stability" in entry}
    assert stated == {"Streaming export through `widget.export_stream` (beta)"}  # "Stable ordering" states none
    assert release_data(folder, "1.1.0")["scheme"] == "unlabeled"  # no level stated: the scheme of none


def test_variations_yanked_dates_in_words_and_ids_unique_across_releases(imported):
    folder = imported[0]
    assert release_data(folder, "1.1.1")["title"] == {"en": "Widget 1.1.1 (yanked)"}
    assert str(release_data(folder, "1.1.0")["date"]) == "2023-11-05"
    candidate = release_data(folder, "0.9.0-rc1")  # `v`, upper case, a date in words, then [YANKED]
    assert str(candidate["date"]) == "2023-05-02" and candidate["title"] == {"en": "Widget 0.9.0-rc1 (yanked)"}
    ids = [
        entry["id"]
        for version in VERSIONS
        for key in ("features", "changes")
        for entry in release_data(folder, version)[key]
    ]
    assert all(re.fullmatch(SLUG_PATTERN, i) for i in ids)
    assert len(ids) == len(set(ids)), "one id in two releases would make one feature of two entries"
    every = [e for v in VERSIONS for e in entries_of(release_data(folder, v)).values()]
    assert all(entry["imported"] is True for entry in every)


def test_unreleased_entries_become_notes_and_every_line_not_placed_is_reported(imported):
    folder, _, out, err = imported
    notes = list((folder / "releases" / "unreleased").glob("*.yaml"))
    assert len(notes) == 1
    note = yaml.safe_load(notes[0].read_text(encoding="utf-8"))
    assert note["kind"] == "new" and note["imported"] is True and note["id"] == notes[0].stem
    assert note["title"] == {"en": "A `widget.retry` helper for connections that drop"}
    source = str(folder / "CHANGELOG.md")
    for needle in ("### Tooling", "The build moved", "Some words under no heading", "widget --version"):
        line = line_of(CHANGELOG, needle) + (-1 if needle == "widget --version" else 0)  # a fence starts above
        assert f"{source}:{line}: not imported" in err, needle
    assert err.count("not imported") == 4
    entries = sum(len(entries_of(release_data(folder, v))) for v in VERSIONS)
    assert f"imported {entries + 1} entries into {len(VERSIONS)} release files and 1 notes" in out


def test_imported_entries_warn_until_reviewed_and_the_site_builds(imported, tmp_path):
    folder = imported[0]
    project = yaml.safe_load((folder / "releases" / "project.yaml").read_text(encoding="utf-8"))
    assert project["areas"]["general"] == {"en": "General"}
    assert '"general"' in (folder / "releases" / "release.schema.json").read_text(encoding="utf-8")
    assert problems_of(folder / "releases") == []  # valid: the marks are warnings
    status = main(["--data", str(folder / "releases"), "validate", "--strict"])
    assert status == 1
    # A curator names the API the security fix concerns: apis.json then publishes its kind.
    release = folder / "releases" / "1.2.0.yaml"
    fix = '    summary: {en: "Access tokens are kept out of the debug log."}\n'
    release.write_text(release.read_text(encoding="utf-8").replace(fix, fix + "    apis: [widget.debug_log]\n"))
    site = build(folder)
    html = page_html(site, "releases/1.2.0")
    assert "Access tokens are kept out of the debug log" in html and "Security fix" in html
    schema = json.loads((site / API_SCHEMA).read_text(encoding="utf-8"))
    apis = json.loads((site / "api" / "apis.json").read_text(encoding="utf-8"))
    assert [entry["kind"] for api in apis["apis"] for entry in api["entries"]] == ["security"]
    jsonschema.Draft202012Validator(schema).validate(apis)


def test_validate_names_each_imported_entry_with_its_file_and_line(imported, capsys):
    folder = imported[0]
    main(["--data", str(folder / "releases"), "validate"])
    err = capsys.readouterr().err
    text = (folder / "releases" / "1.2.0.yaml").read_text(encoding="utf-8").splitlines()
    marks = [i for i, line in enumerate(text, 1) if line.strip() == "imported: true"]
    for line in marks:
        assert re.search(rf"releases/1\.2\.0\.yaml:{line}:\d+: warning: .*imported", err)
    # Reviewed (the mark removed everywhere), --strict passes.
    for path in (folder / "releases").rglob("*.yaml"):
        reviewed = re.sub(r"(?m)^ *imported: true\n", "", path.read_text(encoding="utf-8"))
        path.write_text(reviewed, encoding="utf-8")
    assert main(["--data", str(folder / "releases"), "validate", "--strict"]) == 0


def test_an_existing_release_refuses_the_whole_import_unless_skipped(tmp_path, capsys):
    data = new_project(tmp_path)
    changelog = tmp_path / "CHANGELOG.md"
    changelog.write_text(CHANGELOG, encoding="utf-8")
    assert run_import(capsys, data, "keepachangelog", str(changelog))[0] == 0
    before = snapshot(tmp_path)
    changelog.write_text(
        CHANGELOG.replace("## [1.2.0]", "## [1.3.0] - 2024-05-01\n\n### Fixed\n- One more.\n\n## [1.2.0]")
    )
    status, _, err = run_import(capsys, data, "keepachangelog", str(changelog))
    assert status == 1 and "1.2.0.yaml already describes 1.2.0" in err and "nothing was written" in err
    assert snapshot(tmp_path) == {**before, "CHANGELOG.md": changelog.read_bytes()}
    status, out, err = run_import(capsys, data, "keepachangelog", str(changelog), "--skip-existing")
    assert status == 0 and "skipped" in err
    assert sorted(set(snapshot(tmp_path)) - set(before)) == ["releases/1.3.0.yaml"]


def test_a_version_without_a_date_gets_the_placeholder_validate_refuses(tmp_path, capsys):
    data = new_project(tmp_path)
    changelog = tmp_path / "CHANGELOG.md"
    changelog.write_text("# Changelog\n\n## [0.9.0]\n\n### Added\n- Early access.\n", encoding="utf-8")
    status, _, err = run_import(capsys, data, "keepachangelog", str(changelog))
    assert status == 0 and "0.9.0 has no date" in err
    problems = problems_of(data)
    line = line_of((data / "0.9.0.yaml").read_text(encoding="utf-8"), "date: TODO")
    assert any(p.startswith(f"releases/0.9.0.yaml:{line}:") or f"0.9.0.yaml:{line}:" in p for p in problems), problems


def test_a_project_in_several_languages_without_fallback_is_refused_unchanged(tmp_path, capsys):
    data = new_project(tmp_path, ("en", "zh"))
    changelog = tmp_path / "CHANGELOG.md"
    changelog.write_text(CHANGELOG, encoding="utf-8")
    before = snapshot(tmp_path)
    status, _, err = run_import(capsys, data, "keepachangelog", str(changelog))
    assert status == 1 and "untranslated: fallback" in err
    assert snapshot(tmp_path) == before


GITHUB_RELEASES = [
    {
        "url": "https://api.github.com/repos/octo/widget/releases/3",
        "html_url": "https://github.com/octo/widget/releases/tag/v2.1.0",
        "tag_name": "v2.1.0",
        "name": "v2.1.0",
        "draft": True,
        "prerelease": False,
        "created_at": "2024-09-01T10:00:00Z",
        "published_at": None,
        "body": "## Features\n- Not yet published.\n",
    },
    {
        "url": "https://api.github.com/repos/octo/widget/releases/2",
        "html_url": "https://github.com/octo/widget/releases/tag/v2.0.0",
        "tag_name": "v2.0.0",
        "name": "Widget 2: the plugin release",
        "draft": False,
        "prerelease": False,
        "created_at": "2024-08-01T09:00:00Z",
        "published_at": "2024-08-02T12:30:00Z",
        "body": "Plugins arrive.\r\n\r\n## 🚀 Features\r\n- Plugins load from entry points.\r\n\r\n"
        "## 🐛 Bug Fixes\r\n- Exit codes are right again.\r\n\r\n## ⚠ Breaking changes\r\n"
        "- The `--legacy` flag is gone.\r\n\r\n## New Contributors\r\n- @someone made a first contribution\r\n",
    },
    {
        "url": "https://api.github.com/repos/octo/widget/releases/1",
        "html_url": "https://github.com/octo/widget/releases/tag/v1.9.0rc1",
        "tag_name": "v1.9.0rc1",
        "name": "",
        "draft": False,
        "prerelease": True,
        "created_at": "2024-07-01T09:00:00Z",
        "published_at": "2024-07-01T09:05:00Z",
        "body": "- Add a progress bar.\n- Remove the old exporter.\n- Tidy the internals.\n",
    },
]


def test_github_releases_json_drafts_skipped_headings_mapped(tmp_path, capsys):
    data = new_project(tmp_path)
    source = tmp_path / "releases.json"
    source.write_text(json.dumps(GITHUB_RELEASES), encoding="utf-8")
    status, out, err = run_import(capsys, data, "github-releases", str(source))
    assert status == 0, err
    assert "(v2.1.0): a draft, not imported" in err
    assert not (data / "2.1.0.yaml").exists()
    major = release_data(tmp_path, "2.0.0")
    assert str(major["date"]) == "2024-08-02"
    assert major["title"] == {"en": "Widget 2: the plugin release"} and major["summary"] == {"en": "Plugins arrive."}
    assert major["sources"][0]["url"] == "https://github.com/octo/widget/releases/tag/v2.0.0"
    assert {t: e["kind"] for t, e in entries_of(major).items()} == {
        "Plugins load from entry points": "new",
        "Exit codes are right again": "fix",
        "The `--legacy` flag is gone": "breaking",
    }
    heading = line_of(GITHUB_RELEASES[1]["body"], "## New Contributors")  # a heading the import does not map
    assert f"(v2.0.0), body line {heading}: not imported" in err
    assert f"(v2.0.0), body line {heading + 1}: not imported" in err  # and the entry under it
    candidate = release_data(tmp_path, "1.9.0rc1")
    assert {t: e["kind"] for t, e in entries_of(candidate).items()} == {
        "Add a progress bar": "new",
        "Remove the old exporter": "removal",
        "Tidy the internals": "improvement",
    }
    assert problems_of(data) == []


def test_gh_cli_field_names_are_read_too(tmp_path, capsys):
    data = new_project(tmp_path)
    source = tmp_path / "release.json"
    gh_view = {"tagName": "v3.0.0", "name": "", "publishedAt": "2025-01-15T08:00:00Z", "isDraft": False}
    gh_list = {"tagName": "v2.9.0", "name": "", "publishedAt": "2024-12-01T08:00:00Z", "isDraft": False}  # no body
    source.write_text(json.dumps([{**gh_view, "body": "### Fixed\n- A fix.\n"}, gh_list]), encoding="utf-8")
    status, _, err = run_import(capsys, data, "github-releases", str(source), "--area", "core")
    assert status == 0
    assert str(release_data(tmp_path, "3.0.0")["date"]) == "2025-01-15"
    assert release_data(tmp_path, "3.0.0")["features"][0]["area"] == "core"
    assert "(v2.9.0): no body, so no entries (`gh release list --json` gives none" in err
    assert run_import(capsys, data, "github-releases", str(source), "--area", "cor")[0] == 2
    source.write_text("[{not json", encoding="utf-8")
    status, _, err = run_import(capsys, data, "github-releases", str(source))
    assert status == 2 and f"{source}:1:" in err and "nothing was written" in err
