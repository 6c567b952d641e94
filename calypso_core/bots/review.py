"""A review of the cards one seat played: what each cost, in points, from what it knew.

For every card the seat played, the master's search values every legal card from the
seat's observation at that moment (layouts of the hidden cards sampled from what it knew,
never the true cards), all candidates on the same layouts and playout random numbers. A
card's **cost** is how far it falls behind the best card, measured on layouts that played no
part in choosing that card (``crossed_gaps``: the luck that makes a card the best of several
noisy values is no cost), counted only when more than ``NOISE_SE`` standard errors of the
paired difference over the layouts: a smaller gap is within the noise of the search and
costs nothing. ``judge`` judges every legal card of a position this way. Costs are graded
in points like lichess grades lost winning chances; a costly card also says what the best
card does in the search's layouts that it does not (``lines``). docs/review.md has the
measurements the rules and thresholds come from.

The review is incremental: ``review_card`` reviews one play, ``iter_review`` yields the
seat's plays one at a time (a worker can report progress and stop between cards), and
``review_game`` collects them into per-deal and overall totals. Each card's randomness
comes from the seed and the play's index alone, so a card reviews the same whether alone,
in a whole game, or in any order.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

from ..cards import CARDS, Card
from ..game import GameState
from ..kernel import DEALS
from ..messages import Message

# The review's budgets and grades are defined in .base, which the page's hello loads, so
# that announcing them does not load the review (see bots/__init__.py); still its own names.
from .base import GRADES as GRADES
from .base import MAX_REVIEW_ITERATIONS as MAX_REVIEW_ITERATIONS
from .base import REVIEW_ITERATIONS as REVIEW_ITERATIONS
from .base import REVIEW_RULES as REVIEW_RULES
from .hints import reason_for
from .knowledge import Knowledge
from .lines import LineWatch, line_facts
from .policy import COMPLETION
from .search import MasterBot, SearchResult

# A cost counts only above this many standard errors of the paired difference.
NOISE_SE = 2.0
# Points of the partnership's lead lost, with the deal played on as the master plays it, for
# each point of the gap the search's playouts measure, and the points by which those playouts
# overstate a gap: measured by bench/review_calibration.py (docs/review.md#calibration).
COST_SCALE = 1.0
COST_BIAS = 25
GRADE_NAMES = tuple(name for name, _ in reversed(GRADES))


def grade(cost: int) -> str | None:
    """The grade of a cost in points: ``"inaccuracy"``, ``"mistake"``, ``"blunder"`` or None."""
    for name, threshold in GRADES:
        if cost >= threshold:
            return name
    return None


@dataclass(frozen=True)
class Option:
    """One legal card at a reviewed moment: its value and what playing it would cost."""

    card: Card
    value: float
    cost: int

    def to_json(self) -> dict[str, Any]:
        """JSON-ready: card, value (one decimal), cost and grade."""
        return {
            "card": str(self.card),
            "value": round(self.value, 1),
            "cost": self.cost,
            "grade": grade(self.cost),
        }


@dataclass(frozen=True)
class CardReview:
    """The review of one play: the card, the best card, their values and the cost.

    Values are the expected lead of the seat's partnership (its score less the other
    side's) as the search values the end of the deal; ``gap_error`` is the standard error
    of the gap between the best card and the played one. ``options`` holds every legal card,
    best first, so another card's cost ("try again") needs no new search. A forced card
    (the only legal one) is not searched.
    """

    play: int
    seat: int
    deal: int
    trick: int
    card: Card
    best: Card
    played_value: float
    best_value: float
    cost: int
    gap_error: float
    reason: list[Message] | None  # why the best card: messages (hints.reason_for)
    layouts: int
    options: tuple[Option, ...]
    # What the best card does that the played one does not, in the search's layouts
    # (lines.line_facts): said for every costly card the search kept lines for.
    line: list[Message] | None = None
    budget: int = REVIEW_ITERATIONS  # the search's iterations (none searched for a forced card)

    @property
    def grade(self) -> str | None:
        """The grade of this card's cost, or None when it cost nothing worth grading."""
        return grade(self.cost)

    @property
    def forced(self) -> bool:
        """Whether the card was the only legal one."""
        return len(self.options) == 1

    def option(self, card: Card | str) -> Option:
        """The option of a legal card; another card raises ``ValueError``."""
        wanted = card if isinstance(card, Card) else Card.parse(card)
        for option in self.options:
            if option.card == wanted:
                return option
        raise ValueError(f"{wanted} was not a legal card at play {self.play}")

    def to_json(self) -> dict[str, Any]:
        """JSON-ready: what ``review --json`` prints for each move."""
        return {
            "play": self.play,
            "deal": self.deal,
            "trick": self.trick,
            "card": str(self.card),
            "best": str(self.best),
            "cost": self.cost,
            "grade": self.grade,
            "played_value": round(self.played_value, 1),
            "best_value": round(self.best_value, 1),
            "gap_error": round(self.gap_error, 1) if math.isfinite(self.gap_error) else None,
            "forced": self.forced,
            "reason": self.reason,
            "line": self.line,
            "budget": self.budget,
            "layouts": self.layouts,
            "options": [option.to_json() for option in self.options],
        }

    @classmethod
    def from_json(cls, data: Any, seat: int) -> CardReview:
        """Rebuild a review from ``to_json`` (values as rounded there), for a saved game's
        work kept; anything malformed raises ``ValueError``."""
        try:
            options = tuple(Option(Card.parse(o["card"]), float(o["value"]), int(o["cost"]))
                            for o in data["options"])
            error = data["gap_error"]
            review = cls(
                play=int(data["play"]), seat=seat, deal=int(data["deal"]),
                trick=int(data["trick"]), card=Card.parse(data["card"]),
                best=Card.parse(data["best"]), played_value=float(data["played_value"]),
                best_value=float(data["best_value"]), cost=int(data["cost"]),
                gap_error=math.inf if error is None else float(error),
                reason=data["reason"], layouts=int(data["layouts"]), options=options,
                line=data["line"], budget=int(data["budget"]),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"not a card's review: {type(exc).__name__}: {exc}") from None
        if review.to_json() != data:
            raise ValueError(f"the review of play {review.play} does not read back as it was")
        return review


Samples = list[tuple[float, list[float]]]  # each layout's weight and every card's value in it


def paired_gap(samples: Samples, best: int, other: int) -> tuple[float, float]:
    """How far ``other`` falls behind ``best`` (indices into each sample's values).

    The weighted mean of the per-layout differences and its standard error; fewer than two
    layouts give no measure of the noise, and an infinite error.
    """
    if best == other:
        return 0.0, 0.0
    total = sum(weight for weight, _ in samples)
    diffs = [row[best] - row[other] for _, row in samples]
    mean = sum(weight * d for (weight, _), d in zip(samples, diffs, strict=True)) / total
    n = len(samples)
    if n < 2:
        return mean, math.inf
    spread = sum(
        (weight * (d - mean)) ** 2 for (weight, _), d in zip(samples, diffs, strict=True)
    )
    return mean, math.sqrt(spread * n / (n - 1)) / total


def cost_of(gap: float, error: float) -> int:
    """The points a gap costs (``points_lost``) when it exceeds the noise; else nothing."""
    return points_lost(gap) if gap > NOISE_SE * error else 0


def points_lost(gap: float) -> int:
    """The points of the partnership's lead a gap in the playouts' values is worth with the
    deal played on as the master plays it: scaled (``COST_SCALE``), less the playouts' own
    bias (``COST_BIAS``), rounded, never below nothing. The playouts' simple policy makes a
    worse card's slips look dearer than the master's play proves them."""
    return max(0, round(COST_SCALE * gap) - COST_BIAS)


def _means(samples: Samples, count: int) -> list[float]:
    """Each card's weighted mean value over ``samples``, as one search sums it: layout by
    layout, in order."""
    totals = [0.0] * count
    weights = [0.0] * count
    for weight, row in samples:
        for i, value in enumerate(row):
            totals[i] += weight * value
            weights[i] += weight
    return [totals[i] / weights[i] if weights[i] else 0.0 for i in range(count)]


def _leader(values: list[float], codes: list[int]) -> int:
    """The index of the card of highest value (of the lowest code, on a tie)."""
    return min(range(len(codes)), key=lambda i: (-values[i], codes[i]))


def crossed_gaps(samples: Samples, codes: list[int]) -> list[float]:
    """How far each card falls behind the card the search would choose, measured on layouts
    that played no part in the choice: the layouts are split in two (even and odd), the card
    of highest value on one half is compared with each card on the other half, and the two
    ways round are averaged (``crossed``). The best of several noisy values is the highest
    partly by luck; measured on the layouts that chose it, its lead would count that luck as
    a cost. With fewer than two layouts in a half, the gaps to the best card of all."""
    halves = samples[0::2], samples[1::2]
    if min(len(half) for half in halves) < 2:
        values = _means(samples, len(codes))
        top = values[_leader(values, codes)]
        return [top - value for value in values]
    first, second = (_means(half, len(codes)) for half in halves)
    return crossed(first, second, codes)


def crossed(first: list[float], second: list[float], codes: list[int]) -> list[float]:
    """Each card's crossed gap from its mean values on the two halves of the layouts: the
    leader of each half less the card, measured on the other half, averaged."""
    chosen_first, chosen_second = _leader(first, codes), _leader(second, codes)
    return [((second[chosen_first] - second[i]) + (first[chosen_second] - first[i])) / 2
            for i in range(len(codes))]


@dataclass(frozen=True)
class Judgement:
    """Every legal card of a position judged from the view of the seat to move: its value
    (the expected lead of the seat's partnership at the end of the deal, as the search
    values it), its gap behind the card the search would choose (``crossed_gaps``) with
    that gap's standard error, and its cost in points (``cost_of``; the best card's is
    nothing). ``samples`` are the search's own: each layout's weight and every card's value
    in it."""

    legal: tuple[Card, ...]
    values: tuple[float, ...]
    best: Card
    gaps: tuple[float, ...]
    errors: tuple[float, ...]
    costs: tuple[int, ...]
    samples: Samples

    @property
    def layouts(self) -> int:
        """How many layouts the search valued every card in."""
        return len(self.samples)

    def index(self, card: Card | str) -> int:
        """The index of a legal card; another card raises ``ValueError``."""
        wanted = card if isinstance(card, Card) else Card.parse(card)
        if wanted not in self.legal:
            raise ValueError(f"{wanted} is not a legal card here")
        return self.legal.index(wanted)


def judgement(legal: list[Card], samples: Samples) -> Judgement:
    """The judgement of the legal cards from a search's samples (every card valued in every
    layout, in the order of ``legal``)."""
    codes = [int(card) for card in legal]
    values = _means(samples, len(codes))
    best = _leader(values, codes)
    gaps = crossed_gaps(samples, codes)
    errors = [paired_gap(samples, best, i)[1] for i in range(len(codes))]
    costs = [0 if i == best else cost_of(gaps[i], errors[i]) for i in range(len(codes))]
    return Judgement(tuple(legal), tuple(values), legal[best], tuple(gaps), tuple(errors),
                     tuple(costs), samples)


def judge(state: GameState, *, budget: int = REVIEW_ITERATIONS, seed: int | str = 0
          ) -> Judgement:
    """Judge every legal card of the seat to move in ``state`` from that seat's view alone,
    as the review judges a card played there (the same search, randomness and costs: the
    review's ``seed`` and the position's number of cards played)."""
    reviewer = CardReviewer(state, state.legal_moves()[0], len(state.plays), budget=budget,
                            seed=seed, lines=False)
    while reviewer.review is None:
        reviewer.step(budget)
    assert reviewer.judgement is not None
    return reviewer.judgement


def review_position(
    state: GameState, card: Card, play: int, *, budget: int, seed: int | str
) -> CardReview:
    """Review ``card`` played by the seat to move in ``state``, from that seat's view only.

    ``play`` is the card's index in the game's plays: with ``seed`` it seeds the search.
    """
    reviewer = CardReviewer(state, card, play, budget=budget, seed=seed)
    while reviewer.review is None:
        reviewer.step(budget)
    return reviewer.review


class CardReviewer:
    """The review of one card done a slice of iterations at a time (``step``), so that a
    worker can answer other requests between slices: the search goes on with the same
    generator, so the slices sample the same layouts in the same order as one search of the
    whole budget, and the review is the same however the budget is sliced
    (tests/test_review_ahead.py checks it against ``review_position`` in one slice). With
    ``lines`` the search keeps the lines of its first layouts (``lines.LineWatch``), from
    which a costly card's review says what the better card does."""

    # The search the review runs: the master's (bench/review_calibration.py tries others).
    SEARCHER: ClassVar[type[MasterBot]] = MasterBot

    def __init__(self, state: GameState, card: Card, play: int, *, budget: int,
                 seed: int | str, lines: bool = True) -> None:
        self.seat = seat = state.to_move
        observation = state.observation(seat)
        self.legal = [CARDS[_code(text)] for text in observation["legal_moves"]]
        if card not in self.legal:
            raise ValueError(f"{card} is not a legal card for the seat to move at play {play}")
        _check_budget(budget)
        self.card, self.play, self.budget = card, play, budget
        self.deal, self.trick = observation["deal"], observation["trick_number"]
        self.spent = 0
        self.review: CardReview | None = None
        self.judgement: Judgement | None = None
        self._knowledge = Knowledge(observation)
        self._codes = [int(c) for c in self.legal]
        self._samples: Samples = []
        rng = random.Random(f"review:{seed}:{play}")
        self._searcher = self.SEARCHER(seat, rng, iterations=budget, time_limit=None,
                                       drops=False)
        self.watch = LineWatch(seat & 1, COMPLETION[self.SEARCHER.COMPLETION]) if lines else None
        if len(self.legal) == 1:
            option = Option(card, 0.0, 0)
            self.judgement = Judgement((card,), (0.0,), card, (0.0,), (0.0,), (0,), [])
            self.review = CardReview(play, seat, self.deal, self.trick, card, card, 0.0, 0.0, 0,
                                     0.0, None, 0, (option,), budget=budget)

    def step(self, iterations: int) -> CardReview | None:
        """Search about ``iterations`` more (to the end of a layout, never past the budget);
        the review once the whole budget is spent, else None."""
        if self.review is not None:
            return self.review
        # A search stops after the layout in which its own count reaches its budget: with
        # the rest of the budget at most, the last slice stops where one search would.
        self._searcher.iterations = max(1, min(iterations, self.budget - self.spent))
        if self.watch is not None:
            self.watch.first = len(self._samples)  # the layouts are counted over the slices
        result: SearchResult = self._searcher.search(self._knowledge, self._codes, self.watch)
        self._samples.extend(result.samples)
        self.spent += result.iterations
        if self.spent >= self.budget:
            self.review = self._finish()
        return self.review

    def gaps(self) -> list[tuple[float, float]]:
        """How far each legal card (in ``legal``'s order) falls behind the card of highest
        value, and the standard error of that gap, layout by layout over the layouts searched
        so far (``paired_gap``; the best card's own gap is 0). The puzzles' miner judges a
        position by these as the search goes; a card's cost in the review is measured on
        crossed halves instead (``judgement``)."""
        codes, samples = self._codes, self._samples
        best = _leader(_means(samples, len(codes)), codes)
        return [paired_gap(samples, best, i) for i in range(len(codes))]

    def _finish(self) -> CardReview:
        found = self.judgement = judgement(self.legal, self._samples)
        codes = self._codes
        best = codes.index(int(found.best))
        order = sorted(range(len(codes)), key=lambda i: (-found.values[i], codes[i]))
        options = tuple(Option(self.legal[i], found.values[i], found.costs[i]) for i in order)
        mine = codes.index(int(self.card))
        cost = found.costs[mine]
        reason = None if best == mine else reason_for(self._knowledge, codes[best], codes)
        line = None
        if cost > 0 and self.watch is not None:
            values = [(row[best], row[mine]) for _, row in self._samples[:self.watch.layouts]]
            line = line_facts(self._knowledge, self.watch, codes[best], codes[mine], values,
                              found.values[best] - found.values[mine], found.layouts) or None
        return CardReview(
            play=self.play,
            seat=self.seat,
            deal=self.deal,
            trick=self.trick,
            card=self.card,
            best=found.best,
            played_value=found.values[mine],
            best_value=found.values[best],
            cost=cost,
            gap_error=found.errors[mine],
            reason=reason,
            layouts=found.layouts,
            options=options,
            line=line,
            budget=self.budget,
        )


def _code(text: str) -> int:
    return int(Card.parse(text))


def seat_plays(state: GameState, seat: int) -> list[int]:
    """The indices in ``state.plays`` of the cards ``seat`` played."""
    _check_seat(seat)
    plays = []
    position = state.before(0)
    for play, card in enumerate(state.plays):
        if position.to_move == seat:
            plays.append(play)
        position.play(card)
    return plays


def review_card(
    state: GameState, play: int, *, budget: int = REVIEW_ITERATIONS, seed: int | str = 0
) -> CardReview:
    """Review play number ``play`` of a game (any seat's), from its player's view."""
    _check_budget(budget)
    if type(play) is not int or not 0 <= play < len(state.plays):
        raise ValueError(f"play {play!r} is not in the game (it has {len(state.plays)} plays)")
    return review_position(state.before(play), state.plays[play], play, budget=budget, seed=seed)


def iter_review(
    state: GameState, seat: int, *, budget: int = REVIEW_ITERATIONS, seed: int | str = 0
) -> Iterator[CardReview]:
    """Review every card ``seat`` played in the game, one at a time, in order."""
    _check_seat(seat)
    _check_budget(budget)
    position = state.before(0)
    for play, card in enumerate(state.plays):
        if position.to_move == seat:
            yield review_position(position, card, play, budget=budget, seed=seed)
        position.play(card)


@dataclass(frozen=True)
class GameReview:
    """A seat's reviewed cards with the points lost per deal and overall."""

    seat: int
    moves: tuple[CardReview, ...]

    @property
    def total_cost(self) -> int:
        """Points lost over all the reviewed cards."""
        return sum(move.cost for move in self.moves)

    def per_deal(self) -> list[dict[str, Any]]:
        """For each deal: the cards reviewed, the points lost and the count of each grade."""
        rows = []
        for deal in range(DEALS):
            moves = [m for m in self.moves if m.deal == deal]
            counts = {name: sum(m.grade == name for m in moves) for name in GRADE_NAMES}
            rows.append(
                {"deal": deal, "cards": len(moves), "cost": sum(m.cost for m in moves), **counts}
            )
        return rows

    def to_json(self) -> dict[str, Any]:
        """What ``review --json`` prints."""
        return {
            "seat": self.seat,
            "moves": [move.to_json() for move in self.moves],
            "total_cost": self.total_cost,
            "per_deal": self.per_deal(),
        }


def review_game(
    state: GameState,
    seat: int,
    *,
    budget: int = REVIEW_ITERATIONS,
    seed: int | str = 0,
    progress: Callable[[int, int], None] | None = None,
) -> GameReview:
    """Review every card ``seat`` played; ``progress(done, total)`` after each card."""
    total = len(seat_plays(state, seat))
    moves = []
    for move in iter_review(state, seat, budget=budget, seed=seed):
        moves.append(move)
        if progress is not None:
            progress(len(moves), total)
    return GameReview(seat, tuple(moves))


def _check_seat(seat: Any) -> None:
    if type(seat) is not int or not 0 <= seat < 4:
        raise ValueError(f"{seat!r} is not a seat (0-3)")


def _check_budget(budget: Any) -> None:
    if type(budget) is not int or budget < 1:
        raise ValueError(f"the review budget is a positive number of iterations, not {budget!r}")
