"""Chinese text: the one definition of what counts as a Han character, and how wide text is
on a terminal or in a badge (East Asian wide characters take two columns)."""

from __future__ import annotations

import re
import unicodedata

# CJK Unified Ideographs, Extension A and the compatibility ideographs.
HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def has_han(text: str) -> bool:
    return HAN.search(text) is not None


def is_all_han(text: str) -> bool:
    """Whether every character is Han: a Chinese word, not a mixed term.

    >>> is_all_han("自动求导"), is_all_han("RPC 框架")
    (True, False)
    """
    return bool(text) and all(HAN.match(character) for character in text)


def is_wide(character: str) -> bool:
    return unicodedata.east_asian_width(character) in "WF"


def display_width(text: str) -> int:
    """Columns a text takes on a terminal.

    >>> display_width("torch.fft"), display_width("分布式")
    (9, 6)
    """
    return sum(2 if is_wide(character) else 1 for character in text)
