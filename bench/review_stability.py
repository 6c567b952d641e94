"""How stable the review's grades are: the same games reviewed with two seeds, card by card.

    python3 bench/review_stability.py LOG... [--grades 20,60,150] [--noise 2.0]

The logs of bench/review_levels.py hold the same games (level, game seed, budgets) reviewed
with two or more ``--review-seed`` values, for example (one log per seed, run side by side):

    for seed in 1 2; do nice -n 10 python3 bench/review_levels.py --games 4 --budget 8000 \\
        --jobs 1 --review-seed $seed --log bench/results/review-stability-$seed.log & done

For each budget it prints, over every card South played, how often the two reviews give the
same grade, the same cost, and how the costs are spread by level; ``--grades`` and
``--noise`` recompute the costs and grades with other thresholds (inaccuracy, mistake,
blunder) and another noise rule, from the gaps and errors the log keeps.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from itertools import combinations
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.review_levels import load_log
from calypso_core.bots.review import GRADES, NOISE_SE


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", type=Path, nargs="+")
    default = ",".join(str(t) for _, t in reversed(GRADES))
    parser.add_argument("--grades", default=default, help="inaccuracy,mistake,blunder points")
    parser.add_argument("--noise", type=float, default=NOISE_SE, help="standard errors")
    args = parser.parse_args()
    low, mid, high = (int(x) for x in args.grades.split(","))

    def cost(move: list[Any]) -> int:
        gap, error = move[2], move[3]
        return round(gap) if error is not None and gap > args.noise * error else 0

    def grade(points: int) -> str:
        return ("blunder" if points >= high else "mistake" if points >= mid
                else "inaccuracy" if points >= low else "-")

    rows = [row for log in args.logs for row in load_log(log)]
    by_game: dict[tuple[Any, ...], dict[str, dict[str, Any]]] = {}
    for row in rows:
        key = (row["budget"], row["level"], row["seed"], row["game"],
               json.dumps(row["iterations"], sort_keys=True))
        by_game.setdefault(key, {})[str(row["review_seed"])] = row
    for budget in sorted({key[0] for key in by_game}):
        pairs = []
        seconds = []
        costs: dict[str, list[int]] = {}
        for key, reviews in by_game.items():
            if key[0] != budget:
                continue
            for row in reviews.values():
                seconds.append(row["seconds"])
                costs.setdefault(row["level"], []).extend(cost(m) for m in row["moves"])
            for a, b in combinations(sorted(reviews), 2):
                for ma, mb in zip(reviews[a]["moves"], reviews[b]["moves"], strict=True):
                    pairs.append((key[1], ma, mb))
        if not pairs:
            continue
        every = [(a, b) for _, a, b in pairs]
        searched = [(a, b) for a, b in every if not a[4]]
        graded = [(a, b) for a, b in searched if grade(cost(a)) != "-" or grade(cost(b)) != "-"]
        costly = [(a, b) for a, b in searched if cost(a) or cost(b)]

        def agree(cards: list[tuple[list[Any], list[Any]]]) -> str:
            same = sum(grade(cost(a)) == grade(cost(b)) for a, b in cards)
            return f"{same / max(1, len(cards)):.1%} of {len(cards)}"

        print(f"budget {budget}: {len(pairs)} cards reviewed twice "
              f"({len({k for k in by_game if k[0] == budget})} games)")
        print(f"  same grade: {agree(every)} cards, {agree(searched)} searched (not forced), "
              f"{agree(graded)} graded by either review")
        print(f"  costly (cost > 0) in both reviews: "
              f"{sum(bool(cost(a) and cost(b)) for a, b in costly)} of {len(costly)} costly in "
              f"either; mean |cost difference| over those "
              f"{statistics.fmean(abs(cost(a) - cost(b)) for a, b in costly) if costly else 0:.1f}")
        for level in sorted(costs):
            values = costs[level]
            paid = sorted(v for v in values if v)
            shares = {name: sum(grade(v) == name for v in values) / len(values)
                      for name in ("inaccuracy", "mistake", "blunder")}
            quartiles = statistics.quantiles(paid, n=4) if len(paid) >= 4 else paid
            print(f"  {level:<7} mean cost {statistics.fmean(values):5.1f} a card; costly "
                  f"{len(paid) / len(values):5.1%}; costs > 0: quartiles "
                  f"{[round(q) for q in quartiles]}, max {max(paid, default=0)}; "
                  + ", ".join(f"{name} {share:.1%}" for name, share in shares.items()))
        print(f"  review time a game: mean {statistics.fmean(seconds):.1f} s, "
              f"max {max(seconds):.1f} s (as logged, machine load included)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
