"""The Calypso of the day: one deal for each date, the same for everyone, everywhere.

The match of a date is one game of the standard rules against three master players, seeded
``daily:YYYY-MM-DD`` (``calypso_core.days``: the seed, which day is today, and the rule that no
day's deal is dealt before that day), the person's suit left to the seed. Anyone with the same
date gets the same cards and the same computer players, offline: the masters play without the
clock (``Settings.clock``), so where two people play alike their opponents do too, on any
device, and a day's game is a challenge among friends (table.challenge). A save from before
that, with the clock, still loads as the day's.
"""

from __future__ import annotations

import dataclasses
import datetime

from ..days import daily_seed, seed_date
from .settings import HUMAN, Settings

DAILY_LEVELS = ("master", "master", HUMAN, "master")


def daily_date(settings: Settings) -> str | None:
    """The date (``YYYY-MM-DD``) whose deal a match is, or None for any other match."""
    day = seed_date(settings.seed)
    if day is None:
        return None
    plain = dataclasses.replace(settings, straight=False, clock=False)
    return day.isoformat() if plain == daily_settings(day) else None


def daily_settings(date: datetime.date | str, *, straight: bool = False) -> Settings:
    """The match settings of a date's deal: its seed, standard rules, masters all round and
    no clock; ``straight`` for the kept attempt (no hints, no undo)."""
    return Settings.from_request({"seed": daily_seed(date), "levels": list(DAILY_LEVELS),
                                  "games": 1, "straight": straight, "clock": False})
