"""One handler per request type: each checks its payload, acts on the match in play, and
builds its whole reply here, so that every reply is assembled in this one module.

Game commands reply with the **view**: the table as the person whose hand is shown sees it
(``views.table_view``), with the deal's log, the match, and what only some replies carry —
the move a ``play`` or ``step`` made (``event``), the memory aids while a hand is shown, the
hand-off while every hand is covered, and the seats and the cut once per match (``table``).
A view never holds a card its viewer may not see; the recipe of the game (with its deck) is
asked for apart, with ``record``. A refused request changes nothing.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from .. import __version__
from ..bots import GRADES, LEVELS, REVIEW_ITERATIONS
from ..cards import RANK_LETTERS, SEAT_NAMES, SUIT_LETTERS, SUIT_SYMBOLS, brief_repr
from ..game import GameState
from ..game import new_game as deal
from ..jsontext import nests_too_deeply
from ..kernel import CARD_POINTS, DEALS, LADDER, PILE_POINTS, TRICKS_PER_DEAL
from ..messages import Message, message
from ..record import MAX_RECORD_BYTES, RecordError, from_record, parse_record, to_record
from ..rules import Rules, trick_winner
from ..trick_reasons import trick_reason
from . import ahead, jobs, words
from .aids import memory_aids
from .daily import (
    NotDealtYet,
    check_dealt,
    daily_date,
    daily_settings,
    future_deal,
    local_today,
    parse_date,
    seed_date,
)
from .errors import ProtocolError
from .fair import FairDealError, check_fair, fair_seed
from .match import Match
from .players import default_level, level_facts
from .sealed import opened_record, sealed_record
from .settings import (
    DEFAULT_PEOPLE,
    MAX_GAMES,
    MAX_NAME_CHARS,
    Settings,
    people_of,
    seat_calls,
    seat_labels,
    side_labels,
)
from .story import PLAYS_PER_DEAL, deal_log, replay_position, the_cut
from .views import seat_setup, seen_by, table_view

PROTOCOL_VERSION = 3
# docs/rules.md#worked-examples: N(♠) E(♣) S(♥) W(♦), North leads.
EXAMPLE_SUITS = ("S", "C", "H", "D")
EXAMPLES = (
    ("6S", "5S", "TS", "KS"),
    ("6S", "3C", "TS", "KS"),
    ("6S", "3C", "4H", "KS"),
    ("6S", "5C", "5H", "QS"),
    ("9H", "2H", "AH", "KH"),
    ("9H", "2C", "AH", "3D"),
    ("QC", "QC", "5C", "8C"),
    ("5C", "7C", "AD", "4C"),
)
NOT_OVER = "the game in play cannot be replayed until it ends: its hands are hidden"


class _Session:
    """The one match in play (None before the first ``new_game`` or ``load``), and the
    memory aids last built, with the position they were built for."""

    match: Match | None = None
    aids_for: tuple[int, int, int] | None = None
    aids: dict[str, Any] | None = None


_session = _Session()


def reset() -> None:
    """Forget the match in play and the jobs (for tests)."""
    _session.match = None
    _session.aids_for = _session.aids = None
    jobs.reset()
    ahead.reset()


def _match(kind: str) -> Match:
    if _session.match is None:
        raise ProtocolError("no_game", f"{kind}: no game in play (send new_game or load first)")
    return _session.match


def match_in_play(kind: str) -> Match:
    """The match in play, for the handlers of other modules (``kind``: the request refused
    when there is none)."""
    return _match(kind)


# -- the recipe the page keeps (transport.py attaches it to every reply that changes it) -----

_Mark = tuple[Match, int, bool, int]


def recipe_mark() -> _Mark | None:
    """Where the recipe stands: the match, its finished games, whether the game in play is
    over (its deck is sealed until then) and the cards played."""
    match = _session.match
    if match is None:
        return None
    return (match, len(match.history), match.state.is_over, len(match.state.plays))


def recipe_since(mark: _Mark | None) -> dict[str, Any]:
    """The recipe of the match in play as a change since ``mark`` — ``{keep, add}``: the
    plays kept and the cards played after them, and ``deck`` when the game's end (or an undo
    of it) unsealed (or sealed) it — or whole (``{record, settings, history}``) when the game
    is another one than at ``mark``, or no mark is given."""
    match = _match("recipe")
    if mark is None or mark[:2] != (match, len(match.history)):
        return _recipe(match)
    plays = match.state.plays
    keep = min(mark[3], len(plays))
    change: dict[str, Any] = {"keep": keep, "add": [str(card) for card in plays[keep:]]}
    if mark[2] != match.state.is_over:
        change["deck"] = match.save()["record"]["deck"]
    return change


def _start(match: Match) -> dict[str, Any]:
    _session.match = match
    _session.aids_for = _session.aids = None
    jobs.end_jobs()
    return _view(match, table=True)


# -- the view ---------------------------------------------------------------------------------


def _view(match: Match, *, event: dict[str, Any] | None = None, table: bool = False
          ) -> dict[str, Any]:
    """The reply to a game command (see the module's docstring)."""
    state = match.state
    status = match.status
    view = table_view(state, match.viewer, status)
    view["log"] = deal_log(state)
    view["event"] = event
    view["match"] = match.match_view()
    view["can_undo"] = match.can_undo
    if match.viewer is not None:
        view["aids"] = _aids(match, match.viewer)
    if status == "handoff":
        seat = state.to_move
        view["handoff"] = {"seat": seat, **words.handoff(seat, match.settings.labels()[seat])}
    if table:
        view["table"] = _table(match)
    return view


def _aids(match: Match, seat: int) -> dict[str, Any]:
    # Built once per position and viewer: "view" and the "aids" request reuse them.
    key = (len(match.history), len(match.state.plays), seat)
    if _session.aids is None or _session.aids_for != key:
        _session.aids = memory_aids(match.state.observation(seat))
        _session.aids_for = key
    return _session.aids


def _table(match: Match, viewer: int | None = None) -> dict[str, Any]:
    """What stays the same through a match: settings, seats, partnerships, the cut, and
    the date when it is the Calypso of that day; labelled for this device, or for the guest
    at ``viewer``."""
    s = match.settings
    first = match.history[0] if match.history else match.state
    return {
        "settings": s.to_dict(),
        "seats": seat_setup(first, s.labels(viewer), s.levels, s.seats, s.called(viewer)),
        "sides": s.side_labels(viewer),
        "cut": the_cut(s.seed, tuple(int(suit) for suit in first.suits), first.first_dealer),
        "daily": daily_date(s),
    }


# -- handlers ---------------------------------------------------------------------------------


def hello(data: dict[str, Any]) -> dict[str, Any]:
    """The engine's facts the page needs: versions, seats, levels, rule options, the shape
    of a game, the cards, the scoring values and the size of a game file. Every word comes
    as a message: the page renders it from its catalogs."""
    defaults = Rules().to_dict()
    return {
        "engine": __version__,
        "protocol": PROTOCOL_VERSION,
        "seats": [{"key": name.lower()} for name in SEAT_NAMES],
        "people": {"max": len(SEAT_NAMES), "default": [p["seat"] for p in DEFAULT_PEOPLE],
                   "name_chars": MAX_NAME_CHARS},
        "levels": level_facts(),
        "default_level": default_level(),
        "options": [
            {"key": key, "label": words.option_label(key), "help": words.option_help(key),
             "default": defaults[key]}
            for key in words.OPTIONS
        ],
        "games": {"min": 1, "max": MAX_GAMES, "default": 1},
        "deals": {"count": DEALS, "tricks": TRICKS_PER_DEAL},
        "cards": {
            "ranks": [{"key": RANK_LETTERS[r]} for r in range(12, -1, -1)],
            "suits": [{"key": SUIT_LETTERS[s], "symbol": SUIT_SYMBOLS[s],
                       "color": "red" if s in (1, 2) else "black"} for s in range(4)],
        },
        "scoring": {
            "calypsos": [LADDER[n + 1] - LADDER[n] for n in range(len(LADDER) - 1)],
            "calypso_card": CARD_POINTS,
            "pile_card": PILE_POINTS,
        },
        "limits": {"file_bytes": MAX_RECORD_BYTES},
        "review": _review_facts(),
    }


def _review_facts() -> dict[str, Any]:
    """The review's budget a card and its grades, mildest first."""
    return {
        "budget": REVIEW_ITERATIONS,
        "grades": [{"key": name, "label": words.grade_label(name), "cost": cost}
                   for name, cost in reversed(GRADES)],
    }


def new_game(data: dict[str, Any]) -> dict[str, Any]:
    """Deal a new match; the reply carries the seats and the cut. A day's seed is refused:
    its deal comes only from ``daily``, on or after its day."""
    settings = Settings.from_request(data)
    day = seed_date(settings.seed)
    if day is not None:
        _check_dealt(day, data)
        raise ProtocolError("bad_seed", f"the seed {settings.seed} deals the Calypso of {day}: "
                            "ask for it with daily", message("error.daily_seed", date=str(day)))
    return _start(Match(settings))


def load(data: dict[str, Any]) -> dict[str, Any]:
    """Rebuild a saved match; with several people every hand is covered (the hand-off),
    unless ``viewer`` says whose hand the page was showing (a worker replaced mid-game)."""
    for key in ("record", "settings"):
        if key not in data:
            raise ProtocolError("bad_request", f"load needs {key}")
    history = data.get("history")
    if history is None:  # not given, or null (as for every optional key): no earlier games
        history = []
    _check_record_sizes(data["record"], history)
    loaded = Match.load(data["record"], data["settings"], history)
    _check_loaded_daily(loaded, data)
    loaded.show(data.get("viewer"))
    ahead.restore(loaded, data.get("ahead"))
    return _start(loaded)


def _check_loaded_daily(loaded: Match, data: dict[str, Any]) -> None:
    """A saved match deals no day's cards before that day: by its seed, or by a deck its
    seed does not deal (an imported file's)."""
    settings = loaded.settings
    day = seed_date(settings.seed)
    if day is not None:
        _check_dealt(day, data)
        if daily_date(settings) is None:
            raise ProtocolError("bad_settings", f"the seed {settings.seed} is the Calypso of "
                                f"{day}, dealt only with its own settings")
    first = (loaded.history or [loaded.state])[0]
    if first.deck != new_game_deck(settings.seed):
        _check_not_a_later_deal(first.deck, data)


def view(data: dict[str, Any]) -> dict[str, Any]:
    """The whole table again, seats and cut included."""
    return _view(_match("view"), table=True)


def play(data: dict[str, Any]) -> dict[str, Any]:
    """The person whose hand is shown plays a card."""
    match = _match("play")
    if "card" not in data:
        raise ProtocolError("bad_request", "play needs a card, such as \"QH\"")
    return _view(match, event=match.play(data["card"]))


def step(data: dict[str, Any]) -> dict[str, Any]:
    """One computer player moves."""
    match = _match("step")
    return _view(match, event=match.step())


def reveal(data: dict[str, Any]) -> dict[str, Any]:
    """Show the hand of the person to move, once the device has been passed to them."""
    match = _match("reveal")
    if "seat" not in data:
        raise ProtocolError("bad_request", "reveal needs the seat whose hand to show")
    match.reveal(data["seat"])
    return _view(match)


def seat_view(data: dict[str, Any]) -> dict[str, Any]:
    """The table as the guest at ``seat`` sees it (a remote table): that seat's hand and
    nothing hidden from it, its memory aids, the seats and the cut, and the settings without
    the seed (which would deal every hand). Changes nothing."""
    match = _match("seat_view")
    seat = _guest_seat(match, data.get("seat"))
    state = match.state
    status = match.seat_status(seat)
    view = table_view(state, seat, status)
    view["log"] = deal_log(state)
    view["event"] = None
    view["match"] = match.match_view()
    view["can_undo"] = False
    aids = _aids(match, seat)  # from the guest's observation only, as for any viewer
    if aids is not None:
        view["aids"] = aids
    table = _table(match, seat)  # the guest's own seat is "You"
    table["settings"] = {k: v for k, v in table["settings"].items() if k != "seed"}
    view["table"] = table
    return view


def seat_play(data: dict[str, Any]) -> dict[str, Any]:
    """The guest at ``seat`` plays a card on their turn; the reply is this device's view."""
    match = _match("seat_play")
    if "card" not in data:
        raise ProtocolError("bad_request", "seat_play needs a card, such as \"QH\"")
    return _view(match, event=match.play_remote(data.get("seat"), data["card"]))


def seat_stand_in(data: dict[str, Any]) -> dict[str, Any]:
    """A computer player of ``level`` plays for the guest at ``seat`` while they are away, or
    (level null) the guest plays again; the reply is this device's view."""
    match = _match("seat_stand_in")
    if "level" not in data:
        raise ProtocolError("bad_request", "seat_stand_in needs a level, or null for the guest")
    match.stand_in(data.get("seat"), data["level"])
    return _view(match)


def seat_hint(data: dict[str, Any]) -> dict[str, Any]:
    """A card for the guest at ``seat``, on their turn, from that seat's observation only
    (as ``hint`` for the person whose hand is shown), and why."""
    match = _match("seat_hint")
    card, reason = match.guest_hint(_guest_seat(match, data.get("seat")))
    return {"card": str(card), "reason": reason}


def _guest_seat(match: Match, seat: Any) -> int:
    if type(seat) is not int or seat not in match.remote_seats:
        raise ProtocolError("not_a_guest", "seat must be a guest's seat "
                            f"({', '.join(str(s) for s in match.remote_seats) or 'none'}), "
                            f"not {brief_repr(seat)}")
    return seat


def fair_deal(data: dict[str, Any]) -> dict[str, Any]:
    """The seed of a fair deal (table.fair): the host's secret seed mixed with the guests'
    (``guests``: {seat: seed}). Changes nothing."""
    try:
        return {"seed": fair_seed(data.get("host"), _guest_seeds(data.get("guests")))}
    except FairDealError as exc:
        raise ProtocolError("bad_seed", str(exc)) from None


def fair_check(data: dict[str, Any]) -> dict[str, Any]:
    """Check a finished remote match's ``recipe`` against the host's ``commitment`` and the
    seeds revealed at its end; the reply names the deal's seed and the plays replayed, a
    refusal (``unfair``) the first thing that does not hold."""
    recipe = data.get("recipe")
    if not isinstance(recipe, dict):
        raise ProtocolError("bad_request", "fair_check needs the recipe {record, settings}")
    _check_size("record", recipe.get("record"))
    _check_size("history", recipe.get("history"))
    try:
        seed = check_fair(recipe, data.get("host"), _guest_seeds(data.get("guests")),
                          data.get("commitment"))
    except RecordError as exc:
        raise ProtocolError("unfair", f"the record is impossible: {exc}",
                            message("error.unfair_record")) from None
    except FairDealError as exc:
        raise ProtocolError("unfair", str(exc)) from None
    games = [*recipe.get("history", []), recipe["record"]]
    return {"seed": seed, "plays": sum(len(game["plays"]) for game in games)}


def _guest_seeds(guests: Any) -> dict[int, str]:
    if not isinstance(guests, dict) or not all(k in ("0", "1", "2", "3") for k in guests):
        raise ProtocolError("bad_seed", "guests must be {seat: seed} with seats 0 to 3, not "
                            f"{brief_repr(guests)}")
    return {int(seat): seed for seat, seed in guests.items()}


def next_game(data: dict[str, Any]) -> dict[str, Any]:
    """Start the next game of the match."""
    match = _match("next_game")
    match.next_game()
    jobs.end_jobs()
    return _view(match)


def undo(data: dict[str, Any]) -> dict[str, Any]:
    """Take back the person's last card and the computer moves after it (one person only)."""
    match = _match("undo")
    match.undo()
    return _view(match)


def hint(data: dict[str, Any]) -> dict[str, Any]:
    """A card for the person to move, from their observation only, and why."""
    card, reason = _match("hint").hint()
    return {"card": str(card), "reason": reason}


def aids(data: dict[str, Any]) -> dict[str, Any]:
    """The memory aids of the person whose hand is shown."""
    match = _match("aids")
    if match.viewer is None:
        raise ProtocolError("hand_covered", "no memory aids while every hand is covered")
    return _aids(match, match.viewer)


def record(data: dict[str, Any]) -> dict[str, Any]:
    """The recipe of the match: {record, settings, history}, and ``ahead``, the review and
    rerun work done ahead on the game in play, when there is some."""
    return _recipe(_match("record"))


def _recipe(match: Match) -> dict[str, Any]:
    kept = ahead.kept(match)
    return {**match.save(), **({"ahead": kept} if kept is not None else {})}


def replay(data: dict[str, Any]) -> dict[str, Any]:
    """The full-information position after ``tricks`` tricks of a finished game: the given
    ``record`` (say, an imported one), else the game in play once it is over."""
    match = _session.match
    given = data.get("record")
    if given is None:
        if match is None:
            raise ProtocolError("no_game", "replay: no game in play and no record given")
        state = match.state
        if not state.is_over:
            raise ProtocolError("game_not_over", NOT_OVER)
        settings = match.settings
        labels, called, sides = settings.labels(), settings.called(), settings.side_labels()
    else:
        state = _state_of(given)
        people = people_of(given["players"]) if "players" in given else ()
        labels, called = seat_labels(people), seat_calls(people)
        sides = side_labels(labels, tuple(p.seat for p in people))
    tricks = data.get("tricks")
    if tricks is None:  # not given, or given as null (as for every optional key): all of them
        tricks = len(state.tricks)
    if type(tricks) is not int or not 0 <= tricks <= len(state.tricks):
        raise ProtocolError(
            "bad_request", f"tricks must be a whole number from 0 to {len(state.tricks)}, "
            f"not {brief_repr(tricks)}"
        )
    # A record of a game not over replays as far as it goes, showing only what was public.
    return {**replay_position(state, tricks), "labels": labels, "called": called, "sides": sides}


# -- after the game: the Calypso of the day, the review, the master in your seat ---------------


def daily(data: dict[str, Any]) -> dict[str, Any]:
    """Deal the Calypso of a day: today's unless ``date`` names an earlier one. The kept
    attempt (``practice`` false, the default) is played straight: no hints, no undo."""
    date = data.get("date")
    practice = data.get("practice")
    if practice is not None and type(practice) is not bool:
        raise ProtocolError("bad_request", f"practice must be true or false, not "
                            f"{brief_repr(practice)}")
    try:
        day = _today(data) if date is None else parse_date(date)
    except ValueError as exc:
        raise ProtocolError("bad_date", str(exc)) from None
    _check_dealt(day, data)
    return _start(Match(daily_settings(day, straight=not practice)))


def check_today(data: dict[str, Any]) -> None:
    """Refuse a request whose ``today`` is no date of any time zone now."""
    _today(data)


def _today(data: dict[str, Any]) -> Any:
    """Which day is today (daily.local_today): the request's ``today``, else the UTC date."""
    try:
        return local_today(data.get("today"))
    except ValueError as exc:
        raise ProtocolError("bad_date", str(exc)) from None


def _check_dealt(day: Any, data: dict[str, Any]) -> None:
    try:
        check_dealt(day, _today(data))
    except NotDealtYet as exc:
        raise ProtocolError("not_dealt_yet", str(exc),
                            message("error.not_dealt_yet", date=str(day))) from None


def _check_not_a_later_deal(deck: Any, data: dict[str, Any]) -> None:
    day = future_deal(deck, _today(data))
    if day is not None:
        raise ProtocolError("not_dealt_yet", f"these are the cards of the Calypso of {day}, "
                            "which is not dealt yet", message("error.not_dealt_yet", date=str(day)))


def review(data: dict[str, Any]) -> dict[str, Any]:
    """Start reviewing one seat's cards: of the given ``record`` (any seat), else of the game
    in play (a person's seat, the deals that are over). ``review_next`` does one card."""
    if data.get("record") is None:
        state, seat, complete, labels, sides = _review_in_play(data.get("seat"))
    else:
        state, seat, complete, labels, sides = _review_of_record(data["record"], data.get("seat"))
    deals = jobs.check_deal(data.get("deal"), complete)
    budget = jobs.check_budget(data.get("budget"), REVIEW_ITERATIONS)
    seed = jobs.check_seed(data.get("seed"))
    job = jobs.start_review(state, seat, deals, budget, seed)
    return {
        "job": job.number,
        "seat": seat,
        "deals": list(deals),
        "total": len(job.plays),
        "budget": budget,
        "seed": seed,
        "suits": [SUIT_LETTERS[suit] for suit in state.suits],
        "labels": labels,
        "sides": sides,
    }


_Reviewed = tuple[GameState, int, int, list[Message], list[Message]]


def _review_in_play(seat: Any) -> _Reviewed:
    """The game in play, a person's seat (the only one's by default) and its deals over."""
    match = _match("review")
    people = match.settings.seats
    if seat is None and len(people) == 1:
        seat = people[0]
    if type(seat) is not int or seat not in people:
        raise ProtocolError("bad_request", "review needs the seat of a person at the table "
                            f"({', '.join(SEAT_NAMES[p] for p in people)}), not {brief_repr(seat)}")
    state = match.state
    complete = len(state.plays) // PLAYS_PER_DEAL
    return state, seat, complete, match.settings.labels(), match.settings.side_labels()


def _review_of_record(given: Any, seat: Any) -> _Reviewed:
    """A game record, any seat (its person's, else South's): every deal of a finished game,
    the deals that are over of a game not over (the cards of a deal in play are secret,
    whoever's game it is)."""
    state = _state_of(given)
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


def rerun(data: dict[str, Any]) -> dict[str, Any]:
    """Start playing the finished game in play again with the master in the person's seat
    (``iterations`` a move; the master's own budget when not given)."""
    match = _match("rerun")
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
        reply["result"] = _rerun_result(job)
    return reply


def work(data: dict[str, Any]) -> dict[str, Any]:
    """Work ahead for about ``ms`` milliseconds (table.ahead): review the people's cards
    played so far (``budget`` iterations a card, as for ``review``) and play the master in the
    person's seat (``iterations`` a move, as for ``rerun``); how far both have got."""
    match = _match("work")
    budget = data.get("budget")
    budget = None if budget is None else jobs.check_budget(budget, 1)
    return ahead.work(match, data.get("ms"), budget, jobs.check_iterations(data.get("iterations")))


def rerun_next(data: dict[str, Any]) -> dict[str, Any]:
    """Play on in rerun ``job`` for at most ``jobs.RERUN_SLICE_MS`` (to the end of its next
    card at most: a card's search is sliced); once over, both games' scores and the
    rerun's record (the master named at the person's seat)."""
    job = jobs.rerun_job(data.get("job"))
    done = job.step(jobs.RERUN_SLICE_MS)
    reply: dict[str, Any] = {"job": job.number, "done": done,
                             "total": len(job.game.plays), "finished": job.finished}
    if job.finished:
        reply["result"] = _rerun_result(job)
    return reply


def _rerun_result(job: jobs.RerunJob) -> dict[str, Any]:
    """Both games' scores and the rerun's record (the master named at the person's seat)."""
    assert job.state is not None
    players = job.settings.players()
    players[job.settings.seats[0]] = {"computer": "master"}
    return {**job.result().to_json(), "record": to_record(job.state, players), "side": job.side}


def import_file(data: dict[str, Any]) -> dict[str, Any]:
    """Check a game file's text and say what it holds: the record, whether it is over, and
    settings that continue it with ``load`` (its players, else the seats in play)."""
    text = data.get("text")
    if not isinstance(text, str):
        raise ProtocolError("bad_request", "import needs text: the file's contents")
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_RECORD_BYTES:
        raise ProtocolError(
            "bad_record", f"the file is {size:,} bytes; a game record is at most "
            f"{MAX_RECORD_BYTES:,}",
            message("error.file_too_big", size=size, limit=MAX_RECORD_BYTES),
        )
    if nests_too_deeply(text):
        raise ProtocolError("bad_record", "the file nests too deeply to be a game record")
    try:
        state = parse_record(_opened_text(text))
    except RecordError as exc:
        raise ProtocolError("bad_record", f"not a Calypso game record: {exc}") from None
    _check_not_a_later_deal(state.deck, data)
    plain = json.dumps(to_record(state), separators=(",", ":")).encode()
    seed = f"import-{hashlib.sha256(plain).hexdigest()[:10]}"
    settings = _continuing(state, json.loads(text).get("players"), seed)
    record = to_record(state, settings.players())
    return {
        "record": sealed_record(record, is_over=state.is_over),
        "is_over": state.is_over,
        "plays": len(state.plays),
        "tricks": len(state.tricks),
        "scores": list(state.partnership_scores()),
        "labels": seat_labels(people_of(record["players"])),
        "settings": settings.to_dict(),
    }


def _continuing(state: GameState, players: list[dict[str, str]] | None, seed: str) -> Settings:
    """Settings that continue an imported game: its players (a level this table does not
    offer becomes the default one), else the people and levels of the match in play."""
    match = _session.match
    seats: list[tuple[list[dict[str, Any]], list[Any]]] = []
    if players is not None:
        seats.append((
            [{"seat": p.seat, "name": p.name} for p in people_of(players)],
            [p.get("computer") if p.get("computer") in LEVELS else default_level()
             for p in players],
        ))
    if match is not None:
        seats.append((match.settings.to_dict()["people"], list(match.settings.levels)))
    seats.append((list(DEFAULT_PEOPLE), [default_level()] * 4))
    for people, levels in seats:
        # A file's seating that this table cannot take (no person, a name too long, two
        # people of one name) gives way to the next.
        if not people:
            continue
        try:
            return Settings.from_request({
                "seed": seed, "rules": state.rules.to_dict(), "levels": levels,
                "people": people, "games": 1, "suit": SUIT_LETTERS[state.suits[people[0]["seat"]]],
            }, saved=True)
        except ProtocolError:
            continue
    raise AssertionError("the default seating is always valid")


def examples(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The worked trick-winner examples of the rules: cards, suits, winner and reason."""
    return [
        {
            "cards": list(cards),
            "trumps": list(EXAMPLE_SUITS),
            "winner": trick_winner(list(cards), list(EXAMPLE_SUITS)),
            "reason": trick_reason(list(cards), list(EXAMPLE_SUITS)),
        }
        for cards in EXAMPLES
    ]


# -- checks -----------------------------------------------------------------------------------


def _check_record_sizes(record: Any, history: Any) -> None:
    """Apply parse_record's size limit to records that arrive already parsed."""
    named = [("record", record)]
    if isinstance(history, list):
        named += [(f"history[{i}]", item) for i, item in enumerate(history)]
    for name, item in named:
        _check_size(name, item)


def _check_size(name: str, item: Any) -> None:
    size = len(json.dumps(item, ensure_ascii=False, separators=(",", ":")).encode())
    if size > MAX_RECORD_BYTES:
        raise ProtocolError(
            "bad_record", f"{name} is {size} bytes; the limit is {MAX_RECORD_BYTES}"
        )


def _opened_text(text: str) -> str:
    """A game file's text with a sealed deck opened (the page writes a game in play so)."""
    try:
        data = json.loads(text)
    except ValueError:
        return text  # parse_record says what is wrong
    opened = opened_record(data)
    return text if opened is data else json.dumps(opened)


def new_game_deck(seed: str) -> tuple[Any, ...]:
    """The deck order the first game of a match with this seed is dealt."""
    return deal(seed).deck


def _state_of(record: Any) -> GameState:
    _check_size("record", record)
    try:
        return from_record(opened_record(record))
    except RecordError as exc:
        raise ProtocolError("bad_record", str(exc)) from None
