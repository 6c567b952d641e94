"""Memory aids for a player: what a careful card counter would remember, from one observation.

``memory_aids(observation)`` is a pure function of what the seat may know (its
``observation``), built on the bots' own card counting (``calypso_core.bots.Knowledge``), so
the page shows a person exactly what the computer players remember, never more:

- ``voids``: per seat, the suits it has shown out of in this deal (renounces), as letters;
- ``unseen``: per suit (S, H, D, C), how many copies of each rank, ace down to two, the seat
  has not seen (not in its hand, never played): they are in the other hands or the stock;
- ``needs``: per seat, the ranks its calypso in progress still lacks (ace down to two), how
  many copies of each are still live (unseen, in the seat's own hand or in the trick on the
  table), and whether it is ``blocked`` (a rank with no live copy, or four calypsos made).
"""

from __future__ import annotations

from typing import Any

from ..bots import Knowledge
from ..cards import RANK_LETTERS, SUIT_LETTERS

COPIES = 4  # four packs: every card exists four times
HIGH_TO_LOW = range(12, -1, -1)  # as a player reads a suit


def memory_aids(observation: dict[str, Any]) -> dict[str, Any]:
    """The seat's memory aids (voids, unseen cards per suit, calypso needs), JSON-ready."""
    k = Knowledge(observation, memory=True)
    in_trick = [0] * 52
    for code in k.trick:
        in_trick[code] += 1
    needs = []
    for seat in range(4):
        base = 13 * k.suits[seat]
        missing = [r for r in HIGH_TO_LOW if not k.calypso[seat] >> r & 1]
        live = [k.live_copies(base + r) + in_trick[base + r] for r in missing]
        needs.append({
            "missing": "".join(RANK_LETTERS[r] for r in missing),
            "live": live,
            "blocked": k.completed[seat] >= COPIES or not all(live),
        })
    return {
        "seat": k.seat,
        "voids": ["".join(SUIT_LETTERS[s] for s in range(4) if k.is_void(seat, s))
                  for seat in range(4)],
        "unseen": [[k.unseen[13 * suit + r] for r in HIGH_TO_LOW] for suit in range(4)],
        "needs": needs,
    }
