"""From a file's bytes to a syntax tree: text decoded as Python reads it (BOM, coding cookie,
UTF-8), and parsed with a clear reason when it cannot be."""

from __future__ import annotations

import ast
import contextlib
import io
import re
import sys
import tokenize
import warnings
from collections.abc import Iterator

from releasekb.check.messages import Message, message

_RECURSION_LIMIT = 10_000


_UTF8_BOM = b"\xef\xbb\xbf"
NEWLINE = re.compile(r"\r\n|\r|\n")


def _decode_failure(data: bytes, error: UnicodeDecodeError, encoding: str) -> tuple[int, Message]:
    """Where the first undecodable byte is, so the user can find it."""
    line = data.count(b"\n", 0, error.start) + 1
    label = "UTF-8" if encoding.replace("_", "-").lower() in ("utf-8", "utf8") else encoding
    byte = data[error.start] if error.start < len(data) else 0
    return line, message("undecodable", encoding=label, byte=byte, line=line)


def decode_utf8(data: bytes) -> tuple[str | None, tuple[int, Message] | None]:
    if data.startswith(_UTF8_BOM):
        data = data[len(_UTF8_BOM) :]
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as error:
        return None, _decode_failure(data, error, "utf-8")


def decode_python(data: bytes) -> tuple[str | None, tuple[int, Message] | None]:
    """Bytes to text as Python would read them: BOM, then a PEP 263 coding cookie, else UTF-8."""
    if data.startswith(_UTF8_BOM):
        data = data[len(_UTF8_BOM) :]
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as error:
        return None, (1, message("bad_encoding_declaration", why=str(error)))
    try:
        return data.decode(encoding), None
    except UnicodeDecodeError as error:
        return None, _decode_failure(data, error, encoding)


@contextlib.contextmanager
def deep_recursion() -> Iterator[None]:
    """The walk recurses once per nesting level; allow deeply nested (generated) code."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, _RECURSION_LIMIT))
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)


def syntax_error(failure: tuple[int, str]) -> bool:
    """Whether parse's failure is the grammar's (old code may be read otherwise), not a null byte or depth."""
    why = failure[1]
    return not why.endswith(("contains a null byte", "too deeply nested to parse"))


def parse(text: str, rel: str) -> tuple[ast.Module | None, tuple[int, str] | None]:
    """The syntax tree, or (line, what is wrong) to report."""
    null = text.find("\0")
    if null >= 0:  # Python refuses these without saying where (ValueError or SyntaxError, by version)
        line = text.count("\n", 0, null) + 1
        return None, (line, f"line {line}: contains a null byte")
    try:
        # building the tree of `1 + 1 + ... + 1` recurses once per term; the compiler's warnings
        # about the code (`"\d"`, `1e_1` in old code) are not the run's to print: it never runs it
        with deep_recursion(), warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)
            warnings.simplefilter("ignore", DeprecationWarning)
            return ast.parse(text, filename=rel), None
    except SyntaxError as error:
        line = error.lineno or 1
        where = f"line {line}" + (f", column {error.offset}" if error.offset else "")
        return None, (line, f"{where}: {error.msg}")
    except (RecursionError, MemoryError):
        return None, (1, "line 1: too deeply nested to parse")
