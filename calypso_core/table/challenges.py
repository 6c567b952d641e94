"""The requests of a challenge among friends (table.challenge, table.comparing): make one,
read one, deal it, answer it with a reply, and compare the games.

A link is checked whole before anything is done with it; a refused link changes nothing,
neither the game in play nor any job but the comparison it would have started.
"""

from __future__ import annotations

from typing import Any

from ..bots import REVIEW_ITERATIONS
from ..days import seed_date
from ..game import GameState
from ..messages import message
from . import comparing, jobs
from .challenge import Challenge, LinkError, Reply, ResultError, Terms, played_of
from .errors import ProtocolError
from .facts import typed_name
from .match import Match
from .session import check_not_dealt_yet, match_in_play, start
from .settings import KEPT_DEFAULTS, Settings

SLICE_MS = jobs.RERUN_SLICE_MS  # the longest a challenge_compare_next works
FRESH_KEYS = frozenset({"seed", *KEPT_DEFAULTS})  # what a challenge made before playing takes


def challenge_make(data: dict[str, Any]) -> dict[str, Any]:
    """A challenge link: on the finished match in play, with its games as the sender's
    result; or, given ``settings`` (as new_game takes them), a match nobody has played yet."""
    given = data.get("settings")
    if given is None:
        match = match_in_play("challenge_make")
        if not match.is_over:
            raise ProtocolError("game_not_over", "a challenge is made once the match is over",
                                message("error.challenge_not_over"))
        terms = _terms(match.settings)
        name = _name(data)
        challenge = Challenge(terms, name, played_of(match.settings, _games(match), name))
    else:
        if not isinstance(given, dict) or set(given) - FRESH_KEYS:
            raise ProtocolError("bad_settings", f"settings take {', '.join(sorted(FRESH_KEYS))}")
        settings = Settings.from_request(given)
        day = seed_date(settings.seed)
        if day is not None:
            raise ProtocolError("bad_seed", f"the seed {settings.seed} deals the Calypso of "
                                f"{day}: its challenge is made once it is played",
                                message("error.daily_seed", date=str(day)))
        terms = _terms(settings)
        challenge = Challenge(terms, _name(data))
    return {"link": challenge.link(), **summary(challenge)}


def challenge_read(data: dict[str, Any]) -> dict[str, Any]:
    """What a challenge link holds, for the friend to see before playing: who sent it and
    its terms (never the sender's result)."""
    return summary(_challenge(data))


def challenge_start(data: dict[str, Any]) -> dict[str, Any]:
    """Deal a challenge's match to play (``name``: the person's). A day's deal is dealt as
    ``daily`` deals it: straight unless ``practice``."""
    challenge = _challenge(data)
    practice = data.get("practice")
    if practice is not None and type(practice) is not bool:
        raise ProtocolError("bad_request", "practice must be true or false")
    name = _name(data)
    straight = seed_date(challenge.terms.seed) is not None and not practice
    return start(Match(challenge.terms.settings(name, straight=straight)))


def challenge_reply(data: dict[str, Any]) -> dict[str, Any]:
    """The reply link of the finished match in play, which answers the challenge: the
    friend's ``name`` and cards."""
    challenge = _challenge(data)
    match = _answer(challenge)
    name = _name(data)
    reply = Reply(challenge.id, played_of(match.settings, _games(match), name))
    return {"link": reply.link(), "key": reply.key, "name": name}


def challenge_compare(data: dict[str, Any]) -> dict[str, Any]:
    """Start comparing a challenge's games: the sender's (when it carries them) with a
    ``reply``'s, or with the finished match in play that answers it (``name``: its
    person's). ``challenge_compare_next`` does the work."""
    challenge = _challenge(data)
    budget = jobs.check_budget(data.get("budget"), REVIEW_ITERATIONS)
    iterations = jobs.check_iterations(data.get("iterations"))
    answer: Reply | list[GameState]
    if data.get("reply") is not None:
        try:
            answer = Reply.read(data["reply"])
        except LinkError as exc:
            raise ProtocolError("bad_reply", str(exc)) from None
        if answer.challenge != challenge.id:
            raise ProtocolError("other_challenge", f"the reply answers challenge "
                                f"{answer.challenge}, not {challenge.id}")
        name = answer.played.name
    else:
        answer = _games(_answer(challenge))
        name = _name(data)
    job = comparing.start(challenge, answer, name, budget, iterations)
    reply = answer if isinstance(answer, Reply) else None
    return {**_progress(job), "reply": None if reply is None else {"key": reply.key,
                                                                    "name": reply.played.name}}


def challenge_compare_next(data: dict[str, Any]) -> dict[str, Any]:
    """Work on comparison ``job`` for at most ``SLICE_MS``; how far it is, and the
    comparison so far. A game whose cards do not make its claimed score is refused
    (``edited_result``), and so is the comparison."""
    number = data.get("job")
    job = comparing.job_in_progress(number)
    if job is None or job.finished:
        raise ProtocolError("no_job", f"comparison {number!r} is not in progress")
    try:
        job.work(SLICE_MS)
    except ResultError as exc:
        comparing.reset()
        line = job.replaying
        side = job.challenge.terms.seat % 2
        leads = {"claimed": exc.claimed[side] - exc.claimed[1 - side],
                 "played": exc.played[side] - exc.played[1 - side]}
        said = (message("error.edited_result", name=line.name, **leads) if line and line.name
                else message("error.edited_result_anon", **leads))
        raise ProtocolError("edited_result", str(exc), said) from None
    except LinkError as exc:
        comparing.reset()
        line = job.replaying
        code = "bad_challenge" if line is not None and line.sender else "bad_reply"
        raise ProtocolError(code, str(exc)) from None
    except Exception:  # a bug: the comparison is over, and the page is told (internal)
        comparing.reset()
        raise
    return _progress(job)


def summary(challenge: Challenge) -> dict[str, Any]:
    """A challenge as the page shows it before play: its id, the sender's name, whether the
    sender's games are in it (``played``) and were played with a clock (``clocked``: a
    computer move cut short there may differ here), and the terms."""
    played = challenge.played
    return {"id": challenge.id, "sender": challenge.sender, "played": played is not None,
            "clocked": played is not None and played.every, "terms": challenge.terms.to_json()}


def _progress(job: comparing.CompareJob) -> dict[str, Any]:
    return {"job": job.number, "done": job.done, "total": job.total,
            "finished": job.finished, "result": job.result()}


def _challenge(data: dict[str, Any]) -> Challenge:
    """The request's ``challenge`` link, read and checked: a day's deal not before its day."""
    try:
        challenge = Challenge.read(data.get("challenge"))
    except LinkError as exc:
        raise ProtocolError("bad_challenge", str(exc)) from None
    check_not_dealt_yet(data, seed=challenge.terms.seed)
    return challenge


def _answer(challenge: Challenge) -> Match:
    """The finished match in play, when it answers ``challenge``: on its terms, its
    computer players without the clock."""
    match = match_in_play("challenge")
    if not match.is_over:
        raise ProtocolError("game_not_over", "the challenge's match is not over yet",
                            message("error.challenge_not_over"))
    try:
        same = Terms.of(match.settings) == challenge.terms
    except ValueError:
        same = False
    if not same or played_of(match.settings, [], "").every:
        raise ProtocolError("not_this_challenge", "the match in play is not this challenge's")
    return match


def _terms(settings: Settings) -> Terms:
    try:
        return Terms.of(settings)
    except ValueError as exc:
        raise ProtocolError("unavailable", str(exc), message("error.challenge_one_person")) \
            from None


def _name(data: dict[str, Any]) -> str:
    """The request's ``name``: a person's, by the one rule for names (none: empty)."""
    name = data.get("name")
    return "" if name is None else typed_name(name, empty=True)


def _games(match: Match) -> list[GameState]:
    return [*match.history, match.state]
