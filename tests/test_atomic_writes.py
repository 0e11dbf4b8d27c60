"""The files the CLI writes for curators survive a full disk: the old file stays byte for byte, the
command says so, and no temporary file is left behind.

A full disk is simulated with a file-size limit on the command's process (RLIMIT_FSIZE): a write
past the limit fails with EFBIG just where a full disk fails with ENOSPC, and Python ignores the
SIGXFSZ signal, so the command sees the error as a full disk's OSError."""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import REAL_RELEASES, command_env, data_copy, fill_skeleton
from releasekb.common import atomic

# Below the size of each file the commands write here (the smallest, a new release, is about 1 KB).
DISK_LEFT = 256


def releasekb_on_a_full_disk(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    def full_disk() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (DISK_LEFT, DISK_LEFT))

    return subprocess.run(
        [sys.executable, "-m", "releasekb.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**command_env(), "PYTHONDONTWRITEBYTECODE": "1"},
        preexec_fn=full_disk,
        timeout=300,  # a guard against a hang, not a measure
    )


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


def assert_refused_and_unchanged(result: subprocess.CompletedProcess, folder: Path, before: dict[str, bytes]):
    assert result.returncode == 2, result.stdout + result.stderr
    assert "cannot write it (File too large); it is unchanged" in result.stderr
    assert "Traceback" not in result.stderr
    assert snapshot(folder) == before  # the old files byte for byte, no temporary file left


@pytest.fixture
def data(tmp_path) -> Path:
    return data_copy(REAL_RELEASES, tmp_path)


def test_translations_reviewed_on_a_full_disk_keeps_every_earlier_record(data):
    assert (data / "translations.lock").stat().st_size > DISK_LEFT
    before = snapshot(data)
    result = releasekb_on_a_full_disk(data.parent, "--data", str(data), "translations", "--reviewed", "--all")
    assert_refused_and_unchanged(result, data, before)


def test_contract_append_on_a_full_disk_keeps_the_whole_list(data, tmp_path):
    committed = tmp_path / "contract.txt"
    committed.write_text("# addresses\n" + "".join(f"/old/{n}/\n" for n in range(200)), encoding="utf-8")
    before = snapshot(tmp_path)
    result = releasekb_on_a_full_disk(tmp_path, "--data", str(data), "contract", "--append", str(committed))
    assert result.returncode == 2, result.stderr
    assert "cannot write it (File too large); it is unchanged" in result.stderr
    assert committed.read_bytes() == before["contract.txt"]
    assert [path.name for path in tmp_path.iterdir() if path.name.endswith(".tmp")] == []


def test_new_on_a_full_disk_writes_no_half_release_file(data):
    before = snapshot(data)
    result = releasekb_on_a_full_disk(data.parent, "--data", str(data), "new", "1.8")
    assert_refused_and_unchanged(result, data, before)


def test_schema_on_a_full_disk_keeps_the_old_schemas(data):
    (data / "release.schema.json").write_text("{}\n", encoding="utf-8")  # stale: schema rewrites it
    before = snapshot(data)
    result = releasekb_on_a_full_disk(data.parent, "--data", str(data), "schema")
    assert_refused_and_unchanged(result, data, before)


def test_init_on_a_full_disk_writes_no_file(tmp_path):
    result = releasekb_on_a_full_disk(tmp_path, "init", "--product", "Acme")
    assert result.returncode == 2, result.stderr
    assert "it is unchanged" in result.stderr and "Traceback" not in result.stderr
    assert [path for path in tmp_path.rglob("*") if path.is_file()] == []


def test_an_atomic_write_keeps_the_files_permissions_and_replaces_its_content(tmp_path):
    target = tmp_path / "translations.lock"
    target.write_text("old\n", encoding="utf-8")
    target.chmod(0o640)
    atomic.write_text(target, "new\n")
    assert target.read_text(encoding="utf-8") == "new\n"
    assert target.stat().st_mode & 0o777 == 0o640
    assert sorted(path.name for path in tmp_path.iterdir()) == ["translations.lock"]


def test_new_still_writes_a_release_that_validates_after_the_move_to_atomic_writes(data):
    result = subprocess.run(
        [sys.executable, "-m", "releasekb.cli", "--data", str(data), "new", "1.8.yaml"],
        capture_output=True,
        text=True,
        env=command_env(),
    )
    assert result.returncode == 0, result.stderr
    assert (data / "1.8.yaml").is_file() and not (data / "1.8.yaml.yaml").exists()
    fill_skeleton(data / "1.8.yaml")
    check = subprocess.run(
        [sys.executable, "-m", "releasekb.cli", "--data", str(data), "validate"],
        capture_output=True,
        text=True,
        env=command_env(),
    )
    assert check.returncode == 0, check.stdout + check.stderr
