"""The site's languages and the interface strings of each (locales/<lang>.yaml).

LANGUAGES is the one list of languages: the data model requires a text in each, the
renderer writes one page tree per language, and a test checks mkdocs.yml agrees.
The first language is the default and is served at the site root.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import yaml

LANGUAGES = ("en", "zh")
DEFAULT_LANGUAGE = LANGUAGES[0]
LOCALES_DIR = Path(__file__).parent / "locales"


@cache
def interface_strings(lang: str) -> dict[str, str]:
    """Interface strings for one language; every language must define the same keys."""
    with open(LOCALES_DIR / f"{lang}.yaml", encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def count_text(strings: dict[str, str], key: str, count: int) -> str:
    """A count in words: the string `key` ("{count} additions"), or `key_one` for one
    ("1 addition") when the language has it."""
    if count == 1 and f"{key}_one" in strings:
        return strings[f"{key}_one"]
    return strings[key].format(count=count)


def url_prefix(lang: str) -> str:
    """'' for the default language, 'zh/' for the others: the URL contract."""
    return "" if lang == DEFAULT_LANGUAGE else f"{lang}/"
