"""The bot contract: built from (seat, rng, settings), asked for a card given what it sees.

A bot sees only ``observation(seat)`` and the legal cards; its randomness comes only from
the ``random.Random`` it was built with, so the same seed and the same observations give
the same moves. Search bots count their budget in iterations, with a wall-clock cap on
top for play (tests and measurements use iteration budgets only). The levels, and
``make_bot`` to build one, are in ``levels.py``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Generator, Sequence
from typing import Any, ClassVar, TypeVar

from ..cards import CARDS, Card, brief_repr
from ..game import GameState
from .heuristics import TrickEvaluator, choose_by_rules
from .knowledge import Knowledge

_T = TypeVar("_T")

# A check of one setting's value.
Check = Callable[[Any], bool]

class Bot:
    """A computer player for one seat. Subclasses implement ``_choose`` on integer codes."""

    level: ClassVar[str] = ""
    # Settings this level accepts, with their checks; anything else is refused.
    SETTINGS: ClassVar[dict[str, Check]] = {}
    # The longest a move may take, in seconds (a search's clock cap); None: no clock.
    time_limit: float | None = None

    def __init__(self, seat: int, rng: random.Random, **settings: Any) -> None:
        if type(seat) is not int or not 0 <= seat < 4:
            raise ValueError(f"{seat!r} is not a seat (0-3)")
        if not isinstance(rng, random.Random):
            raise ValueError(f"a bot needs a random.Random, not {type(rng).__name__}")
        for name, value in settings.items():
            check = self.SETTINGS.get(name)
            if check is None:
                known = ", ".join(sorted(self.SETTINGS)) or "none"
                raise ValueError(f"{self.level} bot: unknown setting {name!r} (accepted: {known})")
            if not check(value):
                raise ValueError(f"{self.level} bot: bad value {value!r} for setting {name!r}")
        self.seat = seat
        self.rng = rng
        self.settings = settings

    def choose(self, observation: dict[str, Any], legal: Sequence[Card]) -> Card:
        """The card to play, one of ``legal``, decided from the seat's observation."""
        if not legal:
            raise ValueError(f"{self.level} bot: no legal cards to choose from")
        if observation.get("seat") != self.seat:
            raise ValueError(
                f"{self.level} bot for seat {self.seat} got seat {observation.get('seat')}'s view"
            )
        codes = [int(c) for c in legal]
        code = codes[0] if len(codes) == 1 else self._choose(observation, codes)
        return CARDS[code]

    def _choose(self, observation: dict[str, Any], legal: list[int]) -> int:
        raise NotImplementedError

    def choose_steps(self, observation: dict[str, Any], legal: Sequence[Card]
                     ) -> Generator[None, None, Card]:
        """``choose`` in slices (``finish`` drives it): a search yields between its layouts
        (``SearchBot``: the same card however it is sliced); other bots choose at once."""
        yield from ()
        return self.choose(observation, legal)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.level} seat {self.seat}>"


class RandomBot(Bot):
    """A uniformly random legal card."""

    level = "random"

    def _choose(self, observation: dict[str, Any], legal: list[int]) -> int:
        return legal[self.rng.randrange(len(legal))]


class NoviceBot(Bot):
    """Rules of thumb on what is on the table now: no memory of earlier tricks.

    Like a beginner it has lapses: now and then (``LAPSES`` of its moves) it plays any
    legal card rather than the one its rules pick.
    """

    level = "novice"
    LAPSES = 0.05

    def _choose(self, observation: dict[str, Any], legal: list[int]) -> int:
        if self.rng.random() < self.LAPSES:
            return legal[self.rng.randrange(len(legal))]
        return choose_by_rules(Knowledge(observation, memory=False), legal)


class ClubBot(Bot):
    """Card counting (voids shown, copies live, ranks still needed) behind every choice."""

    level = "club"

    def _choose(self, observation: dict[str, Any], legal: list[int]) -> int:
        return TrickEvaluator(Knowledge(observation, memory=True)).choose(legal)


def _positive_int(value: Any) -> bool:
    return type(value) is int and value >= 1


def _time_limit(value: Any) -> bool:
    return value is None or (type(value) in (int, float) and value > 0)


# The most iterations a move a search is asked for from outside the bots (a rerun of the
# page, a match of the command line): about a minute a move on a slow phone.
MAX_SEARCH_ITERATIONS = 20_000

# The search levels' clock caps a move (search.py), here so that the page's hello can name
# them (levels.think_time) without loading the search. The master's is the cap of the search
# before it got faster and learned to drop cards, so it searches at least as much on every
# move; in the page the thinking now hides behind the animations at Normal speed
# (README.md#waiting), where a 0.5 s cap measured no better.
SEARCH_TIME_LIMITS = {"expert": 0.5, "master": 1.0}
# The master's search budget a move (search.MasterBot), here so that the table can hold a
# guest's rerun to it (table.seat_reviews) without loading the search.
MASTER_ITERATIONS = 5000

# The review's (review.py) budgets and grades, here so that the page's hello can name them
# without loading the review. Search iterations per card: a deal's 13 cards in 4-10 s in
# CPython here and 1.5-1.7x that in Pyodide, the same grade from two seeds for 97% of
# cards (docs/review.md).
REVIEW_ITERATIONS = 8000
# The most iterations a card a review may be asked for: four times its own budget.
MAX_REVIEW_ITERATIONS = 32_000
# The fewest a card reviewed ahead gets when the game has ended before the review could be
# done at its own budget (table.ahead): a quarter of it, where the review is still
# calibrated (docs/review.md#calibration).
LEAST_REVIEW_ITERATIONS = 2000
# Grades, worst first: a cost of at least this many points earns the grade.
GRADES = (("blunder", 100), ("mistake", 50), ("inaccuracy", 20))
# The review's rules: changed whenever the same search would give other costs or grades
# (review.cost_of: 3 since the costs were calibrated); a save's work done ahead under other
# rules is done again (table.ahead).
REVIEW_RULES = 3

SEARCH_SETTINGS: dict[str, Check] = {
    "iterations": _positive_int,
    "time_limit": _time_limit,
}


def play_game(
    state: GameState,
    bots: Sequence[Bot],
    move_times: list[list[float]] | None = None,
) -> GameState:
    """Play the game to its end with four bots (one per seat) and return the final state.

    The given state is not changed. With ``move_times``, each seat's thinking times in
    seconds are appended to ``move_times[seat]``.
    """
    if not isinstance(state, GameState):
        raise ValueError(f"play_game needs a GameState, not {brief_repr(state)}")
    if len(bots) != 4:
        raise ValueError(f"a game needs four bots, not {len(bots)}")
    state = state.clone()
    while not state.is_over:
        seat = state.to_move
        bot = bots[seat]
        legal = state.legal_moves()
        start = time.perf_counter()
        peek = getattr(bot, "peek", None)
        if peek is not None:
            peek(state)
        card = bot.choose(state.observation(seat), legal)
        if move_times is not None:
            move_times[seat].append(time.perf_counter() - start)
        state.play(card)
    return state


def finish(steps: Generator[object, None, _T]) -> _T:
    """What a generator of slices (``choose_steps``, ``search_steps``) returns, run to its end."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            value: _T = done.value
            return value
