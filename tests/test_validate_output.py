"""`validate --format github|json`: the same problems, as workflow annotations or as data."""

import json

import pytest

from helpers import fixture_data, line_of
from releasekb.cli import main
from releasekb.common.problems import Problem, json_report
from releasekb.common.safe_text import unsafe_character, visible


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
    from releasekb.common.problems import Problem, github_annotation

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


# A value that starts a GitHub workflow command on its own line, and retitles a terminal.
HOSTILE = "1.1\n::error::injected\x1b]0;pwned\x07"


@pytest.mark.parametrize("output", ["text", "github", "json"])
def test_no_output_prints_a_control_character_or_lets_a_value_start_a_line(tmp_path, capsys, output):
    """The loader refuses control characters in values; a file name still has them, and every
    problem about the file quotes it."""
    data = fixture_data(tmp_path)
    (data / "1.1.yaml").rename(data / f"{HOSTILE}.yaml")
    assert main(["--data", str(data), "validate", "--format", output]) == 1
    captured = capsys.readouterr()
    printed = captured.out + captured.err
    assert unsafe_character(printed, block=True) is None, printed
    lines = printed.splitlines()
    commands = [line for line in lines if line.startswith("::")]
    assert commands == ([lines[0]] if output == "github" else []), printed
    if output == "json":
        (problem,) = json.loads(captured.out)["problems"]
        assert problem["file"] == visible(str(data / f"{HOSTILE}.yaml"))
        assert visible(HOSTILE) in problem["message"]
    else:
        assert "1.1\\n::error::injected\\x1b]0;pwned\\x07" in printed


def test_a_problem_quoting_a_value_prints_it_visible_on_its_line():
    problem = Problem("::1.1.yaml", 3, 4, "title.en", f"'{HOSTILE}' is not ...")
    assert str(problem) == " ::1.1.yaml:3:4: title.en: '1.1\\n::error::injected\\x1b]0;pwned\\x07' is not ..."
    (reported,) = json.loads(json_report([problem]))["problems"]
    assert reported["message"] == "'1.1\\n::error::injected\\x1b]0;pwned\\x07' is not ..."
