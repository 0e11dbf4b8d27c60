"""Plurals, dates and numbers in each language's own form, from CLDR through Babel.

The interface strings (locales.py) hold words; how a language counts ("1 file", "2 files"; one
form in Chinese and Japanese, three in Russian), writes a date (October 27, 2020; 2020年10月27日)
or groups digits (12,345; 12 345) comes from the Unicode CLDR data Babel ships, so that a team
adding a language writes translations, not rules.
"""

from __future__ import annotations

import datetime
from functools import cache, lru_cache

from babel import Locale, UnknownLocaleError
from babel.dates import format_date, format_skeleton
from babel.numbers import format_decimal

from releasekb.common.dates import ReleaseDate, parse_date

# The plural categories CLDR names; a plural text in a catalogue is a mapping of some of them,
# `other` always among them (the form every language has).
PLURAL_CATEGORIES = ("zero", "one", "two", "few", "many", "other")


@cache
def babel_locale(lang: str) -> Locale:
    """The CLDR locale of a site language code ('en', 'zh', 'pt-BR'); ValueError when CLDR has
    no such language (the message says what would be right)."""
    try:
        return Locale.parse(lang, sep="-" if "-" in lang else "_")
    except (UnknownLocaleError, ValueError):
        raise ValueError(
            f"'{lang}' is not a language code CLDR knows (plurals, dates and numbers need one): "
            "use a code such as 'fr', 'ja' or 'pt-BR'"
        ) from None


def is_cldr_language(lang: str) -> bool:
    try:
        babel_locale(lang)
    except ValueError:
        return False
    return True


def plural_categories(lang: str) -> frozenset[str]:
    """The plural forms a language distinguishes: {'one', 'other'} in English, {'other'} in
    Chinese and Japanese."""
    return frozenset(babel_locale(lang).plural_form.tags) | {"other"}


def plural_category(lang: str, count: int) -> str:
    """The CLDR plural category of a count in a language: 'one' for 1 in English, 'other' for
    every count in Chinese."""
    return babel_locale(lang).plural_form(count)


@lru_cache(maxsize=4096)  # pages print the same few counts and dates thousands of times
def format_number(lang: str, number: int) -> str:
    """A count as the language writes it: 12,345 in English, 12 345 in French."""
    return format_decimal(number, locale=babel_locale(lang))


@lru_cache(maxsize=4096)
def format_release_date(lang: str, text: str) -> str:
    """A release date ('2020-10-27', or '2017-08' when only the month is known) in the language's
    long form: 'October 27, 2020', '2020年10月27日'; 'August 2017', '2017年8月'."""
    date: ReleaseDate = parse_date(text)
    locale = babel_locale(lang)
    if date.day is None:
        return format_skeleton("yMMMM", date.first_day, locale=locale)
    return format_date(datetime.date(date.year, date.month, date.day), "long", locale=locale)
