"""The bot strength ladder (docs/bots.md): duplicate matches, one JSON line each.

    nice -n 10 python3 bench/bot_ladder.py --boards 200 --jobs 2 [--iterations L=N,...] [A:B ...]

Each step is ``A:B`` (for example ``expert:club``). ``--iterations`` fixes the search
budget per level; levels not named there use their default budgets. The clock cap is
always off, so results are reproducible anywhere. Results are printed and appended to
``--out`` as JSON lines.

``--log PATH`` also appends every finished board to PATH, one JSON line each, and a run
given the same log skips the boards of the same step (levels, seed, budgets) already in
it: a run too long for one sitting can be stopped and resumed, and the summary is the same
as for one uninterrupted run (its ``seconds`` count only the last sitting).
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calypso_core.bots.duplicate import BoardResult, run_match
from calypso_core.cli_io import progress_bar

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


def _load_log(path: Path, key: dict[str, object]) -> dict[int, BoardResult]:
    """The boards of one step already in a log; a broken line stops the run, saying where."""
    done: dict[int, BoardResult] = {}
    if not path.exists():
        return done
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            try:
                row = json.loads(line)
                if not isinstance(row, dict) or type(row.get("board")) is not int:
                    raise ValueError("a log line is an object with a board number")
                if {k: row.get(k) for k in key} != key:
                    continue
                done[row["board"]] = BoardResult.from_json(row.get("result"))
            except ValueError as error:  # json.JSONDecodeError is a ValueError too
                raise SystemExit(f"{path}, line {number}: {error}") from None
    return done


def _log_board(log: Path, key: dict[str, object], board: int, result: BoardResult) -> None:
    line = {**key, "board": board, "result": result.to_json()}
    with log.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(line) + "\n")


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
    parser.add_argument("--log", type=Path, help="log of finished boards, to resume from")
    args = parser.parse_args()
    if args.log:
        args.log.parent.mkdir(parents=True, exist_ok=True)
    budgets = {}
    for part in filter(None, args.iterations.split(",")):
        level, _, count = part.partition("=")
        budgets[level.strip()] = int(count)
    for step in args.steps:
        a, _, b = step.partition(":")
        start = time.time()
        iterations = {lv: budgets.get(lv, "default") for lv in (a, b) if lv in SEARCH}
        key: dict[str, object] = {"a": a, "b": b, "seed": args.seed, "iterations": iterations}
        done = _load_log(args.log, key) if args.log else {}
        done = {i: r for i, r in done.items() if i < args.boards}
        result = run_match(
            a,
            b,
            args.boards,
            seed=args.seed,
            jobs=args.jobs,
            settings_a=_settings(a, budgets),
            settings_b=_settings(b, budgets),
            progress=progress_bar,
            done=done,
            on_board=functools.partial(_log_board, args.log, key) if args.log else None,
        )
        row = result.to_json()
        row["iterations"] = iterations
        row["seed"] = args.seed
        row["seconds"] = round(time.time() - start)
        print(json.dumps(row), flush=True)
        with open(args.out, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(row) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
