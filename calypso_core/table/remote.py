"""The remote table: what the host's engine answers for a guest's seat (its view, its card,
its hint, a computer player standing in while the guest is away) and the fair deal (the
seed mixed from everyone's, and the check of a finished match against it)."""

from __future__ import annotations

from typing import Any

from ..cards import brief_repr
from ..messages import message
from ..record import RecordError
from .errors import ProtocolError
from .fair import FairDealError, check_fair, fair_seed
from .session import check_size, game_view, match_in_play, seat_aids, table_facts
from .story import deal_log
from .views import table_view


def seat_view(data: dict[str, Any]) -> dict[str, Any]:
    """The table as the guest at ``seat`` sees it (a remote table): that seat's hand and
    nothing hidden from it, its memory aids, the seats and the cut, and the settings without
    the seed (which would deal every hand). Changes nothing."""
    match = match_in_play("seat_view")
    seat = match.guest_seat(data.get("seat"))
    state = match.state
    status = match.seat_status(seat)
    view = table_view(state, seat, status)
    view["log"] = deal_log(state)
    view["event"] = None
    view["match"] = match.match_view()
    view["can_undo"] = False
    aids = seat_aids(match, seat)  # from the guest's observation only, as for any viewer
    if aids is not None:
        view["aids"] = aids
    table = table_facts(match, seat)  # the guest's own seat is "You"
    table["settings"] = {k: v for k, v in table["settings"].items() if k != "seed"}
    view["table"] = table
    return view


def seat_play(data: dict[str, Any]) -> dict[str, Any]:
    """The guest at ``seat`` plays a card on their turn; the reply is this device's view."""
    match = match_in_play("seat_play")
    if "card" not in data:
        raise ProtocolError("bad_request", "seat_play needs a card, such as \"QH\"")
    return game_view(match, event=match.play_remote(data.get("seat"), data["card"]))


def seat_stand_in(data: dict[str, Any]) -> dict[str, Any]:
    """A computer player of ``level`` plays for the guest at ``seat`` while they are away, or
    (level null) the guest plays again; the reply is this device's view."""
    match = match_in_play("seat_stand_in")
    if "level" not in data:
        raise ProtocolError("bad_request", "seat_stand_in needs a level, or null for the guest")
    match.stand_in(data.get("seat"), data["level"])
    return game_view(match)


def seat_hint(data: dict[str, Any]) -> dict[str, Any]:
    """A card for the guest at ``seat``, on their turn, from that seat's observation only
    (as ``hint`` for the person whose hand is shown), and why."""
    match = match_in_play("seat_hint")
    card, reason = match.guest_hint(match.guest_seat(data.get("seat")))
    return {"card": str(card), "reason": reason}


def fair_deal(data: dict[str, Any]) -> dict[str, Any]:
    """The seed of a fair deal (table.fair): the host's secret seed mixed with the guests'
    (``guests``: {seat: seed}). Changes nothing."""
    try:
        return {"seed": fair_seed(data.get("host"), _guest_seeds(data.get("guests")))}
    except FairDealError as exc:
        raise ProtocolError("bad_seed", str(exc)) from None


def fair_check(data: dict[str, Any]) -> dict[str, Any]:
    """Check a finished remote match's ``recipe`` against the host's ``commitment`` and the
    seeds revealed at its end; the reply names the deal's seed and the plays replayed, a
    refusal (``unfair``) the first thing that does not hold."""
    recipe = data.get("recipe")
    if not isinstance(recipe, dict):
        raise ProtocolError("bad_request", "fair_check needs the recipe {record, settings}")
    check_size("record", recipe.get("record"))
    check_size("history", recipe.get("history"))
    try:
        seed = check_fair(recipe, data.get("host"), _guest_seeds(data.get("guests")),
                          data.get("commitment"))
    except RecordError as exc:
        raise ProtocolError("unfair", f"the record is impossible: {exc}",
                            message("error.unfair_record")) from None
    except FairDealError as exc:
        raise ProtocolError("unfair", str(exc)) from None
    games = [*recipe.get("history", []), recipe["record"]]
    return {"seed": seed, "plays": sum(len(game["plays"]) for game in games)}


def _guest_seeds(guests: Any) -> dict[int, str]:
    if not isinstance(guests, dict) or not all(k in ("0", "1", "2", "3") for k in guests):
        raise ProtocolError("bad_seed", "guests must be {seat: seed} with seats 0 to 3, not "
                            f"{brief_repr(guests)}")
    return {int(seat): seed for seat, seed in guests.items()}
