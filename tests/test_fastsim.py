"""The fast playout core agrees with GameState, move by move, under every rule option."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from helpers import ALL_RULES
from refmodel import Options, ReferenceGame

from calypso_core import GameState, Rules, new_game, parse_cards
from calypso_core.cards import CARDS
from calypso_core.fastsim import Sim

GAMES_PER_RULES = 10


def rules_id(rules: Rules) -> str:
    return "".join(k[0] if v else "-" for k, v in rules.to_dict().items())


def assert_same_position(state: GameState, sim: Sim) -> None:
    assert sim.deal == state.deal
    assert sim.is_over == state.is_over
    assert sim.scores() == state.scores()
    assert sim.partnership_scores() == state.partnership_scores()
    for seat in range(4):
        assert sim.completed(seat) == state.completed(seat)
        assert sim.pile(seat) == state.pile(seat)
        calypso = [int(c) % 13 for c in state.calypso(seat)]
        assert sim.calypso(seat) == sum(1 << r for r in calypso)
    if not state.is_over:
        assert sim.to_move == state.to_move
        assert sim.leader == state.leader
        assert sim.dealer == state.dealer
        assert sim.trick == [int(c) for c in state.trick]
        assert sim.legal() == [int(c) for c in state.legal_moves()]
        assert sim.stock == tuple(int(c) for c in state.unseen_stock())
        for seat in range(4):
            assert sim.hand(seat) == [int(c) for c in state.hand(seat)]
            assert sim.hand_size(seat) == state.hand_size(seat)


def replay(state: GameState, moves: list[int]) -> GameState:
    """The state after playing ``moves`` through the checked public API."""
    state = state.clone()
    for code in moves:
        state.play(state.legal_moves()[[int(c) for c in state.legal_moves()].index(code)])
    return state


@pytest.mark.parametrize("rules", ALL_RULES, ids=rules_id)
def test_sim_follows_game_state_move_by_move(rules: Rules) -> None:
    completions = 0
    for game in range(GAMES_PER_RULES):
        rng = random.Random(game)
        state = new_game(1000 + game, rules)
        sim = Sim.from_state(state)
        assert_same_position(state, sim)
        while not state.is_over:
            legal = sim.legal()
            assert legal == [int(c) for c in state.legal_moves()]
            assert sim.to_move == state.to_move
            code = rng.choice(legal)
            state.play(state.legal_moves()[legal.index(code)])
            sim.play_unchecked(code)
            if not state.trick:
                assert_same_position(state, sim)
        assert_same_position(state, sim)
        completions += sum(state.completed(seat) for seat in range(4))
    assert completions > 0  # the random games do exercise completing calypsos


@pytest.mark.parametrize("rules", ALL_RULES, ids=rules_id)
def test_random_playout_matches_replay_through_game_state(rules: Rules) -> None:
    rng = random.Random(7)
    completions = 0
    for game in range(GAMES_PER_RULES):
        state = new_game(2000 + game, rules)
        stops = sorted(rng.sample(range(208), 6))
        played = 0
        for stop in stops:
            while played < stop:
                state.play(rng.choice(state.legal_moves()))
                played += 1
            for until_end_of_deal in (False, True):
                sim = Sim.from_state(state)
                moves: list[int] = []
                sim.random_playout(rng, until_end_of_deal, moves)
                expected = replay(state, moves)
                if until_end_of_deal:
                    assert expected.deal == state.deal + 1
                    assert expected.plays and len(expected.plays) % 52 == 0
                assert_same_position(expected, sim)
                completions += sum(sim.completed(seat) - state.completed(seat) for seat in range(4))
    assert completions > 0  # the fast loop did complete calypsos


def test_from_parts_rebuilds_the_position() -> None:
    state = new_game(11)
    for _ in range(70):
        state.play(state.legal_moves()[0])
    parts = Sim.from_parts(
        state.rules,
        state.suits,
        state.first_dealer,
        state.deal,
        state.leader,
        state.to_move,
        [int(c) for c in state.trick],
        [_counts(state, seat) for seat in range(4)],
        [int(c) for c in state.unseen_stock()],
        [Sim.from_state(state).calypso(seat) for seat in range(4)],
        [state.completed(seat) for seat in range(4)],
        [state.pile(seat) for seat in range(4)],
    )
    assert_same_position(state, parts)


def _counts(state: GameState, seat: int) -> list[int]:
    counts = [0] * 52
    for card in state.hand(seat):
        counts[card] += 1
    return counts


def test_clone_is_equal_but_independent() -> None:
    state = new_game(5)
    for _ in range(30):
        state.play(state.legal_moves()[0])
    sim = Sim.from_state(state)
    copy = sim.clone()
    copy.random_playout(random.Random(1))
    assert copy.is_over
    assert_same_position(state, sim)


def test_random_playout_stops_at_the_end_of_the_deal_and_deals_on_demand() -> None:
    state = new_game(9)
    sim = Sim.from_state(state)
    sim.random_playout(random.Random(2), until_end_of_deal=True)
    assert sim.deal == 1
    assert sim.tricks_left == 13
    assert sim.to_move == sim.leader == (state.first_dealer + 2) % 4
    assert [sim.hand_size(seat) for seat in range(4)] == [13, 13, 13, 13]
    assert len(sim.stock) == 104


def test_random_card_is_uniform_over_physical_cards() -> None:
    # A hand of 7S twice and 2H once, leading: 7S should come up about two times in three.
    hands = [counts("7S 7S 2H"), [0] * 52, [0] * 52, [0] * 52]
    sim = Sim.from_parts(
        Rules(), (0, 2, 1, 3), 3, 3, 0, 0, [], hands, [], [0] * 4, [0] * 4, [0] * 4
    )
    rnd = random.Random(4).random
    draws = [sim.random_card(rnd) for _ in range(3000)]
    assert set(draws) == {5, 13}
    assert 1850 < draws.count(5) < 2150


def counts(cards: str) -> list[int]:
    result = [0] * 52
    for card in parse_cards(cards):
        result[card] += 1
    return result


@pytest.mark.parametrize("all_fours", [False, True])
def test_random_playout_draws_uniformly_over_physical_cards(all_fours: bool) -> None:
    # North (spades) leads from 5S 5S KH; East (diamonds) holds 7S 7S 9S; South (hearts) is
    # void in spades with 2D 2D 4C; West (clubs) holds 8S 3C 3C. A card held twice should
    # come up twice as often as one held once; under All Fours West's own clubs are pooled
    # with his spade.
    hands = [counts("5S 5S KH"), counts("7S 7S 9S"), counts("2D 2D 4C"), counts("8S 3C 3C")]
    sim = Sim.from_parts(
        Rules(all_fours=all_fours), (0, 2, 1, 3), 3, 3, 0, 0, [], hands, [], [0] * 4, [0] * 4,
        [0] * 4,
    )  # fmt: skip
    rng = random.Random(5)
    firsts = []
    for _ in range(3000):
        moves: list[int] = []
        sim.clone().random_playout(rng, moves=moves)
        firsts.append(tuple(str(CARDS[code]) for code in moves[:4]))
    spade_leads = [trick for trick in firsts if trick[0] == "5S"]
    assert 1850 < len(spade_leads) < 2150
    n = len(spade_leads)
    east = [trick[1] for trick in spade_leads]
    south = [trick[2] for trick in spade_leads]
    west = [trick[3] for trick in spade_leads]
    assert set(east) == {"7S", "9S"} and 0.6 * n < east.count("7S") < 0.73 * n
    assert set(south) == {"2D", "4C"} and 0.6 * n < south.count("2D") < 0.73 * n
    if all_fours:
        assert set(west) == {"8S", "3C"} and 0.6 * n < west.count("3C") < 0.73 * n
    else:
        assert set(west) == {"8S"}


def test_clones_share_the_split_stock_without_changing_it() -> None:
    state = new_game(21)
    for _ in range(9):
        state.play(state.legal_moves()[0])
    sim = Sim.from_state(state)
    rng = random.Random(8)
    for _ in range(3):
        moves: list[int] = []
        copy = sim.clone()
        copy.random_playout(rng, moves=moves)
        assert_same_position(replay(state, moves), copy)
    assert_same_position(state, sim)


@pytest.mark.parametrize("rules", ALL_RULES, ids=rules_id)
def test_random_playout_matches_the_reference_model(rules: Rules) -> None:
    # random_playout carries the one inlined copy of the kernel's trick winner and gather:
    # checked here against the plain model of the rules (refmodel.py), trick by trick, and
    # over enough games that calypsos complete with duplicates (the leftovers rule).
    rng = random.Random(11)
    events: Counter[str] = Counter()
    for game in range(GAMES_PER_RULES):
        state = new_game(3000 + game, rules)
        for _ in range(rng.randrange(208)):
            state.play(rng.choice(state.legal_moves()))
        model = ReferenceGame(
            [str(c) for c in state.deck], [str(s) for s in state.suits], state.first_dealer,
            Options(**rules.to_dict()),
        )  # fmt: skip
        for card in state.plays:
            model.play(str(card))
        sim = Sim.from_state(state)
        moves: list[int] = []
        sim.random_playout(rng, moves=moves)
        for code in moves:
            trick = model.play(str(CARDS[code]))
            if trick is not None:
                events["tricks"] += 1
                events["trump-ins"] += any(
                    card[1] == model.players[(trick[1] + i) % 4].suit != trick[2][0][1]
                    for i, card in enumerate(trick[2])
                )
        assert sim.is_over and model.is_over
        for seat in range(4):
            player = model.players[seat]
            assert sim.completed(seat) == player.completed
            ranks = player.in_progress
            assert sim.calypso(seat) == sum(1 << "23456789TJQKA".index(r) for r in ranks)
            assert sim.pile(seat) == player.pile
            assert sim.score(seat) == player.score()
        events.update(model.events)
    assert events["trump-ins"] > 0 and events["calypso completed"] > 0
    assert events["calypso completed with duplicates"] > 0
