"""What a seat knows, parsed once per move from its observation: card counting.

Cards are integer codes 0-51 (``suit * 13 + rank``). All 208 cards are known as a
multiset, so "unseen" counts (4 copies minus those in the own hand and those played) say
exactly which cards are in the other hands or the stock; voids shown this deal and the
public calypsos in progress complete the picture.
"""

from __future__ import annotations

from typing import Any

from ..cards import RANK_LETTERS, SUIT_LETTERS
from ..kernel import FULL_CALYPSO, LADDER
from ..rules import Rules

_SUIT = {letter: i for i, letter in enumerate(SUIT_LETTERS)}
_CODE = {RANK_LETTERS[r] + SUIT_LETTERS[s]: s * 13 + r for s in range(4) for r in range(13)}


def card_code(text: str) -> int:
    """The integer code of a card written as in observations (``"TD"``)."""
    return _CODE[text]


def popcount(mask: int) -> int:
    """The number of set bits."""
    return bin(mask).count("1")


class Knowledge:
    """A seat's knowledge of the game, from its observation alone.

    With ``memory=False`` (the novice) only what is on the table now counts as seen: the
    own hand, the current trick and the calypsos in progress; no voids are remembered.
    """

    __slots__ = (
        "calypso",
        "completed",
        "deal",
        "deal_tricks",
        "first_dealer",
        "hand",
        "hand_masks",
        "hand_sizes",
        "leader",
        "memory",
        "piles",
        "played_by",
        "rules",
        "scores",
        "seat",
        "stock",
        "suits",
        "trick",
        "trick_number",
        "unseen",
        "unseen_total",
        "voids",
    )  # fmt: skip

    def __init__(self, observation: dict[str, Any], memory: bool = True) -> None:
        obs = observation
        self.memory = memory
        self.seat: int = obs["seat"]
        self.rules = Rules.from_dict(obs["rules"])
        self.suits: list[int] = [_SUIT[s] for s in obs["suits"]]
        self.first_dealer: int = obs["first_dealer"]
        self.deal: int = obs["deal"]
        self.trick_number: int = obs["trick_number"]
        self.leader: int = obs["trick"]["leader"]
        self.trick: list[int] = [_CODE[c] for c in obs["trick"]["cards"]]
        self.hand_sizes: list[int] = list(obs["hand_sizes"])
        self.stock: int = obs["stock"]
        self.hand = [0] * 52
        self.hand_masks = [0, 0, 0, 0]
        for text in obs["hand"]:
            code = _CODE[text]
            self.hand[code] += 1
            self.hand_masks[code // 13] |= 1 << (code % 13)
        players = obs["players"]
        self.calypso = [0, 0, 0, 0]
        self.completed = [0, 0, 0, 0]
        self.scores = [0, 0, 0, 0]
        self.piles = [0, 0, 0, 0]
        for p in players:
            seat = p["seat"]
            self.completed[seat] = p["completed"]
            self.scores[seat] = p["score"]
            self.piles[seat] = p["pile"]
            for text in p["in_progress"]:
                self.calypso[seat] |= 1 << (_CODE[text] % 13)
        # played_by[seat]: codes that seat played this deal (for samplers and inference).
        self.played_by: list[list[int]] = [[], [], [], []]
        # deal_tricks: (leader, cards) of each trick of this deal, the current one last.
        self.deal_tricks: list[tuple[int, list[int]]] = []
        self.voids = [0, 0, 0, 0]
        unseen = [4] * 52
        for code in range(52):
            unseen[code] -= self.hand[code]
        if memory:
            for t in obs["tricks"]:
                cards = [_CODE[c] for c in t["cards"]]
                for c in cards:
                    unseen[c] -= 1
                if t["deal"] == self.deal:
                    self._note_trick(t["leader"], cards)
        else:
            for seat in range(4):
                base = 13 * self.suits[seat]
                mask = self.calypso[seat]
                for r in range(13):
                    if mask >> r & 1:
                        unseen[base + r] -= 1
        for c in self.trick:
            unseen[c] -= 1
        self._note_trick(self.leader, self.trick)
        self.unseen = unseen
        self.unseen_total = sum(unseen)

    def _note_trick(self, leader: int, cards: list[int]) -> None:
        if not cards:
            return
        self.deal_tricks.append((leader, cards))
        led = cards[0] // 13
        all_fours = self.rules.all_fours
        for i, code in enumerate(cards):
            seat = (leader + i) & 3
            self.played_by[seat].append(code)
            suit = code // 13
            if i and suit != led and not (all_fours and suit == self.suits[seat]):
                self.voids[seat] |= 1 << led

    # -- questions -------------------------------------------------------------------------

    def needs(self, seat: int, code: int) -> bool:
        """Whether this card is of the seat's suit and its rank is missing from its calypso."""
        return code // 13 == self.suits[seat] and not self.calypso[seat] >> (code % 13) & 1

    def owner(self, suit: int) -> int:
        """The seat whose personal suit this is."""
        return self.suits.index(suit)

    def is_void(self, seat: int, suit: int) -> bool:
        """Whether the seat has shown out of this suit in the current deal."""
        return bool(self.voids[seat] >> suit & 1)

    def live_copies(self, code: int) -> int:
        """Copies of a card that may still be played: in any hand (own included) or the stock."""
        return self.unseen[code] + self.hand[code]

    def can_complete(self, seat: int) -> bool:
        """Whether every rank the seat's calypso still needs has a live copy somewhere."""
        if self.completed[seat] >= 4:
            return False
        base = 13 * self.suits[seat]
        missing = FULL_CALYPSO & ~self.calypso[seat]
        for r in range(13):
            if missing >> r & 1 and not self.live_copies(base + r) and base + r not in self.trick:
                return False
        return True

    def calypso_value(self, seat: int) -> float:
        """What one more needed card in this seat's calypso is worth, in points (heuristic).

        20 points for the card, plus a share of the completion bonus that grows as the
        calypso fills, nothing of it once completion has become impossible.
        """
        n = popcount(self.calypso[seat])
        done = min(self.completed[seat], 3)
        bonus = LADDER[done + 1] - LADDER[done] - 260
        if not self.memory:
            return 20.0 + bonus * ((n + 1) / 13) ** 2
        if not self.can_complete(seat):
            return 20.0
        # Fewer tricks left in the game make a far-from-complete calypso less likely.
        tricks_left = 13 * (3 - self.deal) + 13 - self.trick_number
        missing = 13 - n
        reach = 1.0 if tricks_left >= 3 * missing else max(0.0, tricks_left / (3 * missing))
        return 20.0 + bonus * ((n + 1) / 13) ** 2 * reach

    def p_holds_any(self, seat: int, count: int, pool: int | None = None) -> float:
        """Chance that the seat holds at least one of ``count`` unseen cards.

        The seat's cards are treated as a random draw from the unseen pool (other hands
        and the stock); ``pool`` narrows that pool, e.g. to the cards outside a void suit.
        """
        if count <= 0:
            return 0.0
        total = self.unseen_total if pool is None else pool
        h = self.hand_sizes[seat]
        if count >= total:
            return 1.0 if h else 0.0
        miss = 1.0
        for i in range(h):
            miss *= (total - count - i) / (total - i)
            if miss <= 0.0:
                return 1.0
        return 1.0 - miss

    def unseen_in_suit(self, suit: int, above: int = -1) -> int:
        """Unseen cards of a suit with rank above ``above``."""
        base = 13 * suit
        return sum(self.unseen[base + r] for r in range(above + 1, 13))
