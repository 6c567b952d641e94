"""The requests that need no game: ``hello``, the engine's facts the page starts from,
``check_settings`` and ``check_name``, what the page keeps or is typed judged as a new game
would judge it, and ``examples``, the worked trick-winner examples of the rules."""

from __future__ import annotations

from typing import Any

from .. import __version__
from ..bots import GRADES, REVIEW_ITERATIONS
from ..cards import RANK_LETTERS, SEAT_NAMES, SUIT_LETTERS, SUIT_SYMBOLS, brief_repr
from ..kernel import CARD_POINTS, DEALS, LADDER, PILE_POINTS, TRICKS_PER_DEAL
from ..messages import message
from ..naming import MAX_NAME_CHARS, collapsed, name_problem
from ..record import MAX_RECORD_BYTES
from ..rules import Rules, trick_winner
from ..trick_reasons import trick_reason
from . import words
from .errors import ProtocolError
from .players import default_level, level_facts
from .settings import DEFAULT_PEOPLE, MAX_GAMES, check_kept

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


def check_settings(data: dict[str, Any]) -> dict[str, Any]:
    """The settings a page kept for new games, judged as ``new_game`` would judge them: each
    refused one at its default, with the refusals' words (the page keeps no limits of its
    own)."""
    kept, refused = check_kept(data.get("settings"))
    return {"settings": kept, "refused": [{"key": key, "text": error.text}
                                          for key, error in refused]}


def check_name(data: dict[str, Any]) -> dict[str, Any]:
    """A name a person typed (a guest's, before the host gives it a seat), judged by the one
    rule for names (table.naming) and against the names already ``taken`` at the table: the
    name as the table keeps it, or a refusal (``bad_name``) whose words say what to change."""
    taken = data.get("taken")
    if taken is None:
        taken = []
    if not isinstance(taken, list) or not all(isinstance(t, str) for t in taken):
        raise ProtocolError("bad_request",
                            f"taken must be a list of names, not {brief_repr(taken)}")
    kept = typed_name(data.get("name"))
    if kept.casefold() in {collapsed(t).casefold() for t in taken}:
        raise ProtocolError("bad_name", f"the name {brief_repr(kept)} is refused: "
                            "error.same_name",
                            message("error.same_name", name=kept))
    return {"name": kept}


def typed_name(name: Any, *, empty: bool = False) -> str:
    """A name a person typed, as the table keeps it (spaces collapsed), judged by the one rule
    for names (naming.py): refused ``bad_name`` with words that say what to change, an empty
    one too unless ``empty`` (then the seat's name stands for it)."""
    if not isinstance(name, str) or len(name) > _MAX_TYPED:
        raise ProtocolError("bad_request", f"name must be a text of at most {_MAX_TYPED} "
                            f"characters, not {brief_repr(name)}")
    kept = collapsed(name)
    problem = name_problem(kept) if kept or empty else message("error.name_empty")
    if problem is not None:
        raise ProtocolError("bad_name", f"the name {brief_repr(kept)} is refused: "
                            f"{problem['id']}", problem)
    return kept


# The longest text check_name reads: room for a name of MAX_NAME_CHARS among spaces to collapse.
_MAX_TYPED = 8 * MAX_NAME_CHARS


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

