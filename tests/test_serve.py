"""`releasekb serve` shows an edit to a YAML file without a restart."""

import os
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from conftest import FIXTURES, copy_project


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def fetch(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.read().decode("utf-8")
    except OSError:
        return ""


def wait_for(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.3)
    pytest.fail(f"timed out after {timeout}s waiting for {what}")


def serve(project, log):
    """`releasekb serve` on a free port; returns (process, base URL)."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "releasekb.cli", "serve", "--dev-addr", f"127.0.0.1:{port}"],
        cwd=project,
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    return process, f"http://127.0.0.1:{port}"


@pytest.fixture
def served_project(tmp_path):
    project = copy_project(tmp_path / "p", FIXTURES / "releases")
    port = free_port()
    log = open(tmp_path / "serve.log", "w+")
    process = subprocess.Popen(
        [sys.executable, "-m", "releasekb.cli", "serve", "--dev-addr", f"127.0.0.1:{port}"],
        cwd=project,
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    try:
        yield project, f"http://127.0.0.1:{port}", log
    finally:
        process.terminate()
        process.wait(timeout=20)
        log.close()


def test_yaml_edit_appears_without_restart(served_project):
    project, base, log = served_project
    page_url = f"{base}/zh/releases/1.1/"
    wait_for(lambda: "小部件转为稳定" in fetch(page_url), 90, "the first build")
    release = project / "releases" / "1.1.yaml"
    text = release.read_text(encoding="utf-8")
    release.write_text(text.replace("zh: 读取空文件不再崩溃}", "zh: 空文件读取问题已修复}"), encoding="utf-8")
    wait_for(lambda: "空文件读取问题已修复" in fetch(page_url), 60, "the edited title to be served")

    # Invalid data: the problems are printed (MkDocs holds page requests until the data is
    # valid again), and fixing the file brings the site back without a restart.
    release.write_text(text.replace("stability: stable", "stability: stabel"), encoding="utf-8")

    def reported():
        log.seek(0)
        return "features[0].stability: 'stabel' is not one of stable, experimental" in log.read()

    wait_for(reported, 60, "the problem to be reported")
    release.write_text(text.replace("zh: 读取空文件不再崩溃}", "zh: 空文件不再导致崩溃}"), encoding="utf-8")
    wait_for(lambda: "空文件不再导致崩溃" in fetch(page_url), 60, "the site to come back")
