"""The Calypso of the day: one deal for each date, the same for everyone, everywhere.

The match seed of a date is ``daily:YYYY-MM-DD`` (the date in ISO form); the match is one
game of the standard rules against three master players, the person's suit left to the
seed. Anyone with the same date gets the same cards and the same computer players, offline.

**Which day is today** is the person's local date (docs/review.md#which-day-is-today): the
page sends it, and the engine takes it when some time zone (UTC-12 to UTC+14) has that date
at the engine's clock; with no date sent, today is the UTC date. No day's deal is dealt
before that day: not by ``daily``, nor by its seed, nor from a file holding its cards.
"""

from __future__ import annotations

import dataclasses
import datetime
import functools
import re
from typing import Any

from ..game import new_game
from .settings import HUMAN, Settings

DAILY_LEVELS = ("master", "master", HUMAN, "master")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
# The time zones in use run from UTC-12:00 to UTC+14:00: a date is somebody's today from
# 14 hours before its UTC midnight to 12 hours after its UTC end.
WESTMOST = datetime.timedelta(hours=-12)
EASTMOST = datetime.timedelta(hours=14)
# A file is checked against the deals of the days this far ahead (a day further ahead
# cannot have been dealt: its seed is refused, and only its deal holds its cards).
DAYS_AHEAD_CHECKED = 366
# The most dates a request may name (the kept attempts unfinished at a device).
MAX_DATES_NAMED = 31


class NotDealtYet(ValueError):
    """A day's deal was asked for before that day."""


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
    return _utc(now).date()


def local_today(claimed: Any = None, now: datetime.datetime | None = None) -> datetime.date:
    """Which day is today: the person's local date ``claimed`` (``YYYY-MM-DD``, as the page
    sends it) when some time zone has that date now (or at ``now``); the UTC date when none
    is claimed. A date no time zone has raises ``ValueError``."""
    moment = _utc(now)
    if claimed is None:
        return moment.date()
    day = parse_date(claimed)
    first, last = (moment + WESTMOST).date(), (moment + EASTMOST).date()
    if not first <= day <= last:
        raise ValueError(f"today cannot be {day}: at {moment:%Y-%m-%d %H:%M} UTC the dates "
                         f"of the time zones run from {first} to {last}")
    return day


def _clock() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


def _utc(now: datetime.datetime | None) -> datetime.datetime:
    if now is None:
        return _clock()
    if now.tzinfo is None:
        raise ValueError("a moment without a time zone has no UTC date")
    return now.astimezone(datetime.UTC)


def seed_date(seed: str) -> datetime.date | None:
    """The date whose deal a match seed deals (``daily:YYYY-MM-DD``), or None."""
    if not seed.startswith("daily:"):
        return None
    try:
        return parse_date(seed.removeprefix("daily:"))
    except ValueError:
        return None


def check_dealt(day: datetime.date, now: datetime.date) -> None:
    """Refuse a day's deal before that day (``now`` being today)."""
    if day > now:
        raise NotDealtYet(f"the Calypso of {day} is not dealt yet: today is {now}")


def future_deal(deck: Any, now: datetime.date) -> datetime.date | None:
    """The later day (within ``DAYS_AHEAD_CHECKED`` of ``now``) whose deal has this deck
    order, or None."""
    return _decks_ahead(now).get(tuple(deck))


@functools.lru_cache(maxsize=2)
def _decks_ahead(now: datetime.date) -> dict[tuple[Any, ...], datetime.date]:
    # About 0.07 s in CPython, once a day: the deck of every coming day's deal.
    days = (now + datetime.timedelta(days=n) for n in range(1, DAYS_AHEAD_CHECKED + 1))
    return {tuple(new_game(daily_seed(day)).deck): day for day in days}


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
    plain = dataclasses.replace(settings, straight=False)
    return day.isoformat() if plain == daily_settings(day) else None


def daily_settings(date: datetime.date | str, *, straight: bool = False) -> Settings:
    """The match settings of a date's deal: its seed, standard rules, masters all round;
    ``straight`` for the kept attempt (no hints, no undo)."""
    return Settings.from_request(
        {"seed": daily_seed(date), "levels": list(DAILY_LEVELS), "games": 1, "straight": straight}
    )


def deal_of(deck: Any, dates: Any, now: datetime.date) -> datetime.date | None:
    """Which of ``dates`` (``YYYY-MM-DD``, at most ``MAX_DATES_NAMED``; none after ``now``)
    has this deck order as its deal, or None; anything else than such a list raises
    ``ValueError``."""
    if not isinstance(dates, list) or len(dates) > MAX_DATES_NAMED:
        raise ValueError(f"dates must be a list of at most {MAX_DATES_NAMED} dates")
    days = {parse_date(text) for text in dates}
    deck = tuple(deck)
    return next((day for day in sorted(days) if day <= now
                 and tuple(new_game(daily_seed(day)).deck) == deck), None)
