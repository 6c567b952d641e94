"""Sealed decks: the recipe of a game in play leaves the engine with its deck sealed.

The page keeps the recipe of the game in play (to save it, and to reload it into a new
worker) and writes it to game files, but the deck holds every hidden card. So while a game
is in play its record's ``deck`` leaves the engine as ``"sealed:<hex>"``, which only the
engine opens (``load``, ``import``, ``replay``, ``review``); a finished game's deck is no
secret (every card of it was played) and stays plain. The seal is authenticated: a deck
changed by a single card is refused, not opened.

This keeps a covered hand out of what the page holds, stores and writes, so that a glance at
its storage or a game file shows none. It is no defence against a person with the browser's
developer tools: the key is in this public source, and the match's seed, which the page
keeps, deals the same cards again (README.md, "What the page keeps").
"""

from __future__ import annotations

import hashlib
from typing import Any

from ..cards import Card, brief_repr
from .errors import ProtocolError

PREFIX = "sealed:"
_KEY = b"calypso deck seal, version 1"
_TAG_BYTES = 16


def seal_deck(deck: list[str]) -> str:
    """The deck's card codes, sealed (the same deck always gives the same seal)."""
    plain = bytes(int(Card.parse(code)) for code in deck)
    tag = _tag(plain)
    return PREFIX + (tag + _xor(plain, tag)).hex()


def open_deck(sealed: str) -> list[str]:
    """The card codes of a sealed deck; a seal that is not the engine's raises ProtocolError."""
    try:
        data = bytes.fromhex(sealed.removeprefix(PREFIX))
    except ValueError:
        data = b""
    tag, hidden = data[:_TAG_BYTES], data[_TAG_BYTES:]
    plain = _xor(hidden, tag)
    if len(tag) < _TAG_BYTES or tag != _tag(plain) or any(code >= 52 for code in plain):
        raise ProtocolError("bad_record", f"the sealed deck {brief_repr(sealed)} is damaged "
                            "or was changed")
    return [str(Card(code)) for code in plain]


def sealed_record(record: dict[str, Any], *, is_over: bool) -> dict[str, Any]:
    """A game record as it may leave the engine: its deck sealed unless the game is over."""
    return record if is_over else {**record, "deck": seal_deck(record["deck"])}


def opened_record(record: Any) -> Any:
    """A record as it came, with a sealed deck opened (anything else is left to the record's
    own checks)."""
    if isinstance(record, dict) and is_sealed(record.get("deck")):
        return {**record, "deck": open_deck(record["deck"])}
    return record


def is_sealed(value: Any) -> bool:
    return isinstance(value, str) and value.startswith(PREFIX)


def _tag(plain: bytes) -> bytes:
    # A keyed hash (hmac is not in the page's trimmed standard library, and the seal is no
    # secret from someone who reads this source anyway: see the module's docstring).
    return hashlib.sha256(_KEY + len(plain).to_bytes(4, "big") + plain).digest()[:_TAG_BYTES]


def _xor(data: bytes, nonce: bytes) -> bytes:
    stream = b"".join(hashlib.sha256(_KEY + nonce + block.to_bytes(4, "big")).digest()
                      for block in range(-(-len(data) // 32)))
    return bytes(a ^ b for a, b in zip(data, stream, strict=False))
