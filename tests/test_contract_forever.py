"""An address once published resolves for good: the committed contract list only grows, and an
address the data stops generating is named, with the way to keep it."""

from __future__ import annotations

from pathlib import Path

from helpers import REAL_RELEASES, ROOT, catalog_of, fixture_data, real_data
from releasekb.cli import main
from releasekb.site.contract import contract_text

CONTRACT = ROOT / "tests" / "url_contract.txt"


def addresses(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("/")]


def test_the_committed_list_holds_the_addresses_published_before_the_pages_were_html():
    """Lost once (2026-11-22 site): the 1.4 entry's former id and the release titles' anchors."""
    published = set(addresses(CONTRACT))
    for prefix in ("/", "/zh/"):
        assert f"{prefix}releases/1.4/#cpp-frontend" in published
        for version in ("0.2", "1.4", "1.5", "1.7"):
            assert f"{prefix}releases/{version}/#pytorch-{version.replace('.', '')}" in published


def test_an_address_the_data_stops_generating_fails_the_check_with_the_way_to_keep_it(tmp_path, capsys):
    data = real_data(tmp_path)
    release = data / "1.4.yaml"
    text = release.read_text(encoding="utf-8")
    assert "    former_anchors: [cpp-frontend]\n" in text
    release.write_text(text.replace("    former_anchors: [cpp-frontend]\n", ""), encoding="utf-8")
    assert main(["--data", str(data), "contract", "--check", str(CONTRACT)]) == 1
    errors = capsys.readouterr().err.splitlines()
    assert len(errors) == 2, errors
    assert errors[0].startswith(f"{CONTRACT}: /releases/1.4/#cpp-frontend: published, but the data no longer")
    assert "former_anchors: [<old id>]" in errors[0]
    assert errors[1].startswith(f"{CONTRACT}: /zh/releases/1.4/#cpp-frontend: ")


def test_append_adds_new_addresses_and_never_removes_one(tmp_path, capsys):
    data = real_data(tmp_path)
    committed = tmp_path / "contract.txt"
    kept = "/releases/0.1/#a-page-that-once-was\n"
    lines = CONTRACT.read_text(encoding="utf-8").replace("\n/releases/1.7/#torch-fft\n", "\n") + kept
    committed.write_text(lines, encoding="utf-8")
    assert main(["--data", str(data), "contract", "--append", str(committed)]) == 1  # the lost one still fails
    assert "/releases/0.1/#a-page-that-once-was: published, but" in capsys.readouterr().err
    after = addresses(committed)
    assert "/releases/1.7/#torch-fft" in after
    assert "/releases/0.1/#a-page-that-once-was" in after
    assert after == sorted(after)
    assert set(after) == set(addresses(CONTRACT)) | {"/releases/0.1/#a-page-that-once-was"}


def test_append_starts_a_missing_list_and_check_says_how_to(tmp_path, capsys):
    """A new knowledge base has no list yet: --append writes it whole (through a temporary file in
    the same folder, renamed over it, none left behind); --check names the command that starts it."""
    data = fixture_data(tmp_path)
    committed = tmp_path / "url_contract.txt"
    assert main(["--data", str(data), "contract", "--check", str(committed)]) == 2
    assert capsys.readouterr().err == (
        f"{committed}: no such file; start the list with `releasekb contract --append {committed}`\n"
    )
    assert main(["--data", str(data), "contract", "--append", str(committed)]) == 0
    assert committed.read_text(encoding="utf-8") == contract_text(catalog_of(data))
    assert sorted(path.name for path in tmp_path.iterdir()) == ["releases", "url_contract.txt"]
    assert main(["--data", str(data), "contract", "--check", str(committed)]) == 0


def test_the_check_passes_on_the_committed_list(capsys):
    assert main(["--data", str(REAL_RELEASES), "contract", "--check", str(CONTRACT)]) == 0
    assert capsys.readouterr().err == ""


def test_former_anchors_cannot_take_an_entry_id_of_the_same_release(tmp_path, capsys):
    data = real_data(tmp_path)
    release = data / "1.4.yaml"
    text = release.read_text(encoding="utf-8")
    release.write_text(text.replace("former_anchors: [cpp-frontend]", "former_anchors: [nn-gelu]"), encoding="utf-8")
    assert main(["--data", str(data), "validate"]) == 1
    (error,) = [line for line in capsys.readouterr().err.splitlines() if "former_anchors" in line]
    assert "'nn-gelu' is the id of an entry of this release" in error
