"""Whatever bytes a data file holds, `releasekb validate` answers with located problems and
exit status 1 (or accepts it), in bounded memory: never a traceback or a runaway parse.

One test per error class of the loader, each asserting the message, file:line:col and the
exit status; the bounds are checked over a set of worst-case files of up to the size limit.
"""

from __future__ import annotations

import codecs
import tracemalloc
from pathlib import Path

import pytest

from helpers import FIXTURE_RELEASES, fixture_data, line_of, run_validate
from releasekb.cli import main
from releasekb.kb.loader import MAX_FILE_BYTES, MAX_NESTING, MAX_VALUES

RELEASE = "1.1.yaml"


def write_release(data: Path, content: bytes) -> Path:
    path = data / RELEASE
    path.write_bytes(content)
    return path


def the_problem(data: Path, capsys) -> str:
    """The one problem reported, after checking the exit status."""
    code, lines = run_validate(data, capsys)
    assert code == 1, lines
    assert lines[-1] == "1 problem found; nothing was built.", lines
    return lines[0]


def measured(work):
    """(what work returns, the peak of memory it allocated). Runaway work shows in memory, which
    does not depend on how busy the machine is; its speed is the bench's business."""
    tracemalloc.start()
    try:
        result = work()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# A 1 KB "billion laughs": nine levels of nine aliases each, 9**9 strings once expanded.
BILLION_LAUGHS = b'a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]\n' + b"".join(
    b"%c: &%c [%s]\n" % (ord(name), ord(name), b", ".join([b"*" + bytes([ord(name) - 1])] * 9)) for name in "bcdefghi"
)


def test_billion_laughs_is_refused_at_the_first_anchor_without_expanding(tmp_path, capsys):
    assert len(BILLION_LAUGHS) < 1024
    data = fixture_data(tmp_path)
    path = write_release(data, BILLION_LAUGHS)
    problem, peak = measured(lambda: the_problem(data, capsys))
    assert peak < 20 * 2**20, f"{peak / 2**20:.0f} MB"  # expanded, 9**9 strings would take gigabytes
    assert problem == (
        f"{path}:1:4: (document): YAML anchors and aliases (&name, *name) are not supported in release data; "
        "write the value out"
    )


def test_an_alias_alone_is_refused_where_it_stands(tmp_path, capsys):
    data = fixture_data(tmp_path, {RELEASE: [("scheme: stable-experimental", "scheme: *other")]})
    line = line_of(data / RELEASE, "*other")
    problem = the_problem(data, capsys)
    assert problem.startswith(f"{data / RELEASE}:{line}:9: (document): YAML anchors and aliases")


def test_deep_nesting_is_refused_fast_without_recursion_error(tmp_path, capsys):
    data = fixture_data(tmp_path)
    path = write_release(data, b"a: " + b"[" * 20_000 + b"]" * 20_000 + b"\n")
    problem, peak = measured(lambda: the_problem(data, capsys))
    assert peak < 20 * 2**20, f"{peak / 2**20:.0f} MB"  # the parser stopped at the limit, not at the end
    # the mapping is level 1, so the bracket that opens level MAX_NESTING + 1 is refused
    column = len("a: ") + MAX_NESTING
    message = f"nested deeper than {MAX_NESTING} levels (release data needs far fewer)"
    assert problem == f"{path}:1:{column}: (document): {message}"


def test_deep_block_nesting_is_refused_too(tmp_path, capsys):
    data = fixture_data(tmp_path)
    text = "".join("  " * depth + f"k{depth}:\n" for depth in range(200))
    path = write_release(data, text.encode())
    problem = the_problem(data, capsys)
    assert problem.startswith(f"{path}:{MAX_NESTING + 1}:{2 * MAX_NESTING + 1}: (document): nested deeper than")


@pytest.mark.parametrize("prefix", [codecs.BOM_UTF8, b""], ids=["bom", "no-bom"])
@pytest.mark.parametrize("line_end", [b"\r\n", b"\n"], ids=["crlf", "lf"])
def test_byte_order_mark_and_crlf_are_accepted(tmp_path, capsys, prefix, line_end):
    data = fixture_data(tmp_path)
    for path in data.glob("*.yaml"):
        path.write_bytes(prefix + path.read_bytes().replace(b"\n", line_end))
    assert main(["--data", str(data), "validate"]) == 0
    assert "no problems" in capsys.readouterr().out


def test_positions_after_a_byte_order_mark_and_crlf_are_those_an_editor_shows(tmp_path, capsys):
    data = fixture_data(tmp_path, {RELEASE: [("stability: stable", "stability: stabel")]})
    line = line_of(data / RELEASE, "stabel")
    path = data / RELEASE
    path.write_bytes(codecs.BOM_UTF8 + path.read_bytes().replace(b"\n", b"\r\n"))
    assert the_problem(data, capsys).startswith(f"{path}:{line}:16: features[0].stability: 'stabel' is not one of")


def test_non_utf8_bytes_are_located(tmp_path, capsys):
    data = fixture_data(tmp_path)
    path = data / RELEASE
    line = line_of(path, "Widgets keep their API")
    path.write_bytes(path.read_bytes().replace(b"Widgets keep", b"Widg\xe9ts keep"))
    problem = the_problem(data, capsys)
    column = len("    summary: {en: Widg") + 1
    assert problem == (
        f"{path}:{line}:{column}: (document): not UTF-8 text: byte 0xe9 cannot be read as UTF-8 "
        "(invalid continuation byte); save the file as UTF-8"
    )


def test_a_utf16_file_is_refused_as_not_utf8(tmp_path, capsys):
    data = fixture_data(tmp_path)
    path = data / RELEASE
    path.write_bytes(path.read_text(encoding="utf-8").encode("utf-16"))
    assert the_problem(data, capsys).startswith(f"{path}:1:1: (document): not UTF-8 text: byte 0xff")


def test_control_characters_are_located(tmp_path, capsys):
    data = fixture_data(tmp_path, {RELEASE: [("Widgets keep", "Widgets\x00 keep")]})
    line = line_of(data / RELEASE, "Widgets\x00")
    problem = the_problem(data, capsys)
    assert problem == (
        f"{data / RELEASE}:{line}:{len('    summary: {en: Widgets') + 1}: (document): character U+0000 is not "
        "allowed in YAML (control characters cannot appear even in quotes; remove it)"
    )


ONE_LINE = (
    "is not allowed in this value, which is one line of printable characters: remove it "
    "(newlines and tabs belong only in multi-line texts: summaries, migrations, descriptions)"
)


def quoted_value_at(path: Path, text: str) -> tuple[int, int]:
    """Line and column of the quoted value that `text` (a key, then the value in double quotes)
    writes in the file."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if text in line:
            return number, line.index(text) + text.index('"') + 1
    raise AssertionError(f"{text!r} not in {path}")


# YAML escapes in double quotes that write a character the raw file does not hold, and how the
# problem names it: terminal escapes (colour, window title), a line that GitHub would read as a
# workflow command, other line breaks, C1 controls (0x9b is a terminal's CSI), bidi overrides.
ESCAPES = {
    "colour": ("\\e[31mred\\e[0m", "a control character (U+001B, \\x1b)"),
    "window-title": ("\\x1b]0;title\\x07", "a control character (U+001B, \\x1b)"),
    "workflow-command": ("a\\n::error::injected", "a line break (U+000A, \\n)"),
    "carriage-return": ("a\\rb", "a line break (U+000D, \\r)"),
    "next-line": ("a\\Nb", "a line break (U+0085, \\x85)"),
    "line-separator": ("a\\Lb", "a line break (U+2028, \\u2028)"),
    "tab": ("a\\tb", "a tab (U+0009, \\t)"),
    "csi": ("a\\x9b31m", "a control character (U+009B, \\x9b)"),
    "delete": ("a\\x7f", "a control character (U+007F, \\x7f)"),
    "nul": ("a\\0", "a control character (U+0000, \\x00)"),
    "bidi-override": ("a\\u202eb", "an invisible formatting character (U+202E, \\u202e)"),
    "not-a-character": ("a\\uffff", "a code point that is not a character (U+FFFF, \\uffff)"),
}


@pytest.mark.parametrize("name", list(ESCAPES))
def test_a_control_character_written_as_a_yaml_escape_is_refused_at_its_value(tmp_path, capsys, name):
    escape, found = ESCAPES[name]
    new = f'title: {{en: "Widgets {escape}",'
    data = fixture_data(tmp_path, {RELEASE: [("title: {en: Widgets become stable,", new)]})
    line, column = quoted_value_at(data / RELEASE, new)
    assert the_problem(data, capsys) == f"{data / RELEASE}:{line}:{column}: features[0].title.en: {found} {ONE_LINE}"


# Every text the loader reads is checked, in release files and in project.yaml: (file, text
# replaced, its replacement, where).
EVERY_KIND_OF_VALUE = {
    "release-title": ("1.1.yaml", "zh: 小部件转为稳定}\nsummary", 'zh: "小部件\\e转为稳定"}\nsummary', "title.zh"),
    "version": ("1.1.yaml", 'version: "1.1"', 'version: "1.1\\e"', "version"),
    "id": ("1.1.yaml", "- id: widgets", '- id: "wid\\egets"', "features[0].id"),
    "api-name": ("1.0.yaml", "apis: [acme.widget]", 'apis: ["acme.wid\\eget"]', "features[0].apis[0]"),
    "credit": ("1.1.yaml", 'credit: "@translator"', 'credit: "@trans\\elator"', "sources[1].credit"),
    "site-name": (
        "project.yaml",
        "site_name: {en: Acme release notes,",
        'site_name: {en: "Acme\\e release notes",',
        "product.site_name.en",
    ),
    "area-name": ("project.yaml", "core: {en: Core,", 'core: {en: "Co\\ere",', "areas.core.en"),
}


@pytest.mark.parametrize("name", list(EVERY_KIND_OF_VALUE))
def test_every_text_of_the_data_is_checked_for_control_characters(tmp_path, capsys, name):
    file, old, new, where = EVERY_KIND_OF_VALUE[name]
    data = fixture_data(tmp_path, {file: [(old, new)]})
    line, column = quoted_value_at(data / file, new.split("\n")[0])
    expected = f"{data / file}:{line}:{column}: {where}: a control character (U+001B, \\x1b) {ONE_LINE}"
    assert the_problem(data, capsys) == expected


def test_a_control_character_in_a_key_is_refused_at_the_key(tmp_path, capsys):
    data = fixture_data(tmp_path, {RELEASE: [("  - id: widgets", '  - "wid\\eget": 1\n    id: widgets')]})
    line, column = quoted_value_at(data / RELEASE, '- "wid')
    assert the_problem(data, capsys) == (
        f"{data / RELEASE}:{line}:{column}: features[0].wid\\x1bget: a control character (U+001B, \\x1b) {ONE_LINE}"
    )


def test_multi_line_texts_keep_their_newlines_and_tabs_but_no_other_control_character(tmp_path, capsys):
    """Summaries, migrations and descriptions are written as block scalars: line breaks and tabs
    are their text. An escape character is refused in them as anywhere."""
    block = (
        "summary:\n      en: |\n        Widgets keep their API.\n        \tIndented with a tab.\n"
        "      zh: 小部件的 API 从此保持不变。"
    )
    edits = {
        RELEASE: [
            ("summary: {en: Widgets keep their API from now on., zh: 小部件的 API 从此保持不变。}", block),
            ("migration: {en: Use `acme.read` instead.,", 'migration: {en: "Use `acme.read`\\ninstead.",'),
        ],
        "project.yaml": [("description: {en: May still change.,", 'description: {en: "May\\tstill\\nchange.",')],
    }
    data = fixture_data(tmp_path, edits)
    assert main(["--data", str(data), "validate"]) == 0, capsys.readouterr().err

    new = 'migration: {en: "Use `acme.read`\\e[2J instead.",'
    data = fixture_data(tmp_path / "escape", {RELEASE: [("migration: {en: Use `acme.read` instead.,", new)]})
    line, column = quoted_value_at(data / RELEASE, new)
    assert the_problem(data, capsys) == (
        f"{data / RELEASE}:{line}:{column}: changes[0].migration.en: a control character (U+001B, \\x1b) is not "
        "allowed in a text, which holds printable characters, newlines and tabs: remove it"
    )


def test_file_past_the_size_limit_is_refused_with_its_size(tmp_path, capsys):
    data = fixture_data(tmp_path)
    path = data / RELEASE
    path.write_bytes(path.read_bytes() + b"#" * (MAX_FILE_BYTES - path.stat().st_size) + b"\n")
    size = path.stat().st_size
    assert size == MAX_FILE_BYTES + 1
    assert the_problem(data, capsys) == (
        f"{path}:1:1: (document): the file is {size:,} bytes; data files are limited to 1,000,000 bytes (1 MB), "
        "far more than any release needs (is this the file you meant?)"
    )


def test_file_of_exactly_the_size_limit_is_read(tmp_path, capsys):
    data = fixture_data(tmp_path)
    path = data / RELEASE
    path.write_bytes(path.read_bytes() + b"#" * (MAX_FILE_BYTES - path.stat().st_size - 1) + b"\n")
    assert path.stat().st_size == MAX_FILE_BYTES
    assert main(["--data", str(data), "validate"]) == 0, capsys.readouterr().err


def test_too_many_values_are_refused_where_the_limit_is_passed(tmp_path, capsys):
    data = fixture_data(tmp_path)
    path = write_release(data, b"- x\n" * (MAX_VALUES + 10))
    # the list itself is the first value, so item MAX_VALUES (line MAX_VALUES) is one too many
    assert the_problem(data, capsys) == (
        f"{path}:{MAX_VALUES}:3: (document): more than {MAX_VALUES:,} values in one file; no release needs that many"
    )


def test_a_second_document_is_refused(tmp_path, capsys):
    data = fixture_data(tmp_path)
    path = data / RELEASE
    lines = path.read_text(encoding="utf-8").count("\n")
    path.write_text(path.read_text(encoding="utf-8") + "---\nversion: '1.2'\n", encoding="utf-8")
    assert the_problem(data, capsys) == (
        f"{path}:{lines + 1}:1: (document): a second YAML document ('---'); a data file holds exactly one"
    )


def test_a_number_too_long_to_convert_is_a_problem(tmp_path, capsys):
    data = fixture_data(tmp_path, {RELEASE: [("scheme: stable-experimental", "scheme: " + "9" * 5000)]})
    line = line_of(data / RELEASE, "scheme: 999")
    code, lines = run_validate(data, capsys)
    assert code == 1
    assert f"{data / RELEASE}:{line}:9: scheme: '99999999999999999999...' is not a usable number" in lines[0]


def test_two_files_for_one_version_are_a_problem(tmp_path, capsys):
    data = fixture_data(tmp_path)
    copy = data / "1.01.yaml"
    copy.write_text((data / RELEASE).read_text(encoding="utf-8").replace('"1.1"', '"1.01"'), encoding="utf-8")
    code, lines = run_validate(data, capsys)
    assert code == 1
    assert f"{data / RELEASE}:2:10: version: version '1.1' is the same release as {copy} (version '1.01'): " in (
        "\n".join(lines)
    )


def test_empty_release_folder_is_a_problem(tmp_path, capsys):
    data = fixture_data(tmp_path)
    for path in data.glob("[0-9]*.yaml"):
        path.unlink()
    assert the_problem(data, capsys) == f"{data}:1:1: (folder): no release files found (expected files like 1.7.yaml)"


def test_missing_project_file_is_a_problem(tmp_path, capsys):
    data = fixture_data(tmp_path)
    (data / "project.yaml").unlink()
    assert the_problem(data, capsys) == (
        f"{data / 'project.yaml'}:1:1: (document): file not found: every data folder needs a project.yaml "
        "with the vocabularies; start a knowledge base with `releasekb init --product NAME`, or pass --data"
    )


def _worst_cases() -> dict[str, bytes]:
    """Files of up to the size limit that are expensive to read in some way."""
    limit = MAX_FILE_BYTES
    release = (FIXTURE_RELEASES / RELEASE).read_bytes()
    return {
        "brackets": b"a: " + b"[" * (limit - 10),
        "braces-and-commas": b"a: {" + b"x: [1, 2], " * ((limit - 10) // 11) + b"}",
        "one-long-text": b"title: " + b"x" * (limit - 10),
        "escapes": b'title: "' + b"\\u4e2d" * ((limit - 10) // 6) + b'"',
        "many-keys": b"".join(b"k%06d: v\n" % i for i in range((limit - 10) // 11)),
        "many-items": b"- x\n" * ((limit - 10) // 4),
        "duplicate-keys": b"a: b\n" * ((limit - 10) // 5),
        "many-bad-entries": release.replace(b"features:", b"features:\n" + b"  - {}\n" * ((limit - 2000) // 7)),
        "huge-number": b"version: " + b"9" * (limit - 20),
        "laughs": BILLION_LAUGHS * ((limit - 10) // len(BILLION_LAUGHS)),
    }


@pytest.mark.parametrize("name", list(_worst_cases()))
def test_any_file_up_to_the_limit_gets_located_problems_within_200_mb(tmp_path, capsys, name):
    data = fixture_data(tmp_path)
    content = _worst_cases()[name]
    assert len(content) <= MAX_FILE_BYTES
    path = write_release(data, content)
    (code, lines), peak = measured(lambda: run_validate(data, capsys))
    assert code == 1
    assert peak < 200 * 2**20, f"{peak / 2**20:.0f} MB"
    problems = lines[:-1]
    assert problems and all(line.startswith(f"{path}:") for line in problems), lines[:5]
    for line in problems:
        _, line_number, column, _ = line[len(str(path)) :].split(":", 3)
        assert int(line_number) >= 1 and int(column) >= 1


@pytest.mark.parametrize(("content", "line"), [("null", 2), ("~", 2), ("---", 3)])
def test_a_release_file_of_only_null_is_a_problem_not_dropped(tmp_path, capsys, content, line):
    """Found by the property tests: such a file was silently left out of the site."""
    data = fixture_data(tmp_path)
    path = write_release(data, f"# yaml-language-server: $schema=release.schema.json\n{content}\n".encode())
    assert (
        the_problem(data, capsys)
        == f"{path}:{line}:1: (document): expected a mapping (key: value), got nothing (an empty value)"
    )


@pytest.mark.parametrize(
    ("value", "tag"),
    [
        ("!!python/object/apply:os.system [ls]", "tag:yaml.org,2002:python/object/apply:os.system"),
        ("!!python/name:os.system ''", "tag:yaml.org,2002:python/name:os.system"),
        ("!!set {a, b}", "tag:yaml.org,2002:set"),
    ],
)
def test_python_and_other_tags_are_refused_where_they_stand(tmp_path, capsys, value, tag):
    data = fixture_data(tmp_path, {RELEASE: [("scheme: stable-experimental", f"scheme: {value}")]})
    line = line_of(data / RELEASE, "scheme: !!")
    problem = the_problem(data, capsys)
    assert problem == f"{data / RELEASE}:{line}:9: scheme: unsupported YAML tag '{tag}' (use plain values)"


def test_yaml_syntax_error_is_located(tmp_path, capsys):
    data = fixture_data(tmp_path, {RELEASE: [("scheme: stable-experimental", "scheme: [stable")]})
    line = line_of(data / RELEASE, "scheme: [stable")
    problem = the_problem(data, capsys)
    assert problem == (
        f"{data / RELEASE}:{line + 1}:6: (document): YAML syntax: while parsing a flow sequence "
        "did not find expected ',' or ']'"
    )


def test_an_id_in_several_releases_needs_a_name(tmp_path, capsys):
    data = fixture_data(tmp_path)
    copy = data / "1.2.yaml"
    copy.write_text((data / RELEASE).read_text(encoding="utf-8").replace('"1.1"', '"1.2"'), encoding="utf-8")
    line = line_of(data / RELEASE, "id: crash-on-empty-file")
    assert the_problem(data, capsys) == (
        f"{data / RELEASE}:{line}:9: features[1].id: 'crash-on-empty-file' appears in 1.1, 1.2: "
        "give one of its entries a `name` (the feature's own name in en and zh) for its feature page"
    )
