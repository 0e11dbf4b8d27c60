"""`validate --format github|json`: the same problems, as workflow annotations or as data."""

import json

from helpers import fixture_data, line_of
from releasekb.cli import main


def invalid_and_stale_data(tmp_path, capsys):
    """One error (a misspelt stability label in 1.1) and one warning (an English text of 1.0
    edited after its translation was reviewed)."""
    data = fixture_data(tmp_path)
    assert main(["--data", str(data), "translations", "--reviewed", "--all"]) == 0
    capsys.readouterr()
    for name, old, new in (
        ("1.1.yaml", "stability: stable", "stability: stabel"),
        ("1.0.yaml", "title: {en: Widgets", "title: {en: New widgets"),
    ):
        text = (data / name).read_text(encoding="utf-8")
        (data / name).write_text(text.replace(old, new, 1), encoding="utf-8")
    return data


def stale_only_data(tmp_path, capsys):
    data = invalid_and_stale_data(tmp_path, capsys)
    text = (data / "1.1.yaml").read_text(encoding="utf-8")
    (data / "1.1.yaml").write_text(text.replace("stabel", "stable"), encoding="utf-8")
    return data


def test_github_format_prints_errors_as_error_annotations(tmp_path, capsys):
    data = invalid_and_stale_data(tmp_path, capsys)
    assert main(["--data", str(data), "validate", "--format", "github"]) == 1
    out = capsys.readouterr().out.splitlines()
    line = line_of(data / "1.1.yaml", "stabel")
    assert out == [
        f"::error file={data / '1.1.yaml'},line={line},col=16,title=features[0].stability::"
        "'stabel' is not one of stable, experimental (did you mean 'stable'?)"
    ]


def test_github_format_prints_stale_translations_as_warning_annotations(tmp_path, capsys):
    data = stale_only_data(tmp_path, capsys)
    assert main(["--data", str(data), "validate", "--format", "github"]) == 0
    out = capsys.readouterr().out.splitlines()
    annotations = [line for line in out if line.startswith("::")]
    line = line_of(data / "1.0.yaml", "New widgets")
    assert len(annotations) == 1
    assert annotations[0].startswith(f"::warning file={data / '1.0.yaml'},line={line},col=")
    assert ",title=features[0].title.en::the English text changed" in annotations[0]


def test_github_format_is_the_default_under_github_actions(tmp_path, capsys, monkeypatch):
    data = stale_only_data(tmp_path, capsys)
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    assert main(["--data", str(data), "validate", "--strict"]) == 1
    assert capsys.readouterr().out.startswith("::warning file=")


def test_github_annotation_escapes_newlines_and_separators():
    from releasekb.problems import Problem, github_annotation

    problem = Problem("a,b:c.yaml", 3, 4, "title", "50% done\nsecond line")
    expected = "::error file=a%2Cb%3Ac.yaml,line=3,col=4,title=title::50%25 done%0Asecond line"
    assert github_annotation(problem) == expected


def test_json_format_lists_errors_and_warnings(tmp_path, capsys):
    data = stale_only_data(tmp_path, capsys)
    assert main(["--data", str(data), "validate", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["errors"], report["warnings"]) == (0, 1)
    (problem,) = report["problems"]
    assert problem["file"] == str(data / "1.0.yaml")
    assert problem["line"] == line_of(data / "1.0.yaml", "New widgets")
    assert (problem["where"], problem["severity"]) == ("features[0].title.en", "warning")

    data = invalid_and_stale_data(tmp_path / "again", capsys)
    assert main(["--data", str(data), "validate", "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["errors"] == 1
    assert report["problems"][0]["message"].startswith("'stabel' is not one of")


def test_data_folder_can_follow_the_command(tmp_path, capsys):
    """pre-commit appends `args:` after the hook's entry (`releasekb validate --strict`)."""
    data = fixture_data(tmp_path)
    assert main(["validate", "--strict", "--data", str(data)]) == 0
    assert str(data) in capsys.readouterr().out
