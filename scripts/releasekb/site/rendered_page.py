"""The page object: one generated page as the renderer made it, carrying what every consumer needs.

Made once, by render.render_pages: the body its template wrote (HTML, each section heading as a
Markdown line written by `heading`), the headings themselves as they were written, its
description, whether search reads it, and the front matter its template gave (Material's `hide`).
Nothing is parsed back out of the text. Two views of it:
- for the engine (plugin.GeneratedPage): `html` (the headings as the HTML Markdown's toc extension
  makes of them), `title`, `toc_tokens` and `anchor_ids`, `meta`;
- the standalone Markdown export written to docs/<lang>/ (`markdown`), which any MkDocs-compatible
  engine builds without the plugin into the same pages: the title and description in front
  matter, the headings as Markdown with their anchors (attr_list's `{#anchor}`).
"""

from __future__ import annotations

import html as html_module
import json
import re
from dataclasses import dataclass
from functools import cached_property

from markupsafe import Markup

from releasekb.common.markup import text_of, without_tags

# Characters Markdown's inline syntax reads (emphasis, code, links, attributes): in a heading
# they are character references, which Markdown keeps as the characters. Tags are left alone.
_MARKDOWN_SYNTAX = re.compile(r"[\\`*_{}\[\]](?![^<>]*>)")
# Any id on the page (an `id="` after a space: searched for without the space, the expression
# scans a page several times as fast): links to them are valid.
_ID = re.compile(r'id="([^"]*)"')


@dataclass(frozen=True)
class Heading:
    """A section heading as `heading` wrote it. text: HTML, with Markdown's syntax characters
    as character references; anchor: as its attribute writes it (escaped)."""

    level: int
    text: str
    anchor: str

    @classmethod
    def of(cls, level: int, escaped_text: str, escaped_anchor: str) -> Heading:
        return cls(level, _MARKDOWN_SYNTAX.sub(lambda m: f"&#{ord(m[0])};", escaped_text), escaped_anchor)

    @property
    def markdown_line(self) -> str:
        """`## text {#anchor}`: a line of its own in the body."""
        return f"{'#' * self.level} {self.text} {{#{self.anchor}}}"

    @property
    def html(self) -> str:
        """What Markdown's toc extension (with `permalink: true`) makes of the line."""
        level, anchor = self.level, self.anchor
        return (
            f'<h{level} id="{anchor}">{self.text}'
            f'<a class="headerlink" href="#{anchor}" title="Permanent link">&para;</a></h{level}>'
        )

    @property
    def toc_token(self) -> dict:
        """Its entry in the table of contents, as Python-Markdown's toc extension gives it."""
        return {
            "level": self.level,
            "id": html_module.unescape(self.anchor),
            "name": without_tags(self.text),
            "html": self.text,
            "data-toc-label": "",
            "children": [],
        }


@dataclass(frozen=True)
class RenderedPage:
    path: str  # inside the language tree: 'releases/1.7.md'
    body: str  # as the template wrote it, after its own front matter
    headings: tuple[Heading, ...]  # in the order of the body
    description: str
    searched: bool = True  # False: Material's `search: {exclude: true}`
    own_front_matter: str = ""  # the lines of the template's own front matter (`hide:`)
    own_meta: tuple[tuple[str, object], ...] = ()  # the same, read

    @property
    def title(self) -> str:
        """The text of the page's <h1> (`heading(1, ..., "_title")`), without markup."""
        first = next((heading for heading in self.headings if heading.level == 1), None)
        return text_of(first.text) if first else ""

    @cached_property
    def html(self) -> str:
        """The body with its headings as HTML (each heading's line, where `heading` wrote it),
        without the blank lines it starts with, as MkDocs reads a page."""
        parts, at = [], 0
        for heading in self.headings:
            line = heading.markdown_line
            found = self.body.find(line, at)
            if found < 0:
                raise ValueError(f"{self.path}: heading {line!r} is not in the page's text where it was written")
            parts += [self.body[at:found], heading.html]
            at = found + len(line)
        parts.append(self.body[at:])
        return "".join(parts).lstrip("\n")

    def toc_tokens(self) -> list[dict]:
        """The table of contents, nested as MkDocs' get_toc takes it."""
        from markdown.extensions.toc import nest_toc_tokens

        return nest_toc_tokens([heading.toc_token for heading in self.headings])

    def anchor_ids(self) -> frozenset[str]:
        """Every id on the page (headings, rows, cards): the anchors a link may name."""
        page = self.html
        found = _ID.finditer(page)
        return frozenset(html_module.unescape(match[1]) for match in found if page[match.start() - 1].isspace())

    def meta(self) -> dict:
        """The page's meta for the engine: its description (escaped for its attribute, as Markup,
        which a theme's `| e` leaves as it is), the search's exclusion, the template's own keys.
        Without the title: MkDocs prints page titles unescaped, so the engine takes the heading's
        (plugin.GeneratedPage.title)."""
        meta: dict = {}
        if self.description:
            meta["description"] = Markup.escape(self.description)
        if not self.searched:
            meta["search"] = {"exclude": True}
        meta.update(self.own_meta)
        return meta

    def markdown(self) -> str:
        """The standalone page: the title and description in front matter, where every engine
        reads them, and for a kind of page search leaves out Material's `search: {exclude: true}`."""
        fields = {"title": self.title, "description": self.description}
        lines = "".join(f"{key}: {json.dumps(value, ensure_ascii=False)}\n" for key, value in fields.items() if value)
        if not self.searched:
            lines += "search:\n  exclude: true\n"
        return "---\n" + lines + self.own_front_matter + "---\n" + self.body
