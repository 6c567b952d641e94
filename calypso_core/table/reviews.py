"""After the game: the review of one seat's cards (``review``, then ``review_next`` a card at
a time), the master in the person's seat (``rerun``, then ``rerun_next``), and the work done
ahead on both while the page waits (``work``, table.ahead). Each of them but ``work``, made for
the guest at a seat of a remote table (``guest``), is that guest's (table.seat_reviews)."""

from __future__ import annotations

from typing import Any

from ..bots import LEAST_REVIEW_ITERATIONS, REVIEW_ITERATIONS
from ..cards import SEAT_NAMES, brief_repr
from ..game import GameState
from ..messages import Message
from . import ahead, jobs, seat_reviews
from .errors import ProtocolError
from .session import guest_of, match_in_play, state_of
from .settings import people_of, seat_labels, side_labels
from .story import PLAYS_PER_DEAL
from .views import seen_by


def review(data: dict[str, Any]) -> dict[str, Any]:
    """Start reviewing one seat's cards: of the given ``record`` (any seat), else of the game
    in play (a person's seat, the deals that are over). ``review_next`` does one card."""
    guest = _guest("review", data)
    if guest is not None:
        return seat_reviews.guest_review(match_in_play("review"), guest, data)
    if data.get("record") is None:
        state, seat, complete, labels, sides = _review_in_play(data.get("seat"))
    else:
        state, seat, complete, labels, sides = _review_of_record(data)
    deals = jobs.check_deal(data.get("deal"), complete)
    budget = jobs.check_budget(data.get("budget"), REVIEW_ITERATIONS)
    seed = jobs.check_seed(data.get("seed"))
    # At its own budget, a card reviewed ahead on a smaller search when the game ended will do.
    least = LEAST_REVIEW_ITERATIONS if data.get("budget") is None else None
    job = jobs.start_review(state, seat, deals, budget, seed, least=least)
    return jobs.review_started(job, labels, sides)


_Reviewed = tuple[GameState, int, int, list[Message], list[Message]]


def _review_in_play(seat: Any) -> _Reviewed:
    """The game in play, a person's seat (the only one's by default) and its deals over."""
    match = match_in_play("review")
    people = match.settings.seats
    if seat is None and len(people) == 1:
        seat = people[0]
    if type(seat) is not int or seat not in people:
        raise ProtocolError("bad_request", "review needs the seat of a person at the table "
                            f"({', '.join(SEAT_NAMES[p] for p in people)}), not {brief_repr(seat)}")
    state = match.state
    complete = len(state.plays) // PLAYS_PER_DEAL
    return state, seat, complete, match.settings.labels(), match.settings.side_labels()


def _review_of_record(data: dict[str, Any]) -> _Reviewed:
    """A game record, any seat (its person's, else South's): every deal of a finished game,
    the deals that are over of a game not over (the cards of a deal in play are secret,
    whoever's game it is)."""
    given, seat = data["record"], data.get("seat")
    state = state_of(given, data)
    people = people_of(given["players"]) if "players" in given else ()
    if seat is None:
        seat = people[0].seat if people else SEAT_NAMES.index("South")
    if type(seat) is not int or not 0 <= seat < 4:
        raise ProtocolError("bad_request", f"seat must be 0-3, not {brief_repr(seat)}")
    complete = len(state.plays) // PLAYS_PER_DEAL
    labels = seat_labels(people)
    return state, seat, complete, labels, side_labels(labels, tuple(p.seat for p in people))


def review_next(data: dict[str, Any]) -> dict[str, Any]:
    """Review the next card of review ``job``: the card's review, the position it was played
    in as its player saw it, and the points lost so far."""
    guest = _guest("review_next", data)
    if guest is not None:
        return seat_reviews.guest_review_next(guest, data)
    job = jobs.review_job(data.get("job"))
    move, position = job.step()
    return {
        "job": job.number,
        "done": len(job.moves),
        "total": len(job.plays),
        "finished": job.finished,
        "move": move.to_json(),
        "position": seen_by(position, job.seat),
        "summary": job.summary(),
    }


def review_line(data: dict[str, Any]) -> dict[str, Any]:
    """The likely play after a card of review ``job`` (``play``, its index in the game's
    plays, once reviewed) and after the better card: masters in every seat, each from its
    own view, play on from the true position for a trick or two (bots.lines.continuation).
    Every card of a deal under review has been seen by its end, so the tricks show no card
    the reviewed person did not see. For a guest, the same lines in slices."""
    guest = _guest("review_line", data)
    if guest is not None:
        return seat_reviews.guest_review_line(guest, data)
    job = jobs.reviewed_job(data.get("job"))
    line = jobs.LineJob.of(job, job.reviewed(data.get("play")))
    line.work()
    return line.reply()


def rerun(data: dict[str, Any]) -> dict[str, Any]:
    """Start playing the finished game in play again with the master in the seat of the one
    person on this device (``iterations`` a move; the master's own budget when not given); at
    a friends' table the master plays the guests' seats too (table.rerun)."""
    match = match_in_play("rerun")
    guest = guest_of(match, data)
    if guest is not None:
        return seat_reviews.guest_rerun(match, guest, data)
    if not match.state.is_over:
        raise ProtocolError("game_not_over", "the master plays your seat again once the game "
                            "is over")
    iterations = jobs.check_iterations(data.get("iterations"))
    resume = ahead.take_rerun(match, iterations)
    job = jobs.start_rerun(match.settings, match.state, len(match.history), iterations, resume)
    done = len(job.state.plays) if job.state is not None else 0
    reply: dict[str, Any] = {"job": job.number, "game": job.index, "done": done,
                             "total": len(job.game.plays), "side": job.side,
                             "finished": job.finished}
    if job.finished:
        reply["result"] = job.result_json()
    return reply


def work(data: dict[str, Any]) -> dict[str, Any]:
    """Work ahead for about ``ms`` milliseconds (table.ahead): review the people's cards
    played so far (``budget`` iterations a card, as for ``review``) and play the master in the
    person's seat (``iterations`` a move, as for ``rerun``); how far both have got."""
    match = match_in_play("work")
    budget = data.get("budget")
    budget = None if budget is None else jobs.check_budget(budget, 1)
    return ahead.work(match, data.get("ms"), budget, jobs.check_iterations(data.get("iterations")))


def rerun_next(data: dict[str, Any]) -> dict[str, Any]:
    """Play on in rerun ``job`` for at most ``jobs.RERUN_SLICE_MS`` (to the end of its next
    card at most: a card's search is sliced); once over, both games' scores and the
    rerun's record (the master named at every person's seat)."""
    guest = _guest("rerun_next", data)
    if guest is not None:
        return seat_reviews.guest_rerun_next(guest, data)
    job = jobs.rerun_job(data.get("job"))
    done = job.step(jobs.RERUN_SLICE_MS)
    reply: dict[str, Any] = {"job": job.number, "done": done,
                             "total": len(job.game.plays), "finished": job.finished}
    if job.finished:
        reply["result"] = job.result_json()
    return reply


def _guest(kind: str, data: dict[str, Any]) -> int | None:
    """The seat of the guest request ``kind`` is made for (``session.guest_of``), or None:
    this device's own, which needs no game in play (a review of a record, a job's next card)."""
    return None if data.get("guest") is None else guest_of(match_in_play(kind), data)
