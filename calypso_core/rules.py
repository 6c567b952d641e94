"""The rule options and the trick-winner rule (docs/rules.md#options, #who-wins-a-trick)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any

from .cards import Card, CardParseError, Suit, brief_repr
from .kernel import WinnerFn, winner_fn


@dataclass(frozen=True, slots=True)
class Rules:
    """The options of the variant; the defaults are the standard game.

    - ``lead_trump_must_be_beaten``: a led own-suit card counts as a trump; a trump-in
      wins only if higher (ties go to the earlier card, the lead).
    - ``last_trump_in_wins``: the last trump-in wins, whatever its rank ("early rules");
      with the option above, the last trump-in higher than the trump lead.
    - ``all_fours``: you may play your own suit even when you can follow; a trump lead
      counts as a trump and later trumps must beat the best so far, ties to the earlier
      (so it implies the first option and overrides the second).
    - ``leftovers_start_next_calypso``: duplicates from the trick that completes a calypso
      start the next one; off, they go to the pile.
    """

    lead_trump_must_be_beaten: bool = False
    last_trump_in_wins: bool = False
    all_fours: bool = False
    leftovers_start_next_calypso: bool = True

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            if type(value) is not bool:
                raise ValueError(
                    f"Rules.{field.name} must be True or False, not {brief_repr(value)}"
                )

    def to_dict(self) -> dict[str, bool]:
        """The options as a JSON-ready dict, as in game records."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Any) -> Rules:
        """Build rules from a dict of options; unknown keys and non-bool values are refused."""
        if not isinstance(data, dict):
            raise ValueError(f"rules must be an object of options, not {type(data).__name__}")
        known = {field.name for field in fields(cls)}
        for key, value in data.items():
            if key not in known:
                raise ValueError(f"rules: unknown option {brief_repr(key)}")
            if type(value) is not bool:
                raise ValueError(f"rules: {key} must be true or false, not {brief_repr(value)}")
        return cls(**data)

    @property
    def must_beat(self) -> bool:
        """Whether a trump lead counts as a trump that a trump-in must beat (the first
        option, or All Fours)."""
        return self.lead_trump_must_be_beaten or self.all_fours

    @property
    def last_trump_wins(self) -> bool:
        """Whether the last trump-in wins rather than the highest (All Fours overrides it)."""
        return self.last_trump_in_wins and not self.all_fours

    @property
    def winner_fn(self) -> WinnerFn:
        """The trick-winner rule for these options, on integer codes (``kernel.winner_fn``)."""
        return winner_fn(self.must_beat, self.last_trump_wins)


def trick_winner(
    cards: Sequence[Card | str | int],
    trumps: Sequence[Suit | str | int],
    rules: Rules = Rules(),
) -> int:
    """The index of the winning card among the cards played so far (one to four).

    ``cards`` are in playing order and ``trumps`` are the personal suits of the players
    who played them, in the same order.
    """
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a Rules, not {brief_repr(rules)}")
    codes, suits = parse_trick(cards, trumps)
    return rules.winner_fn(codes, suits)


def parse_trick(
    cards: Sequence[Card | str | int], trumps: Sequence[Suit | str | int]
) -> tuple[list[int], list[int]]:
    """The codes of a trick's 1-4 cards and of the personal suits of their players, checked.

    A card is a ``Card``, its text or its code 0-51; a suit a ``Suit``, its letter or symbol,
    or 0-3 (a ``Rank`` is neither, nor is a ``bool``).
    """
    if not _is_list(cards) or not _is_list(trumps):
        raise ValueError(
            "a trick is a list of 1-4 cards and a list of one personal suit for each, "
            f"not {brief_repr(cards)} and {brief_repr(trumps)}"
        )
    if not 1 <= len(cards) <= 4 or len(trumps) != len(cards):
        raise ValueError(
            f"a trick has 1-4 cards and one personal suit for each: "
            f"got {len(cards)} cards and {len(trumps)} suits"
        )
    return [_as_card(card) for card in cards], [_as_suit(suit) for suit in trumps]


def _is_list(value: Any) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes, bytearray))


def _as_card(card: Card | str | int) -> int:
    if isinstance(card, str):
        return int(Card.parse(card))
    return int(Card(card))  # a plain int 0-51 or a Card; anything else raises


def _as_suit(suit: Suit | str | int) -> int:
    if isinstance(suit, str):
        return int(Suit.parse(suit))
    if type(suit) in (Suit, int) and 0 <= suit < 4:
        return int(suit)
    raise CardParseError(f"{brief_repr(suit)} is not a suit")
