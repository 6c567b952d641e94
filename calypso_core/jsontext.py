"""Guards on JSON text from outside (the page's requests, uploaded game files).

Each check is one pass over the text, so a hostile input costs time in proportion to its
length: ``nests_too_deeply`` before parsing (deep JSON would overflow the JavaScript stack
inside Pyodide and kill the worker), ``loads`` for the strict parse and the text check, and
``top_level_id`` to answer a refused request with its id. The table's ``transport`` and
``reading`` (a game file's import) both use them.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

# Requests and game records nest about 5 deep.
MAX_NESTING = 32

# A JSON string, or the rest of the text after an unclosed quote. The possessive quantifiers
# never give back what they matched, so a match is never tried again from a later quote:
# one pass. (A backtracking pattern took 17 s on 64 KB of quotes and backslashes.)
_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+"?', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]++")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_TOKEN = re.compile(r'"(?:[^"\\]++|\\.)*+"?|[\[\]{}]', re.DOTALL)
_OBJECT_START = re.compile(r"\s*+\{")
_ID_VALUE = re.compile(r'\s*+:\s*+("(?:[^"\\]++|\\.)*+"|-?[0-9]{1,20}+)(?![0-9.eE])', re.DOTALL)


def nests_too_deeply(text: str, limit: int = MAX_NESTING) -> bool:
    """Whether arrays and objects in ``text`` nest more than ``limit`` deep (brackets inside
    strings do not count; the text need not be valid JSON)."""
    if text.count("[") + text.count("{") <= limit:
        return False  # too few brackets to matter: the common case, at C speed
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0) > limit


def loads(text: str) -> Any:
    """Parse JSON strictly: no NaN or Infinity, no key given twice, no lone surrogate
    (JSON may spell "\\ud800", which is not text); raises ``ValueError`` naming the fault."""
    data = json.loads(text, parse_constant=_refuse_constant, object_pairs_hook=_refuse_duplicates)
    # Encoding what was read finds any lone surrogate, keys included (UnicodeEncodeError).
    json.dumps(data, ensure_ascii=False).encode()
    return data


def top_level_id(text: str) -> str | int | None:
    """The ``"id"`` of a JSON object's text, read without parsing the rest (which may be too
    large, too deep or not JSON at all): a string or a whole number, else None."""
    if not _OBJECT_START.match(text):
        return None
    depth = 0
    for token in _TOKEN.finditer(text):
        first = token.group()[0]
        if first in "[{":
            depth += 1
        elif first in "]}":
            depth -= 1
            if depth <= 0:
                return None  # the object ended without an id
        elif depth == 1 and token.group() == '"id"':
            value = _ID_VALUE.match(text, token.end())
            if value is None:
                continue  # "id" as a value, or an id that is not a string or a whole number
            try:
                found = json.loads(value.group(1))
                json.dumps(found, ensure_ascii=False).encode()
            except ValueError:
                return None
            return found if isinstance(found, str | int) else None
    return None


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _refuse_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # Python and JavaScript both keep the last of two equal keys; refusing is clearer.
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise ValueError(f"the key {key[:40]!r} appears twice")
        data[key] = value
    return data
