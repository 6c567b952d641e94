"""The engine's inlined fast paths agree with the plain code they replace."""

from __future__ import annotations

import itertools
import random

import pytest

from calypso_core import Rules, new_game
from calypso_core.cards import CARDS

ALL_RULES = [Rules(*options) for options in itertools.product((False, True), repeat=4)]


@pytest.mark.parametrize("seed", [*range(300), "a seed", 2**70])
def test_new_game_shuffles_exactly_as_random_shuffle_does(seed: int | str) -> None:
    # new_game inlines Random.shuffle; a seed must keep giving the deck it always gave.
    rng = random.Random(seed)
    rng.randrange(8)  # the seating
    rng.randrange(4)  # the first dealer
    deck = [CARDS[code] for code in range(52) for _ in range(4)]
    rng.shuffle(deck)
    assert list(new_game(seed).deck) == deck


@pytest.mark.parametrize("rules", ALL_RULES, ids=str)
def test_every_trick_winner_agrees_with_rules_winner_fn(rules: Rules) -> None:
    winner_fn = rules.winner_fn
    for game in range(4):
        rng = random.Random(game)
        state = new_game(500 + game, rules)
        while not state.is_over:
            state.play(rng.choice(state.legal_moves()))
        for trick in state.tricks:
            trumps = [state.suits[(trick.leader + i) % 4] for i in range(4)]
            assert (trick.leader + winner_fn(trick.cards, trumps)) % 4 == trick.winner


def test_legal_codes_is_legal_moves() -> None:
    state = new_game(1)
    for _ in range(50):
        assert state.legal_codes() == state.legal_moves()
        state.play(state.legal_moves()[-1])
