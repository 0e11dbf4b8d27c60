"""Notes (issue 38): one entry of the next release per file in releases/unreleased/, `releasekb add`,
`validate` reading them as the next release, `serve`'s preview, `releasekb release` (atomic), and
`releasekb notes --check` on a branch of a git repository."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
import yaml

from helpers import FIXTURE_RELEASES, ROOT, build, copy_project, fixture_data, line_of
from releasekb.cli import main
from releasekb.common.problems import DataError
from releasekb.kb import releasing
from releasekb.kb.model import SCHEMA_COMMENT
from releasekb.kb.notes import JOURNAL, NotesAs
from releasekb.kb.pipeline import load_knowledge_base
from releasekb.kb.validate import read_files
from releasekb.site.render import render_pages

# A feature that continues 2.0's `widget-colours` (its level changes), a new one, and a change.
PROMOTED = """id: widget-colours
kind: improvement
name: {en: Coloured widgets, zh: 彩色小部件}
area: core
stability: stable
title: {en: Coloured widgets are stable, zh: 彩色小部件已稳定}
summary: {en: Widget colours no longer change., zh: 小部件的颜色接口不再变化。}
"""
NEW_WRITER = """# written by hand
id: fast-writer
area: io
stability: beta
title: {en: A fast writer, zh: 快速写入器}
summary:
  en: |
    Writes files in one call.

    Twice as fast.
  zh: 一次调用写入文件。
"""
DEPRECATED = """id: widgets
kind: deprecation
area: core
title: {en: Plain widgets are deprecated, zh: 普通小部件已弃用}
summary: {en: Coloured widgets replace them., zh: 彩色小部件取代了它们。}
migration: {en: Use coloured widgets., zh: 请改用彩色小部件。}
"""


def write_notes(data: Path, notes: dict[str, str]) -> Path:
    folder = data / "unreleased"
    folder.mkdir(exist_ok=True)
    for name, text in notes.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def command(data: Path, capsys, *arguments: str) -> tuple[int, str, str]:
    code = main(["--data", str(data), *arguments])
    out, err = capsys.readouterr()
    return code, out, err


def next_release(data: Path):
    return load_knowledge_base(read_files(data, with_notes=NotesAs())).catalog


# ----------------------------------------------------------------- add


def test_add_writes_a_commented_note_whose_todos_validate_refuses_at_their_lines(tmp_path, capsys):
    data = fixture_data(tmp_path)
    code, out, _ = command(data, capsys, "add", "--feature", "--id", "widget-colours", "--area", "core")
    path = data / "unreleased" / "widget-colours.yaml"
    assert code == 0 and str(path) in out
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# A note: one entry of the next release")
    assert "id: widget-colours  # continues the feature of release 2.0" in text
    assert "stability: TODO  # one of stable, beta;" in text  # 2.0's scheme, the latest
    code, _, err = command(data, capsys, "validate")
    assert code == 1
    problems = [line for line in err.splitlines() if line.startswith(str(path))]
    assert f"{path}:{line_of(path, 'title:')}:13: title.en: still the TODO placeholder" in err
    assert len(problems) == text.count("TODO") - 1  # one TODO is in the comment at the top
    # filled in, it is a valid entry of the next release
    filled = {"stability: TODO": "stability: stable", '"TODO: feature title"': "Stable colours"}
    filled |= {'"TODO：特性标题"': "稳定的颜色", '"TODO: what it does and why it matters."': "They stay."}
    filled |= {'"TODO：它做什么、为什么重要。"': "不再变化。"}
    for old, new in filled.items():
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    # the next release is a second release of the feature, which no release named: its name
    name = 'name: {en: "TODO: the feature\'s own name", zh: "TODO：特性本身的名称"}\n'
    assert name in text
    path.write_text(text.replace(name, ""), encoding="utf-8")
    code, _, err = command(data, capsys, "validate")
    # the message calls the next release by what it is, never by the preview's made-up version
    assert code == 1 and "appears in 2.0, the next release (the notes): give one" in err
    path.write_text(text.replace(name, "name: {en: Coloured widgets, zh: 彩色小部件}\n"), encoding="utf-8")
    assert command(data, capsys, "validate")[0] == 0


def test_add_refuses_what_the_data_does_not_allow_and_writes_nothing(tmp_path, capsys):
    data = fixture_data(tmp_path)
    code, _, err = command(data, capsys, "add", "--change", "deprecation", "--id", "widget-colour", "--area", "core")
    assert code == 2
    assert "no feature 'widget-colour' in any release (did you mean 'widget-colours'?)" in err
    assert "nothing was written" in err
    code, _, err = command(data, capsys, "add", "--feature", "--id", "fast-writer", "--area", "ios")
    assert code == 2 and "--area 'ios' is not one of core, io (did you mean 'io'?)" in err
    assert not (data / "unreleased").exists()
    assert command(data, capsys, "add", "--change", "breaking", "--id", "py2", "--standalone")[0] == 0
    assert "standalone: true" in (data / "unreleased" / "py2.yaml").read_text(encoding="utf-8")
    code, _, err = command(data, capsys, "add", "--feature", "--id", "py2")
    assert code == 1 and "py2.yaml already exists" in err


# ----------------------------------------------------------------- validate and the preview


def test_validate_checks_notes_as_entries_of_the_next_release(tmp_path, capsys):
    data = fixture_data(tmp_path)
    folder = write_notes(
        data,
        {
            # an area, a label of the release's scheme (2.0's, the latest), a missing translation
            "vocabulary.yaml": NEW_WRITER.replace("area: io", "area: ios")
            .replace("stability: beta", "stability: experimental")
            .replace("  zh: 一次调用写入文件。\n", ""),
            # two notes with one id
            "one.yaml": PROMOTED,
            "two.yaml": PROMOTED,
        },
    )
    code, _, err = command(data, capsys, "validate")
    assert code == 1
    vocabulary = folder / "vocabulary.yaml"
    expected = [
        f"{vocabulary}:{line_of(vocabulary, 'area:')}:7: area: 'ios' is not one of core, io (did you mean 'io'?)",
        f"{vocabulary}:{line_of(vocabulary, 'stability:')}:12: stability: 'experimental' is not one of stable, beta",
        f"{vocabulary}:{line_of(vocabulary, 'en: |')}:3: summary.zh: missing the 'zh' text",
        f"{folder / 'two.yaml'}:1:5: id: 'widget-colours' is also the id of {folder / 'one.yaml'}",
    ]
    for start in expected:
        assert any(line.startswith(start) for line in err.splitlines()), (start, err)
    assert "-unreleased" not in err  # never the composed file, nor the preview's version

    # once every note is an entry, the rules that look across releases
    for path in folder.iterdir():
        path.unlink()
    write_notes(
        data,
        {
            # a change of a mistyped feature: the nearest id, at the note's own line
            "typo.yaml": DEPRECATED.replace("id: widgets", "id: widgetz"),
            # a removed feature does not come back
            "back.yaml": NEW_WRITER.replace("fast-writer", "old-reader"),
            # the glossary: widget is 小部件, never 挂件
            "glossary.yaml": NEW_WRITER.replace("A fast writer", "A fast widget").replace("快速写入器", "快速挂件"),
        },
    )
    code, _, err = command(data, capsys, "validate")
    assert code == 1
    typo, back, glossary = folder / "typo.yaml", folder / "back.yaml", folder / "glossary.yaml"
    assert f"{typo}:1:5: id: no feature 'widgetz' in this or an earlier release (did you mean 'widgets'?)" in err
    assert f"{back}:{line_of(back, 'id:')}:5: id: " in err and "old-reader" in err
    assert f"{glossary}:{line_of(glossary, 'title:')}:" in err and "挂件" in err
    assert "-unreleased" not in err


def test_an_existing_id_continues_its_lifecycle_in_a_preview_only_serve_shows(tmp_path):
    data = fixture_data(tmp_path)
    write_notes(data, {"widget-colours.yaml": PROMOTED, "fast-writer.yaml": NEW_WRITER})
    catalog = next_release(data)
    preview = catalog.releases[-1]
    assert preview.preview and preview.version == "2.0-unreleased"
    assert not any(release.preview for release in catalog.releases[:-1])
    feature = catalog.features["widget-colours"]
    assert [entry.release.version for entry in feature.entries] == ["2.0", "2.0-unreleased"]
    assert feature.entries[-1].level.key == "stable"  # beta in 2.0, stable in the next release
    page = render_pages(catalog, "zh", only={"releases/2.0-unreleased.md"}).texts["releases/2.0-unreleased.md"]
    assert 'class="admonition danger rkb-preview"' in page and "预览：尚未发布" in page
    assert "rkb-preview" not in render_pages(catalog, "zh", only={"releases/2.0.md"}).texts["releases/2.0.md"]
    # what a published build reads: no note
    published = load_knowledge_base(read_files(data)).catalog
    assert [release.version for release in published.releases][-1] == "2.0"
    assert "fast-writer" not in published.features


@pytest.fixture(scope="module")
def published_with_notes(tmp_path_factory) -> Path:
    """A site built with `releasekb build` (no --unreleased) from data with notes."""
    project = copy_project(tmp_path_factory.mktemp("published"), FIXTURE_RELEASES)
    write_notes(project / "releases", {"fast-writer.yaml": NEW_WRITER})
    return build(project)


def test_build_leaves_the_notes_out_unless_asked(published_with_notes):
    site = published_with_notes
    assert (site / "releases" / "2.0" / "index.html").is_file()
    assert not (site / "releases" / "2.0-unreleased").exists()
    assert not (site / "features" / "fast-writer").exists()
    assert "fast-writer" not in (site / "features" / "index.html").read_text(encoding="utf-8")


# ----------------------------------------------------------------- release


def files_of(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_release_folds_every_note_into_a_sorted_release_file_and_removes_them(tmp_path, capsys):
    data = fixture_data(tmp_path)
    write_notes(data, {"a.yaml": DEPRECATED, "b.yaml": NEW_WRITER, "c.yaml": PROMOTED})
    code, out, _ = command(data, capsys, "release", "2.1", "--date", "2021-06-01")
    assert code == 0 and "from 3 notes" in out
    path = data / "2.1.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.splitlines()[0] == SCHEMA_COMMENT
    assert not list((data / "unreleased").iterdir())
    release = yaml.safe_load(text)
    assert (release["version"], str(release["date"]), release["scheme"]) == ("2.1", "2021-06-01", "stable-beta")
    # by area as project.yaml lists them (core, io), then kind, then id; changes apart
    assert [entry["id"] for entry in release["features"]] == ["widget-colours", "fast-writer"]
    assert [entry["id"] for entry in release["changes"]] == ["widgets"]
    assert "# written by hand" not in text and "    Twice as fast.\n" in text  # a block text kept whole
    assert "  - id: widget-colours\n" in text  # as a curator writes an entry
    lock = json.loads((data / "translations.lock").read_text(encoding="utf-8"))["zh"]
    texts = [yaml.safe_load(note) for note in (DEPRECATED, NEW_WRITER, PROMOTED)]
    recorded = {f"2.1:{note['id']}.{key}" for note in texts for key, value in note.items() if isinstance(value, dict)}
    assert {key for key in lock if key.startswith("2.1:")} == recorded
    # the release's own title and summary are the curator's to write
    code, _, err = command(data, capsys, "validate")
    assert code == 1 and all("still the TODO placeholder" in line for line in err.splitlines()[:-1])
    text = text.replace('"TODO: a short headline"', "Acme 2.1").replace('"TODO：一句话标题"', "Acme 2.1 版本")
    text = text.replace('"TODO: what this release brought, in two to four sentences of your own."', "Stable.")
    text = text.replace('"TODO：用两到四句话概括这个版本带来了什么。"', "稳定。")
    path.write_text(text, encoding="utf-8")
    assert command(data, capsys, "validate", "--strict")[0] == 0


def test_release_refuses_an_invalid_note_or_an_existing_version_and_changes_nothing(tmp_path, capsys):
    data = fixture_data(tmp_path)
    write_notes(data, {"a.yaml": DEPRECATED.replace("id: widgets", "id: widgetz"), "b.yaml": NEW_WRITER})
    before = files_of(data)
    code, _, err = command(data, capsys, "release", "2.1")
    assert code == 1 and "did you mean 'widgets'?" in err and "nothing was changed" in err
    assert files_of(data) == before
    code, _, err = command(data, capsys, "release", "2.0")
    assert code == 1 and "2.0.yaml already exists" in err
    code, _, err = command(data, capsys, "release", "2.1", "--date", "June")
    assert code == 2 and "is not a date" in err
    assert files_of(data) == before


class Crash(BaseException):
    """An interruption: a kill, a power cut (no handler of the command catches it)."""


def state(data: Path, notes: list[str]) -> str:
    """Which of the two states the data is in, as every command reads it (a journal's pending
    release counted as its reader counts it), and on disk once the next command finished it."""
    released = (data / "2.1.yaml").is_file()
    read = read_files(data, with_notes=NotesAs())
    unreleased = tuple(sorted(Path(p).name for p in read.notes.paths)) if read.notes is not None else ()
    seen = {(True, ()): "release", (False, tuple(sorted(notes))): "notes"}.get(
        (released, unreleased), "both or neither"
    )
    releasing.finish_interrupted(data)
    left = tuple(sorted(p.name for p in (data / "unreleased").iterdir()))
    on_disk = {(True, ()): "release", (False, tuple(sorted(notes))): "notes"}.get((released, left), "both or neither")
    assert seen == on_disk, (seen, on_disk)
    return seen


def _crash_on_second(original):
    calls = []

    def remove(path):
        calls.append(path)
        if len(calls) == 2:
            raise Crash
        original(path)

    return remove


@pytest.mark.parametrize(
    ("where", "expected"),
    [
        ("journal", "notes"),  # before anything
        ("release file", "notes"),  # the release file not yet renamed into place
        ("second note", "release"),  # the release written, one note of two removed
        ("journal removed", "release"),  # everything done but the journal's removal
    ],
)
def test_an_interrupted_release_leaves_the_notes_or_the_release_never_both_nor_neither(
    tmp_path, monkeypatch, where, expected
):
    data = fixture_data(tmp_path)
    notes = ["b.yaml", "c.yaml"]
    write_notes(data, {"b.yaml": NEW_WRITER, "c.yaml": PROMOTED})
    journal = data / "unreleased" / JOURNAL
    if where == "journal":
        monkeypatch.setattr(releasing.atomic, "write_text", lambda path, text: (_ for _ in ()).throw(Crash()))
    elif where == "release file":
        monkeypatch.setattr(releasing.atomic, "write_files", lambda files: (_ for _ in ()).throw(Crash()))
    elif where == "second note":
        monkeypatch.setattr(releasing, "remove_note", _crash_on_second(releasing.remove_note))
    else:
        real_unlink = Path.unlink

        def unlink(path, missing_ok=False):
            if path == journal:
                raise Crash
            real_unlink(path, missing_ok=missing_ok)

        monkeypatch.setattr(Path, "unlink", unlink)
    with pytest.raises(Crash):
        releasing.release(data, "2.1", "2021-06-01")
    monkeypatch.undo()
    assert state(data, notes) == expected
    assert not journal.exists()
    if expected == "release":  # and the data is whole: the release holds both notes
        released = yaml.safe_load((data / "2.1.yaml").read_text(encoding="utf-8"))
        assert {entry["id"] for entry in released["features"]} == {"fast-writer", "widget-colours"}


# ----------------------------------------------------------------- the pull-request check


def git(repo: Path, *arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["git", "-c", "user.name=Curator", "-c", "user.email=curator@example.org", *arguments],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    )


def commit(repo: Path, files: dict[str, str], message: str) -> None:
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text, encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", message)


@pytest.fixture
def repo(tmp_path) -> Path:
    """A product's repository: its code in src/, its knowledge base in releases/, on main."""
    repository = tmp_path / "product"
    repository.mkdir()
    data = fixture_data(repository)
    assert data.parent == repository and data.name == "releases"
    project = data / "project.yaml"
    project.write_text(
        project.read_text(encoding="utf-8") + '\nnotes:\n  required_for: ["src/*"]\n  skip_label: trivial\n',
        encoding="utf-8",
    )
    git(repository, "init", "-q", "-b", "main")
    commit(repository, {"src/acme.py": "VERSION = 1\n", "README.md": "Acme\n"}, "Acme")
    return repository


def check(repo: Path, capsys, *arguments: str) -> tuple[int, str]:
    cwd = os.getcwd()
    os.chdir(repo)
    try:
        code = main(["notes", "--check", "--base", "main", *arguments])
    finally:
        os.chdir(cwd)
    out, err = capsys.readouterr()
    return code, out + err


def test_the_check_fails_a_branch_that_changes_code_without_a_note_and_names_the_command(repo, capsys):
    git(repo, "checkout", "-qb", "no-note")
    commit(repo, {"src/acme.py": "VERSION = 2\n"}, "Faster")
    code, said = check(repo, capsys)
    assert code == 1
    assert said.count("\n") == 1  # one sentence
    assert "this branch changes src/acme.py but adds no note under releases/unreleased/" in said
    assert "`releasekb add --feature --id ID --area AREA`" in said
    # the opt-outs: the label the CI passes, by option or environment, or the commit message's marker
    assert check(repo, capsys, "--labels", "bug,trivial")[0] == 0
    assert check(repo, capsys, "--labels", "bug")[0] == 1
    os.environ["RELEASEKB_LABELS"] = "trivial"
    try:
        assert check(repo, capsys)[0] == 0
    finally:
        del os.environ["RELEASEKB_LABELS"]
    commit(repo, {"src/other.py": "pass\n"}, "Tidy up [skip notes]")
    code, said = check(repo, capsys)
    assert code == 0 and "[skip notes]" in said


def test_two_branches_add_notes_without_a_conflict_and_each_passes(repo, capsys):
    for branch, note in (("writer", ("fast-writer", NEW_WRITER)), ("colours", ("widget-colours", PROMOTED))):
        git(repo, "checkout", "-q", "main")
        git(repo, "checkout", "-qb", branch)
        commit(repo, {f"src/{branch}.py": "pass\n", f"releases/unreleased/{note[0]}.yaml": note[1]}, branch)
        code, said = check(repo, capsys)
        assert code == 0 and f"releases/unreleased/{note[0]}.yaml" in said
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-edit", "writer")
    git(repo, "merge", "-q", "--no-edit", "colours")  # check=True: no conflict
    data = repo / "releases"
    assert {entry.id for entry in next_release(data).releases[-1].entries} == {"fast-writer", "widget-colours"}
    # `release` removes tracked notes with git rm: the removal is staged for the next commit
    assert main(["--data", str(data), "release", "2.1", "--date", "2021-06-01"]) == 0
    status = git(repo, "status", "--porcelain").stdout
    assert "D  releases/unreleased/fast-writer.yaml" in status
    assert "D  releases/unreleased/widget-colours.yaml" in status


def test_the_check_passes_what_needs_no_note_and_explains_a_base_it_cannot_find(repo, capsys):
    git(repo, "checkout", "-qb", "docs")
    commit(repo, {"README.md": "Acme, the widget library\n"}, "Docs")
    assert check(repo, capsys) == (0, "releasekb notes: the branch changes no file that needs a note\n")
    code, said = check(repo, capsys, "--base", "origin/nowhere")
    assert code == 2 and "is 'origin/nowhere' a branch git knows here?" in said and "fetch-depth: 0" in said


def test_init_writes_the_workflow_step_and_the_pre_commit_hook_and_the_readme_shows_both(tmp_path, capsys):
    folder = tmp_path / "kb"
    assert main(["init", str(folder), "--product", "Acme"]) == 0
    capsys.readouterr()
    workflow = (folder / ".github" / "workflows" / "notes.yml").read_text(encoding="utf-8")
    steps = yaml.safe_load(workflow)["jobs"]["notes"]["steps"]
    check_step = steps[-1]
    assert check_step["run"] == '.venv/bin/releasekb notes --check --base "$BASE"'
    # labels reach the command through the environment, never inside its text
    assert "${{" not in check_step["run"] and "RELEASEKB_LABELS" in check_step["env"]
    assert steps[0]["with"]["fetch-depth"] == 0
    hooks = yaml.safe_load((folder / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    hook = next(h for h in hooks["repos"][0]["hooks"] if h["id"] == "releasekb-notes")
    assert hook["entry"] == "releasekb notes --check --base origin/main" and hook["stages"] == ["pre-push"]
    assert "pre-push" in hooks["default_install_hook_types"]
    project = yaml.safe_load((folder / "releases" / "project.yaml").read_text(encoding="utf-8"))
    assert project["notes"]["required_for"] == ["src/*", "acme/*"]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert check_step["run"] in readme and "id: releasekb-notes" in readme
    published = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert any(h["id"] == "releasekb-notes" and h["stages"] == ["pre-push"] for h in published)
    # and the knowledge base init wrote takes notes at once
    assert main(["--data", str(folder / "releases"), "add", "--feature", "--id", "first", "--area", "core"]) == 0


def test_a_note_that_is_no_entry_is_named(tmp_path):
    data = fixture_data(tmp_path)
    write_notes(data, {"list.yaml": "- id: a\n", "bad.yaml": "id: [\n"})
    with pytest.raises(DataError) as raised:
        next_release(data)
    said = "\n".join(map(str, raised.value.problems))
    assert f"{data / 'unreleased' / 'list.yaml'}:1:1: (document): a note is one entry of a release" in said
    assert f"{data / 'unreleased' / 'bad.yaml'}:" in said and "YAML syntax" in said


def test_release_leaves_out_the_help_add_wrote_but_never_a_text_that_looks_like_it(tmp_path, capsys):
    data = fixture_data(tmp_path)
    assert command(data, capsys, "add", "--feature", "--id", "fast-writer", "--area", "io")[0] == 0
    path = data / "unreleased" / "fast-writer.yaml"
    text = path.read_text(encoding="utf-8").replace("stability: TODO", "stability: beta")
    text = text.replace('"TODO: feature title"', "A fast writer").replace('"TODO：特性标题"', "快速写入器")
    summary = 'summary: {en: "TODO: what it does and why it matters.", zh: "TODO：它做什么、为什么重要。"}'
    assert summary in text
    text = text.replace(summary, "summary:\n  en: |\n    Call it  # e.g. write(x)\n  zh: 一次调用写入文件。")
    path.write_text(text, encoding="utf-8")
    assert command(data, capsys, "release", "2.1")[0] == 0
    written = (data / "2.1.yaml").read_text(encoding="utf-8")
    assert "Call it  # e.g. write(x)" in written  # the text as its author wrote it
    (data / "2.1.yaml").unlink()
    path.write_text(text.replace("  # e.g. write(x)", ""), encoding="utf-8")
    assert command(data, capsys, "release", "2.1")[0] == 0
    written = (data / "2.1.yaml").read_text(encoding="utf-8")
    assert "  - id: fast-writer\n    kind: new\n    area: io\n" in written  # add's help left out
    assert "releasekb add" not in written and "apis: []" not in written


def test_a_note_may_mark_its_document_and_keeps_its_lines(tmp_path, capsys):
    data = fixture_data(tmp_path)
    # a digit in its name: the notes' folder is theirs, no misnamed release file
    folder = write_notes(data, {"writer-2.yaml": "---\n" + NEW_WRITER.replace("area: io", "area: ios") + "...\n"})
    code, _, err = command(data, capsys, "validate")
    path = folder / "writer-2.yaml"
    assert code == 1 and f"{path}:{line_of(path, 'area:')}:7: area: 'ios' is not one of core, io" in err
    path.write_text(path.read_text(encoding="utf-8").replace("ios", "io"), encoding="utf-8")
    code, out, err = command(data, capsys, "validate", "--strict")
    assert code == 0 and "(the next release among them: 1 note in unreleased/)" in out
    assert "is not read" not in err
