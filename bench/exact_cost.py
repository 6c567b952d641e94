"""What the master's exact search of the last tricks costs: time and layouts a move.

    python3 bench/exact_cost.py [--tricks 4] [--exact 3 4 5] [--iterations 5000] [--games 2]

The positions: every decision with more than one legal card made with ``--tricks`` tricks
left in a deal, in club self-play games (seeds 1000 on). Each is searched by a fresh master
(seeded by the position's index, clock off, ``--iterations``) once with each value of
``EXACT_TRICKS`` in turn, so that load on a shared machine hits them alike. A value below
``--tricks`` values the cards by playouts there, a value at or above it by an exact search
of every layout, whose cost the budget counts as one iteration plus one per 50 nodes. The
report, per value: time a move (p50, p95, mean), layouts a move (p50, mean), iterations a
move (mean), and iterations per card played in a layout (1 for a playout; more for an exact
search).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import load_average
from calypso_core import new_game
from calypso_core.bots import make_bot
from calypso_core.bots.knowledge import Knowledge
from calypso_core.bots.search import MasterBot


def positions(tricks: int, games: int) -> list[tuple[dict[str, Any], list[int]]]:
    """Every decision with a choice at ``tricks`` tricks left in a deal, in club games."""
    found = []
    for game in range(games):
        state = new_game(1000 + game)
        bots = [make_bot("club", seat, random.Random(seat)) for seat in range(4)]
        while not state.is_over:
            seat = state.to_move
            legal = state.legal_moves()
            if len(legal) > 1 and 13 - state.trick_number == tricks:
                found.append((state.observation(seat), [int(card) for card in legal]))
            state.play(bots[seat].choose(state.observation(seat), legal))
    return found


def at(values: list[float], q: float) -> float:
    """The q-quantile of values (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tricks", type=int, default=4, help="tricks left in the deal")
    parser.add_argument("--exact", type=int, nargs="+", default=[3, 4, 5])
    parser.add_argument("--iterations", type=int, default=MasterBot.ITERATIONS)
    parser.add_argument("--games", type=int, default=2)
    args = parser.parse_args()
    if not 1 <= args.tricks <= 13 or args.iterations < 1 or args.games < 1:
        parser.error("tricks 1-13, iterations and games positive")
    found = positions(args.tricks, args.games)
    rows: dict[int, list[tuple[float, int, float, int]]] = {e: [] for e in args.exact}
    default = MasterBot.EXACT_TRICKS
    try:
        for i, (observation, legal) in enumerate(found):
            for exact in args.exact:
                MasterBot.EXACT_TRICKS = exact  # the measured variant
                bot = MasterBot(observation["seat"], random.Random(i),
                                iterations=args.iterations, time_limit=None)  # fmt: skip
                start = time.perf_counter()
                result = bot.search(Knowledge(observation), legal)
                elapsed = time.perf_counter() - start
                played = sum(value == value for _, row in result.samples for value in row)
                per_card = result.iterations / played
                rows[exact].append((elapsed * 1000, result.layouts, per_card, result.iterations))
    finally:
        MasterBot.EXACT_TRICKS = default
    report: dict[str, Any] = {"positions": len(found), "tricks_left": args.tricks,
                              "iterations": args.iterations, "load": load_average()}  # fmt: skip
    for exact, measured in rows.items():
        ms = [m for m, _, _, _ in measured]
        layouts = [float(n) for _, n, _, _ in measured]
        report[f"EXACT_TRICKS={exact}"] = {
            "ms": {"p50": round(at(ms, 0.5)), "p95": round(at(ms, 0.95)),
                   "mean": round(statistics.fmean(ms))},
            "layouts": {"p50": at(layouts, 0.5), "mean": round(statistics.fmean(layouts), 1)},
            "iterations": round(statistics.fmean(i for _, _, _, i in measured)),
            "iterations_per_card": round(statistics.fmean(c for _, _, c, _ in measured), 1),
        }  # fmt: skip
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
