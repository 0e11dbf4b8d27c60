"""Pagefind's service mode (releasekb/site/pagefind_service.py): the pages reach Pagefind through
its input, no file is written per page, and the bundle is the one Pagefind's command line makes
from the same pages written as files."""

from __future__ import annotations

import base64
import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest

from releasekb.site import afterwards, pagefind_files, search
from releasekb.site.search import Indexer, SearchDocument

DOCUMENTS = {
    "en": [
        SearchDocument(
            "",
            "Home",
            "<h1>Home</h1><p>Release notes of Acme DB, with distributed queries.</p>",
            (("level", "stable"),),
            (("apis", "acme.connect"),),
        ),
        SearchDocument(
            "features/distributed-queries/",
            "Distributed queries",
            '<h1 id="distributed-queries">Distributed queries</h1><p>Queries run on several nodes.</p>'
            '<h2 id="limits">Limits</h2><p>At most eight nodes per query.</p>',
            (("level", "beta"), ("release", "2.0")),
            (("apis", "acme.distributed.run"),),
        ),
        SearchDocument("releases/2.0/", "2.0", "<h1>2.0</h1><p>Adds distributed queries, in beta.</p>"),
    ],
    "zh": [
        SearchDocument("", "首页", "<h1>首页</h1><p>Acme DB 的发行说明，包括分布式查询。</p>", (("level", "stable"),)),
        SearchDocument(
            "features/distributed-queries/",
            "分布式查询",
            '<h1 id="distributed-queries">分布式查询</h1><p>查询在多个节点上运行。</p>',
            (("level", "beta"),),
        ),
    ],
}


def fragments_by_url(bundle: Path) -> dict[str, dict]:
    """{url: the page as Pagefind keeps it in its fragment (text, title, filters, meta, anchors)}."""
    pages = {}
    for fragment in bundle.glob("fragment/*.pf_fragment"):
        text = gzip.decompress(fragment.read_bytes()).decode("utf-8")
        page = json.loads(text[text.index("{") :])
        pages[page["url"]] = page
    return pages


def index_words(bundle: Path) -> dict[str, int]:
    """{word of the index: on how many pages}: what a query can find, whatever order the pages
    are numbered in (an index chunk lists [word, [[page, locations, ...], ...], ...] entries)."""
    words = {}
    for chunk in bundle.glob("index/*.pf_index"):
        for word, pages, *_ in pagefind_files.read_pagefind_file(chunk)[0]:
            words[word] = len(pages)
    return words


def filter_values(bundle: Path) -> dict[str, list[str]]:
    entry = json.loads((bundle / "pagefind-entry.json").read_text(encoding="utf-8"))
    (language,) = entry["languages"].values()
    meta = pagefind_files.read_pagefind_file(bundle / f"pagefind.{language['hash']}.pf_meta")
    values = {}
    for _name, chunk in meta[3]:
        filter_name, counts = pagefind_files.read_pagefind_file(bundle / "filter" / f"{chunk}.pf_filter")
        values[filter_name] = [value for value, *_ in counts]
    return values


def sort_filter_values_on_disk(bundle: Path) -> None:
    """pagefind_files.sort_filter_values on a bundle the command line wrote."""
    files = {path.relative_to(bundle).as_posix(): path.read_bytes() for path in bundle.rglob("*") if path.is_file()}
    pagefind_files.sort_filter_values(files)
    for path in bundle.rglob("*"):
        if path.is_file():
            path.unlink()
    for name, content in files.items():
        (bundle / name).parent.mkdir(parents=True, exist_ok=True)
        (bundle / name).write_bytes(content)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_service_indexes_the_pages_as_the_command_line_does(tmp_path, lang):
    documents = DOCUMENTS[lang]
    files = tmp_path / "files"
    for document in documents:
        page = files / document.url / "index.html"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(document.html(lang), encoding="utf-8")
    from_files = tmp_path / "command-line"
    command = [str(search.pagefind_executable()), "--site", str(files), "--output-path", str(from_files), "--silent"]
    subprocess.run(command, check=True, capture_output=True)
    sort_filter_values_on_disk(from_files)

    from_memory = tmp_path / "service"
    Indexer().index(documents, lang, from_memory)

    expected = fragments_by_url(from_files)
    assert set(expected) == {"/" + document.url for document in documents}
    assert fragments_by_url(from_memory) == expected
    assert index_words(from_memory) == index_words(from_files)
    assert filter_values(from_memory) == filter_values(from_files)
    if lang == "zh":  # segmented by the extended binary, and the worker's Han words read from it
        han_words = json.loads((from_memory / search.HAN_WORDS_FILE).read_text(encoding="utf-8"))
        assert {"分布", "查询", "节点"} <= set(han_words)
    else:
        assert index_words(from_memory)["distribut"] == 3  # stemmed, on every page


def test_the_pages_reach_pagefind_through_its_input_and_no_file_is_written_per_page(tmp_path, monkeypatch):
    started = []
    real_popen = subprocess.Popen

    def popen(command, **options):
        started.append((command, options.get("stdin")))
        return real_popen(command, **options)

    monkeypatch.setattr(afterwards.subprocess, "Popen", popen)
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setattr("tempfile.tempdir", str(temporary))
    site = tmp_path / "site"
    Indexer().index(DOCUMENTS["en"], "en", site / "pagefind")

    ((command, stdin),) = started
    assert command[1:] == ["--service"] and stdin == subprocess.PIPE
    written = {path.relative_to(tmp_path).as_posix() for path in tmp_path.rglob("*") if path.is_file()}
    assert written and all(path.startswith("site/pagefind/") for path in written), written
    assert not [path for path in written if path.endswith(".html")]
    assert len(fragments_by_url(site / "pagefind")) == 3


def fake_pagefind(tmp_path: Path, body: str) -> Path:
    """A stand-in for Pagefind's binary: a Python script that plays a broken service."""
    script = tmp_path / "fake-pagefind"
    script.write_text(f"#!{sys.executable}\nimport base64, json, sys\n{body}\n", encoding="utf-8")
    script.chmod(0o755)
    return script


def test_a_service_that_ends_before_writing_the_index_is_an_error_with_what_it_said(tmp_path, monkeypatch):
    script = fake_pagefind(tmp_path, "sys.stderr.write('no memory left\\n')\nsys.exit(3)")
    monkeypatch.setattr(search, "pagefind_executable", lambda: script)
    with pytest.raises(RuntimeError) as raised:
        Indexer().index(DOCUMENTS["en"], "en", tmp_path / "site" / "pagefind")
    assert str(raised.value) == "Pagefind ended before it wrote the index: no memory left"
    assert not (tmp_path / "site" / "pagefind").exists()


def test_an_error_the_service_answers_is_raised_with_its_message(tmp_path, monkeypatch):
    answer = {"message_id": None, "payload": {"type": "Error", "message": "cannot parse the request"}}
    encoded = json.dumps(answer)
    script = fake_pagefind(
        tmp_path,
        f"sys.stdin.buffer.read(1)\nsys.stdout.buffer.write(base64.b64encode({encoded!r}.encode()) + b',')\n"
        "sys.stdout.flush()\nsys.stdin.buffer.read()",
    )
    monkeypatch.setattr(search, "pagefind_executable", lambda: script)
    with pytest.raises(RuntimeError, match="^Pagefind: cannot parse the request$"):
        Indexer().index(DOCUMENTS["en"], "en", tmp_path / "site" / "pagefind")
    assert not (tmp_path / "site" / "pagefind").exists()


class RecordedInput:
    """A service's input that keeps the requests written to it (each decoded), and passes them on."""

    def __init__(self, stdin):
        self._stdin = stdin
        self.requests: list[dict] = []

    def write(self, data: bytes) -> int:
        self.requests += [json.loads(base64.b64decode(item))["payload"] for item in data.split(b",") if item]
        return self._stdin.write(data)

    def flush(self) -> None:
        self._stdin.flush()

    def close(self) -> None:
        self._stdin.close()


@pytest.fixture
def recorded(monkeypatch) -> list:
    """The Pagefind processes the indexers start, their input recorded (RecordedInput)."""
    processes = []
    real_popen = subprocess.Popen

    def popen(command, **options):
        process = real_popen(command, **options)
        process.stdin = RecordedInput(process.stdin)
        processes.append(process)
        return process

    monkeypatch.setattr(afterwards.subprocess, "Popen", popen)
    return processes


def test_the_callers_work_is_done_while_pagefind_has_only_the_first_page(tmp_path, recorded):
    """Pagefind starts on the first page (and loads a Chinese dictionary, for Chinese) while the
    build writes its other outputs and makes the other pages' requests."""
    seen = []

    def meanwhile():
        (process,) = recorded
        seen.append(([request["type"] for request in process.stdin.requests], process.poll()))
        seen.append(process.stdin.requests[-1]["url"])

    Indexer().index(DOCUMENTS["zh"], "zh", tmp_path / "pagefind", meanwhile)
    assert seen == [(["NewIndex", "AddFile"], None), "/"]  # the first page in order, Pagefind running
    assert [request["type"] for request in recorded[0].stdin.requests] == ["NewIndex", "AddFile", "AddFile", "GetFiles"]
    assert set(fragments_by_url(tmp_path / "pagefind")) == {"/", "/features/distributed-queries/"}


def test_the_callers_work_is_done_for_no_page_and_its_error_ends_pagefind(tmp_path, recorded):
    done = []
    Indexer().index([], "en", tmp_path / "empty", lambda: done.append(True))
    assert done == [True]

    def fails():
        raise OSError("disk full")

    with pytest.raises(OSError, match="^disk full$"):  # as it was raised, not as Pagefind's error
        Indexer().index(DOCUMENTS["en"], "en", tmp_path / "site" / "pagefind", fails)
    assert recorded[-1].poll() is not None  # Pagefind has ended
    assert [request["type"] for request in recorded[-1].stdin.requests] == ["NewIndex", "AddFile"]
    assert not (tmp_path / "site" / "pagefind").exists()
