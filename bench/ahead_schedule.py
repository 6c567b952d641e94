"""Work ahead on a clock of CPU time: one whole game played through the worker protocol in
CPython on the page's schedule (web/flow.js, web/ahead.js), each request's time measured in
CPU time of this process, so the figures do not depend on the machine's load.

The page's schedule at a speed (a computer move shown ``move`` ms, a finished trick
``trick`` ms, a deal's end twice that), the person playing as soon as it is their turn:
every computer move is asked for when the one before is drawn, and computed while that one
is shown; once its reply is in, the worker works ahead until ``MARGIN_MS`` before that
pause ends (windows of at most 2 s); the game's next request waits for the work in
progress. After the last pause the result shows; the page then sends ``rerun`` and
alternates ``work`` windows of 250 ms (until the review is done) with ``rerun_next``.

Reported: the CPU time the game gave to work ahead and what it went to (the review's
slices, the rerun's, the rest: sealing what the save keeps, replies), how far the review
and the rerun were at the result, how long after it (in CPU seconds of this process) the
review was done and the rerun's score in, and how long each request of the game waited
for work ahead (p50, p95, max). The page's worker runs the same Python some 1.4 times
slower (docs/review.md): multiply the times by that for the page on an idle machine.

    .venv/bin/python bench/ahead_schedule.py [--level random] [--seed ahead]
    .venv/bin/python bench/ahead_schedule.py --daily 2026-12-01 [--speed fast]

With ``--daily`` the game is that date's Calypso of the day, the kept attempt against three
masters, whose share line waits for the master in your seat: it is played twice in the same
run, the rerun worked on before the review (as the engine does for the day:
``ahead.RERUN_FIRST``) and after it (as for any other game), and the master's score's time
after the result is compared. At a deal's end the person presses Next deal at once; after
the result the review waits for the master's score. The masters stop at their clock caps, so
these figures depend on the load a little.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import common
from calypso_core import table
from calypso_core.table import ahead, jobs

SPEEDS = {"normal": (550, 1600), "fast": (250, 900), "slow": (950, 2600)}
MARGIN_MS = 80  # web/ahead.js
MIN_WINDOW_MS = 30
MAX_WINDOW_MS = 2_000
AFTER_GAME_MS = 250


def cpu_ms() -> float:
    return time.process_time() * 1000


class Worker:
    """The worker: requests answered one at a time on a clock of CPU milliseconds."""

    def __init__(self) -> None:
        self.free = 0.0  # when the worker is done with what it was asked
        self.work_until = 0.0  # when the last work request ended
        self.waits: list[float] = []  # each game request's wait for work ahead
        self.spent: dict[str, float] = {"review": 0.0, "rerun": 0.0}
        self.work_ms = 0.0
        self.overrun: list[float] = []  # how far each work request ran past its window

    def ask(self, sent: float, kind: str, **payload: Any) -> tuple[float, Any]:
        """The reply's time and result of a request sent at ``sent``."""
        start = max(sent, self.free)
        if kind != "work":
            self.waits.append(max(0.0, min(start, self.work_until) - sent))
        before = cpu_ms()
        reply = json.loads(table.handle(json.dumps({"id": 1, "type": kind, **payload})))
        took = cpu_ms() - before
        if not reply["ok"]:
            raise RuntimeError(f"{kind}: {reply['error']}")
        self.free = start + took
        if kind == "work":
            self.work_ms += took
            self.work_until = self.free
            self.overrun.append(max(0.0, took - payload["ms"]))
        return self.free, reply["result"]

    def work_until_ms(self, start: float, end: float) -> Any:
        """Work ahead in windows from ``start`` until ``end`` less the margin."""
        progress, now = None, max(start, self.free)
        while (window := min(end - MARGIN_MS - now, MAX_WINDOW_MS)) >= MIN_WINDOW_MS:
            now, progress = self.ask(now, "work", ms=int(window))
            if not progress["more"]:
                break
        return progress


def timed(fn: Callable[..., Any], accounts: dict[str, dict[str, float]], key: str
          ) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        before = cpu_ms()
        try:
            return fn(*args, **kwargs)
        finally:
            accounts[key][key] += cpu_ms() - before
    return wrapper


_PATCHED: dict[str, dict[str, float]] = {}  # kind -> the account its time goes to


def _measure(spent: dict[str, float]) -> None:
    """Work ahead's windows measured in CPU time, as the clock of the simulation, and the time
    of its review's and rerun's slices added to ``spent``."""
    if not _PATCHED:
        clock = SimpleNamespace(perf_counter=time.process_time)
        for module in (ahead, jobs):
            setattr(module, "time", clock)  # noqa: B010 (a module's import replaced)
        for kind, name in (("review", "_review_slice"), ("rerun", "_rerun_slice")):
            setattr(ahead, name, timed(getattr(ahead, name), _PATCHED, kind))
    _PATCHED["review"] = _PATCHED["rerun"] = spent


def simulate(level: str, seed: str, speed: str = "normal", daily: str | None = None
             ) -> dict[str, Any]:
    """One game on the page's schedule (``daily``: that date's Calypso of the day, the kept
    attempt); the figures of the module's docstring."""
    move_ms, trick_ms = SPEEDS[speed]
    table.reset()
    worker = Worker()
    _measure(worker.spent)

    def pause(view: dict[str, Any]) -> float:
        event = view.get("event") or {}
        if event.get("deal_over") and not event.get("game_over"):
            # The page waits for Next deal, pressed at once, where a computer leads next.
            return 0 if view["status"] == "waiting" else trick_ms * 2
        return trick_ms if event.get("trick_over") else move_ms

    now, view = (worker.ask(0.0, "daily", date=daily) if daily
                 else worker.ask(0.0, "new_game", seed=seed, level=level, games=1))
    pause_end = now
    while view["status"] != "game_over":
        if view["status"] == "waiting":  # asked for when the move before was drawn
            reply_at, view = worker.ask(now, "step")
        else:  # the person plays as soon as it is their turn
            reply_at, view = worker.ask(pause_end, "play", card=view["legal"][0])
        worker.work_until_ms(reply_at, pause_end)  # the pause of the move shown
        now = max(reply_at, pause_end)  # this move is drawn
        pause_end = now + pause(view)
    worker.work_until_ms(now, pause_end)
    over = pause_end
    at_result = worker.ask(over, "work", ms=1)[1]
    cpu_at_result = dict(worker.spent)
    work_in_game = worker.work_ms
    # After the result: rerun (taken over), then work and rerun_next in turn (in the Calypso of
    # the day with the rerun first, the work once the master has played: web/ahead.js).
    t, started = worker.ask(over, "rerun")
    master_at = t if started["finished"] else None
    review_at = None
    progress = at_result
    review_waits = bool(daily) and ahead.RERUN_FIRST
    while master_at is None or review_at is None:
        if review_at is None and not (review_waits and master_at is None):
            if progress["review"]["done"] == progress["review"]["played"]:
                review_at = t
            else:
                t, progress = worker.ask(t, "work", ms=AFTER_GAME_MS)
        if master_at is None:
            t, step = worker.ask(t, "rerun_next", job=started["job"])
            if step["finished"]:
                master_at = t
    waits = sorted(worker.waits)
    return {
        "level": f"daily:{daily}" if daily else level, "speed": speed,
        "rerun_first": ahead.RERUN_FIRST, "game_s": round(over / 1000, 1),
        "work_in_game_s": round(work_in_game / 1000, 1),
        "to_review_s": round(cpu_at_result["review"] / 1000, 1),
        "to_rerun_s": round(cpu_at_result["rerun"] / 1000, 1),
        "other_s": round((work_in_game - cpu_at_result["review"] - cpu_at_result["rerun"])
                         / 1000, 1),
        "review_at_result": at_result["review"], "rerun_at_result": at_result["rerun"],
        "review_s": round((review_at - over) / 1000, 1),
        "master_s": round((master_at - over) / 1000, 1),
        "requests": len(waits),
        "behind_work": sum(w > 0 for w in waits),
        "wait_ms_p50": round(statistics.median(waits)),
        "wait_ms_p95": round(waits[int(0.95 * (len(waits) - 1))]),
        "wait_ms_max": round(waits[-1]),
        "overrun_ms_max": round(max(worker.overrun, default=0)),
    }


def describe(result: dict[str, Any]) -> str:
    r = result
    return (f"  CPU clock, {r['level']}: game {r['game_s']} s; work ahead {r['work_in_game_s']} s "
            f"(review {r['to_review_s']}, rerun {r['to_rerun_s']}, other {r['other_s']}); at the "
            f"result review {r['review_at_result']['done']}/{r['review_at_result']['played']}, "
            f"rerun {(r['rerun_at_result'] or {}).get('done')}/208; review done "
            f"{r['review_s']} s after, the master's score {r['master_s']} s after; "
            f"{r['behind_work']} of {r['requests']} requests waited for work: p50 "
            f"{r['wait_ms_p50']} ms, p95 {r['wait_ms_p95']} ms, max {r['wait_ms_max']} ms")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--level", default="random")
    parser.add_argument("--seed", default="ahead")
    parser.add_argument("--speed", default="normal", choices=sorted(SPEEDS))
    parser.add_argument("--daily", metavar="DATE", help="that date's Calypso of the day, the "
                        "rerun worked on first and then last")
    args = parser.parse_args(argv)
    if not args.daily:
        result = simulate(args.level, args.seed, args.speed)
        print(json.dumps(result), file=sys.stderr)
        print(describe(result))
        return 0
    results = []
    for rerun_first in (True, False):
        ahead.RERUN_FIRST = rerun_first
        results.append(simulate(args.level, args.seed, args.speed, daily=args.daily))
        print(json.dumps(results[-1]), file=sys.stderr)
        print(("rerun first" if rerun_first else "review first") + ":", describe(results[-1]))
    first, last = (r["master_s"] for r in results)
    print(f"the master's score after the result: {first} s with the rerun first, {last} s "
          f"with the review first; load {common.load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
