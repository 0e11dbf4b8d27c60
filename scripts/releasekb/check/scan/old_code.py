"""Code the running Python cannot parse: old code, read as it was written.

Code being upgraded is old code. A file that was valid in the Python it was written for may be a
syntax error today: Python 2's `print "x"`, `exec code`, `except E, e:`, `raise E, "why"`,
backticks, `0777`, `10L`, `<>` and `ur""`; Python 3.8's parenthesised starred element
`(-1, (*shape))`; Python 3.6's `async` as a name (`.cuda(async=True)`); tabs mixed with spaces.
Such a file is read in one of two more ways before it is called unreadable:

1. rewritten: those old forms are rewritten into today's on the same lines (`print "x"` becomes
   `print("x")`), and the result is parsed and analysed as any file; the columns of its uses are
   mapped back to the text as written. The analysis is the same, so is the confidence.
2. by tokens: when even the rewritten text does not parse, every dotted name outside strings and
   comments is resolved through the imports above it (no scopes, no guards: a name is what its
   last import made it), one confidence level lower.

The outcome's one FileError is a note (a kind of model.READ_OTHERWISE) that names the method and
why the file did not parse as it is, so that the report says so for that file. A notebook's cell
is read the first way only (notebooks.py).

The text is cut into tokens by a regular expression of this module, not by `tokenize`, whose
tolerance of invalid code changes with the Python version (3.12's raises on `0777`). parso was
weighed: it parses the 3.x grammars down to 3.6 with error recovery, but has no Python 2 grammar,
and its tree would need a second analyzer beside the one for `ast`.
"""

from __future__ import annotations

import ast
import bisect
import dataclasses
import keyword
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

from releasekb.check.messages import message
from releasekb.check.scan import decoding
from releasekb.check.scan.jobs import Outcome
from releasekb.check.scan.model import CONFIDENCE_LEVELS, RANK, READ_OTHERWISE, FileError, Use
from releasekb.check.scan.suppressions import NO_SUPPRESSION, python_suppressions
from releasekb.check.scan.targets import Config, python_matches

_TOKEN = re.compile(
    r"""
    (?P<string>(?i:[rbuf]{0,2})(?:'''(?:\\.|[^\\])*?(?:'''|\Z)|\"\"\"(?:\\.|[^\\])*?(?:\"\"\"|\Z)
        |'(?:\\.|[^'\\\r\n])*'?|"(?:\\.|[^"\\\r\n])*"?))
    |(?P<comment>\#[^\r\n]*)
    |(?P<newline>\r\n|\r|\n)
    |(?P<continuation>\\(?:\r\n|\r|\n))
    |(?P<space>[ \t\f]+)
    |(?P<number>(?:\d|\.\d)(?:[\w.]|(?<=[eE])[-+])*)
    |(?P<name>[^\W\d]\w*)
    |(?P<op>\*\*=?|//=?|>>=?|<<=?|<>|->|\.\.\.|:=|[-+*/%&|^=<>!@:]=|.)
    """,
    re.VERBOSE | re.DOTALL,
)
_INSIGNIFICANT = frozenset({"space", "comment", "continuation"})
_INDENTATION = re.compile(r"[ \t\f]*")
_OPENING, _CLOSING = frozenset("([{"), frozenset(")]}")
_COMPOUND = frozenset({"if", "elif", "else", "for", "while", "try", "except", "finally", "with", "def", "class"})
_KEYWORDS = frozenset(keyword.kwlist) | {"print", "exec"}
_PRINT_LIKE = frozenset({"print", "exec"})  # Python 2 statements, functions since
_NOT_A_STATEMENT = frozenset({"(", "=", ".", ",", ")", "]", "}", ";", ":"})  # `print(`, `print = f`...
_OCTAL = re.compile(r"0[0-7]*[1-7][0-7]*[lL]?")
_LONG = re.compile(r"(?:0[xX][0-9a-fA-F]+|0[oO]?[0-7]+|\d+)[lL]")


class Token(NamedTuple):  # a tuple: files of old code have hundreds of thousands of tokens
    kind: str
    text: str
    start: int
    end: int


def tokens(text: str) -> list[Token]:
    """The tokens of the text that mean something, line ends included (not spaces, comments or
    backslash continuations), never failing: what is not Python is an op."""
    return [
        Token(match.lastgroup, match.group(), match.start(), match.end())
        for match in _TOKEN.finditer(text)
        if match.lastgroup not in _INSIGNIFICANT
    ]


def _statements(all_tokens: list[Token]) -> Iterator[list[Token]]:
    """The significant tokens of each simple statement: a logical line, cut at `;` and after the
    `:` of a compound statement's header (`if x: print "y"`)."""
    statement: list[Token] = []
    depth = 0
    for token in all_tokens:
        boundary = token.kind == "newline" and depth == 0
        if token.kind == "op" and depth == 0 and statement:
            boundary = token.text == ";" or (
                token.text == ":" and statement[0].text in _COMPOUND and not any(t.text == ":" for t in statement)
            )
        if token.kind == "op":
            depth += token.text in _OPENING
            depth = max(depth - (token.text in _CLOSING), 0)
        if token.kind != "newline":
            statement.append(token)
        if boundary:
            if token.text == ":" and statement:  # the header is a statement; its body starts after it
                yield statement
                statement = []
            elif statement:
                yield statement[:-1] if token.text == ";" else statement
                statement = []
    if statement:
        yield statement


def _top_level(statement: list[Token]) -> Iterator[tuple[int, Token]]:
    """The statement's tokens outside brackets, with their index."""
    depth = 0
    for index, token in enumerate(statement):
        if token.kind == "op" and token.text in _CLOSING:
            depth = max(depth - 1, 0)
        if depth == 0:
            yield index, token
        if token.kind == "op" and token.text in _OPENING:
            depth += 1


class _Rewriting:
    """The edits that make old forms today's: (start, end, replacement) on the text as written,
    never across a line, and the forms found (as code, the same in every language)."""

    def __init__(self, text: str, all_tokens: list[Token]) -> None:
        self.text = text
        self.tokens = all_tokens
        self.edits: list[tuple[int, int, str]] = []
        self.forms: list[str] = []

    def edit(self, start: int, end: int, replacement: str, form: str) -> None:
        self.edits.append((start, end, replacement))
        if form not in self.forms:
            self.forms.append(form)

    def run(self) -> None:
        self._tokens_alone()
        for statement in _statements(self.tokens):
            self._statement(statement)
        self._parenthesised_starred()
        self._indentation()

    def _tokens_alone(self) -> None:
        backticks = 0
        significant = self.tokens
        for index, token in enumerate(significant):
            following = significant[index + 1] if index + 1 < len(significant) else None
            if token.kind == "op" and token.text == "`":
                self.edit(token.start, token.end, "(" if backticks % 2 == 0 else ")", "`x`")
                backticks += 1
            elif token.kind == "op" and token.text == "<>":
                self.edit(token.start, token.end, "!=", "<>")
            elif token.kind == "number" and _OCTAL.fullmatch(token.text):
                self.edit(token.start, token.start + 1, "0o", "0777")
            if token.kind == "number" and _LONG.fullmatch(token.text):
                self.edit(token.end - 1, token.end, "", "10L")
            elif token.kind == "string" and token.text[:2].lower() == "ur":
                self.edit(token.start, token.start + 1, "", "ur''")
            elif token.kind == "name" and token.text == "async" and following is not None and following.kind == "op":
                self.edit(token.start, token.end, "async_", "async=")

    def _statement(self, statement: list[Token]) -> None:
        first = statement[0]
        if first.kind == "name" and first.text in _PRINT_LIKE and len(statement) > 1:
            following = statement[1]
            if following.kind == "op" and (following.text in _NOT_A_STATEMENT or following.text.endswith("=")):
                return  # a call, an assignment, an attribute: already today's
            after = self.text[first.end : first.end + 1]
            self.edit(first.end, first.end + (after in " \t"), "(", f"{first.text} x")
            if following.kind == "op" and following.text == ">>":  # `print >>f, x`: print(f, x) reads f too
                self.edit(following.start, following.end, "  ", f"{first.text} x")
            self.edit(statement[-1].end, statement[-1].end, ")", f"{first.text} x")
        elif first.kind == "name" and first.text in ("except", "raise"):
            comma = next((t for _, t in _top_level(statement) if t.kind == "op" and t.text == ","), None)
            if comma is None:
                return
            if first.text == "except":
                self.edit(comma.start, comma.end, " as", "except E, e")
            else:
                self.edit(comma.start, comma.end, "(", "raise E, v")
                self.edit(statement[-1].end, statement[-1].end, ")", "raise E, v")

    def _parenthesised_starred(self) -> None:
        """`(-1, (*shape))`, valid until 3.8: the brackets around a starred element become spaces."""
        significant = self.tokens
        for index, token in enumerate(significant[:-1]):
            if token.text != "(" or significant[index + 1].text != "*":
                continue
            before = significant[index - 1] if index else None
            if before is not None and (
                before.kind in ("number", "string")
                or before.text in _CLOSING
                or (before.kind == "name" and before.text not in _KEYWORDS)
            ):
                continue  # a call: `f(*args)`
            closing = _matching(significant, index)
            if closing is not None:
                self.edit(token.start, token.end, " ", "(*x)")
                self.edit(closing.start, closing.end, " ", "(*x)")

    def _indentation(self) -> None:
        """Python 2 read a tab as up to the next multiple of 8 columns; Python 3 refuses a mix. Only
        lines that start a statement (not inside brackets or strings) have an indentation."""
        depth, line_starts = 0, [0]
        for token in self.tokens:
            if token.kind == "op":
                depth += token.text in _OPENING
                depth = max(depth - (token.text in _CLOSING), 0)
            elif token.kind == "newline" and depth == 0:
                line_starts.append(token.end)
        for start in line_starts:
            indentation = _INDENTATION.match(self.text, start)
            if "\t" in indentation.group():
                self.edit(start, indentation.end(), indentation.group().expandtabs(8), "\\t")


def _matching(significant: list[Token], opening: int) -> Token | None:
    """The `)` closing the `(` at `opening`, if no comma at its level comes before it."""
    depth = 0
    for token in significant[opening:]:
        if token.kind != "op":
            continue
        if token.text in _OPENING:
            depth += 1
        elif token.text in _CLOSING:
            depth -= 1
            if depth == 0:
                return token if token.text == ")" else None
        elif token.text == "," and depth == 1:
            return None
    return None


@dataclass(frozen=True)
class Rewritten:
    text: str
    forms: list[str]
    # for each line with an edit: (column as written, length as written, length rewritten), in order
    shifts: dict[int, list[tuple[int, int, int]]]

    def column_as_written(self, line: int, column: int) -> int:
        """A 1-based column of the rewritten line, on the line as written."""
        shift = 0
        for start, removed, inserted in self.shifts.get(line, ()):
            rewritten_start = start + shift
            if column - 1 < rewritten_start:
                break
            if column - 1 < rewritten_start + inserted:
                return start + 1
            shift += inserted - removed
        return column - shift


def rewritten(text: str, all_tokens: list[Token]) -> Rewritten | None:
    """The text with its old forms rewritten, or None when it has none."""
    rewriting = _Rewriting(text, all_tokens)
    rewriting.run()
    if not rewriting.edits:
        return None
    line_starts = _line_starts(text)
    parts, position = [], 0
    shifts: dict[int, list[tuple[int, int, int]]] = {}
    for start, end, replacement in sorted(rewriting.edits):
        if start < position:
            continue  # two rules on the same characters: the first one holds
        parts += [text[position:start], replacement]
        position = end
        line = bisect.bisect_right(line_starts, start)
        shifts.setdefault(line, []).append((start - line_starts[line - 1], end - start, len(replacement)))
    parts.append(text[position:])
    return Rewritten("".join(parts), rewriting.forms, shifts)


def _line_starts(text: str) -> list[int]:
    return [0, *(match.end() for match in decoding.NEWLINE.finditer(text))]


def _lower(level: str) -> str:
    return CONFIDENCE_LEVELS[max(RANK[level] - 1, 0)]


def parse_rewritten(text: str, rel: str) -> tuple[ast.Module, Rewritten] | None:
    """The tree of the text with its old forms rewritten, and the rewriting; None when it has no
    old form or still does not parse."""
    fixed = rewritten(text, tokens(text))
    if fixed is None:
        return None
    tree, _failure = decoding.parse(fixed.text, rel)
    return None if tree is None else (tree, fixed)


def rewritten_note(fixed: Rewritten) -> str:
    """The forms rewritten, as the notes list them."""
    return ", ".join(map(_code, fixed.forms))


def columns_as_written(uses: list[Use], fixed: Rewritten) -> list[Use]:
    """Uses found in the rewritten text, at their columns in the text as written."""
    return [dataclasses.replace(use, column=fixed.column_as_written(use.line, use.column)) for use in uses]


def read_rewritten(tree: ast.Module, fixed: Rewritten, analyze) -> list[Use]:
    """The uses `analyze(tree, text)` finds in the rewritten text, at their columns as written."""
    return columns_as_written(analyze(tree, fixed.text), fixed)


def read_by_tokens(rel: str, text: str, all_tokens: list[Token], config: Config, why: str) -> list[Use]:
    """Each dotted name outside strings and comments that an import above it makes an API."""
    line_starts = _line_starts(text)
    suppressions = python_suppressions(text)
    significant = all_tokens
    bound: dict[str, tuple[str, str, int]] = {}  # name: (qualname, the import's text, its line)
    uses: list[Use] = []
    unparsed = message("read_by_tokens", why=why)
    level = _lower("high")  # what an import gives, one level lower: scopes and guards are not known
    if RANK[level] < config.min_rank:
        return uses
    index = 0
    while index < len(significant):
        token = significant[index]
        if token.kind == "name" and token.text in ("import", "from") and _starts_statement(significant, index):
            index = _import(significant, index, bound, config, line_starts)
            continue
        if token.kind != "name" or (index and significant[index - 1].text == "."):
            index += 1
            continue
        names, index = _dotted(significant, index)
        if names[0] not in bound:
            continue
        qualname, statement, line = bound[names[0]]
        qualname = ".".join([qualname, *names[1:]])
        is_call = index < len(significant) and significant[index].text == "("
        use_line = bisect.bisect_right(line_starts, token.start)
        how = (unparsed, message("import_name", name=names[0], text=statement, line=line))
        for target in python_matches(config, qualname, is_call):
            uses.append(
                Use(
                    path=rel,
                    line=use_line,
                    column=token.start - line_starts[use_line - 1] + 1,
                    cell=None,
                    target=target,
                    written=".".join(names),
                    resolved=qualname,
                    resolution=how,
                    confidence=level,
                    guarded=False,
                    suppressed=suppressions.get(use_line, NO_SUPPRESSION),
                )
            )
    return uses


def _starts_statement(significant: list[Token], index: int) -> bool:
    """Whether the token begins a statement: first in the file or on its line, or after `;` or `:`."""
    return index == 0 or significant[index - 1].kind == "newline" or significant[index - 1].text in (";", ":")


def _dotted(significant: list[Token], index: int) -> tuple[list[str], int]:
    """`a.b.c` from the name at `index`, and the index after it."""
    names = [significant[index].text]
    index += 1
    while index + 1 < len(significant) and significant[index].text == "." and significant[index + 1].kind == "name":
        names.append(significant[index + 1].text)
        index += 2
    return names, index


def _import(significant, index, bound, config: Config, line_starts: list[int]) -> int:
    """Bind the names an `import` or `from ... import` statement binds; the index after it."""
    end, depth = index, 0
    while end < len(significant) and not (
        depth == 0 and (significant[end].kind == "newline" or significant[end].text == ";")
    ):
        depth += (significant[end].text == "(") - (significant[end].text == ")")
        end += 1
    words = [t for t in significant[index:end] if t.kind != "newline"]
    line = bisect.bisect_right(line_starts, significant[index].start)
    statement = (
        " ".join(t.text for t in words if t.text not in ("(", ")")).replace(" . ", ".").replace(" ,", ",").rstrip(",")
    )
    if words[0].text == "import":
        for name, alias in _aliases(words[1:]):
            if name.split(".")[0] in config.python_roots:
                bound[alias or name.split(".")[0]] = (name if alias else name.split(".")[0], statement, line)
    else:
        split = next((i for i, t in enumerate(words) if t.text == "import"), None)
        module = "".join(t.text for t in words[1:split]) if split else ""
        if split and module.split(".")[0] in config.python_roots:
            for name, alias in _aliases(words[split + 1 :]):
                bound[alias or name] = (f"{module}.{name}", statement, line)
    return end


def _aliases(words: list[Token]) -> Iterator[tuple[str, str | None]]:
    """(dotted name, alias or None) of `a.b as c, d`, brackets left out."""
    names = [t for t in words if t.text not in ("(", ")")]
    parts: list[list[str]] = [[]]
    for token in names:
        if token.text == ",":
            parts.append([])
        else:
            parts[-1].append(token.text)
    for part in parts:
        if "as" in part[1:]:
            at = part.index("as", 1)
            yield "".join(part[:at]), "".join(part[at + 1 :]) or None
        elif part and part != ["*"]:
            yield "".join(part), None


def scan_old_code(rel: str, text: str, why: str, config: Config, analyze) -> Outcome:
    """A file that did not parse as it is (`why`): rewritten and parsed, else read by tokens."""
    all_tokens = tokens(text)
    fixed = rewritten(text, all_tokens)
    if fixed is not None:
        tree, _failure = decoding.parse(fixed.text, rel)
        if tree is not None:
            note = message("read_rewritten", why=why, forms=rewritten_note(fixed))
            return ("scanned", read_rewritten(tree, fixed, analyze), [FileError(rel, _line(why), note)])
    uses = read_by_tokens(rel, text, all_tokens, config, why)
    return ("scanned", uses, [FileError(rel, _line(why), message("read_by_tokens_file", why=why))])


def read_method(note: FileError) -> str:
    """How a file of old code was read, from its note: "rewritten" or "tokens"."""
    return READ_OTHERWISE[note.reason.kind]


def _code(form: str) -> str:
    """A form as inline code, which needs double backticks around one that holds a backtick."""
    return f"`` {form} ``" if "`" in form else f"`{form}`"


def _line(why: str) -> int:
    match = re.match(r"line (\d+)", why)
    return int(match.group(1)) if match else 1
