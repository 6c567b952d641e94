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
from .fair import FairDealError, HandsDiffer, check_fair, check_hands, fair_seed
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
    seeds revealed at its end, and (``seen``) that the guest at ``seat`` was dealt in it the
    ``hands`` its page was shown; the reply names the deal's seed and the plays replayed, a
    refusal (``unfair``) the first thing that does not hold."""
    recipe = data.get("recipe")
    if not isinstance(recipe, dict):
        raise ProtocolError("bad_request", "fair_check needs the recipe {record, settings}")
    check_size("record", recipe.get("record"))
    check_size("history", recipe.get("history"))
    seen = _seen(data.get("seen"))
    try:
        seed = check_fair(recipe, data.get("host"), _guest_seeds(data.get("guests")),
                          data.get("commitment"))
        if seen is not None:
            check_hands(recipe, *seen)
    except HandsDiffer as exc:
        raise ProtocolError("unfair", str(exc), message("error.unfair_hand", game=exc.game,
                                                         deal=exc.deal)) from None
    except RecordError as exc:
        raise ProtocolError("unfair", f"the record is impossible: {exc}",
                            message("error.unfair_record")) from None
    except FairDealError as exc:
        raise ProtocolError("unfair", str(exc)) from None
    games = [*recipe.get("history", []), recipe["record"]]
    return {"seed": seed, "plays": sum(len(game["plays"]) for game in games)}


def _seen(seen: Any) -> tuple[int, list[list[list[str] | None]]] | None:
    """A guest's ``seen`` {seat, hands}, checked for shape: by game (at most the match's four),
    by deal (at most four), a hand of at most 13 card codes or null; else ``bad_request``."""
    if seen is None:
        return None
    hands = seen.get("hands") if isinstance(seen, dict) else None
    fine = (isinstance(seen, dict) and set(seen) == {"seat", "hands"} and seen["seat"] in range(4)
            and type(seen["seat"]) is int and isinstance(hands, list) and len(hands) <= 4
            and all(isinstance(game, list) and len(game) <= 4 and all(
                hand is None or (isinstance(hand, list) and len(hand) <= 13
                                 and all(isinstance(card, str) and len(card) == 2 for card in hand))
                for hand in game) for game in hands))
    if not fine:
        raise ProtocolError("bad_request", "seen must be {seat, hands: [[hand or null by deal] "
                            f"by game]}}, not {brief_repr(seen)}")
    checked: list[list[list[str] | None]] = seen["hands"]
    return seen["seat"], checked


def _guest_seeds(guests: Any) -> dict[int, str]:
    if not isinstance(guests, dict) or not all(k in ("0", "1", "2", "3") for k in guests):
        raise ProtocolError("bad_seed", "guests must be {seat: seed} with seats 0 to 3, not "
                            f"{brief_repr(guests)}")
    return {int(seat): seed for seat, seed in guests.items()}
