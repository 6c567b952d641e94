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
import json
from typing import Any

from ..cards import Card, brief_repr
from .errors import ProtocolError

PREFIX = "sealed:"
_KEY = b"calypso deck seal, version 1"
_TAG_BYTES = 16


def seal_deck(deck: list[str]) -> str:
    """The deck's card codes, sealed (the same deck always gives the same seal)."""
    return _seal(bytes(int(Card.parse(code)) for code in deck))


def open_deck(sealed: str) -> list[str]:
    """The card codes of a sealed deck; a seal that is not the engine's raises ProtocolError."""
    plain = _unseal(sealed)
    if plain is None or any(code >= 52 for code in plain):
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


def seal_data(value: Any) -> str:
    """JSON data sealed like a deck (for the work done ahead on a game in play, whose reviews
    name a person's cards and whose rerun plays the hidden ones)."""
    return _seal(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())


def open_data(sealed: Any, what: str) -> Any:
    """The JSON data of ``seal_data``; anything else raises ProtocolError naming ``what``."""
    if not is_sealed(sealed):
        raise ProtocolError("bad_record", f"{what} must be sealed by the engine, not "
                            f"{brief_repr(sealed)}")
    plain = _unseal(sealed)
    try:
        if plain is not None:
            return json.loads(plain)
    except ValueError:  # a seal of ours always holds JSON
        pass
    raise ProtocolError("bad_record", f"{what} is damaged or was changed")


def is_sealed(value: Any) -> bool:
    return isinstance(value, str) and value.startswith(PREFIX)


def _seal(plain: bytes) -> str:
    tag = _tag(plain)
    return PREFIX + (tag + _xor(plain, tag)).hex()


def _unseal(sealed: str) -> bytes | None:
    """The bytes a seal holds, or None when it is not one of the engine's."""
    try:
        data = bytes.fromhex(sealed.removeprefix(PREFIX))
    except ValueError:
        return None
    tag, hidden = data[:_TAG_BYTES], data[_TAG_BYTES:]
    plain = _xor(hidden, tag)
    return plain if len(tag) == _TAG_BYTES and tag == _tag(plain) else None


def _tag(plain: bytes) -> bytes:
    # A keyed hash (hmac is not in the page's trimmed standard library, and the seal is no
    # secret from someone who reads this source anyway: see the module's docstring).
    return hashlib.sha256(_KEY + len(plain).to_bytes(4, "big") + plain).digest()[:_TAG_BYTES]


def _xor(data: bytes, nonce: bytes) -> bytes:
    stream = b"".join(hashlib.sha256(_KEY + nonce + block.to_bytes(4, "big")).digest()
                      for block in range(-(-len(data) // 32)))
    return bytes(a ^ b for a, b in zip(data, stream, strict=False))
