"""The site's languages and the interface strings of each (locales/<lang>.yaml, and a team's own
in its data folder: common/locales.py reads, merges and checks them).

LANGUAGES is the one list of languages: the data model requires a text in each, the
renderer writes one page tree per language, and a test checks mkdocs.yml agrees.
The first language is the default and is served at the site root.
"""

from __future__ import annotations

from pathlib import Path

from releasekb.common import locales
from releasekb.common.formatting import format_number
from releasekb.common.locales import PACKAGE_LOCALES, Strings, load_catalogue, plural_text

LANGUAGES = ("en", "zh")
DEFAULT_LANGUAGE = LANGUAGES[0]
LOCALES_DIR = PACKAGE_LOCALES  # the catalogues the package ships


def interface_strings(lang: str, data_dir: Path | None = None) -> Strings:
    """Interface strings for one language: the package's catalogue (locales/<lang>.yaml), with
    the team's own file of that language (data_dir/locales/<lang>.yaml) merged over it when the
    knowledge base's data folder is given (see locales.py). Raises DataError for a team file
    with a missing or unknown key, and for a language no catalogue has."""
    return load_catalogue(lang, data_dir)


def known_languages(data_dir: Path | None = None) -> tuple[str, ...]:
    """The languages that have interface strings, sorted: those the package ships (en, ja, zh) and,
    when the knowledge base's data folder is given, those of its locales/<lang>.yaml. A language
    the site is configured with must be one of them (interface_strings raises DataError for
    another, saying to write its file with `releasekb locale LANG`)."""
    return locales.known_languages(data_dir)


def count_text(strings: Strings, key: str, count: int) -> str:
    """A count in words ("1 addition", "2 additions", "2 项扩展"): the form of the text `key` the
    language's CLDR plural rules choose for the count, the count written as the language writes
    numbers."""
    lang = getattr(strings, "lang", DEFAULT_LANGUAGE)
    return plural_text(lang, strings[key], count).format(count=format_number(lang, count))


def url_prefix(lang: str) -> str:
    """'' for the default language, 'zh/' for the others: the URL contract."""
    return "" if lang == DEFAULT_LANGUAGE else f"{lang}/"
