"""Temporary folders named with their process's id: what a killed process left is removed by the
next one (leftovers.py)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from releasekb.site import leftovers


def ended_process_id() -> int:
    process = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    return int(process.stdout)


def test_a_new_folder_removes_those_of_ended_processes_only(tmp_path):
    dead = ended_process_id()
    orphan = tmp_path / f"kb-serve-{dead}-abc"
    (orphan / "site").mkdir(parents=True)
    (orphan / "site" / "index.html").write_text("left by a killed serve")
    alive = tmp_path / f"kb-serve-{os.getppid()}-def"  # our parent: running
    alive.mkdir()
    other_prefix = tmp_path / f"kb-build-{dead}-ghi"
    other_prefix.mkdir()

    made = leftovers.temporary_folder("kb-serve-", tmp_path)

    assert made.name.startswith(f"kb-serve-{os.getpid()}-") and made.is_dir()
    assert not orphan.exists()
    assert alive.is_dir() and other_prefix.is_dir()


def test_without_a_parent_it_is_made_in_the_temporary_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr("tempfile.tempdir", None)  # read TMPDIR again
    made = leftovers.temporary_folder("kb-pages-")
    assert made.parent == tmp_path


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="needs Linux /proc to see a zombie")
def test_a_zombie_counts_as_ended():
    """Where nothing reaps an orphan (the init of some containers), a killed worker stays a
    zombie: os.kill still finds it, but its folders are left over all the same."""
    zombie = subprocess.Popen([sys.executable, "-c", "pass"])
    try:
        while open(f"/proc/{zombie.pid}/stat").read().rsplit(")", 1)[1].split()[0] != "Z":
            os.sched_yield()
        assert not leftovers.process_alive(zombie.pid)
    finally:
        zombie.wait()
    assert leftovers.process_alive(os.getpid())
