"""The worker protocol: one function from a JSON request string to a JSON reply string.

Requests are ``{"id", "type", ...}``; replies ``{"id", "ok": true, "result"}`` or
``{"id", "ok": false, "error": {"code", "message"}}``. ``REQUESTS`` maps each request type
to its handler (``handlers``) and the payload keys it accepts; the limits are checked before
anything is parsed. One match is kept between requests (the worker runs one page); apart
from that, and from fresh random seeds when none is given, a reply depends only on the
request. A refused request changes nothing. docs/protocol.md describes every request.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from . import handlers
from .errors import ProtocolError, brief
from .limits import MAX_MESSAGE_CHARS, MAX_NESTING, MAX_REQUEST_CHARS, MAX_SAFE_INTEGER, nesting

PROTOCOL_VERSION = handlers.PROTOCOL_VERSION
Handler = Callable[[dict[str, Any]], Any]

# Each request type: its handler and the payload keys it accepts besides "id" and "type".
REQUESTS: dict[str, tuple[Handler, frozenset[str]]] = {
    "hello": (handlers.hello, frozenset()),
    "new_game": (handlers.new_game,
                 frozenset({"seed", "rules", "level", "levels", "people", "games", "suit"})),
    "view": (handlers.view, frozenset()),
    "play": (handlers.play, frozenset({"card"})),
    "step": (handlers.step, frozenset()),
    "reveal": (handlers.reveal, frozenset({"seat"})),
    "next_game": (handlers.next_game, frozenset()),
    "hint": (handlers.hint, frozenset()),
    "aids": (handlers.aids, frozenset()),
    "record": (handlers.record, frozenset()),
    "load": (handlers.load, frozenset({"record", "settings", "history"})),
    "undo": (handlers.undo, frozenset()),
    "replay": (handlers.replay, frozenset({"record", "tricks"})),
    "import": (handlers.import_file, frozenset({"text"})),
    "examples": (handlers.examples, frozenset()),
}

reset = handlers.reset


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
    if nesting(request) > MAX_NESTING:
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
    handler, accepted = REQUESTS[kind]
    extra = sorted(set(data) - accepted - {"id", "type"})
    if extra:
        raise ProtocolError("bad_request", f"{kind} does not take {', '.join(extra)}")
    return handler(data)


def _reply(req_id: Any, *, result: Any = None, error: dict[str, str] | None = None) -> str:
    if error is not None:
        if len(error["message"]) > MAX_MESSAGE_CHARS:  # engine messages may quote an input
            error = {**error, "message": error["message"][: MAX_MESSAGE_CHARS - 1] + "…"}
        reply = {"id": req_id, "ok": False, "error": error}
    else:
        reply = {"id": req_id, "ok": True, "result": result}
    return json.dumps(reply, ensure_ascii=False, separators=(",", ":"))
