"""The vocabulary: suits, ranks, cards and seats.

A card is an ``int`` 0-51, ``suit * 13 + rank`` with rank 0 for the two and 12 for the ace,
so the fast core can use plain integers while the public API hands out ``Card`` values
(an ``int`` subclass, one cached instance per card).
"""

from __future__ import annotations

import reprlib
from enum import IntEnum
from typing import Any, Final


class Suit(IntEnum):
    """A suit. Partners own the two suits of one pair: ``suit ^ 1`` is the pair-mate."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        """The one-letter form: S, H, D or C."""
        return SUIT_LETTERS[self]

    @property
    def symbol(self) -> str:
        """The suit symbol, for people: ♠ ♥ ♦ ♣."""
        return SUIT_SYMBOLS[self]

    @property
    def mate(self) -> Suit:
        """The other suit of this suit's pair (spades-hearts, diamonds-clubs)."""
        return Suit(self ^ 1)

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Build a suit from its letter S H D C (either case) or its symbol ♠ ♥ ♦ ♣."""
        code = _SUIT_BY_TEXT.get(text.strip(_SPACES)) if isinstance(text, str) else None
        if code is None:
            raise CardParseError(f"{brief_repr(text)} is not a suit (expected one of S, H, D, C)")
        return cls(code)

    def __str__(self) -> str:
        return SUIT_LETTERS[self]


class Rank(IntEnum):
    """A rank, ordered so that a higher value beats a lower one."""

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def letter(self) -> str:
        """The one-character form: 2-9, T, J, Q, K, A."""
        return RANK_LETTERS[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Build a rank from ``A K Q J T 10 9 ... 2`` (either case)."""
        code = _RANK_BY_TEXT.get(text.strip(_SPACES)) if isinstance(text, str) else None
        if code is None:
            raise CardParseError(
                f"{brief_repr(text)} is not a rank (expected A K Q J T 10 9 8 7 6 5 4 3 2)"
            )
        return cls(code)

    def __str__(self) -> str:
        return RANK_LETTERS[self]


class CardParseError(ValueError):
    """Text that does not name a card, suit or rank."""


SUIT_LETTERS: Final = "SHDC"
SUIT_SYMBOLS: Final = "♠♥♦♣"
SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs")
RANK_LETTERS: Final = "23456789TJQKA"
# Every accepted spelling, exactly: ASCII letters in either case, "10", the suit symbols.
# (No Unicode case mapping: "\u017f".upper(), the long s, is "S", and it is not a spade.)
_SUIT_BY_TEXT: Final = {
    text: suit
    for suit in range(4)
    for text in (SUIT_LETTERS[suit], SUIT_LETTERS[suit].lower(), SUIT_SYMBOLS[suit])
}
_RANK_BY_TEXT: Final = {
    **{letter: rank for rank, letter in enumerate(RANK_LETTERS)},
    **{letter.lower(): rank for rank, letter in enumerate(RANK_LETTERS)},
    "10": 8,
}
_SPACES: Final = " \t\n\r\f\v"  # ASCII white space, allowed around a card, rank or suit
RANK_NAMES: Final = (
    "Two", "Three", "Four", "Five", "Six", "Seven", "Eight",
    "Nine", "Ten", "Jack", "Queen", "King", "Ace",
)  # fmt: skip


class Card(int):
    """One of the 52 distinct cards (each exists in four identical copies in the deck)."""

    __slots__ = ()

    def __new__(cls, code: int) -> Card:
        # Only a plain int (or a Card): a bool, a Suit or a Rank is not a card code.
        if type(code) is cls:
            return code
        if type(code) is not int or not 0 <= code < 52:
            raise CardParseError(f"{brief_repr(code)} is not a card code (0-51)")
        return CARDS[code]

    @classmethod
    def of(cls, rank: Rank | int, suit: Suit | int) -> Card:
        """The card of this rank and suit."""
        if type(rank) not in (Rank, int) or not 0 <= rank < 13:
            raise CardParseError(f"{brief_repr(rank)} is not a rank (Rank or 0-12)")
        if type(suit) not in (Suit, int) or not 0 <= suit < 4:
            raise CardParseError(f"{brief_repr(suit)} is not a suit (Suit or 0-3)")
        return CARDS[suit * 13 + rank]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Build a card from a rank then a suit: ``"TD"``, ``"10d"``, ``"as"``, ``"Q♥"``."""
        if not isinstance(text, str):
            raise CardParseError(f"{brief_repr(text)} is not a card (expected text such as 'TD')")
        key = text.strip(_SPACES)
        rank = _RANK_BY_TEXT.get(key[:-1])
        suit = _SUIT_BY_TEXT.get(key[-1:])
        if rank is None or suit is None:
            raise CardParseError(
                f"{brief_repr(text)} is not a card (expected a rank A K Q J T 10 9 ... 2 "
                "then a suit S H D C, such as 'TD')"
            )
        return CARDS[suit * 13 + rank]

    @property
    def suit(self) -> Suit:
        """The card's suit."""
        return Suit(self // 13)

    @property
    def rank(self) -> Rank:
        """The card's rank."""
        return Rank(self % 13)

    @property
    def name(self) -> str:
        """The spoken name, such as ``"Queen of hearts"``."""
        return f"{RANK_NAMES[self % 13]} of {SUIT_NAMES[self // 13]}"

    @property
    def pretty(self) -> str:
        """The short form with a suit symbol, such as ``"10♦"``."""
        rank = "10" if self % 13 == Rank.TEN else RANK_LETTERS[self % 13]
        return rank + SUIT_SYMBOLS[self // 13]

    def __str__(self) -> str:
        return RANK_LETTERS[self % 13] + SUIT_LETTERS[self // 13]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


CARDS: Final[tuple[Card, ...]] = tuple(int.__new__(Card, code) for code in range(52))

# Seats, clockwise. Partners are ``seat ^ 2``.
NORTH: Final = 0
EAST: Final = 1
SOUTH: Final = 2
WEST: Final = 3
SEAT_NAMES: Final = ("North", "East", "South", "West")


def check_seat(seat: Any) -> int:
    """Validate a seat number 0-3 (a plain int: ``True`` is not a seat)."""
    if type(seat) is not int or not 0 <= seat < 4:
        raise ValueError(f"{brief_repr(seat)} is not a seat (0-3: North, East, South, West)")
    return seat


def seat_name(seat: int) -> str:
    """North, East, South or West."""
    return SEAT_NAMES[check_seat(seat)]


def parse_cards(text: str) -> list[Card]:
    """Parse a space- or comma-separated list of cards, such as ``"6S 5S TS KS"``."""
    if not isinstance(text, str):
        raise CardParseError(f"{brief_repr(text)} is not a list of cards (expected '6S 5S')")
    return [Card.parse(part) for part in text.replace(",", " ").split()]


_BRIEF = reprlib.Repr()  # at most 30 characters of a text, 6 items of a list, 6 levels deep


def brief_repr(value: object) -> str:
    """A value's ``repr`` cut short for an error message: never huge, never failing (an
    integer too long to print is named by its size)."""
    try:
        return _BRIEF.repr(value)
    except ValueError:  # an int past Python's int-to-text limit, possibly inside a list
        if isinstance(value, int):
            return f"<an integer of {value.bit_length()} bits>"
        return f"<a {type(value).__name__} holding an integer too long to show>"
