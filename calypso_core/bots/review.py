"""A review of the cards one seat played: what each cost, in points, from what it knew.

For every card the seat played, the master's search values every legal card from the
seat's observation at that moment (layouts of the hidden cards sampled from what it knew,
never the true cards), all candidates on the same layouts and playout random numbers. A
card's **cost** is the best card's value less its own, counted only when that difference
is more than ``NOISE_SE`` standard errors of the paired difference over the layouts: a
smaller gap is within the noise of the search and costs nothing. Costs are graded in
points like lichess grades lost winning chances (docs/review.md has the measurements the
thresholds come from).

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
from typing import Any

from ..cards import CARDS, Card
from ..game import GameState, new_game
from ..kernel import DEALS
from ..messages import Message

# The review's budgets and grades are defined in .base, which the page's hello loads, so
# that announcing them does not load the review (see bots/__init__.py); still its own names.
from .base import GRADES as GRADES
from .base import MAX_REVIEW_ITERATIONS as MAX_REVIEW_ITERATIONS
from .base import REVIEW_ITERATIONS as REVIEW_ITERATIONS
from .hints import reason_for
from .knowledge import Knowledge
from .search import MasterBot, SearchResult

# A cost counts only above this many standard errors of the paired difference.
NOISE_SE = 2.0
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
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"not a card's review: {type(exc).__name__}: {exc}") from None
        if review.to_json() != data:
            raise ValueError(f"the review of play {review.play} does not read back as it was")
        return review


def paired_gap(
    samples: list[tuple[float, list[float]]], best: int, other: int
) -> tuple[float, float]:
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
    """The points a gap costs: all of it, rounded, when it exceeds the noise; else nothing."""
    return round(gap) if gap > NOISE_SE * error else 0


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
    (tests/test_review_ahead.py checks it against ``review_position`` in one slice)."""

    def __init__(self, state: GameState, card: Card, play: int, *, budget: int,
                 seed: int | str) -> None:
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
        self._knowledge = Knowledge(observation)
        self._codes = [int(c) for c in self.legal]
        self._samples: list[tuple[float, list[float]]] = []
        rng = random.Random(f"review:{seed}:{play}")
        self._searcher = MasterBot(seat, rng, iterations=budget, time_limit=None, drops=False)
        if len(self.legal) == 1:
            option = Option(card, 0.0, 0)
            self.review = CardReview(play, seat, self.deal, self.trick, card, card, 0.0, 0.0, 0,
                                     0.0, None, 0, (option,))

    def step(self, iterations: int) -> CardReview | None:
        """Search about ``iterations`` more (to the end of a layout, never past the budget);
        the review once the whole budget is spent, else None."""
        if self.review is not None:
            return self.review
        # A search stops after the layout in which its own count reaches its budget: with
        # the rest of the budget at most, the last slice stops where one search would.
        self._searcher.iterations = max(1, min(iterations, self.budget - self.spent))
        result: SearchResult = self._searcher.search(self._knowledge, self._codes)
        self._samples.extend(result.samples)
        self.spent += result.iterations
        if self.spent >= self.budget:
            self.review = self._finish()
        return self.review

    def gaps(self) -> list[tuple[float, float]]:
        """How far each legal card (in ``legal``'s order) falls behind the best card, and the
        standard error of that gap, over the layouts searched so far: what its cost is judged
        from (the best card's own gap is 0). The puzzles' miner judges a position by these."""
        codes, samples = self._codes, self._samples
        values = self._values()
        best = codes.index(max(codes, key=lambda c: values[c]))
        return [paired_gap(samples, best, i) for i in range(len(codes))]

    def _values(self) -> dict[int, float]:
        codes, samples = self._codes, self._samples
        # The means as one search sums them: layout by layout, in order.
        totals = [0.0] * len(codes)
        weights = [0.0] * len(codes)
        for weight, row in samples:
            for i, value in enumerate(row):
                totals[i] += weight * value
                weights[i] += weight
        return {code: totals[i] / weights[i] for i, code in enumerate(codes)}

    def _finish(self) -> CardReview:
        codes = self._codes
        values = self._values()
        best = codes.index(max(codes, key=lambda c: values[c]))
        gaps = self.gaps()
        order = sorted(range(len(codes)), key=lambda i: (-values[codes[i]], codes[i]))
        options = tuple(Option(self.legal[i], values[codes[i]], cost_of(*gaps[i])) for i in order)
        mine = codes.index(int(self.card))
        gap, error = gaps[mine]
        reason = None if best == mine else reason_for(self._knowledge, codes[best], codes)
        return CardReview(
            play=self.play,
            seat=self.seat,
            deal=self.deal,
            trick=self.trick,
            card=self.card,
            best=self.legal[best],
            played_value=values[int(self.card)],
            best_value=values[codes[best]],
            cost=cost_of(gap, error),
            gap_error=error,
            reason=reason,
            layouts=len(self._samples),
            options=options,
        )


def _code(text: str) -> int:
    return int(Card.parse(text))


def seat_plays(state: GameState, seat: int) -> list[int]:
    """The indices in ``state.plays`` of the cards ``seat`` played."""
    _check_seat(seat)
    plays = []
    position = _start(state)
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
    position = _start(state)
    for card in state.plays[:play]:
        position.play(card)
    return review_position(position, state.plays[play], play, budget=budget, seed=seed)


def iter_review(
    state: GameState, seat: int, *, budget: int = REVIEW_ITERATIONS, seed: int | str = 0
) -> Iterator[CardReview]:
    """Review every card ``seat`` played in the game, one at a time, in order."""
    _check_seat(seat)
    _check_budget(budget)
    position = _start(state)
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


def _start(state: GameState) -> GameState:
    return new_game(
        rules=state.rules, suits=state.suits, first_dealer=state.first_dealer, deck=state.deck
    )


def _check_seat(seat: Any) -> None:
    if type(seat) is not int or not 0 <= seat < 4:
        raise ValueError(f"{seat!r} is not a seat (0-3)")


def _check_budget(budget: Any) -> None:
    if type(budget) is not int or budget < 1:
        raise ValueError(f"the review budget is a positive number of iterations, not {budget!r}")
