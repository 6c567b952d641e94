"""The rules kernel on integer cards: flags derived from Rules, gathering a won trick, the score.

GameState and Sim both settle every trick with these functions (their agreement with the
plain reference model is in test_invariants.py and test_fastsim.py); here each rule is
checked on its own, from card notation.
"""

from __future__ import annotations

import random

import pytest
from helpers import ALL_RULES
from refmodel import Options, winner_of_trick

from calypso_core import Rules, parse_cards
from calypso_core.cards import CARDS, SUIT_LETTERS
from calypso_core.kernel import (
    BIT_OF,
    FULL_CALYPSO,
    LADDER,
    RANK_OF,
    SUIT_OF,
    gather,
    score,
    score_parts,
    settle_fn,
    trumps_by_position,
    winner_fn,
)

# N ♠, E ♣, S ♥, W ♦ (North-South hold the majors), as in the rules' worked examples.
SUITS = (0, 3, 1, 2)
NORTH, EAST, SOUTH, WEST = range(4)


def codes(text: str) -> list[int]:
    return [int(card) for card in parse_cards(text)]


def mask(ranks: str) -> int:
    """The calypso mask of rank letters, such as "23456789TJQK"."""
    return sum(BIT_OF[code] for code in codes(" ".join(rank + "S" for rank in ranks)))


class Tallies:
    """The four seats' calypsos in progress, completed calypsos and piles."""

    def __init__(self, calypso: list[int] | None = None) -> None:
        self.calypso = calypso or [0, 0, 0, 0]
        self.completed = [0, 0, 0, 0]
        self.pile = [0, 0, 0, 0]

    def gather(self, trick: str, winner: int, leftovers: bool = True) -> None:
        gather(codes(trick), winner, SUITS, self.calypso, self.completed, self.pile, leftovers)


@pytest.mark.parametrize("rules", ALL_RULES, ids=str)
def test_the_rule_flags_are_derived_from_the_options(rules: Rules) -> None:
    # All Fours makes a trump lead a trump to beat, and overrides "last trump-in wins".
    assert rules.must_beat == (rules.lead_trump_must_be_beaten or rules.all_fours)
    assert rules.last_trump_wins == (rules.last_trump_in_wins and not rules.all_fours)
    assert rules.winner_fn is winner_fn(rules.must_beat, rules.last_trump_wins)


def test_tables_by_code() -> None:
    queen_of_hearts = codes("QH")[0]
    assert (SUIT_OF[queen_of_hearts], RANK_OF[queen_of_hearts]) == (1, 10)
    assert BIT_OF[queen_of_hearts] == 1 << 10
    assert mask("23456789TJQKA") == FULL_CALYPSO


def test_trumps_by_position_start_with_the_leader() -> None:
    table = trumps_by_position(SUITS)
    assert table[NORTH] == (0, 3, 1, 2)
    assert table[WEST] == (2, 0, 3, 1)
    assert trumps_by_position(list(SUITS)) is table  # worked out once per seating


def test_the_winners_suit_joins_the_winners_calypso() -> None:
    tallies = Tallies()
    tallies.gather("6S 5S TS KS", NORTH)
    assert tallies.calypso == [mask("56TK"), 0, 0, 0]
    assert tallies.pile == [0, 0, 0, 0]


def test_the_partners_suit_joins_the_partners_calypso_and_the_rest_the_winners_pile() -> None:
    tallies = Tallies()
    tallies.gather("9H 2C AH 3D", NORTH)
    assert tallies.calypso == [0, 0, mask("9A"), 0]
    assert tallies.pile == [2, 0, 0, 0]


def test_nothing_joins_the_other_sides_calypsos() -> None:
    tallies = Tallies()
    tallies.gather("QC QC 5C 8D", NORTH)
    assert tallies.calypso == [0, 0, 0, 0]
    assert tallies.pile == [4, 0, 0, 0]


def test_a_rank_the_calypso_already_has_goes_to_the_pile() -> None:
    tallies = Tallies([mask("6"), 0, 0, 0])
    tallies.gather("6S 6S 7S 2D", NORTH)
    assert tallies.calypso[NORTH] == mask("67")
    assert tallies.pile[NORTH] == 3


@pytest.mark.parametrize("leftovers", [True, False])
def test_completing_a_calypso_with_duplicates(leftovers: bool) -> None:
    # North holds every rank but the ace; the trick brings the ace, a second king, and two
    # copies of the two: with leftovers one king and one two start the next calypso.
    tallies = Tallies([mask("23456789TJQK"), 0, 0, 0])
    tallies.gather("AS KS 2S 2S", NORTH, leftovers)
    assert tallies.completed[NORTH] == 1
    if leftovers:
        assert tallies.calypso[NORTH] == mask("2K")
        assert tallies.pile[NORTH] == 1  # the second copy of the two
    else:
        assert tallies.calypso[NORTH] == 0
        assert tallies.pile[NORTH] == 3


def test_both_calypsos_of_a_side_can_complete_in_one_trick() -> None:
    tallies = Tallies([mask("23456789TJQK"), 0, mask("23456789TJQK"), 0])
    tallies.gather("AS AH KH 5C", SOUTH)
    assert tallies.completed == [1, 0, 1, 0]
    assert tallies.calypso == [0, 0, mask("K"), 0]  # South's second king starts the next
    assert tallies.pile == [0, 0, 1, 0]


def test_the_score_is_the_ladder_plus_20_a_calypso_card_plus_10_a_pile_card() -> None:
    assert LADDER == (0, 500, 1250, 2250, 3250)  # 500, 750, 1000, 1000
    assert score_parts(1, 5, 34) == (500, 100, 340)
    assert score(1, mask("23456"), 34) == 940
    assert score(4, 0, 0) == 3250
    assert score(0, FULL_CALYPSO ^ BIT_OF[12], 0) == 240


# -- the winner keys and the settle function, against the reference model ----------------------

SEATINGS = [(0, 3, 1, 2), (2, 1, 3, 0), (1, 2, 0, 3)]


def random_trick(rng: random.Random, suits: tuple[int, ...], leader: int, size: int) -> list[int]:
    """1-4 cards, mostly of the suit led or of the players' own suits (trump-ins), with repeats."""
    led = rng.randrange(4)
    cards = []
    for i in range(size):
        suit = rng.choice((led, led, suits[(leader + i) & 3], rng.randrange(4)))
        cards.append(suit * 13 + rng.choice((rng.randrange(13), rng.randrange(10, 13))))
    return cards


@pytest.mark.parametrize("rules", ALL_RULES, ids=str)
def test_the_winner_of_every_partial_trick_agrees_with_the_reference_model(rules: Rules) -> None:
    rng = random.Random(5)
    winner = rules.winner_fn
    for _ in range(3000):
        suits = rng.choice(SEATINGS)
        leader = rng.randrange(4)
        trick = random_trick(rng, suits, leader, rng.randrange(1, 5))
        trumps = trumps_by_position(suits)[leader][: len(trick)]
        expected = winner_of_trick([str(CARDS[c]) for c in trick],
                                   [SUIT_LETTERS[s] for s in trumps], Options(**rules.to_dict()))
        assert winner(trick, trumps) == expected, (trick, trumps)  # fmt: skip


@pytest.mark.parametrize("rules", ALL_RULES, ids=str)
def test_settle_is_the_winner_rule_then_gather(rules: Rules) -> None:
    rng = random.Random(6)
    leftovers = rules.leftovers_start_next_calypso
    for _ in range(3000):
        suits = rng.choice(SEATINGS)
        settle = settle_fn(rules.must_beat, rules.last_trump_wins, leftovers, suits)
        leader = rng.randrange(4)
        trick = random_trick(rng, suits, leader, 4)
        # Calypsos from empty to one rank short, so that some tricks complete one.
        short = [FULL_CALYPSO & ~(1 << rng.randrange(13)) for _ in range(4)]
        calypso = [mask & rng.choice((0, -1, rng.getrandbits(13))) for mask in short]
        expected = Tallies(calypso[:])
        winner = (leader + rules.winner_fn(trick, trumps_by_position(suits)[leader])) & 3
        gather(trick, winner, suits, expected.calypso, expected.completed, expected.pile, leftovers)
        got = Tallies(calypso[:])
        assert settle(trick, leader, got.calypso, got.completed, got.pile) == winner
        assert (got.calypso, got.completed, got.pile) == (
            expected.calypso, expected.completed, expected.pile)
