"""How the table refuses a request: a code for the page, a message for people."""

from __future__ import annotations

from typing import Any


class ProtocolError(ValueError):
    """A request the table refuses; ``code`` is the machine-readable reason."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def brief(value: Any, limit: int = 40) -> str:
    """A value's repr for an error message, cut short: messages never echo a huge input."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
