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

import copy
import math
import random
import time
from collections.abc import Generator, Sequence
from typing import Any, ClassVar, Protocol

from ..cards import CARDS, Card
from ..fastsim import Sim
from ..game import GameState
from ..kernel import trumps_by_position
from .base import MASTER_ITERATIONS, SEARCH_SETTINGS, SEARCH_TIME_LIMITS, Bot, Check, finish
from .knowledge import Knowledge
from .policy import COMPLETION, Value, make_rollout, policy_card
from .sampler import Layout, sample_layout, sim_from_layout


class SearchResult:
    """What a search found: the card, each candidate's mean value and the effort spent.

    ``samples`` holds each layout's weight and every candidate's value in it (in the order
    of the legal cards searched): all candidates share the layout and the playout's random
    numbers, so the spread of their differences measures how sure a comparison is. A card
    dropped early (the master's drops) has NaN in the layouts it was no longer played in;
    a search with ``drops=False`` (the review's) gives every card a value in every layout.
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


class Watch(Protocol):
    """Sees each candidate card played in each layout of a search (the review's lines of
    play): ``start`` before the card is played in its copy of the layout, ``end`` once it is
    valued (after its playout, or, in an exact search, with the position after the card)."""

    def start(self, layout: int, code: int, child: Sim, exact: bool) -> None: ...

    def end(self, layout: int, code: int, child: Sim, exact: bool) -> None: ...


class SearchBot(Bot):
    """Determinized search over sampled layouts of the hidden cards."""

    SETTINGS: ClassVar[dict[str, Check]] = {
        **SEARCH_SETTINGS,
        "inference": lambda value: type(value) is bool,
        "drops": lambda value: type(value) is bool,
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
    # With MISS_WEIGHTS (harshest first), each search picks its factor from them: the first
    # DROP_AFTER layouts are sampled ahead, and the harshest factor under which their
    # effective number, (sum w)^2 / sum w^2, is at least ESS_FLOOR of their number is used
    # for every layout of the search (else the mildest). Empty: always MISS_WEIGHT. As
    # MISS_WEIGHTS = (0.3, 0.4, 0.5, 0.6, 0.7, 0.85) with a floor of 0.5 it led today's master
    # by +88 a game (-34 to +210) on 30 boards at 400 iterations, thinking 1.2-1.3x as long;
    # no level uses it until a longer run says more (docs/bots.md, issue 28).
    MISS_WEIGHTS: ClassVar[tuple[float, ...]] = ()
    ESS_FLOOR: ClassVar[float] = 0.5
    # Dropping candidates early: after DROP_AFTER layouts, a card whose paired difference to
    # the leading card, less DROP_Z standard errors, exceeds -DROP_MARGIN points (worse, or
    # better by no more than the margin) gets no more playouts, and the search ends when one
    # card is left. None: every card gets the whole budget (as with the setting drops=False).
    DROP_Z: ClassVar[float | None] = None
    DROP_MARGIN: ClassVar[float] = 1.0
    DROP_AFTER: ClassVar[int] = 20
    # With drops, a search whose budget is spent while two or more cards are still in the
    # running goes on with them alone, up to this multiple of the budget (the clock cap
    # still ends it): playouts where the candidates are close, none where one card stands
    # out. 1.0: the budget is the end. No level uses it until a long run says it pays
    # (docs/bots.md, issue 28).
    CLOSE_BUDGET: ClassVar[float] = 1.0
    # With inference, a layout's weight is multiplied by LET_GO_WEIGHT, not MISS_WEIGHT, for
    # each play of the others that let a trick go: with the other side winning, a card that
    # does not take the trick where the layout gives the player a legal card that would,
    # from the trick's LET_GO_FROM-th card on (2 or 3; a second hand that can follow suit
    # never counts). In 12 master self-play games at 300 iterations (bench/policy_match.py)
    # masters let a trick go as a third or last hand 5 times in 130 chances, as a second
    # hand that cannot follow 8 in 54, one that can 34 in 109. None: MISS_WEIGHT; no level
    # uses it (docs/bots.md, issue 28).
    LET_GO_WEIGHT: ClassVar[float | None] = None
    LET_GO_FROM: ClassVar[int] = 3
    # The playout policy's sharper rules (``policy_card``): 0 and -1 leave them off. With
    # 9 and 10 the policy picks the master's card in 61% of its decisions, not 57%
    # (bench/policy_match.py), but the master made +14 (-28 to +57) a game against today's
    # over 200 boards at 5,000 iterations, at 1.14x the time a move (docs/bots.md, issue 28).
    LEAD_OWN_FROM: ClassVar[int] = 0
    OVERTAKE_BELOW: ClassVar[int] = -1
    # How the calypsos in progress are valued at a playout's end, by name
    # (``policy.COMPLETION``). Against today's master at 2,000 iterations, at the same cost
    # a move: "master", a table measured in master self-play, made -17 (-56 to +21) a game
    # over 200 boards, and "live", which knows the calypsos that can no longer be completed,
    # -58 (-109 to -7) over 100; no level uses either (docs/bots.md, issue 28).
    COMPLETION: ClassVar[str] = "club"
    # How many deals a playout plays: 1 stops at the end of this deal; 2 plays the next one
    # too, dealt from the layout's stock (shuffled), and values its end. A longer playout
    # counts as the playouts of this deal it costs: 1 + 13 / the tricks left, rounded. With
    # 2, -39 (-95 to +17) a game against today's master over 100 boards at 2,000 iterations,
    # at the same time a move (docs/bots.md, issue 28).
    HORIZON: ClassVar[int] = 1

    def __init__(self, seat: int, rng: random.Random, **settings: Any) -> None:
        super().__init__(seat, rng, **settings)
        self.iterations: int = settings.get("iterations", self.ITERATIONS)
        self.time_limit: float | None = settings.get("time_limit", self.TIME_LIMIT)
        self.inference: bool = settings.get("inference", self.INFERENCE)
        self.drops: bool = settings.get("drops", self.DROP_Z is not None)
        self.last_result: SearchResult | None = None
        if self.COMPLETION not in COMPLETION:
            raise ValueError(f"unknown completion value {self.COMPLETION!r} "
                             f"(values: {', '.join(COMPLETION)})")  # fmt: skip
        self._value: Value = COMPLETION[self.COMPLETION]
        self._rollout = make_rollout(self.EPSILON, lead_own_from=self.LEAD_OWN_FROM,
                                     overtake_below=self.OVERTAKE_BELOW)

    def _choose(self, observation: dict[str, Any], legal: list[int]) -> int:
        return self.search(Knowledge(observation), legal).best

    def _layout(self, k: Knowledge) -> Layout:
        return sample_layout(k, self.rng, shuffle_stock=self.HORIZON > 1)

    def search(self, k: Knowledge, legal: list[int], watch: Watch | None = None) -> SearchResult:
        """Value every legal card over sampled layouts and return the best (``watch`` sees
        every candidate in every layout)."""
        return finish(self.search_steps(k, legal, watch))

    def choose_steps(self, observation: dict[str, Any], legal: Sequence[Card]
                     ) -> Generator[None, None, Card]:
        if len(legal) < 2 or observation.get("seat") != self.seat:
            return self.choose(observation, legal)  # at once, or refused as choose refuses
        found = yield from self.search_steps(Knowledge(observation), [int(c) for c in legal])
        return CARDS[found.best]

    def search_steps(self, k: Knowledge, legal: list[int], watch: Watch | None = None
                     ) -> Generator[None, None, SearchResult]:
        """``search`` a layout at a time: yields after each one, so that a worker can answer
        other requests in between; its clock counts only the time spent in it, so the
        search is the same however it is sliced (its clock cap aside, under other work).
        ``watch`` sees every candidate in every layout (it changes nothing searched)."""
        used = 0.0  # seconds spent in the search before it was last resumed
        resumed = time.perf_counter()
        side = self.seat & 1
        totals = dict.fromkeys(legal, 0.0)  # weighted sums of each card's values
        weights = dict.fromkeys(legal, 0.0)  # and of the weights of the layouts it was played in
        samples: list[tuple[float, list[float]]] = []
        drop_z = self.DROP_Z if self.drops else None
        race = _Race(legal) if drop_z is not None and len(legal) > 1 else None
        alive = legal
        index = {code: i for i, code in enumerate(legal)}
        spent = 0
        layouts = 0
        exact = 13 - k.trick_number <= self.EXACT_TRICKS
        later = min(self.HORIZON, 4 - k.deal) - 1  # deals a playout plays after this one
        later_deals = range(k.deal + 1, k.deal + 1 + later)
        cost = round(1 + 13 * later / (13 - k.trick_number))
        # Past the budget only cards still racing get playouts, and one left ends the search.
        limit = self.iterations
        if race is not None:
            limit = max(limit, int(limit * self.CLOSE_BUDGET))
        rng = self.rng
        evaluate = self._value
        replays = _replays(k) if self.inference else []
        miss_weight = self.MISS_WEIGHT
        pilot: list[tuple[Sim, int]] = []  # layouts sampled ahead, with their misses
        if self.inference and self.MISS_WEIGHTS and replays:
            for _ in range(self.DROP_AFTER):
                sim = sim_from_layout(k, self._layout(k))
                hands = [[ranks[:] for ranks in seat] for seat in sim.hands_by_suit()]
                pilot.append((sim, _misses(k, replays, hands)))
            miss_weight = _harshest([m for _, m in pilot], self.MISS_WEIGHTS, self.ESS_FLOOR)
            pilot.reverse()
        # The clock: a layout's time is the search's time from one layout's end to the next
        # (time spent outside the search, between a yield and its resumption, not counted).
        # With a cap, the search stops before a layout that would pass it if that layout took
        # as long as the longest one so far; the first layout is always searched.
        elapsed = used + time.perf_counter() - resumed  # seconds in the search so far
        longest = 0.0
        while spent < limit:
            if pilot:
                sim, misses = pilot.pop()
                weight = miss_weight**misses
            else:
                sim = sim_from_layout(k, self._layout(k))
                if self.inference:
                    hands = [[ranks[:] for ranks in seat] for seat in sim.hands_by_suit()]
                    if self.LET_GO_WEIGHT is None:
                        weight = miss_weight ** _misses(k, replays, hands)
                    else:
                        misses, let_go = _explained(k, replays, hands, self.LET_GO_FROM)
                        weight = miss_weight**misses * self.LET_GO_WEIGHT**let_go
                else:
                    weight = 1.0
            seed = rng.getrandbits(32)
            values = []
            row = [math.nan] * len(legal)
            for code in alive:
                child = sim.clone()
                if watch is not None:
                    watch.start(layouts, code, child, exact)
                child.play_unchecked(code)
                if exact:
                    nodes = [0]
                    value = _solve(child, side, k.deal, -1e9, 1e9, nodes, evaluate)
                    spent += 1 + nodes[0] // 50
                else:
                    playout_rng = random.Random(seed)
                    self._rollout(child, playout_rng, k.deal)
                    for deal in later_deals:
                        self._rollout(child, playout_rng, deal)
                    value = evaluate(child, side)
                    spent += cost
                if watch is not None:
                    watch.end(layouts, code, child, exact)
                totals[code] += weight * value
                weights[code] += weight
                values.append(value)
                row[index[code]] = value
            samples.append((weight, row))
            layouts += 1
            if race is not None and drop_z is not None:
                race.add(weight, values)
                if layouts >= self.DROP_AFTER:
                    alive = race.drop(drop_z, self.DROP_MARGIN)
                    if len(alive) == 1:
                        break
            now = time.perf_counter()
            if self.time_limit is not None:
                before, elapsed = elapsed, used + now - resumed
                longest = max(longest, elapsed - before)
                if elapsed + longest > self.time_limit:
                    break
            if spent < limit:
                used += now - resumed
                yield
                resumed = time.perf_counter()
        means = {c: totals[c] / weights[c] for c in legal}
        best = max(alive, key=lambda c: means[c])
        result = SearchResult(best, means, layouts, spent, samples)
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
        return self.MISS_WEIGHT ** _misses(k, _replays(k), hands)


# One play of the others this deal, as the inference replays it: the seat, the card, the
# trick before it, the index of the card winning that trick, the suits by trick position.
_Replay = tuple[int, int, list[int], int, tuple[int, ...]]


def _replays(k: Knowledge) -> list[_Replay]:
    """Every play of this deal, the last first, with what the policy needs to guess it."""
    winner_fn = k.rules.winner_fn
    replays: list[_Replay] = []
    for leader, cards in reversed(k.deal_tricks):
        trumps = trumps_by_position(k.suits)[leader]
        for i in range(len(cards) - 1, -1, -1):
            before = cards[:i]
            winning = winner_fn(before, trumps) if before else 0
            replays.append(((leader + i) & 3, cards[i], before, winning, trumps))
    return replays


def _misses(k: Knowledge, replays: list[_Replay], hands: list[list[list[int]]]) -> int:
    """How many of the others' plays this deal the playout policy would not have made.

    ``hands`` (by seat, then suit) are the layout's hands now; walking the deal backwards,
    each played card returns to its player's hand, so the hand before every play is known.
    """
    return _explained(k, replays, hands)[0]


def _explained(k: Knowledge, replays: list[_Replay], hands: list[list[list[int]]],
               let_go_from: int = 0) -> tuple[int, int]:  # fmt: skip
    """``_misses``, and apart from them the plays that let a trick go, counted from the
    trick's ``let_go_from``-th card on (0: none): with the other side winning, a card that
    does not take the trick where the layout gives the player a legal card that would. A
    second hand that can follow suit never counts."""
    misses = 0
    let_go = 0
    rules = k.rules
    must_beat = rules.must_beat
    last = rules.last_trump_wins
    winner_fn = rules.winner_fn
    all_fours = rules.all_fours
    me = k.seat
    suits = k.suits
    for seat, code, before, winning, trumps in replays:
        hand = hands[seat]
        hand[code // 13].append(code % 13)
        if seat == me:
            continue
        n = len(before)
        if (let_go_from and n + 1 >= let_go_from and (n - winning) & 1
                and winner_fn([*before, code], trumps) != n):
            led = before[0] // 13
            own = suits[seat]
            tops = []  # the highest card of each suit it may play that could take the trick
            if not hand[led]:
                if hand[own]:
                    tops.append(own * 13 + max(hand[own]))
            elif n > 1:
                tops.append(led * 13 + max(hand[led]))
                if all_fours and own != led and hand[own]:
                    tops.append(own * 13 + max(hand[own]))
            if any(winner_fn([*before, top], trumps) == n for top in tops):
                let_go += 1
                continue
        guess = policy_card(suits, must_beat, last, None, 0, -1, hand, seat, before, winning,
                            trumps)  # fmt: skip
        if guess != code:
            misses += 1
    return misses, let_go


def _harshest(misses: list[int], factors: tuple[float, ...], floor: float) -> float:
    """The first (harshest) factor under which layouts with these misses keep an effective
    number of at least ``floor`` of their number; the last factor if none does."""
    least = min(misses)
    for factor in factors:
        weights = [factor ** (m - least) for m in misses]
        total = sum(weights)
        if total * total >= floor * len(misses) * sum(w * w for w in weights):
            return factor
    return factors[-1]


class _Race:
    """The cards still in the running, and the weighted sums that compare any two of them
    over the layouts both were played in: paired, so the luck of the layouts cancels."""

    def __init__(self, legal: list[int]) -> None:
        self.alive = list(legal)
        self.weight = 0.0  # sum of the layouts' weights
        self.weight2 = 0.0  # and of their squares (for the effective number of layouts)
        self.sum = dict.fromkeys(legal, 0.0)  # weighted sum of each card's values
        self.square = dict.fromkeys(legal, 0.0)  # and of their squares
        self.cross = {(a, b): 0.0 for a in legal for b in legal if a < b}  # and of products

    def add(self, weight: float, values: list[float]) -> None:
        """One more layout: the values of the cards still in the running, in their order."""
        self.weight += weight
        self.weight2 += weight * weight
        alive = self.alive
        for i, a in enumerate(alive):
            weighted = weight * values[i]
            self.sum[a] += weighted
            self.square[a] += weighted * values[i]
            for j in range(i + 1, len(alive)):
                b = alive[j]
                self.cross[(a, b) if a < b else (b, a)] += weighted * values[j]

    def drop(self, z: float, margin: float) -> list[int]:
        """Drop every card that trails the leader by more than ``z`` standard errors of their
        mean paired difference less ``margin``; return the cards left, leader included."""
        weight = self.weight
        effective = weight * weight / self.weight2  # the effective number of layouts
        total = self.sum
        lead = max(self.alive, key=lambda c: total[c])
        kept = []
        for c in self.alive:
            if c != lead:
                gap = (total[lead] - total[c]) / weight
                product = self.cross[(lead, c) if lead < c else (c, lead)]
                spread = (self.square[lead] - 2 * product + self.square[c]) / weight - gap * gap
                if gap > z * math.sqrt(max(spread, 0.0) / effective) - margin:
                    continue
            kept.append(c)
        self.alive = kept
        return kept


def _solve(sim: Sim, side: int, deal: int, alpha: float, beta: float, nodes: list[int],
           evaluate: Value) -> float:  # fmt: skip
    """Exact minimax value of the rest of the deal (alpha-beta, partnerships alternate),
    valued at its end by ``evaluate``."""
    if sim.deal != deal:
        return evaluate(sim, side)
    nodes[0] += 1
    moves = sim.legal()
    if sim.to_move & 1 == side:
        best = -1e9
        for code in moves:
            child = sim.clone()
            child.play_unchecked(code)
            value = _solve(child, side, deal, alpha, beta, nodes, evaluate)
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
        value = _solve(child, side, deal, alpha, beta, nodes, evaluate)
        if value < best:
            best = value
            if value < beta:
                beta = value
                if alpha >= beta:
                    break
    return best


def solve_line(sim: Sim, side: int, evaluate: Value) -> list[int]:
    """The cards the exact search expects to the end of the deal from ``sim`` (``side``
    maximizing, the other minimizing, as ``_solve`` values it): at each turn the first legal
    card of the best value. Costs a search of every card at every turn: for a few layouts."""
    sim = sim.clone()
    deal = sim.deal
    line = []
    while sim.deal == deal:
        mine = sim.to_move & 1 == side
        best_code, best = -1, -1e18 if mine else 1e18
        for code in sim.legal():
            child = sim.clone()
            child.play_unchecked(code)
            value = _solve(child, side, deal, -1e9, 1e9, [0], evaluate)
            if (value > best) if mine else (value < best):
                best_code, best = code, value
        sim.play_unchecked(best_code)
        line.append(best_code)
    return line


class ExpertBot(SearchBot):
    """Determinized search: about 0.25 s a move in CPython on the development machine."""

    level = "expert"
    ITERATIONS = 3000
    TIME_LIMIT = SEARCH_TIME_LIMITS["expert"]


class MasterBot(SearchBot):
    """Determinized search with layouts weighted by the plays seen, dropping the cards its
    paired values rule out: about 0.1 s a move in CPython on the development machine."""

    level = "master"
    ITERATIONS = MASTER_ITERATIONS
    TIME_LIMIT = SEARCH_TIME_LIMITS["master"]
    # From four tricks left (issue 28) it screened -56 (-116 to +5) against today's master
    # and took 12-15x the time of those moves (docs/bots.md).
    EXACT_TRICKS = 3
    INFERENCE = True
    # Early drops: a card 3 standard errors behind the leader (or less than a point ahead)
    # after 20 layouts gets no more playouts; on 91 positions this spent a quarter of the
    # playouts of the full budget for the same choices (README.md#waiting).
    DROP_Z: ClassVar[float | None] = 3.0
    # Fewer random cards in the playouts: sharper values (against random players, +50 and
    # +98 points a game over 0.1 at 400 iterations, 40 boards on each of two seeds). Against
    # today's master at 2,000 iterations, none screened -129 (-234 to -25) on 20 boards and
    # 0.1 +4 (-50 to +57) on 100 (docs/bots.md, issue 28).
    EPSILON = 0.03


class CheaterBot(MasterBot):
    """The master's search on the true hidden cards: a yardstick, never offered to players."""

    level = "cheater"
    INFERENCE = False
    # A yardstick measured at fixed budgets: every card keeps the whole budget.
    DROP_Z: ClassVar[float | None] = None
    # On its one true layout the playouts' random cards are all the variety it has: at the
    # master's 3% it gained +774 over club where 10% gained +945 (400 iterations, 40 boards).
    EPSILON = 0.1
    # Which hidden cards it is shown: "all" (the other hands and the stock in its order), or
    # only "hands" (the three others'), the "partner"'s, the "opponents'", the others' own
    # suits ("trumps") or the opponents' own suits ("opponent-trumps"); the rest is sampled
    # from what the seat knows, as the master samples it. Partial sight measures where seeing
    # is worth most (docs/bots.md, issue 28); no level uses it.
    SEES: ClassVar[str] = "all"
    # By sight: the seats shown, relative to the own, and whether only their own suits.
    _SHOWN: ClassVar[dict[str, tuple[tuple[int, ...], bool]]] = {
        "hands": ((1, 2, 3), False), "partner": ((2,), False), "opponents": ((1, 3), False),
        "trumps": ((1, 2, 3), True), "opponent-trumps": ((1, 3), True)}

    def __init__(self, seat: int, rng: random.Random, **settings: Any) -> None:
        super().__init__(seat, rng, **settings)
        if self.SEES != "all" and self.SEES not in self._SHOWN:
            raise ValueError(f"unknown sight {self.SEES!r} (sights: all, {', '.join(self._SHOWN)})")
        self._state: GameState | None = None

    def peek(self, state: GameState) -> None:
        """Show the bot the true position before it chooses (``play_game`` does this)."""
        self._state = state

    def _layout(self, k: Knowledge) -> Layout:
        state = self._state
        if state is None or state.to_move != self.seat:
            raise ValueError("the cheater needs the true position: call peek(state) first")
        sim = Sim.from_state(state)
        if self.SEES == "all":
            return Layout([sim.hand_counts(s) for s in range(4)], list(sim.stock))
        # What the seat would know if the shown cards were laid face up: they are no longer
        # unseen, and the sampler deals their players only the rest (none of a suit shown).
        relative, trumps_only = self._SHOWN[self.SEES]
        k = copy.copy(k)
        k.hand_sizes = k.hand_sizes[:]
        k.unseen = k.unseen[:]
        k.voids = k.voids[:]
        shown = {}
        for seat in ((self.seat + d) & 3 for d in relative):
            counts = sim.hand_counts(seat)
            if trumps_only:
                own = k.suits[seat]
                counts = [n if code // 13 == own else 0 for code, n in enumerate(counts)]
                k.voids[seat] |= 1 << own
            else:
                k.voids[seat] = 15
            shown[seat] = counts
            k.hand_sizes[seat] -= sum(counts)
            for code, n in enumerate(counts):
                k.unseen[code] -= n
        k.unseen_total = sum(k.unseen)
        layout = sample_layout(k, self.rng, shuffle_stock=self.HORIZON > 1)
        for seat, counts in shown.items():
            hand = layout.hands[seat]
            for code, n in enumerate(counts):
                hand[code] += n
        return layout
