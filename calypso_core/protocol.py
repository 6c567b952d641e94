"""The worker protocol: one function from a JSON request string to a JSON reply string.

Requests are ``{"id", "type", ...}``; replies ``{"id", "ok": true, "result"}`` or
``{"id", "ok": false, "error": {"code", "message"}}``. Game commands return the whole
table as the person (South) sees it, never a diff. One match is kept in this module between
requests (the worker runs one page); apart from that, and from fresh random seeds when none
is given, a reply depends only on the request. A refused request changes nothing.

Request types (see ``REQUESTS``): ``hello``; ``new_game {seed?, rules?, level? | levels?,
games?, suit?}``; ``view``; ``play {card}``; ``step`` (one computer move); ``next_game``;
``hint``; ``record``; ``load {record, settings, history?}``; ``undo``; ``replay {record?,
tricks?}``; ``import {text}``; ``examples`` (see ``table_requests``).
"""

from __future__ import annotations

import json
from typing import Any

from . import __version__
from .jsontext import MAX_NESTING, loads, nests_too_deeply, top_level_id
from .match import (
    YOU,
    Match,
    ProtocolError,
    Settings,
    bot_levels,
    brief,
    default_level,
    has_hints,
)
from .record import MAX_RECORD_BYTES
from .rules import Rules
from .table_requests import examples, import_record, replay, undo, view_extras

PROTOCOL_VERSION = 1
# Room for the largest request the page sends: an import of a game file at the record size
# limit written all in escapes ("\u0001" is six characters for one byte), or a load with
# a match's four records.
MAX_REQUEST_CHARS = 6 * MAX_RECORD_BYTES + 16_000
MAX_MESSAGE_CHARS = 300
MAX_SAFE_INTEGER = 2**53 - 1  # ids stay exact as JavaScript numbers

# Each request type and the payload keys it accepts besides "id" and "type".
REQUESTS: dict[str, frozenset[str]] = {
    "hello": frozenset(),
    "new_game": frozenset({"seed", "rules", "level", "levels", "games", "suit"}),
    "view": frozenset(),
    "play": frozenset({"card"}),
    "step": frozenset(),
    "next_game": frozenset(),
    "hint": frozenset(),
    "record": frozenset(),
    "load": frozenset({"record", "settings", "history"}),
    "undo": frozenset(),
    "replay": frozenset({"record", "tricks"}),
    "import": frozenset({"text"}),
    "examples": frozenset(),
}

OPTIONS = (
    ("lead_trump_must_be_beaten", "Trump lead must be beaten",
     "A led own-suit card counts as a trump: a trump-in must be higher to win."),
    ("last_trump_in_wins", "Last trump-in wins (early rules)",
     "When several players trump in, the last one wins, not the highest."),
    ("all_fours", "All Fours Calypso",
     "You may play your own suit even when you can follow; each trump must beat the best "
     "so far."),
    ("leftovers_start_next_calypso", "Leftovers start the next calypso",
     "Duplicates from the trick that completes a calypso start the next one (off: they go "
     "to the pile)."),
)


class _Session:
    """The one match in play (None before the first ``new_game`` or ``load``)."""

    match: Match | None = None


_session = _Session()


def reset() -> None:
    """Forget the match in play (for tests)."""
    _session.match = None


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
        return _reply(_id_of(request, req_id), error={"code": exc.code, "message": str(exc)})
    except Exception as exc:  # a bug must still answer, or the page waits forever
        message = f"the engine failed: {type(exc).__name__}: {exc}"
        return _reply(_id_of(request, req_id), error={"code": "internal", "message": message})
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
            "bad_request", f"id must be a text or a whole number, not {brief(req_id)}"
        )
    return data


def _check_record_sizes(record: Any, history: Any) -> None:
    """Apply parse_record's size limit to records that arrive already parsed."""
    named = [("record", record)]
    if isinstance(history, list):
        named += [(f"history[{i}]", item) for i, item in enumerate(history)]
    for name, item in named:
        size = len(json.dumps(item, ensure_ascii=False, separators=(",", ":")).encode())
        if size > MAX_RECORD_BYTES:
            raise ProtocolError(
                "bad_record", f"{name} is {size} bytes; the limit is {MAX_RECORD_BYTES}"
            )


def _dispatch(data: dict[str, Any]) -> Any:
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in REQUESTS:
        known = ", ".join(REQUESTS)
        raise ProtocolError("unknown_type", f"unknown request type {brief(kind)} (known: {known})")
    extra = sorted(set(data) - REQUESTS[kind] - {"id", "type"})
    if extra:
        raise ProtocolError("bad_request", f"{kind} does not take {', '.join(extra)}")
    if kind == "hello":
        return _hello()
    if kind == "examples":
        return examples()
    if kind == "import":
        return import_record(_session.match, data)
    if kind == "replay":
        return replay(_session.match, data)
    if kind == "new_game":
        started = Match(Settings.from_request(data))
        _session.match = started
        return _view(started)
    if kind == "load":
        for key in ("record", "settings"):
            if key not in data:
                raise ProtocolError("bad_request", f"load needs {key}")
        history = data.get("history")
        if history is None:  # not given, or null (as for every optional key): no earlier games
            history = []
        _check_record_sizes(data["record"], history)
        loaded = Match.load(data["record"], data["settings"], history)
        _session.match = loaded
        return _view(loaded)
    match = _session.match
    if match is None:
        raise ProtocolError("no_game", f"{kind}: no game in play (send new_game or load first)")
    if kind == "view":
        return _view(match)
    if kind == "play":
        if "card" not in data:
            raise ProtocolError("bad_request", "play needs a card, such as \"QH\"")
        match.play(data["card"])
        return _view(match)
    if kind == "step":
        match.step()
        return _view(match)
    if kind == "next_game":
        match.next_game()
        return _view(match)
    if kind == "undo":
        undo(match)
        return _view(match)
    if kind == "hint":
        return match.hint()
    return match.save()  # "record"


def _view(match: Match) -> dict[str, Any]:
    return {**match.view(), **view_extras(match)}


def _hello() -> dict[str, Any]:
    defaults = Rules().to_dict()
    levels, problem = bot_levels()
    return {
        "engine": __version__,
        "protocol": PROTOCOL_VERSION,
        "you": YOU,
        "levels": [{"key": level, "label": level.replace("_", " ").capitalize()}
                   for level in levels],
        "default_level": default_level(),
        "bots_problem": problem,
        "hints": has_hints(),
        "options": [
            {"key": key, "label": label, "help": help_text, "default": defaults[key]}
            for key, label, help_text in OPTIONS
        ],
        "games": {"min": 1, "max": 4, "default": 1},
        "suits": [
            {"key": "S", "label": "♠ Spades"}, {"key": "H", "label": "♥ Hearts"},
            {"key": "D", "label": "♦ Diamonds"}, {"key": "C", "label": "♣ Clubs"},
        ],
    }


def _reply(req_id: Any, *, result: Any = None, error: dict[str, str] | None = None) -> str:
    if error is not None:
        if len(error["message"]) > MAX_MESSAGE_CHARS:  # engine messages may quote an input
            error = {**error, "message": error["message"][: MAX_MESSAGE_CHARS - 1] + "…"}
        return json.dumps({"id": req_id, "ok": False, "error": error}, ensure_ascii=False)
    return json.dumps({"id": req_id, "ok": True, "result": result}, ensure_ascii=False)
