"""The worker protocol: one pure function from a JSON request string to a JSON reply string.

Placeholder: only ``hello`` is answered until the game commands land.
"""

from __future__ import annotations

import json
from typing import Any

from . import __version__

PROTOCOL_VERSION = 1


def handle(request: str) -> str:
    """Answer one JSON request with one JSON reply; never raises."""
    try:
        data = json.loads(request)
    except (ValueError, TypeError) as exc:
        return _error(None, "bad_json", f"request is not JSON: {exc}")
    if not isinstance(data, dict):
        return _error(None, "bad_request", "request must be a JSON object")
    req_id = data.get("id")
    kind = data.get("type")
    if kind == "hello":
        result: dict[str, Any] = {"engine": __version__, "protocol": PROTOCOL_VERSION}
        return json.dumps({"id": req_id, "ok": True, "result": result})
    return _error(req_id, "unknown_type", f"unknown request type {kind!r}")


def _error(req_id: Any, code: str, message: str) -> str:
    return json.dumps({"id": req_id, "ok": False, "error": {"code": code, "message": message}})
