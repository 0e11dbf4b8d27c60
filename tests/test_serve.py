"""`releasekb serve` shows an edit to a YAML file without a restart."""

import os

import pytest

from helpers import FIXTURE_RELEASES, copy_project, fetch, serve, temporary_leftovers, wait_for


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

    # Invalid data: the problems are printed (MkDocs holds page requests until the data is
    # valid again), and fixing the file brings the site back without a restart.
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


def children_of(pid: int) -> list[int]:
    """Process ids whose parent is `pid` (Linux /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except (OSError, IndexError, ValueError):
                pass  # the process ended while we looked
    return found


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
    assert (project / ".releasekb-cache" / "search-pages" / "zh.json").is_file()


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
