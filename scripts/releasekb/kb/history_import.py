"""Reading a product's history as others wrote it: a Keep a Changelog file, or GitHub's releases.

Both are Markdown: markdown-it-py parses it into tokens (headings, lists, paragraphs, each with
its lines), so the structure is the parser's, never a pattern's. What this module makes of them
is a `History`: releases of entries, each entry a kind of the model and its text, with the
lines it could not place and why. `history_files.py` turns a History into release files.

Keep a Changelog (https://keepachangelog.com/en/1.1.0/): `## [version] - date` starts a
release (the version linked or not, a link reference at the bottom giving its address,
`[YANKED]` after it, the date missing or written in words); `## [Unreleased]` starts the notes
of the next release; `### Added` and its siblings say what the bullets below are. Nested bullets
fold into their parent's text. The title and the introduction before the first version are the
file's, not a release's, and are not reported.

GitHub releases: the JSON of the REST API's "List releases" (`tag_name`, `name`,
`published_at`, `body`, `draft`, `prerelease`, `html_url`), as `gh api repos/OWNER/REPO/releases`
prints it, or of `gh release view --json tagName,name,publishedAt,body,isDraft,isPrerelease,url`
(one object, or a list of them). `gh release list --json` offers no body: such releases are
imported without entries, and said so.
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from markdown_it.token import Token

from releasekb.common.safe_text import visible
from releasekb.common.versions import is_version
from releasekb.kb.model import (
    CHANGE_KINDS,
    DATE_PATTERN,
    FEATURE_KINDS,
    URL_PATTERN,
    VERSION_PATTERN,
)

# A section whose entries are changes or improvements as their text says (Keep a Changelog's
# `Changed`), and one whose entries say what they are by their first word (bullets under no
# heading, GitHub's "What's Changed").
AS_THE_TEXT_SAYS = "as-the-text-says"
BY_FIRST_WORD = "by-first-word"

# The one table of section headings, by their words in lower case (punctuation and emoji
# dropped: "🐛 Bug Fixes" is "bug fixes"): Keep a Changelog's six, and the names
# conventional-commit tools and GitHub's generated notes give the same sections.
SECTION_KINDS: dict[str, str] = {
    **dict.fromkeys(("added", "new", "features", "feature", "new features", "additions"), "new"),
    **dict.fromkeys(("changed", "changes"), AS_THE_TEXT_SAYS),
    **dict.fromkeys(("improvements", "enhancements", "performance", "performance improvements"), "improvement"),
    **dict.fromkeys(("deprecated", "deprecations"), "deprecation"),
    **dict.fromkeys(("removed", "removals"), "removal"),
    **dict.fromkeys(("fixed", "fixes", "bug fixes", "bugfixes", "bug fix"), "fix"),
    "security": "security",
    **dict.fromkeys(
        ("breaking changes", "breaking", "backwards incompatible changes", "backward incompatible changes"),
        "breaking",
    ),
    **dict.fromkeys(("what s changed", "whats changed", "what changed"), BY_FIRST_WORD),
}

# What makes a `Changed` entry a breaking change rather than an improvement: its text says so.
BREAKING_WORDS = re.compile(r"\bbreaking\b|\bincompatib|\bbackwards?[- ]incompatib|⚠", re.IGNORECASE)

# The first word of an entry under no heading, and the kind it says (else: an improvement, the
# one kind that claims neither something new nor something broken).
FIRST_WORDS: dict[str, str] = {
    **dict.fromkeys(("add", "adds", "added", "new", "introduce", "introduces", "introduced"), "new"),
    **dict.fromkeys(("fix", "fixes", "fixed"), "fix"),
    **dict.fromkeys(("deprecate", "deprecates", "deprecated"), "deprecation"),
    **dict.fromkeys(("remove", "removes", "removed", "drop", "drops", "dropped"), "removal"),
    "security": "security",
}

UNRELEASED = "unreleased"
_MONTH_FORMATS = ("%d %B %Y", "%B %d %Y", "%d %b %Y", "%b %d %Y", "%Y/%m/%d", "%d.%m.%Y")


@dataclass(frozen=True)
class HistoryEntry:
    kind: str  # a kind of FEATURE_KINDS or CHANGE_KINDS
    text: str  # one line: the bullet's text, code spans in backticks, nested bullets folded in
    where: str  # where it was, as the report names it: 'CHANGELOG.md:42'

    @property
    def is_change(self) -> bool:
        return self.kind in CHANGE_KINDS


@dataclass
class HistoryRelease:
    version: str
    date: str | None  # YYYY-MM-DD; None: the source gives none
    where: str
    url: str | None = None  # the release's own page or comparison, where the source links one
    yanked: bool = False
    name: str | None = None  # a name of its own (a GitHub release's), when it is more than the version
    summary: str | None = None  # the paragraphs before its first section
    entries: list[HistoryEntry] = field(default_factory=list)


@dataclass(frozen=True)
class Unplaced:
    where: str
    text: str
    reason: str

    def __str__(self) -> str:
        return f"{self.where}: not imported: {self.reason}: {visible(_excerpt(self.text))}"


@dataclass
class History:
    source: str  # the file, as the report names it
    releases: list[HistoryRelease] = field(default_factory=list)
    unreleased: list[HistoryEntry] = field(default_factory=list)
    unplaced: list[Unplaced] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # whole releases left out (drafts), one line each

    @property
    def entry_count(self) -> int:
        return sum(len(release.entries) for release in self.releases) + len(self.unreleased)


class HistoryError(Exception):
    """A source that is no history at all (not JSON, not a list of releases): one sentence."""


def _markdown() -> MarkdownIt:
    # CommonMark plus tables and strikethrough (GitHub writes both), so that a table is one
    # block to report, not lines of text.
    return MarkdownIt("commonmark").enable(["table", "strikethrough"])


# --- Keep a Changelog -------------------------------------------------------------------------


def read_keepachangelog(text: str, source: str) -> History:
    """The releases, notes and unplaced lines of a Keep a Changelog file."""
    env: dict = {}
    tokens = _markdown().parse(text, env)
    references = {label.casefold(): ref.get("href") for label, ref in env.get("references", {}).items()}
    history = History(source)
    lines = _escaped(source) + ":{line}"
    current: HistoryRelease | None = None  # None: before the first version, or under a heading not placed
    section: str | None = None  # the kind of the current ### section; None before one
    in_preamble, in_unreleased, seen_versions = True, False, set()
    for block in _blocks(tokens):
        where = _where(lines, block[0])
        opening = block[0]
        if opening.type == "heading_open" and opening.tag == "h1" and in_preamble:
            continue  # the file's title
        if opening.type == "heading_open" and opening.tag == "h2":
            in_preamble, section = False, None
            heading = _inline_text(block[1])
            current, in_unreleased = None, False
            if heading.strip("[] ").casefold() == UNRELEASED:
                in_unreleased = True
                continue
            release = _release_heading(block[1], heading, references, where)
            if isinstance(release, Unplaced):
                history.unplaced.append(release)
            elif release.version in seen_versions:
                history.unplaced.append(Unplaced(where, heading, f"version {release.version} has a section already"))
            else:
                seen_versions.add(release.version)
                history.releases.append(release)
                current = release
            continue
        if in_preamble or _is_layout(opening):
            continue  # the introduction is the file's, not a release's; a rule or a comment says nothing
        if current is None and not in_unreleased:
            history.unplaced += _unplaced_block(block, where, "under no release heading the import understands", lines)
            continue
        target = history.unreleased if in_unreleased else current.entries
        section = _read_block(block, lines, section, target, history.unplaced, current, in_unreleased)
    return history


def _release_heading(inline: Token, heading: str, references: dict, where: str) -> HistoryRelease | Unplaced:
    """A release of a `## [1.2.0] - 2024-06-14 [YANKED]` heading (its version linked inline, by a
    reference, or not at all; its date ISO or in words, or missing)."""
    words = heading.replace("[", " ").replace("]", " ").split()
    written = next((word for word in words if _version(word)), None)  # as the heading writes it: v1.0.0-RC1
    if written is None:
        return Unplaced(where, heading, "a heading with no version (a release heading is `## [1.2.0] - 2024-06-14`)")
    version, rest = _version(written), heading.replace(written, " ", 1)
    yanked = bool(re.search(r"\byanked\b", rest, re.IGNORECASE))
    url = _heading_link(inline) or references.get(version.casefold()) or references.get(f"v{version}".casefold())
    return HistoryRelease(
        version=version,
        date=_date(re.sub(r"\byanked\b", " ", rest, flags=re.IGNORECASE)),
        where=where,
        url=url if url and re.fullmatch(URL_PATTERN, url) else None,
        yanked=yanked,
    )


def _heading_link(inline: Token) -> str | None:
    return next((child.attrs.get("href") for child in inline.children or [] if child.type == "link_open"), None)


def _version(word: str) -> str | None:
    """The version a heading's or a tag's word names, as a release file's name takes it:
    'v1.2.0' -> '1.2.0', '2.0.0.dev5' as it is, '1.0.0-RC1' -> '1.0.0-rc1'; None for any other word."""
    word = word.strip("()[],:;").removeprefix("v").removeprefix("V").lower()
    if not is_version(word) or not re.fullmatch(VERSION_PATTERN, word):
        return None
    return word


def _date(text: str) -> str | None:
    """The date a heading or a timestamp gives: ISO (`2024-06-14`, `2024-06-14T10:00:00Z`), or
    in words (`6th December, 2024`, `December 6, 2024`); None when it gives none."""
    found = re.search(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)", text)
    if found:
        candidate = "-".join(found.groups())
        return candidate if _is_real_date(candidate) else None
    words = re.sub(r"(\d+)(st|nd|rd|th)\b", r"\1", text)
    words = " ".join(re.sub(r"[()\[\],\-–—]", " ", words).split())
    for form in _MONTH_FORMATS:
        try:
            return datetime.datetime.strptime(words, form).date().isoformat()
        except ValueError:
            continue
    return None


def _is_real_date(text: str) -> bool:
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return bool(re.fullmatch(DATE_PATTERN, text))


# --- GitHub releases --------------------------------------------------------------------------


def read_github_releases(text: str, source: str) -> History:
    """The releases of a GitHub releases JSON (the REST API's shape or `gh`'s); drafts are left
    out, each said so."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise HistoryError(
            f"{source}:{error.lineno}:{error.colno}: not JSON ({error.msg}): give the output of "
            "`gh api repos/OWNER/REPO/releases --paginate`"
        ) from None
    items = [data] if isinstance(data, dict) else data
    if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
        raise HistoryError(
            f"{source}: not a list of releases: give the output of `gh api repos/OWNER/REPO/releases --paginate` "
            "(a JSON list of objects with tag_name, name, published_at and body)"
        )
    history = History(source)
    seen: set[str] = set()
    for index, item in enumerate(items):
        _read_github_release(item, index, source, history, seen)
    return history


def _field(item: dict, *names: str):
    """The first of `names` the release has: the REST API's snake_case, then gh's camelCase."""
    return next((item[name] for name in names if item.get(name) is not None), None)


def _read_github_release(item: dict, index: int, source: str, history: History, seen: set[str]) -> None:
    tag = _field(item, "tag_name", "tagName")
    name = _field(item, "name")
    label = f"{source}: release {index + 1}" + (f" ({tag})" if isinstance(tag, str) else "")
    if _field(item, "draft", "isDraft"):
        history.skipped.append(f"{label}: a draft, not imported (it was never published)")
        return
    version = next(
        (v for text in (tag, name) if isinstance(text, str) for word in text.split() if (v := _tag_version(word))),
        None,
    )
    if version is None:
        history.unplaced.append(Unplaced(label, str(tag or name or ""), "no version in its tag_name or name"))
        return
    if version in seen:
        history.unplaced.append(Unplaced(label, str(tag), f"version {version} is in the file twice"))
        return
    seen.add(version)
    published = _field(item, "published_at", "publishedAt", "created_at", "createdAt")
    url = _field(item, "html_url", "url")
    release = HistoryRelease(
        version=version,
        date=_date(published) if isinstance(published, str) else None,
        where=label,
        url=url if isinstance(url, str) and re.fullmatch(URL_PATTERN, url) and "api." not in url else None,
        name=name.strip() if isinstance(name, str) and name.strip() and _version(name.strip()) is None else None,
    )
    history.releases.append(release)
    body = _field(item, "body")
    if not isinstance(body, str) or not body.strip():
        history.skipped.append(
            f"{label}: no body, so no entries (`gh release list --json` gives none; "
            "`gh api repos/OWNER/REPO/releases` does)"
        )
        return
    section: str | None = None  # bullets before any heading say what they are by their first word
    lines = _escaped(label) + ", body line {line}"
    for block in _blocks(_markdown().parse(body)):
        section = _read_block(block, lines, section, release.entries, history.unplaced, release)


def _tag_version(word: str) -> str | None:
    """The version of a tag: 'v1.2.0', 'release-1.2.0', 'mypkg@1.2.0' -> '1.2.0'."""
    return _version(re.split(r"[@/]|(?<=[a-z])-(?=v?\d)", word)[-1])


# --- Markdown blocks ---------------------------------------------------------------------------


def _blocks(tokens: list[Token]) -> Iterator[list[Token]]:
    """The top-level blocks of a token stream, each its opening token to its closing one."""
    i = 0
    while i < len(tokens):
        j = i
        if tokens[i].nesting == 1:
            depth = 0
            for j in range(i, len(tokens)):
                depth += tokens[j].nesting
                if depth == 0:
                    break
        yield tokens[i : j + 1]
        i = j + 1


def _where(lines: str, token: Token) -> str:
    """Where a block starts: `lines` with its line number ('CHANGELOG.md:{line}')."""
    return lines.format(line=token.map[0] + 1) if token.map else lines.format(line="?")


def _read_block(
    block: list[Token],
    lines: str,
    section: str | None,
    target: list[HistoryEntry],
    unplaced: list[Unplaced],
    release: HistoryRelease | None,
    in_unreleased: bool = False,
) -> str | None:
    """Place one block of a release's section; return the section kind after it (a heading
    changes it)."""
    opening = block[0]
    where = _where(lines, opening)
    if _is_layout(opening):
        return section
    if opening.type == "heading_open":
        heading = _inline_text(block[1])
        kind = _section_kind(heading)
        if kind is None:
            unplaced.append(Unplaced(where, heading, "a section the import does not map (entries under it are listed)"))
            return _UNMAPPED
        return kind
    if opening.type in ("bullet_list_open", "ordered_list_open") and section != _UNMAPPED:
        for item in _list_items(block):
            text, left_out = _item_text(item, lines)
            unplaced += left_out
            if text:
                target.append(HistoryEntry(_entry_kind(section or BY_FIRST_WORD, text), text, _where(lines, item[0])))
        return section
    if opening.type == "paragraph_open" and section is None and release and not release.entries and not in_unreleased:
        paragraph = _inline_text(block[1])
        release.summary = f"{release.summary} {paragraph}" if release.summary else paragraph
        return section
    reason = "under a section the import does not map" if section == _UNMAPPED else "not a list entry"
    unplaced += _unplaced_block(block, where, reason, lines)
    return section


def _is_layout(token: Token) -> bool:
    """A thematic break or an HTML comment: layout, no content to import or report."""
    return token.type == "hr" or (token.type == "html_block" and token.content.lstrip().startswith("<!--"))


_UNMAPPED = "unmapped"  # the kind of a section whose heading is not in SECTION_KINDS


def _section_kind(heading: str) -> str | None:
    words = " ".join(re.sub(r"[^a-z]+", " ", heading.casefold()).split())
    return SECTION_KINDS.get(words)


def _entry_kind(section: str, text: str) -> str:
    if section == AS_THE_TEXT_SAYS:
        return "breaking" if BREAKING_WORDS.search(text) else "improvement"
    if section == BY_FIRST_WORD:
        if BREAKING_WORDS.search(text):
            return "breaking"
        first = re.sub(r"[^a-z]", "", text.split(maxsplit=1)[0].casefold()) if text.split() else ""
        return FIRST_WORDS.get(first, "improvement")
    assert section in FEATURE_KINDS or section in CHANGE_KINDS, section
    return section


def _list_items(block: list[Token]) -> Iterator[list[Token]]:
    """The items of a list block (its opening and closing tokens left out)."""
    yield from (item for item in _blocks(block[1:-1]) if item[0].type == "list_item_open")


def _item_text(item: list[Token], lines: str) -> tuple[str, list[Unplaced]]:
    """An item's text, its nested items folded in ('Support for: a; b'), and its blocks that
    are neither text nor a list (a code block), to report."""
    own, nested, left_out = [], [], []
    for block in _blocks(item[1:-1]):
        kind = block[0].type
        if kind == "paragraph_open":
            own.append(_inline_text(block[1]))
        elif kind in ("bullet_list_open", "ordered_list_open"):
            for child in _list_items(block):
                text, more = _item_text(child, lines)
                left_out += more
                if text:
                    nested.append(text.rstrip(".;"))
        else:
            left_out += _unplaced_block(block, _where(lines, block[0]), "inside an entry", lines)
    text = " ".join(own)
    if nested:
        text = f"{text.rstrip(':')}: {'; '.join(nested)}" if text else "; ".join(nested)
    return text, left_out


def _unplaced_block(block: list[Token], where: str, reason: str, lines: str = "") -> list[Unplaced]:
    """A block not placed: each item of a list on its own line of the report, any other block once."""
    if block[0].type in ("bullet_list_open", "ordered_list_open") and lines:
        return [Unplaced(_where(lines, item[0]), _item_text(item, lines)[0], reason) for item in _list_items(block)]
    text = next((_inline_text(t) for t in block if t.type == "inline"), None) or block[0].content or block[0].type
    return [Unplaced(where, text, reason)]


def _inline_text(token: Token) -> str:
    """Inline Markdown as one line of text: code spans keep their backticks (the site shows them
    as code), links and emphasis keep their words, HTML is dropped."""
    parts = []
    for child in token.children or []:
        if child.type == "text":
            parts.append(child.content)
        elif child.type == "code_inline":
            parts.append(f"`{child.content}`")
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif child.type == "image":
            parts.append(child.content)
    text = "".join(parts)
    text = re.sub(r"[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ufffe\uffff]", " ", text)
    return " ".join(text.split())


def _escaped(name: str) -> str:
    """A file name inside a `{line}` format."""
    return name.replace("{", "{{").replace("}", "}}")


def _excerpt(text: str, length: int = 80) -> str:
    text = text.strip().split("\n", 1)[0]  # a code block's first line
    return text if len(text) <= length else text[: length - 1] + "…"
