"""The remote table: a computer player standing in for a guest while the guest is away, and
the fair deal (the seed mixed from everyone's, and the check of a finished match against it).
What a guest asks for itself (its view, its card, its hint, its review and rerun) is the
ordinary request made for its seat (``guest``: docs/protocol.md)."""

from __future__ import annotations

from typing import Any

from ..cards import brief_repr
from ..messages import message
from ..record import RecordError
from .errors import ProtocolError
from .fair import FairDealError, check_fair, fair_seed
from .session import check_size, match_in_play, view_for


def stand_in(data: dict[str, Any]) -> dict[str, Any]:
    """A computer player of ``level`` plays for the guest at ``seat`` while they are away, or
    (level null) the guest plays again; the reply is this device's view."""
    match = match_in_play("stand_in")
    if "level" not in data:
        raise ProtocolError("bad_request", "stand_in needs a level, or null for the guest")
    match.stand_in(data.get("seat"), data["level"])
    return view_for(match)


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
