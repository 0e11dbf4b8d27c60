"""Release dates: the one reading of 'YYYY-MM-DD', or 'YYYY-MM' when only the month is known."""

from __future__ import annotations

import datetime
from typing import NamedTuple


class ReleaseDate(NamedTuple):
    year: int
    month: int
    day: int | None  # None when the source gives only the month

    @property
    def first_day(self) -> datetime.date:
        """The date itself, or the first of its month when only the month is known."""
        return datetime.date(self.year, self.month, self.day or 1)


def parse_date(text: str) -> ReleaseDate:
    """'2020-10-27' or '2017-08' (the pattern is checked by the model); raises ValueError for a
    date that does not exist.

    >>> parse_date("2017-08")
    ReleaseDate(year=2017, month=8, day=None)
    >>> parse_date("2021-02-30")
    Traceback (most recent call last):
    ValueError: day is out of range for month
    """
    parts = [int(part) for part in text.split("-")]
    date = ReleaseDate(parts[0], parts[1], parts[2] if len(parts) == 3 else None)
    date.first_day  # noqa: B018 - raises ValueError when the day does not exist
    return date


def utc_datetime(text: str) -> datetime.datetime:
    """A release date as a moment, for feeds: midnight UTC of its (first) day."""
    return datetime.datetime.combine(parse_date(text).first_day, datetime.time(), tzinfo=datetime.UTC)
