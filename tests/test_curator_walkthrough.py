"""The path a new curator takes, end to end, through the commands they would type:
`new` -> fill in (the schema the editor reads accepts it) -> mark the new release reviewed ->
edit an English summary -> stale warning and the note on the Chinese page -> mark it reviewed ->
the deploy workflow's build step passes, with MkDocs and (in CI) with ProperDocs."""

import json
import sys
from pathlib import Path

import jsonschema

from helpers import FIXTURE_RELEASES, copy_project, fill_skeleton, line_of, run_deploy_build, run_releasekb
from releasekb.kb.loader import load_document

NOTE = "此译文可能已过时"


def fast_reader_section(site: Path) -> str:
    """The fast-reader entry of the Chinese release page, up to the next heading."""
    page = (site / "zh" / "releases" / "2.1" / "index.html").read_text(encoding="utf-8")
    start = page.index('id="fast-reader"')
    return page[start : page.index("<h", start + 1)]


def test_new_release_to_reviewed_translation_to_deploy_build(tmp_path, properdocs_venv_if_ci):
    project = copy_project(tmp_path / "project", FIXTURE_RELEASES)
    release = project / "releases" / "2.1.yaml"

    assert run_releasekb(project, "new", "2.1").returncode == 0
    refused = run_releasekb(project, "validate")
    assert refused.returncode == 1 and f"releases/2.1.yaml:{line_of(release, 'date: TODO')}:7: date:" in refused.stderr

    fill_skeleton(release)
    schema = json.loads((project / "releases" / "release.schema.json").read_text(encoding="utf-8"))
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(load_document(release)[0].data)) == []
    assert run_releasekb(project, "validate", "--strict").returncode == 0
    marked = run_releasekb(project, "translations", "--reviewed", "releases/2.1.yaml")
    assert marked.returncode == 0 and "marked" in marked.stdout

    text = release.read_text(encoding="utf-8")
    release.write_text(text.replace("twice as fast", "three times as fast"), encoding="utf-8")
    warned = run_releasekb(project, "validate")
    line = line_of(release, "three times as fast")
    assert warned.returncode == 0
    assert f"releases/2.1.yaml:{line}:19: warning: features[0].summary.en:" in warned.stderr
    assert "review features[0].summary.zh" in warned.stderr
    assert run_releasekb(project, "validate", "--strict").returncode == 1

    built = run_deploy_build(project, Path(sys.prefix))  # MkDocs, the README's install
    assert built.returncode == 0, built.stderr
    assert NOTE in fast_reader_section(project / "site")
    english = (project / "site" / "releases" / "2.1" / "index.html").read_text(encoding="utf-8")
    assert "rkb-outdated" not in english

    assert run_releasekb(project, "translations", "--reviewed", "fast-reader").returncode == 0
    assert run_releasekb(project, "validate", "--strict").returncode == 0
    (project / ".venv").unlink()
    built = run_deploy_build(project, properdocs_venv_if_ci or Path(sys.prefix))
    assert built.returncode == 0, built.stderr
    assert NOTE not in fast_reader_section(project / "site")
