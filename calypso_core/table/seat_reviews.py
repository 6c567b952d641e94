"""A guest's review and its master in your seat at a friends' table (docs/remote.md#a-guests-
review): ``review``, ``review_next``, ``review_line``, ``rerun`` and ``rerun_next`` made for the
guest at a seat (``guest``; table.reviews hands them here). The host's engine reviews the
guest's cards, from that seat's view only, with the same reviewer, budget and seed as a
review on this device, and plays the finished game again with the master in the guest's
seat, for the guest's page to draw with the same views.

What a guest may ask for: the deals that are over (a deal once its last card is played, as
the review offered after a deal on this device) or, once the game is over, the whole game;
its own seat only (the host's page fills in the seat the guest holds); at most the review's
own budget a card (the host's worker is shared). Each guest has a review job of its own
(``jobs.start_review(guest=True)``): it replaces neither this device's review nor another
guest's, and a guest steps no job but its own. A guest's ``review_next`` works on the next
card for ``SLICE_MS`` at most, so that the table's requests (the guests' cards, this device's)
wait for one slice at most; its reply carries the card once it is done.
A card's review holds only that seat's position as it saw it (``views.seen_by``): its own
hand, the trick, what every seat showed. "Play it out" on a costly card (``review_line``) plays
the master's line after it and after the better card in slices of ``SLICE_MS`` too, as a
job of the guest's (``jobs.guest_line``): the same lines as this device's for that review,
however sliced; the deal is over, so every card of them was seen by the guest by its end.

The master in a guest's seat (docs/remote.md#the-master-in-your-seat) is the rerun of the
person on this device (table.rerun): the master plays every person's seat, the computer
players are the same, so it is one game for the whole table, each person's partnership
measured against it. Only once the game is over (every card of it has been seen by then,
and the rerun's record holds no seed); at most the master's own budget a move; a job of the
guest's own (``jobs.start_rerun(guest=seat)``), stepped by its ``rerun_next`` for
``SLICE_MS`` at most, as many cards as fit.
"""

from __future__ import annotations

from typing import Any

from ..bots import MASTER_ITERATIONS, REVIEW_ITERATIONS
from . import jobs
from .errors import ProtocolError
from .match import GUEST_SLICE_MS, Match
from .story import PLAYS_PER_DEAL
from .views import seen_by

SLICE_MS = GUEST_SLICE_MS  # the longest a guest's review_next or rerun_next works


def guest_review(match: Match, seat: int, data: dict[str, Any]) -> dict[str, Any]:
    """Start reviewing the cards of the guest at ``seat``: of ``deal`` (0-based) once it is
    over, else of the whole game once it is over. ``guest_review_next`` does the cards."""
    for key in ("record", "seat"):
        if data.get(key) is not None:
            raise ProtocolError("bad_request", f"a guest's review is of its own cards in the "
                                f"game in play: it takes no {key}")
    state = match.state
    deal = data.get("deal")
    if deal is None and not state.is_over:
        raise ProtocolError("game_not_over", "a guest's whole game is reviewed once it is "
                            "over; before that, name a deal that is over")
    deals = jobs.check_deal(deal, len(state.plays) // PLAYS_PER_DEAL)
    budget = jobs.check_budget(data.get("budget"), REVIEW_ITERATIONS)
    if budget > REVIEW_ITERATIONS:
        raise ProtocolError("bad_request", f"a guest's review is at most {REVIEW_ITERATIONS:,} "
                            f"iterations a card (the host's own budget), not {budget:,}")
    seed = jobs.check_seed(data.get("seed"))
    job = jobs.start_review(state, seat, deals, budget, seed, guest=True)
    settings = match.settings  # the guest is "You"
    return jobs.review_started(job, settings.labels(seat), settings.side_labels(seat))


def guest_review_next(seat: int, data: dict[str, Any]) -> dict[str, Any]:
    """Work on the next card of the review ``job`` of the guest at ``seat`` for ``SLICE_MS``
    at most; once the card is done, the reply carries what ``review_next``'s does (the card's
    review, its position as the guest saw it, the points lost so far), else only how far
    the job is."""
    job = jobs.review_job(data.get("job"), seat)
    done = job.work(SLICE_MS)
    reply: dict[str, Any] = {"job": job.number, "done": len(job.moves), "total": len(job.plays),
                             "finished": job.finished}
    if done is not None:
        move, position = done
        reply.update(move=move.to_json(), position=seen_by(position, seat),
                     summary=job.summary())
    return reply


def guest_review_line(seat: int, data: dict[str, Any]) -> dict[str, Any]:
    """Play on the master's lines after card ``play`` of the review ``job`` of the guest at
    ``seat`` and after the better card for ``SLICE_MS`` at most: ``{job, play, thinking:
    true}`` until they are done (asked again, they go on where they stopped), then what
    ``review_line``'s reply carries (the same lines)."""
    line = jobs.guest_line(data.get("job"), data.get("play"), seat)
    if not line.work(SLICE_MS):
        return {"job": line.review, "play": line.play, "thinking": True}
    return line.reply()


def guest_rerun(match: Match, seat: int, data: dict[str, Any]) -> dict[str, Any]:
    """Start playing the finished game again with the master in the seat of the guest at
    ``seat`` (and in every other person's: table.rerun), ``iterations`` a move at most the
    master's own (its own when not given). ``guest_rerun_next`` plays it on."""
    if not match.state.is_over:
        raise ProtocolError("game_not_over", "the master plays a guest's seat again once the "
                            "game is over")
    iterations = jobs.check_iterations(data.get("iterations"))
    if iterations is not None and iterations > MASTER_ITERATIONS:
        raise ProtocolError("bad_request", f"a guest's master plays at most "
                            f"{MASTER_ITERATIONS:,} iterations a move (its own budget), "
                            f"not {iterations:,}")
    job = jobs.start_rerun(match.settings, match.state, len(match.history), iterations,
                           guest=seat)
    return {"job": job.number, "game": job.index, "done": 0, "total": len(job.game.plays),
            "side": job.side, "finished": False}


def guest_rerun_next(seat: int, data: dict[str, Any]) -> dict[str, Any]:
    """Play on in the rerun ``job`` of the guest at ``seat`` for ``SLICE_MS`` at most (as many
    cards as fit; a card's search stops within it); once over, what ``rerun_next``'s reply
    carries: both games' scores and the rerun's record."""
    job = jobs.rerun_job(data.get("job"), seat)
    done = job.work(SLICE_MS)
    reply: dict[str, Any] = {"job": job.number, "done": done, "total": len(job.game.plays),
                             "finished": job.finished}
    if job.finished:
        reply["result"] = job.result_json()
    return reply
