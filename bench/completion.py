"""Measure the search bots' completion tables (``COMPLETION`` in calypso_core/bots/policy.py).

    python3 bench/completion.py [--games 3000] [--level club] [--jobs 2]     # ~45 s
    python3 bench/completion.py --games 400 --level master --iterations 300 \\
        --log /work/benchlogs/completion-master-300.jsonl --monotone         # ~15 min

Plays self-play games (standard rules, seeded) and, at the end of each of the first three
deals, notes every player's calypso in progress: how many cards it has, how many deals are
left, and whether that player completes another calypso before the game ends. Prints, for
1-3 deals left, the share completed by number of cards in progress (0-12), as the Python
rows a table of ``COMPLETION`` holds, and the number of cases behind each.

The search levels (expert, master) play at a fixed budget of ``--iterations`` with the
clock off, so that load cannot change a game. ``--log`` keeps each finished game's cases:
the same command resumes a stopped run (a line cut short by a kill is dropped and its game
played again), and a log of another level or budget is refused. ``--monotone`` prints each
row fitted so that more cards never mean a smaller share (weighted pool-adjacent-violators;
a count with no case takes its neighbours' value).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import finished_lines
from calypso_core.bots import make_bot
from calypso_core.game import new_game

# One case: (deals left, cards in progress, completed another before the end).
Case = tuple[int, int, bool]
LEVELS = ("random", "novice", "club", "expert", "master")
SEARCH_LEVELS = ("expert", "master")


def play(args: tuple[int, str, int | None]) -> tuple[int, list[Case]]:
    """One self-play game's number and cases."""
    game, level, iterations = args
    settings: dict[str, Any] = {}
    if iterations is not None:
        settings = {"iterations": iterations, "time_limit": None}
    state = new_game(f"complete/{game}")
    bots = [make_bot(level, seat, random.Random(f"{game}/{seat}"), **settings)
            for seat in range(4)]  # fmt: skip
    noted: list[tuple[int, int, int, int]] = []  # deals left, cards, completed then, seat
    deal = state.deal
    while not state.is_over:
        seat = state.to_move
        state.play(bots[seat].choose(state.observation(seat), state.legal_moves()))
        if not state.is_over and state.deal != deal:
            deal = state.deal
            for s in range(4):
                noted.append((4 - deal, len(state.calypso(s)), state.completed(s), s))
    return game, [(left, n, state.completed(s) > done) for left, n, done, s in noted]


def played(games: list[int], level: str, iterations: int | None,
           jobs: int) -> Iterator[tuple[int, list[Case]]]:  # fmt: skip
    """Each game of ``games`` with its cases, spread over ``jobs`` processes."""
    work = [(game, level, iterations) for game in games]
    if jobs == 1:
        yield from map(play, work)
        return
    chunk = 1 if iterations is not None else 20  # a search game is long: log each at once
    with Pool(jobs) as pool:
        yield from pool.imap_unordered(play, work, chunksize=chunk)


def read_log(log: Path, key: dict[str, Any]) -> dict[int, list[Case]]:
    """The games in ``log`` by number; refused if the log is of another level or budget.
    A last line without its newline was cut short by a kill: it is dropped from the file."""
    lines, cut = finished_lines(log)
    if cut:
        print(f"{log}: dropped an unfinished last line", flush=True)
    games: dict[int, list[Case]] = {}
    for number, line in enumerate(lines, 1):
        try:
            row = json.loads(line)
            theirs = {name: row[name] for name in key}
            cases = [(int(left), int(n), bool(done)) for left, n, done in row["cases"]]
            game = int(row["game"])
        except (ValueError, KeyError, TypeError) as error:
            raise SystemExit(f"{log}, line {number}: {error!r}") from None
        if theirs != key:
            differ = ", ".join(f"{name} {theirs[name]!r} in the log, {key[name]!r} now"
                               for name in key if theirs[name] != key[name])  # fmt: skip
            raise SystemExit(f"{log}, line {number} is of another run ({differ}): "
                             "resume it with its own level and budget or use another log")
        games[game] = cases
    return games


def monotone(shares: list[float], weights: list[int]) -> list[float]:
    """The non-decreasing sequence nearest ``shares`` in weighted squares (pool-adjacent
    violators); an entry of weight 0 takes the value of the block it falls in."""
    blocks: list[list[float]] = []  # [value, weight, length]
    for share, weight in zip(shares, weights, strict=True):
        blocks.append([share, float(weight), 1.0])
        while len(blocks) > 1 and (blocks[-1][1] == 0 or blocks[-2][1] == 0
                                   or blocks[-2][0] > blocks[-1][0]):  # fmt: skip
            value2, weight2, length2 = blocks.pop()
            value1, weight1, length1 = blocks[-1]
            total = weight1 + weight2
            value = (value1 * weight1 + value2 * weight2) / total if total else value1
            blocks[-1] = [value, total, length1 + length2]
    return [value for value, _, length in blocks for _ in range(int(length))]


def table(games: dict[int, list[Case]], fit: bool) -> list[str]:
    """The rows for 1-3 deals left, as Python, each with its cases by card count."""
    done = [[0] * 13 for _ in range(4)]
    seen = [[0] * 13 for _ in range(4)]
    for cases in games.values():
        for left, n, completed in cases:
            seen[left][n] += 1
            done[left][n] += completed
    lines = []
    for left in (1, 2, 3):
        shares = [done[left][n] / seen[left][n] if seen[left][n] else 0.0 for n in range(13)]
        if fit:
            shares = monotone(shares, seen[left])
        text = ", ".join(f"{share:.2f}" for share in shares)
        lines.append(f"    ({text}),  # {left} deal(s) left; cases: {seen[left]}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--level", default="club", choices=LEVELS)
    parser.add_argument("--iterations", type=int,
                        help="a search level's budget a move, clock off (required for them)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--log", type=Path, help="finished games, to resume from")
    parser.add_argument("--monotone", action="store_true",
                        help="fit each row so that more cards never mean a smaller share")
    args = parser.parse_args()
    if args.games < 1 or args.jobs < 1:
        parser.error("games and jobs are positive numbers")
    if (args.level in SEARCH_LEVELS) != (args.iterations is not None):
        parser.error("--iterations is required for expert and master, and only for them")
    if args.iterations is not None and args.iterations < 1:
        parser.error("--iterations is a positive number")
    key = {"level": args.level, "iterations": args.iterations}
    games = read_log(args.log, key) if args.log else {}
    games = {game: cases for game, cases in games.items() if game < args.games}
    if games:
        print(f"resumed: {len(games)} games in {args.log}", flush=True)
    todo = [game for game in range(args.games) if game not in games]
    for game, cases in played(todo, args.level, args.iterations, args.jobs):
        games[game] = cases
        if args.log:
            args.log.parent.mkdir(parents=True, exist_ok=True)
            with args.log.open("a", encoding="utf-8") as handle:
                handle.write(json.dumps({**key, "game": game, "cases": cases}) + "\n")
    print("\n".join(table(games, args.monotone)))


if __name__ == "__main__":
    main()
