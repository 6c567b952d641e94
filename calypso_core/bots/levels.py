"""The levels of play, from random to master, and ``make_bot`` to build a bot of one."""

from __future__ import annotations

import random
from typing import Any

from .base import Bot, ClubBot, NoviceBot, RandomBot
from .search import CheaterBot, ExpertBot, MasterBot

LEVELS = ("random", "novice", "club", "expert", "master")
# The cheater searches the true hidden cards: a yardstick for measurements, never offered.
ALL_LEVELS = (*LEVELS, "cheater")

_CLASSES: dict[str, type[Bot]] = {
    "random": RandomBot,
    "novice": NoviceBot,
    "club": ClubBot,
    "expert": ExpertBot,
    "master": MasterBot,
    "cheater": CheaterBot,
}


def make_bot(level: str, seat: int, rng: random.Random, **settings: Any) -> Bot:
    """A bot of the given level for a seat; unknown levels or settings raise ValueError."""
    cls = _CLASSES.get(level) if isinstance(level, str) else None
    if cls is None:
        raise ValueError(f"unknown bot level {level!r} (levels: {', '.join(ALL_LEVELS)})")
    return cls(seat, rng, **settings)
