"""Duplicate match of this checkout's master against a frozen copy of an older master.

    nice -n 15 python3 bench/vs_frozen.py --boards 200 --log bench/results/vs-frozen.log \
        [--frozen 2f223ba] [--a-iterations N] [--b-iterations N] [--seed 1] [--set NAME=VALUE]

A is this checkout's ``MasterBot``; B is the ``MasterBot`` of the commit ``--frozen``, whose
``calypso_core`` is extracted with ``git archive`` into ``.cache/frozen/`` and imported under
another name (``frozen_<commit>``), so both run in one process on this checkout's engine.
Each board is one seeded game played twice with the partnerships swapped, the bot seeds by
seat as in ``calypso_core.bots.duplicate``. Both sides search on fixed iteration budgets
with the clock off, so load cannot change a result; each side's time a move is measured in
the same run, so the budgets can be matched in time (the report gives mean, p50 and p95).

``--a-level cheater`` makes A the ``CheaterBot``, the master's search on the true cards
(shown the position before each choice): what a master that saw every card would win, a
bound for any honest change. ``--set NAME=VALUE`` overrides a class constant of A's bot (a
screen of a variant without editing the code, such as ``--set DROP_Z=2.0``). ``--log``
appends each finished board as a JSON line with the match's key: label, seed, budgets, the
frozen commit, A's level and every search constant of A as it plays (its ``--set``
overrides applied), so a variant turned on by default later still matches its run with
``--set``. A log holds one match: the same command skips the boards already there, so a
long run can be stopped and resumed, and a run whose key differs from the log's is
refused, naming what differs (a resume cannot mix variants). A last line cut short by a
kill is dropped. After every board one line reports the mean margin of A a game with its
95% interval (mean ± 1.96 standard errors over boards).

A match may be split over processes, one log each (``--first 0 --boards 100`` and
``--first 100 --boards 100``, one core each); ``--summary LOG [LOG ...]`` reports them as
one match, refusing logs of different matches or a board played twice.
"""

from __future__ import annotations

import argparse
import importlib
import io
import json
import math
import random
import statistics
import subprocess
import sys
import tarfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import ROOT, finished_lines
from calypso_core import new_game
from calypso_core.bots.duplicate import board_seed
from calypso_core.bots.search import CheaterBot, MasterBot
from calypso_core.cards import CARDS
from calypso_core.rules import Rules


def frozen_package(commit: str) -> Any:
    """The ``calypso_core`` of ``commit``, imported as ``frozen_<commit>``."""
    full = subprocess.run(["git", "rev-parse", "--verify", f"{commit}^{{commit}}"], cwd=ROOT,
                          check=True, capture_output=True, text=True).stdout.strip()  # fmt: skip
    name = f"frozen_{full[:10]}"
    folder = ROOT / ".cache" / "frozen" / full[:10]
    if not (folder / name / "__init__.py").exists():
        archive = subprocess.run(["git", "archive", "--format=tar", full, "calypso_core"],
                                 cwd=ROOT, check=True, capture_output=True).stdout  # fmt: skip
        folder.mkdir(parents=True, exist_ok=True)
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            for member in tar.getmembers():
                member.name = name + member.name[len("calypso_core") :]
            tar.extractall(folder, filter="data")
    sys.path.insert(0, str(folder))
    importlib.import_module(name)
    return importlib.import_module(name + ".bots")


class FrozenSeat:
    """A frozen bot seen through this checkout's cards: the card it returns is mapped back."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    @property
    def last_result(self) -> Any:
        return self.bot.last_result

    def choose(self, observation: dict[str, Any], legal: list[Any]) -> Any:
        return CARDS[int(self.bot.choose(observation, legal))]


def play_board(frozen: Any, seed: int, board: int, a_iters: int, b_iters: int,
               cheater: bool = False) -> dict[str, Any]:  # fmt: skip
    """One board: A as North-South, then as East-West; A's margin a game, and each side's
    time and iterations spent a move with a choice. A is a ``MasterBot``, or with
    ``cheater`` a ``CheaterBot`` shown the true position before each of its choices."""
    state0 = new_game(board_seed(seed, board), Rules())
    a_bot = CheaterBot if cheater else MasterBot
    margin = 0.0
    times: dict[str, list[float]] = {"a": [], "b": []}
    spent: dict[str, list[int]] = {"a": [], "b": []}
    calypsos = {"a": 0, "b": 0}
    for a_side in (0, 1):
        bots: list[Any] = []
        for seat in range(4):
            rng = random.Random(f"calypso-bots/{seed}/{board}/{seat}")
            if seat & 1 == a_side:
                bots.append(a_bot(seat, rng, iterations=a_iters, time_limit=None))
            else:
                bot = frozen.make_bot("master", seat, rng, iterations=b_iters, time_limit=None)
                bots.append(FrozenSeat(bot))
        state = state0.clone()
        while not state.is_over:
            seat = state.to_move
            legal = state.legal_moves()
            start = time.perf_counter()
            if isinstance(bots[seat], CheaterBot):
                bots[seat].peek(state)
            card = bots[seat].choose(state.observation(seat), legal)
            side = "a" if seat & 1 == a_side else "b"
            if len(legal) > 1:
                times[side].append(time.perf_counter() - start)
                spent[side].append(bots[seat].last_result.iterations)
            state.play(card)
        scores = state.partnership_scores()
        margin += (scores[a_side] - scores[a_side ^ 1]) / 2
        for seat in range(4):
            calypsos["a" if seat & 1 == a_side else "b"] += state.completed(seat)
    return {"margin": margin, "calypsos": calypsos,
            "ms": {k: [round(1000 * t, 1) for t in v] for k, v in times.items()},
            "iterations": spent}  # fmt: skip


# What makes two boards part of one match (the log's key).
KEY = ("label", "seed", "frozen", "a_iterations", "b_iterations", "a_settings", "a_level")


def search_settings(bot: type) -> dict[str, Any]:
    """Every search constant of a bot class as JSON values, less the budget and clock the
    match sets itself."""
    plain = (bool, int, float, str, tuple, list, type(None))
    values = {n: getattr(bot, n) for n in dir(bot) if n.isupper()}
    return {n: json.loads(json.dumps(v)) for n, v in values.items()
            if isinstance(v, plain) and n not in ("ITERATIONS", "TIME_LIMIT")}  # fmt: skip


def key_of(row: dict[str, Any], names: Iterable[str] = KEY) -> dict[str, Any]:
    """The entries ``names`` of a logged board's match key (a board logged before --a-level
    was a master's)."""
    return {name: row.get(name, "master") if name == "a_level" else row[name] for name in names}


RESUME = "resume it with its own settings or use another log"


def read_log(
    log: Path, key: dict[str, Any], overridden: frozenset[str] = frozenset(), *,
    mend: bool = True, advice: str = RESUME,
) -> dict[int, dict[str, Any]]:
    """The boards of the match in ``log`` by number; refused, with ``advice``, if the log is
    of another match.

    A constant of A that the log does not name was added to the code after the run began;
    options are added off, so the log matches it at its default, not when ``overridden``.
    A last line without its newline was cut short by a kill, or is being written by a run
    still playing: it is left out, and with ``mend`` dropped from the file.
    """
    lines, cut = finished_lines(log, mend)
    if cut and mend:
        print(f"{log}: dropped an unfinished last line", flush=True)
    rows: dict[int, dict[str, Any]] = {}
    for number, line in enumerate(lines, 1):
        try:
            row = json.loads(line)
            theirs = key_of(row, key)
            added = key["a_settings"].keys() - theirs["a_settings"].keys() - overridden
            theirs["a_settings"] |= {name: key["a_settings"][name] for name in added}
            board = int(row["board"])
        except (ValueError, KeyError, TypeError) as error:
            raise SystemExit(f"{log}, line {number}: {error!r}") from None
        if theirs != key:
            differ = ", ".join(f"{name} {old!r} in the log, {new!r} now"
                               for name, old, new in _differences(theirs, key))  # fmt: skip
            raise SystemExit(f"{log}, line {number} is of another match ({differ}): {advice}")
        rows[board] = row
    return rows


def _differences(old: dict[str, Any], new: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    """The entries that differ, a nested dict's by its own names (``a_settings.DROP_Z``)."""
    found = []
    for name in sorted(old.keys() | new.keys()):
        a, b = old.get(name), new.get(name)
        if isinstance(a, dict) and isinstance(b, dict):
            found += [(f"{name}.{n}", x, y) for n, x, y in _differences(a, b)]
        elif a != b:
            found.append((name, a, b))
    return found


def summary(logs: list[Path]) -> str:
    """The report of one match split over ``logs``, each holding boards of the same key."""
    if not logs[0].exists() or not logs[0].read_text(encoding="utf-8").strip():
        raise SystemExit(f"{logs[0]}: no finished board")
    first = json.loads(logs[0].read_text(encoding="utf-8").splitlines()[0])
    key = key_of(first)
    rows: dict[int, dict[str, Any]] = {}
    # Only reads: a run still playing may be writing any of the logs.
    advice = f"a summary reports one match, that of {logs[0]}"
    for log in logs:
        found = read_log(log, key, mend=False, advice=advice)
        if not found:
            raise SystemExit(f"{log}: no finished board")
        twice = sorted(found.keys() & rows.keys())
        if twice:
            raise SystemExit(f"{log}: board {twice[0]} is in an earlier log too")
        rows |= found
    return report(rows)


def report(rows: dict[int, dict[str, Any]]) -> str:
    margins = [r["margin"] for r in rows.values()]
    n = len(margins)
    mean = statistics.fmean(margins)
    half = 1.96 * statistics.stdev(margins) / math.sqrt(n) if n > 1 else math.inf
    parts = [f"{n} boards: A {mean:+.0f} a game (95% interval {mean - half:+.0f} to "
             f"{mean + half:+.0f}), boards won {sum(m > 0 for m in margins)}"]  # fmt: skip
    # Iterations a move are the load-free measure of what each side spends (boards logged
    # before they were recorded have none).
    for field, unit in (("ms", "ms"), ("iterations", "iterations")):
        for side in ("a", "b"):
            values = sorted(t for r in rows.values() for t in r.get(field, {}).get(side, []))
            if values:
                p95 = values[min(len(values) - 1, int(0.95 * len(values)))]
                average = statistics.fmean(values)
                parts.append(f"{side.upper()} {unit} a move with a choice: mean {average:.0f}, "
                             f"p50 {statistics.median(values):.0f}, p95 {p95:.0f}")  # fmt: skip
    cal = {s: sum(r["calypsos"][s] for r in rows.values()) / (2 * n) for s in ("a", "b")}
    parts.append(f"calypsos a game A {cal['a']:.2f} / B {cal['b']:.2f}")
    return "; ".join(parts)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--frozen", default="2f223ba", help="the commit of the frozen master")
    parser.add_argument("--a-iterations", type=int, default=MasterBot.ITERATIONS)
    parser.add_argument("--b-iterations", type=int, default=5000)
    parser.add_argument("--a-level", choices=("master", "cheater"), default="master",
                        help="A's bot: the master, or its search on the true cards")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="override a class constant of A's bot")  # fmt: skip
    parser.add_argument("--label", default="", help="names the variant of A in the log's key")
    parser.add_argument("--log", type=Path, help="finished boards, to resume from")
    parser.add_argument("--first", type=int, default=0, help="the first board number")
    parser.add_argument("--summary", type=Path, nargs="+", metavar="LOG",
                        help="report one match split over these logs; plays nothing")
    args = parser.parse_args()
    if args.summary:
        print(summary(args.summary))
        return 0
    if args.boards < 1 or args.a_iterations < 1 or args.b_iterations < 1:
        parser.error("boards and iterations are positive numbers")
    cheater = args.a_level == "cheater"
    a_bot = CheaterBot if cheater else MasterBot
    overrides: dict[str, Any] = {}
    for item in args.set:
        name, sep, text = item.partition("=")
        if not sep or not hasattr(a_bot, name) or not name.isupper():
            parser.error(f"--set {item!r}: not NAME=VALUE for a constant of {a_bot.__name__}")
        value = json.loads(text)
        setattr(a_bot, name, value)
        overrides[name] = value
    frozen = frozen_package(args.frozen)
    key = dict(zip(KEY, (args.label, args.seed, frozen.__name__.split(".")[0], args.a_iterations,
                         args.b_iterations, search_settings(a_bot), args.a_level), strict=True))
    rows = read_log(args.log, key, frozenset(overrides)) if args.log else {}
    boards = range(args.first, args.first + args.boards)
    rows = {i: r for i, r in rows.items() if i in boards}
    if rows:
        print(f"resumed: {report(rows)}", flush=True)
    for board in boards:
        if board in rows:
            continue
        start = time.time()
        played = play_board(frozen, args.seed, board, args.a_iterations, args.b_iterations,
                            cheater)  # fmt: skip
        row = {**key, "set": overrides, "board": board, **played}
        rows[board] = row
        if args.log:
            args.log.parent.mkdir(parents=True, exist_ok=True)
            with args.log.open("a", encoding="utf-8") as handle:
                handle.write(json.dumps(row) + "\n")
        print(f"board {board} {row['margin']:+.0f} ({time.time() - start:.0f} s) | "
              f"{report(rows)}", flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
