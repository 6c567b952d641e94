"""The protocol's table features beyond play: undo, replays, record import and the rules'
worked examples, plus what they add to the view (memory aids, the deal's log, the cut).

Each function takes the match in play (or none) and the request's payload and returns
JSON-ready data, raising ``ProtocolError`` with a precise code when it refuses; a refused
request changes nothing. ``protocol.handle`` dispatches to them.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from ..cards import SEAT_NAMES, SUIT_LETTERS, Card
from ..explain import explain_trick
from ..game import GameState
from ..record import MAX_RECORD_BYTES, RecordError, from_record, parse_record, to_record
from ..rules import trick_winner
from .aids import memory_aids
from .match import YOU, Match, ProtocolError, brief, default_level
from .story import deal_log, replay_position, the_cut, truncated, undo_length
from .views import card_info

# docs/rules.md#worked-examples: N(♠) E(♣) S(♥) W(♦), North leads.
EXAMPLE_SUITS = ("S", "C", "H", "D")
EXAMPLES = (
    ("6S", "5S", "TS", "KS"),
    ("6S", "3C", "TS", "KS"),
    ("6S", "3C", "4H", "KS"),
    ("6S", "5C", "5H", "QS"),
    ("9H", "2H", "AH", "KH"),
    ("9H", "2C", "AH", "3D"),
    ("QC", "QC", "5C", "8C"),
    ("5C", "7C", "AD", "4C"),
)
NOT_OVER = "the game in play cannot be replayed until it ends: its hands are hidden"


def view_extras(match: Match) -> dict[str, Any]:
    """What the table features add to the person's view: aids, the deal's log, the cut."""
    state = match.state
    first = match.history[0] if match.history else state
    return {
        "aids": memory_aids(state.observation(YOU)),
        "log": deal_log(state),
        "cut": the_cut(match.settings.seed, tuple(int(s) for s in first.suits),
                       first.first_dealer),
        "can_undo": _can_undo(state),
    }


def _can_undo(state: GameState) -> bool:
    try:
        undo_length(state, YOU)
    except ValueError:
        return False
    return True


def undo(match: Match) -> None:
    """Take back the person's last card of this game and every computer move after it."""
    try:
        keep = undo_length(match.state, YOU)
    except ValueError:
        raise ProtocolError("nothing_to_undo", "you have played no card in this game yet") from None
    match.state = truncated(match.state, keep)
    match.last_event = None


def replay(match: Match | None, data: dict[str, Any]) -> dict[str, Any]:
    """The full-information position after ``tricks`` tricks of a finished game: the given
    ``record`` (say, an imported one), else the game in play once it is over."""
    record = data.get("record")
    if record is None:
        if match is None:
            raise ProtocolError("no_game", "replay: no game in play and no record given")
        state = match.state
        if not state.is_over:
            raise ProtocolError("game_not_over", NOT_OVER)
    else:
        state = _state_of(record)
        if match is not None and _same_game(state, match.state) and not match.state.is_over:
            raise ProtocolError("game_not_over", NOT_OVER)
    tricks = data.get("tricks", len(state.tricks))
    if type(tricks) is not int or not 0 <= tricks <= len(state.tricks):
        raise ProtocolError(
            "bad_request", f"tricks must be a whole number from 0 to {len(state.tricks)}, "
            f"not {brief(tricks)}"
        )
    # An imported record came with its hidden cards: an unfinished one replays as far as it goes.
    result = replay_position(state, tricks, reveal=True)
    result["record"] = to_record(state)
    return result


def _same_game(a: GameState, b: GameState) -> bool:
    return a.deck == b.deck and a.suits == b.suits and a.first_dealer == b.first_dealer


def _state_of(record: Any) -> GameState:
    size = len(json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode())
    if size > MAX_RECORD_BYTES:
        raise ProtocolError(
            "bad_record", f"record is {size} bytes; the limit is {MAX_RECORD_BYTES}"
        )
    try:
        return from_record(record)
    except RecordError as exc:
        raise ProtocolError("bad_record", str(exc)) from None


def import_record(match: Match | None, data: dict[str, Any]) -> dict[str, Any]:
    """Check a game record's JSON text (an uploaded file) and say what it holds: the record,
    whether it is over, and settings that continue it with ``load``."""
    from .transport import MAX_NESTING, _nesting  # the protocol's own guard

    text = data.get("text")
    if not isinstance(text, str):
        raise ProtocolError("bad_request", "import needs text: the file's contents")
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_RECORD_BYTES:
        raise ProtocolError(
            "bad_record", f"the file is {size:,} bytes; a game record is at most "
            f"{MAX_RECORD_BYTES:,}"
        )
    if _nesting(text) > MAX_NESTING:
        raise ProtocolError("bad_record", "the file nests too deeply to be a game record")
    try:
        state = parse_record(text)
    except RecordError as exc:
        raise ProtocolError("bad_record", f"not a Calypso game record: {exc}") from None
    record = to_record(state)
    digest = hashlib.sha256(json.dumps(record, separators=(",", ":")).encode()).hexdigest()
    levels = list(match.settings.levels) if match is not None else None
    if levels is None:
        one = default_level()
        levels = [one, one, "human", one]
    ns, ew = state.partnership_scores()
    return {
        "record": record,
        "is_over": state.is_over,
        "plays": len(state.plays),
        "tricks": len(state.tricks),
        "partnership_scores": [ns, ew],
        "you": SEAT_NAMES[YOU],
        "settings": {
            "seed": f"import-{digest[:10]}",
            "rules": state.rules.to_dict(),
            "levels": levels,
            "games": 1,
            "suit": SUIT_LETTERS[state.suits[YOU]],
        },
    }


def examples() -> list[dict[str, Any]]:
    """The worked trick-winner examples of the rules, as cards with winner and reason."""
    result = []
    for number, cards in enumerate(EXAMPLES, 1):
        win = trick_winner(list(cards), list(EXAMPLE_SUITS))
        result.append({
            "number": number,
            "cards": [{"seat": seat, "trump": EXAMPLE_SUITS[seat], **card_info(_code(c))}
                      for seat, c in enumerate(cards)],
            "winner": win,
            "reason": explain_trick(list(cards), list(EXAMPLE_SUITS)),
        })
    return result


def _code(text: str) -> int:
    return int(Card.parse(text))
