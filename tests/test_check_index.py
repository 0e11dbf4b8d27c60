"""`releasekb check --index`: an index from anywhere is read within bounds, checked before use,
and printed safely.

Every failure is exit 2 with one line `releasekb check: index SOURCE: what is wrong`, never a
traceback and never exit 1 (which means findings). The servers are local (http.server in a
thread) and count what they send: a test of a bound counts the work done, never the seconds;
timeouts here are guards against a hang, far above what the test needs.
"""

from __future__ import annotations

import copy
import email.message
import http.server
import io
import json
import os
import re
import resource
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from releasekb.check import formats, index_source
from releasekb.check.formats import text as text_format
from releasekb.cli import main
from releasekb.common import safe_text
from releasekb.kb import api_index
from releasekb.kb.pipeline import load_catalog
from releasekb.site.outputs import json_api

ROOT = Path(__file__).resolve().parent.parent
REAL_KB = ROOT / "releases"
FFT_CALL = "import torch\n\nspectrum = torch.fft(signal, 1)\nmore = torch.fft.fft(signal)\n"
GUARD_SECONDS = 60  # a hang guard: each bounded case ends in a few seconds at most
# What a hostile index puts in every text: a terminal title, a colour, workflow commands after
# newlines, an 8-bit CSI (C1) and a right-to-left override.
HOSTILE = "\x1b]0;pwned\x07\x1b[31m\n::error::injected\n::add-mask::x\x9b31m\u202e"


@pytest.fixture(scope="module")
def real_index() -> dict:
    """The apis.json the site publishes for the real data."""
    return json.loads(json_api.api_files(load_catalog(REAL_KB), "")[api_index.INDEX_PATH])


@pytest.fixture
def code(tmp_path, monkeypatch) -> Path:
    """A folder of code that calls the deprecated torch.fft function, as the current directory."""
    folder = tmp_path / "code"
    folder.mkdir()
    (folder / "spectrum.py").write_text(FFT_CALL, encoding="utf-8")
    monkeypatch.chdir(folder)
    return folder


def run(capsys, *args: str) -> tuple[int, str, str]:
    """`releasekb check . ARGS` in this process: (exit status, stdout, stderr)."""
    try:
        status = main(["--data", str(REAL_KB), "check", ".", *args])
    except SystemExit as exit_:  # argparse's own usage errors
        status = exit_.code
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def assert_refused(status: int, out: str, err: str, source: object, problem: str) -> None:
    """Exit 2, nothing on stdout, and one line naming the index and what is wrong."""
    assert status == 2 and out == "", err
    assert err.startswith(f"releasekb check: index {source}: ") and err.count("\n") == 1, err
    assert problem in err, err


def write_index(tmp_path: Path, document: dict, name: str = "apis.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


# --------------------------------------------------------------------------- local servers


class Server:
    """A local HTTP server in a thread. Each path is answered by a function of the request
    handler; `sent` counts the body bytes each path got out before the client went away."""

    def __init__(self, routes: dict):
        self.sent: dict[str, int] = {}
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                route = routes.get(self.path)
                if route is None:
                    self.send_error(404)
                    return
                try:
                    route(self, server)
                except (BrokenPipeError, ConnectionResetError):  # the client stopped reading
                    pass

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}{path}"

    def send(self, handler, path: str, data: bytes) -> None:
        handler.wfile.write(data)
        handler.wfile.flush()
        self.sent[path] = self.sent.get(path, 0) + len(data)


@pytest.fixture
def serve():
    """serve(routes) -> a started Server; every server is shut down after the test."""
    started: list[Server] = []

    def start(routes: dict) -> Server:
        server = Server(routes)
        server.thread.start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.httpd.shutdown()
        server.httpd.server_close()


def headers(handler, status: int = 200, **fields: str) -> None:
    handler.send_response(status)
    for name, value in fields.items():
        handler.send_header(name.replace("_", "-"), value)
    handler.end_headers()


def run_in_subprocess(folder: Path, *args: str, memory_bytes: int | None = None) -> subprocess.CompletedProcess:
    """`releasekb check . ARGS` in a fresh process, optionally with its memory limited, and
    ended by the guard if it hangs (subprocess.TimeoutExpired fails the test)."""

    def limit_memory():
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))

    return subprocess.run(
        [sys.executable, "-m", "releasekb.cli", "--data", str(REAL_KB), "check", ".", *args],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=GUARD_SECONDS,
        preexec_fn=limit_memory if memory_bytes else None,
    )


# --------------------------------------------------------------------------- one deadline for the fetch

DRIP_BYTES = 400  # at one byte per DRIP_SECONDS: a drip the deadline must cut long before its end
DRIP_SECONDS = 0.15


def _drip_body(handler, server: Server) -> None:
    headers(handler, Content_Length=str(DRIP_BYTES))
    for _ in range(DRIP_BYTES):
        server.send(handler, "/body", b" ")
        time.sleep(DRIP_SECONDS)


def _drip_headers(handler, server: Server) -> None:
    handler.wfile.write(b"HTTP/1.0 200 OK\r\nX-Slow: ")
    for _ in range(DRIP_BYTES):
        server.send(handler, "/headers", b"a")
        time.sleep(DRIP_SECONDS)


@pytest.mark.parametrize("where", ["body", "headers"])
def test_a_server_that_drips_is_cut_off_at_the_overall_deadline(code, serve, where):
    """Each read gets a byte well within any socket timeout: only a deadline for the whole fetch
    stops it. The server would drip for a minute; the check ends at its 2 s deadline, having
    got a few bytes of the 400."""
    server = serve({"/body": _drip_body, "/headers": _drip_headers})
    url = server.url(f"/{where}")
    result = run_in_subprocess(code, "--index", url, "--timeout", "2")
    assert_refused(result.returncode, result.stdout, result.stderr, url, "not read within 2 s")
    assert "--timeout SECONDS allows more" in result.stderr
    assert 0 < server.sent[f"/{where}"] < DRIP_BYTES


def test_timeout_must_be_a_positive_number_of_seconds(code, capsys):
    for value in ("0", "-1", "soon", "inf", "nan"):
        status, _, err = run(capsys, "--index", "apis.json", "--timeout", value)
        assert status == 2 and f"argument --timeout: {value!r} is not a positive number of seconds" in err


# --------------------------------------------------------------------------- a size limit


MIB = 1024 * 1024


def _endless(handler, server: Server, path: str) -> None:
    chunk = b" " * (256 * 1024)
    for _ in range(200 * 4):  # 200 MB, unless the client stops reading
        server.send(handler, path, chunk)


def _big_without_length(handler, server: Server) -> None:
    headers(handler)  # HTTP/1.0, no Content-Length: the body ends when the connection does
    _endless(handler, server, "/streamed")


def _big_with_length(handler, server: Server) -> None:
    headers(handler, Content_Length=str(200 * MIB))
    _endless(handler, server, "/announced")


@pytest.mark.parametrize("path", ["/streamed", "/announced"])
def test_a_body_over_the_limit_is_refused_as_it_arrives(code, capsys, serve, monkeypatch, path):
    """200 MB sent against a limit of 1 MiB: the check stops reading at the limit (what the
    server got out is the limit plus the sockets' buffers), or before reading when announced."""
    monkeypatch.setattr(index_source, "MAX_INDEX_BYTES", MIB)
    server = serve({"/streamed": _big_without_length, "/announced": _big_with_length})
    url = server.url(path)
    status, out, err = run(capsys, "--index", url)
    expected = (
        "over the limit of 1,048,576 bytes" if path == "/streamed" else "209,715,200 bytes, over the limit of 1,048,576"
    )
    assert_refused(status, out, err, url, expected)
    assert server.sent.get(path, 0) < 32 * MIB


def test_a_file_over_the_limit_is_refused_without_reading_it(code, capsys, tmp_path):
    big = tmp_path / "big.json"
    with big.open("wb") as file:
        file.truncate(200 * MIB)  # sparse: nothing is written
    status, out, err = run(capsys, "--index", str(big))
    assert_refused(status, out, err, big, "209,715,200 bytes, over the limit of 67,108,864 bytes")


def test_the_limit_is_counted_while_reading_whatever_the_size_said(monkeypatch, tmp_path):
    monkeypatch.setattr(index_source, "MAX_INDEX_BYTES", 10)
    chunks = iter([b"12345", b"67890", b"1", b"never read"])
    with pytest.raises(index_source.IndexUnreadable, match="over the limit of 10 bytes"):
        index_source._capped("x", chunks)
    assert next(chunks) == b"never read"


@pytest.mark.parametrize("kind", ["device", "pipe", "folder"])
def test_only_regular_files_are_read(code, tmp_path, kind):
    """/dev/zero never ends, and opening a FIFO waits for a writer: both are refused before a
    byte is read. In a process limited to 2 GB (reading /dev/zero fills it in seconds)."""
    source = {"device": Path("/dev/zero"), "pipe": tmp_path / "fifo", "folder": tmp_path}[kind]
    if kind == "pipe":
        os.mkfifo(source)
    result = run_in_subprocess(code, "--index", str(source), memory_bytes=2 * 1024 * MIB)
    assert_refused(result.returncode, result.stdout, result.stderr, source, "not a regular file")


def test_only_http_and_https_addresses_are_read(code, capsys):
    for source in ("ftp://kb.example.org/api/apis.json", "file:///etc/passwd"):
        status, out, err = run(capsys, "--index", source)
        assert_refused(status, out, err, source, ":// is not read: give an http(s) address or a file")


# --------------------------------------------------------------------------- broken answers


def _truncated(handler, server: Server) -> None:
    headers(handler, Content_Length="1000")
    server.send(handler, "/truncated", b'{"schema_version": 1, "pro')


def _garbage_status(handler, server: Server) -> None:
    server.send(handler, "/garbage", b"HELLO \x1b[31mTHERE\r\n\r\n")


def _not_utf8(handler, server: Server) -> None:
    headers(handler, Content_Length="5")
    server.send(handler, "/latin1", b'"\xe9t\xe9"')


@pytest.mark.parametrize(
    ("path", "problem"),
    [
        ("/truncated", "the answer ends after 26 of the 1,000 bytes it announced"),
        ("/garbage", r"not a valid HTTP answer (BadStatusLine: HELLO \x1b[31mTHERE\r\n)"),
        ("/latin1", "not UTF-8 text (byte 1 cannot be decoded)"),
        ("/missing", "the server answered 404 Not Found"),
    ],
)
def test_a_broken_answer_is_named(code, capsys, serve, path, problem):
    server = serve({"/truncated": _truncated, "/garbage": _garbage_status, "/latin1": _not_utf8})
    url = server.url(path)
    status, out, err = run(capsys, "--index", url)
    assert_refused(status, out, err, url, problem)


def test_an_unreachable_server_is_named(code, capsys):
    url = "http://127.0.0.1:9/api/apis.json"  # the discard port: nothing listens there
    assert_refused(*run(capsys, "--index", url), url, "cannot fetch it (")


# --------------------------------------------------------------------------- redirects


def test_redirects_may_not_leave_http_nor_downgrade_https():
    problem = index_source.redirect_problem
    assert problem("https://kb.example.org/apis.json", "http://kb.example.org/apis.json") == (
        "redirected from https to http://kb.example.org/apis.json: a downgrade to plain http is refused"
    )
    assert "only http and https" in problem("http://kb.example.org/a", "ftp://kb.example.org/a")
    assert "only http and https" in problem("https://kb.example.org/a", "file:///etc/passwd")
    assert problem("http://kb.example.org/a", "https://kb.example.org/a") is None  # an upgrade
    assert problem("https://kb.example.org/a", "HTTPS://mirror.example.org/a") is None


def test_urllib_applies_the_redirect_policy_at_each_hop():
    """Through urllib's own 302 handling (http_error_302 -> redirect_request), as the opener calls it."""
    handler = index_source.SameOrSaferRedirects("https://kb.example.org/api/apis.json")
    handler.add_parent(urllib.request.OpenerDirector())
    location = email.message.Message()
    location["Location"] = "http://kb.example.org/api/apis.json"
    answer = io.BytesIO(b"moved")
    request = urllib.request.Request("https://kb.example.org/api/apis.json")
    with pytest.raises(index_source.IndexUnreadable) as refused:
        handler.http_error_302(request, answer, 302, "Found", location)
    assert str(refused.value) == (
        "index https://kb.example.org/api/apis.json: redirected from https to http://kb.example.org/api/apis.json: "
        "a downgrade to plain http is refused"
    )
    assert answer.closed
    location.replace_header("Location", "https://mirror.example.org/api/apis.json")
    followed = handler.redirect_request(request, io.BytesIO(), 302, "Found", location, location["Location"])
    assert followed.full_url == "https://mirror.example.org/api/apis.json"


def test_a_redirect_off_http_is_refused_and_one_within_it_followed(code, capsys, serve, real_index):
    body = json.dumps(real_index).encode()

    def to_ftp(handler, server):
        headers(handler, 302, Location="ftp://127.0.0.1:1/api/apis.json")

    def to_index(handler, server):
        headers(handler, 301, Location="/api/apis.json")

    def index(handler, server):
        headers(handler, Content_Length=str(len(body)))
        server.send(handler, "/api/apis.json", body)

    server = serve({"/ftp": to_ftp, "/moved": to_index, "/api/apis.json": index})
    url = server.url("/ftp")
    status, out, err = run(capsys, "--index", url)
    assert_refused(status, out, err, url, "redirected to ftp://127.0.0.1:1/api/apis.json: only http and https")
    status, out, err = run(capsys, "--index", server.url("/moved"), "--format", "json")
    assert status == 1 and err == "" and json.loads(out)["counts"]["deprecated"] == 1


# --------------------------------------------------------------------------- JSON that cannot be read


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deeply to read"),
        ('{"schema_version": 1, "apis": ' + "[" * 900 + "]" * 900 + "}", "does not follow the API schema"),
        ('{"schema_version": ' + "1" * 100_000 + "}", "a number of 100,000 digits"),
        ('{"schema_version": NaN}', "NaN is not a JSON number"),
        ('{"apis": [', "not JSON (Expecting value at line 1 column 11)"),
        ("", "not JSON (Expecting value at line 1 column 1)"),
    ],
)
def test_json_python_cannot_read_is_named(code, capsys, tmp_path, text, problem):
    source = tmp_path / "apis.json"
    source.write_text(text, encoding="utf-8")
    assert_refused(*run(capsys, "--index", str(source)), source, problem)


def test_a_deep_value_where_the_schema_expects_text_is_named(code, capsys, tmp_path, real_index):
    """Python parses 900 levels, and the schema check must not fail describing them."""
    document = copy.deepcopy(real_index)
    document["apis"][0]["entries"][0]["title"]["en"] = json.loads("[" * 900 + "]" * 900)
    source = write_index(tmp_path, document)
    status, out, err = run(capsys, "--index", str(source))
    assert_refused(status, out, err, source, "")
    assert "apis[0].entries[0].title.en" in err or "nested too deeply" in err


# --------------------------------------------------------------------------- the schema and references


def _first(document: dict, name: str) -> dict:
    return next(record for record in document["apis"] if record["name"] == name)


def _fft_entries(document: dict) -> list[dict]:
    return _first(document, "torch.fft")["entries"]


def _set(path: str, value):
    """A change that sets document[...path] (keys and list positions separated by '/'), or
    deletes it when value is DELETE."""
    *parents, last = [int(part) if part.isdigit() else part for part in path.split("/")]

    def change(document: dict) -> None:
        for part in parents:
            document = document[part]
        if value is DELETE:
            del document[last]
        else:
            document[last] = copy.deepcopy(value)

    return change


DELETE = object()
FFT, FFT_FFT = 51, 53  # the records of torch.fft called as a function and of torch.fft.fft (checked below)
MUTATIONS = [
    pytest.param(_set("levels", []), "declares no stability level with a rank", id="levels_empty"),
    pytest.param(
        lambda d: [level.update(rank=None) for level in d["levels"]],
        "declares no stability level with a rank",
        id="no_ranked_level",
    ),
    pytest.param(
        _set(f"apis/{FFT}/entries/0/release", "9.9"),
        "(torch.fft, use call): entries[0].release names release 9.9, which `releases` does not list",
        id="entry_of_unknown_release",
    ),
    pytest.param(
        _set(f"apis/{FFT}/entries/0/title", DELETE),
        f"at apis[{FFT}].entries[0]: 'title' is a required property",
        id="entry_without_title",
    ),
    pytest.param(
        _set(f"apis/{FFT}/entries/0/title/zh", DELETE),
        f"at apis[{FFT}].entries[0].title: 'zh' is a required property",
        id="title_without_chinese",
    ),
    pytest.param(
        _set(f"apis/{FFT_FFT}/levels/1.7", "gamma"),
        "(torch.fft.fft, use any): levels[1.7] names level gamma, which `levels` does not declare",
        id="undeclared_level",
    ),
    pytest.param(
        _set(f"apis/{FFT_FFT}/entries/0/level", "gamma"),
        "(torch.fft.fft, use any): entries[0].level names level gamma, which `levels` does not declare",
        id="entry_of_undeclared_level",
    ),
    pytest.param(
        _set(f"apis/{FFT_FFT}/introduced_in", "0.1"),
        "(torch.fft.fft, use any): introduced_in names release 0.1, which `releases` does not list",
        id="introduced_in_unknown_release",
    ),
    pytest.param(
        _set(f"apis/{FFT_FFT}/feature", "no-such-feature"),
        "introduced in 1.7 by no-such-feature, but none of its entries is that one",
        id="introduction_without_its_entry",
    ),
    pytest.param(
        _set(f"apis/{FFT_FFT}/introduced_in", None),
        "introduced_in and feature are given together or not at all",
        id="feature_without_release",
    ),
    pytest.param(
        _set(f"apis/{FFT}/deprecated_in", ["8.0"]),
        "(torch.fft, use call): deprecated_in names release 8.0",
        id="deprecated_in_unknown_release",
    ),
    pytest.param(_set("releases", []), "lists no release (releases: [])", id="no_releases"),
    pytest.param(lambda d: d["releases"].append(d["releases"][0]), "release 0.2 is listed twice", id="release_twice"),
    pytest.param(lambda d: d["levels"].append(d["levels"][0]), "level stable is listed twice", id="level_twice"),
    pytest.param(
        lambda d: d["apis"].append(d["apis"][0]), "API c10::CPUCachingAllocator (any) is listed twice", id="api_twice"
    ),
    pytest.param(_set("apis", {"x": {}}), "at apis: {'x': {}} is not of type 'array'", id="apis_a_dict"),
    pytest.param(
        _set("apis/0/entries/0/script", "x"),
        "Additional properties are not allowed ('script' was unexpected)",
        id="unknown_field",
    ),
]


@pytest.mark.parametrize(("mutate", "problem"), MUTATIONS)
def test_an_index_is_checked_against_its_schema_and_references_before_use(
    code, capsys, tmp_path, real_index, mutate, problem
):
    document = copy.deepcopy(real_index)
    mutate(document)
    source = write_index(tmp_path, document)
    assert_refused(*run(capsys, "--index", str(source)), source, problem)


def test_the_real_index_passes_every_check(real_index):
    records = [real_index["apis"][n] for n in (FFT, FFT_FFT)]
    assert [(record["name"], record["use"]) for record in records] == [("torch.fft", "call"), ("torch.fft.fft", "any")]
    assert index_source.schema_problem(real_index) is None and index_source.reference_problem(real_index) is None


# --------------------------------------------------------------------------- output safety


def hostile_index(real: dict) -> dict:
    """The real index with HOSTILE in every text `check` prints: product, level names and keys,
    a release version, titles, migrations, replacements and a code root."""
    document = copy.deepcopy(real)
    old_version, old_key = "1.7", "beta"
    version, key = "1.7" + HOSTILE, "beta" + HOSTILE

    def renamed(value):
        if isinstance(value, dict):
            return {(version if k == old_version else k): renamed(v) for k, v in value.items()}
        if isinstance(value, list):
            return [renamed(v) for v in value]
        return version if value == old_version else key if value == old_key else value

    document = renamed(document)
    document["product"] = {lang: name + HOSTILE for lang, name in document["product"].items()}
    for level in document["levels"]:
        level["name"] = {lang: name + HOSTILE for lang, name in level["name"].items()}
    for record in document["apis"]:
        if record["replacement"]:
            record["replacement"] += HOSTILE
        for entry in record["entries"]:
            entry["title"] = {lang: title + HOSTILE for lang, title in entry["title"].items()}
            if entry["migration"]:
                entry["migration"] = {lang: text + HOSTILE for lang, text in entry["migration"].items()}
    document["code_roots"]["python"].append("x" + HOSTILE)
    return document


def texts(value):
    """Every string in a decoded JSON document."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from texts(item)


# an annotation of a file, or a notice of the run (a release the range crosses and the knowledge
# base does not describe), whose text github_command escapes
OUR_COMMAND = re.compile(r"::(error|warning|notice) (file=[^:]*|title=releasekb)::")


def assert_safe(output: str) -> None:
    """No escape or C1 control for a terminal, no bidi override, and no line a CI log would run
    as a workflow command but our own annotations."""
    assert "\x1b" not in output and "\x9b" not in output and "\u202e" not in output
    for line in output.splitlines():
        assert not line.startswith("::") or OUR_COMMAND.match(line), line


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("output_format", formats.FORMATS)
def test_nothing_from_an_index_reaches_a_terminal_or_ci_log_raw(
    code, capsys, tmp_path, real_index, output_format, lang
):
    source = write_index(tmp_path, hostile_index(real_index))
    args = ("--index", str(source), "--from", "1.4", "--format", output_format, "--lang", lang)
    status, out, err = run(capsys, *args)
    assert status == 1 and err == "", err
    assert_safe(out)
    assert "pwned" in out  # the hostile texts are there, made visible
    if output_format in ("json", "sarif"):  # escaped, and the same text once decoded
        assert any(HOSTILE in text for text in texts(json.loads(out)))
    status, out, err = run(capsys, *args, "--output", str(tmp_path / "report"))
    assert status == 1 and err == "" and out.count("\n") == 1
    assert_safe(out)
    assert_safe((tmp_path / "report").read_text(encoding="utf-8"))


def test_the_json_report_keeps_the_index_text_once_decoded(code, capsys, tmp_path, real_index):
    source = write_index(tmp_path, hostile_index(real_index))
    _, out, _ = run(capsys, "--index", str(source), "--from", "1.4", "--format", "json")
    finding = json.loads(out)["findings"][0]
    assert finding["release"] == "1.7" + HOSTILE and HOSTILE in finding["message"]["en"]
    assert "\\u001b]0;pwned\\u0007" in out and "\\u009b31m\\u202e" in out


def test_the_github_summary_line_cannot_run_a_workflow_command(code, capsys, tmp_path, real_index):
    document = copy.deepcopy(real_index)
    document["code_roots"]["python"].append("x\n::error::injected\n::add-mask::x")
    source = write_index(tmp_path, document)
    status, out, _ = run(capsys, "--index", str(source), "--from", "1.4", "--format", "github")
    summary = out.splitlines()[-2]
    # two annotations, the header, the summary and the coverage notice (which names 1.6, not described)
    assert status == 1 and len(out.splitlines()) == 5
    assert summary.startswith("1 file checked (0 without any mention of torch, torchvision, torchaudio, x\\n::error::")


def test_usage_errors_that_quote_the_index_are_one_safe_line(code, capsys, tmp_path, real_index):
    source = write_index(tmp_path, hostile_index(real_index))
    for args in (["--from", "2.0"], ["--max-stability", "gamma"], ["--only", "nothing-like-it"]):
        status, out, err = run(capsys, "--index", str(source), *args)
        assert status == 2 and out == "" and err.count("\n") == 1, err
        assert_safe(err)


def test_coloured_text_has_only_our_colour_codes(code, tmp_path, real_index):
    from releasekb.check.index import open_index
    from releasekb.check.options import resolve_options
    from releasekb.check.run import run_check

    index = open_index(str(write_index(tmp_path, hostile_index(real_index))), REAL_KB)
    options = resolve_options(index, "1.4", None, None, None, "en")
    text = text_format.text_report(run_check(index, options, ["."]), colour=True)
    assert re.sub(r"\x1b\[[0-9;]*m", "", text) == text_format.text_report(
        run_check(index, options, ["."]), colour=False
    )
    assert_safe(re.sub(r"\x1b\[[0-9;]*m", "", text))


def test_json_text_escapes_what_json_dumps_leaves():
    value = {"title": "a\x1bb\x7fc\x9bd\u202ee\u2028f"}
    text = safe_text.json_escaped(json.dumps(value, ensure_ascii=False, indent=1))
    assert "\\u001b" in text and "\\u007f" in text and "\\u009b" in text and "\\u202e" in text
    assert not safe_text.has_unsafe(text) and json.loads(text) == value
