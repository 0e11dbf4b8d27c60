"""`releasekb check`, issue 37 (items 1, 2 and 5): a report a team can trust.

- coverage: every format ends with what the knowledge base can tell about the range (the changes it
  can find in code, those it cannot, the releases it does not describe), so that a report without
  findings never reads as "safe";
- what matters first: the headings and the summary count only the changes new between --from and
  --to; those already in effect at --from are left out (and counted) unless --show-in-effect asks;
- levels and exit agree: what fails the run is an error in every format, and nothing else is; the
  table of CHECK.md is generated from the function that decides both.

Expected values are derived from the knowledge base (its catalog) and from kinds.outcome, not
copied from a report.
"""

from __future__ import annotations

import json

import jsonschema
import pytest

from helpers import ACME_KB, FFT_CALL, REAL_KB, ROOT, SARIF_SCHEMA, run_check
from releasekb.check import levels_table
from releasekb.check.kinds import DEFAULT_FAIL_ON, KINDS, outcome
from releasekb.check.options import parse_fail_on
from releasekb.common.i18n import interface_strings
from releasekb.common.versions import version_key
from releasekb.kb import api_index, check_schema
from releasekb.kb.catalog import list_text
from releasekb.kb.pipeline import load_catalog

run = run_check  # `releasekb --data KB check ARGS` in this process
RANGE = ("--from", "1.4", "--to", "1.7")
# the 0.2 keepdim change, in effect at 1.4, three times; the old torch.fft function, deprecated in 1.7
OLD_AND_NEW = FFT_CALL + "".join(f"t{n} = torch.sum(x, {n})\n" for n in range(3))


def run_json(capsys, *args: str, kb=REAL_KB) -> tuple[int, dict]:
    status, out, err = run(capsys, *args, "--format", "json", kb=kb)
    assert status in (0, 1), err
    report = json.loads(out)
    errors = list(jsonschema.Draft202012Validator(check_schema.schema()).iter_errors(report))
    assert not errors, errors[0]
    return status, report


def run_sarif(capsys, *args: str, kb=REAL_KB) -> tuple[int, dict]:
    status, out, err = run(capsys, *args, "--format", "sarif", kb=kb)
    assert status in (0, 1), err
    log = json.loads(out)
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    errors = list(jsonschema.Draft4Validator(schema).iter_errors(log))
    assert not errors, errors[0]
    return status, log


def changes_in_range(catalog, old: str, new: str) -> tuple[list, list]:
    """(changes that list APIs, changes that list none) new after `old` up to `new`, from the
    catalog as the release files give it: a change announced for a later release counts from that
    release on."""
    listing, silent = [], []
    for release in catalog.releases:
        for entry in release.entries:
            effective = entry.takes_effect or release.version
            if not entry.is_change or version_key(release.version) > version_key(new):
                continue
            if version_key(effective) <= version_key(old):
                continue
            (listing if entry.api_refs else silent).append(entry)
    return listing, silent


@pytest.fixture(scope="module")
def real_range():
    catalog = load_catalog(REAL_KB)
    listing, silent = changes_in_range(catalog, "1.4", "1.7")
    not_described = [v for v in catalog.not_described if version_key("1.4") < version_key(v) <= version_key("1.7")]
    assert listing and silent and not_described  # the range this file is about has all three
    return catalog, listing, silent, not_described


# --------------------------------------------------------------------------- 1. coverage


def test_the_text_report_ends_with_its_coverage_in_english_and_chinese(code, capsys, real_range):
    catalog, listing, silent, not_described = real_range
    code(**{"clean.py": "import torch\n\ny = torch.matmul(a, b)\n"})  # uses nothing that changed
    status, out, _ = run(capsys, ".", *RANGE)
    last = out.splitlines()[-1]
    assert status == 0 and last.startswith("Coverage of 1.4 → 1.7: ")
    assert f"holds {len(listing)} change" in last and f"{len(silent)} more ha" in last
    for entry in silent:  # named: what a team must check by hand
        assert f"“{entry.title['en']}”" in last
    assert f"{list_text(not_described, interface_strings('en'))} not described" in last
    assert last.endswith("not that the upgrade is safe.")
    zh = run(capsys, ".", *RANGE, "--lang", "zh")[1].splitlines()[-1]
    assert (
        zh.startswith("覆盖范围 1.4 → 1.7：") and f"收录了 {len(listing)} 项" in zh and f"另有 {len(silent)} 项" in zh
    )
    assert all(f"“{entry.title['zh']}”" in zh for entry in silent) and "并不表示可以放心升级" in zh
    assert all(version in zh for version in not_described)


def test_json_and_sarif_carry_the_coverage_as_data(code, capsys, real_range):
    _, listing, silent, not_described = real_range
    code(**{"spectrum.py": FFT_CALL})
    _, report = run_json(capsys, ".", *RANGE)
    coverage = report["coverage"]
    assert sorted((c["id"], c["release"]) for c in coverage["checked"]) == sorted(
        (e.id, e.release.version) for e in listing
    )
    assert sorted(c["id"] for c in coverage["unchecked"]) == sorted(e.id for e in silent)
    assert coverage["not_described"] == not_described and coverage["ends_at"] is None
    text = run(capsys, ".", *RANGE)[1].splitlines()[-1]
    assert coverage["statement"]["en"] == text and coverage["statement"]["zh"].startswith("覆盖范围")
    _, log = run_sarif(capsys, ".", *RANGE)
    (run_,) = log["runs"]
    assert run_["properties"]["coverage"] == coverage
    notes = [n["message"]["text"] for n in run_["invocations"][0]["toolExecutionNotifications"]]
    assert text in notes
    # the releases not described are said once, in the statement, not in a notification of their own
    assert not any(n.startswith("Not covered by this knowledge base") for n in notes)


def test_the_github_output_ends_with_the_coverage_as_a_notice(code, capsys):
    code(**{"spectrum.py": FFT_CALL})
    out = run(capsys, ".", *RANGE, "--format", "github")[1]
    text = run(capsys, ".", *RANGE)[1].splitlines()[-1]
    assert out.splitlines()[-1] == f"::notice title=releasekb::{text}"
    assert sum(line.startswith("::") and "1.6" in line for line in out.splitlines()) == 1  # said once


def test_a_to_after_the_last_release_says_where_the_knowledge_base_ends(code, capsys):
    code(**{"spectrum.py": FFT_CALL})
    _, report = run_json(capsys, ".", "--from", "1.4", "--to", "2.1")
    assert report["coverage"]["ends_at"] == report["knowledge_base_releases"][-1]
    assert f"nothing after {report['coverage']['ends_at']} is known here" in report["coverage"]["statement"]["en"]


def test_an_index_published_before_the_field_says_it_does_not_know(code, capsys, tmp_path):
    code(**{"spectrum.py": FFT_CALL})
    document = api_index.index_document(load_catalog(REAL_KB), "")
    for release in document["releases"]:
        del release["changes_without_apis"]
    index = tmp_path / "apis.json"
    index.write_text(json.dumps(document), encoding="utf-8")
    _, report = run_json(capsys, ".", *RANGE, "--index", str(index))
    assert report["coverage"]["unchecked"] is None
    assert "this index does not list the changes that have no code check" in report["coverage"]["statement"]["en"]
    # the published index, as it is now, gives the same coverage as the data folder
    index.write_bytes(json.dumps(api_index.index_document(load_catalog(REAL_KB), "")).encode())
    from_index = run_json(capsys, ".", *RANGE, "--index", str(index))[1]["coverage"]
    assert from_index == run_json(capsys, ".", *RANGE)[1]["coverage"]


def test_a_range_without_any_change_to_find_says_a_clean_report_tells_nothing(code, capsys):
    code(**{"app.py": "import acme\n"})
    out = run(capsys, ".", "--from", "1.1", "--to", "1.1", kb=ACME_KB)[1]
    assert out.splitlines()[-1].endswith("holds 0 changes in this range that check can find in code; "
                                         "so a clean report says nothing about this upgrade.")  # fmt: skip


# --------------------------------------------------------------------------- 2. what matters first


def test_changes_in_effect_at_from_are_left_out_counted_and_the_option_named(code, capsys):
    code(**{"reduce.py": OLD_AND_NEW})
    status, out, _ = run(capsys, ".", *RANGE)
    assert status == 1  # the old torch.fft function, deprecated in 1.7
    assert "Breaking changes" not in out and "torch.sum" not in out  # no headline for a 2017 change
    summary = out.splitlines()[-2]
    assert ", 0 breaking, 1 deprecated," in summary
    assert summary.endswith("; 3 already in effect at 1.4 not shown (--show-in-effect lists them)")
    assert (
        "；另有 3 项在 1.4 时已生效，未列出（加 --show-in-effect 可列出）"
        in run(capsys, ".", *RANGE, "--lang", "zh")[1]
    )
    _, report = run_json(capsys, ".", *RANGE)
    assert [f["kind"] for f in report["findings"]] == ["deprecated"]
    assert report["counts"]["breaking"] == 0
    assert report["in_effect_at_from"] == {
        "count": 3,
        "counts": {"breaking": 3},
        "listed": False,
        "option": "--show-in-effect",
    }
    _, log = run_sarif(capsys, ".", *RANGE)
    assert [r["properties"]["kind"] for r in log["runs"][0]["results"]] == ["deprecated"]
    assert log["runs"][0]["properties"]["inEffectAtFrom"] == report["in_effect_at_from"]
    github = run(capsys, ".", *RANGE, "--format", "github")[1].splitlines()
    assert [line.split(" ", 1)[0] for line in github if "file=" in line] == ["::error"]  # the deprecation only


def test_show_in_effect_lists_them_apart_never_counted_never_an_error(code, capsys):
    code(**{"reduce.py": OLD_AND_NEW})
    status, out, _ = run(capsys, ".", *RANGE, "--show-in-effect")
    assert status == 1
    headings = [line for line in out.splitlines() if line and not line.startswith(" ")]
    assert headings[2:4] == [
        "Deprecated (1)",
        "Already in effect at 1.4 (3): the code runs there already; not counted above",
    ]
    assert "\n  Breaking changes (3)\n" in out  # inside the group, not a headline
    assert ", 0 breaking, 1 deprecated," in out and out.splitlines()[-2].endswith(
        "; 3 already in effect at 1.4, listed apart and not counted"
    )
    _, report = run_json(capsys, ".", *RANGE, "--show-in-effect")
    assert report["counts"]["breaking"] == 0 and report["in_effect_at_from"]["listed"] is True
    assert sorted((f["kind"], f["in_effect_at_from"]) for f in report["findings"]) == [
        ("breaking", True),
        ("breaking", True),
        ("breaking", True),
        ("deprecated", False),
    ]
    _, log = run_sarif(capsys, ".", *RANGE, "--show-in-effect")
    assert {r["level"] for r in log["runs"][0]["results"] if r["properties"]["inEffectAtFrom"]} == {"note"}
    github = run(capsys, ".", *RANGE, "--format", "github", "--show-in-effect")[1].splitlines()
    assert sorted(line.split(" ", 1)[0] for line in github if "file=" in line) == ["::error"] + ["::notice"] * 3


def test_the_projects_pyproject_can_show_them(code, capsys):
    code(**{".git/HEAD": "", "pyproject.toml": "[tool.releasekb.check]\nshow-in-effect = true\n", "r.py": OLD_AND_NEW})
    assert run_json(capsys, ".", *RANGE)[1]["in_effect_at_from"]["listed"] is True
    code(**{"pyproject.toml": '[tool.releasekb.check]\nshow-in-effect = "yes"\n'})
    status, _, err = run(capsys, ".", *RANGE)
    assert status == 2 and "pyproject.toml:2: [tool.releasekb.check]: 'show-in-effect' must be true or false" in err


# --------------------------------------------------------------------------- 3. levels and exit agree


def test_check_md_holds_the_table_the_code_decides(tmp_path):
    """CHECK.md's table of levels and exit is the one levels_table.levels_table() makes from outcome()."""
    text = (ROOT / "CHECK.md").read_text(encoding="utf-8")
    block = text.split(levels_table.LEVELS_TABLE_MARKER + "\n", 1)[1].split("\n\n", 1)[0] + "\n"
    assert block == levels_table.levels_table(), (
        f"CHECK.md's table under {levels_table.LEVELS_TABLE_MARKER} is out of date: replace it with what"
        " `python -m releasekb.check.levels_table` prints"
    )


@pytest.mark.parametrize("fail_on", [None, "none", "removed,breaking", "newer,unstable", "deprecated,unreadable"])
def test_every_format_marks_as_error_exactly_what_fails_the_run(code, capsys, fail_on):
    """Every kind of finding, guarded and in effect at --from ones, and an unreadable file: the exit
    status is 1 exactly when something is an error, in SARIF and in `github` alike, and each level
    is what outcome() says."""
    code(
        **{
            "app.py": "import acme\nfrom acme.widget import Widget, colour\n\ndata = acme.old_read('f')\n",
            "guarded.py": "import acme\ntry:\n    acme.old_read('f')\nexcept AttributeError:\n    pass\n",
            "broken.py": "import acme\n(\n",
        }
    )
    args = (".", "--from", "1.1", "--to", "2.0", "--show-in-effect", *(("--fail-on", fail_on) if fail_on else ()))
    failing = parse_fail_on(fail_on)
    status, log = run_sarif(capsys, *args, kb=ACME_KB)
    (run_,) = log["runs"]
    levels = [r["level"] for r in run_["results"]]
    levels += [n["level"] for n in run_["invocations"][0]["toolExecutionNotifications"] if "locations" in n]
    assert (status == 1) == ("error" in levels)
    for result in run_["results"]:
        properties = result["properties"]
        can_fail = not properties["guarded"] and not properties["inEffectAtFrom"]
        assert result["level"] == outcome(properties["kind"], failing, can_fail=can_fail)[1], result
    # a finding of this upgrade, a guarded one and one already in effect at --from are all there
    seen = {(r["properties"]["guarded"], r["properties"]["inEffectAtFrom"]) for r in run_["results"]}
    assert {(False, False), (True, False), (False, True)} <= seen
    github = run(capsys, *args, "--format", "github", kb=ACME_KB)
    commands = [line.split(" ", 1)[0] for line in github[1].splitlines() if "file=" in line]
    assert github[0] == status and (status == 1) == ("::error" in commands)
    _, report = run_json(capsys, *args, kb=ACME_KB)
    assert report["failed"] == (status == 1)


def test_a_deprecation_the_default_fails_on_is_an_error_everywhere(code, capsys):
    """Issue 37, item 5: the default --fail-on fails on a deprecation, which github and SARIF
    marked a warning: a red run with no error on the page."""
    assert "deprecated" in DEFAULT_FAIL_ON
    code(**{"spectrum.py": FFT_CALL})
    status, log = run_sarif(capsys, ".", *RANGE)
    assert status == 1 and [r["level"] for r in log["runs"][0]["results"]] == ["error"]
    assert log["runs"][0]["tool"]["driver"]["rules"][0]["defaultConfiguration"]["level"] == "error"
    assert run(capsys, ".", *RANGE, "--format", "github")[1].startswith("::error file=spectrum.py,")
    # --fail-on none: the run cannot fail, so nothing is an error
    status, log = run_sarif(capsys, ".", *RANGE, "--fail-on", "none")
    assert status == 0 and [r["level"] for r in log["runs"][0]["results"]] == ["warning"]


def test_no_kind_is_an_error_unless_it_fails_the_run():
    for kind in (*KINDS, "unreadable"):
        for fail_on in (frozenset(), frozenset({kind}), parse_fail_on(None)):
            for can_fail in (True, False):
                fails, level = outcome(kind, fail_on, can_fail=can_fail)
                assert fails == (can_fail and kind in fail_on) and (level == "error") == fails
