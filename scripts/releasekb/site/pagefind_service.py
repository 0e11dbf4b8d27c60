"""Pagefind's service mode: a language's search index made from its pages as they are in memory,
with no file written per page.

Why not the command line: `pagefind --site` indexes a folder of HTML files, so each page was first
written as a file in a folder of its own, 7,400 files and folders per language at 80 releases x 60
entries. On file systems where making a file is slow (a millisecond each was measured on a fresh
virtual machine), a first build spent more time on those than Pagefind spent indexing.

Why not Pagefind's Python API (`pagefind.index.PagefindIndex`): it drives this same service, but
reads one answer per tenth of a second (its `_wait_for_responses` sleeps before each read), six
minutes for 3,700 pages. So the service is spoken to here directly, as that API and Pagefind's
Node API do: each request is a JSON object, base64-encoded and followed by a comma, on the
service's standard input; each answer the same on its standard output, with the request's
`message_id`. The requests used are the API's own: NewIndex, AddFile (a page's HTML and its
address, as `add_html_file`), GetFiles (the bundle's files, as `get_files`). The service answers
them in order, and ends when its input closes.

Why GetFiles rather than WriteFiles: Pagefind 1.5.2 answers WriteFiles before its last writes
have reached the files, and ends as soon as its input closes, so a bundle could be cut short (an
empty pagefind-entry.json was seen; fixed in Pagefind after 1.5.2, "flush output files before
they drop", #1272). With the files in hand, the caller also leaves out what it does not ship
and sorts the filters (pagefind_files.py) before anything is written.

tests/test_pagefind_service.py checks that a bundle made here is the one the command line makes.
"""

from __future__ import annotations

import base64
import json
import subprocess
import threading
from collections.abc import Callable, Iterable

SERVICE_FLAG = "--service"


class PagefindServiceError(RuntimeError):
    """The service answered with an error, or ended before it wrote the index."""


def _message(message_id: int, payload: dict) -> bytes:
    text = json.dumps({"message_id": message_id, "payload": payload}, ensure_ascii=False)
    return base64.b64encode(text.encode("utf-8")) + b","


class _Answers:
    """The service's answers, read on a thread of its own: the service writes one per page, and
    would stop reading its input when its output pipe is full if no one read them meanwhile."""

    def __init__(self, output):
        self._output = output
        self._answers: dict[int, dict] = {}  # {message id: its answer}
        self.error: dict | None = None  # the first error the service answered
        self._arrived = threading.Condition()
        self._ended = False
        self._thread = threading.Thread(target=self._read, name="pagefind-answers", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        pending: list[bytes] = []  # the start of an answer not yet whole (GetFiles' is megabytes)
        try:
            while chunk := self._output.read1(1 << 20):
                if b"," not in chunk:
                    pending.append(chunk)
                    continue
                *whole, rest = b"".join([*pending, chunk]).split(b",")
                pending = [rest]
                answers = [json.loads(base64.b64decode(message)) for message in whole if message]
                with self._arrived:
                    for answer in answers:
                        payload = answer["payload"]
                        if payload.get("type") == "IndexedFile":
                            continue  # a page's: nothing the caller needs
                        if payload.get("type") == "Error" and self.error is None:
                            self.error = payload  # one without a message id is the service's own
                        self._answers[answer.get("message_id") or 0] = payload
                    self._arrived.notify_all()
        finally:
            with self._arrived:
                self._ended = True
                self._arrived.notify_all()

    def wait_for(self, message_id: int) -> dict:
        """The answer to message_id; raises if the service answered an error or ended first."""
        with self._arrived:
            self._arrived.wait_for(lambda: message_id in self._answers or self._ended or self.error is not None)
            if self.error is not None:
                raise PagefindServiceError(f"Pagefind: {self.error.get('message', self.error)}")
            if message_id not in self._answers:
                raise PagefindServiceError("Pagefind ended before it wrote the index")
            return self._answers[message_id]


def index_pages(
    process: subprocess.Popen,
    pages: Iterable[tuple[str, str]],
    between_pages: Callable[[], None],
    meanwhile: Callable[[], None] = lambda: None,
) -> dict[str, bytes]:
    """Index `pages` ((address, HTML), in the order the index lists them) with the Pagefind service
    running as `process` (started with SERVICE_FLAG and pipes for its input and output). Returns
    the bundle's files, {path inside the bundle: bytes}. `between_pages` is called before each
    page is made (the jobs give way to a build there). `meanwhile` is the caller's other work,
    done once Pagefind has its first page (see below); what it raises ends the indexing."""
    answers = _Answers(process.stdout)
    send = process.stdin
    try:
        send.write(_message(1, {"type": "NewIndex", "config": None}))
        send.flush()
        index_id = answers.wait_for(1)["index_id"]
        requests, message_id, pages = [], 1, iter(pages)
        # between_pages comes before each page is made, not only before it is sent: making the
        # HTML of thousands of pages is Python that a build waiting to run would share.
        while between_pages() or (page := next(pages, None)) is not None:
            url, page_html = page
            message_id += 1
            request = {"type": "AddFile", "index_id": index_id, "url": url, "file_path": None}
            requests.append(_message(message_id, {**request, "file_contents": page_html}))
            if message_id == 2:
                # The first page at once: Pagefind starts on it, and loads what its language needs
                # (its Chinese dictionary takes 0.16 s), while the caller's work and the other
                # pages' requests are made.
                send.write(requests.pop())
                send.flush()
                meanwhile()
        if message_id == 1:  # no page
            meanwhile()
        message_id += 1
        requests.append(_message(message_id, {"type": "GetFiles", "index_id": index_id}))
        # Every request made first, then sent in one write: the service reads them as fast as it
        # indexes. Sent one by one as each was made, it waited for the next, woke for it and
        # waited again, thousands of times: 0.27 s more of its time per language at 80 releases.
        send.write(b"".join(requests))
        send.flush()
        files = answers.wait_for(message_id)["files"]
    except BrokenPipeError:
        raise PagefindServiceError("Pagefind ended before it wrote the index") from None
    # The caller closes the service's input, which ends it (afterwards.Jobs.talk_to_command).
    return {file["path"]: base64.b64decode(file["content"]) for file in files}
