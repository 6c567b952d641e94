"""Reading the game, changing nothing in it: a covered hand shown once the device is passed
(``reveal``), a hint, the memory aids, the match's recipe (``record``), the replay of a
finished game, and a game file checked before it is loaded (``import``)."""

from __future__ import annotations

import binascii
import hashlib
import json
from typing import Any

from ..bots import LEVELS
from ..cards import SUIT_LETTERS, brief_repr
from ..days import day_of_hands
from ..game import GameState
from ..jsontext import nests_too_deeply
from ..messages import message
from ..record import (
    MAX_RECORD_BYTES,
    RecordEncodingError,
    RecordError,
    from_record,
    record_json,
    record_text,
    to_record,
)
from .errors import ProtocolError
from .players import default_level
from .sealed import opened_record, sealed_record
from .session import (
    check_not_dealt_yet,
    current_match,
    guest_of,
    match_in_play,
    recipe,
    seat_aids,
    state_of,
    today,
    view_for,
)
from .settings import (
    DEFAULT_PEOPLE,
    Settings,
    people_of,
    seat_calls,
    seat_labels,
    side_labels,
)
from .story import replay_position

NOT_OVER = "the game in play cannot be replayed until it ends: its hands are hidden"


def reveal(data: dict[str, Any]) -> dict[str, Any]:
    """Show the hand of the person to move, once the device has been passed to them."""
    match = match_in_play("reveal")
    if "seat" not in data:
        raise ProtocolError("bad_request", "reveal needs the seat whose hand to show")
    match.reveal(data["seat"])
    return view_for(match)


def hint(data: dict[str, Any]) -> dict[str, Any]:
    """A card for the person to move, from their observation only, and why. For the guest at
    seat ``guest``, on their turn, the same in slices of its search: ``{"thinking": true}``
    until it is found (the host's page asks again, its own requests between)."""
    match = match_in_play("hint")
    guest = guest_of(match, data)
    found = match.hint() if guest is None else match.guest_hint(guest)
    if found is None:
        return {"thinking": True}
    card, reason = found
    return {"card": str(card), "reason": reason}


def aids(data: dict[str, Any]) -> dict[str, Any]:
    """The memory aids of the person whose hand is shown."""
    match = match_in_play("aids")
    if match.viewer is None:
        raise ProtocolError("hand_covered", "no memory aids while every hand is covered")
    return seat_aids(match, match.viewer)


def record(data: dict[str, Any]) -> dict[str, Any]:
    """The recipe of the match: {record, settings, history}, and ``ahead``, the review and
    rerun work done ahead on the game in play, when there is some."""
    return recipe(match_in_play("record"))


def replay(data: dict[str, Any]) -> dict[str, Any]:
    """The full-information position after ``tricks`` tricks of a finished game: the given
    ``record`` (say, an imported one), else the game in play once it is over."""
    match = current_match()
    given = data.get("record")
    if given is None:
        if match is None:
            raise ProtocolError("no_game", "replay: no game in play and no record given",
                                no_game=True)
        state = match.state
        if not state.is_over:
            raise ProtocolError("game_not_over", NOT_OVER)
        settings = match.settings
        labels, called, sides = settings.labels(), settings.called(), settings.side_labels()
    else:
        state = state_of(given, data)
        people = people_of(given["players"]) if "players" in given else ()
        labels, called = seat_labels(people), seat_calls(people)
        sides = side_labels(labels, tuple(p.seat for p in people))
    tricks = data.get("tricks")
    if tricks is None:  # not given, or given as null (as for every optional key): all of them
        tricks = len(state.tricks)
    if type(tricks) is not int or not 0 <= tricks <= len(state.tricks):
        raise ProtocolError(
            "bad_request", f"tricks must be a whole number from 0 to {len(state.tricks)}, "
            f"not {brief_repr(tricks)}"
        )
    # A record of a game not over replays as far as it goes, showing only what was public.
    return {**replay_position(state, tricks), "labels": labels, "called": called, "sides": sides}


def import_file(data: dict[str, Any]) -> dict[str, Any]:
    """Check a game file and say what it holds: the record, whether it is over, and settings
    that continue it with ``load`` (its players, else the seats in play). The file comes as
    ``base64`` (its bytes: read by the byte-order mark they begin with) or as ``text``."""
    contents = _file_contents(data)
    size = len(contents) if isinstance(contents, bytes) else len(
        contents.encode("utf-8", "surrogatepass"))
    if size > MAX_RECORD_BYTES:
        raise ProtocolError(
            "bad_record", f"the file is {size:,} bytes; a game record is at most "
            f"{MAX_RECORD_BYTES:,}",
            message("error.file_too_big", size=size, limit=MAX_RECORD_BYTES),
        )
    try:
        text = record_text(contents)
    except RecordEncodingError as exc:
        raise ProtocolError("bad_record", str(exc), message("error.not_text")) from None
    if nests_too_deeply(text):
        raise ProtocolError("bad_record", "the file nests too deeply to be a game record")
    try:
        found = record_json(text)
        state = from_record(opened_record(found))
    except RecordError as exc:
        raise ProtocolError("bad_record", f"not a Calypso game record: {exc}") from None
    check_not_dealt_yet(data, games=[state])
    _check_not_kept_open(state, data)
    plain = json.dumps(to_record(state), separators=(",", ":")).encode()
    seed = f"import-{hashlib.sha256(plain).hexdigest()[:10]}"
    settings = _continuing(state, found.get("players"), seed)
    record = to_record(state, settings.players())
    return {
        "record": sealed_record(record, is_over=state.is_over),
        "is_over": state.is_over,
        "plays": len(state.plays),
        "tricks": len(state.tricks),
        "scores": list(state.partnership_scores()),
        "labels": seat_labels(people_of(record["players"])),
        "settings": settings.to_dict(),
    }


def _file_contents(data: dict[str, Any]) -> str | bytes:
    """What ``import`` was given: the file's bytes (``base64``), else its text."""
    if data.get("base64") is not None:
        encoded = data["base64"]
        # Checked before decoding: base64 is 4 characters for 3 bytes.
        if not isinstance(encoded, str) or len(encoded) > 4 * (MAX_RECORD_BYTES // 3 + 1):
            raise ProtocolError("bad_request", "base64 must be the file's bytes in base64, at "
                                f"most {MAX_RECORD_BYTES:,} bytes of them")
        try:
            return binascii.a2b_base64(encoded, strict_mode=True)
        except (binascii.Error, ValueError):
            raise ProtocolError("bad_request", "base64 is not base64 text") from None
    text = data.get("text")
    if not isinstance(text, str):
        raise ProtocolError("bad_request", "import needs the file: its base64 or its text")
    return text


def _check_not_kept_open(state: GameState, data: dict[str, Any]) -> None:
    """Refuse a file holding a hand of the deal of a date whose kept attempt at the Calypso of
    the day is unfinished at this device (``kept_open``): it would be a practice of it."""
    if "kept_open" not in data:
        return
    try:
        day = day_of_hands(state.deck, data["kept_open"], today(data))
    except ValueError as exc:
        raise ProtocolError("bad_request", f"kept_open: {exc}") from None
    if day is not None:
        raise ProtocolError(
            "kept_open", f"these are the cards of the Calypso of {day}, whose kept attempt is "
            "not finished", message("error.kept_open", date=str(day)))


def _continuing(state: GameState, players: list[dict[str, str]] | None, seed: str) -> Settings:
    """Settings that continue an imported game: its players (a level this table does not
    offer becomes the default one), else the people and levels of the match in play."""
    match = current_match()
    seats: list[tuple[list[dict[str, Any]], list[Any]]] = []
    if players is not None:
        seats.append((
            [{"seat": p.seat, "name": p.name} for p in people_of(players)],
            [p.get("computer") if p.get("computer") in LEVELS else default_level()
             for p in players],
        ))
    if match is not None:
        seats.append((match.settings.to_dict()["people"], list(match.settings.levels)))
    seats.append((list(DEFAULT_PEOPLE), [default_level()] * 4))
    for people, levels in seats:
        # A file's seating that this table cannot take (no person, a name too long, two
        # people of one name) gives way to the next.
        if not people:
            continue
        try:
            return Settings.from_request({
                "seed": seed, "rules": state.rules.to_dict(), "levels": levels,
                "people": people, "games": 1, "suit": SUIT_LETTERS[state.suits[people[0]["seat"]]],
            }, saved=True)
        except ProtocolError:
            continue
    raise AssertionError("the default seating is always valid")
