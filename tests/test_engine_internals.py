"""The engine's inlined fast paths agree with the plain code they replace."""

from __future__ import annotations

import random

import pytest
from helpers import ALL_RULES
from refmodel import Options, winner_of_trick

from calypso_core import Rules, new_game
from calypso_core.cards import CARDS


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
def test_every_trick_winner_agrees_with_the_reference_model(rules: Rules) -> None:
    options = Options(**rules.to_dict())
    for game in range(4):
        rng = random.Random(game)
        state = new_game(500 + game, rules)
        while not state.is_over:
            state.play(rng.choice(state.legal_moves()))
        for trick in state.tricks:
            cards = [str(card) for card in trick.cards]
            trumps = [str(state.suits[(trick.leader + i) % 4]) for i in range(4)]
            assert (trick.leader + winner_of_trick(cards, trumps, options)) % 4 == trick.winner
