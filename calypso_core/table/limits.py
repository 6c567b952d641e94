"""Limits on what the page may send, checked before anything is parsed or changed."""

from __future__ import annotations

import re

MAX_REQUEST_CHARS = 256_000
MAX_MESSAGE_CHARS = 300
MAX_SAFE_INTEGER = 2**53 - 1  # ids stay exact as JavaScript numbers
# Requests nest about 5 deep. Deep nesting must be refused before parsing: in Pyodide the
# parser overflows the JavaScript stack (the worker dies) long before CPython's recursion
# limit would raise.
MAX_NESTING = 32
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def nesting(text: str) -> int:
    """How deep arrays and objects nest in JSON text (brackets inside strings skipped);
    0 when there are too few brackets to matter."""
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
