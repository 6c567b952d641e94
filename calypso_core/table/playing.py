"""The game in play: deal a match (``new_game``, or the Calypso of a day with ``daily``), load
a saved one, show it, play a card, let a computer player move, take back, and go on to the
next game. Each replies with the view (``session.view_for``); a ``play`` made for the guest at
a seat of a remote table (``guest``) is that guest's card."""

from __future__ import annotations

from typing import Any

from ..cards import brief_repr
from ..days import parse_date, seed_date
from ..game import new_game as deal
from ..messages import message
from .daily import daily_date, daily_settings
from .errors import ProtocolError
from .match import Match
from .session import (
    check_not_dealt_yet,
    check_size,
    end_jobs,
    guest_of,
    match_in_play,
    start,
    today,
    view_for,
)
from .settings import Settings


def new_game(data: dict[str, Any]) -> dict[str, Any]:
    """Deal a new match; the reply carries the seats and the cut. A day's seed is refused:
    its deal comes only from ``daily``, on or after its day."""
    settings = Settings.from_request(data)
    day = seed_date(settings.seed)
    if day is not None:
        check_not_dealt_yet(data, day=day)
        raise ProtocolError("bad_seed", f"the seed {settings.seed} deals the Calypso of {day}: "
                            "ask for it with daily", message("error.daily_seed", date=str(day)))
    return start(Match(settings))


def load(data: dict[str, Any]) -> dict[str, Any]:
    """Rebuild a saved match; with several people every hand is covered (the hand-off),
    unless ``viewer`` says whose hand the page was showing (a worker replaced mid-game)."""
    for key in ("record", "settings"):
        if key not in data:
            raise ProtocolError("bad_request", f"load needs {key}")
    history = data.get("history")
    if history is None:  # not given, or null (as for every optional key): no earlier games
        history = []
    _check_record_sizes(data["record"], history)
    loaded = Match.load(data["record"], data["settings"], history)
    _check_loaded_daily(loaded, data)
    loaded.show(data.get("viewer"))
    if data.get("ahead") is not None:  # work done ahead: its module loads only then
        from . import ahead

        ahead.restore(loaded, data["ahead"])
    return start(loaded)


def _check_loaded_daily(loaded: Match, data: dict[str, Any]) -> None:
    """A saved match deals no day's cards before that day: by its seed, or by a game its
    seed does not deal (an imported file's, an edited save's) holding a later day's hand."""
    settings = loaded.settings
    games = [*loaded.history, loaded.state]
    # A game its own seed deals holds no other seed's hands: only the seed is checked then.
    dealt_elsewhere = [game for index, game in enumerate(games)
                       if game.deck != deal(loaded.game_seed(index)).deck]
    check_not_dealt_yet(data, seed=settings.seed, games=dealt_elsewhere)
    day = seed_date(settings.seed)
    if day is not None and daily_date(settings) is None:
        raise ProtocolError("bad_settings", f"the seed {settings.seed} is the Calypso of "
                            f"{day}, dealt only with its own settings")


def view(data: dict[str, Any]) -> dict[str, Any]:
    """The whole table again, seats and cut included (and at a table with guests, each
    guest's: ``session.with_guests``). Changes nothing."""
    return view_for(match_in_play("view"), table=True)


def play(data: dict[str, Any]) -> dict[str, Any]:
    """The person whose hand is shown plays a card, or the guest at seat ``guest`` plays one
    on their turn, checked the same way; the reply is this device's view."""
    match = match_in_play("play")
    if "card" not in data:
        raise ProtocolError("bad_request", "play needs a card, such as \"QH\"")
    guest = guest_of(match, data)
    event = match.play(data["card"]) if guest is None else match.play_remote(guest, data["card"])
    return view_for(match, event=event)


def step(data: dict[str, Any]) -> dict[str, Any]:
    """One computer player moves."""
    match = match_in_play("step")
    return view_for(match, event=match.step())


def next_game(data: dict[str, Any]) -> dict[str, Any]:
    """Start the next game of the match."""
    match = match_in_play("next_game")
    match.next_game()
    end_jobs()
    return view_for(match)


def undo(data: dict[str, Any]) -> dict[str, Any]:
    """Take back the person's last card and the computer moves after it (one person only)."""
    match = match_in_play("undo")
    match.undo()
    return view_for(match)


def daily(data: dict[str, Any]) -> dict[str, Any]:
    """Deal the Calypso of a day: today's unless ``date`` names an earlier one. The kept
    attempt (``practice`` false, the default) is played straight: no hints, no undo."""
    date = data.get("date")
    practice = data.get("practice")
    if practice is not None and type(practice) is not bool:
        raise ProtocolError("bad_request", f"practice must be true or false, not "
                            f"{brief_repr(practice)}")
    try:
        day = today(data) if date is None else parse_date(date)
    except ValueError as exc:
        raise ProtocolError("bad_date", str(exc)) from None
    check_not_dealt_yet(data, day=day)
    return start(Match(daily_settings(day, straight=not practice)))


def _check_record_sizes(record: Any, history: Any) -> None:
    """Apply parse_record's size limit to records that arrive already parsed."""
    named = [("record", record)]
    if isinstance(history, list):
        named += [(f"history[{i}]", item) for i, item in enumerate(history)]
    for name, item in named:
        check_size(name, item)
