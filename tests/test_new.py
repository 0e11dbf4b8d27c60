"""`releasekb new VERSION`: a skeleton from the release before it, refused until filled in."""

import json

import jsonschema
import pytest

from helpers import fill_skeleton, fixture_data, line_of
from releasekb.cli import main
from releasekb.kb.loader import load_document
from releasekb.kb.model import RELEASE_SCHEMA, SCHEMA_COMMENT


def new(data, version, capsys):
    code = main(["--data", str(data), "new", version])
    out, err = capsys.readouterr()
    return code, out + err


def test_skeleton_takes_scheme_and_areas_from_the_latest_earlier_release(tmp_path, capsys):
    data = fixture_data(tmp_path)
    assert new(data, "1.5", capsys)[0] == 0
    text = (data / "1.5.yaml").read_text(encoding="utf-8")
    assert text.splitlines()[0] == SCHEMA_COMMENT
    assert "scheme: stable-experimental  # as in 1.1" in text  # 1.1, not 2.0 (later) nor 1.0 (older)
    assert "# Areas 1.1 used" in text and "#   core: Core\n#   io: Input and output\n" in text
    assert "stability: TODO            # one of stable, experimental;" in text

    assert new(data, "2.1", capsys)[0] == 0
    assert "scheme: stable-beta  # as in 2.0" in (data / "2.1.yaml").read_text(encoding="utf-8")


def test_skeleton_date_and_texts_are_refused_at_their_lines(tmp_path, capsys):
    data = fixture_data(tmp_path)
    new(data, "2.1", capsys)
    path = data / "2.1.yaml"
    assert main(["--data", str(data), "validate"]) == 1
    problems = [line for line in capsys.readouterr().err.splitlines() if line.startswith(str(path))]
    assert problems[0] == (
        f"{path}:{line_of(path, 'date: TODO')}:7: date: still the TODO placeholder from `releasekb new`: "
        "write the release date as YYYY-MM-DD, or YYYY-MM when only the month is known"
    )
    # each placeholder once, and nothing else (not also "'TODO' is not a date")
    assert len(problems) == (path.read_text(encoding="utf-8").count("TODO") - 1)  # one TODO is in a comment
    assert all("still the TODO placeholder" in line for line in problems)


def test_filled_skeleton_validates(tmp_path, capsys):
    data = fixture_data(tmp_path)
    new(data, "2.1", capsys)
    fill_skeleton(data / "2.1.yaml")
    assert main(["--data", str(data), "validate", "--strict"]) == 0, capsys.readouterr().err


def test_existing_version_is_refused_and_left_alone(tmp_path, capsys):
    data = fixture_data(tmp_path)
    before = (data / "1.1.yaml").read_bytes()
    code, output = new(data, "1.1", capsys)
    assert code == 1
    assert f"releasekb new: {data / '1.1.yaml'} already exists: version 1.1 is in the data" in output
    assert (data / "1.1.yaml").read_bytes() == before


@pytest.mark.parametrize("version", ["one.two", "1..8", ""])
def test_malformed_version_is_a_usage_error(tmp_path, capsys, version):
    data = fixture_data(tmp_path)
    code, output = new(data, version, capsys)
    assert code == 2 and "is not a version like 1.8" in output
    assert sorted(p.name for p in data.glob("*.yaml")) == ["1.0.yaml", "1.1.yaml", "2.0.yaml", "project.yaml"]


def test_editor_schema_flags_the_skeleton_and_accepts_it_filled(tmp_path, capsys):
    """What the YAML language server does with the first line: check the file against the schema
    (it also offers the schema's keys and enums as completions)."""
    data = fixture_data(tmp_path)
    new(data, "2.1", capsys)
    path = data / "2.1.yaml"
    schema = json.loads((data / RELEASE_SCHEMA).read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    flagged = {tuple(error.absolute_path) for error in validator.iter_errors(load_document(path)[0].data)}
    assert {("date",), ("sources", 0, "url"), ("features", 0, "id"), ("features", 0, "stability")} <= flagged
    properties = schema["$defs"]["FeatureEntry"]["properties"]
    assert properties["area"]["enum"] == ["core", "io"]  # completions come from project.yaml

    fill_skeleton(path)
    assert list(validator.iter_errors(load_document(path)[0].data)) == []


def test_a_version_written_as_its_file_name_is_accepted(tmp_path, capsys):
    data = fixture_data(tmp_path)
    assert new(data, "2.1.yaml", capsys)[0] == 0
    assert (data / "2.1.yaml").is_file() and not (data / "2.1.yaml.yaml").exists()
    assert 'version: "2.1"' in (data / "2.1.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "command",
    [["new", "1.8"], ["schema"], ["schema", "--check"], ["validate"], ["query"], ["contract"], ["translations"]],
    ids=" ".join,
)
def test_a_folder_without_project_yaml_points_at_init(tmp_path, capsys, command):
    """A fresh, empty data folder: every command says what is missing and how to start, with no
    traceback and nothing written."""
    data = tmp_path / "releases"
    data.mkdir()
    code = main(["--data", str(data), *command])
    err = capsys.readouterr().err
    assert code == 1, err
    assert err.splitlines()[0] == (
        f"{data / 'project.yaml'}:1:1: (document): file not found: every data folder needs a project.yaml "
        "with the vocabularies; start a knowledge base with `releasekb init --product NAME`, or pass --data"
    )
    assert list(data.iterdir()) == []


def test_no_data_folder_at_all_points_at_init(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--data", str(tmp_path / "releases"), "new", "1.8"])
    assert exit_info.value.code == 2
    assert "start a knowledge base with `releasekb init --product NAME`" in capsys.readouterr().err
