"""Computer players: one small contract shared by every level, from random to master.

``make_bot(level, seat, rng, **settings)`` builds a bot; ``bot.choose(observation, legal)``
returns its card, seeing only ``observation(seat)`` (``choose_steps`` the same in slices,
run to its end by ``finish``). ``suggest`` gives a hint with a
reason, ``play_game`` plays a whole game with four bots, ``run_match`` a duplicate match.
``Knowledge`` is a seat's card counting from its observation (the table's memory aids).
``review_position`` and ``seat_plays`` review a seat's cards in points lost
(docs/review.md), one card at a time.
"""

from .base import MAX_SEARCH_ITERATIONS, Bot, finish, play_game
from .duplicate import MatchResult, run_match
from .hints import Suggestion, suggest
from .knowledge import Knowledge
from .levels import ALL_LEVELS, LEVELS, make_bot
from .review import (
    GRADES,
    MAX_REVIEW_ITERATIONS,
    REVIEW_ITERATIONS,
    CardReview,
    CardReviewer,
    GameReview,
    review_position,
    seat_plays,
)

__all__ = [
    "ALL_LEVELS",
    "GRADES",
    "LEVELS",
    "MAX_REVIEW_ITERATIONS",
    "MAX_SEARCH_ITERATIONS",
    "REVIEW_ITERATIONS",
    "Bot",
    "CardReview",
    "CardReviewer",
    "GameReview",
    "Knowledge",
    "MatchResult",
    "Suggestion",
    "finish",
    "make_bot",
    "play_game",
    "review_position",
    "run_match",
    "seat_plays",
    "suggest",
]
