"""requirement.py: the requirement on the product a checked project declares, read from each
packaging file as pip would read it, with the line it is written on (issue 29, item 4). How `check`
reports a declaration that is too low is in tests/test_check_actionable.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from packaging.specifiers import SpecifierSet

from releasekb.check import requirement


def write(folder: Path, **files: str) -> Path:
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


def found(folder: Path, distribution: str = "torch") -> list[tuple[str, str, int]]:
    declared, unreadable, computed = requirement.declared([folder], distribution)
    assert unreadable == [] and computed == []
    return [(d.file.relative_to(folder).as_posix(), d.text, d.line) for d in declared]


def test_pyproject_dependencies_and_optional_dependencies(tmp_path):
    write(
        tmp_path,
        **{
            "pyproject.toml": (
                '[project]\nname = "demo"\ndependencies = [\n  "numpy",\n  "torch>=1.4",\n]\n\n'
                '[project.optional-dependencies]\naudio = ["Torch ~= 1.5.0"]\n\n'
                '[tool.poetry.dependencies]\ntorch = "^2.0"\n'  # not PEP 508: not read
            )
        },
    )
    assert found(tmp_path) == [("pyproject.toml", "torch>=1.4", 5), ("pyproject.toml", "Torch ~= 1.5.0", 9)]


def test_requirements_files_with_comments_continuations_options_and_urls(tmp_path):
    write(
        tmp_path,
        **{
            "requirements.txt": (
                "# pinned for CI\n-r base.txt\n--index-url https://example.org/simple\n"
                "torch>=1.4  # the oldest we test\n"
                "torch @ https://example.org/torch-1.0.whl\n"  # a URL: its version is unknown
                "torchvision>=0.5 \\\n    ; python_version >= '3.8'\n"
            ),
            "requirements/dev.txt": "pytest\ntorch==1.5.*\n",
            "requirements-docs.txt": "not a requirement !!\n",
        },
    )
    assert found(tmp_path) == [("requirements.txt", "torch>=1.4", 4), ("requirements/dev.txt", "torch==1.5.*", 2)]
    assert found(tmp_path, "torchvision") == [("requirements.txt", "torchvision>=0.5 ; python_version >= '3.8'", 6)]


def test_setup_cfg_install_requires_and_extras(tmp_path):
    write(
        tmp_path,
        **{
            "setup.cfg": (
                "[metadata]\nname = demo\n\n[options]\ninstall_requires =\n    numpy\n    torch>=1.4\n\n"
                "[options.extras_require]\nfft =\n    torch>=1.7\n"
            )
        },
    )
    assert found(tmp_path) == [("setup.cfg", "torch>=1.4", 7), ("setup.cfg", "torch>=1.7", 11)]


def test_an_unpacked_wheel_declares_in_its_metadata_and_a_site_packages_folder_does_not(tmp_path):
    metadata = (
        "Metadata-Version: 2.1\nName: torchvision\nRequires-Dist: numpy\nRequires-Dist: torch==2.9.1\n"
        "\nRequires-Dist: torch<1\n"
    )
    write(tmp_path, **{"torchvision-0.24.1.dist-info/METADATA": metadata})
    # the description after the headers is not metadata
    assert found(tmp_path) == [("torchvision-0.24.1.dist-info/METADATA", "torch==2.9.1", 4)]
    write(tmp_path, **{"numpy-2.0.dist-info/METADATA": "Name: numpy\nRequires-Dist: torch<1\n"})
    assert found(tmp_path) == []  # several packages: none of them is the checked code's project
    write(tmp_path, **{"PKG-INFO": "Name: demo\nRequires-Dist: torch>=1.5\n"})
    assert found(tmp_path) == [("PKG-INFO", "torch>=1.5", 2)]


@pytest.mark.parametrize(
    ("name", "text", "line", "message"),
    [
        ("pyproject.toml", '[project]\ndependencies = [\n  "torch>=1.4",,\n]\n', 3, "is not valid TOML ("),
        ("pyproject.toml", '[project]\ndependencies = [\n  "torch>=1.4"\n', 3, "is not valid TOML ("),  # at its end
        ("setup.cfg", "[options]\ninstall_requires\n  torch\n[options]\n", 4, "is not a valid setup.cfg ("),
        ("requirements.txt", "torch>=1.4\n\udcff\n", 1, "cannot be read ("),
    ],
)
def test_a_packaging_file_that_cannot_be_read_is_named_with_its_line(tmp_path, name, text, line, message):
    (tmp_path / name).write_bytes(text.encode("utf-8", "surrogateescape"))
    declared, (unreadable,), _ = requirement.declared([tmp_path], "torch")
    assert declared == [] and unreadable.file == tmp_path / name and unreadable.line == line
    assert unreadable.message.startswith(message) and unreadable.message.endswith("; its requirements are not checked")


def test_the_folders_read_are_the_checked_ones_and_their_parents_up_to_the_current_directory(tmp_path):
    project = tmp_path / "project"
    (project / "src" / "pkg").mkdir(parents=True)
    (project / "src" / "pkg" / "a.py").write_text("", encoding="utf-8")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    folders = requirement.project_folders([str(project / "src" / "pkg" / "a.py"), str(outside)], project)
    assert folders == [project / "src" / "pkg", project / "src", project, outside]


@pytest.mark.parametrize(
    ("specifier", "needed", "too_low"),
    [
        (">=1.4", "1.7", True),
        (">=1.7", "1.7", False),
        (">=1.7.0", "1.7", False),
        ("", "1.7", True),  # no version: any release, however old
        ("<2,!=1.5", "1.7", True),
        (">1.6.5", "1.7", True),
        (">=1.8", "1.7", False),
        ("==1.7.*", "1.7", False),
        (">=1.7rc1", "1.7", False),  # a pre-release of 1.7 is not an older release
        (">=1.4", "1.8-lts", True),  # a release the knowledge base spells its own way
    ],
)
def test_whether_a_declaration_allows_releases_before_the_one_needed(specifier, needed, too_low):
    assert requirement.allows_before(SpecifierSet(specifier), needed) is too_low
