"""The levels of play, from random to master, and ``make_bot`` to build a bot of one."""

from __future__ import annotations

import random
from typing import Any

from .base import SEARCH_TIME_LIMITS, Bot, ClubBot, NoviceBot, RandomBot

LEVELS = ("random", "novice", "club", "expert", "master")
# The cheater searches the true hidden cards: a yardstick for measurements, never offered.
ALL_LEVELS = (*LEVELS, "cheater")

_SEARCH_LEVELS = ("expert", "master", "cheater")


def make_bot(level: str, seat: int, rng: random.Random, **settings: Any) -> Bot:
    """A bot of the given level for a seat; unknown levels or settings raise ValueError."""
    cls = _class(level) if isinstance(level, str) else None
    if cls is None:
        raise ValueError(f"unknown bot level {level!r} (levels: {', '.join(ALL_LEVELS)})")
    return cls(seat, rng, **settings)


def think_time(level: str) -> float | None:
    """The longest a move of ``level`` takes in seconds by default (a search level's clock
    cap; None for levels that answer at once); builds no bot."""
    return SEARCH_TIME_LIMITS["master" if level == "cheater" else level] if (
        level in _SEARCH_LEVELS) else None


def _class(level: str) -> type[Bot] | None:
    if level in _SEARCH_LEVELS:
        # The search loads at its first bot: a first deal at a lower level (the page's
        # default) uses none, and the page imports the engine from source on a first visit
        # (README, Start-up). A plain import, so the type checker follows it.
        from .search import CheaterBot, ExpertBot, MasterBot

        return {"expert": ExpertBot, "master": MasterBot, "cheater": CheaterBot}[level]
    return {"random": RandomBot, "novice": NoviceBot, "club": ClubBot}.get(level)
