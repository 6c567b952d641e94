"""The vocabulary: suits, ranks, cards and seats.

A card is an ``int`` 0-51, ``suit * 13 + rank`` with rank 0 for the two and 12 for the ace,
so the fast core can use plain integers while the public API hands out ``Card`` values
(an ``int`` subclass, one cached instance per card).
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final


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
        """Build a suit from its letter (case-insensitive) or symbol."""
        if isinstance(text, str):
            key = text.strip().upper()
            for suit in cls:
                if key in (SUIT_LETTERS[suit], SUIT_SYMBOLS[suit]):
                    return suit
        raise CardParseError(f"{text!r} is not a suit (expected one of S, H, D, C)")

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
        """Build a rank from ``A K Q J T 10 9 ... 2`` (case-insensitive)."""
        if isinstance(text, str):
            key = text.strip().upper()
            if key == "10":
                return cls.TEN
            if len(key) == 1 and key in RANK_LETTERS:
                return cls(RANK_LETTERS.index(key))
        raise CardParseError(f"{text!r} is not a rank (expected A K Q J T 10 9 8 7 6 5 4 3 2)")

    def __str__(self) -> str:
        return RANK_LETTERS[self]


class CardParseError(ValueError):
    """Text that does not name a card, suit or rank."""


SUIT_LETTERS: Final = "SHDC"
SUIT_SYMBOLS: Final = "♠♥♦♣"
SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs")
RANK_LETTERS: Final = "23456789TJQKA"
RANK_NAMES: Final = (
    "Two", "Three", "Four", "Five", "Six", "Seven", "Eight",
    "Nine", "Ten", "Jack", "Queen", "King", "Ace",
)  # fmt: skip


class Card(int):
    """One of the 52 distinct cards (each exists in four identical copies in the deck)."""

    __slots__ = ()

    def __new__(cls, code: int) -> Card:
        if type(code) is cls:
            return code
        if not isinstance(code, int) or isinstance(code, bool) or not 0 <= code < 52:
            raise CardParseError(f"{code!r} is not a card code (0-51)")
        return CARDS[code]

    @classmethod
    def of(cls, rank: Rank | int, suit: Suit | int) -> Card:
        """The card of this rank and suit."""
        return CARDS[int(suit) * 13 + int(rank)]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Build a card from a rank then a suit: ``"TD"``, ``"10d"``, ``"as"``."""
        if not isinstance(text, str):
            raise CardParseError(f"{text!r} is not a card (expected text such as 'TD')")
        key = text.strip()
        if len(key) < 2:
            raise CardParseError(f"{text!r} is not a card (expected a rank then a suit, 'TD')")
        try:
            return cls.of(Rank.parse(key[:-1]), Suit.parse(key[-1]))
        except CardParseError:
            raise CardParseError(
                f"{text!r} is not a card (expected a rank A K Q J T 10 9 ... 2 "
                "then a suit S H D C, such as 'TD')"
            ) from None

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


def seat_name(seat: int) -> str:
    """North, East, South or West."""
    return SEAT_NAMES[seat]


def parse_cards(text: str) -> list[Card]:
    """Parse a space- or comma-separated list of cards, such as ``"6S 5S TS KS"``."""
    return [Card.parse(part) for part in text.replace(",", " ").split()]
