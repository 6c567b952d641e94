"""Work that takes a minute, done a card a request at most: the review of a seat's cards
and the master in your seat.

The worker answers one request at a time, so long work is a **job**. One request starts it
(``review``, ``rerun``) and says how many cards it has; each ``review_next`` reviews one
card, each ``rerun_next`` plays on for at most ``RERUN_SLICE_MS`` (a card at most: the
players' searches are sliced), and says how far it has got. The page loops, drawing
progress, and cancels by asking no more: a review request finishes its card, a rerun
request leaves its card's search where it stopped for the next to go on with, so a job
stopped anywhere loses nothing, and a job works on its own copy of the game, never on the
game in play. Each next request names
its job: starting a job replaces the one of its kind before it, so a loop the page has
stopped can never advance a job started after it. Starting a game ends both jobs.

At a friends' table each guest's review and each guest's master in your seat is a job of
its own, by seat (``review`` and ``rerun`` made for a guest: table.seat_reviews), beside this
device's: one never replaces nor steps another. A guest's card is reviewed in slices of its
search (``ReviewJob.work``), and a guest's rerun plays on in slices (``RerunJob.work``), so
that the host's own requests wait for one slice at most. The master's line after a card of a
guest's review (``review_line`` made for a guest) is a job of that guest's too (``LineJob``,
its masters' searches played in slices), kept until the guest asks about another card.

A reviewed card is remembered by its game, the plays up to it, the budget and the seed: a
card reviews the same alone or in a whole game (docs/review.md), so the review of a deal
just after it ends and of the whole game at its end search that deal's cards once.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Hashable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ..bots import (
    MAX_REVIEW_ITERATIONS,
    MAX_SEARCH_ITERATIONS,
    CardReview,
    CardReviewer,
    GameReview,
    continuation_steps,
    review_position,
    seat_plays,
)
from ..cards import SEAT_NAMES, SUIT_LETTERS, Card, brief_repr
from ..game import GameState
from ..kernel import DEALS
from ..messages import Message, message
from ..record import to_record
from .errors import ProtocolError
from .rerun import Rerun, check_game, master_slices, rerun_seat, rerun_slices
from .settings import MAX_SEED_CHARS, Settings
from .story import PLAYS_PER_DEAL

MAX_REMEMBERED = 600  # reviewed cards kept: every card of a few games
RERUN_SLICE_MS = 100  # the longest a rerun_next plays on (within a card, it stops there)
SLICE_ITERATIONS = 100  # a guest's review searches this many iterations between clock checks
_T = TypeVar("_T")


@dataclass
class ReviewJob:
    """One seat's cards of one game, reviewed one a request."""

    number: int
    game: GameState  # a copy: the game in play goes on without it
    seat: int
    deals: tuple[int, ...]  # the deals reviewed (0-based)
    plays: tuple[int, ...]  # the seat's plays in those deals: indices in game.plays
    budget: int
    seed: str
    # A card reviewed ahead on a smaller search, down to this budget, will do (None: no).
    least: int | None = None
    moves: list[CardReview] = field(default_factory=list)  # each play reviewed so far
    # The next card's play and its review begun (``work``: review_steps), until it is done.
    begun: tuple[int, Generator[None, None, CardReview]] | None = None

    @property
    def finished(self) -> bool:
        """Whether every card of the job has been reviewed."""
        return len(self.moves) == len(self.plays)

    def step(self) -> tuple[CardReview, GameState]:
        """Review the next card: its ``CardReview`` and the position it was played in."""
        play = self.plays[len(self.moves)]
        position = self.position(play)
        move = remembered(self.game, play, self.budget, self.seed, self.least)
        if move is None:
            move = review_position(
                position, self.game.plays[play], play, budget=self.budget, seed=self.seed)
            remember(self.game, play, self.budget, self.seed, move)
        self.moves.append(move)
        return move, position

    def work(self, ms: float) -> tuple[CardReview, GameState] | None:
        """Review the next card for about ``ms`` milliseconds, in slices of its search (the
        same review however sliced, as ``step`` gives): its ``CardReview`` and position once
        done, else None (the next call goes on where this one stopped)."""
        play = self.plays[len(self.moves)]
        if self.begun is None or self.begun[0] != play:
            self.begun = play, review_steps(self.game, play, self.budget, self.seed, self.least)
        end = time.perf_counter() + ms / 1000
        try:
            while True:
                next(self.begun[1])
                if time.perf_counter() >= end:
                    return None
        except StopIteration as done:
            move: CardReview = done.value
        self.begun = None
        self.moves.append(move)
        return move, self.position(play)

    def position(self, play: int) -> GameState:
        """The true position before play ``play`` of the game (every hand: never sent)."""
        return self.game.before(play)

    def reviewed(self, play: Any) -> CardReview:
        """The review of play ``play`` (its index in the game's plays), once the job has
        reviewed it."""
        move = next((m for m in self.moves if m.play == play), None)
        if move is None or type(play) is not int:
            raise ProtocolError("bad_request", f"play {brief_repr(play)} is not a card reviewed "
                                f"in review job {self.number}")
        return move

    def summary(self) -> dict[str, Any]:
        """The points lost so far, overall and in each deal of the job (with its grades)."""
        review = GameReview(self.seat, tuple(self.moves))
        return {
            "total_cost": review.total_cost,
            "per_deal": [row for row in review.per_deal() if row["deal"] in self.deals],
        }


@dataclass
class RerunJob:
    """Game ``index`` of a match played again, the master in the person's seat (``seat``),
    one card a request."""

    number: int
    settings: Settings
    game: GameState  # the finished game, a copy
    index: int
    seat: int  # whose rerun: the person's (at a friends' table, one of the people's)
    steps: Iterator[GameState | None]  # rerun.rerun_slices
    state: GameState | None = None  # the rerun after its last card
    iterations: int | None = None  # the master's a move (None: its own)

    @property
    def finished(self) -> bool:
        """Whether the rerun has reached the end of the game."""
        return self.state is not None and self.state.is_over

    @property
    def side(self) -> int:
        """The person's partnership: 0 North-South, 1 East-West."""
        return self.seat % 2

    def step(self, ms: float) -> int:
        """Play on for about ``ms`` milliseconds, at most to the end of the next card (a
        card's search is sliced: a request waits for no more); the cards played so far."""
        end = time.perf_counter() + ms / 1000
        for state in self.steps:
            if state is not None:
                self.state = state
                break
            if time.perf_counter() >= end:
                break
        return len(self.state.plays) if self.state is not None else 0

    def work(self, ms: float) -> int:
        """Play on for about ``ms`` milliseconds, card after card (a card's search is sliced:
        it stops within one), or to the end; the cards played so far."""
        end = time.perf_counter() + ms / 1000
        for state in self.steps:
            if state is not None:
                self.state = state
                if state.is_over:
                    break
            if time.perf_counter() >= end:
                break
        return len(self.state.plays) if self.state is not None else 0

    def result(self) -> Rerun:
        """Both games, once the rerun is over."""
        assert self.state is not None and self.state.is_over
        return Rerun(self.game, self.state, self.side)

    def result_json(self) -> dict[str, Any]:
        """Both games' scores, the rerun's record (the master named at every person's seat:
        it played them all) and the person's side, once the rerun is over."""
        assert self.state is not None
        players = self.settings.players()
        for seat in self.settings.seats:
            players[seat] = {"computer": "master"}
        return {**self.result().to_json(), "record": to_record(self.state, players),
                "side": self.side}


@dataclass
class LineJob:
    """The likely play after a card of review ``review`` (``play``, its index in the game's
    plays) and after the better card: masters in every seat play on from the true position
    (``bots.continuation``), one line after the other, in slices (``work``)."""

    review: int  # the review job's number
    play: int
    position: GameState  # the true position before the card (every hand: never sent)
    cards: tuple[Card, ...]  # the card played, then the better one (once when the same)
    steps: list[Iterator[Card | None]]  # each card's continuation_steps
    found: list[list[Card]]  # the cards of each line so far
    at: int = 0  # the line being played

    @classmethod
    def of(cls, job: ReviewJob, move: CardReview) -> LineJob:
        """The lines after ``move``, a card ``job`` reviewed, none of their cards played yet."""
        position = job.position(move.play)
        cards = tuple(dict.fromkeys((move.card, move.best)))
        return cls(job.number, move.play, position, cards,
                   [continuation_steps(position, card, seed=job.seed) for card in cards],
                   [[] for _ in cards])

    @property
    def finished(self) -> bool:
        """Whether every line is played to its end."""
        return self.at == len(self.steps)

    def work(self, ms: float | None = None) -> bool:
        """Play the lines on for about ``ms`` milliseconds (to their end when None), stopping
        within a master's search (the same lines however sliced); whether they are done."""
        end = None if ms is None else time.perf_counter() + ms / 1000
        while not self.finished:
            for card in self.steps[self.at]:
                if card is not None:
                    self.found[self.at].append(card)
                if end is not None and time.perf_counter() >= end:
                    return False
            self.at += 1
        return True

    def reply(self) -> dict[str, Any]:
        """``review_line``'s reply, once finished: each line's card and the tricks it makes
        from the position on (the trick on the table first)."""
        assert self.finished
        lines = [{"card": str(card), "tricks": _tricks_after(self.position, [card, *found])}
                 for card, found in zip(self.cards, self.found, strict=True)]
        return {"job": self.review, "play": self.play, "lines": lines}


def _tricks_after(position: GameState, cards: list[Card]) -> list[dict[str, Any]]:
    """The tricks the cards make from ``position`` on (its trick on the table first): leader,
    cards and winner (null while unfinished)."""
    state = position.clone()
    done = len(state.tricks)
    for card in cards:
        state.play(card)
    tricks = [{"leader": t.leader, "cards": [str(c) for c in t.cards], "winner": t.winner}
              for t in state.tricks[done:]]
    if state.trick:
        tricks.append({"leader": state.leader, "cards": [str(c) for c in state.trick],
                       "winner": None})
    return tricks


class _Jobs:
    """The review and the rerun in progress (each None when there is none), each guest's
    review, rerun and line by seat, the number of the last job started, and the cards
    reviewed so far."""

    def __init__(self) -> None:
        self.review: ReviewJob | None = None
        self.rerun: RerunJob | None = None
        self.guests: dict[int, ReviewJob] = {}
        self.guest_reruns: dict[int, RerunJob] = {}
        self.guest_lines: dict[int, LineJob] = {}
        self.started = 0
        self.reviewed: dict[Hashable, dict[int, CardReview]] = {}  # by budget


_jobs = _Jobs()


def end_jobs() -> None:
    """End every job (a game starts); the cards reviewed stay remembered."""
    _jobs.review = _jobs.rerun = None
    _jobs.guests = {}
    _jobs.guest_reruns = {}
    _jobs.guest_lines = {}


def reset() -> None:
    """Forget the jobs and every card reviewed (for tests)."""
    end_jobs()
    _jobs.reviewed = {}


def start_review(game: GameState, seat: int, deals: tuple[int, ...], budget: int,
                 seed: str, *, guest: bool = False, least: int | None = None) -> ReviewJob:
    """Start reviewing ``seat``'s cards of ``deals`` in ``game``, for this device or (``guest``)
    for the guest at ``seat``, replacing that one's review; refuses when there are none.
    With ``least``, a card reviewed ahead on a smaller search down to that budget will do."""
    plays = tuple(p for p in seat_plays(game, seat) if p // PLAYS_PER_DEAL in deals)
    if not plays:
        raise ProtocolError("nothing_to_review", "the seat has played no card to review there")
    _jobs.started += 1
    job = ReviewJob(_jobs.started, game.clone(), seat, deals, plays, budget, seed, least)
    if guest:
        _jobs.guests[seat] = job
    else:
        _jobs.review = job
    return job


def review_started(job: ReviewJob, labels: list[Message], sides: list[Message]
                   ) -> dict[str, Any]:
    """The reply to a review's start (``review``, a guest's too): the job and what it
    reviews, with the seats' and sides' names as the reviewed person reads them."""
    return {
        "job": job.number,
        "seat": job.seat,
        "deals": list(job.deals),
        "total": len(job.plays),
        "budget": job.budget,
        "seed": job.seed,
        "suits": [SUIT_LETTERS[suit] for suit in job.game.suits],
        "labels": labels,
        "sides": sides,
    }


def start_rerun(settings: Settings, game: GameState, index: int, iterations: int | None,
                resume: tuple[GameState | None, Iterator[GameState | None]] | None = None,
                *, guest: int | None = None) -> RerunJob:
    """Start playing finished game ``index`` of a match again, the master in the seat of
    the one person on this device, or (``guest``) of the guest at that seat, replacing that
    one's rerun; or go on with ``resume``, the same rerun begun ahead (its position so far,
    None before its first card, and its steps)."""
    seat = _rerun_check("master.one_person", lambda: rerun_seat(settings, guest))
    _rerun_check("master.only_here", lambda: check_game(settings, game, index))
    copy = game.clone()
    if resume is None:
        steps = rerun_slices(settings, copy, index, master_slices(settings, index, iterations))
        state = None
    else:
        state, steps = resume
    _jobs.started += 1
    job = RerunJob(_jobs.started, settings, copy, index, seat, steps, state, iterations)
    if guest is None:
        _jobs.rerun = job
    else:
        _jobs.guest_reruns[guest] = job
    return job


def last_rerun() -> RerunJob | None:
    """This device's last rerun job, finished or not (a comparison reuses a finished one)."""
    return _jobs.rerun


def _rerun_check(words: str, check: Callable[[], _T]) -> _T:
    """What ``check`` returns; its ValueError refused as ``unavailable``, said by ``words``."""
    try:
        return check()
    except ValueError as exc:
        raise ProtocolError("unavailable", f"the master cannot play this game again: {exc}",
                            message(words)) from None


def review_steps(game: GameState, play: int, budget: int, seed: str, least: int | None = None
                 ) -> Generator[None, None, CardReview]:
    """The review of play ``play`` of ``game`` at ``budget`` and ``seed``, a slice of its
    search (``SLICE_ITERATIONS``) a step: the one done before if any (``remembered``, down to
    ``least``), else searched and remembered. The same review however it is stepped."""
    move = remembered(game, play, budget, seed, least)
    if move is None:
        reviewer = CardReviewer(game.before(play), game.plays[play], play, budget=budget,
                                seed=seed)
        while (move := reviewer.step(SLICE_ITERATIONS)) is None:
            yield None
        remember(game, play, budget, seed, move)
    review: CardReview = move
    return review


def remembered(game: GameState, play: int, budget: int, seed: str, least: int | None = None
               ) -> Any:
    """The review of play ``play`` of a game at this budget and seed, if one was done; with
    ``least``, one at a smaller budget down to that will do (the largest there is): a review
    done ahead on a smaller search when the game ended before the full one could be
    (table.ahead)."""
    done = _jobs.reviewed.get(_review_key(game, play, seed), {})
    if budget in done or least is None:
        return done.get(budget)
    budgets = [b for b in done if least <= b < budget]
    return done[max(budgets)] if budgets else None


def remember(game: GameState, play: int, budget: int, seed: str, move: Any) -> None:
    """Keep the review of play ``play`` of a game (``CardReview``), for any job to reuse."""
    if len(_jobs.reviewed) >= MAX_REMEMBERED:
        _jobs.reviewed.clear()
    _jobs.reviewed.setdefault(_review_key(game, play, seed), {})[budget] = move


def _review_key(game: GameState, play: int, seed: str) -> Hashable:
    return (_identity(game), tuple(game.plays[: play + 1]), seed)


def review_job(number: Any, guest: int | None = None) -> ReviewJob:
    """The review in progress (the guest's at seat ``guest``, when given), if ``number`` names
    it and it has cards left to review."""
    job = _jobs.review if guest is None else _jobs.guests.get(guest)
    _check_job("review", number, job)
    assert job is not None
    return job


def reviewed_job(number: Any, guest: int | None = None) -> ReviewJob:
    """The review ``number`` names, finished or not (its cards reviewed so far): this
    device's, or (``guest``) the guest's at that seat."""
    job = _jobs.review if guest is None else _jobs.guests.get(guest)
    if type(number) is not int:
        raise ProtocolError("bad_request", f"review_line needs the review's job number, not "
                            f"{brief_repr(number)}")
    if job is None or job.number != number:
        whose = "review" if guest is None else f"review of the guest at {SEAT_NAMES[guest]}"
        now = f"the {whose} is job {job.number}" if job else f"there is no {whose}"
        raise ProtocolError("no_job", f"review job {number} is not the {whose} ({now})")
    return job


def guest_line(number: Any, play: Any, guest: int) -> LineJob:
    """The lines after play ``play`` of review ``number`` of the guest at seat ``guest``: the
    ones begun at its last ask when it asks about the same card again, else new ones (which
    replace them)."""
    job = reviewed_job(number, guest)
    move = job.reviewed(play)
    line = _jobs.guest_lines.get(guest)
    if line is None or (line.review, line.play) != (job.number, move.play):
        line = _jobs.guest_lines[guest] = LineJob.of(job, move)
    return line


def rerun_job(number: Any, guest: int | None = None) -> RerunJob:
    """The rerun in progress (the guest's at seat ``guest``, when given), if ``number`` names
    it and it has cards left to play."""
    job = _jobs.rerun if guest is None else _jobs.guest_reruns.get(guest)
    _check_job("rerun", number, job)
    assert job is not None
    return job


def _check_job(kind: str, number: Any, job: ReviewJob | RerunJob | None) -> None:
    if type(number) is not int:
        raise ProtocolError("bad_request", f"{kind}_next needs the job's number, not "
                            f"{brief_repr(number)}")
    if job is None or job.number != number:
        now = f"the {kind} in progress is job {job.number}" if job else f"no {kind} is in progress"
        raise ProtocolError("no_job", f"{kind} job {number} is not in progress ({now})")
    if job.finished:
        raise ProtocolError("no_job", f"{kind} job {number} is finished")


def check_budget(budget: Any, default: int) -> int:
    """A review budget in iterations a card (``default`` when None)."""
    if budget is None:
        return default
    if type(budget) is not int or not 1 <= budget <= MAX_REVIEW_ITERATIONS:
        raise ProtocolError("bad_request", f"budget must be a whole number of iterations from 1 "
                            f"to {MAX_REVIEW_ITERATIONS:,}, not {brief_repr(budget)}")
    return budget


def check_iterations(iterations: Any) -> int | None:
    """The master's budget a move in a rerun (None: its own default)."""
    if iterations is not None and (type(iterations) is not int
                                   or not 1 <= iterations <= MAX_SEARCH_ITERATIONS):
        raise ProtocolError("bad_request", f"iterations must be a whole number from 1 to "
                            f"{MAX_SEARCH_ITERATIONS:,}, not {brief_repr(iterations)}")
    return iterations


def check_seed(seed: Any) -> str:
    """A review seed: text or a whole number ("0" when None), as the command line takes it."""
    if seed is None:
        return "0"
    if type(seed) is int:
        return str(seed)
    if not isinstance(seed, str) or not 0 < len(seed) <= MAX_SEED_CHARS or not seed.isprintable():
        raise ProtocolError("bad_seed", f"a review seed is a number or a text of at most "
                            f"{MAX_SEED_CHARS} characters, not {brief_repr(seed)}")
    return seed


def check_deal(deal: Any, complete: int) -> tuple[int, ...]:
    """The deals to review: ``deal`` (0-based) if it is one of the ``complete`` ones, else
    all of those."""
    if deal is None:
        if not complete:
            raise ProtocolError("deal_not_over", "no deal is over yet: a deal is reviewed once "
                                "its last card is played")
        return tuple(range(complete))
    if type(deal) is not int or not 0 <= deal < DEALS:
        raise ProtocolError("bad_request", f"deal must be 0-{DEALS - 1}, not {brief_repr(deal)}")
    if deal >= complete:
        raise ProtocolError("deal_not_over", f"deal {deal + 1} is not over yet: a deal is "
                            "reviewed once its last card is played")
    return (deal,)


def _identity(game: GameState) -> Hashable:
    return (game.rules, tuple(game.suits), game.first_dealer, tuple(game.deck))

