"""Work left for after the page has reloaded under `serve` (afterwards.py): the search index and
the machine-readable outputs."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from releasekb.site import afterwards, search


@pytest.fixture
def jobs():
    """A process's jobs, as its build session holds them; settled after each test."""
    jobs = afterwards.Jobs()
    yield jobs
    jobs.drop()
    jobs.wait()
    jobs.defer(False)


def test_the_latest_request_of_a_kind_runs_once_after_the_running_one(jobs):
    started, release = threading.Event(), threading.Event()
    runs = []

    def slow_index(name):
        runs.append(name)
        started.set()
        release.wait(timeout=30)

    jobs.defer(True)
    jobs.later("search index (en)", slow_index, "one")
    assert started.wait(timeout=30)
    jobs.later("search index (en)", slow_index, "two")  # while the first runs
    jobs.later("outputs (en)", runs.append, "outputs")
    jobs.later("search index (en)", slow_index, "three")  # supersedes "two"
    release.set()
    jobs.wait()
    assert runs == ["one", "outputs", "three"]


def test_a_whole_builds_work_waits_for_its_folder_and_follows_it(jobs, tmp_path):
    """Built in a staging folder, then moved: the held jobs write where the site now is."""
    staging, served = tmp_path / ".site-staging" / "en", tmp_path / "site"
    written = []
    jobs.defer(True, hold=True)
    jobs.later("outputs (en)", lambda folder, name: written.append((folder, name)), staging / "api", "x")
    jobs.wait()
    assert written == []  # held: the folder is not in place yet
    jobs.release({staging: served})
    jobs.wait()
    assert written == [(served / "api", "x")]


def test_a_failed_builds_work_is_dropped(jobs, tmp_path):
    written = []
    jobs.defer(True, hold=True)
    jobs.later("outputs (en)", written.append, Path("x"))
    jobs.drop()
    jobs.later("outputs (zh)", written.append, Path("y"))  # a later build's, not held
    jobs.wait()
    assert written == [Path("y")]


def test_the_work_waits_while_a_build_runs(jobs):
    """Its Python would share the interpreter with the build, and slow the page a curator waits for."""
    steps = []

    def job():
        steps.append("started")
        jobs.give_way()
        steps.append("went on")

    jobs.defer(True)
    jobs.building(True)
    try:
        jobs.later("outputs (en)", job)
        wait_until(lambda: steps == ["started"])
        elsewhere = threading.Thread(target=jobs.give_way)  # the build's own thread, say
        elsewhere.start()
        elsewhere.join(timeout=30)
        assert not elsewhere.is_alive()  # outside the jobs' thread it never waits
        assert steps == ["started"]  # the job still waits: the build runs
    finally:
        jobs.building(False)
    jobs.wait()
    assert steps == ["started", "went on"]


def test_a_failing_job_is_said_and_the_thread_runs_the_next_request(jobs, capsys):
    """One job's error once ended the jobs' thread, and no job ran again in that process: under
    `serve`, the API, badges, feeds and search index were not updated for the rest of the session."""

    def fail():
        raise ValueError("a simulated fault \x1b[31m")

    ran = []
    jobs.defer(True)
    jobs.later("outputs (en)", fail)
    jobs.wait()
    jobs.later("outputs (en)", ran.append, "the next save's")
    jobs.wait()
    assert ran == ["the next save's"]
    said = capsys.readouterr().out
    assert "outputs (en) not updated: ValueError: a simulated fault \\x1b[31m\n" in said


def wait_until(condition, timeout: float = 30) -> None:
    deadline = threading.Event()
    timer = threading.Timer(timeout, deadline.set)
    timer.start()
    try:
        while not condition():
            assert not deadline.wait(0.01), "timed out"
    finally:
        timer.cancel()


def _run_sleep_then(exit_how: str, pid_file: Path) -> None:
    """In a forked process, as in a language worker: a job runs a long command, then the process
    ends while the command still runs."""
    import os
    import signal

    jobs = afterwards.Jobs()

    def job():
        jobs.run_command(["sleep", "120"])

    thread = threading.Thread(target=job, daemon=True)  # as the jobs' thread is
    thread.start()
    while not jobs.running_commands():
        thread.join(0.01)
    pid_file.write_text(str(next(iter(jobs.running_commands()))))
    if exit_how == "killed":
        os.kill(os.getpid(), signal.SIGKILL)
    # "ends": returns, and multiprocessing ends the process as it ends a worker (os._exit)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs Linux /proc to see the command's process")
@pytest.mark.parametrize("exit_how", ["ends", "killed"])
def test_a_jobs_command_ends_with_its_process(tmp_path, exit_how):
    """Pagefind was once found hung, orphaned, writing into a folder serve had removed."""
    import multiprocessing

    from helpers import wait_for

    pid_file = tmp_path / "pid"
    process = multiprocessing.get_context("fork").Process(target=_run_sleep_then, args=(exit_how, pid_file))
    process.start()
    process.join(timeout=60)
    assert process.exitcode == (-9 if exit_how == "killed" else 0)
    command = int(pid_file.read_text())

    def ended() -> bool:
        try:
            state = Path(f"/proc/{command}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            return True
        return state == "Z"  # ended, not yet reaped by init

    wait_for(ended, 30, "the command to end with its process")


def _state(pid: int) -> str:
    """A process's state letter in /proc: T when stopped."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs Linux /proc to see the command's process")
def test_the_jobs_command_is_paused_while_a_build_runs(jobs, tmp_path):
    """Pagefind indexing after a save took the cores from the next save's build."""
    import sys

    ticks = tmp_path / "ticks"
    # A command that counts while it runs, as Pagefind works: paused, it counts no more.
    counting = f"import time\nfor n in range(100000):\n    open({str(ticks)!r}, 'w').write(str(n)); time.sleep(0.005)"
    jobs.defer(True)
    jobs.later("search (en)", lambda: jobs.run_command([sys.executable, "-c", counting]))
    wait_until(lambda: jobs.running_commands() and ticks.is_file() and ticks.read_text())
    (command,) = jobs.running_commands()
    jobs.building(True)
    try:
        wait_until(lambda: _state(command) == "T")  # stopped: the kernel runs none of it
        paused_at = ticks.read_text()
    finally:
        jobs.building(False)
    wait_until(lambda: ticks.read_text() != paused_at)  # it goes on where it was
    assert _state(command) != "T"
    jobs.end_commands()
    jobs.wait()


def test_a_command_is_known_before_a_stop_signal_is_handled(jobs, monkeypatch):
    """An interrupted build once left its staging folder behind: the worker's stop signal came
    while Pagefind was starting, before the worker knew it, so it was not ended with the worker
    and wrote on into the folder its builder had just removed."""
    import signal
    import subprocess
    import sys

    masks = []
    real_popen = subprocess.Popen

    def popen(*args, **kwargs):
        masks.append(signal.pthread_sigmask(signal.SIG_BLOCK, []))  # this thread's blocked signals now
        return real_popen(*args, **kwargs)

    monkeypatch.setattr(afterwards.subprocess, "Popen", popen)
    before = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    done = jobs.run_command(
        [sys.executable, "-c", "import signal, sys; sys.exit(len(signal.pthread_sigmask(signal.SIG_BLOCK, [])))"]
    )
    assert {afterwards.STOP_WORKER, signal.SIGINT, signal.SIGTERM} <= masks[0]
    assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == before  # unblocked again once it is known
    assert done.returncode == len(before)  # the command itself starts with none of them blocked


def test_the_search_pages_give_way_before_each_page_is_made(tmp_path):
    """Making each page's HTML for Pagefind is the index job's Python: at 80 releases, thousands of
    pages, which made a save's build wait while the job held the interpreter. It gives way before
    each page is made, not only before it is sent to Pagefind (afterwards.Jobs.give_way)."""
    steps = []

    class Document(search.SearchDocument):
        def html(self, lang: str) -> str:
            steps.append(f"made {self.url}")
            return super().html(lang)

    class Recording(afterwards.Jobs):
        def give_way(self) -> None:
            steps.append("gave way")

    documents = [Document(f"page-{n}/", f"Page {n}", "<p>text</p>") for n in range(3)]
    search.Indexer(Recording()).index(documents, "en", tmp_path / "pagefind")
    made = [number for number, step in enumerate(steps) if step.startswith("made")]
    assert [steps[number] for number in made] == ["made page-0/", "made page-1/", "made page-2/"]
    assert all(steps[number - 1] == "gave way" for number in made), steps
    assert len(list((tmp_path / "pagefind" / "fragment").glob("*.pf_fragment"))) == 3


@pytest.mark.parametrize("output", ["json_api", "badges", "inventory"])
def test_an_output_of_thousands_of_features_gives_way_in_steps(tmp_path, output):
    """Under `serve` the outputs are written by the jobs' thread, whose Python shares the worker's
    interpreter with the next save's build: badges, the API's features and the inventory give way
    every few hundred features, not once per output, and make the same files either way."""
    from releasekb.bench.corpus import Corpus
    from releasekb.kb.pipeline import load_catalog
    from releasekb.site import outputs

    Corpus(8, 120, seed=5).write(tmp_path / "releases")
    catalog = load_catalog(tmp_path / "releases")
    assert len(catalog.features) > 600
    module = getattr(outputs, output)
    steps = []
    made = module.files(catalog, "en", "", lambda: steps.append(1))
    # every few hundred features; the API besides before and after each of its documents
    per_document = 2 * len(catalog.releases) if output == "json_api" else 0
    assert len(steps) >= len(catalog.features) // 200 + per_document
    assert made == module.files(catalog, "en", "")


def test_a_command_talked_to_ends_when_the_talk_fails(jobs):
    """The Pagefind service reads until its input ends: a talk that fails halfway (any error, not
    only the service's) must still close it, or the build would wait for the service forever."""
    raised = []

    def failing_talk(process):
        process.stdin.write(b"half a request")
        raise TypeError("the talk failed")

    def run():
        try:
            jobs.talk_to_command(["cat"], failing_talk)  # cat, like the service, ends at the input's end
        except TypeError as error:
            raised.append(str(error))

    talking = threading.Thread(target=run, daemon=True)
    talking.start()
    talking.join(timeout=120)  # a guard, not a measure: the call returns at once when it works
    assert not talking.is_alive(), "the command was left waiting for its input"
    assert raised == ["the talk failed"]
    assert jobs.running_commands() == []


def test_a_job_whose_command_the_process_ends_is_not_reported_as_failed(jobs, capsys):
    """A serve stopped by Ctrl-C ends the search index's Pagefind with it (end_commands): the job
    then fails, and said "search index (zh) not updated" as serve stopped, which was not true of
    anything the curator could act on. A job failing on its own is still said."""

    def index_with_a_command(command):
        if jobs.run_command(command).returncode != 0:
            raise RuntimeError("Pagefind ended before it wrote the index")

    jobs.defer(True)
    jobs.later("search index (en)", index_with_a_command, ["false"])
    jobs.wait()
    assert "search index (en) not updated: Pagefind ended before it wrote the index" in capsys.readouterr().out

    jobs.later("search index (zh)", index_with_a_command, ["sleep", "120"])
    wait_until(lambda: jobs.running_commands())
    jobs.end_commands()
    jobs.wait()
    assert "not updated" not in capsys.readouterr().out
