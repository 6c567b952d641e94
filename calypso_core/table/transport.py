"""The worker protocol: one function from a JSON request string to a JSON reply string.

Requests are ``{"id", "type", ...}``; replies ``{"id", "ok": true, "result"}`` or
``{"id", "ok": false, "error": {"code", "message"}}``. Game commands return the whole
table as the person (South) sees it, never a diff. One match is kept in this module between
requests (the worker runs one page); apart from that, and from fresh random seeds when none
is given, a reply depends only on the request. A refused request changes nothing.

Request types (see ``REQUESTS``): ``hello``; ``new_game {seed?, rules?, level? | levels?,
games?, suit?}``; ``view``; ``play {card}``; ``step`` (alias ``bot_move``: one computer
move); ``next_game``; ``hint``; ``record``; ``load {record, settings, history?}``; ``undo``;
``replay {record?, tricks?}``; ``import {text}``; ``examples`` (see ``handlers``).
"""

from __future__ import annotations

import json
import re
from typing import Any

from .. import __version__
from ..record import MAX_RECORD_BYTES
from ..rules import Rules
from .handlers import examples, import_record, replay, undo, view_extras
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

PROTOCOL_VERSION = 1
MAX_REQUEST_CHARS = 256_000
MAX_MESSAGE_CHARS = 300
MAX_SAFE_INTEGER = 2**53 - 1  # ids stay exact as JavaScript numbers
# Requests nest about 5 deep. Deep nesting must be refused before parsing: in Pyodide the
# parser overflows the JavaScript stack (the worker dies) long before CPython's recursion
# limit would raise.
MAX_NESTING = 32
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')

# Each request type and the payload keys it accepts besides "id" and "type".
REQUESTS: dict[str, frozenset[str]] = {
    "hello": frozenset(),
    "new_game": frozenset({"seed", "rules", "level", "levels", "games", "suit"}),
    "view": frozenset(),
    "play": frozenset({"card"}),
    "step": frozenset(),
    "bot_move": frozenset(),
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
    """Answer one JSON request with one JSON reply; never raises."""
    req_id: Any = None
    try:
        data = _parse(request)
        req_id = data.get("id")
        result = _dispatch(data)
    except ProtocolError as exc:
        return _reply(req_id, error={"code": exc.code, "message": str(exc)})
    except Exception as exc:  # a bug must still answer, or the page waits forever
        message = f"the engine failed: {type(exc).__name__}: {exc}"
        return _reply(req_id, error={"code": "internal", "message": message})
    return _reply(req_id, result=result)


def _parse(request: Any) -> dict[str, Any]:
    if not isinstance(request, str):
        raise ProtocolError("bad_json", "a request must be a JSON string")
    if len(request) > MAX_REQUEST_CHARS:
        raise ProtocolError(
            "bad_request", f"request is {len(request)} characters; the limit is {MAX_REQUEST_CHARS}"
        )
    if _nesting(request) > MAX_NESTING:
        raise ProtocolError(
            "bad_json", f"request nests arrays and objects over {MAX_NESTING} levels deep"
        )
    try:
        data = json.loads(request, parse_constant=_refuse_constant,
                          object_pairs_hook=_refuse_duplicates)
        # JSON may spell lone surrogates ("\ud800"), which are not text: seeding from one
        # fails, and so would sending it on. Encoding what was read finds any, keys included.
        json.dumps(data, ensure_ascii=False).encode()
    except ValueError as exc:  # UnicodeEncodeError is one
        raise ProtocolError("bad_json", f"request is not JSON text: {exc}") from None
    except RecursionError:
        raise ProtocolError("bad_json", "request is not JSON: nested too deeply") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_request", "a request must be a JSON object")
    req_id = data.get("id")
    if not (req_id is None or type(req_id) is str
            or (type(req_id) is int and abs(req_id) <= MAX_SAFE_INTEGER)):
        raise ProtocolError(
            "bad_request", f"id must be a text or a whole number, not {brief(req_id)}"
        )
    return data


def _nesting(text: str) -> int:
    """How deep arrays and objects nest in JSON text (brackets inside strings skipped)."""
    if text.count("[") + text.count("{") <= MAX_NESTING:
        return 0  # too few brackets to matter: the common case, at C speed
    depth = deepest = 0
    for char in _STRING.sub("", text):
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


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


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _refuse_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # Python and JavaScript both keep the last of two equal keys; refusing is clearer.
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise ValueError(f"the key {brief(key)} appears twice")
        data[key] = value
    return data


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
        _check_record_sizes(data["record"], data.get("history", []))
        loaded = Match.load(data["record"], data["settings"], data.get("history", []))
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
    if kind in ("step", "bot_move"):
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
