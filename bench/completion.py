"""Measure the search bots' completion table (``_COMPLETE`` in calypso_core/bots/policy.py).

    python3 bench/completion.py [--games 3000] [--level club] [--jobs 2]     # ~45 s

Plays club self-play games (standard rules, seeded) and, at the end of each of the
first three deals, notes every player's calypso in progress: how many cards it has, how
many deals are left, and whether that player completes another calypso before the game
ends. Prints, for 1-3 deals left, the share completed by number of cards in progress
(0-12), as the Python rows ``_COMPLETE`` holds, and the number of cases behind each.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterator
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calypso_core.bots import make_bot
from calypso_core.game import new_game

# One case: (deals left, cards in progress, completed another before the end).
Case = tuple[int, int, bool]


def play(args: tuple[int, str]) -> list[Case]:
    """One self-play game's cases."""
    game, level = args
    state = new_game(f"complete/{game}")
    bots = [make_bot(level, seat, random.Random(f"{game}/{seat}")) for seat in range(4)]
    noted: list[tuple[int, int, int, int]] = []  # deals left, cards, completed then, seat
    deal = state.deal
    while not state.is_over:
        seat = state.to_move
        state.play(bots[seat].choose(state.observation(seat), state.legal_moves()))
        if not state.is_over and state.deal != deal:
            deal = state.deal
            for s in range(4):
                noted.append((4 - deal, len(state.calypso(s)), state.completed(s), s))
    return [(left, n, state.completed(s) > done) for left, n, done, s in noted]


def cases(games: int, level: str, jobs: int) -> Iterator[Case]:
    """Every case of ``games`` seeded games, spread over ``jobs`` processes."""
    work = [(game, level) for game in range(games)]
    if jobs == 1:
        for item in work:
            yield from play(item)
        return
    with Pool(jobs) as pool:
        for found in pool.imap(play, work, chunksize=20):
            yield from found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--level", default="club", choices=("random", "novice", "club"))
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    done = [[0] * 13 for _ in range(4)]
    seen = [[0] * 13 for _ in range(4)]
    for left, n, completed in cases(args.games, args.level, args.jobs):
        seen[left][n] += 1
        done[left][n] += completed
    for left in (1, 2, 3):
        shares = ", ".join(
            f"{done[left][n] / seen[left][n]:.2f}" if seen[left][n] else "0.0" for n in range(13)
        )
        print(f"    ({shares}),  # {left} deal(s) left; cases: {seen[left]}")


if __name__ == "__main__":
    main()
