"""The comparison of a challenge: two people's matches on the same cards, side by side.

Both results deal by deal and the difference; where the two games first parted (the deal,
the trick, the seat and the two cards); each person's points lost, from the review of their
own cards; and the master in their seat on the same cards, as a third line. Every figure is
in the person's **partnership's lead** (its score less the other side's), the unit the
review counts in.

The work takes a while (a computer player's move in a game played again from a link, a
review's card, a master's move), so it is a **job**, as the review and the rerun are
(``jobs``): ``start`` checks the links and says how much work there is, each ``work(ms)``
goes on for about that long in slices, and the partial result is there as soon as both
games are known (the scores and where they parted), the master's line and the points lost
filling in after. The same challenge and games give the same comparison on any device:
every step is seeded (the computer players, the master, the review's seed ``"0"``).
"""

from __future__ import annotations

import time
from collections.abc import Generator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..bots import CardReview, GameReview, seat_plays
from ..game import GameState
from . import jobs
from .challenge import Challenge, Played, Reply, Terms, replay
from .rerun import master_slices, rerun_slices
from .story import PLAYS_PER_DEAL
from .views import deal_scores

REVIEW_SEED = "0"  # the seed the review and the work ahead use without one
MAX_MASTERS = 16  # the master's games kept for later comparisons: a few challenges' worth


@dataclass
class Line:
    """One person's match in the comparison: their name, whether they sent the challenge,
    their games (None until played again from a link) and what carries them."""

    name: str
    sender: bool
    games: list[GameState] | None = None
    played: Played | None = None  # the link's games, to play again
    lost: list[list[CardReview]] = field(default_factory=list)  # reviewed cards, by game


@dataclass
class CompareJob:
    """A challenge's comparison in progress (module docstring)."""

    number: int
    challenge: Challenge
    lines: list[Line]  # the sender's first, when the challenge carries their games
    you: int | None  # the line of this device's person (None: a sender who has not played)
    budget: int  # the review's iterations a card
    iterations: int | None  # the master's a move (None: its own)
    done: int = 0
    total: int = 0
    master: list[GameState] | None = None
    steps: Generator[None, None, None] | None = None
    replaying: Line | None = None  # the line whose games are being played again

    @property
    def finished(self) -> bool:
        """Whether every part of the comparison is done."""
        return self.steps is None

    def work(self, ms: float) -> None:
        """Go on for about ``ms`` milliseconds (a slice at most past it), or to the end."""
        if self.steps is None:
            return
        end = time.perf_counter() + ms / 1000
        for _ in self.steps:
            if time.perf_counter() >= end:
                return
        self.steps = None
        self.done = self.total

    def run(self) -> Generator[None, None, None]:
        """Every part of the work in order, yielding between slices: the games played again,
        then each person's review, then the master's line (by then this device's own master
        in your seat, which the page plays after the game, is often done: it is taken)."""
        for line in self.lines:
            if line.games is None:
                yield from self._replay(line)
        for line in self.lines:
            assert line.games is not None
            for game in line.games:
                line.lost.append((yield from self._review(game)))
        self.master = []
        for index, game in enumerate(self._first_games()):
            self.master.append((yield from self._master(index, game)))

    def _replay(self, line: Line) -> Generator[None, None, None]:
        """Play a line's games again from its link: with another line's known games when
        both were played without the clock (their shared start is not searched again)."""
        assert line.played is not None
        known = next((other.games for other in self.lines
                      if other.games is not None and not _clocked(other)), [])
        start = self.done
        self.replaying = line
        steps = replay(self.challenge.terms, line.played, [] if _clocked(line) else known)
        while True:
            try:
                done = next(steps)
            except StopIteration as stop:
                line.games, self.replaying = stop.value, None
                return
            if done is not None:
                self.done = start + done
            yield None

    def _master(self, index: int, game: GameState) -> Generator[None, None, GameState]:
        """The master in your seat of game ``index``: kept from an earlier comparison or this
        device's rerun job, else played."""
        terms = self.challenge.terms
        key = (terms, index, self.iterations)
        state = _state.masters.get(key) or _rerun_done(terms, index, self.iterations)
        if state is None:
            settings = terms.settings()
            player = master_slices(settings, index, self.iterations)
            for state in rerun_slices(settings, game, index, player):
                if state is not None:
                    self.done += 1
                yield None
        else:
            self.done += len(state.plays)
        assert state is not None
        if len(_state.masters) >= MAX_MASTERS:
            _state.masters.clear()
        _state.masters[key] = state
        return state

    def _first_games(self) -> list[GameState]:
        first = self.lines[0].games
        assert first is not None
        return first

    def _review(self, game: GameState) -> Generator[None, None, list[CardReview]]:
        seat = self.challenge.terms.seat
        moves = []
        for play in seat_plays(game, seat):
            moves.append((yield from jobs.review_steps(game, play, self.budget, REVIEW_SEED)))
            self.done += 1
            yield None
        return moves

    def result(self) -> dict[str, Any] | None:
        """The comparison so far: None until every game is known, then the scores, where the
        games parted and the difference, with the master's line and the points lost once
        done (null before)."""
        if any(line.games is None for line in self.lines):
            return None
        side = self.challenge.terms.seat % 2
        lines = [self._line(line, side) for line in self.lines]
        both = len(self.lines) == 2
        return {
            "challenge": self.challenge.id,
            "you": self.you,
            "side": side,
            "lines": lines,
            "difference": lines[self.you]["lead"] - lines[1 - self.you]["lead"]
            if both and self.you is not None else None,
            "parted": [parted(*pair) for pair in zip(*(line.games or [] for line in self.lines),
                                                      strict=True)] if both else None,
            "clocked": any(_clocked(line) for line in self.lines),
            "master": None if not self._master_done() else _results(self.master or [], side),
        }

    def _master_done(self) -> bool:
        return self.master is not None and len(self.master) == self.challenge.terms.games \
            and all(game.is_over for game in self.master)

    def _line(self, line: Line, side: int) -> dict[str, Any]:
        assert line.games is not None
        reviewed = len(line.lost) == len(line.games)
        return {"name": line.name, "sender": line.sender, **_results(line.games, side),
                "lost": _lost(line.lost) if reviewed else None}


def _results(games: Sequence[GameState], side: int) -> dict[str, Any]:
    """A match's results in the side's lead: each game's scores, its lead after each deal,
    and the lead over the match."""
    rows = []
    for game in games:
        scores = game.partnership_scores()
        rows.append({"scores": list(scores),
                     "deals": [s[side] - s[1 - side] for s in deal_scores(game)],
                     "lead": scores[side] - scores[1 - side]})
    return {"games": rows, "lead": sum(row["lead"] for row in rows)}


def _lost(reviews: list[list[CardReview]]) -> dict[str, Any]:
    """Points lost by game and deal, from the reviews of a person's cards."""
    games = []
    for moves in reviews:
        review = GameReview(moves[0].seat if moves else 0, tuple(moves))
        games.append({"deals": [row["cost"] for row in review.per_deal()],
                      "total": review.total_cost})
    return {"games": games, "total": sum(game["total"] for game in games)}


def parted(first: GameState, second: GameState) -> dict[str, Any] | None:
    """Where two games of the same deck first differ: the deal and the trick (0-based), the
    seat to play and each game's card there; None when they were played alike."""
    for play, (a, b) in enumerate(zip(first.plays, second.plays, strict=True)):
        if a != b:
            position = first.before(play)
            return {"play": play, "deal": play // PLAYS_PER_DEAL,
                    "trick": play % PLAYS_PER_DEAL // 4, "seat": position.to_move,
                    "cards": [str(a), str(b)]}
    return None


def _clocked(line: Line) -> bool:
    """Whether the line's computer players had a clock (a link carrying every card)."""
    return line.played is not None and line.played.every




# -- the job in progress ------------------------------------------------------------------------


class _State:
    """The comparison in progress, the number of the last one started, and the master's
    games played so far, by terms, game and budget (the same for every reply)."""

    def __init__(self) -> None:
        self.job: CompareJob | None = None
        self.started = 0
        self.masters: dict[tuple[Terms, int, int | None], GameState] = {}


_state = _State()


def reset() -> None:
    """Forget the comparison in progress and the master's games (for tests)."""
    _state.job = None
    _state.masters = {}


def _rerun_done(terms: Terms, index: int, iterations: int | None) -> GameState | None:
    """The master in your seat of game ``index`` of a match on these terms without the clock,
    when this device's rerun job played it to its end at ``iterations``."""
    job = jobs.last_rerun()
    if job is None or not job.finished or (job.index, job.iterations) != (index, iterations) \
            or job.settings.clock:
        return None
    try:
        same = Terms.of(job.settings) == terms
    except ValueError:  # several people
        return None
    return job.state if same else None


def start(challenge: Challenge, answer: Reply | list[GameState], name: str, budget: int,
          iterations: int | None) -> CompareJob:
    """Start comparing the sender's games, when the challenge carries them, with a friend's:
    a ``Reply`` (on the sender's device: the sender is "you" when they played), or this
    device's finished match, played by ``name`` (on the friend's). Replaces the comparison
    in progress."""
    lines: list[Line] = []
    if challenge.played is not None:
        lines.append(Line(challenge.sender, True, played=challenge.played))
    if isinstance(answer, Reply):
        lines.append(Line(answer.played.name, False, played=answer.played))
        you = 0 if challenge.played is not None else None
    else:
        lines.append(Line(name, False, games=answer))
        you = len(lines) - 1
    games = challenge.terms.games
    per_game = 4 * PLAYS_PER_DEAL
    replays = sum(per_game * games for line in lines if line.games is None)
    # a person plays 13 cards of every deal: 52 a game to review
    reviews = PLAYS_PER_DEAL * games * len(lines)
    _state.started += 1
    job = CompareJob(_state.started, challenge, lines, you, budget, iterations,
                     total=replays + per_game * games + reviews)
    job.steps = job.run()
    _state.job = job
    return job


def job_in_progress(number: Any) -> CompareJob | None:
    """The comparison ``number`` names, if it is the one in progress."""
    job = _state.job
    return job if job is not None and job.number == number else None
