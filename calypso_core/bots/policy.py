"""The playout policy and the end-of-deal valuation the search bots use on a ``Sim``.

The policy is a handful of fast rules on integer cards (lead the opponents' suits from
the top, then the own suit low; win cheaply; trump in cheaply when the opponents are
winning; discard low), with an occasional random card so that playouts of one layout
differ. Playouts stop at the end of the current deal: the rest of the game is valued
statically from the calypsos in progress (how likely each is to be completed in the
deals that remain, measured in club self-play) rather than played out.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial

from ..fastsim import Sim
from ..kernel import FULL_CALYPSO, LADDER, WinnerFn, trumps_by_position

_POPCOUNT = tuple(bin(m).count("1") for m in range(1 << 13))
# A completion table: [deals left][cards in progress] -> the chance a calypso in progress is
# completed before the game ends, measured at the ends of deals 1-3 (bench/completion.py).
Table = tuple[tuple[float, ...], ...]
# In 3,000 club self-play games. One entry per card count: with pairs of counts sharing an
# entry, an eleventh card looked worth no more than a pile card.
_CLUB: Table = (
    (0.0,) * 13,
    (0.0, 0.0, 0.0, 0.01, 0.01, 0.02, 0.04, 0.06, 0.13, 0.19, 0.28, 0.46, 0.67),
    (0.07, 0.09, 0.13, 0.16, 0.2, 0.26, 0.32, 0.37, 0.47, 0.56, 0.66, 0.76, 0.88),
    (0.34, 0.35, 0.39, 0.46, 0.51, 0.59, 0.62, 0.66, 0.74, 0.78, 0.84, 0.88, 0.95),
    (0.34, 0.35, 0.39, 0.46, 0.51, 0.59, 0.62, 0.66, 0.74, 0.78, 0.84, 0.88, 0.95),
)
# In 400 master self-play games at 300 iterations, each row fitted so that more cards never
# mean a smaller share (--monotone): masters complete more calypsos than club players with
# three deals left, from every count of cards, and fewer from 1-3 cards with two left.
_MASTER: Table = (
    (0.0,) * 13,
    (0.0, 0.0, 0.0, 0.0, 0.0, 0.04, 0.05, 0.06, 0.15, 0.18, 0.36, 0.49, 0.7),
    (0.08, 0.08, 0.08, 0.14, 0.28, 0.36, 0.36, 0.42, 0.55, 0.6, 0.74, 0.81, 0.91),
    (0.41, 0.41, 0.47, 0.53, 0.56, 0.67, 0.71, 0.75, 0.82, 0.83, 0.88, 1.0, 1.0),
    (0.41, 0.41, 0.47, 0.53, 0.56, 0.67, 0.71, 0.75, 0.82, 0.83, 0.88, 1.0, 1.0),
)
# An end-of-deal value: a position at the end of a deal and a side -> the side's lead in
# points, counting the likely completion of the calypsos in progress.
Value = Callable[[Sim, int], float]
# Bonus for completing the next calypso beyond the 20 points its 13 cards already count.
_STEP = (*(LADDER[c + 1] - LADDER[c] - 260 for c in range(4)), 0)


def _live_rows(base: tuple[float, ...], factor: float) -> tuple[tuple[float, ...], ...]:
    """[cards in progress][needed ranks with a single copy left] -> chance."""
    return tuple(tuple(b * factor**singles for singles in range(14)) for b in base)


# The live table, [deals left][cards in progress][needed ranks with one copy left]: the chance
# that a calypso in progress none of whose needed ranks is gone is completed, as a chance by
# card count times a factor for each needed rank with a single copy left unplayed (6,000
# club self-play games, bench/completion.py --live; the factor fitted by likelihood, then
# the chances, each row monotone). A calypso that needs a rank with no copy left unplayed
# is never completed: at the ends of deals 1-3 of those games, 12,886 of the 72,000
# calypsos in progress (18%), and with one deal left 10,836 of 24,000 (45%); of those
# holding nine cards then, the live ones were completed 37% of the time, all of them 19%.
_LIVE_FIT = (  # by deals left, 1-3: the chance by card count, and the factor
    ((0.0, 0.65, 0.65, 0.65, 0.65, 0.65, 0.65, 0.65, 0.65, 0.65, 0.65, 0.7, 0.8), 0.74),
    ((0.4, 0.4, 0.4, 0.4, 0.42, 0.43, 0.5, 0.5, 0.59, 0.64, 0.71, 0.8, 0.89), 0.71),
    ((0.41, 0.41, 0.49, 0.49, 0.53, 0.6, 0.62, 0.66, 0.74, 0.79, 0.84, 0.88, 0.96), 0.62),
)
_LIVE = (
    ((0.0,) * 14,) * 13,
    *(_live_rows(base, factor) for base, factor in _LIVE_FIT),
    _live_rows(*_LIVE_FIT[2]),
)
Masks = tuple[tuple[int, ...], tuple[int, ...]]
# The stock last looked at (every clone of a layout's Sim shares its stock), with its masks.
_last_stock: list[tuple[tuple[int, ...], Masks]] = [((), ((FULL_CALYPSO,) * 4, (0,) * 4))]


def _stock_masks(stock: tuple[int, ...]) -> Masks:
    """By suit, the rank masks of the cards with no copy in ``stock``, and with one."""
    seen, masks = _last_stock[0]
    if stock is seen:
        return masks
    counts = [0] * 52
    for code in stock:
        counts[code] += 1
    gone = tuple(sum(1 << r for r in range(13) if counts[s * 13 + r] == 0) for s in range(4))
    single = tuple(sum(1 << r for r in range(13) if counts[s * 13 + r] == 1) for s in range(4))
    _last_stock[0] = (stock, (gone, single))
    return gone, single


def live_chance(sim: Sim, seat: int) -> float:
    """The chance that ``seat`` completes its calypso in progress in the deals left, at the
    end of a deal (where every card left unplayed is in the stock): none if it needs a rank
    with no copy left; less for each needed rank with a single copy left."""
    mask = sim._calypso[seat]
    need = FULL_CALYPSO ^ mask
    suit = sim._suits[seat]
    gone, single = _stock_masks(sim._stock)
    if need & gone[suit]:
        return 0.0
    return _LIVE[4 - sim.deal][_POPCOUNT[mask]][_POPCOUNT[need & single[suit]]]


def table_value(table: Table) -> Value:
    """The end-of-deal value with the chances of a completion ``table``."""

    def value(sim: Sim, side: int) -> float:
        """Our side's lead in points, counting the likely completion of calypsos in
        progress."""
        chance = table[4 - sim.deal]
        total = 0.0
        calypso = sim._calypso
        completed = sim._completed
        for seat in range(4):
            points = sim.score(seat) + chance[_POPCOUNT[calypso[seat]]] * _STEP[completed[seat]]
            total += points if seat & 1 == side else -points
        return total

    return value


def evaluate_live(sim: Sim, side: int) -> float:
    """The end-of-deal value with the chances of ``live_chance``."""
    total = 0.0
    completed = sim._completed
    for seat in range(4):
        value = sim.score(seat) + live_chance(sim, seat) * _STEP[completed[seat]]
        total += value if seat & 1 == side else -value
    return total


# How the search values a playout's end, by name (SearchBot.COMPLETION): a completion table
# (with four deals left, before the first deal ends, a table repeats its row for three), or
# the live value.
COMPLETION: dict[str, Value] = {
    "club": table_value(_CLUB),
    "master": table_value(_MASTER),
    "live": evaluate_live,
}


def light_card(
    hand: list[list[int]],
    seat: int,
    trick: list[int],
    leader: int,
    suits: tuple[int, ...] | list[int],
    winner_fn: WinnerFn,
    must_beat: bool,
    last: bool,
    calypso: list[int] | None = None,
    lead_own_from: int = 0,
    overtake_below: int = -1,
) -> int:
    """The policy's card for ``seat`` holding ``hand`` (four lists of ranks, by suit).

    With ``calypso`` (the four rank masks), a player whose partner is winning feeds the
    trick a card of its side's suits that its side still needs. ``lead_own_from`` and
    ``overtake_below`` turn on the sharper rules of ``policy_card``.
    """
    trumps = trumps_by_position(suits)[leader]
    winning = winner_fn(trick, trumps) if trick else 0
    return policy_card(suits, must_beat, last, calypso, lead_own_from, overtake_below, hand,
                       seat, trick, winning, trumps)  # fmt: skip


def policy_card(
    suits: tuple[int, ...] | list[int],
    must_beat: bool,
    last: bool,
    calypso: list[int] | None,
    lead_own_from: int,
    overtake_below: int,
    hand: list[list[int]],
    seat: int,
    trick: list[int],
    wi: int,
    trumps: tuple[int, ...],
) -> int:
    """``light_card`` for a caller that knows who is winning the trick: ``wi`` is the index
    of the winning card so far, ``trumps`` the personal suits by position in the trick. The
    options come first, so that ``partial(policy_card, ...)`` makes a ``Sim.playout`` chooser.

    Two sharper rules, off at 0 and -1 (issue 28): with ``lead_own_from`` cards or more in
    hand (early in a deal, when hardly anyone can trump in) a leader with ``calypso`` leads
    the lowest card of its own suit that its calypso still needs; and a third hand whose
    partner wins with a plain card of the suit led below rank ``overtake_below`` overtakes
    with its top card of that suit.
    """
    own = suits[seat]
    if not trick:
        if (lead_own_from and calypso is not None and hand[own]
                and len(hand[0]) + len(hand[1]) + len(hand[2]) + len(hand[3]) >= lead_own_from):
            mask = calypso[seat]
            best_rank = 13
            for r in hand[own]:
                if not mask >> r & 1 and r < best_rank:
                    best_rank = r
            if best_rank < 13:
                return own * 13 + best_rank
        best = -1
        best_rank = -1
        for suit in (suits[seat ^ 1], suits[seat ^ 3]):
            ranks = hand[suit]
            if ranks:
                top = max(ranks)
                if top > best_rank:
                    best_rank = top
                    best = suit * 13 + top
        if best >= 0:
            return best
        if hand[own]:
            return own * 13 + min(hand[own])
        return (own ^ 1) * 13 + min(hand[own ^ 1])
    led = trick[0] // 13
    n = len(trick)
    partner_winning = not (n - wi) & 1
    win = trick[wi]
    lead_trump = wi == 0 and led == trumps[0]
    follow = hand[led]
    if partner_winning and calypso is not None:
        for suit in (own ^ 1, own) if not follow else (led,):
            if suit >> 1 != own >> 1:
                continue
            mask = calypso[seat if suit == own else seat ^ 2]
            for r in hand[suit]:
                if not mask >> r & 1:
                    return suit * 13 + r
    if follow:
        if (partner_winning and n == 2 and win % 13 < overtake_below and win // 13 == led
                and not lead_trump):
            top = max(follow)
            if top > win % 13:
                return led * 13 + top
        if partner_winning or lead_trump or win // 13 != led:
            return led * 13 + min(follow)
        wr = win % 13
        best_rank = 13
        for r in follow:
            if wr < r < best_rank:
                best_rank = r
        if best_rank < 13:
            return led * 13 + best_rank
        return led * 13 + _cheapest(follow, led, suits, seat, calypso)
    mine = hand[own]
    if mine and not partner_winning:
        if win // 13 != led:
            if last:
                threshold = trick[0] % 13 if (must_beat and trumps[0] == led) else -1
            else:
                threshold = win % 13
        elif lead_trump and must_beat:
            threshold = win % 13
        else:
            threshold = -1
        best_rank = 13
        for r in mine:
            if threshold < r < best_rank:
                best_rank = r
        if best_rank < 13:
            return own * 13 + best_rank
    best = -1
    best_rank = 13
    for suit in (suits[seat ^ 1], suits[seat ^ 3], own ^ 1, own):
        ranks = hand[suit]
        if ranks:
            low = (
                _cheapest(ranks, suit, suits, seat, calypso) if calypso is not None else min(ranks)
            )
            if low < best_rank:
                best_rank = low
                best = suit * 13 + low
            if suit == suits[seat ^ 3] and best >= 0:
                return best
    return best


def _cheapest(
    ranks: list[int],
    suit: int,
    suits: tuple[int, ...] | list[int],
    seat: int,
    calypso: list[int] | None,
) -> int:
    """The lowest rank of a suit to give away, preferring ranks its owner's calypso has."""
    low = min(ranks)
    if calypso is None:
        return low
    owner = suits.index(suit)
    if owner & 1 == seat & 1:
        return low
    mask = calypso[owner]
    best = 13
    for r in ranks:
        if mask >> r & 1 and r < best:
            best = r
    return best if best < 13 else low


def make_rollout(eps: float, feed: bool = True, lead_own_from: int = 0, overtake_below: int = -1
                 ) -> Callable[[Sim, random.Random, int], None]:
    """A playout to the end of deal ``deal``: the policy, with a random card at rate eps.

    The deal is passed in, not read from the position: after the last card of a deal the
    position has already moved on, and the playout must then do nothing.
    """

    def rollout(sim: Sim, rng: random.Random, deal: int) -> None:
        if sim.deal != deal:
            return
        rules = sim.rules
        choose = partial(policy_card, sim.suits, rules.must_beat, rules.last_trump_wins,
                         sim._calypso if feed else None, lead_own_from, overtake_below)  # fmt: skip
        sim.playout(choose, rng.random, eps)

    return rollout
