"""The rules on integer cards, each written once: ``GameState`` and the playout ``Sim`` share them.

A card is a code 0-51, ``suit * 13 + rank`` (rank 0 the two, 12 the ace; suits S H D C are
0-3 and ``suit ^ 1`` is the pair-mate); seats are 0-3 clockwise and ``seat ^ 2`` is the
partner; a calypso in progress is a 13-bit mask of the ranks it holds. Nothing here checks
its input: callers pass codes they know to be valid.

- ``winner_fn(must_beat, last)``: who wins a trick (docs/rules.md#who-wins-a-trick);
- ``gather``: a won trick into calypsos and the pile (docs/rules.md#building-calypsos);
- ``score`` and ``score_parts``: a player's points (docs/rules.md#scoring).

``Sim.random_playout`` carries the one inlined copy of ``winner_fn`` and ``gather`` (marked
there); tests/test_fastsim.py checks it against ``GameState`` move by move.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

DEALS: Final = 4
TRICKS_PER_DEAL: Final = 13
DECK_SIZE: Final = 208
FULL_CALYPSO: Final = (1 << 13) - 1
# Points for 0-4 completed calypsos: 500 for the first, 750 for the second, 1000 after.
LADDER: Final = (0, 500, 1250, 2250, 3250)
CARD_POINTS: Final = 20  # each card of the calypso in progress
PILE_POINTS: Final = 10  # each card in the trick pile

# Lookup tables by card code.
SUIT_OF: Final = tuple(code // 13 for code in range(52))
RANK_OF: Final = tuple(code % 13 for code in range(52))
BIT_OF: Final = tuple(1 << (code % 13) for code in range(52))  # the rank's bit in a calypso

# A winner function takes the cards of a trick in playing order (1-4 codes) and the personal
# suits of the players who played them, and returns the index of the card winning so far.
WinnerFn = Callable[[Sequence[int], Sequence[int]], int]

_TRUMPS: dict[tuple[int, ...], tuple[tuple[int, int, int, int], ...]] = {}


def trumps_by_position(suits: Sequence[int]) -> tuple[tuple[int, int, int, int], ...]:
    """``[leader][i]``: the personal suit of the i-th player of a trick that ``leader`` leads."""
    table = _TRUMPS.get(tuple(suits))  # a Suit hashes and compares as its int
    if table is None:
        key = tuple(int(suit) for suit in suits)
        table = _TRUMPS[key] = tuple(
            (key[leader], key[(leader + 1) & 3], key[(leader + 2) & 3], key[(leader + 3) & 3])
            for leader in range(4)
        )
    return table


def winner_fn(must_beat: bool, last: bool) -> WinnerFn:
    """The trick-winner rule for the options: ``must_beat``, a trump lead counts as a trump
    that a trump-in must beat (``Rules.must_beat``); ``last``, the last trump-in wins rather
    than the highest (``Rules.last_trump_wins``)."""
    return _WINNERS[must_beat, last]


def _make_winner(must_beat: bool, last: bool) -> WinnerFn:
    def winner(cards: Sequence[int], trumps: Sequence[int]) -> int:
        lead = cards[0]
        led = SUIT_OF[lead]
        best = 0  # the highest card of the suit led so far (the first of equal ones)
        top = lead  # its code: within one suit, codes order the ranks
        trump_i = -1  # the winning trump-in so far
        trump_rank = -1  # the rank a trump-in must beat
        if led == trumps[0]:  # a trump lead
            if must_beat:  # it counts as a trump
                trump_i = 0
                trump_rank = RANK_OF[lead]
            else:  # no card of its suit beats it; any trump-in does
                top = 52
        i = 0  # a counter, not enumerate(): a tenth faster here, and this runs every trick
        for card in cards:
            suit = SUIT_OF[card]
            if suit == led:
                if card > top:
                    best = i
                    top = card
            elif suit == trumps[i] and RANK_OF[card] > trump_rank:  # a trump-in that counts
                trump_i = i
                if not last:  # the next one must beat it
                    trump_rank = RANK_OF[card]
            i += 1  # noqa: SIM113
        return trump_i if trump_i >= 0 else best

    return winner


_WINNERS = {(m, last): _make_winner(m, last) for m in (False, True) for last in (False, True)}


def gather(
    trick: Sequence[int],
    winner: int,
    suits: Sequence[int],
    calypso: list[int],
    completed: list[int],
    pile: list[int],
    leftovers: bool,
) -> None:
    """Sort a won trick: the winner's suit into the winner's calypso, the partner's suit into
    the partner's, everything else and every duplicate rank into the winner's pile.

    A calypso that reaches 13 ranks is completed; with ``leftovers`` one copy of each
    duplicated rank of its suit in this trick starts the next one instead of the pile.
    ``calypso`` (rank masks), ``completed`` and ``pile`` are the four seats' tallies, updated
    in place.
    """
    own = suits[winner]
    mate = own ^ 1
    partner = winner ^ 2
    mine = calypso[winner]
    theirs = calypso[partner]
    to_pile = 4
    my_dups = their_dups = 0  # ranks already there: kept in case a calypso completes
    for card in trick:
        suit = SUIT_OF[card]
        if suit == own:
            bit = BIT_OF[card]
            if mine & bit:
                my_dups |= bit
            else:
                mine |= bit
                to_pile -= 1
        elif suit == mate:
            bit = BIT_OF[card]
            if theirs & bit:
                their_dups |= bit
            else:
                theirs |= bit
                to_pile -= 1
    if mine == FULL_CALYPSO:
        completed[winner] += 1
        mine = my_dups if leftovers else 0
        to_pile -= mine.bit_count()
    if theirs == FULL_CALYPSO:
        completed[partner] += 1
        theirs = their_dups if leftovers else 0
        to_pile -= theirs.bit_count()
    calypso[winner] = mine
    calypso[partner] = theirs
    pile[winner] += to_pile


def score_parts(completed: int, in_progress: int, pile: int) -> tuple[int, int, int]:
    """A player's points from each source: the calypsos completed (the ladder), the cards of
    the calypso in progress and the cards in the pile."""
    return LADDER[completed], CARD_POINTS * in_progress, PILE_POINTS * pile


def score(completed: int, calypso: int, pile: int) -> int:
    """A player's score from the tallies (``calypso`` is the rank mask of the one in progress)."""
    return sum(score_parts(completed, calypso.bit_count(), pile))
