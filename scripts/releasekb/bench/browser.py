"""A built site served as a static host serves it, and Debian's Chromium driven through
Playwright: shared by `releasekb bench` (what search costs a reader) and the browser tests.

Standard library only; Playwright (the `test` extra) is imported when a browser is launched.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import socket
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

CHROMIUM = os.environ.get("RELEASEKB_CHROMIUM", "/usr/bin/chromium")
# Headless, and no background traffic: this machine has no network but the package registries.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@dataclass(frozen=True)
class Transfer:
    """One response a StaticHost sent: when the request arrived (time.monotonic()), its path
    (query included) and the bytes of its body."""

    received: float
    path: str
    body_bytes: int


class StaticHost(http.server.SimpleHTTPRequestHandler):
    """Serves the site as static hosts do: a missing address is answered 404 with the root
    404.html (GitHub Pages, Netlify, nginx's error_page). Files are sent whole and uncompressed.
    With a `transfers` list, every GET's response is recorded there (a Transfer) as soon as its
    headers are sent, so a reader of the list never misses a body still on its way."""

    def __init__(self, *args, transfers: list[Transfer] | None = None, **kwargs):
        self.transfers = transfers  # set first: the base class handles the request in __init__
        super().__init__(*args, **kwargs)

    def log_message(self, format, *args):  # the base class's signature
        pass

    def do_GET(self):
        received = time.monotonic()
        body = self.send_head()
        if body is None:
            return
        try:
            if self.transfers is not None:
                size = body.seek(0, os.SEEK_END)
                body.seek(0)
                self.transfers.append(Transfer(received, self.path, size))
            self.copyfile(body, self.wfile)
        finally:
            body.close()

    def send_error(self, code, message=None, explain=None):
        not_found = Path(self.directory) / "404.html"
        if code != 404 or not not_found.is_file():
            return super().send_error(code, message, explain)
        body = not_found.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            if self.transfers is not None:
                self.transfers.append(Transfer(time.monotonic(), self.path, len(body)))
            self.wfile.write(body)


class _StaticServer(http.server.ThreadingHTTPServer):
    """A reader that leaves a page mid-transfer (the browser cancels a request it no longer
    needs) is not an error: say nothing, as a static host does, rather than print a traceback."""

    daemon_threads = True

    def handle_error(self, request, client_address):
        if isinstance(sys.exc_info()[1], ConnectionError):  # BrokenPipeError, ConnectionResetError...
            return
        super().handle_error(request, client_address)


@contextlib.contextmanager
def static_server(directory: Path, transfers: list[Transfer] | None = None) -> Iterator[str]:
    """`directory` served on 127.0.0.1 at a free port, as a static host would; yields its base
    URL. With `transfers`, every response sent is appended to it (see StaticHost)."""
    handler = functools.partial(StaticHost, directory=str(directory), transfers=transfers)
    server = _StaticServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def chromium_unavailable_reason(executable: str = CHROMIUM) -> str | None:
    """Why the browser cannot be used at all, before trying to launch it (None: it may work)."""
    if not os.path.isfile(executable) or not os.access(executable, os.X_OK):
        return f"Chromium not found at {executable}"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError as error:
        return f"playwright is not installed ({error})"
    return None


@contextlib.contextmanager
def chromium(executable: str = CHROMIUM) -> Iterator[object]:
    """Chromium launched through Playwright's sync API (a playwright.sync_api.Browser), closed
    on exit. Only one may run per thread at a time: Playwright's sync API refuses a second."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()
