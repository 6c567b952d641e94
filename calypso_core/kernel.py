"""The rules on integer cards, each written once: ``GameState`` and the playout ``Sim`` share them.

A card is a code 0-51, ``suit * 13 + rank`` (rank 0 the two, 12 the ace; suits S H D C are
0-3 and ``suit ^ 1`` is the pair-mate); seats are 0-3 clockwise and ``seat ^ 2`` is the
partner; a calypso in progress is a 13-bit mask of the ranks it holds. Nothing here checks
its input: callers pass codes they know to be valid.

- ``lead_key`` and ``follow_key``: who wins a trick (docs/rules.md#who-wins-a-trick), as a
  key for each card: the first card with the highest key wins; ``winner_fn(must_beat, last)``
  compares the keys of 1-4 cards;
- ``gather``: a won trick into calypsos and the pile (docs/rules.md#building-calypsos);
- ``settle_fn``: both for a full trick, as ``GameState`` and ``Sim`` settle each trick;
- ``score`` and ``score_parts``: a player's points (docs/rules.md#scoring).

The keys are tabulated once per option set (and per seating for ``settle_fn``), so that a
trick's winner is a few lookups. ``Sim.random_playout`` carries the one inlined copy of the
winner rule and ``gather`` (marked there); tests/test_fastsim.py checks it against
``GameState`` move by move, and tests/test_kernel.py checks the keys against a plain model.
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
# A settle function takes a full trick (four codes), its leader's seat and the four seats'
# tallies (calypso masks, calypsos completed, pile counts); it gathers the trick into the
# tallies and returns the winner's seat.
Settle = Callable[[Sequence[int], int, list[int], list[int], list[int]], int]

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


# -- who wins a trick ------------------------------------------------------------------------
#
# The rule (docs/rules.md#who-wins-a-trick) as a ranking: every card of a trick gets a key,
# and the first card with the highest key wins. The keys of one trick compare as follows.
NO_KEY: Final = -1  # a discard, or a trump-in too low to count: it never wins
# 0-12: a card of the suit led, by rank (the lead included, unless it is a trump lead).
UNBEATEN_LEAD: Final = 13  # a trump lead that a trump-in need not beat: no follow beats it
TRUMP: Final = 14  # 14 + rank: a trump-in, or a trump lead that a trump-in must beat
LAST_TRUMP: Final = 30  # 30 + position: a trump-in when the last one wins


def lead_key(lead: int, leader_suit: int, must_beat: bool) -> int:
    """The key of a trick's first card, played by the owner of ``leader_suit``."""
    rank = RANK_OF[lead]
    if SUIT_OF[lead] != leader_suit:
        return rank
    return TRUMP + rank if must_beat else UNBEATEN_LEAD  # a trump lead


def trump_bar(lead: int, leader_suit: int, must_beat: bool) -> int:
    """The rank a trump-in must beat to count when the last trump-in wins: a trump lead's own
    under ``must_beat``, else none (-1)."""
    return RANK_OF[lead] if must_beat and SUIT_OF[lead] == leader_suit else -1


def follow_key(card: int, position: int, suit: int, led: int, bar: int, last: bool) -> int:
    """The key of the card at ``position`` (1-3) of a trick led in suit ``led``, played by the
    owner of ``suit``; ``bar`` and ``last`` as in ``trump_bar`` and ``winner_fn``."""
    played = SUIT_OF[card]
    if played == led:
        return RANK_OF[card]
    if played != suit:
        return NO_KEY
    # A trump-in: it beats lower trumps (and an equal one played first keeps the trick), or,
    # when the last trump-in wins, every trump-in before it that cleared the bar.
    if not last:
        return TRUMP + RANK_OF[card]
    return LAST_TRUMP + position if RANK_OF[card] > bar else NO_KEY


_Row = tuple[int, ...]
# [leader_suit][lead]: the lead's key, and for positions 1-3 the keys of every card by the
# suit of the player at that position (``row[suit * 52 + card]``).
KeyTable = tuple[tuple[tuple[int, tuple[_Row, _Row, _Row]], ...], ...]
_KEYS: dict[tuple[bool, bool], KeyTable] = {}


def key_table(must_beat: bool, last: bool) -> KeyTable:
    """Every key of ``lead_key`` and ``follow_key`` for these options, worked out on first use:
    ``[leader_suit][lead]`` gives the lead's key and the rows of positions 1-3, in which the
    card played by the owner of ``suit`` has the key ``row[suit * 52 + card]``."""
    table = _KEYS.get((must_beat, last))
    if table is not None:
        return table
    rows: dict[tuple[int, int, int], _Row] = {}

    def row(position: int, led: int, bar: int) -> _Row:
        if not last:  # then a follow's key depends on neither
            position, bar = 1, -1
        found = rows.get((position, led, bar))
        if found is None:
            found = rows[position, led, bar] = tuple(
                follow_key(card, position, suit, led, bar, last)
                for suit in range(4)
                for card in range(52)
            )
        return found

    table = _KEYS[must_beat, last] = tuple(
        tuple(
            (
                lead_key(lead, leader_suit, must_beat),
                (
                    row(1, SUIT_OF[lead], trump_bar(lead, leader_suit, must_beat)),
                    row(2, SUIT_OF[lead], trump_bar(lead, leader_suit, must_beat)),
                    row(3, SUIT_OF[lead], trump_bar(lead, leader_suit, must_beat)),
                ),
            )
            for lead in range(52)
        )
        for leader_suit in range(4)
    )
    return table


_WINNERS: dict[tuple[bool, bool], WinnerFn] = {}


def winner_fn(must_beat: bool, last: bool) -> WinnerFn:
    """The trick-winner rule for the options: ``must_beat``, a trump lead counts as a trump
    that a trump-in must beat (``Rules.must_beat``); ``last``, the last trump-in wins rather
    than the highest (``Rules.last_trump_wins``)."""
    winner = _WINNERS.get((must_beat, last))
    if winner is None:
        winner = _WINNERS[must_beat, last] = _make_winner(key_table(must_beat, last))
    return winner


def _make_winner(table: KeyTable) -> WinnerFn:
    def winner(cards: Sequence[int], trumps: Sequence[int]) -> int:
        best, rows = table[trumps[0]][cards[0]]
        won = 0
        for i in range(1, len(cards)):
            key = rows[i - 1][trumps[i] * 52 + cards[i]]
            if key > best:
                best = key
                won = i
        return won

    return winner


# -- gathering a won trick -------------------------------------------------------------------


def side_bits(suits: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """``[winner][card]``: where a card of a trick goes when ``winner`` takes it: bit r for
    rank r of the winner's suit, bit 13 + r for rank r of the partner's, 0 (the pile) for
    the opponents' suits. ``suits`` are the personal suits by seat."""
    return tuple(
        tuple(
            BIT_OF[card] if SUIT_OF[card] == suits[winner]
            else BIT_OF[card] << 13 if SUIT_OF[card] == suits[winner] ^ 1
            else 0
            for card in range(52)
        )
        for winner in range(4)
    )  # fmt: skip


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
    in place; ``suits`` are the personal suits by seat.
    """
    _gather(side_bits(suits)[winner], trick, winner, calypso, completed, pile, leftovers)


def _gather(
    bits: Sequence[int],
    trick: Sequence[int],
    winner: int,
    calypso: list[int],
    completed: list[int],
    pile: list[int],
    leftovers: bool,
) -> None:
    """``gather`` with the winner's row of ``side_bits``: the side's two calypsos side by side
    in one 26-bit mask, the winner's in the low 13 bits."""
    c0, c1, c2, c3 = trick
    seen = bits[c0] | bits[c1] | bits[c2] | bits[c3]
    if seen:
        partner = winner ^ 2
        before = calypso[winner] | calypso[partner] << 13
        joined = seen & ~before  # one copy of each rank the calypsos lacked
        if joined:
            after = before | joined
            mine = after & FULL_CALYPSO
            theirs = after >> 13
            to_pile = 4 - joined.bit_count()
            if mine == FULL_CALYPSO or theirs == FULL_CALYPSO:
                # The ranks of the trick that went to the pile: those the calypso had
                # already, and second copies within the trick.
                b0, b1, b2 = bits[c0], bits[c1], bits[c2]
                dups = seen & before | b0 & b1 | (b0 | b1) & b2 | (b0 | b1 | b2) & bits[c3]
                if mine == FULL_CALYPSO:
                    completed[winner] += 1
                    mine = dups & FULL_CALYPSO if leftovers else 0
                    to_pile -= mine.bit_count()
                if theirs == FULL_CALYPSO:
                    completed[partner] += 1
                    theirs = dups >> 13 if leftovers else 0
                    to_pile -= theirs.bit_count()
            calypso[winner] = mine
            calypso[partner] = theirs
            pile[winner] += to_pile
            return
    pile[winner] += 4  # nothing of the side's suits that its calypsos lacked


_SETTLES: dict[tuple[bool, bool, bool, tuple[int, ...]], Settle] = {}


def settle_fn(must_beat: bool, last: bool, leftovers: bool, suits: Sequence[int]) -> Settle:
    """The function that settles a full trick for these options and personal suits: it finds
    the winner by ``winner_fn``'s keys (compared unrolled for four cards), gathers the trick
    (``gather``) and returns the winner's seat. Built once per options and seating."""
    key = (must_beat, last, leftovers, tuple(int(suit) for suit in suits))
    settle = _SETTLES.get(key)
    if settle is None:
        settle = _SETTLES[key] = _make_settle(must_beat, last, leftovers, key[3])
    return settle


def _make_settle(must_beat: bool, last: bool, leftovers: bool, suits: tuple[int, ...]) -> Settle:
    table = key_table(must_beat, last)
    # keys[leader][lead]: the lead's key and the keys of positions 1-3, by card. The rows are
    # shared (a few dozen), so that the whole stays small enough to stay in the CPU's caches.
    parts: dict[tuple[int, int], _Row] = {}

    def part(row: _Row, suit: int) -> _Row:
        found = parts.get((id(row), suit))
        if found is None:
            found = parts[id(row), suit] = row[suit * 52 : suit * 52 + 52]
        return found

    keys = tuple(
        tuple(
            (key, part(rows[0], trumps[1]), part(rows[1], trumps[2]), part(rows[2], trumps[3]))
            for key, rows in table[trumps[0]]
        )
        for trumps in trumps_by_position(suits)
    )
    sides = side_bits(suits)

    def settle(
        trick: Sequence[int], leader: int, calypso: list[int], completed: list[int],
        pile: list[int],
    ) -> int:  # fmt: skip
        c0, c1, c2, c3 = trick
        best, k1, k2, k3 = keys[leader][c0]
        won = 0
        key = k1[c1]
        if key > best:
            best = key
            won = 1
        key = k2[c2]
        if key > best:
            best = key
            won = 2
        if k3[c3] > best:
            won = 3
        winner = (leader + won) & 3
        _gather(sides[winner], trick, winner, calypso, completed, pile, leftovers)
        return winner

    return settle


def score_parts(completed: int, in_progress: int, pile: int) -> tuple[int, int, int]:
    """A player's points from each source: the calypsos completed (the ladder), the cards of
    the calypso in progress and the cards in the pile."""
    return LADDER[completed], CARD_POINTS * in_progress, PILE_POINTS * pile


def score(completed: int, calypso: int, pile: int) -> int:
    """A player's score from the tallies (``calypso`` is the rank mask of the one in progress)."""
    return sum(score_parts(completed, calypso.bit_count(), pile))
