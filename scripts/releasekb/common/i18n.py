"""The interface strings of each language (locales/<lang>.yaml), and what a knowledge base's
languages mean.

A knowledge base names its languages in project.yaml (`languages: [en, ja, zh]`, in order):
the data model requires a text in each, the renderer writes one page tree per language. The
first language is the default and is served at the site root, the others under /<code>/.
Nothing here is a fixed list of languages: DEFAULT_LANGUAGES is only what a project.yaml
without the key means.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import yaml
from babel import Locale, UnknownLocaleError

# The languages of a project.yaml without `languages:` (every knowledge base before the key).
DEFAULT_LANGUAGES = ("en", "zh")
LOCALES_DIR = Path(__file__).parent / "locales"


def has_interface_strings(lang: str) -> bool:
    """Whether `lang` is a language the site can speak: one whose interface strings exist. The
    one test of a language code (project.yaml's `languages`, a host site's theme.language)."""
    return (
        isinstance(lang, str)
        and lang.isascii()
        and lang.replace("-", "").isalnum()
        and (LOCALES_DIR / f"{lang}.yaml").is_file()
    )


@cache
def language_name(lang: str) -> str:
    """A language's name in English, for messages ('Chinese' for zh): from Babel's CLDR data,
    else the code itself."""
    try:
        return Locale.parse(lang.replace("-", "_")).get_language_name("en") or lang
    except (ValueError, UnknownLocaleError):
        return lang


def known_languages() -> list[str]:
    """Every language with interface strings, for a message listing them."""
    return sorted(path.stem for path in LOCALES_DIR.glob("*.yaml"))


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


def url_prefix(lang: str, languages: tuple[str, ...]) -> str:
    """'' for the default language (the first of `languages`), '<lang>/' for the others: the URL
    contract."""
    return "" if lang == languages[0] else f"{lang}/"
