"""The deal of each date, and the rule that no day's cards are dealt before that day.

The match seed of a date is ``daily:YYYY-MM-DD`` (the date in ISO form): the Calypso of that
day (``table.daily`` gives its match settings). **Which day is today** is the person's local
date (docs/review.md#which-day-is-today): the engine takes a claimed date when some time zone
(UTC-12 to UTC+14) has it at the engine's clock; with no date claimed, today is the UTC date.

**No day before its date.** Every entry that deals from a seed asks ``check_seed`` first, and
every entry that reads a game someone else made (a file, a save, a record in a request) asks
``check_hands``: a game any of whose hands, in any deal and at any seat, is a hand of the deal
of a day not yet come is refused, so swapping undealt cards between hands or reordering the
deck does not get around it. Both raise ``NotDealtYet``. This module is the engine's: the
command line asks it without importing the table.
"""

from __future__ import annotations

import datetime
import functools
import re
from collections.abc import Iterator, Sequence
from typing import Any

from .game import new_game
from .kernel import DECK_SIZE

_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
# The time zones in use run from UTC-12:00 to UTC+14:00: a date is somebody's today from
# 14 hours before its UTC midnight to 12 hours after its UTC end.
WESTMOST = datetime.timedelta(hours=-12)
EASTMOST = datetime.timedelta(hours=14)
# A game is checked against the hands of the days this far ahead: a day further ahead cannot
# have been dealt (its seed is refused, and only its deal holds its cards).
DAYS_AHEAD_CHECKED = 366
_DEAL = 52  # cards a deal takes from the deck: 13 to each seat, one at a time
# The most dates a request may name (the kept attempts unfinished at a device: import).
MAX_DATES_NAMED = 31


class NotDealtYet(ValueError):
    """A day's deal, or a hand of it, asked for before that day (``day``); ``in_hand`` says
    it came as a hand of a game rather than as the day's seed or date."""

    def __init__(self, day: datetime.date, now: datetime.date, *, in_hand: bool = False) -> None:
        what = (f"these cards hold a hand of the Calypso of {day}, which is" if in_hand
                else f"the Calypso of {day} is")
        super().__init__(f"{what} not dealt yet: today is {now}")
        self.day = day
        self.in_hand = in_hand


def parse_date(text: Any) -> datetime.date:
    """A date written ``YYYY-MM-DD`` (as in ``?daily=2025-01-31``); anything else raises."""
    if not isinstance(text, str) or not _DATE.fullmatch(text):
        raise ValueError(f"{str(text)[:40]!r} is not a date written YYYY-MM-DD")
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a day of the calendar") from None


def daily_seed(date: datetime.date | str) -> str:
    """The match seed of a date's deal: ``daily:YYYY-MM-DD``."""
    if isinstance(date, datetime.datetime):
        raise ValueError("a daily deal is for a date, not a moment: today(moment) gives its date")
    day = parse_date(date) if isinstance(date, str) else date
    return f"daily:{day.isoformat()}"


def seed_date(seed: str) -> datetime.date | None:
    """The date whose deal a match seed deals (``daily:YYYY-MM-DD``), or None."""
    if not seed.startswith("daily:"):
        return None
    try:
        return parse_date(seed.removeprefix("daily:"))
    except ValueError:
        return None


# -- which day is today -----------------------------------------------------------------------


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


def machine_today() -> datetime.date:
    """Which day is today at this machine (the command line's): the date in its time zone,
    checked as a date the page would claim."""
    return local_today(_clock().astimezone().date().isoformat())


def _clock() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


def _utc(now: datetime.datetime | None) -> datetime.datetime:
    if now is None:
        return _clock()
    if now.tzinfo is None:
        raise ValueError("a moment without a time zone has no UTC date")
    return now.astimezone(datetime.UTC)


# -- no day before its date -------------------------------------------------------------------


def check_dealt(day: datetime.date, now: datetime.date) -> None:
    """Refuse a day's deal before that day (``now`` being today)."""
    if day > now:
        raise NotDealtYet(day, now)


def check_seed(seed: str, now: datetime.date) -> None:
    """Refuse a seed that deals a day after ``now``: ``daily:YYYY-MM-DD`` of a later date.
    Every entry that deals from a seed (a link, a challenge, the command line) asks this."""
    day = seed_date(seed)
    if day is not None:
        check_dealt(day, now)


def check_hands(deck: Sequence[Any], now: datetime.date) -> None:
    """Refuse a deck order (a game's ``deck``, 208 cards) that deals any seat, in any of its
    deals, the 13 cards of a hand of the deal of a later day (up to ``DAYS_AHEAD_CHECKED``
    days after ``now``), whichever seat and deal of the day's that hand was."""
    day = later_day_of(deck, now)
    if day is not None:
        raise NotDealtYet(day, now, in_hand=True)


def later_day_of(deck: Sequence[Any], now: datetime.date) -> datetime.date | None:
    """The later day (within ``DAYS_AHEAD_CHECKED`` of ``now``) one of whose hands this deck
    order deals, or None."""
    ahead = _hands_ahead(now)
    for hand in _hands(deck):
        day = ahead.get(hand)
        if day is not None:
            return day
    return None


def day_of_hands(deck: Sequence[Any], dates: Any, now: datetime.date) -> datetime.date | None:
    """Which of ``dates`` (``YYYY-MM-DD``, at most ``MAX_DATES_NAMED``; none after ``now``)
    has a deal one of whose hands this deck order deals too, or None; anything else than such
    a list raises ``ValueError``."""
    if not isinstance(dates, list) or len(dates) > MAX_DATES_NAMED:
        raise ValueError(f"dates must be a list of at most {MAX_DATES_NAMED} dates")
    days = sorted(day for day in {parse_date(text) for text in dates} if day <= now)
    theirs = {hand: day for day in reversed(days)  # the earliest day wins a hand two share
              for hand in _hands(new_game(daily_seed(day)).deck)}
    return next((theirs[hand] for hand in _hands(deck) if hand in theirs), None)


def _hands(deck: Sequence[Any]) -> Iterator[bytes]:
    """Each hand a deck order deals, as its card codes in order: every fourth card of a deal's
    52 goes to one seat (which seat depends on the dealer; a hand is a hand wherever it sits).
    Cards are ints 0-51, so a hand fits in 13 bytes."""
    for start in range(0, DECK_SIZE, _DEAL):
        for seat in range(4):
            yield bytes(sorted(deck[start + seat : start + _DEAL : 4]))


@functools.lru_cache(maxsize=2)
def _hands_ahead(now: datetime.date) -> dict[bytes, datetime.date]:
    # Once a day, the 16 hands of every coming day's deal (about 0.1 s in CPython: dealing
    # 366 decks is most of it). The nearest day wins should two days share a hand.
    ahead: dict[bytes, datetime.date] = {}
    for n in range(DAYS_AHEAD_CHECKED, 0, -1):
        day = now + datetime.timedelta(days=n)
        for hand in _hands(new_game(daily_seed(day)).deck):
            ahead[hand] = day
    return ahead
