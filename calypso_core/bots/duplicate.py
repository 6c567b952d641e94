"""Duplicate matches between two bot levels: the way bot strength is measured.

Each board is one seeded game played twice with the partnerships swapped (A as
North-South, then as East-West; same deck, suits, first dealer and bot seeds by seat), so
the luck of the cards cancels. The margin of a board is A's mean lead over B in its two
games. Bot seeds come from the match seed, the board and the seat, never from the deck.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..game import new_game
from ..rules import Rules
from .base import play_game
from .levels import ALL_LEVELS, make_bot


@dataclass
class BoardResult:
    """One board: A's margin per game, its calypsos, and each side's move times (s)."""

    margin: float
    calypsos_a: int
    calypsos_b: int
    times_a: list[float] = field(default_factory=list)
    times_b: list[float] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """A JSON form, move times in whole microseconds, for logs of long runs."""
        return {
            "margin": self.margin,
            "calypsos_a": self.calypsos_a,
            "calypsos_b": self.calypsos_b,
            "times_a": [round(t * 1e6) for t in self.times_a],
            "times_b": [round(t * 1e6) for t in self.times_b],
        }

    @classmethod
    def from_json(cls, data: Any) -> BoardResult:
        """The inverse of ``to_json``; anything else raises ``ValueError`` saying what."""
        if not isinstance(data, dict):
            raise ValueError(f"a board result is a JSON object, not {type(data).__name__}")
        fields = {"margin", "calypsos_a", "calypsos_b", "times_a", "times_b"}
        if not fields <= set(data):
            raise ValueError(f"a board result lacks {', '.join(sorted(fields - set(data)))}")
        margin = data["margin"]
        if type(margin) not in (int, float) or not math.isfinite(margin):
            raise ValueError(f"a board's margin is a number, not {margin!r}")
        counts = []
        for key in ("calypsos_a", "calypsos_b"):
            value = data[key]
            if type(value) is not int or not 0 <= value <= 16:
                raise ValueError(f"{key} is a whole number from 0 to 16, not {value!r}")
            counts.append(value)
        times = []
        for key in ("times_a", "times_b"):
            value = data[key]
            if not isinstance(value, list) or any(type(t) is not int or t < 0 for t in value):
                raise ValueError(f"{key} is a list of move times in microseconds")
            times.append([t / 1e6 for t in value])
        return cls(float(margin), counts[0], counts[1], times[0], times[1])


def board_seed(seed: int, board: int) -> str:
    """The deal seed of one board of a match."""
    return f"calypso-match/{seed}/board/{board}"


def play_board(
    a: str,
    b: str,
    seed: int,
    board: int,
    rules: Rules,
    settings_a: dict[str, Any],
    settings_b: dict[str, Any],
) -> BoardResult:
    """Play one board: the same game with A as North-South, then as East-West."""
    state = new_game(board_seed(seed, board), rules)
    margin = 0.0
    cal_a = cal_b = 0
    times_a: list[float] = []
    times_b: list[float] = []
    for a_side in (0, 1):
        bots = []
        for seat in range(4):
            # Each seat's bot seed depends on the seat only, so both games share them.
            rng = random.Random(f"calypso-bots/{seed}/{board}/{seat}")
            if seat & 1 == a_side:
                bots.append(make_bot(a, seat, rng, **settings_a))
            else:
                bots.append(make_bot(b, seat, rng, **settings_b))
        times: list[list[float]] = [[], [], [], []]
        end = play_game(state, bots, times)
        scores = end.partnership_scores()
        margin += (scores[a_side] - scores[a_side ^ 1]) / 2
        for seat in range(4):
            if seat & 1 == a_side:
                cal_a += end.completed(seat)
                times_a.extend(times[seat])
            else:
                cal_b += end.completed(seat)
                times_b.extend(times[seat])
    return BoardResult(margin, cal_a, cal_b, times_a, times_b)


def _play_board_args(args: tuple[Any, ...]) -> tuple[int, BoardResult]:
    return args[3], play_board(*args)


@dataclass
class MatchResult:
    """The summary of a duplicate match."""

    a: str
    b: str
    boards: int
    mean_margin: float
    ci95: tuple[float, float]
    board_win_rate: float
    calypsos_per_game: dict[str, float]
    move_ms: dict[str, dict[str, float]]
    margins: list[float]

    def to_json(self) -> dict[str, Any]:
        """The JSON form printed by ``match --json``."""
        return {
            "a": self.a,
            "b": self.b,
            "boards": self.boards,
            "mean_margin": round(self.mean_margin, 1),
            "ci95": [round(self.ci95[0], 1), round(self.ci95[1], 1)],
            "board_win_rate": round(self.board_win_rate, 3),
            "calypsos_per_game": {k: round(v, 3) for k, v in self.calypsos_per_game.items()},
            "move_ms": self.move_ms,
        }

    def describe(self) -> str:
        """A few readable lines."""
        low, high = self.ci95
        lines = [
            f"{self.a} vs {self.b}, {self.boards} boards (duplicate, {2 * self.boards} games)",
            f"  mean margin of {self.a}: {self.mean_margin:+.0f} points a game "
            f"(95% interval {low:+.0f} to {high:+.0f})",
            f"  boards won by {self.a}: {100 * self.board_win_rate:.1f}%",
        ]
        for label, value in self.calypsos_per_game.items():
            lines.append(f"  calypsos per game, {label}: {value:.2f}")
        for label, t in self.move_ms.items():
            lines.append(f"  move time {label}: p50 {t['p50']:.1f} ms, p95 {t['p95']:.1f} ms")
        return "\n".join(lines)


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run_match(
    a: str,
    b: str,
    boards: int,
    seed: int = 0,
    rules: Rules | None = None,
    jobs: int = 1,
    settings_a: dict[str, Any] | None = None,
    settings_b: dict[str, Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
    done: Mapping[int, BoardResult] | None = None,
    on_board: Callable[[int, BoardResult], None] | None = None,
) -> MatchResult:
    """Play a duplicate match of ``boards`` boards between levels A and B.

    ``done`` holds boards already played (by board number, from a log of an earlier,
    interrupted run of the same match): they are not played again. ``on_board`` is
    called with each board as it finishes, so that a long run can be logged and resumed.
    """
    for level in (a, b):
        if level not in ALL_LEVELS:
            raise ValueError(f"unknown bot level {level!r} (levels: {', '.join(ALL_LEVELS)})")
    if type(boards) is not int or boards < 1:
        raise ValueError(f"boards must be a positive number, not {boards!r}")
    if type(jobs) is not int or jobs < 1:
        raise ValueError(f"jobs must be a positive number, not {jobs!r}")
    sa = dict(settings_a or {})
    sb = dict(settings_b or {})
    # Building the bots once checks the settings before any game starts.
    make_bot(a, 0, random.Random(0), **sa)
    make_bot(b, 1, random.Random(0), **sb)
    known = dict(done or {})
    if any(type(i) is not int or not 0 <= i < boards for i in known):
        raise ValueError(f"boards already played must be numbered from 0 to {boards - 1}")
    # Boards are made as they are played: a match of many boards starts at once.
    tasks = ((a, b, seed, i, rules or Rules(), sa, sb) for i in range(boards) if i not in known)
    for i, result in _run(tasks, jobs if boards - len(known) > 1 else 1):
        known[i] = result
        if on_board is not None:
            on_board(i, result)
        if progress is not None:
            progress(len(known), boards)
    results = [known[i] for i in range(boards)]
    margins = [r.margin for r in results]
    import statistics  # here, not at import: it costs ~76 ms of the page's boot in Pyodide

    mean = statistics.fmean(margins)
    half = 1.96 * statistics.stdev(margins) / math.sqrt(boards) if boards > 1 else math.inf
    wins = sum(1.0 if m > 0 else 0.5 if m == 0 else 0.0 for m in margins)
    label_a, label_b = (a, b) if a != b else (f"{a} (A)", f"{b} (B)")
    times_a = [t for r in results for t in r.times_a]
    times_b = [t for r in results for t in r.times_b]
    return MatchResult(
        a=a,
        b=b,
        boards=boards,
        mean_margin=mean,
        ci95=(mean - half, mean + half),
        board_win_rate=wins / boards,
        calypsos_per_game={
            label_a: sum(r.calypsos_a for r in results) / (2 * boards),
            label_b: sum(r.calypsos_b for r in results) / (2 * boards),
        },
        move_ms={
            label: {
                "p50": round(1000 * _percentile(ts, 0.5), 2),
                "p95": round(1000 * _percentile(ts, 0.95), 2),
            }
            for label, ts in ((label_a, times_a), (label_b, times_b))
        },
        margins=margins,
    )


def _run(tasks: Iterator[tuple[Any, ...]], jobs: int) -> Iterator[tuple[int, BoardResult]]:
    """Each task's board and result, in order; with several processes, two boards a process
    at most are handed out ahead (``Executor.map`` would take every task first)."""
    if jobs == 1:
        yield from map(_play_board_args, tasks)
        return
    # Imported here: the browser build never spreads boards over processes.
    from collections import deque
    from concurrent.futures import Future, ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=jobs) as pool:
        ahead: deque[Future[tuple[int, BoardResult]]] = deque()
        for task in tasks:
            ahead.append(pool.submit(_play_board_args, task))
            if len(ahead) >= 2 * jobs:
                yield ahead.popleft().result()
        while ahead:
            yield ahead.popleft().result()

