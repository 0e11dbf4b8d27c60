from pathlib import Path

import yaml

from releasekb.kb import loader
from releasekb.kb.loader import Position, format_location, load_document


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "1.0.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_values_and_keys_keep_their_line_and_column(tmp_path):
    document, problems = load_document(write(tmp_path, "a:\n  - x: 1\n    y: two\n"))
    assert problems == []
    assert document.data == {"a": [{"x": 1, "y": "two"}]}
    assert document.values[("a", 0, "y")] == Position(3, 8)
    assert document.keys[("a", 0, "y")] == Position(3, 5)


def test_duplicate_key_is_a_problem_and_the_first_value_is_kept(tmp_path):
    document, problems = load_document(write(tmp_path, "title: one\nother: 2\ntitle: two\n"), "r/1.0.yaml")
    assert [str(p) for p in problems] == [
        "r/1.0.yaml:3:1: title: duplicate key 'title' (first defined at line 1; "
        "YAML would silently keep only the last one)"
    ]
    assert document.data["title"] == "one"


def test_dates_stay_as_written_and_numbers_stay_numbers(tmp_path):
    document, _ = load_document(write(tmp_path, "date: 2020-10-27\nversion: 1.10\nquoted: '1.10'\n"))
    assert document.data == {"date": "2020-10-27", "version": 1.1, "quoted": "1.10"}
    assert document.raw_scalars[("version",)] == "1.10"


def test_scalars_are_what_pyyamls_safe_loader_makes_and_no_node_is_kept(tmp_path):
    text = (
        "plain: text\nquoted: 'it''s'\ntagged: !!str 12\nblock: |\n  two\n  lines\nint: 12\nfloat: 1.5\n"
        "bool: true\nnothing: ~\nhex: 0x1F\nbad: !custom twelve\n"
    )
    document, problems = load_document(write(tmp_path, text), multiline=lambda location: location == ("block",))
    expected = yaml.safe_load(text.replace("bad: !custom twelve\n", ""))
    assert document.data == {**expected, "bad": None}
    assert [type(value) for value in document.data.values()] == [*map(type, expected.values()), type(None)]
    assert [p.message for p in problems] == ["unsupported YAML tag '!custom' (use plain values)"]
    # PyYAML's constructor remembers each node it made: a long `serve` would keep every file's
    assert loader._constructor.constructed_objects == {} and loader._constructor.recursive_objects == {}


def test_syntax_error_reports_its_position_without_raising(tmp_path):
    _, problems = load_document(write(tmp_path, "a: [1, 2\nb: 3\n"), "x.yaml")
    assert len(problems) == 1
    assert problems[0].file == "x.yaml" and problems[0].line == 2
    assert "YAML syntax" in problems[0].message


def test_unsafe_tags_are_refused(tmp_path):
    _, problems = load_document(write(tmp_path, "a: !!python/object:os.system ls\n"))
    assert problems and "unsupported YAML tag" in problems[0].message


def test_empty_file_is_a_problem(tmp_path):
    _, problems = load_document(write(tmp_path, "# only a comment\n"))
    assert [p.message for p in problems] == ["the file is empty"]


def test_locations_read_like_code():
    assert format_location(("features", 3, "stability")) == "features[3].stability"
    assert format_location(()) == "(document)"
