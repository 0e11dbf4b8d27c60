"""The text an HTML fragment shows, for the places that need a title or a line without its tags:
page titles in the front matter and the search index, and the bench's plain-Markdown copy."""

from __future__ import annotations

import html
import re

TAG = re.compile(r"<[^>]*>")


def without_tags(fragment: str, between: str = "") -> str:
    """The fragment with every tag replaced by `between`, character references kept."""
    return TAG.sub(between, fragment)


def text_of(fragment: str) -> str:
    """What the fragment reads as: no tags, character references decoded."""
    return html.unescape(without_tags(fragment))
