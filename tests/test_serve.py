"""`releasekb serve` shows an edit to a YAML file without a restart, and never wedges: a data file
that cannot be read, a failing background job or a burst of connections leaves it serving."""

import os
import select
import signal
import socket
from pathlib import Path

import pytest

from helpers import (
    FIXTURE_RELEASES,
    children_of,
    copy_project,
    fetch,
    serve,
    temporary_leftovers,
    wait_for,
)


@pytest.fixture
def served_project(tmp_path):
    project = copy_project(tmp_path / "p", FIXTURE_RELEASES)
    log = open(tmp_path / "serve.log", "w+")
    process, base = serve(project, log)
    try:
        yield project, base, log
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

    # Invalid data: the problems are printed (the last good site stays served), and fixing the
    # file brings the site back without a restart.
    release.write_text(text.replace("stability: stable", "stability: stabel"), encoding="utf-8")

    def reported():
        log.seek(0)
        return "features[0].stability: 'stabel' is not one of stable, experimental" in log.read()

    wait_for(reported, 60, "the problem to be reported")
    release.write_text(text.replace("zh: 读取空文件不再崩溃}", "zh: 空文件不再导致崩溃}"), encoding="utf-8")
    wait_for(lambda: "空文件不再导致崩溃" in fetch(page_url), 60, "the site to come back")


def test_hand_written_docs_and_the_configuration_are_watched_too(served_project):
    """serve watches the sources only, not the generated pages: a hand-written page and the
    site's configuration are sources, and editing either rebuilds."""
    project, base, _ = served_project
    wait_for(lambda: fetch(f"{base}/zh/about/"), 90, "the first build")
    about = project / "docs" / "zh" / "about.md"
    about.write_text(about.read_text(encoding="utf-8") + "\n手写页面的新段落。\n", encoding="utf-8")
    wait_for(lambda: "手写页面的新段落" in fetch(f"{base}/zh/about/"), 60, "the edited hand-written page")
    config = project / "mkdocs.yml"
    config.write_text(
        config.read_text(encoding="utf-8") + "\ncopyright: rkb-edit-of-the-configuration\n", encoding="utf-8"
    )
    wait_for(lambda: "rkb-edit-of-the-configuration" in fetch(f"{base}/releases/1.1/"), 60, "the edited configuration")


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="needs Linux /proc to see the worker processes")
def test_sigterm_stops_serve_and_its_language_workers(tmp_path, monkeypatch):
    """...and leaves nothing in the temporary folder: the served site is removed as serve stops
    (the pages for Pagefind's next index are kept in the project, for the next build)."""
    project = copy_project(tmp_path / "p", FIXTURE_RELEASES)
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setenv("TMPDIR", str(temporary))
    with open(tmp_path / "serve.log", "w+") as log:
        process, base = serve(project, log)
        try:
            wait_for(lambda: "<h1" in fetch(base + "/"), 120, "the first build to be served")
            wait_for(lambda: fetch(base + "/zh/pagefind/pagefind-entry.json"), 60, "the first search index")
            assert any(path.name.startswith("releasekb-serve-") for path in temporary.iterdir())
            workers = children_of(process.pid)
            assert workers, "serve builds each language in a worker process"
            process.terminate()
            assert process.wait(timeout=60) != 0
            wait_for(lambda: not any(alive(pid) for pid in workers), 30, "the workers to end with serve")
        finally:
            if process.poll() is None:
                process.kill()
    assert temporary_leftovers(temporary) == []
    assert not (project / ".releasekb-cache").exists()  # Pagefind is given the pages, no file each


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="needs Linux /proc to see the worker processes")
def test_sigkill_of_serve_ends_its_language_workers_too(tmp_path, monkeypatch):
    """SIGKILL runs no cleanup in serve itself: the workers must notice their parent is gone,
    or every killed serve (a test harness timeout, the OOM killer) leaves two builders running.
    What it left in the temporary folder is removed by the next serve."""
    project = copy_project(tmp_path / "p", FIXTURE_RELEASES)
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setenv("TMPDIR", str(temporary))
    with open(tmp_path / "serve.log", "w+") as log:
        process, base = serve(project, log)
        try:
            wait_for(lambda: "<h1" in fetch(base + "/"), 120, "the first build to be served")
            wait_for(lambda: fetch(base + "/zh/pagefind/pagefind-entry.json"), 60, "the first search index")
            workers = children_of(process.pid)
            assert workers, "serve builds each language in a worker process"
            process.kill()
            assert process.wait(timeout=60) == -9
            wait_for(lambda: not any(alive(pid) for pid in workers), 30, "the workers to end with serve")
        finally:
            if process.poll() is None:
                process.kill()
    killed = temporary_leftovers(temporary)
    assert [name.startswith("releasekb-serve-") for name in killed] == [True]

    with open(tmp_path / "serve-again.log", "w+") as log:
        process, base = serve(project, log)
        try:
            wait_for(lambda: fetch(base + "/zh/pagefind/pagefind-entry.json"), 120, "the next serve's search index")
            wait_for(lambda: not set(killed) & set(temporary_leftovers(temporary)), 30, "the leftovers to go")
        finally:
            process.terminate()
            process.wait(timeout=60)


def logged(log, text: str) -> bool:
    log.seek(0)
    return text in log.read()


def save(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize("fault", ["folder", "unreadable"])
def test_a_data_path_that_cannot_be_read_is_a_problem_and_the_last_good_site_stays_served(tmp_path, fault):
    """MkDocs' server holds every request until a rebuild returns: a release path turned into
    a folder made the rebuild raise, and every request, even for the stylesheet, waited."""
    project = copy_project(tmp_path / "p", FIXTURE_RELEASES)
    releases = project / "releases"
    with open(tmp_path / "serve.log", "w+") as log:
        process, base = serve(project, log, permissions=True)
        try:
            wait_for(lambda: "Widgets are stable" in fetch(f"{base}/releases/1.1/"), 90, "the first build")
            if fault == "folder":
                (releases / "1.8.yaml").mkdir()
                where = "releases/1.8.yaml:1:1: (document): is a folder, not a file"
            else:
                (releases / "1.0.yaml").chmod(0)
                where = "releases/1.0.yaml:1:1: (document): cannot be read: permission denied"
            save(releases / "1.1.yaml", "Widgets are stable", "Gadgets are stable")  # a save starts a rebuild
            wait_for(lambda: logged(log, where), 60, "the problem to be reported at its file")
            # served (fetch gives up after a few seconds: a guard against a wedged server)
            assert "Widgets are stable" in fetch(f"{base}/releases/1.1/")
            assert ".md-typeset" in fetch(f"{base}/assets/releasekb.css")
            if fault == "folder":
                (releases / "1.8.yaml").rmdir()
            else:
                (releases / "1.0.yaml").chmod(0o644)
            save(releases / "1.1.yaml", "Gadgets are stable", "Gizmos are stable")
            wait_for(lambda: "Gizmos are stable" in fetch(f"{base}/releases/1.1/"), 60, "the site to come back")
        finally:
            process.terminate()
            process.wait(timeout=30)


# Run in each language's worker: the job writing the machine-readable outputs fails while a
# release's title holds "job-fault" (as a title with an escape character once made feedgen fail).
FAILING_OUTPUTS_JOB = """
from releasekb.site import publish

write_outputs = publish.write_outputs

def write_outputs_unless_told_to_fail(catalog, *args, **kwargs):
    if any("job-fault" in release.title["en"] for release in catalog.releases):
        raise ValueError("a simulated fault in the outputs job")
    return write_outputs(catalog, *args, **kwargs)

publish.write_outputs = write_outputs_unless_told_to_fail
"""


def test_a_failing_background_job_is_logged_and_the_next_save_runs_it_again(tmp_path):
    """One job's error ended the jobs' thread: the API, the badges, the feeds and the search
    index were not updated again until serve was restarted."""
    project = copy_project(tmp_path / "p", FIXTURE_RELEASES)
    release = project / "releases" / "1.1.yaml"
    with open(tmp_path / "serve.log", "w+") as log:
        process, base = serve(project, log, change=FAILING_OUTPUTS_JOB)
        try:
            wait_for(lambda: "Widgets are stable" in fetch(f"{base}/api/releases.json"), 90, "the first build's API")
            save(release, "Widgets are stable", "Widgets are stable job-fault")
            wait_for(lambda: "job-fault" in fetch(f"{base}/releases/1.1/"), 60, "the edited page")
            said = "outputs (en) not updated: ValueError: a simulated fault in the outputs job"
            wait_for(lambda: logged(log, said), 60, "the failed job to be logged")
            save(release, "Widgets are stable job-fault", "Gadgets are stable")
            wait_for(lambda: "Gadgets are stable" in fetch(f"{base}/api/releases.json"), 60, "the API of the next save")
            wait_for(lambda: "Gadgets are stable" in fetch(f"{base}/feed.xml"), 60, "the feed of the next save")
        finally:
            process.terminate()
            process.wait(timeout=30)


BURST = 100  # connections at once: far more than socketserver's queue of 5, far less than any system's limit


def established(connections: list[socket.socket]) -> list[socket.socket]:
    """The connections whose handshake is done (in the server's listen queue, or accepted)."""
    _, writable, _ = select.select([], connections, [], 0)
    return [c for c in writable if c.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0]


def test_a_burst_of_connections_is_queued_not_refused(tmp_path):
    """While the server is stopped nothing accepts, as while its one accepting thread is busy:
    every connection of the burst must wait in its listen queue, and then be answered."""
    project = copy_project(tmp_path / "p", FIXTURE_RELEASES)
    connections: list[socket.socket] = []
    with open(tmp_path / "serve.log", "w+") as log:
        process, base = serve(project, log)
        try:
            wait_for(lambda: fetch(f"{base}/assets/releasekb.css"), 90, "the first build")
            address = ("127.0.0.1", int(base.rsplit(":", 1)[1]))
            os.kill(process.pid, signal.SIGSTOP)
            try:
                for _ in range(BURST):
                    connections.append(socket.socket())
                    connections[-1].setblocking(False)
                    connections[-1].connect_ex(address)
                wait_for(lambda: len(established(connections)) == BURST, 30, "every connection to be queued")
            finally:
                os.kill(process.pid, signal.SIGCONT)
            for connection in connections:
                connection.settimeout(30)  # a guard: each is answered at once
                connection.sendall(b"GET /assets/releasekb.css HTTP/1.0\r\n\r\n")
            status_lines = [connection.makefile("rb").readline() for connection in connections]
            assert [line for line in status_lines if b" 200 " not in line] == []
        finally:
            for connection in connections:
                connection.close()
            process.terminate()
            process.wait(timeout=30)
