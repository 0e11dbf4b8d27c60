"""What a knowledge base's languages mean, and the interface strings of each (locales/<lang>.yaml, and a team's own
in its data folder: common/locales.py reads, merges and checks them).

A knowledge base names its languages in project.yaml (`languages: [en, ja, zh]`, in order):
the data model requires a text in each, the renderer writes one page tree per language. The
first language is the default and is served at the site root, the others under /<code>/.
Nothing here is a fixed list of languages: DEFAULT_LANGUAGES is only what a project.yaml
without the key means.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from babel import Locale, UnknownLocaleError

from releasekb.common import locales
from releasekb.common.formatting import format_number
from releasekb.common.locales import PACKAGE_LOCALES, Strings, load_catalogue, plural_text

# The languages of a project.yaml without `languages:` (every knowledge base before the key).
DEFAULT_LANGUAGES = ("en", "zh")
LOCALES_DIR = PACKAGE_LOCALES  # the catalogues the package ships


def has_interface_strings(lang: str, data_dir: Path | None = None) -> bool:
    """Whether `lang` is a language the site can speak: one whose interface strings exist (the
    package's, or the team's own in data_dir/locales/). The one test of a language code
    (project.yaml's `languages`, a host site's theme.language)."""
    return isinstance(lang, str) and lang in known_languages(data_dir)


@cache
def language_name(lang: str) -> str:
    """A language's name in English, for messages ('Chinese' for zh): from Babel's CLDR data,
    else the code itself."""
    try:
        return Locale.parse(lang.replace("-", "_")).get_language_name("en") or lang
    except (ValueError, UnknownLocaleError):
        return lang


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
    lang = strings.lang
    return plural_text(lang, strings[key], count).format(count=format_number(lang, count))


def url_prefix(lang: str, languages: tuple[str, ...]) -> str:
    """'' for the default language (the first of `languages`), '<lang>/' for the others: the URL
    contract."""
    return "" if lang == languages[0] else f"{lang}/"
