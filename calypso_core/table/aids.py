"""Memory aids for a player: what a careful card counter would remember, from one observation.

``memory_aids(observation)`` is a pure function of what the seat may know (its
``observation``), built on the bots' own card counting (``bots.knowledge.Knowledge``), so the
page shows the person exactly what the computer players remember, never more:

- ``voids``: the suits each player has shown out of in this deal (renounces);
- ``unseen``: per suit, how many copies of each rank the seat has not seen (not in its hand,
  never played): they are in the other hands or the stock;
- ``calypsos``: per player, the ranks still missing from the calypso in progress and how
  many copies of each are still live (unseen, in the seat's own hand or in the trick on the
  table); a rank with no live copy means that calypso can no longer be completed.
"""

from __future__ import annotations

from typing import Any

from ..bots.knowledge import Knowledge
from ..cards import RANK_LETTERS, SEAT_NAMES, SUIT_LETTERS, SUIT_NAMES, SUIT_SYMBOLS

COPIES = 4  # four packs: every card exists four times


def _rank_label(rank: int) -> str:
    return "10" if RANK_LETTERS[rank] == "T" else RANK_LETTERS[rank]


def memory_aids(observation: dict[str, Any]) -> dict[str, Any]:
    """The seat's memory aids (voids, unseen cards per suit, calypso needs), JSON-ready."""
    k = Knowledge(observation, memory=True)
    in_trick = [0] * 52
    for code in k.trick:
        in_trick[code] += 1
    voids = [
        {
            "seat": seat,
            "name": SEAT_NAMES[seat],
            "suits": [SUIT_LETTERS[s] for s in range(4) if k.is_void(seat, s)],
        }
        for seat in range(4)
    ]
    unseen = []
    for suit in range(4):
        base = 13 * suit
        counts = [k.unseen[base + r] for r in range(12, -1, -1)]
        ranks = [
            {"rank": RANK_LETTERS[r], "rank_label": _rank_label(r), "count": k.unseen[base + r]}
            for r in range(12, -1, -1)  # high to low, as a player reads a suit
        ]
        unseen.append({
            "suit": SUIT_LETTERS[suit],
            "symbol": SUIT_SYMBOLS[suit],
            "suit_name": SUIT_NAMES[suit],
            "owner": k.owner(suit),
            "total": sum(counts),
            "in_hand": sum(k.hand[base + r] for r in range(13)),
            "ranks": ranks,
        })
    calypsos = []
    for seat in range(4):
        suit = k.suits[seat]
        base = 13 * suit
        missing: list[dict[str, Any]] = []
        for r in range(12, -1, -1):
            if k.calypso[seat] >> r & 1:
                continue
            code = base + r
            missing.append({
                "rank": RANK_LETTERS[r],
                "rank_label": _rank_label(r),
                "live": k.live_copies(code) + in_trick[code],
                "in_your_hand": k.hand[code],
            })
        calypsos.append({
            "seat": seat,
            "name": SEAT_NAMES[seat],
            "suit": SUIT_LETTERS[suit],
            "symbol": SUIT_SYMBOLS[suit],
            "completed": k.completed[seat],
            "missing": missing,
            "can_complete": k.completed[seat] < COPIES and all(m["live"] for m in missing),
        })
    return {"seat": k.seat, "voids": voids, "unseen": unseen, "calypsos": calypsos}
