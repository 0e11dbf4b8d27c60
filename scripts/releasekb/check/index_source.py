"""Reading a published API index (/api/apis.json, built by kb/api_index.py) for `releasekb
check --index`: from a file or an http(s) address, within a deadline and a size, and checked
against the published schema and for every reference between its parts.
"""

from __future__ import annotations

import copy
import http.client
import json
import os
import re
import stat
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterable, Iterator
from urllib.parse import urlsplit

from releasekb.common.safe_text import visible
from releasekb.kb import api
from releasekb.kb.api_index import CHANGE_KINDS, INDEX_PATH
from releasekb.kb.urls import API_SCHEMA_VERSION

# Schema versions of the published document this code can read.
KNOWN_SCHEMA_VERSIONS = (API_SCHEMA_VERSION,)
# Bounds on reading an index given with --index, which may come from anywhere: the whole fetch
# (connection, redirects, headers and body) ends by the deadline, and the body is counted as it
# arrives. The real index of four releases is under 100 KB.
DEFAULT_TIMEOUT_SECONDS = 30
MAX_INDEX_BYTES = 64 * 1024 * 1024
_CHUNK_BYTES = 64 * 1024
# An index's numbers are ranks and a schema version: Python's own limit (4,300 digits) would end
# in a ValueError that names sys.set_int_max_str_digits, which says nothing to the user.
_MAX_NUMBER_DIGITS = 30
_URL_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")


class IndexUnreadable(Exception):
    """The index given with --index cannot be used: `index SOURCE: what is wrong`, with the
    source and the problem (which may quote the index) safe to print."""

    def __init__(self, source: str, problem: str):
        super().__init__(f"index {visible(source)}: {visible(problem)}")


def load_index(source: str, timeout: float = DEFAULT_TIMEOUT_SECONDS) -> dict:
    """A published apis.json from a local file or an http(s) address, read within `timeout`
    seconds and MAX_INDEX_BYTES, and checked against the published schema and for every
    reference between its parts, so that `check` can use it without a second look."""
    document = _parsed(source, _read(source, timeout))
    if not isinstance(document, dict) or "apis" not in document:
        raise IndexUnreadable(source, f"not an API index (no 'apis'; publish it from /{INDEX_PATH})")
    version = document.get("schema_version")
    if version not in KNOWN_SCHEMA_VERSIONS:
        known = ", ".join(str(v) for v in KNOWN_SCHEMA_VERSIONS)
        raise IndexUnreadable(source, f"schema_version {version!r}, this releasekb reads {known}: upgrade releasekb")
    problem = schema_problem(document) or reference_problem(document)
    if problem:
        raise IndexUnreadable(source, problem)
    return document


def _read(source: str, timeout: float) -> bytes:
    scheme = _URL_SCHEME.match(source)
    if scheme is None:
        return _read_file(source)
    if scheme.group(1).lower() in ("http", "https"):
        return fetch(source, timeout)
    raise IndexUnreadable(source, f"{scheme.group(1)}:// is not read: give an http(s) address or a file")


def _read_file(source: str) -> bytes:
    """A regular file's bytes. Opened without blocking and checked before reading, so that a
    FIFO cannot hang the command and a device such as /dev/zero is never read."""
    try:
        descriptor = os.open(source, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise IndexUnreadable(source, f"cannot read it ({error.strerror or error})") from None
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            raise IndexUnreadable(source, "not a regular file (a folder, device or pipe): give the saved apis.json")
        if status.st_size > MAX_INDEX_BYTES:
            raise IndexUnreadable(source, _too_large(status.st_size))
        return _capped(source, iter(lambda: os.read(descriptor, _CHUNK_BYTES), b""))
    except OSError as error:
        raise IndexUnreadable(source, f"cannot read it ({error.strerror or error})") from None
    finally:
        os.close(descriptor)


def _capped(source: str, chunks: Iterable[bytes]) -> bytes:
    """The chunks joined, stopping as soon as they pass MAX_INDEX_BYTES (counted as they come,
    whatever a header or the file system said)."""
    body = bytearray()
    for chunk in chunks:
        body += chunk
        if len(body) > MAX_INDEX_BYTES:
            raise IndexUnreadable(source, _too_large())
    return bytes(body)


def _too_large(size: int | None = None) -> str:
    """Over the limit: by `size` bytes when known in advance, else as counted while reading."""
    limit = f"the limit of {MAX_INDEX_BYTES:,} bytes"
    over = f"{size:,} bytes, over {limit}" if size else f"over {limit}"
    return f"{over} (an API index is far smaller: is this the apis.json the site publishes?)"


def _too_slow(timeout: float) -> str:
    return f"not read within {timeout:g} s (a slow or stalled server; --timeout SECONDS allows more)"


def fetch(url: str, timeout: float) -> bytes:
    """The body at `url`, all of it within `timeout` seconds. The download runs in a thread that
    the command stops waiting for at the deadline: a socket timeout bounds each read only, and a
    server that sends a byte now and then (in the headers too) would never trip it."""
    deadline = time.monotonic() + timeout
    outcome: dict[str, object] = {}

    def download() -> None:
        try:
            outcome["body"] = _download(url, deadline, timeout)
        except Exception as error:  # handed to the caller's thread, never printed by this one
            outcome["error"] = error

    worker = threading.Thread(target=download, name="releasekb-index-fetch", daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        raise IndexUnreadable(url, _too_slow(timeout))
    if "error" in outcome:
        raise outcome["error"]
    return outcome["body"]


def _download(url: str, deadline: float, timeout: float) -> bytes:
    opener = urllib.request.build_opener(SameOrSaferRedirects(url))
    try:
        with opener.open(url, timeout=max(deadline - time.monotonic(), 0.001)) as response:
            declared = _declared_length(response)
            if declared is not None and declared > MAX_INDEX_BYTES:
                raise IndexUnreadable(url, _too_large(declared))
            body = _capped(url, _chunks(url, response, deadline, timeout))
    except urllib.error.HTTPError as error:
        error.close()
        raise IndexUnreadable(url, f"the server answered {error.code} {error.reason}") from None
    except urllib.error.URLError as error:
        raise IndexUnreadable(url, f"cannot fetch it ({error.reason})") from None
    except http.client.InvalidURL as error:
        raise IndexUnreadable(url, f"not a valid address ({_short(error)})") from None
    except http.client.HTTPException as error:  # a garbage status line, a body cut short...
        raise IndexUnreadable(url, f"not a valid HTTP answer ({type(error).__name__}: {_short(error)})") from None
    except (OSError, ValueError) as error:
        raise IndexUnreadable(url, f"cannot fetch it ({_short(error)})") from None
    if declared is not None and len(body) < declared:
        raise IndexUnreadable(url, f"the answer ends after {len(body):,} of the {declared:,} bytes it announced")
    return body


def _chunks(url: str, response, deadline: float, timeout: float) -> Iterator[bytes]:
    """The body as it arrives (read1: whatever one read gives, so the deadline is looked at
    between reads, and the download stops there even when nobody waits for it any more)."""
    while chunk := response.read1(_CHUNK_BYTES):
        yield chunk
        if time.monotonic() > deadline:
            raise IndexUnreadable(url, _too_slow(timeout))


def _declared_length(response) -> int | None:
    value = (response.headers.get("Content-Length") or "").strip()
    return int(value) if value.isdigit() and len(value) <= _MAX_NUMBER_DIGITS else None


def _short(error: Exception, limit: int = 200) -> str:
    text = str(error)
    return text if len(text) <= limit else text[:limit] + "…"


def redirect_problem(old_url: str, new_url: str) -> str | None:
    """Why a redirect from old_url to new_url is not followed, or None: it may go to another
    host, and from http to https, but never off http(s) nor from https down to http (where anyone
    on the way could change the index and so what `check` reports)."""
    old, new = urlsplit(old_url).scheme.lower(), urlsplit(new_url).scheme.lower()
    if new not in ("http", "https"):
        return f"redirected to {new_url}: only http and https addresses are read"
    if old == "https" and new == "http":
        return f"redirected from https to {new_url}: a downgrade to plain http is refused"
    return None


class SameOrSaferRedirects(urllib.request.HTTPRedirectHandler):
    """urllib's redirects, with redirect_problem's policy at every hop."""

    def __init__(self, source: str):
        self.source = source  # what the message names: the address given to --index

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        problem = redirect_problem(req.full_url, newurl)
        if problem:
            fp.close()
            raise IndexUnreadable(self.source, problem)
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def _parsed(source: str, body: bytes):
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise IndexUnreadable(source, f"not UTF-8 text (byte {error.start:,} cannot be decoded)") from None
    try:
        return json.loads(text, parse_int=_integer, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise IndexUnreadable(source, f"not JSON ({error.msg} at line {error.lineno} column {error.colno})") from None
    except ValueError as error:  # from _integer or _no_constant
        raise IndexUnreadable(source, f"not JSON this releasekb reads ({error})") from None
    except RecursionError:
        raise IndexUnreadable(source, "nested too deeply to read (an API index nests 6 levels deep)") from None


def _integer(digits: str) -> int:
    if len(digits.lstrip("-")) > _MAX_NUMBER_DIGITS:
        raise ValueError(f"a number of {len(digits):,} digits; an API index has none over {_MAX_NUMBER_DIGITS}")
    return int(digits)


def _no_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def schema_problem(document: dict) -> str | None:
    """The first place where the document breaks the published schema (api_schema.json), or None."""
    import jsonschema  # only `check --index` needs it: every other command starts without it

    validator = jsonschema.Draft202012Validator(_schema_in_languages(document))
    try:
        error = next(iter(validator.iter_errors(document)), None)
    except RecursionError:  # a value nested deeper than Python can describe it
        return "nested too deeply to read (an API index nests 6 levels deep)"
    if error is None:
        return None
    where = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in error.absolute_path)
    where = where.lstrip(".") or "the top"
    return f"does not follow the API schema (/{api.SCHEMA_PATH}) at {where}: {_short(error.message)}"


def _schema_in_languages(document: dict) -> dict:
    """The published schema, its texts required in exactly the index's languages: those of its
    `product` text, the first one (the schema allows any language codes, as a knowledge base may
    have any set; the code reading the index then relies on one text in each)."""
    product = document.get("product") if isinstance(document, dict) else None
    schema = api.schema()
    if not isinstance(product, dict) or not product or not all(isinstance(lang, str) for lang in product):
        return schema  # the schema itself says what is wrong with it
    schema = copy.deepcopy(schema)
    text = schema["$defs"]["text"]
    text["required"] = list(product)
    text["propertyNames"] = {**text["propertyNames"], "enum": list(product)}
    return schema


def reference_problem(document: dict) -> str | None:
    """The first reference between the parts of a schema-valid index that leads nowhere (a
    release or level no list declares, an introduction without its entry), or a list `check`
    cannot work with (no release, no ranked level, the same release twice); None when all hold."""
    versions = [release["version"] for release in document["releases"]]
    keys = [level["key"] for level in document["levels"]]
    apis = [f"{record['name']} ({record['use']})" for record in document["apis"]]
    problem = _twice("release", versions) or _twice("level", keys) or _twice("API", apis)
    if problem:
        return problem
    if not versions:
        return "lists no release (releases: [])"
    if not any(level["rank"] is not None for level in document["levels"]):
        return "declares no stability level with a rank (levels), so no stability can be compared"
    for position, record in enumerate(document["apis"]):
        problem = _record_problem(record, set(versions), set(keys))
        if problem:
            return f"apis[{position}] ({record['name']}, use {record['use']}): {problem}"
    return None


def _twice(what: str, values: list[str]) -> str | None:
    seen: set[str] = set()
    for value in values:
        if value in seen:
            return f"{what} {value} is listed twice"
        seen.add(value)
    return None


def _record_problem(record: dict, versions: set[str], keys: set[str]) -> str | None:
    for field, version in _releases_named(record):
        if version not in versions:
            return f"{field} names release {version}, which `releases` does not list"
    for field, key in _levels_named(record):
        if key not in keys:
            return f"{field} names level {key}, which `levels` does not declare"
    introduced, feature = record["introduced_in"], record["feature"]
    if (introduced is None) != (feature is None):
        return "introduced_in and feature are given together or not at all"
    if introduced is not None and not any(
        entry["id"] == feature and entry["release"] == introduced for entry in record["entries"]
    ):
        return f"introduced in {introduced} by {feature}, but none of its entries is that one"
    return None


def _releases_named(record: dict) -> Iterator[tuple[str, str]]:
    if record["introduced_in"] is not None:
        yield "introduced_in", record["introduced_in"]
    if record["removed_in"] is not None:
        yield "removed_in", record["removed_in"]
    for field in CHANGE_KINDS.values():
        yield from ((field, version) for version in record[field])
    yield from (("levels", version) for version in record["levels"])
    yield from ((f"entries[{n}].release", entry["release"]) for n, entry in enumerate(record["entries"]))


def _levels_named(record: dict) -> Iterator[tuple[str, str]]:
    yield from ((f"levels[{version}]", key) for version, key in record["levels"].items())
    for n, entry in enumerate(record["entries"]):
        if entry["level"] is not None:
            yield f"entries[{n}].level", entry["level"]
