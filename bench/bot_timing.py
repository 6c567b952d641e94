"""Move times of one level at a given budget: two games against club players, one process.

python3 bench/bot_timing.py expert 3000
python3 bench/bot_timing.py master 5000
"""

from __future__ import annotations

import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calypso_core import new_game
from calypso_core.bots import Bot, make_bot, play_game


def main() -> int:
    level, iterations = sys.argv[1], int(sys.argv[2])
    times: list[float] = []
    for game in range(2):
        bots: list[Bot] = [
            make_bot(level, seat, random.Random(seat), iterations=iterations, time_limit=None)
            if seat % 2 == 0
            else make_bot("club", seat, random.Random(seat))
            for seat in range(4)
        ]
        by_seat: list[list[float]] = [[], [], [], []]
        play_game(new_game(f"timing{game}"), bots, by_seat)
        times += by_seat[0] + by_seat[2]
    times.sort()
    mean = 1000 * statistics.fmean(times)
    p50 = 1000 * times[len(times) // 2]
    p95 = 1000 * times[int(0.95 * len(times))]
    print(f"{level} at {iterations}: mean {mean:.0f} ms, p50 {p50:.0f} ms, p95 {p95:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
