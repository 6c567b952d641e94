"""The requests that need no game: ``hello``, the engine's facts the page starts from, and
``examples``, the worked trick-winner examples of the rules."""

from __future__ import annotations

from typing import Any

from .. import __version__
from ..bots import GRADES, REVIEW_ITERATIONS
from ..cards import RANK_LETTERS, SEAT_NAMES, SUIT_LETTERS, SUIT_SYMBOLS
from ..kernel import CARD_POINTS, DEALS, LADDER, PILE_POINTS, TRICKS_PER_DEAL
from ..record import MAX_RECORD_BYTES
from ..rules import Rules, trick_winner
from ..trick_reasons import trick_reason
from . import words
from .players import default_level, level_facts
from .settings import DEFAULT_PEOPLE, MAX_GAMES, MAX_NAME_CHARS

PROTOCOL_VERSION = 3
# docs/rules.md#worked-examples: N(♠) E(♣) S(♥) W(♦), North leads.
EXAMPLE_SUITS = ("S", "C", "H", "D")
EXAMPLES = (
    ("6S", "5S", "TS", "KS"),
    ("6S", "3C", "TS", "KS"),
    ("6S", "3C", "4H", "KS"),
    ("6S", "5C", "5H", "QS"),
    ("9H", "2H", "AH", "KH"),
    ("9H", "2C", "AH", "3D"),
    ("QC", "QC", "5C", "8C"),
    ("5C", "7C", "AD", "4C"),
)


def hello(data: dict[str, Any]) -> dict[str, Any]:
    """The engine's facts the page needs: versions, seats, levels, rule options, the shape
    of a game, the cards, the scoring values and the size of a game file. Every word comes
    as a message: the page renders it from its catalogs."""
    defaults = Rules().to_dict()
    return {
        "engine": __version__,
        "protocol": PROTOCOL_VERSION,
        "seats": [{"key": name.lower()} for name in SEAT_NAMES],
        "people": {"max": len(SEAT_NAMES), "default": [p["seat"] for p in DEFAULT_PEOPLE],
                   "name_chars": MAX_NAME_CHARS},
        "levels": level_facts(),
        "default_level": default_level(),
        "options": [
            {"key": key, "label": words.option_label(key), "help": words.option_help(key),
             "default": defaults[key]}
            for key in words.OPTIONS
        ],
        "games": {"min": 1, "max": MAX_GAMES, "default": 1},
        "deals": {"count": DEALS, "tricks": TRICKS_PER_DEAL},
        "cards": {
            "ranks": [{"key": RANK_LETTERS[r]} for r in range(12, -1, -1)],
            "suits": [{"key": SUIT_LETTERS[s], "symbol": SUIT_SYMBOLS[s],
                       "color": "red" if s in (1, 2) else "black"} for s in range(4)],
        },
        "scoring": {
            "calypsos": [LADDER[n + 1] - LADDER[n] for n in range(len(LADDER) - 1)],
            "calypso_card": CARD_POINTS,
            "pile_card": PILE_POINTS,
        },
        "limits": {"file_bytes": MAX_RECORD_BYTES},
        "review": _review_facts(),
    }


def _review_facts() -> dict[str, Any]:
    """The review's budget a card and its grades, mildest first."""
    return {
        "budget": REVIEW_ITERATIONS,
        "grades": [{"key": name, "label": words.grade_label(name), "cost": cost}
                   for name, cost in reversed(GRADES)],
    }


def examples(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The worked trick-winner examples of the rules: cards, suits, winner and reason."""
    return [
        {
            "cards": list(cards),
            "trumps": list(EXAMPLE_SUITS),
            "winner": trick_winner(list(cards), list(EXAMPLE_SUITS)),
            "reason": trick_reason(list(cards), list(EXAMPLE_SUITS)),
        }
        for cards in EXAMPLES
    ]

