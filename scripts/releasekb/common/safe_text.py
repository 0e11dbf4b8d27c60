"""Text from data or an index, made safe for the places it is printed.

A title is curated by people and an index is fetched from anywhere, so either may carry an
escape sequence (which repaints or retitles a terminal), or a newline followed by `::error::`
or `::add-mask::` (which a CI log runs as a workflow command). Every value printed to a
terminal, a CI log or a machine-read report goes through one of these functions.
"""

from __future__ import annotations

import html
import re

# C0 controls (tab and newline included: a value printed on one line must stay on it), DEL, C1
# controls, and the Unicode format characters that reorder or hide text (bidi overrides and
# isolates, zero-width joiners do no harm and are kept); also lone surrogates, which no UTF-8
# output can carry, and U+FFFE and U+FFFF, which are not characters (XML refuses both). A YAML
# escape in double quotes ("\e", "\x1b", "\ud800") writes any of them.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff\ufffe\uffff]")
# The same set with tab and newline allowed: for a block of text printed as a block.
_UNSAFE_IN_BLOCK = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff\ufffe\uffff]"
)


def _escape(match: re.Match) -> str:
    char = match.group()
    named = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
    if char in named:
        return named[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def has_unsafe(text: str) -> bool:
    """True when the text holds a character `visible` would rewrite (tab and newline allowed)."""
    return bool(_UNSAFE_IN_BLOCK.search(text))


def unsafe_character(text: str, *, block: bool = False) -> str | None:
    """The first character `visible` would rewrite (block: `visible_block`, which keeps tab and
    newline), or None: what `validate` names when it refuses a value."""
    found = (_UNSAFE_IN_BLOCK if block else _UNSAFE).search(text)
    return found.group() if found else None


def visible(text: object) -> str:
    """One line: every control character written as a visible escape (`\\x1b`, `\\n`)."""
    return _UNSAFE.sub(_escape, str(text))


def visible_block(text: object) -> str:
    """Several lines: newlines and tabs kept, every other control character made visible."""
    return _UNSAFE_IN_BLOCK.sub(_escape, str(text))


def github_message(value: object) -> str:
    """A workflow command's message: %, CR and LF escaped (GitHub's rules), so a newline in the
    message cannot start a second command; other control characters made visible."""
    text = str(value).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return visible(text)


def github_property(value: object) -> str:
    """A workflow command's property value: ':' and ',' escaped too."""
    return github_message(value).replace(":", "%3A").replace(",", "%2C")


def github_command(command: str, message: object, **properties: object) -> str:
    """`::error file=F,line=3::message` with every part escaped; properties that are None are left
    out. The one place a workflow command is written."""
    fields = ",".join(f"{name}={github_property(value)}" for name, value in properties.items() if value is not None)
    head = f"::{command} {fields}" if fields else f"::{command}"
    return f"{head}::{github_message(message)}"


def github_log_line(value: object) -> str:
    """A plain line in a CI log: one line, and not read as a workflow command even if a value
    makes it start with '::'."""
    text = visible(value)
    return " " + text if text.startswith("::") else text


def xml_text(value: object) -> str:
    """Text for an XML document (an SVG badge or chart): one line, every control character made
    visible (XML 1.0 allows none of them, so one would make the document unreadable), and &, <,
    > and quotes escaped, so it fits an element or an attribute."""
    return html.escape(visible(value))


def json_escaped(json_text: str) -> str:
    """JSON text (as `json.dumps` writes it) with every character `visible_block` would rewrite
    written as a \\uXXXX escape: the same data for a JSON reader, nothing raw for a terminal.
    json.dumps escapes C0 controls itself, but leaves DEL, C1 and bidi controls raw; outside
    strings it writes only newlines and spaces, which are kept."""
    return _UNSAFE_IN_BLOCK.sub(lambda match: f"\\u{ord(match.group()):04x}", json_text)
