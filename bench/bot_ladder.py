"""The bot strength ladder (docs/bots.md): duplicate matches, one JSON line each.

    nice -n 10 python3 bench/bot_ladder.py --boards 200 --jobs 2 [--iterations L=N,...] [A:B ...]

Each step is ``A:B`` (for example ``expert:club``). ``--iterations`` fixes the search
budget per level; levels not named there use their default budgets. The clock cap is
always off, so results are reproducible anywhere. Results are printed and appended to
``--out`` as JSON lines.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calypso_core.bots.match import progress_bar, run_match

LADDER = [
    "novice:random",
    "club:novice",
    "expert:club",
    "master:expert",
    "master:random",
    "master:club",
    "cheater:club",
]
SEARCH = ("expert", "master", "cheater")


def _settings(level: str, budgets: dict[str, int]) -> dict[str, object]:
    if level not in SEARCH:
        return {}
    settings: dict[str, object] = {"time_limit": None}
    if level in budgets:
        settings["iterations"] = budgets[level]
    return settings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("steps", nargs="*", default=LADDER, help="pairs A:B (default: the ladder)")
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--iterations",
        default="",
        help="fixed search budgets by level, such as expert=200,master=400 (default: defaults)",
    )
    parser.add_argument("--out", default="bench/bot_ladder.jsonl")
    args = parser.parse_args()
    budgets = {}
    for part in filter(None, args.iterations.split(",")):
        level, _, count = part.partition("=")
        budgets[level.strip()] = int(count)
    for step in args.steps:
        a, _, b = step.partition(":")
        start = time.time()
        result = run_match(
            a,
            b,
            args.boards,
            seed=args.seed,
            jobs=args.jobs,
            settings_a=_settings(a, budgets),
            settings_b=_settings(b, budgets),
            progress=progress_bar,
        )
        row = result.to_json()
        row["iterations"] = {lv: budgets.get(lv, "default") for lv in (a, b) if lv in SEARCH}
        row["seed"] = args.seed
        row["seconds"] = round(time.time() - start)
        print(json.dumps(row), flush=True)
        with open(args.out, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(row) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
