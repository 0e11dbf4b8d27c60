"""`releasekb serve` never lies and never lets a request or a signal through raw (issue 34): a file
in docs/ that cannot be read is said in one sentence while the last good site really stays
served (an editor's lock file, a dangling symlink, is no page at all); a request line's escape
codes reach the log visible; HEAD has no body; a path that cannot name a file is a 400; Ctrl-C
and SIGTERM end serve with one line, no traceback and no temporary folder left."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
from pathlib import Path

import pytest

from helpers import (
    FIXTURE_RELEASES,
    children_of,
    command_env,
    copy_project,
    fetch,
    free_port,
    releasekb_command,
    serve,
    temporary_leftovers,
    wait_for,
)

ABOUT = "docs/en/about.md"


def logged(log, text: str) -> bool:
    log.seek(0)
    return text in log.read()


def append(path: Path, text: str) -> None:
    """A save of a hand-written page: it starts a rebuild."""
    path.write_text(path.read_text(encoding="utf-8") + f"\n{text}\n", encoding="utf-8")


@pytest.fixture
def project(tmp_path):
    return copy_project(tmp_path / "p", FIXTURE_RELEASES)


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


# --------------------------------------------------------------------------- files in docs/


def test_an_editors_lock_file_is_no_page_and_the_site_is_served(project, tmp_path):
    """Emacs makes `.#about.md`, a symlink to nowhere, beside a page being edited. MkDocs leaves
    names starting with a dot out of every site, but serve's own look at its sources stat()ed it:
    a traceback, and every URL a 404 while the log said the last good site was served."""
    (project / "docs/en/.#about.md").symlink_to("curator@host.1234:1700000000")
    with open(tmp_path / "serve.log", "w+") as log:
        process, base = serve(project, log)
        try:
            wait_for(lambda: "<h1" in fetch(f"{base}/about/"), 90, "the first build, the lock file beside about.md")
            (project / "docs/zh/.#about.md").symlink_to("curator@host.1234:1700000000")  # one made while serving
            append(project / ABOUT, "A paragraph saved beside a lock file.")
            wait_for(lambda: "saved beside a lock file" in fetch(f"{base}/about/"), 60, "the edit to be served")
            assert not logged(log, "Traceback")
            assert not logged(log, "not rebuilt")
        finally:
            stop(process)


def make_unreadable(page: Path, fault: str) -> str:
    """Turn the hand-written page into something MkDocs cannot read; returns why serve says."""
    if fault == "dangling symlink":
        page.symlink_to("missing.md")
        return "is a symlink to a missing file"
    if fault == "fifo":
        os.mkfifo(page)
        return "is not a regular file (a FIFO, a socket or a device)"
    page.write_text("# Notes\n", encoding="utf-8")
    page.chmod(0)
    return "cannot be read (permission denied)"


FAULTS = ["dangling symlink", "fifo", "no permission"]


@pytest.mark.parametrize("fault", FAULTS)
def test_a_page_that_cannot_be_read_is_said_and_the_last_good_site_stays_served(project, tmp_path, fault):
    """A dangling symlink made MkDocs' build raise (a traceback), a page without read permission
    too, and a FIFO held the build, and with it every request, forever."""
    notes = project / "docs/en/notes.md"
    with open(tmp_path / "serve.log", "w+") as log:
        process, base = serve(project, log, permissions=True)
        try:
            wait_for(lambda: "<h1" in fetch(f"{base}/about/"), 90, "the first build")
            why = make_unreadable(notes, fault)
            append(project / ABOUT, "A paragraph saved while notes.md cannot be read.")
            said = f"site not rebuilt: docs/en/notes.md {why} (the last good site is still served)"
            wait_for(lambda: logged(log, said), 60, "the file to be named")
            # served, as said (fetch gives up after a few seconds: a guard against a wedged server)
            page = fetch(f"{base}/about/")
            assert "<h1" in page and "notes.md cannot be read" not in page
            assert ".md-typeset" in fetch(f"{base}/assets/releasekb.css")
            assert not logged(log, "Traceback")
            notes.unlink()
            wait_for(lambda: "notes.md cannot be read" in fetch(f"{base}/about/"), 60, "the site to come back")
        finally:
            stop(process)


def test_a_page_that_cannot_be_read_at_the_start_is_said_without_claiming_a_site_is_served(project, tmp_path):
    """Before the first build succeeds there is no last good site: serve must not say there is."""
    notes = project / "docs/en/notes.md"
    notes.symlink_to("missing.md")
    with open(tmp_path / "serve.log", "w+") as log:
        process, base = serve(project, log)
        try:
            said = "site not built: docs/en/notes.md is a symlink to a missing file (nothing is served until it builds)"
            wait_for(lambda: logged(log, said), 90, "the file to be named")
            assert not logged(log, "still served")
            notes.unlink()
            wait_for(lambda: "<h1" in fetch(f"{base}/about/"), 90, "the site, once the symlink is gone")
            assert not logged(log, "Traceback")
        finally:
            stop(process)


def test_a_file_fixed_while_the_first_build_runs_is_seen(project, tmp_path):
    """The curator's fix saved the moment the first build named the file (before MkDocs' server
    would have started watching) brings the site: serve watches from before its first build."""
    notes = project / "docs/en/notes.md"
    notes.symlink_to("missing.md")
    fixed_right_after_the_first_build = (
        "from releasekb.serve import server\n"
        "first = server._Rebuilds.__call__\n"
        "def build_then_fix(self):\n"
        "    first(self)\n"
        "    server._Rebuilds.__call__ = first\n"
        f"    __import__('os').unlink({str(notes)!r})\n"
        "server._Rebuilds.__call__ = build_then_fix\n"
    )
    with open(tmp_path / "serve.log", "w+") as log:
        process, base = serve(project, log, change=fixed_right_after_the_first_build)
        try:
            wait_for(lambda: logged(log, "site not built: docs/en/notes.md is a symlink"), 90, "the file to be named")
            wait_for(lambda: not notes.is_symlink(), 90, "the fix")
            wait_for(lambda: "<h1" in fetch(f"{base}/about/"), 90, "the site, once the file was fixed")
            assert not logged(log, "Traceback")
        finally:
            stop(process)


# --------------------------------------------------------------------------- requests


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """One serve for the request tests: (address, log)."""
    tmp_path = tmp_path_factory.mktemp("requests")
    project = copy_project(tmp_path / "p", FIXTURE_RELEASES)
    with open(tmp_path / "serve.log", "w+b") as log:
        process, base = serve(project, log)
        try:
            wait_for(lambda: "<h1" in fetch(f"{base}/about/"), 90, "the first build")
            yield ("127.0.0.1", int(base.rsplit(":", 1)[1])), log
        finally:
            stop(process)


def answer(address, request: bytes) -> bytes:
    """The whole answer to a raw request (the server closes the connection after it)."""
    with socket.create_connection(address, timeout=30) as connection:
        connection.sendall(request)
        chunks = []
        while chunk := connection.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def status_of(response: bytes) -> int:
    return int(response.split(b" ", 2)[1])


def log_bytes(log) -> bytes:
    log.seek(0)
    return log.read()


def test_escape_codes_in_a_request_reach_the_log_visible(served):
    """The request line (logged for every answer but a 200) and the Referer of a live-reload poll
    (logged as `Browser connected`) were written raw: a URL could retitle or repaint the terminal."""
    address, log = served
    answer(address, b"GET /\x1b[31mred\x1b]0;pwned\x07 HTTP/1.1\r\nHost: x\r\n\r\n")
    wait_for(lambda: b"GET /\\x1b[31mred\\x1b]0;pwned\\x07 HTTP/1.1" in log_bytes(log), 30, "the request's line")
    # A poll for an epoch the site has not reached waits for it, after logging its Referer.
    with socket.create_connection(address, timeout=30) as poll:
        poll.sendall(b"GET /livereload/99999999999999/1 HTTP/1.1\r\nReferer: http://x/\x1b[2J\x9bhid\r\n\r\n")
        wait_for(lambda: b"Browser connected: http://x/\\x1b[2J" in log_bytes(log), 30, "the poll's Referer")
    assert b"\x1b" not in log_bytes(log)
    assert "\x9b" not in log_bytes(log).decode("utf-8", "replace")


def test_head_answers_with_the_headers_of_get_and_no_body(served):
    address, _ = served
    for path in (b"/about/", b"/no-such-page/"):
        got = answer(address, b"GET " + path + b" HTTP/1.0\r\n\r\n")
        head = answer(address, b"HEAD " + path + b" HTTP/1.0\r\n\r\n")
        got_headers, got_body = got.split(b"\r\n\r\n", 1)
        head_headers, head_body = head.split(b"\r\n\r\n", 1)
        assert head_body == b""
        assert got_body
        assert head_headers.split(b"\r\n")[0] == got_headers.split(b"\r\n")[0]  # the same status
        assert f"Content-Length: {len(got_body)}".encode() in head_headers.split(b"\r\n")


@pytest.mark.parametrize(
    "path",
    [b"/%00", b"/about/%00index.html", b"/%0a", b"/%zz", b"/%4", b"/about/%ff/", b"/\x1bred"],
    ids=["nul", "nul-in-a-name", "newline", "not-hex", "cut-short", "not-utf-8", "raw-escape"],
)
def test_a_path_that_cannot_name_a_file_is_a_bad_request(served, path):
    """A NUL made `open` raise a ValueError, which MkDocs' server answered with a 500 and a
    traceback in the log; a broken escape or bytes that are not UTF-8 were dropped or kept
    as they were, and the path looked up all the same."""
    address, log = served
    assert status_of(answer(address, b"GET " + path + b" HTTP/1.1\r\nHost: x\r\n\r\n")) == 400
    assert status_of(answer(address, b"HEAD " + path + b" HTTP/1.1\r\nHost: x\r\n\r\n")) == 400
    assert b"Traceback" not in log_bytes(log)


@pytest.mark.parametrize(
    ("request_line", "status"),
    [(b"GET /" + b"a" * 300 + b"/ HTTP/1.1", 404), (b"GET /" + b"a/" * 40_000 + b" HTTP/1.1", 414)],
    ids=["name-too-long", "line-too-long"],
)
def test_an_overlong_path_is_answered_not_a_fault(served, request_line, status):
    """Held before this issue too (a guard): a file name longer than the system allows is not
    found, and a request line longer than http.server reads is refused."""
    address, log = served
    assert status_of(answer(address, request_line + b"\r\nHost: x\r\n\r\n")) == status
    assert b"Traceback" not in log_bytes(log)


# --------------------------------------------------------------------------- signals


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="needs process groups")
@pytest.mark.parametrize("moment", ["serving", "building"])
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_a_signal_to_the_process_group_stops_serve_with_one_line(project, tmp_path, monkeypatch, signum, moment):
    """A terminal sends Ctrl-C to the whole process group (a service manager SIGTERM): each
    language worker printed a KeyboardInterrupt traceback, serve itself one when it came during
    the first build, and Pagefind, killed, a search index not updated."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setenv("TMPDIR", str(temporary))
    port = free_port()
    log_path = tmp_path / "serve.log"
    with open(log_path, "w+") as log:
        process = subprocess.Popen(
            releasekb_command("serve", "--dev-addr", f"127.0.0.1:{port}"),
            cwd=project,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=command_env(),
            start_new_session=True,  # its own process group, as a terminal gives a command
        )
        try:
            if moment == "serving":
                wait_for(lambda: "<h1" in fetch(f"http://127.0.0.1:{port}/about/"), 90, "the first build")
            else:
                wait_for(lambda: logged(log, "Building documentation"), 90, "the first build to start")
            os.killpg(process.pid, signum)
            try:
                status = process.wait(timeout=90)
            except subprocess.TimeoutExpired:
                pytest.fail(f"serve did not end after {signal.Signals(signum).name}")
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
    said = log_path.read_text(encoding="utf-8")
    assert "Traceback" not in said
    assert "KeyboardInterrupt" not in said
    assert "not updated" not in said  # Pagefind, in the same group, ignores the signal: serve ends it
    assert said.count(f"serve stopped ({signal.Signals(signum).name})") == 1
    assert status == (0 if signum == signal.SIGINT else 128 + signum)
    assert temporary_leftovers(temporary) == []
    assert not [path.name for path in project.iterdir() if "staging" in path.name]


def ended(pid: int) -> bool:
    """Whether the process has ended: gone, or a zombie its parent has not reaped yet."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return True
    return "State:\tZ" in status


def log_text(log) -> str:
    log.seek(0)
    return log.read()


linux_only = pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads processes from Linux's /proc")


@linux_only
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_the_groups_signal_reaching_the_workers_first_leaves_the_build_to_serve(project, tmp_path, signum):
    """CI caught the race: a process group's SIGTERM ended the language workers before serve's
    own handler ran, the pool broke, serve took that for a failed build ("site not built: an
    unexpected error") and served on, never ending. Here the signal reaches the workers alone,
    first: they must go on building, and serve, signalled after, ends as usual."""
    with open(tmp_path / "serve.log", "w+") as log:
        process, base = serve(project, log)
        try:
            wait_for(lambda: logged(log, "Building documentation"), 90, "the first build to start")
            workers = children_of(process.pid)
            assert workers, "serve builds in its language workers"
            for worker in workers:
                os.kill(worker, signum)  # an ignored signal is discarded as it is sent: nothing to wait for
            wait_for(lambda: "<h1" in fetch(f"{base}/about/"), 90, "the first build, its workers signalled")
            assert not [worker for worker in workers if ended(worker)]
            process.send_signal(signum)
            status = process.wait(timeout=90)
        finally:
            stop(process)
        said = log_text(log)
    assert "Traceback" not in said and "not built" not in said
    assert said.count(f"serve stopped ({signal.Signals(signum).name})") == 1
    assert status == (0 if signum == signal.SIGINT else 128 + signum)


@linux_only
def test_a_worker_killed_while_serve_waits_is_started_again(project, tmp_path):
    """The kernel's out-of-memory killer, or a user's `kill -9`, ends a language worker while serve
    waits for the next save: the pool it ran in was broken for good, and every later save said
    "site not built: an unexpected error" with a traceback. Now the next save says which build's
    process had ended, starts a new one, and is served."""
    with open(tmp_path / "serve.log", "w+") as log:
        process, base = serve(project, log)
        try:
            wait_for(lambda: "<h1" in fetch(f"{base}/about/"), 90, "the first build")
            workers = children_of(process.pid)
            os.kill(workers[0], signal.SIGKILL)
            wait_for(lambda: ended(workers[0]), 30, "the killed worker to end")
            append(project / ABOUT, "A paragraph saved after a worker was killed.")
            wait_for(lambda: "after a worker was killed" in fetch(f"{base}/about/"), 90, "the edit to be served")
            said = log_text(log)
            assert "build's process had ended (killed, or out of memory); a new one was started" in said
            assert "Traceback" not in said and "not rebuilt" not in said
            assert len(children_of(process.pid)) == len(workers)  # one new worker, no more
        finally:
            stop(process)
