"""How long a computer move takes without its clock, as in a challenge or the Calypso of the
day (calypso_core/table/challenge.py): the processor time of every move of three computer
players of a level (a club player in South), in CPython, so that the load of the machine
moves the figures little. The page runs the same Python about 1.4 times slower
(docs/review.md), a slow phone slower again.

    python3 bench/challenge_moves.py [--levels expert,master] [--games 2]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import load_average
from calypso_core.bots import think_time
from calypso_core.table.match import Match
from calypso_core.table.settings import Settings


def move_times(level: str, games: int) -> list[float]:
    """The processor seconds of each computer move of ``games`` challenges against ``level``."""
    times = []
    for game in range(games):
        settings = Settings.from_request({"seed": f"moves-{game}", "level": level,
                                          "clock": False})
        match = Match(settings)
        club = Match(Settings.from_request({"seed": f"moves-{game}", "level": "club",
                                            "people": [{"seat": 0}]})).bots[2]
        while not match.state.is_over:
            state = match.state
            if match.status == "waiting":
                start = time.process_time()
                card, _ = match.bots[state.to_move](state)
                times.append(time.process_time() - start)
            else:
                card, _ = club(state)
            state.play(card)
    return sorted(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="expert,master")
    parser.add_argument("--games", type=int, default=2)
    args = parser.parse_args()
    print(f"load average before: {load_average()}")
    for level in args.levels.split(","):
        times = move_times(level, args.games)
        n = len(times)
        cap = think_time(level)
        over = "" if cap is None else f", over its clock cap ({cap:g} s): " \
            f"{sum(t > cap for t in times)}"
        print(f"{level}: {n} moves, processor ms p50 {1000 * times[n // 2]:.0f}, "
              f"p90 {1000 * times[int(0.9 * n)]:.0f}, p99 {1000 * times[int(0.99 * n)]:.0f}, "
              f"max {1000 * times[-1]:.0f}{over}")
    print(f"load average after: {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
