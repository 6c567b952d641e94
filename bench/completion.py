"""Measure the search bots' completion tables (``COMPLETION`` in calypso_core/bots/policy.py).

    python3 bench/completion.py [--games 3000] [--level club] [--jobs 2]     # ~45 s
    python3 bench/completion.py --games 400 --level master --iterations 300 \\
        --log /work/benchlogs/completion-master-300.jsonl --monotone         # ~15 min
    python3 bench/completion.py --games 6000 --live                           # ~2 min

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

``--live`` measures the live value's table (``_LIVE`` in policy.py) instead: each case also
notes whether the calypso needs a rank with no copy left unplayed (dead: never completed)
and how many of its needed ranks have a single copy left. For the live calypsos of each
number of deals left it fits a factor for each single-copy rank (by likelihood, on a grid
of hundredths) and the chance by card count that it multiplies (monotone), in turns until
the factor settles, and prints them as the rows and factors of ``_LIVE``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections import Counter
from collections.abc import Iterator
from multiprocessing import Pool
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import finished_lines
from calypso_core.bots import make_bot
from calypso_core.game import GameState, new_game

# One case: (deals left, cards in progress, completed another before the end); with --live
# also whether a needed rank has no copy left unplayed, and how many have a single copy.
LiveCase = tuple[int, int, bool, bool, int]
Case = tuple[int, int, bool] | LiveCase
LEVELS = ("random", "novice", "club", "expert", "master")
SEARCH_LEVELS = ("expert", "master")


def play(args: tuple[int, str, int | None, bool]) -> tuple[int, list[Case]]:
    """One self-play game's number and cases."""
    game, level, iterations, live = args
    settings: dict[str, Any] = {}
    if iterations is not None:
        settings = {"iterations": iterations, "time_limit": None}
    state = new_game(f"complete/{game}")
    bots = [make_bot(level, seat, random.Random(f"{game}/{seat}"), **settings)
            for seat in range(4)]  # fmt: skip
    # deals left, cards, completed then, the seat, and with live its copies_needed
    noted: list[tuple[int, int, int, int, tuple[bool, int] | tuple[()]]] = []
    deal = state.deal
    while not state.is_over:
        seat = state.to_move
        state.play(bots[seat].choose(state.observation(seat), state.legal_moves()))
        if not state.is_over and state.deal != deal:
            deal = state.deal
            for s in range(4):
                noted.append((4 - deal, len(state.calypso(s)), state.completed(s), s,
                              copies_needed(state, s) if live else ()))  # fmt: skip
    return game, [(left, n, state.completed(s) > done, *copies)
                  for left, n, done, s, copies in noted]  # fmt: skip


def copies_needed(state: GameState, seat: int) -> tuple[bool, int]:
    """Whether ``seat``'s calypso in progress needs a rank with no copy left unplayed (the
    hands and the stock, as a new deal starts), and how many of its needed ranks have one."""
    left = Counter(int(card) for card in state.unseen_stock())
    for s in range(4):
        left.update(int(card) for card in state.hand(s))
    held = {int(card) for card in state.calypso(seat)}
    suit = int(state.suits[seat])
    copies = [left[code] for code in range(suit * 13, suit * 13 + 13) if code not in held]
    return 0 in copies, copies.count(1)


def played(games: list[int], level: str, iterations: int | None, jobs: int,
           live: bool = False) -> Iterator[tuple[int, list[Case]]]:  # fmt: skip
    """Each game of ``games`` with its cases, spread over ``jobs`` processes."""
    work = [(game, level, iterations, live) for game in games]
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
            # A log written before --live has no "live": its runs were not live.
            theirs = {name: row.get(name, False) if name == "live" else row[name] for name in key}
            if theirs == key:
                games[int(row["game"])] = [case_of(case, key["live"]) for case in row["cases"]]
        except (ValueError, KeyError, TypeError) as error:
            raise SystemExit(f"{log}, line {number}: {error!r}") from None
        if theirs != key:
            differ = ", ".join(f"{name} {theirs[name]!r} in the log, {key[name]!r} now"
                               for name in key if theirs[name] != key[name])  # fmt: skip
            raise SystemExit(f"{log}, line {number} is of another run ({differ}): "
                             "resume it with its own settings or use another log")
    return games


def case_of(row: list[Any], live: bool) -> Case:
    """A case read from a log; a live run's has five fields, another's three."""
    if live:
        left, n, done, dead, singles = row
        return int(left), int(n), bool(done), bool(dead), int(singles)
    left, n, done = row
    return int(left), int(n), bool(done)


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
        for left, n, completed, *_ in cases:
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


def live_table(games: dict[int, list[Case]]) -> list[str]:
    """The live value's rows for 1-3 deals left, each with its factor for a single-copy rank
    and its live cases by card count (dead cases, never completed, are not fitted)."""
    live = [cast(LiveCase, case) for found in games.values() for case in found]
    lines = []
    for left in (1, 2, 3):
        cases = [case for case in live if case[0] == left and not case[3]]
        factor, base = 0.75, [0.0] * 13
        for _ in range(20):
            base = chances_given(cases, factor)
            fitted = factor_given(cases, base)
            if fitted == factor:
                break
            factor = fitted
        seen = [sum(case[1] == n for case in cases) for n in range(13)]
        text = ", ".join(f"{share:.2f}" for share in base)
        lines.append(f"    ({text}), x{factor:.2f}  # {left} deal(s) left; live cases: {seen}")
    return lines


def chances_given(cases: list[LiveCase], factor: float) -> list[float]:
    """By card count, the chance that ``factor`` to the power of the single-copy ranks
    multiplies (completions over the sum of those powers), monotone, at most 0.98."""
    done, weight, seen = [0] * 13, [0.0] * 13, [0] * 13
    for _, n, completed, _, singles in cases:
        done[n] += completed
        weight[n] += factor**singles
        seen[n] += 1
    shares = [done[n] / weight[n] if weight[n] else 0.0 for n in range(13)]
    return [min(share, 0.98) for share in monotone(shares, seen)]


def factor_given(cases: list[LiveCase], base: list[float]) -> float:
    """The factor of a single-copy rank, to a hundredth, most likely given ``base``."""

    def likelihood(factor: float) -> float:
        total = 0.0
        for _, n, completed, _, singles in cases:
            p = min(max(base[n] * factor**singles, 1e-6), 1 - 1e-6)
            total += math.log(p if completed else 1 - p)
        return total

    return max((f / 100 for f in range(30, 101)), key=likelihood)


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
    parser.add_argument("--live", action="store_true",
                        help="measure the live value's table (dead calypsos, single copies)")
    args = parser.parse_args()
    if args.games < 1 or args.jobs < 1:
        parser.error("games and jobs are positive numbers")
    if (args.level in SEARCH_LEVELS) != (args.iterations is not None):
        parser.error("--iterations is required for expert and master, and only for them")
    if args.iterations is not None and args.iterations < 1:
        parser.error("--iterations is a positive number")
    key = {"level": args.level, "iterations": args.iterations, "live": args.live}
    games = read_log(args.log, key) if args.log else {}
    games = {game: cases for game, cases in games.items() if game < args.games}
    if games:
        print(f"resumed: {len(games)} games in {args.log}", flush=True)
    todo = [game for game in range(args.games) if game not in games]
    for game, cases in played(todo, args.level, args.iterations, args.jobs, args.live):
        games[game] = cases
        if args.log:
            args.log.parent.mkdir(parents=True, exist_ok=True)
            with args.log.open("a", encoding="utf-8") as handle:
                handle.write(json.dumps({**key, "game": game, "cases": cases}) + "\n")
    print("\n".join(live_table(games) if args.live else table(games, args.monotone)))


if __name__ == "__main__":
    main()
