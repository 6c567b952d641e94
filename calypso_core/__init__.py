"""Calypso, the four-trump partnership card game: rules engine and computer players."""

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
