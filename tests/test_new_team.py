"""What a new team meets on its first day, from the wheel (issue 35, part 5): no word of this
repository's product in anything it is given, a requirements.txt that installs what ran `init`,
one cache folder, README pointers and fences that hold, a contract list that names no path of
ours, `translations --reviewed` with project.yaml, a missing schema line as a warning, and a
reference of the release-file keys generated from the model.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from helpers import ROOT, command_env, fixture_data, run_check, run_validate, write_tree
from releasekb import cli
from releasekb.check import cache as check_cache
from releasekb.cli import main
from releasekb.common.cache_folder import CACHE_FOLDER
from releasekb.kb import starter
from releasekb.kb.model import ChangeEntry, FeatureEntry, ReleaseFile
from releasekb.kb.schema import _fields, release_reference
from releasekb.kb.translations import LOCK_FILE

README = ROOT / "README.md"
PACKAGE = ROOT / "scripts" / "releasekb"
# Words of PyTorch, this repository's own content: whole words, any case (`torch.fft`,
# `torch-fft` and `torchvision` each hold one).
PYTORCH_WORDS = re.compile(
    r"(?<![a-z0-9])(torch\w*|pytorch|libtorch|caffe2|fft|cuda|cudnn|autograd|rpc|grid_sample)(?![a-z0-9])",
    re.IGNORECASE,
)


def releasekb(venv: Path, *args: str, cwd: Path, ok: bool = True) -> subprocess.CompletedProcess:
    """A command of the installed releasekb, as a new team runs it."""
    command = [str(venv / "bin" / "releasekb"), *args]
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=command_env(), timeout=600)
    if ok:
        assert result.returncode == 0, f"{command}:\n{result.stdout}\n{result.stderr}"
    return result


def pytorch_words(text: str) -> list[str]:
    return sorted({match.group(0) for match in PYTORCH_WORDS.finditer(text)})


def texts_of(files) -> dict[str, str]:
    """{file: its text} for every text file among files."""
    texts = {}
    for path in files:
        try:
            texts[str(path)] = Path(path).read_text(encoding="utf-8")
        except UnicodeDecodeError:  # Pagefind's binary index: its words are the pages'
            continue
    return texts


def words_in(texts: dict[str, str]) -> dict[str, list[str]]:
    """{file: the PyTorch words in it} for every file that has one."""
    return {path: words for path, text in texts.items() if (words := pytorch_words(text))}


def installed_package(venv: Path) -> Path:
    (package,) = venv.glob("lib/python*/site-packages/releasekb")
    return package


# ----------------------------------------------------------------- no PyTorch word


def test_no_word_of_our_product_in_what_init_new_the_package_and_the_site_give_a_new_team(installed_venv, tmp_path):
    folder = tmp_path / "zephyr-kb"
    said = [releasekb(installed_venv, "init", str(folder), "--product", "Zephyr Queue", cwd=tmp_path)]
    said.append(releasekb(installed_venv, "new", "1.1", cwd=folder))
    written = texts_of(path for path in folder.rglob("*") if path.is_file())
    assert str(folder / "releases" / "1.1.yaml") in written and len(written) > 10
    # what the commands say when a new team gets things wrong, and their help
    said.append(releasekb(installed_venv, "validate", cwd=folder, ok=False))  # the skeleton's TODOs
    assert "such as 'fast-io'" in said[-1].stderr
    (folder / "releases" / "1.1.yaml").unlink()  # unfinished: it would not build
    said.append(releasekb(installed_venv, "translations", "--reviewed", "no-such-entry", cwd=folder, ok=False))
    assert "names no release file" in said[-1].stderr
    said.append(releasekb(installed_venv, "translations", "--help", cwd=folder))
    said.append(releasekb(installed_venv, "contract", "--help", cwd=folder))
    said.append(releasekb(installed_venv, "build", cwd=folder))
    said.append(releasekb(installed_venv, "contract", cwd=folder))
    built = texts_of(path for path in folder.rglob("*") if path.is_file())
    assert len([path for path in built if path.endswith(".html")]) > 10
    # every file of the package that reaches a team or its readers: templates, theme, scripts,
    # stylesheets, starter files, schemas, interface strings (its Python is not shipped to readers)
    shipped = texts_of(
        path
        for path in installed_package(installed_venv).rglob("*")
        if path.is_file() and path.suffix not in (".py", ".pyc")
    )
    assert {Path(path).name for path in shipped} >= {"releasekb.css", "releasekb.js", "en.yaml", "404.html"}
    assert words_in(written) == {}
    assert words_in(shipped) == {}
    assert words_in(built) == {}
    output = {" ".join(result.args[1:]): pytorch_words(result.stdout + result.stderr) for result in said}
    assert output == {command: [] for command in output}


@pytest.mark.parametrize("command", [None, *(command.NAME for command in cli.COMMANDS)])
def test_no_word_of_our_product_in_any_commands_help(command, capsys):
    with pytest.raises(SystemExit) as exit_:
        main([command, "--help"] if command else ["--help"])
    assert exit_.value.code == 0
    assert pytorch_words(capsys.readouterr().out) == []


def test_every_locale_the_package_ships_is_searched(installed_venv):
    """The test above reads every locale there is, a new one (ja.yaml) included."""
    locales = {path.name for path in (installed_package(installed_venv) / "common" / "locales").glob("*.yaml")}
    assert locales == {path.name for path in (PACKAGE / "common" / "locales").glob("*.yaml")}
    assert {"en.yaml", "zh.yaml"} <= locales


# ----------------------------------------------------------------- requirements.txt


def requirement_lines(folder: Path) -> list[str]:
    text = (folder / "requirements.txt").read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line and not line.startswith("#")]


def test_requirements_txt_installs_the_wheel_that_ran_init_and_init_says_where_to_point_it(installed_venv, tmp_path):
    folder = tmp_path / "kb"
    result = releasekb(installed_venv, "init", str(folder), "--product", "A", cwd=tmp_path)
    (wheel,) = (installed_venv.parent / "wheels").glob("releasekb-*.whl")
    assert requirement_lines(folder) == [f"releasekb @ {wheel.as_uri()}"]
    # it exists: pip finds and takes it, as the deploy workflow's `pip install -r` would
    downloads = tmp_path / "downloads"
    command = [str(installed_venv / "bin" / "pip"), "download", "-q", "--no-deps", "-d", str(downloads)]
    downloaded = subprocess.run([*command, "-r", "requirements.txt"], cwd=folder, capture_output=True, text=True)
    assert downloaded.returncode == 0, downloaded.stderr
    assert [path.name for path in downloads.iterdir()] == [wheel.name]
    # a file on this machine only: init says so, and what to write instead
    warning = [line for line in result.stderr.splitlines() if line.startswith("warning: ")]
    assert warning == [
        f"warning: requirements.txt says `releasekb @ {wheel.as_uri()}`, a place on this machine only: before "
        f"the deploy workflow runs, write there an address it can reach (releasekb=={wheel.name.split('-')[1]} "
        "from your package index, releasekb @ git+https://<host>/<owner>/releasekb@<tag>, or the wheel's https "
        "address)"
    ]


@pytest.mark.parametrize(
    ("direct_url", "expected"),
    [
        (None, "releasekb==2.3.0"),  # from a package index: the same version from there
        (
            {"url": "https://github.com/o/releasekb", "vcs_info": {"vcs": "git", "commit_id": "0ab1"}},
            "releasekb @ git+https://github.com/o/releasekb@0ab1",
        ),
        (
            {"url": "https://files.example.com/releasekb-2.3.0-py3-none-any.whl", "archive_info": {}},
            "releasekb @ https://files.example.com/releasekb-2.3.0-py3-none-any.whl",
        ),
    ],
)
def test_an_installation_others_can_reach_is_written_as_it_is_without_a_warning(monkeypatch, direct_url, expected):
    monkeypatch.setattr(starter, "_installed_from", lambda: (direct_url, "2.3.0"))
    files = starter.starter_files("A", "1.0", starter.datetime.date(2024, 1, 1))
    assert [line for line in files["requirements.txt"].splitlines() if not line.startswith("#")] == [expected]
    assert starter.requirement_note() is None


def test_a_source_tree_that_was_never_installed_is_named_in_a_warning(monkeypatch):
    monkeypatch.setattr(starter, "_installed_from", lambda: (None, None))
    assert starter.requirement() == "releasekb"
    assert "write there where the deploy workflow installs it from" in starter.requirement_note()


# ----------------------------------------------------------------- one cache folder


def test_check_keeps_its_cache_in_the_folder_the_starter_gitignore_lists(checked_project, capsys):
    ignored = starter.starter_files("A", "1.0", starter.datetime.date(2024, 1, 1))[".gitignore"].splitlines()
    write_tree(checked_project, {"src/a.py": "import torch\nspectrum = torch.fft(signal, 1)\n"})
    status, _, err = run_check(capsys, "src", "--from", "1.4", "--to", "1.7")
    assert status == 1, err
    made = sorted(path.name for path in checked_project.iterdir() if path.name.startswith(".releasekb"))
    assert made == [CACHE_FOLDER] and (checked_project / CACHE_FOLDER / "scan.json").is_file()
    assert f"/{CACHE_FOLDER}/" in ignored
    assert check_cache.FOLDER == CACHE_FOLDER  # the folder `init`'s .gitignore lists


def test_an_old_check_cache_folder_is_left_alone_and_never_scanned(checked_project, capsys):
    old = {".releasekb_cache/scan.json": "{not json", ".releasekb_cache/copy.py": "import torch\ntorch.fft(x, 1)\n"}
    write_tree(checked_project, {**old, "src/a.py": "print('no product here')\n"})
    status, _, err = run_check(capsys, ".", "--from", "1.4", "--to", "1.7")
    assert status == 0, err
    assert (checked_project / ".releasekb_cache" / "scan.json").read_text(encoding="utf-8") == "{not json"


# ----------------------------------------------------------------- README pointers and fences


def fenced_lines(markdown: str) -> tuple[list[tuple[int, str]], int | None]:
    """(the lines inside code fences with their numbers, the line of a fence never closed or
    None), as CommonMark reads fences: a closing fence has the opening's character, at least its
    length, and no info string."""
    inside, opening = [], None
    for number, line in enumerate(markdown.splitlines(), start=1):
        fence = re.match(r" {0,3}(`{3,}|~{3,})(.*)$", line)
        if opening is None:
            if fence:
                opening = (number, fence.group(1))
        elif fence and fence.group(1)[0] == opening[1][0] and len(fence.group(1)) >= len(opening[1]):
            if not fence.group(2).strip():
                opening = None
                continue
            inside.append((number, line))
        else:
            inside.append((number, line))
    return inside, (opening[0] if opening else None)


def readme_headings() -> list[str]:
    """The README's headings, those inside code fences left out."""
    text = README.read_text(encoding="utf-8")
    fenced = {number for number, _ in fenced_lines(text)[0]}
    return [
        match.group(1).strip()
        for number, line in enumerate(text.splitlines(), start=1)
        if number not in fenced and (match := re.match(r"#{1,6} (.+)$", line))
    ]


def test_readme_code_fences_are_balanced_and_no_heading_is_inside_one():
    inside, unclosed = fenced_lines(README.read_text(encoding="utf-8"))
    assert unclosed is None, f"README.md:{unclosed}: a code fence that is never closed"
    # code comments are `# ...`; a `## ...` line in a fence is a heading a stray fence swallowed
    assert [(number, line) for number, line in inside if re.match(r"#{2,6} ", line)] == []
    assert {"Check your code", "Engines", "Release file reference"} <= set(readme_headings())


def test_fenced_lines_catches_a_stray_fence():
    inside, unclosed = fenced_lines("text\n\n```python\n## Heading\n\n```bash\nrun\n```\n")
    assert (4, "## Heading") in inside and unclosed is None
    assert fenced_lines("```\na\n```\n```yaml\nb\n")[1] == 4


def readme_pointers(text: str) -> list[str]:
    """The README sections a text names: `see README, <Section>` and `README.md#<anchor>`."""
    return re.findall(r"README, ([A-Z][^).;:\"\n]*)", text) + re.findall(r"README\.md#([\w-]+)", text)


def test_every_readme_section_the_package_names_exists():
    headings = readme_headings()
    anchors = {re.sub(r"[^\w\- ]", "", heading).strip().lower().replace(" ", "-") for heading in headings}
    named = {}
    for path in PACKAGE.rglob("*"):
        if path.is_file() and path.suffix not in (".pyc",):
            for pointer in readme_pointers(path.read_text(encoding="utf-8", errors="replace")):
                named.setdefault(pointer, []).append(path.relative_to(ROOT).as_posix())
    assert "URL scheme" in named  # the pattern finds pointers at all
    missing = {pointer: files for pointer, files in named.items() if pointer not in headings and pointer not in anchors}
    assert missing == {}


def test_the_translations_lock_points_at_a_readme_section_that_exists(tmp_path, capsys):
    data = fixture_data(tmp_path)
    assert main(["--data", str(data), "translations", "--reviewed", "--all"]) == 0
    about = json.loads((data / LOCK_FILE).read_text(encoding="utf-8"))["about"]
    pointers = readme_pointers(about)
    assert pointers and set(pointers) <= set(readme_headings())


# ----------------------------------------------------------------- the URL contract list


def test_the_contract_names_no_path_of_this_repository(tmp_path, capsys):
    data = fixture_data(tmp_path)
    assert main(["--data", str(data), "contract"]) == 0
    printed = capsys.readouterr().out
    assert "tests/url_contract.txt" not in printed and "<this file>" in printed
    # the README's examples are this repository's releases and features: not in another's list
    addresses = printed.splitlines()
    assert {"/", "/features/", "/releases/1.0/", "/features/widgets/", "/zh/changelog/"} <= set(addresses)
    assert "/releases/1.7/" not in addresses and pytorch_words(printed) == []
    listed = tmp_path / "docs" / "addresses.txt"
    listed.parent.mkdir()
    assert main(["--data", str(data), "contract", "--append", str(listed)]) == 0
    assert listed.read_text(encoding="utf-8") == printed  # printed or appended, the same list


# ----------------------------------------------------------------- translations --reviewed project.yaml


def test_reviewed_project_yaml_marks_the_release_files_and_says_project_yaml_has_nothing_tracked(tmp_path, capsys):
    data = fixture_data(tmp_path)
    status = main(
        ["--data", str(data), "translations", "--reviewed", str(data / "project.yaml"), str(data / "1.0.yaml")]
    )
    out, err = capsys.readouterr()
    assert status == 0, err
    assert err == (
        f"releasekb translations: {data / 'project.yaml'}: not a release file; only the texts of release files "
        "are tracked, so there is nothing in it to mark\n"
    )
    records = json.loads((data / LOCK_FILE).read_text(encoding="utf-8"))["zh"]
    assert records and all(key.startswith("1.0:") for key in records)
    assert out.startswith("marked ") and out.rstrip().endswith(LOCK_FILE)


def test_reviewed_project_yaml_alone_marks_nothing_and_succeeds(tmp_path, capsys):
    data = fixture_data(tmp_path)
    assert main(["--data", str(data), "translations", "--reviewed", str(data / "project.yaml")]) == 0
    assert capsys.readouterr().out == "marked 0 texts reviewed\n"
    assert not (data / LOCK_FILE).exists()


def test_an_unknown_target_says_what_targets_are_and_marks_nothing(tmp_path, capsys):
    data = fixture_data(tmp_path)
    assert main(["--data", str(data), "translations", "--reviewed", "1.0", "no-such\x1b[31m"]) == 1
    err = capsys.readouterr().err
    assert "'no-such\\x1b[31m' names no release file" in err and "\x1b" not in err
    assert "name a release file (releases/1.7.yaml), a version (1.7)" in err
    assert not (data / LOCK_FILE).exists()


# ----------------------------------------------------------------- the schema line


def test_a_release_file_without_the_schema_line_is_a_warning(tmp_path, capsys):
    data = fixture_data(tmp_path, {"1.0.yaml": [("# yaml-language-server: $schema=release.schema.json\n", "")]})
    code, lines = run_validate(data, capsys)
    assert code == 0
    assert lines == [
        f"{data / '1.0.yaml'}:1:1: warning: (document): the first line should be "
        "'# yaml-language-server: $schema=release.schema.json' so that editors validate and complete the file "
        "while you type"
    ]
    assert main(["--data", str(data), "validate", "--strict"]) == 1


# ----------------------------------------------------------------- the release-file reference


def test_the_readme_reference_of_release_files_is_the_models():
    readme = README.read_text(encoding="utf-8")
    block = readme.split("<!-- release file reference -->\n", 1)[1].split("\n\n", 1)[0] + "\n"
    assert block == release_reference()
    for row in ("`features[].kind` | no |", "`changes[].kind` | yes |", "`changes[].migration` | yes |"):
        assert row in block
    assert (
        "One of `new`, `improvement`, `fix`, `security`." in block
        and "One of `breaking`, `deprecation`, `removal`." in block
    )
    assert "`features[].apis[].use`" in block and "`sources[].lang`" in block


@pytest.mark.parametrize("model", [ReleaseFile, FeatureEntry, ChangeEntry])
def test_every_release_file_key_is_described(model):
    assert [path for path, field in _fields(model) if not field.description] == []
