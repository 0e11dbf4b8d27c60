"""How `serve` answers and logs a request, on top of MkDocs' live-reload server.

A request comes from anything that reaches the port, so: its line is logged with every control
character made visible (an escape code in a URL would repaint the curator's terminal); a path
that cannot name a file of the site (a NUL, a broken percent-escape, bytes that are not UTF-8)
is a 400 (a NUL made `open` raise, a 500); and HEAD gets the headers GET would, and no body.
"""

from __future__ import annotations

import logging
import os
import re
import urllib.parse
from collections.abc import Callable, Iterable
from http import HTTPStatus
from wsgiref.simple_server import WSGIRequestHandler

from mkdocs.livereload import LiveReloadServer, log
from watchdog.observers.polling import PollingObserverVFS

from releasekb.common.safe_text import visible

_BROKEN_PERCENT_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")
_CONTROL_CHARACTER = re.compile(rb"[\x00-\x1f\x7f]")


class ServeServer(LiveReloadServer):
    """MkDocs' live-reload server, with the handler below, HEAD answered without a body, and a
    watcher that sees a symlink to a missing file come and go."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.RequestHandlerClass = _Handler
        # MkDocs' watcher stat()s what it finds and skips what it cannot: removing a dangling
        # symlink (the fix serve asked for) was no change, and the site stayed unbuilt.
        self.observer = _Watcher(_stat_or_lstat, os.scandir, polling_interval=self.observer.timeout)
        # Every line MkDocs' server logs (the request line, a browser's Referer), made visible.
        logging.getLogger("mkdocs.livereload").addFilter(_VISIBLE_MESSAGES)  # added once however often

    def serve_request(self, environ, start_response) -> Iterable[bytes]:
        if environ["REQUEST_METHOD"] == "HEAD":
            return _headers_only(super().serve_request, environ, start_response)
        return super().serve_request(environ, start_response)


class _Watcher(PollingObserverVFS):
    """The watcher serve starts before its first build (`start` again, in MkDocs' `serve`, finds
    it running): MkDocs starts it after, so a file fixed while the first build ran (the build
    that named it) was never seen, and the site stayed unbuilt."""

    def start(self) -> None:
        if not self.is_alive():
            super().start()


def _stat_or_lstat(path: str) -> os.stat_result:
    """What a file's change shows in: its target's status, or the symlink's own when it has none."""
    try:
        return os.stat(path)
    except OSError:
        return os.lstat(path)


def malformed(target: str) -> str | None:
    """Why a request's target cannot name a file of the site, or None. `target` is as
    http.server read it: the request line's bytes as Latin-1."""
    path = target.split("?", 1)[0]
    if _BROKEN_PERCENT_ESCAPE.search(path):
        return "a % not followed by two hexadecimal digits"
    decoded = urllib.parse.unquote_to_bytes(path.encode("latin-1"))
    if _CONTROL_CHARACTER.search(decoded):
        return "a control character in the path"
    try:
        decoded.decode("utf-8")
    except UnicodeDecodeError:
        return "a path that is not UTF-8"
    return None


class _Handler(WSGIRequestHandler):
    """Refuses a malformed path before the site is looked up, and logs as MkDocs' handler does:
    a success at debug level, anything else as a warning."""

    def parse_request(self) -> bool:
        if not super().parse_request():
            return False  # http.server answered it (400, 505)
        problem = malformed(self.path)
        if problem:
            self.send_error(HTTPStatus.BAD_REQUEST, explain=f"The path holds {problem}.")
            return False
        return True

    def log_request(self, code="-", size="-") -> None:
        level = logging.DEBUG if str(code) == "200" else logging.WARNING
        log.log(level, f'"{self.requestline}" code {code}')

    def log_message(self, format, *args) -> None:
        log.debug(format, *args)


class _VisibleMessage(logging.Filter):
    """Rewrites a record's message with its control characters made visible."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = visible(record.getMessage()), ()
        return True


_VISIBLE_MESSAGES = _VisibleMessage()


def _headers_only(app: Callable, environ, start_response) -> list[bytes]:
    """HEAD: the status and headers `app` gives GET, with the body's length, and no body."""
    answered: dict = {}

    def remember(status, headers, exc_info=None):
        answered.update(status=status, headers=headers)
        return lambda data: None

    body = app(environ, remember)
    try:
        headers = answered["headers"]
        if not any(name.lower() == "content-length" for name, _ in headers):
            headers = [*headers, ("Content-Length", str(sum(len(chunk) for chunk in body)))]
    finally:
        if hasattr(body, "close"):
            body.close()  # a file's wrapper: the file
    start_response(answered["status"], headers)
    return []
