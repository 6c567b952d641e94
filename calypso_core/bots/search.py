"""Search bots: determinized playouts (expert), with inference (master), and the cheater.

Each iteration samples one layout of the hidden cards from the seat's knowledge (never
the true cards), then plays every candidate card in it and values the result by a
playout to the end of the deal with the same random numbers for every candidate. Near the
end of a deal the playout is replaced by an exact search of the remaining tricks. The
master also weights each layout by how well it explains the cards the others played this
deal (a player who did not trump in probably could not). The cheater runs the master's
search on the true layout, as a yardstick.
"""

from __future__ import annotations

import random
import time
from typing import Any, ClassVar

from ..fastsim import Sim
from ..game import GameState
from .base import SEARCH_SETTINGS, Bot, Check
from .knowledge import Knowledge
from .policy import evaluate, light_card, make_rollout
from .sampler import Layout, sample_layout, sim_from_layout


class SearchResult:
    """What a search found: the card, each candidate's mean value and the effort spent.

    ``samples`` holds each layout's weight and every candidate's value in it (in the order
    of the legal cards searched): all candidates share the layout and the playout's random
    numbers, so the spread of their differences measures how sure a comparison is.
    """

    __slots__ = ("best", "iterations", "layouts", "samples", "values")

    def __init__(
        self,
        best: int,
        values: dict[int, float],
        layouts: int,
        iterations: int,
        samples: list[tuple[float, list[float]]],
    ) -> None:
        self.best = best
        self.values = values
        self.layouts = layouts
        self.iterations = iterations
        self.samples = samples


class SearchBot(Bot):
    """Determinized search over sampled layouts of the hidden cards."""

    SETTINGS: ClassVar[dict[str, Check]] = {
        **SEARCH_SETTINGS,
        "inference": lambda value: type(value) is bool,
    }
    # Budget per move, in playouts (candidate cards times layouts), and the clock cap.
    ITERATIONS: ClassVar[int] = 400
    TIME_LIMIT: ClassVar[float | None] = 0.5
    # Exact search takes over when this many tricks (or fewer) are left in the deal.
    EXACT_TRICKS: ClassVar[int] = 2
    INFERENCE: ClassVar[bool] = False
    EPSILON: ClassVar[float] = 0.1
    # With inference, a layout's weight is multiplied by this for each play of the others
    # this deal that the playout policy would not have made holding that layout's cards.
    MISS_WEIGHT: ClassVar[float] = 0.85

    def __init__(self, seat: int, rng: random.Random, **settings: Any) -> None:
        super().__init__(seat, rng, **settings)
        self.iterations: int = settings.get("iterations", self.ITERATIONS)
        self.time_limit: float | None = settings.get("time_limit", self.TIME_LIMIT)
        self.inference: bool = settings.get("inference", self.INFERENCE)
        self.last_result: SearchResult | None = None
        self._rollout = make_rollout(self.EPSILON)

    def _choose(self, observation: dict[str, Any], legal: list[int]) -> int:
        return self.search(Knowledge(observation), legal).best

    def _layout(self, k: Knowledge) -> Layout:
        return sample_layout(k, self.rng, shuffle_stock=False)

    def search(self, k: Knowledge, legal: list[int]) -> SearchResult:
        """Value every legal card over sampled layouts and return the best."""
        start = time.perf_counter()
        deadline = None if self.time_limit is None else start + self.time_limit
        side = self.seat & 1
        totals = dict.fromkeys(legal, 0.0)
        weight_sum = 0.0
        samples: list[tuple[float, list[float]]] = []
        spent = 0
        layouts = 0
        exact = 13 - k.trick_number <= self.EXACT_TRICKS
        rng = self.rng
        while spent < self.iterations:
            layout = self._layout(k)
            weight = self._weight(k, layout) if self.inference else 1.0
            sim = sim_from_layout(k, layout)
            seed = rng.getrandbits(32)
            row: list[float] = []
            for code in legal:
                child = sim.clone()
                child.play_unchecked(code)
                if exact:
                    nodes = [0]
                    value = _solve(child, side, k.deal, -1e9, 1e9, nodes)
                    spent += 1 + nodes[0] // 50
                else:
                    self._rollout(child, random.Random(seed), k.deal)
                    value = evaluate(child, side)
                    spent += 1
                totals[code] += weight * value
                row.append(value)
            samples.append((weight, row))
            weight_sum += weight
            layouts += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
        values = {c: totals[c] / weight_sum for c in legal}
        best = max(legal, key=lambda c: values[c])
        result = SearchResult(best, values, layouts, spent, samples)
        self.last_result = result
        return result

    def _weight(self, k: Knowledge, layout: Layout) -> float:
        """How well a layout explains the others' plays this deal under the playout policy."""
        hands: list[list[list[int]]] = [[[] for _ in range(4)] for _ in range(4)]
        for seat in range(4):
            counts = layout.hands[seat]
            for code in range(52):
                if counts[code]:
                    hands[seat][code // 13].extend([code % 13] * counts[code])
        # Walk the deal backwards, returning each played card to its player's hand, so the
        # hand before every play is known; compare the policy's card with the real one.
        misses = 0
        rules = k.rules
        must_beat = rules.must_beat
        last = rules.last_trump_wins
        winner_fn = rules.winner_fn
        for leader, cards in reversed(k.deal_tricks):
            for i in range(len(cards) - 1, -1, -1):
                seat = (leader + i) & 3
                code = cards[i]
                hands[seat][code // 13].append(code % 13)
                if seat == k.seat:
                    continue
                guess = light_card(
                    hands[seat], seat, cards[:i], leader, k.suits, winner_fn, must_beat, last
                )
                if guess != code:
                    misses += 1
        return self.MISS_WEIGHT**misses


def _solve(sim: Sim, side: int, deal: int, alpha: float, beta: float, nodes: list[int]) -> float:
    """Exact minimax value of the rest of the deal (alpha-beta, partnerships alternate)."""
    if sim.deal != deal:
        return evaluate(sim, side)
    nodes[0] += 1
    moves = sim.legal()
    if sim.to_move & 1 == side:
        best = -1e9
        for code in moves:
            child = sim.clone()
            child.play_unchecked(code)
            value = _solve(child, side, deal, alpha, beta, nodes)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return best
    best = 1e9
    for code in moves:
        child = sim.clone()
        child.play_unchecked(code)
        value = _solve(child, side, deal, alpha, beta, nodes)
        if value < best:
            best = value
            if value < beta:
                beta = value
                if alpha >= beta:
                    break
    return best


class ExpertBot(SearchBot):
    """Determinized search: about 0.25 s a move in CPython on the development machine."""

    level = "expert"
    ITERATIONS = 3000
    TIME_LIMIT = 0.5


class MasterBot(SearchBot):
    """Determinized search with layouts weighted by the plays seen: about 0.5 s a move."""

    level = "master"
    ITERATIONS = 5000
    TIME_LIMIT = 1.0
    EXACT_TRICKS = 3
    INFERENCE = True
    # Fewer random cards in the playouts: sharper values (against random players, +50 and
    # +98 points a game over 0.1 at 400 iterations, 40 boards on each of two seeds).
    EPSILON = 0.03


class CheaterBot(MasterBot):
    """The master's search on the true hidden cards: a yardstick, never offered to players."""

    level = "cheater"
    INFERENCE = False
    # On its one true layout the playouts' random cards are all the variety it has: at the
    # master's 3% it gained +774 over club where 10% gained +945 (400 iterations, 40 boards).
    EPSILON = 0.1

    def __init__(self, seat: int, rng: random.Random, **settings: Any) -> None:
        super().__init__(seat, rng, **settings)
        self._state: GameState | None = None

    def peek(self, state: GameState) -> None:
        """Show the bot the true position before it chooses (``play_game`` does this)."""
        self._state = state

    def _layout(self, k: Knowledge) -> Layout:
        state = self._state
        if state is None or state.to_move != self.seat:
            raise ValueError("the cheater needs the true position: call peek(state) first")
        sim = Sim.from_state(state)
        return Layout([sim.hand_counts(s) for s in range(4)], list(sim.stock))
