"""Sampling the hidden cards consistently with what one seat knows.

The unseen cards (all 208 as a multiset, less the own hand and every card played) are
split between the other hands, each exactly as large as the observation says and holding
no card of a suit its player has shown out of this deal, and the stock, which takes the
rest in a random order. The true hidden cards are never looked at: the sampler reads only
a ``Knowledge`` built from the observation.
"""

from __future__ import annotations

import random

from ..fastsim import Sim
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
        pool = [code for code in range(52) for _ in range(left[code])]
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
    stock = [code for code in range(52) for _ in range(left[code])]
    if shuffle_stock:
        rng.shuffle(stock)
    return Layout(hands, stock)


def _deal_constrained(
    k: Knowledge, rng: random.Random, others: list[int], hands: list[list[int]], left: list[int]
) -> None:
    by_suit: list[list[int]] = [[], [], [], []]
    for code in range(52):
        if left[code]:
            by_suit[code // 13].extend([code] * left[code])
    allowed = {s: 15 & ~k.voids[s] for s in others}
    # Fill the most constrained seats first: fewest cards they could hold.
    others = sorted(
        others, key=lambda s: sum(len(by_suit[x]) for x in range(4) if allowed[s] >> x & 1)
    )
    need = {s: k.hand_sizes[s] for s in others}
    for i, seat in enumerate(others):
        waiting = others[i:]
        mask = allowed[seat]
        for _ in range(need[seat]):
            need[seat] -= 1
            suits = [
                x
                for x in range(4)
                if mask >> x & 1 and by_suit[x] and _feasible(by_suit, x, need, allowed, waiting)
            ]
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


def _feasible(
    by_suit: list[list[int]],
    taken: int,
    need: dict[int, int],
    allowed: dict[int, int],
    seats: list[int],
) -> bool:
    """Whether the seats can still be filled once one card of suit ``taken`` is used."""
    counts = [len(cards) for cards in by_suit]
    counts[taken] -= 1
    n = len(seats)
    for subset in range(1, 1 << n):
        demand = 0
        suits = 0
        for j in range(n):
            if subset >> j & 1:
                demand += need[seats[j]]
                suits |= allowed[seats[j]]
        if demand and demand > sum(counts[x] for x in range(4) if suits >> x & 1):
            return False
    return True


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
