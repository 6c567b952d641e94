"""The worker protocol: one function from a JSON request string to a JSON reply string.

Requests are ``{"id", "type", ...}``; replies ``{"id", "ok": true, "result"}`` or
``{"id", "ok": false, "error": {"code", "message", "text", "input", "no_game"}}`` (``text`` is
what people read, a message; ``message`` the same in plain English, for logs; ``input`` whether
what the request carried is refused, so that the same request would be refused again;
``no_game`` whether the engine holds no game in play). The page decides nothing from ``code``.
``REQUESTS`` maps each request type to its handler (in ``facts``, ``playing``, ``reading``,
``remote`` or ``reviews``), the payload keys it accepts and its declared effect (below); the
limits are checked before anything is parsed. One match is kept between requests
(``session``: the worker runs one page); apart from that, and from fresh random seeds when
none is given, a reply depends only on the request. A refused request changes nothing.
docs/protocol.md describes every request.

**Declared effects.** Each request says, next to its handler, what it does to the recipe of
the game in play (``{record, settings, history}``, what ``record`` returns): ``starts`` a game
(its reply carries the whole new recipe as ``recipe``), ``changes`` the game in play (its reply
carries the change as ``recipe``: ``{"keep": n, "add": [cards]}``, the plays kept and the cards
played after them, with ``deck`` when the game's end unseals it), or only ``reads`` it (no
``recipe``). Each also says whether its reply is a ``view`` of the table (what a page draws:
a friends' table sends its guests their views after each one: such a reply at a table with
guests carries them, ``guests``, by seat). ``hello`` announces both as ``requests``, so the
page keeps the recipe and the guests' views by following the engine, with no list of its
own; tests/test_effects.py holds every request to its declaration.

**A guest's requests.** What a guest at a remote table asks for itself is the ordinary
request made for its seat: ``play``, ``hint``, ``review``, ``review_next``, ``rerun`` and
``rerun_next`` take ``guest`` (the seat; the host's page fills it in with the seat the guest
holds), and answer from that seat's observation, labelled for that guest. Its view comes in
``guests`` beside this device's, in every reply that is a view (``view`` asks for them all).

**Loaded on first use.** The handlers of ``remote`` (a stand-in, the fair deal),
``reviews`` (the review, the rerun, work ahead, and with them ``jobs``, ``ahead``, ``rerun``,
``fair`` and the bots' review), ``challenges`` (a challenge among friends) and ``puzzles``
(the puzzles, the bots' puzzles and Glicko-2) are imported at the first request that needs
them, not with the table: a game's first deal uses none of them, and the page imports the
engine from source on a first visit (README, Start-up). Their entries in ``REQUESTS`` are
declared here like the others (effect, view flag, keys); only the function behind them waits.
The import is a plain one inside a function, so the type checker follows it.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any, Literal, NamedTuple

from ..cards import brief_repr
from ..jsontext import MAX_NESTING, loads, nests_too_deeply, top_level_id
from ..messages import message
from ..record import MAX_RECORD_BYTES
from . import facts, playing, reading, session
from .errors import ProtocolError

PROTOCOL_VERSION = facts.PROTOCOL_VERSION
# Room for the largest request the page sends: an import of a game file at the record size
# limit written all in escapes ("\u0001" is six characters for one byte), or a load with
# a match's four records.
MAX_REQUEST_CHARS = 6 * MAX_RECORD_BYTES + 16_000
MAX_MESSAGE_CHARS = 300
MAX_SAFE_INTEGER = 2**53 - 1  # ids stay exact as JavaScript numbers
Handler = Callable[[dict[str, Any]], Any]
Effect = Literal["starts", "changes", "reads"]
EFFECTS: tuple[Effect, ...] = ("starts", "changes", "reads")
# Every request may say which day is today where the person is (daily.local_today): the
# page sends it with each, so that the requests that deal judge dates by it.
COMMON_KEYS = frozenset({"id", "type", "today"})


class Request(NamedTuple):
    """A request type: its handler, the payload keys it accepts besides the common ones, what
    it does to the game's recipe, and whether its reply is a view (see the module's docstring)."""

    handler: Handler
    accepts: frozenset[str]
    effect: Effect
    view: bool = False


def _hello(data: dict[str, Any]) -> dict[str, Any]:
    return {**facts.hello(data),
            "requests": {kind: {"effect": request.effect, "view": request.view}
                         for kind, request in REQUESTS.items()}}


def _remote_handlers() -> dict[str, Handler]:
    from . import remote

    return {"stand_in": remote.stand_in, "fair_deal": remote.fair_deal,
            "fair_check": remote.fair_check}


def _reviews_handlers() -> dict[str, Handler]:
    from . import reviews

    return {"review": reviews.review, "review_next": reviews.review_next,
            "review_line": reviews.review_line, "rerun": reviews.rerun,
            "rerun_next": reviews.rerun_next, "work": reviews.work}


def _challenge_handlers() -> dict[str, Handler]:
    from . import challenges

    return {"challenge_make": challenges.challenge_make,
            "challenge_read": challenges.challenge_read,
            "challenge_start": challenges.challenge_start,
            "challenge_reply": challenges.challenge_reply,
            "challenge_compare": challenges.challenge_compare,
            "challenge_compare_next": challenges.challenge_compare_next}


def _challenge(kind: str) -> Handler:
    return _on_first_use(_challenge_handlers, kind)


def _remote(kind: str) -> Handler:
    return _on_first_use(_remote_handlers, kind)


def _reviews(kind: str) -> Handler:
    return _on_first_use(_reviews_handlers, kind)


def _puzzles_handlers() -> dict[str, Handler]:
    from . import puzzles

    return {"puzzles": puzzles.load_set, "puzzle": puzzles.open_puzzle,
            "puzzle_answer": puzzles.answer, "puzzle_play": puzzles.play_on,
            "puzzle_step": puzzles.step}


def _puzzles(kind: str) -> Handler:
    return _on_first_use(_puzzles_handlers, kind)


def _on_first_use(handlers: Callable[[], dict[str, Handler]], kind: str) -> Handler:
    """Request ``kind``'s handler from ``handlers``' module, imported at the first call."""

    def handler(data: dict[str, Any]) -> Any:
        return handlers()[kind](data)

    return handler


REQUESTS: dict[str, Request] = {
    "hello": Request(_hello, frozenset(), "reads"),
    "new_game": Request(playing.new_game, frozenset(
        {"seed", "rules", "level", "levels", "people", "games", "suit"}), "starts", view=True),
    "check_settings": Request(facts.check_settings, frozenset({"settings"}), "reads"),
    "check_name": Request(facts.check_name, frozenset({"name", "taken"}), "reads"),
    "view": Request(playing.view, frozenset(), "reads", view=True),
    "play": Request(playing.play, frozenset({"card", "guest"}), "changes", view=True),
    "step": Request(playing.step, frozenset(), "changes", view=True),
    "reveal": Request(reading.reveal, frozenset({"seat"}), "reads", view=True),
    "stand_in": Request(_remote("stand_in"), frozenset({"seat", "level"}), "reads", view=True),
    "fair_deal": Request(_remote("fair_deal"), frozenset({"host", "guests"}), "reads"),
    "fair_check": Request(_remote("fair_check"),
                          frozenset({"recipe", "host", "guests", "commitment", "seen"}), "reads"),
    "next_game": Request(playing.next_game, frozenset(), "starts", view=True),
    "hint": Request(reading.hint, frozenset({"guest"}), "reads"),
    "aids": Request(reading.aids, frozenset(), "reads"),
    "record": Request(reading.record, frozenset(), "reads"),
    "load": Request(playing.load,
                    frozenset({"record", "settings", "history", "viewer", "ahead"}), "starts",
                    view=True),
    "undo": Request(playing.undo, frozenset(), "changes", view=True),
    "replay": Request(reading.replay, frozenset({"record", "tricks"}), "reads"),
    "import": Request(reading.import_file, frozenset({"base64", "text", "kept_open"}), "reads"),
    "examples": Request(facts.examples, frozenset(), "reads"),
    "daily": Request(playing.daily, frozenset({"date", "practice"}), "starts", view=True),
    "review": Request(_reviews("review"),
                      frozenset({"record", "seat", "deal", "budget", "seed", "guest"}), "reads"),
    "review_next": Request(_reviews("review_next"), frozenset({"job", "guest"}), "reads"),
    "review_line": Request(_reviews("review_line"), frozenset({"job", "play", "guest"}),
                          "reads"),
    "rerun": Request(_reviews("rerun"), frozenset({"iterations", "guest"}), "reads"),
    "rerun_next": Request(_reviews("rerun_next"), frozenset({"job", "guest"}), "reads"),
    "work": Request(_reviews("work"), frozenset({"ms", "budget", "iterations"}), "reads"),
    "challenge_make": Request(_challenge("challenge_make"), frozenset({"name", "settings"}),
                              "reads"),
    "challenge_read": Request(_challenge("challenge_read"), frozenset({"challenge"}), "reads"),
    "challenge_start": Request(_challenge("challenge_start"),
                               frozenset({"challenge", "name", "practice"}), "starts", view=True),
    "challenge_reply": Request(_challenge("challenge_reply"), frozenset({"challenge", "name"}),
                               "reads"),
    "challenge_compare": Request(_challenge("challenge_compare"), frozenset(
        {"challenge", "reply", "name", "budget", "iterations"}), "reads"),
    "challenge_compare_next": Request(_challenge("challenge_compare_next"), frozenset({"job"}),
                                      "reads"),
    "puzzles": Request(_puzzles("puzzles"), frozenset({"text"}), "reads"),
    "puzzle": Request(_puzzles("puzzle"), frozenset({"puzzle", "near", "day", "mine"}), "reads"),
    "puzzle_answer": Request(_puzzles("puzzle_answer"), frozenset({"card", "rate", "rating"}),
                             "reads"),
    "puzzle_play": Request(_puzzles("puzzle_play"), frozenset({"card"}), "reads"),
    "puzzle_step": Request(_puzzles("puzzle_step"), frozenset(), "reads"),
}

def reset() -> None:
    """Forget the match in play, the jobs, the work ahead and the puzzles (for tests)."""
    session.reset()
    if f"{__package__}.puzzles" in sys.modules:  # loaded: it may hold a set and a puzzle
        from . import puzzles

        puzzles.reset()


def handle(request: str) -> str:
    """Answer one JSON request with one JSON reply; never raises.

    The reply carries the request's id whenever it can be read, refusals included: the
    page matches replies to requests by id.
    """
    req_id: Any = None
    try:
        data = _parse(request)
        req_id = data.get("id")
        result = _dispatch(data)
    except ProtocolError as exc:
        return _reply(_id_of(request, req_id),
                      error={"code": exc.code, "message": str(exc), "text": exc.text,
                             "input": exc.is_input, "no_game": exc.no_game})
    except Exception as exc:  # a bug must still answer, or the page waits forever
        english = f"the engine failed: {type(exc).__name__}: {exc}"
        return _reply(_id_of(request, req_id), error={"code": "internal", "message": english,
                                                      "text": message("error.internal"),
                                                      "input": False, "no_game": False})
    return _reply(req_id, result=result)


def _id_of(request: Any, parsed: Any) -> Any:
    """The id of a refused request: as parsed, else read from its text (one pass)."""
    if parsed is not None or not isinstance(request, str):
        return parsed
    found = top_level_id(request)
    return found if _is_id(found) else None


def _is_id(value: Any) -> bool:
    return (value is None or type(value) is str
            or (type(value) is int and abs(value) <= MAX_SAFE_INTEGER))


def _parse(request: Any) -> dict[str, Any]:
    if not isinstance(request, str):
        raise ProtocolError("bad_json", "a request must be a JSON string")
    if len(request) > MAX_REQUEST_CHARS:
        raise ProtocolError(
            "bad_request", f"request is {len(request)} characters; the limit is {MAX_REQUEST_CHARS}"
        )
    if nests_too_deeply(request):
        raise ProtocolError(
            "bad_json", f"request nests arrays and objects over {MAX_NESTING} levels deep"
        )
    try:
        # Lone surrogates ("\ud800") are refused here: seeding from one fails, and so would
        # sending it on.
        data = loads(request)
    except ValueError as exc:  # UnicodeEncodeError is one
        raise ProtocolError("bad_json", f"request is not JSON text: {exc}") from None
    except RecursionError:
        raise ProtocolError("bad_json", "request is not JSON: nested too deeply") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_request", "a request must be a JSON object")
    req_id = data.get("id")
    if not _is_id(req_id):
        raise ProtocolError(
            "bad_request", f"id must be a text or a whole number, not {brief_repr(req_id)}"
        )
    return data


def _dispatch(data: dict[str, Any]) -> Any:
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in REQUESTS:
        known = ", ".join(REQUESTS)
        raise ProtocolError("unknown_type",
                            f"unknown request type {brief_repr(kind)} (known: {known})")
    request = REQUESTS[kind]
    extra = sorted(set(data) - request.accepts - COMMON_KEYS)
    if extra:
        raise ProtocolError("bad_request", f"{kind} does not take {', '.join(extra)}")
    if "today" in data:
        session.check_today(data)
    before = session.recipe_mark() if request.effect == "changes" else None
    result = request.handler(data)
    if request.view:
        result = session.with_guests(result)
    if request.effect == "reads":
        return result
    return {**result, "recipe": session.recipe_since(before)}


def _reply(req_id: Any, *, result: Any = None, error: dict[str, Any] | None = None) -> str:
    if error is not None:
        if len(error["message"]) > MAX_MESSAGE_CHARS:  # engine messages may quote an input
            error = {**error, "message": error["message"][: MAX_MESSAGE_CHARS - 1] + "…"}
        reply = {"id": req_id, "ok": False, "error": error}
    else:
        reply = {"id": req_id, "ok": True, "result": result}
    return json.dumps(reply, ensure_ascii=False, separators=(",", ":"))
