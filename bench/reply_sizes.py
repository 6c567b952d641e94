"""Reply sizes over whole games, as the page receives them.

    PYTHONPATH=. python3 bench/reply_sizes.py [--level L] [--seed S] [--people 2,0] [--json]

Plays one game through ``calypso_core.table.handle`` the way the page does: ``hello``,
``new_game``, one ``record`` (the recipe the page saves), then ``step`` while a computer is
to move, ``reveal`` at a hand-off and ``play`` (a random legal card) on a person's turn.
Prints the number of replies, their median, largest and total size in bytes (UTF-8 JSON, as
they cross to the page), and the median per request type.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calypso_core import table


def play_one_game(level: str, seed: str, people: list[int]) -> list[tuple[str, int]]:
    """(request type, reply size in bytes) for every reply of one game."""
    table.reset()
    sizes: list[tuple[str, int]] = []

    def send(kind: str, **payload: Any) -> Any:
        reply = table.handle(json.dumps({"id": len(sizes), "type": kind, **payload}))
        sizes.append((kind, len(reply.encode())))
        data = json.loads(reply)
        if not data["ok"]:
            raise SystemExit(f"{kind} refused: {data['error']}")
        return data["result"]

    rng = random.Random(seed)
    send("hello")
    view = send("new_game", seed=seed, level=level,
                people=[{"seat": seat, "name": f"P{seat}"} for seat in people])
    send("record")
    while view["status"] != "game_over":
        if view["status"] == "waiting":
            view = send("step")
        elif view["status"] == "handoff":
            view = send("reveal", seat=view["handoff"]["seat"])
        else:
            view = send("play", card=rng.choice(view["legal"]))
    return sizes


def summary(sizes: list[tuple[str, int]]) -> dict[str, Any]:
    """Count, median, largest and total, over all replies and per request type."""
    every = [size for _, size in sizes]
    kinds = sorted({kind for kind, _ in sizes})
    return {
        "replies": len(every),
        "median": statistics.median(every),
        "largest": max(every),
        "total": sum(every),
        "median_by_type": {k: statistics.median(s for kk, s in sizes if kk == k) for k in kinds},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="random", help="computer players' level (random)")
    parser.add_argument("--seed", default="size-1", help="deal seed (size-1)")
    parser.add_argument("--people", default="2", help="people's seats, first first (2)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    people = [int(seat) for seat in args.people.split(",")]
    result = summary(play_one_game(args.level, args.seed, people))
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['replies']} replies: median {result['median']:,.0f} B, "
              f"largest {result['largest']:,} B, total {result['total']:,} B")
        for kind, median in result["median_by_type"].items():
            print(f"  {kind:<9} median {median:,.0f} B")
    return 0


if __name__ == "__main__":
    sys.exit(main())
