"""Calypso, the four-trump partnership card game: rules engine and computer players.

The names below are imported when first used, not when the package is: ``python -m
calypso_core`` then handles Ctrl+C before anything slow is imported (see ``__main__``).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing takes longer to import than the rest of the way to main()
if TYPE_CHECKING:
    from typing import Any

    from .cards import (
        EAST,
        NORTH,
        SEAT_NAMES,
        SOUTH,
        WEST,
        Card,
        CardParseError,
        Rank,
        Suit,
        parse_cards,
        seat_name,
    )
    from .game import GameState, IllegalMoveError, Trick, new_game
    from .record import RecordError, from_record, parse_record, to_record
    from .rules import Rules, trick_winner

__version__ = "0.1.0"

# Each public name, and the module that defines it.
_HOMES = {
    "cards": ("EAST", "NORTH", "SEAT_NAMES", "SOUTH", "WEST", "Card", "CardParseError", "Rank",
              "Suit", "parse_cards", "seat_name"),
    "game": ("GameState", "IllegalMoveError", "Trick", "new_game"),
    "record": ("RecordError", "from_record", "parse_record", "to_record"),
    "rules": ("Rules", "trick_winner"),
}
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}


def __getattr__(name: str) -> Any:
    if name not in _HOME_OF:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from . import cards, game, record, rules

    home = {"cards": cards, "game": game, "record": record, "rules": rules}[_HOME_OF[name]]
    value = getattr(home, name)
    globals()[name] = value  # once: later uses are plain lookups
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


__all__ = [
    "EAST",
    "NORTH",
    "SEAT_NAMES",
    "SOUTH",
    "WEST",
    "Card",
    "CardParseError",
    "GameState",
    "IllegalMoveError",
    "Rank",
    "RecordError",
    "Rules",
    "Suit",
    "Trick",
    "__version__",
    "from_record",
    "new_game",
    "parse_cards",
    "parse_record",
    "seat_name",
    "to_record",
    "trick_winner",
]
