"""Calling the worker protocol from tests: one request in, the checked reply out."""

from __future__ import annotations

import json
from typing import Any

from calypso_core.table import transport as protocol


def call(kind: str, **payload: Any) -> dict[str, Any]:
    """Send one request; return the whole reply, checking its shape and id."""
    reply = json.loads(protocol.handle(json.dumps({"id": 7, "type": kind, **payload})))
    assert reply["id"] == 7
    assert set(reply) == ({"id", "ok", "result"} if reply["ok"] else {"id", "ok", "error"})
    return dict(reply)


def ok(kind: str, **payload: Any) -> Any:
    """Send a request that must succeed; return its result."""
    reply = call(kind, **payload)
    assert reply["ok"], reply
    return reply["result"]


def error(kind: str, **payload: Any) -> str:
    """Send a request that must fail; return the error code (the message must say something)."""
    reply = call(kind, **payload)
    assert not reply["ok"], reply
    assert reply["error"]["message"]
    return str(reply["error"]["code"])
