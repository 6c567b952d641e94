"""The search's fast paths agree with the plain code they replace, draw for draw.

The master's search must stay deterministic for a seed and its budget, and must not change
when it gets faster: each fast path below is checked against a plain version of the same
computation (the code it replaced), with the same random numbers.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import random

import pytest
from helpers import ALL_RULES

from calypso_core import GameState, Rules, new_game
from calypso_core.bots import make_bot, policy
from calypso_core.bots import search as search_module
from calypso_core.bots.knowledge import Knowledge
from calypso_core.bots.policy import COMPLETION, Value, light_card, make_rollout
from calypso_core.bots.sampler import Layout, sample_layout, sim_from_layout
from calypso_core.bots.search import (
    MasterBot,
    SearchBot,
    SearchResult,
    _explained,
    _harshest,
    _misses,
    _Race,
    _replays,
)
from calypso_core.fastsim import Sim
from calypso_core.kernel import FULL_CALYPSO, trumps_by_position


def positions(seed: int, rules: Rules = ALL_RULES[0], every: int = 5) -> list[GameState]:
    """Positions of one game between club players, every few cards, over all four deals."""
    state = new_game(seed, rules)
    bots = [make_bot("club", seat, random.Random(seat)) for seat in range(4)]
    out = []
    while not state.is_over:
        if len(state.plays) % every == 0:
            out.append(state.clone())
        seat = state.to_move
        state.play(bots[seat].choose(state.observation(seat), state.legal_moves()))
    return out


# -- the sampler ------------------------------------------------------------------------------


def plain_layout(k: Knowledge, rng: random.Random) -> Layout:
    """sample_layout(k, rng, shuffle_stock=False) as first written: each card's suit among
    those for which Hall's condition still holds, checked suit by suit over every group."""
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
            for code in drawn[i : i + k.hand_sizes[seat]]:
                hands[seat][code] += 1
                left[code] -= 1
            i += k.hand_sizes[seat]
        return Layout(hands, [code for code in range(52) for _ in range(left[code])])
    by_suit: list[list[int]] = [[], [], [], []]
    for code in range(52):
        by_suit[code // 13] += [code] * left[code]
    allowed = {s: 15 & ~k.voids[s] for s in others}
    others.sort(key=lambda s: sum(len(by_suit[x]) for x in range(4) if allowed[s] >> x & 1))
    need = {s: k.hand_sizes[s] for s in others}

    def feasible(taken: int, seats: list[int]) -> bool:
        counts = [len(cards) for cards in by_suit]
        counts[taken] -= 1
        for subset in range(1, 1 << len(seats)):
            group = [seats[j] for j in range(len(seats)) if subset >> j & 1]
            demand = sum(need[s] for s in group)
            suits = [x for x in range(4) if any(allowed[s] >> x & 1 for s in group)]
            if demand > sum(counts[x] for x in suits):
                return False
        return True

    for i, seat in enumerate(others):
        for _ in range(need[seat]):
            need[seat] -= 1
            suits = [x for x in range(4) if allowed[seat] >> x & 1 and by_suit[x]
                     and feasible(x, others[i:])]  # fmt: skip
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
    return Layout(hands, [code for code in range(52) for _ in range(left[code])])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_sampler_draws_the_layouts_of_the_plain_hall_check(seed: int) -> None:
    constrained = 0
    for state in positions(seed, every=3):
        k = Knowledge(state.observation(state.to_move))
        constrained += any(k.voids)
        for draw in range(3):
            fast = sample_layout(k, random.Random(draw), shuffle_stock=False)
            plain = plain_layout(k, random.Random(draw))
            assert (fast.hands, fast.stock) == (plain.hands, plain.stock)
    assert constrained > 10  # most positions late in a deal know of a void


# -- the playout policy -----------------------------------------------------------------------


def plain_rollout(eps: float, sim: Sim, rng: random.Random, deal: int, lead_own_from: int = 0,
                  overtake_below: int = -1) -> None:
    """make_rollout(eps) as first written: light_card and play_unchecked, card by card."""
    rnd = rng.random
    rules = sim.rules
    while sim.deal == deal:
        seat = sim.to_move
        if rnd() < eps:
            code = sim.random_card(rnd)
        else:
            hand = sim.hands_by_suit()[seat]
            code = light_card(hand, seat, sim.trick, sim.leader, sim.suits, rules.winner_fn,
                              rules.must_beat, rules.last_trump_wins, sim._calypso,
                              lead_own_from, overtake_below)  # fmt: skip
        sim.play_unchecked(code)


def same_position(a: Sim, b: Sim) -> bool:
    return (a.deal, a.leader, a.to_move, a.trick, a.scores(), a.stock) == (
        b.deal, b.leader, b.to_move, b.trick, b.scores(), b.stock
    ) and all(a.hand(seat) == b.hand(seat) for seat in range(4))  # fmt: skip


@pytest.mark.parametrize("rules", ALL_RULES, ids=str)
def test_policy_playouts_play_the_cards_of_the_plain_loop(rules: Rules) -> None:
    for state in positions(7, rules, every=11):
        if state.is_over:
            continue
        start = Sim.from_state(state)
        for seed, eps, sharper in itertools.product(range(3), (0.0, 0.1, 0.5), ((0, -1), (9, 10))):
            fast, plain = start.clone(), start.clone()
            make_rollout(eps, True, *sharper)(fast, random.Random(seed), state.deal)
            plain_rollout(eps, plain, random.Random(seed), state.deal, *sharper)
            assert same_position(fast, plain)
            assert fast.deal == state.deal + 1 or fast.is_over


# -- the inference weight ---------------------------------------------------------------------


def plain_weight(k: Knowledge, layout: Layout, miss_weight: float) -> float:
    """The master's weight of a layout as first written: the deal walked backwards with
    light_card deciding each of the others' plays from the hand held before it."""
    hands: list[list[list[int]]] = [[[] for _ in range(4)] for _ in range(4)]
    for seat in range(4):
        for code in range(52):
            hands[seat][code // 13] += [code % 13] * layout.hands[seat][code]
    rules = k.rules
    misses = 0
    for leader, cards in reversed(k.deal_tricks):
        for i in range(len(cards) - 1, -1, -1):
            seat = (leader + i) & 3
            hands[seat][cards[i] // 13].append(cards[i] % 13)
            if seat != k.seat and cards[i] != light_card(
                hands[seat], seat, cards[:i], leader, k.suits, rules.winner_fn,
                rules.must_beat, rules.last_trump_wins,
            ):  # fmt: skip
                misses += 1
    return miss_weight**misses


def test_the_inference_weight_is_that_of_the_plain_walk() -> None:
    master = make_bot("master", 0, random.Random(0))
    assert isinstance(master, SearchBot)
    weights = set()
    for state in positions(9, every=4):
        k = Knowledge(state.observation(state.to_move))
        for draw in range(2):
            layout = sample_layout(k, random.Random(draw), shuffle_stock=False)
            expected = plain_weight(k, layout, master.MISS_WEIGHT)
            assert master._weight(k, layout) == expected
            # The search takes the layout's hands from its position instead: the same lists.
            sim = sim_from_layout(k, layout)
            hands = [[ranks[:] for ranks in seat] for seat in sim.hands_by_suit()]
            assert master.MISS_WEIGHT ** _misses(k, _replays(k), hands) == expected
            weights.add(expected)
    assert len(weights) > 5  # the plays do tell layouts apart


@pytest.mark.parametrize("rules", ALL_RULES, ids=str)
def test_a_play_that_lets_a_trick_go_is_counted_where_a_legal_card_would_have_taken_it(
    rules: Rules,
) -> None:
    """On the true hands, the plays counted are the game's own: the other side winning, a
    card that does not take the trick though one of the player's legal cards would (a
    second hand that can follow suit aside); the others' other plays count as misses of the
    playout policy, as without."""
    state = new_game(4, rules)
    bots = [make_bot(level, seat, random.Random(seat)) for seat, level in enumerate(
        ("club", "random", "novice", "random"))]  # fmt: skip
    plays_let_go: list[tuple[int, int, int]] = []  # the deal, seat and place in the trick
    checked = 0
    while not state.is_over:
        seat = state.to_move
        k = Knowledge(state.observation(seat))
        if len(state.plays) % 3 == 0 and k.deal_tricks:
            true = Sim.from_state(state).hands_by_suit()
            for first in (2, 3):
                hands = [[ranks[:] for ranks in hand] for hand in true]
                misses, let_go = _explained(k, _replays(k), hands, first)
                expected = sum(1 for deal, who, place in plays_let_go
                               if deal == k.deal and who != seat and place >= first)  # fmt: skip
                assert let_go == expected
                # the other plays are weighed as before: misses of the playout policy
                hands = [[ranks[:] for ranks in hand] for hand in true]
                assert misses <= _misses(k, _replays(k), hands) <= misses + let_go
                checked += expected
        legal = state.legal_moves()
        card = bots[seat].choose(state.observation(seat), legal)
        n = len(k.trick)
        if n:
            trumps = trumps_by_position(k.suits)[k.leader]
            winning = rules.winner_fn(k.trick, trumps)
            follows = any(int(c) // 13 == k.trick[0] // 13 for c in legal)
            takes = [int(c) for c in legal if rules.winner_fn([*k.trick, int(c)], trumps) == n]
            if (n - winning) & 1 and takes and int(card) not in takes and not (n == 1 and follows):
                plays_let_go.append((k.deal, seat, n + 1))
        state.play(card)
    assert checked > 0


def test_with_a_let_go_weight_the_search_weighs_each_play_that_let_a_trick_go_by_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(MasterBot, "LET_GO_WEIGHT", 0.1)
    state = new_game(6)
    bots = [make_bot(level, seat, random.Random(seat)) for seat, level in enumerate(
        ("club", "random", "club", "random"))]  # fmt: skip
    while not (state.to_move == 0 and len(state.plays) > 30 and len(state.legal_moves()) > 1):
        seat = state.to_move
        state.play(bots[seat].choose(state.observation(seat), state.legal_moves()))
    master = MasterBot(0, random.Random(0), iterations=300, time_limit=None)
    legal = [int(card) for card in state.legal_moves()]
    result = master.search(Knowledge(state.observation(0)), legal)
    weights = {weight for weight, _ in result.samples}
    misses_only = {0.85**m for m in range(40)}
    assert weights <= {0.85**m * 0.1**d for m in range(40) for d in range(13)}
    assert weights - misses_only  # some layouts gave a player a card that would have taken a trick


# -- dropping candidates early ----------------------------------------------------------------


def test_a_card_worse_in_every_layout_is_dropped_and_a_close_noisy_one_kept() -> None:
    race = _Race([5, 7, 9])
    for i in range(20):
        noise = 100.0 if i % 2 else -100.0
        race.add(1.0, [50.0, 40.0, 50.0 + noise])  # 7 always 10 worse; 9 equal on average
    assert race.drop(3.0, 1.0) == [5, 9]


def test_cards_equal_within_the_margin_are_dropped() -> None:
    race = _Race([1, 2])
    for i in range(20):
        race.add(1.0, [30.0 + i, 30.5 + i])  # 2 leads by half a point, every time
    assert race.drop(3.0, 1.0) == [2]


def test_the_master_stops_early_in_a_clear_position_but_the_expert_does_not() -> None:
    # Late in a deal, a handful of cards and plenty of budget: the master's paired values
    # settle the choice long before its budget, the expert spends it all.
    spent: dict[str, int] = {}
    for level in ("master", "expert"):
        for state in positions(4, every=7)[5:15]:
            if len(state.legal_moves()) < 3:
                continue
            searcher = make_bot(level, state.to_move, random.Random(1), iterations=2000,
                                time_limit=None)  # fmt: skip
            assert isinstance(searcher, SearchBot)
            searcher.choose(state.observation(state.to_move), state.legal_moves())
            result = searcher.last_result
            assert result is not None and result.best in result.values
            spent[level] = spent.get(level, 0) + result.iterations
    assert spent["master"] < spent["expert"] / 2


def test_the_master_without_drops_values_every_card_in_every_layout() -> None:
    # The review compares cards layout by layout (paired_gap): it searches with drops=False,
    # and a dropped card is NaN in the layouts after its drop.
    state = positions(4, every=7)[8]
    legal = state.legal_moves()
    assert len(legal) > 2
    found = {}
    for drops in (True, False):
        searcher = make_bot("master", state.to_move, random.Random(1), iterations=2000,
                            time_limit=None, drops=drops)  # fmt: skip
        assert isinstance(searcher, SearchBot)
        searcher.choose(state.observation(state.to_move), legal)
        result = searcher.last_result
        assert result is not None and len(result.samples) == result.layouts
        found[drops] = [value for _, row in result.samples for value in row]
        assert all(len(row) == len(legal) for _, row in result.samples)
    assert any(math.isnan(value) for value in found[True])
    assert not any(math.isnan(value) for value in found[False])


class CloseMaster(MasterBot):
    """The master that goes on past its budget, up to three times it, while cards race."""

    CLOSE_BUDGET = 3.0


def test_past_its_budget_the_master_plays_on_only_the_cards_still_racing() -> None:
    # The same search as today's master up to the budget (same layouts, same values), then
    # more layouts for the cards not yet separated, never past three times the budget.
    extended = 0
    for state in positions(4, every=7)[5:15]:
        legal = state.legal_moves()
        if len(legal) < 3:
            continue
        seat = state.to_move
        found = {}
        for kind in (MasterBot, CloseMaster):
            searcher = kind(seat, random.Random(1), iterations=120, time_limit=None)
            searcher.choose(state.observation(seat), legal)
            assert searcher.last_result is not None
            found[kind] = searcher.last_result
        today, close = found[MasterBot], found[CloseMaster]
        assert close.iterations < 3 * 120 + len(legal)
        shared = len(today.samples)
        assert repr(close.samples[:shared]) == repr(today.samples)  # NaN for dropped cards
        if close.iterations > today.iterations:
            extended += 1
            assert today.iterations >= 120  # it spent its budget without settling
            racing = [i for i, v in enumerate(close.samples[shared - 1][1]) if v == v]
            assert len(racing) > 1
            for _, row in close.samples[shared:]:
                played = [i for i, v in enumerate(row) if v == v]
                assert set(played) <= set(racing) and played
        else:
            assert close.best == today.best
    assert extended >= 2


def test_the_master_playing_on_is_the_same_for_the_same_seed() -> None:
    state = positions(4, every=7)[8]
    seat = state.to_move
    found = []
    for seed in (1, 1, 2):
        searcher = CloseMaster(seat, random.Random(seed), iterations=120, time_limit=None)
        searcher.choose(state.observation(seat), state.legal_moves())
        assert searcher.last_result is not None
        found.append(repr(searcher.last_result.samples))
    assert found[0] == found[1] != found[2]


class DeepExactMaster(MasterBot):
    """The master whose exact search takes over four tricks from the end (issue 28)."""

    EXACT_TRICKS = 4


def test_four_tricks_from_the_end_the_deep_master_solves_and_today_s_plays_out() -> None:
    # Its exact search counts one iteration per card and layout plus one per 50 nodes, so it
    # spends more iterations than it plays cards; today's master (3) plays out once a card.
    # A fixed seed gives the same layouts and values, another seed others.
    states = [s for s in positions(4, every=1) if s.trick_number == 9]
    solved = 0
    for state in states[::4][:4]:
        seat, legal = state.to_move, state.legal_moves()
        if len(legal) < 2:
            continue
        found = []
        for kind, seed in ((DeepExactMaster, 1), (DeepExactMaster, 1), (DeepExactMaster, 2),
                           (MasterBot, 1)):  # fmt: skip
            searcher = kind(seat, random.Random(seed), iterations=200, time_limit=None)
            searcher.choose(state.observation(seat), legal)
            assert searcher.last_result is not None
            found.append(searcher.last_result)
        played = [sum(v == v for _, row in r.samples for v in row) for r in found]
        assert found[0].iterations > played[0] and found[3].iterations == played[3]
        assert repr(found[0].samples) == repr(found[1].samples) != repr(found[2].samples)
        solved += 1
    assert solved >= 2


def test_the_harshest_factor_that_keeps_the_effective_number_is_chosen() -> None:
    factors = (0.3, 0.5, 0.85)
    assert _harshest([2, 2, 2, 2], factors, 0.5) == 0.3  # equal misses: equal weights
    # One layout explains the plays better than three: x0.3 leaves (1.9)^2 / 1.27 = 2.8 of 4
    # layouts' effective number, x0.5 leaves 3.4.
    assert _harshest([0, 1, 1, 1], factors, 0.7) == 0.3
    assert _harshest([0, 1, 1, 1], factors, 0.8) == 0.5
    assert _harshest([0, 9, 9, 9], factors, 0.8) == 0.85  # none keeps enough: the mildest


def test_the_master_weighs_every_layout_by_the_factor_its_first_layouts_chose() -> None:
    state = positions(4, every=7)[8]
    seat = state.to_move
    k = Knowledge(state.observation(seat))
    replays = _replays(k)
    assert replays
    searcher = make_bot("master", seat, random.Random(1), iterations=400, time_limit=None)
    assert isinstance(searcher, SearchBot)
    searcher.MISS_WEIGHTS = (0.3, 0.5, 0.85)  # type: ignore[misc]  # this searcher's only
    result = searcher.search(k, [int(c) for c in state.legal_moves()])
    weights = [weight for weight, _ in result.samples]
    assert len(set(weights)) > 1
    explained = {}  # each factor whose whole powers give every weight, with the powers
    for factor in searcher.MISS_WEIGHTS:
        powers = [math.log(w) / math.log(factor) for w in weights]
        if all(p == pytest.approx(round(p)) for p in powers):
            explained[factor] = [round(p) for p in powers]
    assert len(explained) == 1
    [(factor, misses)] = explained.items()
    assert _harshest(misses[: searcher.DROP_AFTER], searcher.MISS_WEIGHTS, 0.5) == factor


# -- the clock --------------------------------------------------------------------------------


def test_without_a_clock_a_search_plays_the_same_layouts_as_before_the_look_ahead() -> None:
    # Reviews, hints at fixed budgets and every seeded test search without a clock cap: the
    # cap's look-ahead (stop before a layout that would pass it) must not move a draw. The
    # digest is of these searches by the code before it (fc3b567); a cap never reached
    # gives the same searches.
    states = [s for s in positions(4, every=11) if len(s.legal_moves()) > 1][::2]
    assert {s.trick_number for s in states} >= {0, 10, 11}  # playouts and exact search
    for time_limit in (None, 1e9):
        digest = hashlib.sha256()
        for level, drops in (("master", True), ("master", False), ("expert", False)):
            for state in states:
                seat = state.to_move
                searcher = make_bot(level, seat, random.Random(5), iterations=200,
                                    time_limit=time_limit, drops=drops)  # fmt: skip
                assert isinstance(searcher, SearchBot)
                legal = [int(c) for c in state.legal_moves()]
                r = searcher.search(Knowledge(state.observation(seat)), legal)
                digest.update(repr((r.best, r.values, r.layouts, r.iterations, r.samples)).encode())
        assert digest.hexdigest() == (
            "355de8588dc09c3ed2a784230e51ef933469787d5623bc5f5c86601cf1713fc1"
        )


class PlayoutClock:
    """A clock for ``search.time`` that moves only when a playout is played: a millisecond
    each, so a layout takes as many milliseconds as it has cards still racing."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        return self.now

    def tick(self, searcher: SearchBot) -> SearchBot:
        rollout = searcher._rollout

        def timed(sim: Sim, rng: random.Random, deal: int) -> None:
            self.now += 0.001
            rollout(sim, rng, deal)

        searcher._rollout = timed
        return searcher


CAP = 0.0505  # seconds: 50.5 playouts of the clock above, never a whole number of layouts


def clocked_positions() -> list[GameState]:
    """Positions of a club game with three or more cards to choose from, before the exact
    search's last tricks (its layouts cost no playouts, so the clock would not move)."""
    found = [s for s in positions(4, every=5) if s.trick_number < 10]
    return [s for s in found if len(s.legal_moves()) >= 3][:6]


def played(result: SearchResult) -> list[int]:
    """How many cards each layout of a search played out (NaN: dropped before it)."""
    return [sum(v == v for v in row) for _, row in result.samples]


def test_a_capped_search_stops_before_the_layout_that_would_pass_its_cap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Every card plays out in every layout (no drops): a layout costs as many milliseconds as
    # there are legal cards. The search stops at the last layout that fits under the cap, where
    # checking only after each layout overran it by up to one layout.
    clock = PlayoutClock()
    monkeypatch.setattr(search_module, "time", clock)
    for state in clocked_positions():
        seat, legal = state.to_move, state.legal_moves()
        searcher = MasterBot(seat, random.Random(1), iterations=100_000, time_limit=CAP,
                             drops=False)  # fmt: skip
        start = clock.now
        result = clock.tick(searcher).search(Knowledge(state.observation(seat)),
                                             [int(c) for c in legal])  # fmt: skip
        spent = played(result)
        assert set(spent) == {len(legal)}
        assert clock.now - start == pytest.approx(sum(spent) / 1000)
        assert sum(spent) <= 1000 * CAP < sum(spent) + len(legal)


def test_a_capped_search_is_the_uncapped_one_cut_short_however_it_is_sliced(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # With the master's drops a layout costs fewer playouts as cards drop out; the cap keeps
    # the longest one in hand. The cap only ends the search sooner (its layouts are the first
    # of the uncapped search's), and the time between slices (a worker answering other
    # requests, a second each here) is not the search's.
    clock = PlayoutClock()
    monkeypatch.setattr(search_module, "time", clock)
    cut = 0
    for state in clocked_positions():
        seat = state.to_move
        legal = [int(c) for c in state.legal_moves()]
        k = Knowledge(state.observation(seat))
        found = []
        for time_limit in (None, CAP, CAP):
            searcher = clock.tick(MasterBot(seat, random.Random(1), iterations=400,
                                            time_limit=time_limit))  # fmt: skip
            steps = searcher.search_steps(k, legal)
            while True:
                try:
                    next(steps)
                except StopIteration as stop:
                    found.append(stop.value)
                    break
                if len(found) == 2:  # the third search is sliced
                    clock.now += 1.0
        free, capped, sliced = found
        assert repr(sliced.samples) == repr(capped.samples)
        assert repr(capped.samples) == repr(free.samples[: capped.layouts])
        spent = played(capped)
        assert sum(spent) <= 1000 * CAP
        if capped.layouts < free.layouts:
            cut += 1
            assert sum(spent) + max(spent) > 1000 * CAP
    assert cut >= 3


class MasterTableMaster(MasterBot):
    COMPLETION = "master"


class LiveMaster(MasterBot):
    COMPLETION = "live"


def test_the_value_named_values_the_ends_of_the_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    # In the playouts (early in a deal) and in the exact search (its last tricks) alike.
    used = []
    for name, value in list(COMPLETION.items()):

        def recorded(sim: Sim, side: int, name: str = name, value: Value = value) -> float:
            used.append(name)
            return value(sim, side)

        monkeypatch.setitem(COMPLETION, name, recorded)
    states = positions(4, every=1)
    for state in (states[20], next(s for s in states if s.trick_number == 11)):
        kinds = ((MasterBot, "club"), (MasterTableMaster, "master"), (LiveMaster, "live"))
        for kind, name in kinds:
            used.clear()
            kind(state.to_move, random.Random(1), iterations=60, time_limit=None).choose(
                state.observation(state.to_move), state.legal_moves())
            assert used and set(used) == {name}
    # The tables differ where the masters' games did: with 3 deals left a calypso of one
    # card is completed 41% of the time by masters, 35% by club players.
    assert (policy._MASTER[3][1], policy._CLUB[3][1]) == (0.41, 0.35)


def test_an_unknown_completion_value_is_refused_by_name() -> None:
    class Misnamed(MasterBot):
        COMPLETION = "grandmaster"

    with pytest.raises(ValueError, match=r"unknown completion value 'grandmaster' \(values: "
                                         r"club, master, live\)"):  # fmt: skip
        Misnamed(0, random.Random(1))


def deal_ends(seed: int) -> list[tuple[Sim, GameState]]:
    """The ends of deals 1-3 of a club game: the position just after a deal's last card as a
    Sim (built a card earlier), and as the game state once the next deal is dealt."""
    state = new_game(seed)
    bots = [make_bot("club", seat, random.Random(seat)) for seat in range(4)]
    ends = []
    while state.deal < 3:
        seat, deal = state.to_move, state.deal
        card = bots[seat].choose(state.observation(seat), state.legal_moves())
        sim = Sim.from_state(state)
        sim.play_unchecked(int(card))
        state.play(card)
        if state.deal != deal:
            ends.append((sim, state.clone()))
    return ends


def copies_left(state: GameState, seat: int) -> list[int]:
    """For each rank the seat's calypso in progress needs, its copies in the hands and the
    stock (every card not yet played)."""
    unplayed = [int(card) for card in state.unseen_stock()]
    for other in range(4):
        unplayed += [int(card) for card in state.hand(other)]
    held = {card.rank for card in state.calypso(seat)}
    suit = state.suits[seat]
    return [unplayed.count(int(suit) * 13 + rank) for rank in range(13) if rank not in held]


def test_a_calypso_that_needs_a_rank_with_no_copy_left_has_no_chance() -> None:
    dead = 0
    for seed in range(3):
        for sim, state in deal_ends(seed):
            for seat in range(4):
                if 0 in copies_left(state, seat):
                    dead += 1
                    assert policy.live_chance(sim, seat) == 0.0
                else:
                    assert policy.live_chance(sim, seat) > 0.0
    assert dead >= 5


def test_each_needed_rank_with_a_single_copy_left_multiplies_the_chance_by_a_factor() -> None:
    singles = set()
    for seed in range(3):
        for sim, state in deal_ends(seed):
            base, factor = policy._LIVE_FIT[3 - state.deal]  # 4 - deal deals left, from 1
            for seat in range(4):
                copies = copies_left(state, seat)
                if 0 not in copies:
                    singles.add(copies.count(1))
                    n = len(state.calypso(seat))
                    assert policy.live_chance(sim, seat) == pytest.approx(
                        base[n] * factor ** copies.count(1))
    assert {0, 1, 2} <= singles  # the factor was put to the test
    # Fitted in club self-play: a single copy weighs more the fewer deals are left to find it.
    assert [factor for _, factor in policy._LIVE_FIT] == [0.74, 0.71, 0.62]


def test_with_no_stock_left_every_rank_is_gone() -> None:
    assert policy._stock_masks(()) == ((FULL_CALYPSO,) * 4, (0,) * 4)
    # One copy of the two of spades and two of its three: the rest of spades and every other
    # suit are gone.
    gone, single = policy._stock_masks((0, 1, 1))
    assert (gone[0], single[0]) == (FULL_CALYPSO ^ 0b11, 0b1) and gone[1:] == (FULL_CALYPSO,) * 3


class FarSightedMaster(MasterBot):
    HORIZON = 2


def test_a_horizon_of_two_deals_plays_the_next_deal_out_and_counts_what_it_costs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ends = []

    def recorded(sim: Sim, side: int, value: Value = COMPLETION["club"]) -> float:
        ends.append(sim.deal)
        return value(sim, side)

    monkeypatch.setitem(COMPLETION, "club", recorded)
    states = positions(4, every=1)
    for deal, trick in ((0, 0), (0, 8), (3, 0)):
        state = next(s for s in states if s.deal == deal and s.trick_number == trick)
        for kind, after in ((MasterBot, deal + 1), (FarSightedMaster, min(deal + 2, 4))):
            ends.clear()
            bot = kind(state.to_move, random.Random(1), iterations=60, time_limit=None)
            bot.choose(state.observation(state.to_move), state.legal_moves())
            assert ends and set(ends) == {after}  # the deal whose end is valued
            # The next deal's 13 tricks cost 1 playout of this deal's tricks left each: a
            # layout of n candidate cards counts 2n with all 13 left, 4n with 5 left.
            result = bot.last_result
            assert result is not None
            cost = 1 if after == deal + 1 else round(1 + 13 / (13 - trick))
            assert result.iterations == cost * sum(
                sum(1 for v in row if not math.isnan(v)) for _, row in result.samples)
