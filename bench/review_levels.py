"""The review measures the bots (docs/bots.md): points each level loses per card, by grade.

    nice -n 10 python3 bench/review_levels.py --games 50 --budget 16000 --jobs 2 \\
        --log bench/results/review-levels.log [--levels random,novice,...] [--summary]

Each game is one seeded 208-card game with the level at North and South and club players
at East and West; the review (``calypso_core.bots.review``) grades every card South played
at ``--budget`` search iterations a card, clock off. The bots play at the ladder's fixed
budgets (``--iterations``, expert 200 and master 400 by default), so their rows sit beside
the ladder's in docs/bots.md. Game seeds come from ``--seed`` and the game number, the
review's from ``--review-seed``, so a game is reviewed the same anywhere.

``--log PATH`` appends every reviewed game to PATH, one JSON line each, and a run given the
same log skips the games already in it (same level, seeds and budgets): stop it any time
and start it again with the same command. ``--summary`` only prints the table of what the
log holds. bench/review_stability.py compares two review seeds of the same games in a log.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calypso_core import new_game
from calypso_core.bots import LEVELS, make_bot, play_game
from calypso_core.bots.review import GRADE_NAMES, grade, iter_review

SEARCH = ("expert", "master")
REVIEWED = 2  # South
PLURAL = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}
DEAL_PLAYS = 52  # a standard game's deal: 13 tricks of four cards, so a play's deal is play // 52


def play_level_game(level: str, seed: int, game: int, budgets: dict[str, int]) -> Any:
    """One game: ``level`` at North and South, club players at East and West."""
    state = new_game(f"review-levels/{seed}/game/{game}")
    bots = []
    for seat in range(4):
        name = level if seat & 1 == 0 else "club"
        rng = random.Random(f"review-levels/{seed}/{game}/{seat}")
        settings: dict[str, Any] = {}
        if name in SEARCH:
            settings = {"time_limit": None, "iterations": budgets[name]}
        bots.append(make_bot(name, seat, rng, **settings))
    return play_game(state, bots)


def review_one(task: dict[str, Any]) -> dict[str, Any]:
    """Play one game and review South's cards: per card [play, cost, gap, its error, forced]."""
    end = play_level_game(task["level"], task["seed"], task["game"], task["iterations"])
    start = time.perf_counter()
    moves = [
        [m.play, m.cost, round(m.best_value - m.played_value, 2),
         round(m.gap_error, 2) if m.gap_error != float("inf") else None, m.forced]
        for m in iter_review(end, REVIEWED, budget=task["budget"], seed=task["review_seed"])
    ]
    ns, ew = end.partnership_scores()
    return {**task, "moves": moves, "seconds": round(time.perf_counter() - start, 2),
            "margin": ns - ew}


def key_of(row: dict[str, Any]) -> tuple[Any, ...]:
    """What makes two log lines the same measurement."""
    return (row["level"], row["seed"], row["game"], row["review_seed"], row["budget"],
            json.dumps(row["iterations"], sort_keys=True))


def load_log(path: Path) -> list[dict[str, Any]]:
    """Every line of a log; a broken line stops the run, saying where."""
    rows: list[dict[str, Any]] = []
    if not path.exists():
        return rows
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            try:
                row = json.loads(line)
                if not isinstance(row, dict) or not isinstance(row.get("moves"), list):
                    raise ValueError("a log line is an object with the reviewed moves")
                key_of(row)
            except (ValueError, KeyError) as error:
                raise SystemExit(f"{path}, line {number}: {error}") from None
            rows.append(row)
    return rows


def summarize(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per level (and budget): games, mean cost a card with a 95% interval, grade rates, and
    the blunders in each of the four deals."""
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault((row["level"], row["budget"], row["review_seed"]), []).append(row)
    order = {level: i for i, level in enumerate(LEVELS)}
    out = []
    for (level, budget, review_seed), games in sorted(
        groups.items(), key=lambda item: (order.get(item[0][0], 9), item[0][1:])
    ):
        per_game = [sum(m[1] for m in g["moves"]) / len(g["moves"]) for g in games]
        cards = [m for g in games for m in g["moves"]]
        mean = statistics.fmean(per_game)
        half = 1.96 * statistics.stdev(per_game) / math.sqrt(len(games)) if len(games) > 1 else 0
        counts = {name: sum(grade(m[1]) == name for m in cards) for name in GRADE_NAMES}
        out.append({
            "level": level, "budget": budget, "review_seed": review_seed, "games": len(games),
            "cards": len(cards), "forced": sum(bool(m[4]) for m in cards),
            "mean_cost": round(mean, 1), "ci95": [round(mean - half, 1), round(mean + half, 1)],
            "cost_per_game": round(statistics.fmean(sum(m[1] for m in g["moves"])
                                                    for g in games), 1),
            "costly": round(sum(m[1] > 0 for m in cards) / len(cards), 3),
            **{f"{PLURAL[name]}_per_game": round(counts[name] / len(games), 2)
               for name in GRADE_NAMES},
            **{f"{name}_rate": round(counts[name] / len(cards), 4) for name in GRADE_NAMES},
            "blunders_by_deal": [sum(grade(m[1]) == "blunder" and m[0] // DEAL_PLAYS == deal
                                     for m in cards) for deal in range(4)],
            "margin": round(statistics.fmean(g["margin"] for g in games)),
            "review_seconds": round(statistics.fmean(g["seconds"] for g in games), 1),
        })
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default=",".join(LEVELS))
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1, help="game seed")
    parser.add_argument("--review-seed", default="1", help="the review's seed")
    parser.add_argument("--budget", type=int, default=16000, help="review iterations a card")
    parser.add_argument("--iterations", default="expert=200,master=400",
                        help="the bots' search budgets")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--log", type=Path, required=True, help="log of reviewed games")
    parser.add_argument("--summary", action="store_true", help="only summarize the log")
    args = parser.parse_args()
    budgets = {}
    for part in filter(None, args.iterations.split(",")):
        level, _, count = part.partition("=")
        budgets[level.strip()] = int(count)
    if args.summary:
        for row in summarize(load_log(args.log)):
            print(json.dumps(row))
        return 0
    args.log.parent.mkdir(parents=True, exist_ok=True)
    levels = [lv for lv in args.levels.split(",") if lv]
    for level in levels:
        if level not in LEVELS:
            raise SystemExit(f"unknown level {level!r} (levels: {', '.join(LEVELS)})")
    done = {key_of(row) for row in load_log(args.log)}
    tasks = []
    for game in range(args.games):  # levels interleaved: a partial run covers them all
        for level in levels:
            task = {"level": level, "seed": args.seed, "game": game,
                    "review_seed": args.review_seed, "budget": args.budget,
                    "iterations": {lv: budgets[lv] for lv in SEARCH if lv == level}}
            if key_of(task) not in done:
                tasks.append(task)
    print(f"{len(tasks)} games to review ({len(done)} in the log)", file=sys.stderr, flush=True)
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        pending = {pool.submit(review_one, task) for task in tasks[: 2 * args.jobs]}
        queue = tasks[2 * args.jobs :]
        finished = 0
        while pending:
            ready, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in ready:
                row = future.result()
                with args.log.open("a", encoding="utf-8") as handle:
                    handle.write(json.dumps(row) + "\n")
                finished += 1
                print(f"{finished}/{len(tasks)} {row['level']} game {row['game']}: "
                      f"cost {sum(m[1] for m in row['moves'])} in {row['seconds']} s",
                      file=sys.stderr, flush=True)
                if queue:
                    pending.add(pool.submit(review_one, queue.pop(0)))
    for row in summarize(load_log(args.log)):
        print(json.dumps(row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
