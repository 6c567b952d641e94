"""The session behind the request handlers: the one match in play, the reply to a game
command, the recipe the page keeps, and the checks that several kinds of request share.

Game commands reply with the **view**: the table as one seat sees it (``view_for``: this
device's person whose hand is shown, or the guest at a seat of a remote table), with the
deal's log, the match, and what only some replies carry — the move a ``play`` or ``step``
made (``event``), the memory aids while a hand is shown, the hand-off while every hand is
covered, and the seats and the cut once per match (``table``). At a table with guests each
reply that is a view also carries every guest's (``with_guests``), for the host's page to
send on. A view never holds a card its viewer may not see; the recipe of the game (with its
deck) is asked for apart, with ``record``. A refused request changes nothing.

The handlers themselves, one per request type, are grouped by what they serve: ``facts``
(hello, the rules' examples), ``playing`` (the game in play), ``reading`` (hints, aids,
records, replays, game files), ``remote`` (a guest's seat, the fair deal) and ``reviews``
(the review, the master in your seat, work ahead); ``transport.REQUESTS`` names them.

**Loaded on first use.** The review's and the rerun's jobs (``jobs``) and the work done
ahead (``ahead``) are imported by the requests that start them (``reviews``, a ``load`` that
brings work ahead), not by a game's first deal: the page imports the engine from source on
a first visit (README, Start-up). A module never imported holds no job and no work, so
``reset``, ``start`` and ``recipe`` ask it only once it is loaded (``_loaded``).
"""

from __future__ import annotations

import datetime
import json
import sys
from collections.abc import Iterable
from typing import Any

from ..days import NotDealtYet, check_dealt, check_hands, check_seed, local_today
from ..game import GameState
from ..messages import message
from ..record import MAX_RECORD_BYTES, RecordError, from_record
from . import words
from .aids import memory_aids
from .daily import daily_date
from .errors import ProtocolError
from .match import Match
from .sealed import opened_record
from .story import deal_log, the_cut
from .views import seat_setup, table_view


class _Session:
    """The one match in play (None before the first ``new_game`` or ``load``), and the
    memory aids built for the position in play, by seat."""

    def __init__(self) -> None:
        self.match: Match | None = None
        self.aids_for: tuple[Match, int, int] | None = None
        self.aids: dict[int, dict[str, Any]] = {}


_session = _Session()


def reset() -> None:
    """Forget the match in play and the jobs (for tests)."""
    _session.match = None
    _session.aids_for, _session.aids = None, {}
    if _loaded("jobs"):
        from . import jobs

        jobs.reset()
    if _loaded("ahead"):
        from . import ahead

        ahead.reset()
    if _loaded("comparing"):
        from . import comparing

        comparing.reset()


def _loaded(module: str) -> bool:
    """Whether this package's ``module`` has been imported (see the module's docstring)."""
    return f"{__package__}.{module}" in sys.modules


def end_jobs() -> None:
    """End the review's and the rerun's jobs, if any was ever started (a game starts)."""
    if _loaded("jobs"):
        from . import jobs

        jobs.end_jobs()


def match_in_play(kind: str) -> Match:
    """The match in play; refused as ``no_game`` (for request ``kind``) before there is one."""
    if _session.match is None:
        raise ProtocolError("no_game", f"{kind}: no game in play (send new_game or load first)",
                            no_game=True)
    return _session.match


def current_match() -> Match | None:
    """The match in play, or None before the first ``new_game`` or ``load``."""
    return _session.match


# -- the recipe the page keeps (transport.py attaches it to every reply that changes it) -----

_Mark = tuple[Match, int, bool, int]


def recipe_mark() -> _Mark | None:
    """Where the recipe stands: the match, its finished games, whether the game in play is
    over (its deck is sealed until then) and the cards played."""
    match = _session.match
    if match is None:
        return None
    return (match, len(match.history), match.state.is_over, len(match.state.plays))


def recipe_since(mark: _Mark | None) -> dict[str, Any]:
    """The recipe of the match in play as a change since ``mark`` — ``{keep, add}``: the
    plays kept and the cards played after them, and ``deck`` when the game's end (or an undo
    of it) unsealed (or sealed) it — or whole (``{record, settings, history}``) when the game
    is another one than at ``mark``, or no mark is given."""
    match = match_in_play("recipe")
    if mark is None or mark[:2] != (match, len(match.history)):
        return recipe(match)
    plays = match.state.plays
    keep = min(mark[3], len(plays))
    change: dict[str, Any] = {"keep": keep, "add": [str(card) for card in plays[keep:]]}
    if mark[2] != match.state.is_over:
        change["deck"] = match.save()["record"]["deck"]
    return change


def recipe(match: Match) -> dict[str, Any]:
    """The match's recipe {record, settings, history}, and ``ahead`` when work was done ahead."""
    kept = None
    if _loaded("ahead"):
        from . import ahead

        kept = ahead.kept(match)
    return {**match.save(), **({"ahead": kept} if kept is not None else {})}


def start(match: Match) -> dict[str, Any]:
    """Make ``match`` the match in play and reply with its whole view."""
    _session.match = match
    _session.aids_for, _session.aids = None, {}
    end_jobs()
    return view_for(match, table=True)


# -- the view ---------------------------------------------------------------------------------


def view_for(match: Match, seat: int | None = None, *, event: dict[str, Any] | None = None,
             table: bool = False) -> dict[str, Any]:
    """The table as one seat sees it: this device's (``seat`` None: the hand shown, or every
    hand covered) or the guest's at ``seat`` (its hand, never the seed). Every view of every
    seat is made here (see the module's docstring)."""
    state = match.state
    guest = seat is not None
    viewer = seat if guest else match.viewer
    status = match.seat_status(seat) if seat is not None else match.status
    view = table_view(state, viewer, status)
    view["log"] = deal_log(state)
    view["event"] = event
    view["match"] = match.match_view()
    view["can_undo"] = not guest and match.can_undo
    if viewer is not None:
        view["aids"] = seat_aids(match, viewer)  # from that seat's observation only
    if status == "handoff":
        to_move = state.to_move
        view["handoff"] = {"seat": to_move,
                           **words.handoff(to_move, match.settings.labels()[to_move])}
    if table:
        view["table"] = table_facts(match, seat)
    return view


def with_guests(view: dict[str, Any]) -> dict[str, Any]:
    """This device's ``view`` of the match in play and, at a table with guests, every guest's
    beside it (``guests``, by seat; None where no guest sits), with the same event (less how
    long a computer thought, which would tell how many cards it could play), and the table
    when it has one. The host's page sends them on: one request a move, whatever the
    number of guests."""
    match = _session.match
    if match is None or not match.remote_seats:
        return view
    event = view.get("event")
    if event is not None:  # a guest is not told how long a computer thought (nor held it)
        event = {key: value for key, value in event.items() if key not in _DEVICE_ONLY}
    guests = [view_for(match, seat, event=event, table="table" in view)
              if seat in match.remote_seats else None for seat in range(4)]
    return {**view, "guests": guests}


# What only this device's event says: how long a computer player thought, and how long its
# card is held before it is shown (the host's page holds the guests' views as long).
_DEVICE_ONLY = ("think_ms", "hold_ms")


def seat_aids(match: Match, seat: int) -> dict[str, Any]:
    """The memory aids of ``seat`` in the position in play."""
    # Built once per position and seat: "view", "aids" and the guests' views reuse them. The
    # match is part of the position: a puzzle's match (table/puzzles.py) is not the one in play.
    position = (len(match.history), len(match.state.plays))
    held = _session.aids_for
    if held is None or held[0] is not match or held[1:] != position:
        _session.aids_for, _session.aids = (match, *position), {}
    if seat not in _session.aids:
        _session.aids[seat] = memory_aids(match.state.observation(seat))
    return _session.aids[seat]


def guest_of(match: Match, data: dict[str, Any]) -> int | None:
    """The seat of the guest a request is made for (``guest``), or None: this device's own
    request. A seat no guest holds is refused (``not_a_guest``)."""
    guest = data.get("guest")
    return None if guest is None else match.guest_seat(guest)


def table_facts(match: Match, viewer: int | None = None) -> dict[str, Any]:
    """What stays the same through a match: settings, seats, partnerships, the cut, and
    the date when it is the Calypso of that day; labelled for this device, or for the guest
    at ``viewer`` (its settings without the seed, which would deal every hand)."""
    s = match.settings
    first = match.history[0] if match.history else match.state
    settings = s.to_dict()
    if viewer is not None:
        del settings["seed"]
    return {
        "settings": settings,
        "seats": seat_setup(first, s.labels(viewer), s.levels, s.seats, s.called(viewer)),
        "sides": s.side_labels(viewer),
        "cut": the_cut(s.seed, tuple(int(suit) for suit in first.suits), first.first_dealer),
        "daily": daily_date(s),
    }


# -- checks -----------------------------------------------------------------------------------


def check_today(data: dict[str, Any]) -> None:
    """Refuse a request whose ``today`` is no date of any time zone now."""
    today(data)


def today(data: dict[str, Any]) -> datetime.date:
    """Which day is today (days.local_today): the request's ``today``, else the UTC date."""
    try:
        return local_today(data.get("today"))
    except ValueError as exc:
        raise ProtocolError("bad_date", str(exc)) from None


def check_not_dealt_yet(data: dict[str, Any], *, day: datetime.date | None = None,
                        seed: str | None = None, games: Iterable[GameState] = ()) -> None:
    """Refuse a later day's cards (``not_dealt_yet``; calypso_core.days): the deal of a
    ``day`` after today, a ``seed`` that deals one, or a game one of whose hands is a hand of
    a later day's deal (a file, a save or a record someone made)."""
    now = today(data)
    try:
        if day is not None:
            check_dealt(day, now)
        if seed is not None:
            check_seed(seed, now)
        for game in games:
            check_hands(game.deck, now)
    except NotDealtYet as exc:
        raise ProtocolError("not_dealt_yet", str(exc), message(
            "error.later_hand" if exc.in_hand else "error.not_dealt_yet",
            date=exc.day.isoformat())) from None


def check_size(name: str, item: Any) -> None:
    """Refuse an already parsed record (``name``) over the game file's size limit."""
    size = len(json.dumps(item, ensure_ascii=False, separators=(",", ":")).encode())
    if size > MAX_RECORD_BYTES:
        raise ProtocolError(
            "bad_record", f"{name} is {size} bytes; the limit is {MAX_RECORD_BYTES}"
        )


def state_of(record: Any, data: dict[str, Any]) -> GameState:
    """The game a record given in a request (``data``) holds, its deck unsealed; else
    ``bad_record``, or ``not_dealt_yet`` for a hand of a later day's deal."""
    check_size("record", record)
    try:
        state = from_record(opened_record(record))
    except RecordError as exc:
        raise ProtocolError("bad_record", str(exc)) from None
    check_not_dealt_yet(data, games=[state])
    return state
