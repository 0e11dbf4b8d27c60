"""`releasekb check`'s registries: the table of finding kinds (check/kinds/) is the one list of
kinds, and drives the levels every format writes and CHECK.md's table of kinds; the formats
(check/formats/) sit behind one interface, and a format added the way CONTRIBUTING.md shows is one
`--format` writes."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest

from helpers import ACME_KB, ROOT, run_check
from releasekb.check import formats, kinds, kinds_table
from releasekb.check.formats.format import Format
from releasekb.check.report import STRINGS
from releasekb.common.i18n import known_languages
from releasekb.kb.model import CHANGE_KINDS

# Made-up code for the small knowledge base of tests/fixtures/check/releases: a deprecated then
# removed API, a breaking change and a beta API introduced in 2.0
ACME_CODE = "import acme\n\nacme.old_read(1)\nw = acme.widget.Widget()\nc = acme.widget.colour\n"


def test_the_table_is_the_one_list_of_kinds_and_the_schema_agrees():
    assert kinds.KINDS == tuple(row.name for row in kinds.TABLE)
    assert kinds.FAIL_ON_CHOICES == (*kinds.KINDS, kinds.UNREADABLE)
    assert kinds.DEFAULT_FAIL_ON == tuple(n for n, row in kinds.BY_NAME.items() if row.fails_by_default)
    # every change entry kind makes a finding kind, and only those
    assert sorted(kinds.BY_ENTRY_KIND) == sorted(CHANGE_KINDS)
    # the published JSON schema (kb/, which cannot import check) lists the same kinds
    schema = json.loads((ROOT / "scripts/releasekb/kb/check_schema.json").read_text(encoding="utf-8"))
    assert schema["$defs"]["kind"]["enum"] == list(kinds.KINDS)
    assert schema["$defs"]["fail_kind"]["enum"] == list(kinds.FAIL_ON_CHOICES)


@pytest.mark.parametrize("lang", known_languages())
def test_every_kind_has_its_strings_in_every_language(lang):
    strings = STRINGS[lang]
    for row in kinds.TABLE:
        assert {row.message_key, row.heading_key, row.count_key} <= set(strings), (lang, row.name)
        # a kind whose findings break their entry's rule names itself in that rule's description
        assert row.rule or f"kind_{row.name}" in strings, (lang, row.name)


def test_outcome_reads_each_kinds_level_from_the_table():
    for name, row in kinds.BY_NAME.items():
        assert kinds.outcome(name, frozenset()) == (False, row.level)
        assert kinds.outcome(name, frozenset({name})) == (True, "error")
        assert kinds.outcome(name, frozenset({name}), can_fail=False) == (False, "note")


def _sarif_levels(capsys, *args: str) -> dict[str, set[str]]:
    status, out, err = run_check(capsys, ".", "--from", "1.0", "--to", "2.0", "--format", "sarif", *args, kb=ACME_KB)
    assert status in (0, 1), err
    levels: dict[str, set[str]] = {}
    for result in json.loads(out)["runs"][0]["results"]:
        levels.setdefault(result["properties"]["kind"], set()).add(result["level"])
    return levels


def test_a_row_of_the_table_changes_every_report(capsys, tmp_path, monkeypatch):
    """The kind's row decides: its level when it does not fail the run, whether it fails by
    default, its SARIF rule and its colour are read from the table, not written into a format."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "app.py").write_text(ACME_CODE, encoding="utf-8")
    assert _sarif_levels(capsys, "--fail-on", "none")["unstable"] == {"note"}
    unstable = kinds.BY_NAME["unstable"]
    monkeypatch.setitem(kinds.BY_NAME, "unstable", dataclasses.replace(unstable, level="warning"))
    assert _sarif_levels(capsys, "--fail-on", "none")["unstable"] == {"warning"}
    monkeypatch.setitem(kinds.BY_NAME, "breaking", dataclasses.replace(kinds.BY_NAME["breaking"], rule="acme/rule"))
    status, out, _ = run_check(capsys, ".", "--from", "1.0", "--to", "2.0", "--format", "sarif", kb=ACME_KB)
    rules = [rule["id"] for rule in json.loads(out)["runs"][0]["tool"]["driver"]["rules"]]
    assert "acme/rule" in rules and "widget-default-colour" not in rules


def _check_md_table() -> str:
    """CHECK.md's table of finding kinds: the lines under its marker, up to the blank line."""
    text = (ROOT / "CHECK.md").read_text(encoding="utf-8")
    return text.split(kinds_table.KINDS_TABLE_MARKER + "\n", 1)[1].split("\n\n", 1)[0] + "\n"


def test_check_md_holds_the_table_of_kinds_the_code_lists():
    """CHECK.md's "kind | when" table is the one kinds_table() makes from the table of kinds."""
    assert _check_md_table() == kinds_table.kinds_table(), (
        f"CHECK.md's table under {kinds_table.KINDS_TABLE_MARKER} is out of date: replace it with what"
        " `python -m releasekb.check.kinds_table` prints"
    )


def test_a_kind_added_to_the_table_is_a_row_check_md_lacks(monkeypatch):
    """Each kind is a row, in the table's order, with its trigger, and an unreadable file the last:
    a kind added without refreshing CHECK.md is one row the test above finds missing."""
    added = kinds.FindingKind("acme", "the code uses an *acme* API", fails_by_default=False, level="note")
    before = kinds_table.kinds_table().splitlines()[2:]  # under the heading and its rule
    assert [re.match(r"\| `([\w-]+)` \|", row).group(1) for row in before] == [*kinds.KINDS, kinds.UNREADABLE]
    assert [row.split(" | ", 1)[1] for row in before] == [
        f"{k.trigger} |" for k in (*kinds.TABLE, kinds.UNREADABLE_ROW)
    ]
    monkeypatch.setattr(kinds_table, "TABLE", (*kinds.TABLE, added))
    assert kinds_table.kinds_table().splitlines()[2:] == [
        *before[:-1],
        "| `acme` | the code uses an *acme* API |",
        before[-1],
    ]
    assert _check_md_table() != kinds_table.kinds_table()


def test_the_formats_registry_is_what_format_offers_and_check_md_names(capsys):
    assert list(formats.FORMATS) == ["text", "json", "sarif", "github"]
    assert all(isinstance(f, Format) and f.name == name for name, f in formats.FORMATS.items())
    status, _, err = run_check(capsys, ".", "--format", "nothing-like-it", kb=ACME_KB)
    offered = re.search(r"invalid choice: 'nothing-like-it' \(choose from (.*)\)", err).group(1)
    assert re.findall(r"[\w-]+", offered) == list(formats.FORMATS)
    paragraph = (ROOT / "CHECK.md").read_text(encoding="utf-8").split("**Formats:**", 1)[1].split("\n\n", 1)[0]
    assert all(re.search(rf"`(--format )?{name}`", paragraph) for name in formats.FORMATS)


def _contributing_example() -> str:
    """The code of CONTRIBUTING.md's "Adding a check format"."""
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = text.split("### Adding a check format", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_a_format_added_as_contributing_shows_is_written_by_check(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(formats, "FORMATS", dict(formats.FORMATS))  # the registry as it was, after
    module: dict = {}
    exec(compile(_contributing_example(), "CONTRIBUTING.md", "exec"), module)
    formats.register(module["FORMAT"])
    monkeypatch.chdir(tmp_path)
    (tmp_path / "app.py").write_text(ACME_CODE, encoding="utf-8")
    status, out, err = run_check(capsys, ".", "--from", "1.0", "--to", "2.0", "--format", "lines", kb=ACME_KB)
    _, report, _ = run_check(capsys, ".", "--from", "1.0", "--to", "2.0", "--format", "json", kb=ACME_KB)
    listed = json.loads(report)["findings"]
    assert status == 1 and err == ""  # the removal fails the run, whatever the format
    assert out.splitlines() == [f"{f['path']}:{f['line']}: {f['kind']} {f['entry']}" for f in listed]
    assert len(listed) >= 4
    # --output writes the new format to the file, and the summary to stdout
    status, out, _ = run_check(
        capsys, ".", "--from", "1.0", "--to", "2.0", "--format", "lines", "--output", "r.txt", kb=ACME_KB
    )
    assert (tmp_path / "r.txt").read_text(encoding="utf-8").count("\n") == len(listed)
    text = run_check(capsys, ".", "--from", "1.0", "--to", "2.0", kb=ACME_KB)[1]
    assert out == text.splitlines()[-2] + "\n"  # the text report's summary line
