"""Work ahead: the review of the people's cards and the master in your seat, done in the
worker's idle time while the game goes on, so that both are ready when the game ends.

The page sends ``work {ms}`` whenever the game in play needs nothing of the worker for a
while (docs/review.md#ready-when-the-game-ends); the engine works for about ``ms``
milliseconds, in slices, and says how far it has got. A slice is a part of one card's review
(``CardReviewer.step``: the same review however it is sliced) or of one card of the rerun
(``rerun.rerun_slices``: the players' searches yield between their layouts). The rerun goes
first while it has played fewer cards than the game (in the Calypso of the day, to its end:
``RERUN_FIRST``), the review otherwise; once the game is over, the cards still waiting for
their review get a search sized to the time there is. So a request of the game waits for
one slice at most, and the game is never changed: the work reads copies.

Each person's cards are reviewed from their own seat's view, at the review's own budget and
seed, and kept in ``jobs``' memory, so that the ``review`` asked for after a deal or the game
finds them done; a reply of ``work`` says only how many are done, never what they say. The
master in your seat (one person at the table) plays the game from its first card, which
needs nothing of the person's cards but the deck; ``rerun`` takes it over. What is done goes
into the save (``kept``) and comes back with ``restore``, so a reload loses none of it. It
leaves the engine sealed (``sealed.seal_data``): the reviews name a person's legal cards and
the rerun plays cards the person has not seen, so the page keeps it without reading it.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..bots import (
    LEAST_REVIEW_ITERATIONS,
    REVIEW_ITERATIONS,
    REVIEW_RULES,
    CardReview,
    CardReviewer,
)
from ..cards import Card, brief_repr
from ..game import GameState
from . import jobs
from .daily import daily_date
from .errors import ProtocolError
from .match import Match
from .rerun import check_game, master_slices, rerun_slices, the_person
from .sealed import open_data, seal_data

REVIEW_SEED = "0"  # the seed of a review asked for without one
# A save keeps the rules a review done ahead was made by (``review.REVIEW_RULES``) with its
# work, and work kept by other rules (a save of an earlier version of the page: before a
# card's line and budget were kept, or before the costs were calibrated) is left out on
# loading and done again, never refused.
REVIEW_BUDGET = REVIEW_ITERATIONS  # and its budget
SLICE_MS = 40  # the longest slice of a card's review
MAX_WORK_MS = 5_000  # the longest a work request may take
FIRST_RATE = 5.0  # review iterations a millisecond, until measured
# Once the game is over, the cards still waiting are reviewed on a search small enough for
# all of them to be done in about this long at the rate measured (LEAST_REVIEW_ITERATIONS a
# card at the fewest): on a busy device the review is ready soon after the result.
READY_MS = 3_000
# The master in your seat is played whole before the review in the Calypso of the day, whose
# share line waits for its score (bench/ahead_schedule.py --daily measures it against False).
RERUN_FIRST = True


@dataclass
class _Pending:
    """A person's card waiting for its review (the position before it, a copy)."""

    play: int
    card: Card
    position: GameState


@dataclass
class _Ahead:
    """The work ahead for one game of one match."""

    key: Any
    budget: int
    iterations: int | None  # the master's a move in the rerun (None: its own)
    position: GameState  # the game in play replayed as far as scanned
    people_plays: int = 0  # the people's cards among those scanned
    pending: list[_Pending] = field(default_factory=list)
    reviewer: Any = None  # the CardReviewer of pending[0], once begun
    reviews: list[dict[str, Any]] = field(default_factory=list)  # kept: JSON, in order done
    unsent: int = 0  # reviews done since the last reply handed the work over
    rerun_sent: int = 0  # how many of the rerun's cards the last reply carried
    rate: float = FIRST_RATE
    rerun: GameState | None = None  # the rerun's position after its last card
    rerun_steps: Iterator[GameState | None] | None = None  # rerun.rerun_slices
    rerun_taken: bool = False  # handed to the rerun job
    rerun_first: bool = False  # the rerun before the review (the Calypso of the day)


class _State:
    ahead: _Ahead | None = None


_state = _State()


def reset() -> None:
    """Forget the work ahead (a new session, for tests)."""
    _state.ahead = None


def work(match: Match, ms: Any, budget: int | None = None, iterations: int | None = None
         ) -> dict[str, Any]:
    """Work on the review (``budget`` iterations a card; the review's own when None) and the
    rerun (the master's ``iterations`` a move; its own when None) for about ``ms``
    milliseconds; how far they are."""
    if type(ms) is not int or not 1 <= ms <= MAX_WORK_MS:
        raise ProtocolError("bad_request", f"ms must be a whole number of milliseconds from 1 "
                            f"to {MAX_WORK_MS:,}, not {brief_repr(ms)}")
    ahead = _ahead(match, budget, iterations)
    if ahead is None:
        return _progress(match, None)
    end = time.perf_counter() + ms / 1000
    over = match.state.is_over
    while (left := (end - time.perf_counter()) * 1000) > 1:
        # The rerun first while it is behind the game (its cost cannot shrink once the game is
        # over, while the review's cards still waiting then get a smaller search), and to its
        # end in the Calypso of the day, whose share line waits for the master's score.
        if (ahead.rerun_first or _rerun_behind(ahead, match)) and _rerun_slice(ahead, left):
            continue
        if not (_review_slice(ahead, left, over) or _rerun_slice(ahead, left)):
            break
    return _progress(match, ahead)


def _rerun_behind(ahead: _Ahead, match: Match) -> bool:
    """Whether the rerun has played fewer cards than the game in play."""
    done = len(ahead.rerun.plays) if ahead.rerun is not None else 0
    return done < len(match.state.plays)


def kept(match: Match) -> str | None:
    """What the save keeps of the work done on the game in play, sealed (None when there is
    none)."""
    ahead = _state.ahead
    # The work at the budgets it was asked for (a test's, or the engine's own).
    return None if ahead is None or ahead.key[:-2] != _game_key(match) else _kept(ahead)


def _kept(ahead: _Ahead) -> str | None:
    if not (ahead.reviews or ahead.rerun):
        return None
    return seal_data({"budget": ahead.budget, "seed": REVIEW_SEED, "rules": REVIEW_RULES,
                      "reviews": list(ahead.reviews),
                      "rerun": [str(card) for card in ahead.rerun.plays] if ahead.rerun else [],
                      **({} if ahead.iterations is None else {"iterations": ahead.iterations})})


def restore(match: Match, saved: Any) -> None:
    """Take back what a save kept (``kept``); refuses anything malformed. A review of a card
    the game no longer holds (taken back since) is left out, and so is all the work of
    another review's seed or rules (``REVIEW_RULES``)."""
    if saved is None:
        return
    saved = open_data(saved, "ahead")
    if not isinstance(saved, dict) or set(saved) - {"iterations", "rules"} != {
            "budget", "seed", "reviews", "rerun"}:
        raise ProtocolError("bad_record", "ahead must be {budget, seed, reviews, rerun, "
                            "rules?, iterations?}")
    if saved["seed"] != REVIEW_SEED or saved.get("rules") != REVIEW_RULES:
        return  # work of another review: of no use to this one
    try:  # the budgets it was done at (a test's, or the engine's own)
        budget = jobs.check_budget(saved["budget"], REVIEW_BUDGET)
        iterations = jobs.check_iterations(saved.get("iterations"))
    except ProtocolError as exc:
        raise ProtocolError("bad_record", f"ahead: {exc}") from None
    ahead = _ahead(match, budget, iterations)
    if ahead is None:
        return
    reviews, rerun = saved["reviews"], saved["rerun"]
    if not isinstance(reviews, list) or not isinstance(rerun, list) or len(rerun) > 208:
        raise ProtocolError("bad_record", "ahead: reviews and rerun must be lists")
    game = match.state
    for item in reviews:
        try:
            play = item["play"] if isinstance(item, dict) else None
            if type(play) is not int or not 0 <= play < len(game.plays):
                continue
            if item.get("at") != _digest(game, play):
                continue
            move = CardReview.from_json(
                {k: v for k, v in item.items() if k != "at"}, _seat_of(game, play))
        except ValueError as exc:
            raise ProtocolError("bad_record", f"ahead: {exc}") from None
        jobs.remember(game, play, move.budget, REVIEW_SEED, move)
        ahead.reviews.append(item)
    ahead.pending = [p for p in ahead.pending
                     if jobs.remembered(game, p.play, ahead.budget, REVIEW_SEED, _least(ahead))
                     is None]
    if rerun and ahead.rerun_steps is not None:
        try:
            ahead.rerun = _replayed(game, rerun)
        except ValueError as exc:
            raise ProtocolError("bad_record", f"ahead: the rerun's cards: {exc}") from None
        index = len(match.history)
        ahead.rerun_steps = rerun_slices(match.settings, game.clone(), index,
                                         master_slices(match.settings, index, ahead.iterations),
                                         rerun)


def take_rerun(match: Match, iterations: int | None
               ) -> tuple[GameState | None, Iterator[GameState | None]] | None:
    """The rerun begun ahead for the game in play at the master's ``iterations``, handed over
    to the rerun job (once)."""
    ahead = _state.ahead
    if (ahead is None or ahead.key[:-2] != _game_key(match) or ahead.iterations != iterations
            or ahead.rerun_steps is None or ahead.rerun_taken):
        return None
    ahead.rerun_taken = True
    return ahead.rerun, ahead.rerun_steps


# -- the work -----------------------------------------------------------------------------------


def _ahead(match: Match, budget: int | None = None, iterations: int | None = None
           ) -> _Ahead | None:
    """The work ahead for the game in play (begun afresh for a new game, or other budgets),
    with the people's cards played since the last call waiting; None without the computer
    players."""
    game = match.state
    budget = REVIEW_BUDGET if budget is None else budget
    key = (*_game_key(match), budget, iterations)
    ahead = _state.ahead
    if ahead is None or ahead.key != key:
        daily = daily_date(match.settings) is not None
        ahead = _state.ahead = _Ahead(key, budget, iterations, game.before(0),
                                      rerun_first=RERUN_FIRST and daily)
        _begin_rerun(match, ahead)
    if ahead.position.plays != game.plays[: len(ahead.position.plays)]:  # cards taken back
        ahead.position, ahead.pending, ahead.reviewer = game.before(0), [], None
        ahead.people_plays = 0
    people = set(match.settings.seats)
    position = ahead.position
    for play in range(len(position.plays), len(game.plays)):
        card = game.plays[play]
        if position.to_move in people:
            ahead.people_plays += 1
            if jobs.remembered(game, play, ahead.budget, REVIEW_SEED, _least(ahead)) is None:
                ahead.pending.append(_Pending(play, card, position.clone()))
        position.play(card)
    return ahead


def _game_key(match: Match) -> tuple[Any, ...]:
    game = match.state
    return (id(match), len(match.history), match.settings, game.deck, game.suits)


def _begin_rerun(match: Match, ahead: _Ahead) -> None:
    index = len(match.history)
    try:
        the_person(match.settings)
        check_game(match.settings, match.state, index)
    except ValueError:  # several people, or a game this match did not deal
        ahead.rerun_steps = None
        return
    ahead.rerun_steps = rerun_slices(match.settings, match.state.clone(), index,
                                     master_slices(match.settings, index, ahead.iterations))


def _review_slice(ahead: _Ahead, left: float, over: bool) -> bool:
    """Review a slice of the next card waiting; False when none waits. Once the game is
    ``over``, a card begun gets a budget sized to the time there is (``_budget_now``)."""
    while ahead.pending and ahead.reviewer is None:
        first = ahead.pending[0]
        if jobs.remembered(ahead.position, first.play, ahead.budget, REVIEW_SEED,
                           _least(ahead)) is not None:
            ahead.pending.pop(0)  # reviewed meanwhile by a review job
            continue
        budget = _budget_now(ahead) if over else ahead.budget
        ahead.reviewer = CardReviewer(
            first.position, first.card, first.play, budget=budget, seed=REVIEW_SEED)
    if ahead.reviewer is None:
        return False
    iterations = max(20, int(ahead.rate * min(left, SLICE_MS)))
    spent, start = ahead.reviewer.spent, time.perf_counter()
    move = ahead.reviewer.step(iterations)
    elapsed = (time.perf_counter() - start) * 1000
    if elapsed > 1 and ahead.reviewer.spent > spent:
        ahead.rate = (ahead.reviewer.spent - spent) / elapsed
    if move is not None:
        done = ahead.pending.pop(0)
        jobs.remember(ahead.position, done.play, move.budget, REVIEW_SEED, move)
        ahead.reviews.append({**move.to_json(), "at": _digest(ahead.position, done.play)})
        ahead.unsent += 1
        ahead.reviewer = None
    return True


def _least(ahead: _Ahead) -> int:
    """The fewest iterations a card of this work may have been reviewed at."""
    return min(ahead.budget, LEAST_REVIEW_ITERATIONS)


def _budget_now(ahead: _Ahead) -> int:
    """The budget of a card begun after the game: the cards waiting done in ``READY_MS`` at
    the rate measured, between ``_least`` and the work's own budget."""
    fits = int(ahead.rate * READY_MS / max(1, len(ahead.pending)))
    return max(_least(ahead), min(ahead.budget, fits))


def _rerun_slice(ahead: _Ahead, left: float) -> bool:
    """Play the rerun on for about ``left`` milliseconds, to the end of its next card at most
    (a card's search is sliced between its layouts); False when it has nothing to play."""
    if ahead.rerun_steps is None or ahead.rerun_taken:
        return False
    if ahead.rerun is not None and ahead.rerun.is_over:
        return False
    end = time.perf_counter() + left / 1000
    for state in ahead.rerun_steps:
        if state is not None:
            ahead.rerun = state
            return True
        if time.perf_counter() >= end:
            return True
    return False


def _progress(match: Match, ahead: _Ahead | None) -> dict[str, Any]:
    """How far the work is: the people's cards reviewed of those played, the rerun's cards,
    when it changed, what the save keeps (``kept``: sealed), and the cards played in the game
    worked on (the page works while a person thinks only on the game it shows)."""
    if ahead is None:
        return {"review": None, "rerun": None, "more": False, "keep": None,
                "plays": len(match.state.plays)}
    played = ahead.people_plays
    rerun = None
    if ahead.rerun_steps is not None:
        done = len(ahead.rerun.plays) if ahead.rerun is not None else 0
        rerun = {"done": done, "total": len(match.state.deck)}
    more = bool(ahead.pending) or (rerun is not None and not ahead.rerun_taken
                                   and rerun["done"] < rerun["total"])
    rerun_cards = len(ahead.rerun.plays) if ahead.rerun else 0
    changed = ahead.unsent or rerun_cards != ahead.rerun_sent
    ahead.unsent, ahead.rerun_sent = 0, rerun_cards
    keep = _kept(ahead) if changed else None
    return {"review": {"done": played - len(ahead.pending), "played": played},
            "rerun": rerun, "more": more, "keep": keep, "plays": len(match.state.plays)}


# -- helpers ------------------------------------------------------------------------------------


def _digest(game: GameState, play: int) -> str:
    """A short name of the plays up to and including ``play``: a kept review is of that
    position only."""
    text = " ".join(str(card) for card in game.plays[: play + 1])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _seat_of(game: GameState, play: int) -> int:
    return game.before(play).to_move


def _replayed(game: GameState, cards: list[Any]) -> GameState | None:
    if not cards:
        return None
    state = game.before(0)
    for card in cards:
        state.play(card)
    return state
