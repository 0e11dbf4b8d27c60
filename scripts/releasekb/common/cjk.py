"""Chinese text: the one definition of what counts as a Han character, and how wide text is
on a terminal or in a badge (East Asian wide characters take two columns)."""

from __future__ import annotations

import functools
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
# A Chinese or Japanese word as Pagefind's segmenter makes them: Han characters and kana letters.
_HAN_OR_KANA_LETTER = f"(?:{HAN.pattern}|{_KANA_LETTER.pattern})"


def han_or_kana_words(text: str, separators: str) -> set[str]:
    r"""The words of a text that are two or more Han characters or kana letters (ハート, 監視,
    送っ; not ハート・ビート, whose dot is punctuation), in a text whose words are separated by
    the characters of `separators` (a regular expression's character class, without its
    brackets): one pass of a regular expression, not one test per word (a long history's search
    index has millions).

    >>> sorted(han_or_kana_words("分布式 训练\u200bRPC框架 ハート・ビート ハートビート 送っ 式", r"\s\u200b"))
    ['ハートビート', '分布式', '训练', '送っ']
    """
    return set(_words_between(separators).findall(text))


@functools.cache
def _words_between(separators: str) -> re.Pattern:
    return re.compile(f"(?<![^{separators}]){_HAN_OR_KANA_LETTER}{{2,}}(?![^{separators}])")


def is_wide(character: str) -> bool:
    return unicodedata.east_asian_width(character) in "WF"


def display_width(text: str) -> int:
    """Columns a text takes on a terminal.

    >>> display_width("torch.fft"), display_width("分布式")
    (9, 6)
    """
    return sum(2 if is_wide(character) else 1 for character in text)
