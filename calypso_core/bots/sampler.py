"""Sampling the hidden cards consistently with what one seat knows.

The unseen cards (all 208 as a multiset, less the own hand and every card played) are
split between the other hands, each exactly as large as the observation says and holding
no card of a suit its player has shown out of this deal, and the stock, which takes the
rest in a random order. The true hidden cards are never looked at: the sampler reads only
a ``Knowledge`` built from the observation.
"""

from __future__ import annotations

import random
from itertools import chain, repeat

from ..fastsim import Sim
from ..kernel import DECK_SIZE
from .knowledge import Knowledge


class Layout:
    """One sampled layout: a 52-slot count array per seat and the stock in dealing order."""

    __slots__ = ("hands", "stock")

    def __init__(self, hands: list[list[int]], stock: list[int]) -> None:
        self.hands = hands
        self.stock = stock


def sample_layout(k: Knowledge, rng: random.Random, shuffle_stock: bool = True) -> Layout:
    """A random layout of the hidden cards that fits the seat's knowledge.

    Each hidden slot of another hand gets a uniformly random unseen card among those of
    the suits its player may still hold, with a check (Hall's condition over the seats
    still to fill) that the seats after it can still be filled; the stock takes the rest,
    shuffled unless ``shuffle_stock`` is false (a search that stops at the end of the deal
    never draws from it, so its order does not matter there).
    """
    me = k.seat
    hands = [[0] * 52 for _ in range(4)]
    hands[me] = k.hand[:]
    others = [s for s in ((me + 1) & 3, (me + 2) & 3, (me + 3) & 3) if k.hand_sizes[s]]
    left = k.unseen[:]
    if not any(k.voids[s] for s in others):
        pool = _cards_of(left)
        drawn = rng.sample(pool, sum(k.hand_sizes[s] for s in others))
        i = 0
        for seat in others:
            hand = hands[seat]
            for code in drawn[i : i + k.hand_sizes[seat]]:
                hand[code] += 1
                left[code] -= 1
            i += k.hand_sizes[seat]
    else:
        _deal_constrained(k, rng, others, hands, left)
    stock = _cards_of(left)
    if shuffle_stock:
        rng.shuffle(stock)
    return Layout(hands, stock)


def _deal_constrained(
    k: Knowledge, rng: random.Random, others: list[int], hands: list[list[int]], left: list[int]
) -> None:
    by_suit = [_cards_of(left, suit) for suit in range(4)]
    allowed = {s: 15 & ~k.voids[s] for s in others}
    # Fill the most constrained seats first: fewest cards they could hold.
    others = sorted(
        others, key=lambda s: sum(len(by_suit[x]) for x in range(4) if allowed[s] >> x & 1)
    )
    need = {s: k.hand_sizes[s] for s in others}
    for i, seat in enumerate(others):
        # Hall's condition over the seats still to fill: each group of them needs at most as
        # many cards as the suits they may hold still have.
        groups = _groups(others[i:], allowed)
        mask = allowed[seat]
        unchecked = 0  # draws that cannot make any group short, so need no check
        blocked = 0
        for _ in range(need[seat]):
            need[seat] -= 1
            if unchecked:
                unchecked -= 1
            else:
                # The suits whose next card would leave some group short: those of a group
                # with no card to spare (every suit, if a group is short already). A group's
                # spare falls by at most one a draw, so the least spare says how many draws
                # can pass before the next check.
                blocked = 0
                least = DECK_SIZE
                for suits_of_group, seats in groups:
                    demand = 0
                    for s in seats:
                        demand += need[s]
                    if demand:
                        spare = -demand
                        for x in suits_of_group:
                            spare += len(by_suit[x])
                        if spare <= 0:
                            blocked |= 15 if spare < 0 else _SUIT_SET[suits_of_group]
                        elif spare < least:
                            least = spare
                if not blocked:
                    unchecked = least - 1
            suits = [x for x in range(4) if mask >> x & 1 and by_suit[x] and not blocked >> x & 1]
            if not suits:
                raise ValueError("no layout of the hidden cards fits this observation")
            pick = rng.randrange(sum(len(by_suit[x]) for x in suits))
            for x in suits:
                if pick < len(by_suit[x]):
                    break
                pick -= len(by_suit[x])
            cards = by_suit[x]
            cards[pick], cards[-1] = cards[-1], cards[pick]
            code = cards.pop()
            hands[seat][code] += 1
            left[code] -= 1


def _cards_of(counts: list[int], suit: int | None = None) -> list[int]:
    """The codes of a 52-slot count array, one per copy, in order (of one suit, if given)."""
    codes = range(52) if suit is None else range(13 * suit, 13 * suit + 13)
    return [*chain.from_iterable(map(repeat, codes, counts[codes.start : codes.stop]))]


def _groups(
    seats: list[int], allowed: dict[int, int]
) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every non-empty group of the seats, as (the suits any of them may hold, the seats)."""
    groups = []
    for subset in range(1, 1 << len(seats)):
        members = tuple(seat for j, seat in enumerate(seats) if subset >> j & 1)
        suits = 0
        for seat in members:
            suits |= allowed[seat]
        groups.append((tuple(x for x in range(4) if suits >> x & 1), members))
    return groups


# _SUIT_SET[suits]: the bit mask of a tuple of suits.
_SUIT_SET = {
    tuple(x for x in range(4) if mask >> x & 1): mask for mask in range(16)
}


def sim_from_layout(k: Knowledge, layout: Layout) -> Sim:
    """The full position of one sampled layout, ready for playouts."""
    return Sim.from_parts(
        k.rules,
        k.suits,
        k.first_dealer,
        k.deal,
        k.leader,
        (k.leader + len(k.trick)) & 3,
        k.trick,
        layout.hands,
        layout.stock,
        k.calypso,
        k.completed,
        k.piles,
    )
