"""Issue 36, items 1 to 3: the knowledge base says which releases it does not describe wherever a
range crosses them (project.yaml `releases_not_described`), a change can take effect in a later
release than the one announcing it (`takes_effect`), and the upgrade view answers a pair that is
no upgrade with a message instead of another range.

The expected releases come from the data (project.yaml and the release files), the expected
sentences from the interface strings: nothing here is copied from the output."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from helpers import REAL_RELEASES, line_of, page_html, problems_of, real_data, static_server
from releasekb.cli import main
from releasekb.common.i18n import interface_strings
from releasekb.common.versions import version_key
from releasekb.kb.catalog import list_text

PROJECT = yaml.safe_load((REAL_RELEASES / "project.yaml").read_text(encoding="utf-8"))
NOT_DESCRIBED = PROJECT["releases_not_described"]
DESCRIBED = sorted((path.stem for path in REAL_RELEASES.glob("[0-9]*.yaml")), key=version_key)
LANGS = {"en": "", "zh": "zh/"}


def between(old: str, new: str) -> list[str]:
    """The releases not described after `old` up to `new`, from project.yaml."""
    return sorted((v for v in NOT_DESCRIBED if version_key(old) < version_key(v) <= version_key(new)), key=version_key)


def plural(lang: str, key: str, count: int) -> str:
    value = interface_strings(lang)[key]
    if isinstance(value, str):
        return value
    return value["one"] if count == 1 and lang == "en" else value["other"]


# --------------------------------------------------------------------------- the data


def test_the_pytorch_releases_between_those_described_are_declared():
    # The real minor releases between 0.2 and 1.7 without a file: none may be silently missing.
    assert NOT_DESCRIBED == ["0.3", "0.4", "1.0", "1.1", "1.2", "1.3", "1.6"]
    assert not set(NOT_DESCRIBED) & set(DESCRIBED)


def test_the_cpp14_requirement_takes_effect_in_1_5(real_catalog):
    entry = next(e for e in real_catalog.release("1.4").changes if "C++11" in e.title["en"])
    assert entry.takes_effect == "1.5"
    assert entry in real_catalog.release("1.5").taking_effect
    assert real_catalog.release("1.7").not_described_before == between("1.5", "1.7")
    assert real_catalog.release("1.4").not_described_before == between("0.2", "1.4")


@pytest.mark.parametrize(
    ("edits", "needle", "message"),
    [
        # a release that has a file cannot be a gap
        ({"project.yaml": [('"1.6"]', '"1.6", "1.5"]')]}, '"1.6", "1.5"]', "'1.5' is described by"),
        # one release twice, in two spellings
        ({"project.yaml": [('"1.6"]', '"1.6", "1.6.0"]')]}, '"1.6.0"', "'1.6.0' is the same release as '1.6'"),
        # not a version
        ({"project.yaml": [('"1.6"]', '"1.6", "one point six"]')]}, "one point six", "releases_not_described[7]"),
        # takes_effect before or at the announcing release
        (
            {"1.4.yaml": [('takes_effect: "1.5"', 'takes_effect: "1.3"')]},
            'takes_effect: "1.3"',
            "'1.3' is not after 1.4",
        ),
        (
            {"1.4.yaml": [('takes_effect: "1.5"', 'takes_effect: "1.4"')]},
            'takes_effect: "1.4"',
            "'1.4' is not after 1.4",
        ),
    ],
)
def test_invalid_coverage_keys_are_located(tmp_path, edits, needle, message):
    data = real_data(tmp_path, edits)
    (name,) = edits
    problems = problems_of(data)
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"{data / name}:{line_of(data / name, needle)}:"), problems
    assert message in problems[0]


# --------------------------------------------------------------------------- pages and the API


@pytest.mark.parametrize("lang", LANGS)
def test_pages_name_the_releases_not_covered(real_site, lang):
    prefix = LANGS[lang]
    t = interface_strings(lang)
    gaps = between("1.5", "1.7")
    section_note = plural(lang, "not_described_before", len(gaps)).format(
        versions=list_text(gaps, t), previous="1.5", version="1.7"
    )
    upgrade = page_html(real_site, prefix + "changelog/upgrade")
    # every section carries the releases just before it, once: the script's one source
    assert f'data-version="1.7" data-not-described="{" ".join(gaps)}"' in upgrade
    assert f'data-not-described="{" ".join(NOT_DESCRIBED)}"' in upgrade
    assert section_note in upgrade
    whole = plural(lang, "not_described_note", 2).format(
        versions=list_text(NOT_DESCRIBED, t), product=PROJECT["product"]["name"][lang]
    )
    assert whole in upgrade
    # the 1.5 section lists the C++14 requirement announced in 1.4, marked as such
    section = upgrade.split('data-version="1.5"', 1)[1].split("</section>", 1)[0]
    assert 'data-announced="1.4"' in section and "C++14" in section
    assert t["takes_effect_announced"].format(announced="1.4", version="1.5") in section

    changelog = page_html(real_site, prefix + "changelog")
    assert whole in changelog and section_note in changelog
    assert whole in page_html(real_site, prefix + "releases")
    assert t["takes_effect_in"].format(version="1.5") in changelog

    # the RPC framework came in 1.4; 1.6 is in its history and not described
    feature = page_html(real_site, prefix + "features/distributed-rpc")
    assert plural(lang, "feature_not_covered", 1).format(versions=list_text(between("1.4", "1.7"), t)) in feature
    first = page_html(real_site, prefix + "releases/1.4")
    assert t["takes_effect_in"].format(version="1.5") in first


def test_the_api_names_the_releases_not_covered(real_site):
    api = real_site / "api"
    for name in ("features.json", "releases.json", "changelog.json", "apis.json"):
        assert json.loads((api / name).read_text(encoding="utf-8"))["not_described"] == NOT_DESCRIBED, name
    releases = {r["version"]: r for r in json.loads((api / "releases.json").read_text(encoding="utf-8"))["releases"]}
    assert releases["1.7"]["not_described_before"] == between("1.5", "1.7")
    features = {f["id"]: f for f in json.loads((api / "features.json").read_text(encoding="utf-8"))["features"]}
    assert features["distributed-rpc"]["not_covered"] == between("1.4", "1.7")
    assert features["cpp11-support"]["entries"][0]["takes_effect"] == "1.5"


# --------------------------------------------------------------------------- check


@pytest.fixture
def code(tmp_path) -> Path:
    folder = tmp_path / "code"
    folder.mkdir()
    (folder / "a.py").write_text("import torch\nx = torch.fft(torch.zeros(4, 2), 1)\n", encoding="utf-8")
    return folder


@pytest.mark.parametrize("lang", LANGS)
def test_check_says_when_its_range_crosses_a_release_not_described(code, capsys, lang):
    strings = interface_strings(lang)
    note = strings["check"]["report"]["not_described_crossed"]
    data = str(REAL_RELEASES)
    main(["--data", data, "check", "--from", "1.4", "--to", "1.7", "--lang", lang, str(code)])
    lines = capsys.readouterr().out.splitlines()
    # the line under the header
    assert lines[1] == note.format(versions=list_text(between("1.4", "1.7"), strings))
    main(["--data", data, "check", "--from", "0.2", "--to", "1.7", "--lang", lang, "--format", "github", str(code)])
    # issue 37: said in the coverage notice the github output ends with
    expected = strings["check_report_scope"]["not_described"].format(versions=list_text(between("0.2", "1.7"), strings))
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("::notice title=releasekb::") and expected in last
    main(["--data", data, "check", "--from", "1.4", "--to", "1.5", "--lang", lang, "--format", "sarif", str(code)])
    run = json.loads(capsys.readouterr().out)["runs"][0]
    assert run["properties"]["notDescribed"] == [] == between("1.4", "1.5")
    notes = [n["message"]["text"] for n in run["invocations"][0]["toolExecutionNotifications"]]
    assert not any(text.startswith(note.split("{")[0]) for text in notes), notes


def test_check_json_and_a_later_effect(code, capsys, tmp_path):
    main(["--data", str(REAL_RELEASES), "check", "--from", "1.5", "--to", "1.7", "--format", "json", str(code)])
    report = json.loads(capsys.readouterr().out)
    assert report["not_described"] == between("1.5", "1.7")
    (finding,) = report["findings"]
    assert finding["in_effect_at_from"] is False
    # The same deprecation announced in 1.7 for 1.8: upgrading from 1.7 to 1.7 it is not in effect
    # yet at --from, as without takes_effect it is.
    plain = ["check", "--from", "1.7", "--to", "1.7", "--format", "json", "--show-in-effect", str(code)]
    main(["--data", str(REAL_RELEASES), *plain])
    assert json.loads(capsys.readouterr().out)["findings"][0]["in_effect_at_from"] is True
    data = real_data(
        tmp_path,
        {"1.7.yaml": [("  - id: torch-fft-function\n", '  - id: torch-fft-function\n    takes_effect: "1.8"\n')]},
    )
    main(["--data", str(data), *plain])
    assert json.loads(capsys.readouterr().out)["findings"][0]["in_effect_at_from"] is False


# --------------------------------------------------------------------------- the upgrade view in Chromium


@pytest.fixture(scope="module")
def served(chromium, real_site) -> Iterator[str]:
    with static_server(real_site) as url:
        yield url


def expect(*args, **kwargs):
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(*args, **kwargs)


def visible_sections(page) -> list[str]:
    return page.locator(".rkb-upgrade-release:not([hidden])").evaluate_all("s => s.map(x => x.dataset.version)")


@pytest.mark.browser
@pytest.mark.parametrize("width", [1280, 320])
def test_the_upgrade_view_tells_gaps_later_effects_and_wrong_pairs(chromium, served, width):
    context = chromium.new_context(viewport={"width": width, "height": 900})
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        for lang, prefix in LANGS.items():
            t = interface_strings(lang)
            output = page.locator("#rkb-upgrade output")

            def open_pair(old: str, new: str):
                page.goto(f"{served}/{prefix}changelog/upgrade/?from={old}&to={new}")  # noqa: B023

            # across a declared gap: 1.6 is named, and the list says it is incomplete
            open_pair("1.4", "1.7")
            described = [v for v in DESCRIBED if version_key("1.4") < version_key(v) <= version_key("1.7")]
            gaps = list_text(between("1.4", "1.7"), t)
            expect(output).to_have_text(
                plural(lang, "upgrade_showing_gaps", len(described)).format(
                    **{"from": "1.4", "to": "1.7", "count": len(described), "missing": gaps}
                )
            )
            assert visible_sections(page) == described
            expect(output).to_have_class("rkb-incomplete")
            expect(page.locator(".rkb-upgrade-release[data-version='1.7'] .rkb-not-covered")).to_be_visible()

            # from the release that announced a later effect: 1.4 -> 1.5 lists C++14
            open_pair("1.4", "1.5")
            expect(output).to_have_text(
                plural(lang, "upgrade_showing", 1).format(**{"from": "1.4", "to": "1.5", "count": 1})
            )
            effect = page.locator(".rkb-upgrade-release[data-version='1.5'] [data-announced='1.4']")
            expect(effect).to_be_visible()
            expect(effect).to_contain_text("C++14")
            # from before it, the change is read in 1.4's own section, once
            open_pair("0.2", "1.5")
            expect(effect).to_be_hidden()
            expect(page.locator(".rkb-upgrade-release[data-version='1.4']")).to_contain_text("C++14")

            # pairs that are no upgrade: a message, and no section
            wrong = {
                ("1.7", "1.4"): t["upgrade_from_after_to"].format(**{"from": "1.7", "to": "1.4"}),
                ("1.3", "1.7"): t["upgrade_not_described_version"].format(version="1.3"),
                ("1.4", "1.4"): t["upgrade_same_version"].format(version="1.4"),
                ("9.9", "1.7"): t["upgrade_unknown_version"].format(version="9.9"),
            }
            for (old, new), message in wrong.items():
                open_pair(old, new)
                expect(output).to_have_text(message)
                expect(output).to_have_class("rkb-unknown")
                assert visible_sections(page) == [], (old, new)
                if width == 1280:
                    expect(page.locator(".md-nav--secondary a[href='#v1-5']")).to_be_hidden()
                # the address stays what the reader asked for
                assert page.url.endswith(f"?from={old}&to={new}")

            # choosing again from a wrong pair gives an upgrade
            page.locator("#rkb-upgrade select[name='from']").select_option("1.5")
            page.wait_for_url(f"**/changelog/upgrade/?from=1.5&to={new}")
            assert visible_sections(page) == ["1.7"]
        assert errors == []
    finally:
        context.close()
