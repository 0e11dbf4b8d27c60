"""Chinese text: the one definition of what counts as a Han character, and how wide text is
on a terminal or in a badge (East Asian wide characters take two columns)."""

from __future__ import annotations

import re
import unicodedata

# CJK Unified Ideographs, Extension A and the compatibility ideographs.
HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


# Hiragana and katakana (Japanese), and Hangul syllables and jamo (Korean).
KANA = re.compile(r"[\u3040-\u30ff\u31f0-\u31ff]")
HANGUL = re.compile(r"[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]")
# Either: one pass over a text that has neither (an English page, searched in full by each).
_HAN_OR_KANA = re.compile(f"{HAN.pattern}|{KANA.pattern}")


def has_han(text: str) -> bool:
    return HAN.search(text) is not None


def has_han_or_kana(text: str) -> bool:
    """Whether a text holds Chinese or Japanese writing."""
    return _HAN_OR_KANA.search(text) is not None


def has_hangul(text: str) -> bool:
    return HANGUL.search(text) is not None


# The languages whose texts must hold their own script (a text left in another language is not a
# translation): language -> (the test, the script's name). Other languages have no such rule.
SCRIPT_RULES = {
    "zh": (has_han_or_kana, "Han"),
    "ja": (has_han_or_kana, "Han or kana"),
    "ko": (has_hangul, "Hangul"),
}


def is_all_han(text: str) -> bool:
    """Whether every character is Han: a Chinese word, not a mixed term.

    >>> is_all_han("自动求导"), is_all_han("RPC 框架")
    (True, False)
    """
    return bool(text) and all(HAN.match(character) for character in text)


# Kana that are letters of words: KANA without the middle dot ・ and the double hyphen ゠, which
# are punctuation (Pagefind drops them), and without the combining sound marks alone.
_KANA_LETTER = re.compile(r"[\u3041-\u3096\u309b-\u309f\u30a1-\u30fa\u30fc-\u30ff\u31f0-\u31ff]")
_HAN_OR_KANA_WORD = re.compile(f"(?:{HAN.pattern}|{_KANA_LETTER.pattern})+")  # one pass, not one per character


def is_all_han_or_kana(text: str) -> bool:
    """Whether every character is Han or a kana letter: a Chinese or Japanese word as Pagefind's
    segmenter makes them (ハート, 監視, 送っ).

    >>> is_all_han_or_kana("ハートビート"), is_all_han_or_kana("死活監視"), is_all_han_or_kana("ハート・ビート")
    (True, True, False)
    """
    return _HAN_OR_KANA_WORD.fullmatch(text) is not None


def is_wide(character: str) -> bool:
    return unicodedata.east_asian_width(character) in "WF"


def display_width(text: str) -> int:
    """Columns a text takes on a terminal.

    >>> display_width("torch.fft"), display_width("分布式")
    (9, 6)
    """
    return sum(2 if is_wide(character) else 1 for character in text)
