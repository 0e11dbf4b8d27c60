"""`[tool.releasekb.check]` in the checked project's pyproject.toml: the options a team always
passes, with the command line winning, and a wrong key named with its file and line."""

from __future__ import annotations

import json
import os

import pytest

from helpers import run_check, write_tree

CODE = "import torch\n\nspectrum = torch.fft(signal, 1)\nmethod = torch.Tensor.masked_copy_\n"
CONFIG = """[project]
name = "signals"

[tool.releasekb.check]
from = "1.4"
to = "1.5"
fail-on = ["removed", "breaking"]
max-stability = "beta"
exclude = ["generated"]
baseline = "releasekb-baseline.json"
show-in-effect = true
"""


def report(capsys, *args: str) -> tuple[int, dict]:
    status, out, err = run_check(capsys, *args, "--format", "json")
    assert status in (0, 1), err
    return status, json.loads(out)


def test_the_projects_pyproject_sets_the_options(checked_project, capsys):
    write_tree(checked_project, {"pyproject.toml": CONFIG.replace("baseline", "# baseline"), "src/a.py": CODE})
    write_tree(checked_project, {"src/generated/b.py": CODE})
    status, document = report(capsys, "src")
    assert (document["from"], document["to"], document["max_stability"]) == ("1.4", "1.5", "beta")
    assert document["fail_on"] == ["breaking", "removed"] and status == 0  # deprecations do not fail it
    assert {finding["path"] for finding in document["findings"]} == {"src/a.py"}  # generated/ excluded
    # show-in-effect = true lists masked_copy_, deprecated in 0.2 (issue 37)
    assert document["in_effect_at_from"]["listed"] is True and document["findings"][0]["in_effect_at_from"]


def test_the_command_line_wins_over_the_file(checked_project, capsys):
    write_tree(
        checked_project, {"pyproject.toml": CONFIG.replace("baseline", "# baseline"), "src/generated/b.py": CODE}
    )
    status, document = report(capsys, "src", "--to", "1.7", "--fail-on", "deprecated", "--exclude", "nothing")
    assert (document["from"], document["to"], document["fail_on"]) == ("1.4", "1.7", ["deprecated"])
    assert status == 1 and {finding["path"] for finding in document["findings"]} == {"src/generated/b.py"}


def test_the_baseline_is_read_from_the_files_folder_whatever_the_current_directory(checked_project, capsys):
    write_tree(checked_project, {"pyproject.toml": CONFIG, "src/a.py": CODE})
    run_check(capsys, "src", "--to", "1.7", "--write-baseline", "releasekb-baseline.json")
    os.chdir(checked_project / "src")
    status, document = report(capsys, ".", "--to", "1.7", "--fail-on", "deprecated")
    assert status == 0 and document["findings"] == [] and document["baselined"] == 2


def test_the_nearest_pyproject_at_or_above_the_checked_folder_counts_and_no_higher_than_the_repository(
    checked_project, tmp_path, capsys
):
    outside = tmp_path / "pyproject.toml"  # above the repository's root (`.git`): never read
    outside.write_text('[tool.releasekb.check]\nto = "0.2"\n', encoding="utf-8")
    write_tree(
        checked_project,
        {
            "pyproject.toml": '[tool.releasekb.check]\nto = "1.5"\n',
            "sub/pyproject.toml": '[project]\nname = "sub"\n',  # the nearest: it sets nothing
            "sub/pkg/a.py": CODE,
            "other/a.py": CODE,
        },
    )
    assert report(capsys, "sub/pkg")[1]["to"] == "1.7"
    assert report(capsys, "other")[1]["to"] == "1.5"
    os.chdir(checked_project / "other")  # the current directory does not matter
    assert report(capsys, "../sub/pkg/a.py")[1]["to"] == "1.7"
    (checked_project / "pyproject.toml").unlink()
    assert report(capsys, ".")[1]["to"] == "1.7"  # the file above the repository is not read


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '[project]\nname = "x"\n\n[tool.releasekb.check]\nfrom = "1.4"\nfail_on = "none"\n',
            "pyproject.toml:6: [tool.releasekb.check]: unknown key 'fail_on' (did you mean 'fail-on'?) "
            "(known: from, to, exclude, fail-on, max-stability, baseline, show-in-effect)",
        ),
        (
            '[tool.releasekb.chek]\nfrom = "1.4"\n',
            "pyproject.toml:1: [tool.releasekb]: unknown key 'chek' (did you mean 'check'?)",
        ),
        (
            "[tool.releasekb.check]\nfrom = 1.4\n",
            """pyproject.toml:2: [tool.releasekb.check]: 'from' must be a string in quotes (a version is a string"""
            """ too: from = "1.4"), not 1.4""",
        ),
        (
            "[tool.releasekb.check]\nexclude = [1]\n",
            "pyproject.toml:2: [tool.releasekb.check]: 'exclude' must be a string or a list of strings",
        ),
        ('[tool.releasekb]\ncheck = "1.4"\n', "pyproject.toml: [tool.releasekb.check] must be a table of options"),
    ],
)
def test_a_wrong_configuration_is_wrong_usage_naming_file_line_and_key(checked_project, capsys, text, message):
    write_tree(checked_project, {"pyproject.toml": text, "a.py": CODE})
    status, out, err = run_check(capsys, ".")
    assert status == 2 and out == ""
    assert f"releasekb check: {checked_project}/{message}" in err, err


def test_a_value_from_the_file_is_checked_like_the_option_and_the_error_says_where_it_was_set(checked_project, capsys):
    write_tree(checked_project, {"pyproject.toml": '[tool.releasekb.check]\nmax-stability = "solid"\n', "a.py": CODE})
    status, _, err = run_check(capsys, ".")
    assert status == 2 and "--max-stability solid: not a stability level" in err
    assert f"(max-stability set in {checked_project / 'pyproject.toml'} [tool.releasekb.check])" in err


def test_a_pyproject_that_is_not_toml_is_said_and_the_check_goes_on_without_it(checked_project, capsys):
    write_tree(checked_project, {"pyproject.toml": '[tool.releasekb.check]\nto = "1.5"\nfrom = \n', "a.py": CODE})
    _, document = report(capsys, ".")
    assert document["to"] == "1.7"  # the file's options are not applied
    _, _, err = run_check(capsys, ".")
    assert (
        f"releasekb check: {checked_project / 'pyproject.toml'}: cannot be read as TOML (Invalid value (at line 3"
        in err
    )
    assert "its [tool.releasekb.check] options are not applied" in err
