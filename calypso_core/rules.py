"""The rule options and the trick-winner rule (docs/rules.md#options, #who-wins-a-trick)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any

from .cards import Card, CardParseError, Suit

# A winner function takes the cards of a trick in playing order (1-4 ints) and the personal
# suits of the players who played them, and returns the index of the card winning so far.
WinnerFn = Callable[[Sequence[int], Sequence[int]], int]


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
            if type(getattr(self, field.name)) is not bool:
                raise TypeError(f"Rules.{field.name} must be a bool")

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
                raise ValueError(f"rules: unknown option {key!r}")
            if type(value) is not bool:
                raise ValueError(f"rules: {key} must be true or false, not {value!r}")
        return cls(**data)

    @property
    def winner_fn(self) -> WinnerFn:
        """The fast trick-winner function for these options."""
        must_beat = self.lead_trump_must_be_beaten or self.all_fours
        last = self.last_trump_in_wins and not self.all_fours
        return _WINNERS[must_beat, last]


def _make_winner(must_beat: bool, last: bool) -> WinnerFn:
    def winner(cards: Sequence[int], trumps: Sequence[int]) -> int:
        lead = cards[0]
        led = lead // 13
        best = 0  # highest card of the suit led so far
        best_rank = lead % 13
        trump_i = -1
        trump_rank = -1
        if led == trumps[0] and must_beat:
            trump_i = 0
            trump_rank = best_rank
        for i in range(1, len(cards)):
            card = cards[i]
            suit = card // 13
            if suit == led:
                if card % 13 > best_rank:
                    best = i
                    best_rank = card % 13
            elif suit == trumps[i] and card % 13 > trump_rank:
                trump_i = i
                if not last:
                    trump_rank = card % 13
        if trump_i >= 0:
            return trump_i
        if led == trumps[0]:
            return 0
        return best

    return winner


_WINNERS = {(m, last): _make_winner(m, last) for m in (False, True) for last in (False, True)}


def trick_winner(
    cards: Sequence[Card | str | int],
    trumps: Sequence[Suit | str | int],
    rules: Rules = Rules(),
) -> int:
    """The index of the winning card among the cards played so far (one to four).

    ``cards`` are in playing order and ``trumps`` are the personal suits of the players
    who played them, in the same order.
    """
    if not 1 <= len(cards) <= 4 or len(trumps) != len(cards):
        raise ValueError(
            f"a trick has 1-4 cards and one personal suit for each: "
            f"got {len(cards)} cards and {len(trumps)} suits"
        )
    codes = [_as_card(card) for card in cards]
    suits = [_as_suit(suit) for suit in trumps]
    return rules.winner_fn(codes, suits)


def _as_card(card: Card | str | int) -> int:
    if isinstance(card, str):
        return int(Card.parse(card))
    if isinstance(card, int) and not isinstance(card, bool) and 0 <= card < 52:
        return int(card)
    raise CardParseError(f"{card!r} is not a card")


def _as_suit(suit: Suit | str | int) -> int:
    if isinstance(suit, str):
        return int(Suit.parse(suit))
    if isinstance(suit, int) and not isinstance(suit, bool) and 0 <= suit < 4:
        return int(suit)
    raise CardParseError(f"{suit!r} is not a suit")
