"""The Calypso of the day: one deal for each UTC date, the same for everyone, everywhere.

The match seed of a date is ``daily:YYYY-MM-DD`` (the date in ISO form, UTC); the match is
one game of the standard rules against three master players, the person's suit left to the
seed. Anyone with the same date gets the same cards and the same computer players, offline.
"""

from __future__ import annotations

import datetime
import re
from typing import Any

from .settings import HUMAN, Settings

DAILY_LEVELS = ("master", "master", HUMAN, "master")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def parse_date(text: Any) -> datetime.date:
    """A date written ``YYYY-MM-DD`` (as in ``?daily=2025-01-31``); anything else raises."""
    if not isinstance(text, str) or not _DATE.fullmatch(text):
        raise ValueError(f"{str(text)[:40]!r} is not a date written YYYY-MM-DD")
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a day of the calendar") from None


def today(now: datetime.datetime | None = None) -> datetime.date:
    """The UTC date now (or at ``now``, which must say its time zone)."""
    if now is None:
        now = datetime.datetime.now(datetime.UTC)
    if now.tzinfo is None:
        raise ValueError("a moment without a time zone has no UTC date")
    return now.astimezone(datetime.UTC).date()


def daily_seed(date: datetime.date | str) -> str:
    """The match seed of a date's deal: ``daily:YYYY-MM-DD``."""
    if isinstance(date, datetime.datetime):
        raise ValueError("a daily deal is for a date, not a moment: today(moment) gives its date")
    day = parse_date(date) if isinstance(date, str) else date
    return f"daily:{day.isoformat()}"


def daily_date(settings: Settings) -> str | None:
    """The date (``YYYY-MM-DD``) whose deal a match is, or None for any other match."""
    seed = settings.seed
    if not seed.startswith("daily:"):
        return None
    try:
        day = parse_date(seed.removeprefix("daily:"))
    except ValueError:
        return None
    return day.isoformat() if settings == daily_settings(day) else None


def daily_settings(date: datetime.date | str) -> Settings:
    """The match settings of a date's deal: its seed, standard rules, masters all round."""
    return Settings.from_request(
        {"seed": daily_seed(date), "levels": list(DAILY_LEVELS), "games": 1}
    )
