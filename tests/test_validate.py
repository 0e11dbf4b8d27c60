"""Each bad input gets one precise problem: file, line, column, where, and what would be right."""

import pytest

from helpers import fixture_data, line_of, release_file, run_validate
from releasekb.cli import main
from releasekb.kb.model import GlossaryTerm
from releasekb.kb.rules import _TermFinder


def only_problem(data, capsys, file):
    code, lines = run_validate(data, capsys)
    assert code == 1
    problems = [line for line in lines if line.startswith(str(data))]
    assert len(problems) == 1, lines
    assert problems[0].startswith(f"{data / file}:")
    return problems[0]


def test_valid_fixture_data_passes(tmp_path, capsys):
    assert main(["--data", str(fixture_data(tmp_path)), "validate"]) == 0
    assert "no problems" in capsys.readouterr().out


def test_typo_in_stability_names_the_scheme_labels_and_suggests(tmp_path, capsys):
    data = fixture_data(tmp_path, {"1.1.yaml": [("stability: stable", "stability: stabel")]})
    problem = only_problem(data, capsys, "1.1.yaml")
    line = line_of(data / "1.1.yaml", "stabel")
    assert problem == (
        f"{data / '1.1.yaml'}:{line}:16: features[0].stability: "
        "'stabel' is not one of stable, experimental (did you mean 'stable'?)"
    )


def test_label_of_another_scheme_is_rejected(tmp_path, capsys):
    data = fixture_data(tmp_path, {"1.1.yaml": [("stability: stable", "stability: beta")]})
    assert "'beta' is not one of stable, experimental" in only_problem(data, capsys, "1.1.yaml")


def test_unlabeled_scheme_forbids_labels(tmp_path, capsys):
    data = fixture_data(tmp_path, {"1.0.yaml": [("scheme: stable-experimental", "scheme: unlabeled")]})
    assert "has no labels: remove 'stability'" in only_problem(data, capsys, "1.0.yaml")


def test_duplicate_key(tmp_path, capsys):
    data = fixture_data(
        tmp_path,
        {"1.0.yaml": [("scheme: stable-experimental\n", "scheme: stable-experimental\nscheme: stable-beta\n")]},
    )
    problem = only_problem(data, capsys, "1.0.yaml")
    assert f":{line_of(data / '1.0.yaml', 'scheme: stable-beta')}:1: scheme: duplicate key 'scheme'" in problem


def test_unknown_key_suggests_the_closest(tmp_path, capsys):
    data = fixture_data(tmp_path, {"1.0.yaml": [("    apis: [acme.widget]", "    apsi: [acme.widget]")]})
    problem = only_problem(data, capsys, "1.0.yaml")
    assert (
        f":{line_of(data / '1.0.yaml', 'apsi')}:5: features[0].apsi: unknown key 'apsi' (did you mean 'apis'?)"
        in problem
    )


def test_missing_language(tmp_path, capsys):
    data = fixture_data(
        tmp_path, {"1.0.yaml": [("title: {en: The old reader, zh: 旧的读取器}", "title: {en: The old reader}")]}
    )
    problem = only_problem(data, capsys, "1.0.yaml")
    assert "features[1].title.zh: missing the 'zh' text (this knowledge base's languages: en, zh)" in problem


def test_blank_text_is_missing_text(tmp_path, capsys):
    data = fixture_data(tmp_path, {"1.0.yaml": [("zh: 旧的读取器}", "zh: '  '}")]})
    assert "features[1].title.zh: text is blank" in only_problem(data, capsys, "1.0.yaml")


def test_wrong_type(tmp_path, capsys):
    data = fixture_data(tmp_path, {"1.0.yaml": [("apis: [acme.widget]", "apis: acme.widget")]})
    assert "features[0].apis: expected a list, got 'acme.widget'" in only_problem(data, capsys, "1.0.yaml")


def test_unquoted_version_that_yaml_reads_as_a_number(tmp_path, capsys):
    data = fixture_data(tmp_path, {"1.1.yaml": [('version: "1.1"', "version: 1.10")]})
    code, lines = run_validate(data, capsys)
    assert code == 1
    assert (
        f"{data / '1.1.yaml'}:2:10: version: YAML reads 1.10 as the number 1.1, not as text; "
        'put it in quotes: "1.10"' in lines
    )


def test_area_typo_suggests(tmp_path, capsys):
    data = fixture_data(tmp_path, {"1.0.yaml": [("area: core", "area: cor")]})
    assert "'cor' is not one of core, io (did you mean 'core'?)" in only_problem(data, capsys, "1.0.yaml")


def test_duplicate_feature_id_in_a_release(tmp_path, capsys):
    data = fixture_data(tmp_path, {"1.0.yaml": [("id: old-reader", "id: widgets")]})
    code, lines = run_validate(data, capsys)
    assert code == 1
    assert any("features[1].id: duplicate id 'widgets' (already used at line" in line for line in lines)


@pytest.mark.parametrize("bad_id", ["Widgets", "widget_one", "wïdget", "-widget", "a--b"])
def test_ids_must_be_ascii_slugs(tmp_path, capsys, bad_id):
    data = fixture_data(tmp_path, {"1.0.yaml": [("id: old-reader", f"id: '{bad_id}'")]})
    assert "is not an ASCII slug" in only_problem(data, capsys, "1.0.yaml")


def test_malformed_url(tmp_path, capsys):
    data = fixture_data(tmp_path, {"1.0.yaml": [("https://example.org/acme/1.0", "example.org/acme")]})
    assert "sources[0].url: 'example.org/acme' is not an absolute http(s) URL" in only_problem(data, capsys, "1.0.yaml")


@pytest.mark.parametrize(
    ("bad_date", "message"),
    [
        ("2020-02-30", "is not a real date"),
        ("2020/01/15", "is not a date written YYYY-MM-DD"),
        ("15 January 2020", "is not a date written YYYY-MM-DD"),
    ],
)
def test_malformed_date(tmp_path, capsys, bad_date, message):
    data = fixture_data(tmp_path, {"1.0.yaml": [("date: 2020-01-15", f"date: {bad_date}")]})
    assert message in only_problem(data, capsys, "1.0.yaml")


def test_file_name_must_match_version(tmp_path, capsys):
    data = fixture_data(tmp_path)
    (data / "1.1.yaml").rename(data / "1.2.yaml")
    problem = only_problem(data, capsys, "1.2.yaml")
    assert "version: version '1.1' does not match the file name '1.2.yaml'" in problem


def test_glossary_term_must_be_rendered_consistently(tmp_path, capsys):
    data = fixture_data(tmp_path, {"2.0.yaml": [("zh: 小部件可以设置颜色。", "zh: 可以设置颜色。")]})
    problem = only_problem(data, capsys, "2.0.yaml")
    assert "features[0].summary.zh: the English text says 'widget', so the Chinese text should say '小部件'" in problem


def test_glossary_avoided_rendering(tmp_path, capsys):
    data = fixture_data(tmp_path, {"2.0.yaml": [("zh: 小部件可以设置颜色。", "zh: 小部件（挂件）可以设置颜色。")]})
    assert "'挂件' is a wrong rendering of 'widget'" in only_problem(data, capsys, "2.0.yaml")


# Texts that do and do not use a term, at the edges of the finder's shortcut: ASCII texts are
# compared by their lower case before the expression runs, others go to the expression at once.
GLOSSARY_TEXTS = [
    "Two Schedulers now",  # plural, capitals
    "The SCHEDULER.",
    "rescheduler and scheduler-based",  # inside a word, before a dash: not the term
    "schedul",
    "no such word here",
    "\u017fcheduler",  # a long s, which matches s case-insensitively: not ASCII
    "Caf\u00c9 scheduler",  # not ASCII, with the term
    "calls CAF\u00c9 twice",
    "\u8c03\u5ea6\u5668\u5df2\u66f4\u65b0",  # the Han term
]
GLOSSARY_TERMS = [("en", "scheduler"), ("en", "caf\u00e9"), ("en", "C++"), ("zh", "\u8c03\u5ea6\u5668")]


@pytest.mark.parametrize(("lang", "word"), GLOSSARY_TERMS)
def test_the_glossary_finder_says_what_the_terms_expression_says(lang, word):
    """The glossary rule asks _TermFinder whether a text uses a term; its shortcut must never
    change the answer of the term's expression (GlossaryTerm.pattern)."""
    term = GlossaryTerm.model_construct(**{lang: word})
    finder = _TermFinder(term, lang)
    for text in [*GLOSSARY_TEXTS, f"uses {word} here", f"uses {word.upper()}S"]:
        lowered = text.lower() if text.isascii() else None
        assert finder.used_in(text, lowered) == (term.pattern(lang).search(text) is not None), text


def test_chinese_text_must_contain_chinese_and_english_none(tmp_path, capsys):
    data = fixture_data(
        tmp_path,
        {
            "1.1.yaml": [
                ("zh: 读取空文件不再崩溃}", "zh: No crash}"),
                ("en: Reading an empty file no longer crashes.", "en: 不再崩溃"),
            ]
        },
    )
    code, lines = run_validate(data, capsys)
    assert code == 1
    assert any("features[1].title.zh: the Chinese text contains no Chinese" in line for line in lines)
    assert any("features[1].summary.en: the English text contains Chinese characters" in line for line in lines)


def test_a_problem_after_an_invalid_entry_is_located_at_its_own_entry(tmp_path, capsys):
    """An entry with a shape error is left out of the release's record; the entries after it are
    still checked, each at its own line, not at the entry before it."""
    data = fixture_data(
        tmp_path,
        {
            "1.1.yaml": [
                ("stability: stable", "stability: 3"),  # features[0]: a number, not a label
                ("zh: 读取空文件不再崩溃}", "zh: No crash}"),  # features[1]
                ("zh: 请改用 `acme.read`。}", "zh: 请改用 `acme.read`（挂件）。}"),  # changes[0]: glossary
            ]
        },
    )
    path = data / "1.1.yaml"

    def at(value: str) -> str:  # where a value starts in the file
        line = line_of(path, value)
        return f"{path}:{line}:{path.read_text(encoding='utf-8').splitlines()[line - 1].index(value) + 1}"

    code, lines = run_validate(data, capsys)
    assert code == 1
    assert [line for line in lines if line.startswith(str(data))] == [
        f"{path}:{line_of(path, 'stability: 3')}:16: features[0].stability: YAML reads 3 as the number 3, "
        'not as text; put it in quotes: "3"',
        f"{at('No crash}')}: features[1].title.zh: the Chinese text contains no Chinese",
        f"{at('请改用 `acme.read`（挂件）')}: changes[0].migration.zh: '挂件' is a wrong rendering of 'widget'; "
        "write '小部件' (glossary in project.yaml)",
    ]


def test_unknown_highlight_and_part_of(tmp_path, capsys):
    data = fixture_data(
        tmp_path,
        {
            "1.0.yaml": [("highlights: [widgets]", "highlights: [widget]")],
            "2.0.yaml": [("part_of: widgets", "part_of: gadgets")],
        },
    )
    code, lines = run_validate(data, capsys)
    assert code == 1
    assert any(
        "highlights[0]: no entry with id 'widget' in this release (did you mean 'widgets'?)" in line for line in lines
    )
    assert any("features[0].part_of: no feature 'gadgets' in this or an earlier release" in line for line in lines)


def test_a_change_of_a_mistyped_feature_id_is_refused_with_the_id_it_meant(tmp_path, capsys):
    """A typo would otherwise start a second feature, and leave the old reader undeprecated."""
    data = fixture_data(tmp_path, {"1.1.yaml": [("  - id: old-reader", "  - id: old-raeder")]})
    line = line_of(data / "1.1.yaml", "old-raeder")
    assert only_problem(data, capsys, "1.1.yaml") == (
        f"{data / '1.1.yaml'}:{line}:9: changes[0].id: no feature 'old-raeder' in this or an earlier release "
        "(did you mean 'old-reader'?): write the id of the feature it changes, or add `standalone: true` when it "
        "concerns something no release describes (older than the first release, or behaviour rather than a feature)"
    )


def test_a_standalone_change_must_not_name_a_described_feature(tmp_path, capsys):
    data = fixture_data(
        tmp_path, {"1.1.yaml": [("    kind: deprecation\n", "    kind: deprecation\n    standalone: true\n")]}
    )
    line = line_of(data / "1.1.yaml", "standalone: true")
    assert only_problem(data, capsys, "1.1.yaml") == (
        f"{data / '1.1.yaml'}:{line}:17: changes[0].standalone: 'old-reader' is described in 1.0: "
        "remove `standalone: true`, the change is about that feature"
    )


def test_removed_feature_cannot_return(tmp_path, capsys):
    data = fixture_data(tmp_path)
    (data / "2.1.yaml").write_text(
        (data / "2.0.yaml").read_text(encoding="utf-8").replace('version: "2.0"', 'version: "2.1"'),
        encoding="utf-8",
    )
    code, lines = run_validate(data, capsys)
    assert code == 1
    assert any("2.1.yaml" in line and "'old-reader' was removed in 2.0" in line for line in lines)


def test_all_problems_of_all_files_in_one_sorted_run(tmp_path, capsys):
    data = fixture_data(
        tmp_path,
        {
            "1.1.yaml": [("stability: stable", "stability: stabel")],
            "1.0.yaml": [
                ("scheme: stable-experimental\n", "scheme: stable-experimental\nscheme: stable-beta\n"),
                ("title: {en: The old reader, zh: 旧的读取器}", "title: {en: The old reader}"),
            ],
        },
    )
    code, lines = run_validate(data, capsys)
    assert code == 1
    problems = [line for line in lines if line.startswith(str(data))]
    assert len(problems) == 3
    assert problems == sorted(problems, key=lambda p: (p.split(":")[0], int(p.split(":")[1])))
    assert lines[-1] == "3 problems found; nothing was built."


def test_wrong_usage_exits_2(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["validat"])
    assert exit_info.value.code == 2
    with pytest.raises(SystemExit) as exit_info:
        main(["--data", str(tmp_path / "nowhere"), "validate"])
    assert exit_info.value.code == 2
    assert "data folder not found" in capsys.readouterr().err


def test_no_traceback_for_broken_yaml(tmp_path, capsys):
    data = fixture_data(tmp_path, {"1.0.yaml": [("highlights: [widgets]", "highlights: [widgets")]})
    code, lines = run_validate(data, capsys)
    assert code == 1
    assert not any("Traceback" in line for line in lines)
    assert any(line.startswith(f"{data / '1.0.yaml'}:") and "YAML syntax" in line for line in lines)


@pytest.mark.parametrize("reserved", ["changes", "area-core"])
def test_ids_cannot_take_section_anchors(tmp_path, capsys, reserved):
    data = fixture_data(tmp_path, {"1.1.yaml": [("id: crash-on-empty-file", f"id: {reserved}")]})
    assert f"'{reserved}' is reserved for a section of the release page" in only_problem(data, capsys, "1.1.yaml")


def test_alias_cannot_be_a_current_id(tmp_path, capsys):
    data = fixture_data(tmp_path, {"2.0.yaml": [("aliases: [widget-colors]", "aliases: [widgets]")]})
    assert "'widgets' is the id of an entry; an alias must be a former id" in only_problem(data, capsys, "2.0.yaml")


@pytest.mark.parametrize(
    ("target", "message"),
    [
        (
            "changelog/upgrad/?from=1.0&to=2.0",
            "'changelog/upgrad/' is not a page of the site (did you mean 'changelog/upgrade/'?)",
        ),
        ("releases/9.9/", "'releases/9.9/' is not a page of the site"),
    ],
)
def test_redirect_must_lead_to_a_page(tmp_path, capsys, target, message):
    data = fixture_data(tmp_path, {"project.yaml": [("changelog/upgrade/?from=1.0&to=2.0", target)]})
    problem = only_problem(data, capsys, "project.yaml")
    assert f":{line_of(data / 'project.yaml', target)}:" in problem and message in problem


@pytest.mark.parametrize(
    ("former", "message"),
    [
        ("features/widgets/", "'features/widgets/' is a page the site generates (remove this redirect)"),
        ("about/old/", "'about/old/' is outside the generated folders (start it with one of: releases, features"),
    ],
)
def test_redirect_must_not_hide_a_page(tmp_path, capsys, former, message):
    data = fixture_data(tmp_path, {"project.yaml": [("changelog/1.0-to-2.0/:", f"{former}:")]})
    assert message in only_problem(data, capsys, "project.yaml")


def test_two_spellings_of_one_version_are_refused_as_one_release(tmp_path, capsys):
    """1.8-rc1 and 1.8rc1 are one release (versions.version_key): two files would compete for
    one place in every lifecycle. The first file by name keeps it; the other is refused."""
    data = fixture_data(tmp_path)
    (data / "1.8-rc1.yaml").write_text(release_file("1.8-rc1"), encoding="utf-8")
    (data / "1.8rc1.yaml").write_text(release_file("1.8rc1"), encoding="utf-8")
    assert only_problem(data, capsys, "1.8rc1.yaml") == (
        f"{data / '1.8rc1.yaml'}:2:10: version: version '1.8rc1' is the same release as {data / '1.8-rc1.yaml'} "
        "(version '1.8-rc1'): one file per release, remove or renumber one of them"
    )


def test_a_pre_release_and_its_release_are_two_releases(tmp_path, capsys):
    data = fixture_data(tmp_path)
    for version in ("1.8rc1", "1.8", "1.8.1"):
        (data / f"{version}.yaml").write_text(release_file(version), encoding="utf-8")
    assert run_validate(data, capsys) == (0, [])


# A code section, as the real project.yaml has one: Python names under acme (and torch, for the
# abbreviation), C++ names under the acme:: token root.
CODE_SECTION = """code:
  roots:
    python: [acme, torch]
    cpp: ["acme::"]
  abbreviations:
    F: torch.nn.functional
"""
FIXTURE_CODE_SECTION = "code:\n  roots:\n    python: [acme]\n"
WITH_CODE = (FIXTURE_CODE_SECTION, CODE_SECTION)
WIDGET_API = "apis: [acme.widget]"  # 1.0's features[0]


def test_an_abbreviated_api_is_refused_at_its_line_with_the_qualified_name(tmp_path, capsys):
    data = fixture_data(tmp_path, {"project.yaml": [WITH_CODE], "1.0.yaml": [(WIDGET_API, "apis: [F.grid_sample]")]})
    line = line_of(data / "1.0.yaml", "F.grid_sample")
    assert only_problem(data, capsys, "1.0.yaml") == (
        f"{data / '1.0.yaml'}:{line}:12: features[0].apis[0]: 'F.grid_sample' is not under a code root of "
        "project.yaml (acme, torch, acme::): write the qualified name, 'torch.nn.functional.grid_sample'"
    )


def test_without_a_code_section_apis_get_a_warning_naming_the_roots_to_declare(tmp_path, capsys):
    """`releasekb check` would find none of the APIs in code: a warning at the first one, which
    fails only `validate --strict`."""
    data = fixture_data(tmp_path, {"project.yaml": [(FIXTURE_CODE_SECTION, "")]})
    warning = (
        f"{data / '1.0.yaml'}:{line_of(data / '1.0.yaml', WIDGET_API)}:12: warning: features[0].apis[0]: entries "
        "name 1 API, but project.yaml declares no `code.roots`: `releasekb check` cannot find them in code, and "
        "their names are not checked; add `code: {roots: {python: [acme]}}` to project.yaml"
    )
    assert run_validate(data, capsys) == (0, [warning])
    assert main(["--data", str(data), "validate", "--strict"]) == 1
    assert "no errors; 1 warning (warnings above)." in capsys.readouterr().out


def test_without_a_code_section_api_names_are_not_checked(tmp_path, capsys):
    edits = {"project.yaml": [(FIXTURE_CODE_SECTION, "")], "1.0.yaml": [(WIDGET_API, "apis: [F.grid_sample]")]}
    code, lines = run_validate(fixture_data(tmp_path, edits), capsys)
    assert code == 0 and len(lines) == 1 and "warning: features[0].apis[0]: entries name 1 API" in lines[0]


def test_a_cpp_name_under_a_token_root_is_accepted(tmp_path, capsys):
    apis = 'apis: ["acme::Widget", {name: acme.read, use: call}, {name: "acme::draw", use: module}]'
    data = fixture_data(tmp_path, {"project.yaml": [WITH_CODE], "1.0.yaml": [(WIDGET_API, apis)]})
    assert run_validate(data, capsys) == (0, [])


def test_use_call_on_a_cpp_name_is_refused(tmp_path, capsys):
    apis = 'apis: [{name: "acme::Widget", use: call}]'
    data = fixture_data(tmp_path, {"project.yaml": [WITH_CODE], "1.0.yaml": [(WIDGET_API, apis)]})
    line = line_of(data / "1.0.yaml", "acme::Widget")
    column = (data / "1.0.yaml").read_text(encoding="utf-8").splitlines()[line - 1].index("call") + 1
    assert only_problem(data, capsys, "1.0.yaml") == (
        f"{data / '1.0.yaml'}:{line}:{column}: features[0].apis[0].use: `use: call` applies to Python names only"
    )


def test_drop_in_without_a_replacement_is_refused_at_its_key(tmp_path, capsys):
    """`drop_in` says how `replacement` replaces an API (issue 27: `torch.fft.fft` is not a drop-in
    for the old `torch.fft` function); without a replacement it would say nothing."""
    apis = "apis: [{name: acme.widget, drop_in: false}]"
    data = fixture_data(tmp_path, {"1.0.yaml": [(WIDGET_API, apis)]})
    line = line_of(data / "1.0.yaml", "drop_in")
    column = (data / "1.0.yaml").read_text(encoding="utf-8").splitlines()[line - 1].index("false") + 1
    assert only_problem(data, capsys, "1.0.yaml") == (
        f"{data / '1.0.yaml'}:{line}:{column}: features[0].apis[0].drop_in: `drop_in` says whether `replacement` "
        "can be swapped in as it is, and this API names no replacement: add `replacement` or remove `drop_in`"
    )
    with_replacement = "apis: [{name: acme.widget, replacement: acme.box, drop_in: false}]"
    assert run_validate(fixture_data(tmp_path / "ok", {"1.0.yaml": [(WIDGET_API, with_replacement)]}), capsys) == (
        0,
        [],
    )
    not_a_flag = "apis: [{name: acme.widget, replacement: acme.box, drop_in: no-thanks}]"
    code, lines = run_validate(fixture_data(tmp_path / "bad", {"1.0.yaml": [(WIDGET_API, not_a_flag)]}), capsys)
    assert code == 1 and any("drop_in: expected true or false" in line for line in lines), lines


def test_after_an_edit_only_the_changed_file_is_read_again_by_the_per_file_checks(tmp_path, monkeypatch):
    """Under `serve` the data is loaded again after every save: the checks that read one release
    file at a time (its texts' script, the glossary) read only the file that changed, and still
    report what they found in the others."""
    from releasekb.common.problems import DataError
    from releasekb.kb import rules
    from releasekb.kb.validate import LoadedReleases, load_data

    data = fixture_data(tmp_path / "data")
    read = []
    for name in ("_texts_not_in_their_language", "_glossary_not_followed"):
        original = getattr(rules, name)

        def spy(release, *args, original=original, name=name):
            read.append((name, release.record.version))
            return original(release, *args)

        monkeypatch.setattr(rules, name, spy)
    loaded = LoadedReleases()
    load_data(data, loaded)
    assert sorted({version for _, version in read}) == ["1.0", "1.1", "2.0"]
    read.clear()
    load_data(data, loaded)  # nothing saved: nothing read again
    assert read == []

    # an English summary saved in Chinese in 1.1: reported, and only 1.1 is read again
    release = data / "1.1.yaml"
    release.write_text(
        release.read_text(encoding="utf-8").replace("en: Widgets keep their API from now on.", "en: 小部件的 API"),
        encoding="utf-8",
    )
    with pytest.raises(DataError) as raised:
        load_data(data, loaded)
    assert {version for _, version in read} == {"1.1"}
    assert any("1.1.yaml" in str(p) and "contains Chinese characters" in str(p) for p in raised.value.problems)

    # 2.0 changes too: the problem kept for 1.1 is still reported, with 2.0's
    read.clear()
    other = data / "2.0.yaml"
    other.write_text(other.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    with pytest.raises(DataError) as raised:
        load_data(data, loaded)
    assert {version for _, version in read} == {"2.0"}
    assert any("1.1.yaml" in str(p) and "contains Chinese characters" in str(p) for p in raised.value.problems)


def test_a_rule_of_one_release_at_a_time_checks_again_only_the_changed_file(tmp_path):
    """The rules that read one release file at a time (one_release_at_a_time) keep each file's
    problems with its loaded object: after a save, only the saved file is checked again, and the
    problems of the others are still reported."""
    from releasekb.common.problems import Problem
    from releasekb.kb import rules
    from releasekb.kb.validate import LoadedReleases, load_data

    checked = []

    @rules.one_release_at_a_time
    def every_release_has_a_problem(release, project):
        checked.append(release.record.version)
        yield Problem(release.document.display_path, 1, 1, "version", f"seen {release.record.version}")

    data = fixture_data(tmp_path / "data")
    loaded = LoadedReleases()
    first = [str(problem) for problem in every_release_has_a_problem(load_data(data, loaded))]
    assert checked == ["1.0", "1.1", "2.0"] and len(first) == 3
    checked.clear()
    release = data / "1.1.yaml"
    release.write_text(release.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    again = [str(problem) for problem in every_release_has_a_problem(load_data(data, loaded))]
    assert checked == ["1.1"]
    assert again == first
    # the rules of one release at a time in RULES are such rules
    per_release = [rule for rule in rules.RULES if getattr(rule, "__wrapped__", None) is not None]
    assert {rule.__name__ for rule in per_release} >= {"titles_are_unique_in_release", "changes_take_effect_later"}
