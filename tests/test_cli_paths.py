"""The paths a user names to the CLI: a command writes only a regular file (creating it), never
replacing a named pipe, a device or a link, reads a named file only when it is a regular file
under its size limit, and says what is wrong in one sentence, never a traceback.

Every command runs in its own process with a timeout: a command waiting on a named pipe would
wait forever, and the timeout is that test's failure. A file "over the limit" is a sparse file
one byte over it (it costs no disk); a full disk is a file-size limit (RLIMIT_FSIZE), as in
test_atomic_writes.py; a read-only folder is one the command cannot write even as root
(helpers.bound_by_permissions)."""

from __future__ import annotations

import os
import resource
import stat
import subprocess
from pathlib import Path

import pytest

from helpers import FIXTURE_RELEASES, REAL_RELEASES, command_env, data_copy, releasekb_command, write_tree
from releasekb.check.baseline import MAX_BASELINE_BYTES
from releasekb.check.requirement import MAX_PACKAGING_FILE_BYTES
from releasekb.common import atomic
from releasekb.site.contract import MAX_LIST_BYTES

CODE = "import torch\n\nspectrum = torch.fft(signal, 1)\n"
RANGE = ("--from", "1.4", "--to", "1.7")
KEPT = "the file the link points to\n"


def releasekb(cwd: Path, *args: str, disk_left: int | None = None, permissions: bool = False, change: str = ""):
    """`releasekb ARGS` in cwd, in its own process; a hang fails the test."""

    def limits() -> None:
        if disk_left is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (disk_left, disk_left))

    try:
        return subprocess.run(
            releasekb_command(*args, permissions=permissions, change=change),
            cwd=cwd,
            capture_output=True,
            text=True,
            env={**command_env(), "PYTHONDONTWRITEBYTECODE": "1"},
            preexec_fn=limits,
            timeout=120,  # a guard against a hang, not a measure
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"`releasekb {' '.join(args)}` hung (opened a named pipe?)")


def assert_one_sentence(result, *parts: str, status: int = 2) -> None:
    """The command failed with `status` and said so in one line holding every part."""
    assert result.returncode == status, result.stdout + result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for part in parts:
        assert part in lines[0], result.stderr


def is_fifo(path: Path) -> bool:
    return stat.S_ISFIFO(os.lstat(path).st_mode)


def sparse_file(path: Path, size: int) -> Path:
    with open(path, "wb") as stream:
        stream.truncate(size)
    return path


@pytest.fixture
def project(tmp_path) -> Path:
    """A repository's root with code that has findings, and a named pipe and a link beside it."""
    folder = tmp_path / "project"
    write_tree(folder, {".git/HEAD": "", "a.py": CODE, "kept.txt": KEPT})
    os.mkfifo(folder / "pipe")
    (folder / "link").symlink_to("kept.txt")
    return folder


def check(project: Path, *args: str, **options):
    return releasekb(project, "--data", str(REAL_RELEASES), "check", ".", *RANGE, *args, **options)


def contract(project: Path, *args: str, **options):
    return releasekb(project, "--data", str(FIXTURE_RELEASES), "contract", *args, **options)


# ----------------------------------------------------------------- a named pipe as the output


def test_write_baseline_to_a_named_pipe_is_refused_and_it_stays_one(project):
    result = check(project, "--write-baseline", "pipe")
    assert_one_sentence(result, "pipe: cannot write it (it is a named pipe (FIFO), not a regular file")
    assert is_fifo(project / "pipe")


def test_output_to_a_named_pipe_is_refused_and_it_stays_one(project):
    result = check(project, "--output", "pipe")
    assert_one_sentence(result, "pipe: cannot write it (it is a named pipe (FIFO), not a regular file")
    assert is_fifo(project / "pipe")


def test_contract_append_to_a_named_pipe_is_refused_and_it_stays_one(project):
    result = contract(project, "--append", "pipe")
    assert_one_sentence(result, "pipe: cannot write it (it is a named pipe (FIFO), not a regular file")
    assert is_fifo(project / "pipe")


def test_schema_over_a_named_pipe_in_the_data_folder_is_refused_and_it_stays_one(tmp_path):
    data = data_copy(FIXTURE_RELEASES, tmp_path)
    (data / "release.schema.json").unlink(missing_ok=True)
    os.mkfifo(data / "release.schema.json")
    result = releasekb(tmp_path, "--data", str(data), "schema")
    assert_one_sentence(result, "release.schema.json: cannot write it (it is a named pipe (FIFO)")
    assert is_fifo(data / "release.schema.json")


# ----------------------------------------------------------------- a link as the output


def assert_link_refused(result, project: Path) -> None:
    assert_one_sentence(result, "link: cannot write it (it is a symbolic link: name the file itself")
    assert (project / "link").is_symlink() and os.readlink(project / "link") == "kept.txt"
    assert (project / "kept.txt").read_text(encoding="utf-8") == KEPT


def test_write_baseline_through_a_link_is_refused_and_its_target_kept(project):
    assert_link_refused(check(project, "--write-baseline", "link"), project)


def test_output_through_a_link_is_refused_and_its_target_kept(project):
    assert_link_refused(check(project, "--output", "link"), project)


def test_contract_append_through_a_link_is_refused_and_its_target_kept(project):
    assert_link_refused(contract(project, "--append", "link"), project)


def test_a_link_planted_at_the_temporary_files_name_is_not_followed(tmp_path):
    target, victim = tmp_path / "list.txt", tmp_path / "victim.txt"
    victim.write_text(KEPT, encoding="utf-8")
    (tmp_path / f".list.txt.{os.getpid()}.tmp").symlink_to(victim)
    atomic.write_text(target, "/new/\n")
    assert target.read_text(encoding="utf-8") == "/new/\n" and not target.is_symlink()
    assert victim.read_text(encoding="utf-8") == KEPT


# ----------------------------------------------------------------- reading a named file


def test_a_baseline_from_pyproject_that_is_a_named_pipe_is_refused_unread(project):
    write_tree(project, {"pyproject.toml": '[tool.releasekb.check]\nbaseline = "pipe"\n'})
    result = check(project)
    assert_one_sentence(result, "pipe: cannot read the baseline (it is a named pipe (FIFO), not a regular file)")
    assert "(baseline set in" in result.stderr


def test_a_baseline_over_the_limit_is_refused_naming_the_limit(project):
    sparse_file(project / "baseline.json", MAX_BASELINE_BYTES + 1)
    result = check(project, "--baseline", "baseline.json")
    assert_one_sentence(result, "baseline.json: cannot read the baseline", f"over the limit of {MAX_BASELINE_BYTES:,}")


def test_a_baseline_nested_too_deeply_is_a_sentence(project):
    write_tree(project, {"baseline.json": "[" * 100_000 + "]" * 100_000})
    result = check(project, "--baseline", "baseline.json")
    assert_one_sentence(result, "baseline.json: not a baseline (nested too deeply)")


def test_a_contract_list_that_is_a_named_pipe_is_refused_unread(project):
    result = contract(project, "--check", "pipe")
    assert_one_sentence(result, "pipe: cannot read it (it is a named pipe (FIFO), not a regular file)")


def test_a_contract_list_over_the_limit_is_refused_naming_the_limit(project):
    big = sparse_file(project / "contract.txt", MAX_LIST_BYTES + 1)
    result = contract(project, "--append", "contract.txt")
    assert_one_sentence(result, "contract.txt: cannot read it", f"over the limit of {MAX_LIST_BYTES:,} bytes")
    assert big.stat().st_size == MAX_LIST_BYTES + 1


def test_a_contract_list_that_is_not_utf8_is_a_sentence(project):
    write_tree(project, {"contract.txt": b"/releases/\n\xff\xfe\n"})
    result = contract(project, "--check", "contract.txt")
    assert_one_sentence(result, "contract.txt: not a contract list: not UTF-8 text")


def test_a_pyproject_over_the_limit_is_said_and_the_check_goes_on(project):
    sparse_file(project / "pyproject.toml", MAX_PACKAGING_FILE_BYTES + 1)
    result = check(project, "--format", "json")
    assert result.returncode == 1, result.stderr  # the findings
    assert "Traceback" not in result.stderr
    over = f"{MAX_PACKAGING_FILE_BYTES + 1:,} bytes, over the limit of {MAX_PACKAGING_FILE_BYTES:,} bytes"
    assert f"pyproject.toml: cannot be read as TOML ({over})" in result.stderr


def test_a_pyproject_nested_too_deeply_is_said_and_the_check_goes_on(project):
    write_tree(project, {"pyproject.toml": "a = " + "[" * 100_000 + "]" * 100_000 + "\n"})
    result = check(project, "--format", "json")
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    assert "pyproject.toml: cannot be read as TOML (nested too deeply)" in result.stderr


def test_a_cache_file_that_is_a_named_pipe_is_not_read_and_not_replaced(project):
    (project / ".releasekb-cache").mkdir()
    os.mkfifo(project / ".releasekb-cache" / "scan.json")
    result = check(project)
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    assert "scan.json: cannot write it (it is a named pipe (FIFO)" in result.stderr
    assert is_fifo(project / ".releasekb-cache" / "scan.json")


# ----------------------------------------------------------------- a full disk, a read-only place


def test_output_on_a_full_disk_is_a_sentence_and_no_file(project):
    result = check(project, "--format", "json", "--output", "report.json", disk_left=64)
    assert_one_sentence(result, "report.json: cannot write it (File too large); it is unchanged")
    assert not (project / "report.json").exists()
    assert [path.name for path in project.iterdir() if path.name.endswith(".tmp")] == []


def test_contract_append_to_a_target_that_cannot_be_replaced_is_a_sentence(project):
    # What an immutable file (chattr +i) answers to the rename over it, simulated: tmp_path's
    # file system may not have the attribute, and only root may set it.
    immutable = (
        "import os\ndef refuse(*_):\n    raise PermissionError(1, 'Operation not permitted')\nos.replace = refuse\n"
    )
    write_tree(project, {"contract.txt": "/old/\n"})
    result = contract(project, "--append", "contract.txt", change=immutable)
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert "contract.txt: cannot write it (Operation not permitted); it is unchanged" in result.stderr
    assert (project / "contract.txt").read_text(encoding="utf-8") == "/old/\n"


def test_init_onto_a_file_is_a_sentence_and_the_file_kept(tmp_path):
    (tmp_path / "kb").write_text(KEPT, encoding="utf-8")
    result = releasekb(tmp_path, "init", "kb", "--product", "A")
    assert_one_sentence(result, "kb: cannot write it (it is not a folder: name a new or empty folder)")
    assert (tmp_path / "kb").read_text(encoding="utf-8") == KEPT


def test_init_into_a_read_only_folder_is_a_sentence_and_makes_nothing(tmp_path):
    read_only = tmp_path / "read-only"
    read_only.mkdir()
    read_only.chmod(0o555)
    try:
        result = releasekb(tmp_path, "init", "read-only/kb", "--product", "A", permissions=True)
        assert_one_sentence(result, "read-only/kb: cannot write it (Permission denied)")
        assert list(read_only.iterdir()) == []
    finally:
        read_only.chmod(0o755)


def test_init_on_a_full_disk_leaves_no_folder_behind(tmp_path):
    result = releasekb(tmp_path, "init", "kb", "--product", "A", disk_left=256)
    assert_one_sentence(result, "cannot write it (File too large); it is unchanged")
    assert not (tmp_path / "kb").exists()
