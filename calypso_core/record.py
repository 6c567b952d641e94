"""Game records: the JSON recipe of a game (rules, suits, first dealer, deck, plays).

The format is documented in docs/game-record.md. A record that is wrong in any way is
refused with a ``RecordError`` naming the first bad item.
"""

from __future__ import annotations

import json
from typing import Any

from .cards import SUIT_LETTERS, brief_repr, check_seat
from .game import GameState, IllegalMoveError, check_deck, check_suits
from .kernel import DECK_SIZE
from .naming import name_problem
from .rules import Rules

FORMAT = "calypso-record"
# Version 2 adds the optional ``players``; a record without them is written as version 1,
# so that every reader of version 1 still reads it.
VERSIONS = (1, 2)
KEYS = ("format", "version", "rules", "suits", "first_dealer", "deck", "plays")
PLAYERS = "players"
PLAYER_KINDS = ("person", "computer")
MAX_PLAYER_CHARS = 40
# Plenty for a real record (about 3 KB); anything far larger is refused before parsing.
MAX_RECORD_BYTES = 64_000


class RecordError(ValueError):
    """A game record that is malformed or describes an impossible game."""


def to_record(state: GameState, players: list[dict[str, str]] | None = None) -> dict[str, Any]:
    """The game record of a position: enough to rebuild it exactly; with ``players`` (who
    sat where: ``{"person": name}`` or ``{"computer": level}`` per seat), version 2."""
    if not isinstance(state, GameState):
        raise ValueError(f"a game record is made from a GameState, not {brief_repr(state)}")
    record = {
        "format": FORMAT,
        "version": VERSIONS[0],
        "rules": state.rules.to_dict(),
        "suits": [SUIT_LETTERS[s] for s in state.suits],
        "first_dealer": state.first_dealer,
        "deck": [str(c) for c in state.deck],
        "plays": [str(c) for c in state.plays],
    }
    if players is not None:
        record["version"] = VERSIONS[1]
        record[PLAYERS] = check_players(players)
    return record


def check_players(value: Any) -> list[dict[str, str]]:
    """Check a record's ``players``: four objects, ``{"person": name}`` or
    ``{"computer": level}``, each text at most MAX_PLAYER_CHARS long."""
    if not isinstance(value, list) or len(value) != 4:
        raise RecordError(
            f"players must be a list of four players, one per seat, not {_brief(value)}"
        )
    checked = []
    for seat, item in enumerate(value):
        if not (isinstance(item, dict) and len(item) == 1 and next(iter(item)) in PLAYER_KINDS
                and isinstance(next(iter(item.values())), str)):
            raise RecordError(
                f'players[{seat}] must be {{"person": name}} or {{"computer": level}}, '
                f"not {_brief(item)}"
            )
        (kind, text), = item.items()
        if name_problem(text, MAX_PLAYER_CHARS, reserved=False) is not None:
            raise RecordError(
                f"players[{seat}]: a {kind} is named by visible text of at most "
                f"{MAX_PLAYER_CHARS} characters (naming.py), not {_brief(text)}"
            )
        checked.append({kind: text})
    return checked


def _brief(value: Any, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def from_record(data: Any) -> GameState:
    """Rebuild the position a record describes, checking every item and every play."""
    if not isinstance(data, dict):
        raise RecordError(f"a game record is a JSON object, not {type(data).__name__}")
    # Format and version first: a newer record may have keys this version does not know.
    for key in KEYS[:2]:
        if key not in data:
            raise RecordError(f"game record has no {key!r}")
    if data["format"] != FORMAT:
        raise RecordError(f"format is {brief_repr(data['format'])}, not {FORMAT!r}")
    version = data["version"]
    if type(version) is not int or version not in VERSIONS:
        raise RecordError(f"unsupported record version {brief_repr(version)} (this reads 1 and 2)")
    known = KEYS if version == 1 else (*KEYS, PLAYERS)
    for key in data:
        if key not in known:
            raise RecordError(f"unknown key {brief_repr(key)} in game record")
    for key in KEYS:
        if key not in data:
            raise RecordError(f"game record has no {key!r}")
    try:
        rules = Rules.from_dict(data["rules"])
        missing = [name for name in rules.to_dict() if name not in data["rules"]]
        if missing:
            raise RecordError(f"rules: missing option {missing[0]!r}")
        suits = check_suits(_list_of_str(data["suits"], "suits"))
        first_dealer = check_seat(data["first_dealer"])
        deck = check_deck(_list_of_str(data["deck"], "deck"))
        state = GameState(rules, suits, first_dealer, deck)
    except ValueError as exc:
        raise RecordError(str(exc)) from None
    if PLAYERS in data:
        check_players(data[PLAYERS])
    plays = _list_of_str(data["plays"], "plays")
    if len(plays) > DECK_SIZE:
        raise RecordError(f"plays has {len(plays)} cards; a game has at most {DECK_SIZE}")
    for i, text in enumerate(plays):
        if state.is_over:
            raise RecordError(f"play {i}: {text} comes after the end of the game")
        try:
            state.play(text)
        except IllegalMoveError as exc:
            raise RecordError(f"play {i}: {exc}") from None
    return state


def _list_of_str(value: Any, name: str) -> list[str]:
    if not isinstance(value, list):
        raise RecordError(f"{name} must be a list of strings, not {type(value).__name__}")
    for i, item in enumerate(value):
        if not isinstance(item, str):
            raise RecordError(f"{name}[{i}] must be a string, not {brief_repr(item)}")
    return value


# Byte-order marks and the encodings they mark, the longer first (UTF-32's begins with
# UTF-16's). A game file without one is UTF-8.
BYTE_ORDER_MARKS = (
    (b"\xff\xfe\x00\x00", "UTF-32-LE"), (b"\x00\x00\xfe\xff", "UTF-32-BE"),
    (b"\xef\xbb\xbf", "UTF-8"), (b"\xff\xfe", "UTF-16-LE"), (b"\xfe\xff", "UTF-16-BE"),
)


class RecordEncodingError(RecordError):
    """A game file whose bytes are not text in the encoding they mark (UTF-8 without a mark)."""


def record_text(data: str | bytes) -> str:
    """A game file's text: bytes decoded by the byte-order mark they begin with (UTF-8, UTF-16
    or UTF-32), else as UTF-8; then, bytes or text, the marks it begins with dropped (an
    editor may write one, a copy of a copy two). Bytes that are not such text raise
    ``RecordEncodingError``."""
    if isinstance(data, str):
        return data.lstrip("\ufeff")
    encoding, mark = "UTF-8", b""
    for bom, name in BYTE_ORDER_MARKS:
        if data.startswith(bom):
            encoding, mark = name, bom
            break
    try:
        text = bytes(data[len(mark):]).decode(encoding)
    except UnicodeDecodeError as exc:
        raise RecordEncodingError(f"game record is not {encoding} text: {exc}") from None
    if "\x00" in text:  # never in JSON text: UTF-16 or UTF-32 that lost its mark, or no text
        raise RecordEncodingError(f"game record is not {encoding} text: it holds a NUL "
                                  f"character at {text.index(chr(0))}")
    return text.lstrip("\ufeff")


def record_json(text: str | bytes) -> Any:
    """The JSON data of a record's text or bytes (``record_text``), size-limited and strictly
    parsed: a key given twice in one object, NaN or Infinity is refused (``RecordError``)."""
    if isinstance(text, (bytes, bytearray)):
        size = len(text)
    elif isinstance(text, str):
        size = len(text.encode("utf-8", "surrogatepass"))
    else:
        raise RecordError(f"a game record is JSON text (str or bytes), not {brief_repr(text)}")
    if size > MAX_RECORD_BYTES:
        raise RecordError(f"game record is {size} bytes; the limit is {MAX_RECORD_BYTES}")
    decoded = record_text(text)
    try:
        return json.loads(
            decoded,
            parse_constant=_refuse_constant,
            object_pairs_hook=_refuse_duplicate_keys,
        )
    except ValueError as exc:
        raise RecordError(f"game record is not valid JSON: {exc}") from None
    except RecursionError:
        raise RecordError("game record is not valid JSON: nested too deeply") from None


def parse_record(text: str | bytes) -> GameState:
    """Rebuild a position from a record's JSON text or a game file's bytes (size-limited,
    strictly parsed; bytes decoded by their byte-order mark: ``record_text``)."""
    return from_record(record_json(text))


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _refuse_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise ValueError(f"key {brief_repr(key)} appears twice")
            seen.add(key)
    return data
