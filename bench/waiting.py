"""How long the person waits at the table: master players against random ones, in the page.

    .venv/bin/python bench/waiting.py [--games N] [--speed normal] [--seed S] [--json]

Two pages of the built site (dist/, or CALYPSO_DIST) in headless Chromium, each a one-game
match with the person in South: one against master players (``?level=master``), one against
random players (``?level=random``), both at the same animation speed and from the same seed.
The person's seat is played automatically, always the first playable card, as a click on it.
The pages take turns a deal at a time (13 of the person's cards), so that load on a shared
machine hits both alike, until each has played ``--games`` whole games.

A wait is measured in the page: from the click on the person's card to the table's next
``data-state=ready`` (the person's next turn; the end of the game ends the last wait). With
random players the waits are the animations alone (the person's card, the computers' moves
and the pause after a trick); with master players, what their thinking adds to that. The
report gives p50 and p95 of both, the ratio of the p50s (target <= 1.3) and the longest
main-thread task in each page while it played (target < 50 ms), two ways: its wall time (a
PerformanceObserver of long tasks: none reported means none reached 50 ms) and, from a
Chrome trace of the page's renderer, the CPU time its main thread spent in it. On a loaded
machine the two differ: a task waits for a core while the worker's search, or anything
else, holds it, and only the CPU time is the page's own work. Results also go to
bench/results/waiting-<time>.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
# tests/ too: the browser tests' helpers are imported as pytest imports them (browser.table).
sys.path.insert(1, str(Path(__file__).resolve().parents[1] / "tests"))

from browser.table import NEXT_DEAL, PLAYABLE, SETTLED, TIMEOUT_MS
from browser.watching import origin_of, watch

from bench import common

TARGET = 1.3
LONG_TASK_TARGET_MS = 50
LEVELS = ("master", "random")
CARDS_A_DEAL = 13
POLL_MS = 100
TRACE_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline"]
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update"]  # fmt: skip
# In the page from its start: the time of each click on a playable card of the hand, the time
# the table next says ready (or over), and every long task once the table was first ready.
PROBE = """
window.__waits = [];
window.__longTasks = [];
let clicked = null;
let playing = false;
document.addEventListener("click", (event) => {
  if (event.target.closest?.("[data-hand] [data-card][data-playable]")) clicked = performance.now();
}, true);
new MutationObserver(() => {
  const table = document.querySelector("[data-table]");
  const state = table?.dataset.state;
  if (state !== "ready" && state !== "over") return;
  playing = true;
  if (clicked !== null) {
    window.__waits.push(performance.now() - clicked);
    clicked = null;
  }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-state"] });
new PerformanceObserver((list) => {
  if (playing) for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
}).observe({ type: "longtask", buffered: false });
"""


class Table:
    """One page's game against one level, played a deal at a time."""

    def __init__(self, browser: Browser, url: str, level: str, seed: str, speed: str) -> None:
        self.level = level
        self.browser = browser
        self.tasks: list[tuple[float, float]] = []  # main-thread tasks: (wall ms, CPU ms)
        self.context = browser.new_context(viewport={"width": 1366, "height": 768})
        self.context.add_init_script(PROBE)
        self.page: Page = self.context.new_page()
        self.problems = watch(self.page, origin_of(url))
        self.page.goto(f"{url}?seed={seed}&level={level}&games=1&speed={speed}")
        self.page.wait_for_selector("html[data-engine-state=ready]", state="attached",
                                    timeout=TIMEOUT_MS)  # fmt: skip
        self.over = False

    def play_deal(self) -> None:
        """The person's next 13 cards (or the rest of the game), traced."""
        self.browser.start_tracing(page=self.page, categories=TRACE_CATEGORIES)
        try:
            self._play_deal()
        finally:
            self.tasks += main_thread_tasks(self.browser.stop_tracing())

    def _play_deal(self) -> None:
        page = self.page
        for _ in range(CARDS_A_DEAL):
            page.wait_for_selector(SETTLED, timeout=TIMEOUT_MS)
            if page.locator("[data-table][data-state=over]").count():
                self.over = True
                return
            while page.locator(NEXT_DEAL).count():  # a deal's end: the person goes on at once
                page.locator(NEXT_DEAL).click()
                expect(page.locator("[data-table]")).not_to_have_attribute(
                    "data-state", "next_deal", timeout=TIMEOUT_MS)
                page.wait_for_selector(SETTLED, timeout=TIMEOUT_MS)
            turns = len(self.waits())
            page.locator(PLAYABLE).first.click()
            # The page times the wait; here we only wait until it has ended.
            page.wait_for_function("(n) => window.__waits.length > n", arg=turns,
                                   timeout=TIMEOUT_MS, polling=POLL_MS)  # fmt: skip
        if page.locator("[data-table][data-state=over]").count():
            self.over = True

    def waits(self) -> list[float]:
        return [float(ms) for ms in self.page.evaluate("window.__waits")]

    def long_tasks(self) -> list[float]:
        return [float(ms) for ms in self.page.evaluate("window.__longTasks")]

    def close(self) -> None:
        self.context.close()


def main_thread_tasks(trace: bytes) -> list[tuple[float, float]]:
    """The tasks a Chrome trace shows on renderer main threads: (wall ms, thread CPU ms)."""
    data = json.loads(trace)
    events = data["traceEvents"] if isinstance(data, dict) else data
    main = {(e["pid"], e["tid"]) for e in events
            if e.get("ph") == "M" and e.get("name") == "thread_name"
            and e.get("args", {}).get("name") == "CrRendererMain"}  # fmt: skip
    return [(e.get("dur", 0) / 1000, e.get("tdur", 0) / 1000) for e in events
            if e.get("ph") == "X" and e.get("name") == "RunTask"
            and (e.get("pid"), e.get("tid")) in main]  # fmt: skip


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def summary(
    waits: list[float], long_tasks: list[float], tasks: list[tuple[float, float]]
) -> dict[str, Any]:
    return {
        "turns": len(waits),
        "p50_ms": round(statistics.median(waits)),
        "p95_ms": round(percentile(waits, 0.95)),
        "max_ms": round(max(waits)),
        "total_s": round(sum(waits) / 1000, 1),
        "long_tasks": len(long_tasks),
        "longest_task_ms": round(max(long_tasks)) if long_tasks else None,
        "traced_tasks": len(tasks),
        "longest_task_wall_ms": round(max((wall for wall, _ in tasks), default=0), 1),
        "longest_task_cpu_ms": round(max((cpu for _, cpu in tasks), default=0), 1),
        "tasks_over_50_cpu_ms": sum(cpu >= LONG_TASK_TARGET_MS for _, cpu in tasks),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=1, help="whole games per level (default 1)")
    parser.add_argument("--speed", default="normal", help="animation speed (default normal)")
    parser.add_argument("--seed", default="waiting", help="the games' seed (the n-th adds -n)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)

    build = common.load_build()
    dist = common.built(build, common.dist_folder())
    report: dict[str, Any] = {
        "when": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "build": common.build_id(build, dist),
        "speed": args.speed,
        "load_before": common.load_average(),
    }
    waits: dict[str, list[float]] = {level: [] for level in LEVELS}
    long_tasks: dict[str, list[float]] = {level: [] for level in LEVELS}
    tasks: dict[str, list[tuple[float, float]]] = {level: [] for level in LEVELS}
    problems: list[str] = []
    url, stop = build.start_server(dist)
    try:
        with sync_playwright() as playwright:
            browser = common.launch_chromium(playwright, CHROMIUM_ARGS)
            for game in range(args.games):
                seed = args.seed if game == 0 else f"{args.seed}-{game}"
                tables = [Table(browser, url, level, seed, args.speed) for level in LEVELS]
                deal = 0
                while not all(table.over for table in tables):
                    # Alternate which level goes first, deal by deal.
                    for table in tables if deal % 2 == 0 else tables[::-1]:
                        if not table.over:
                            table.play_deal()
                            print(f"game {game + 1}, deal {deal + 1}, {table.level}: "
                                  f"{len(table.waits())} turns", file=sys.stderr)  # fmt: skip
                    deal += 1
                for table in tables:
                    waits[table.level] += table.waits()
                    long_tasks[table.level] += table.long_tasks()
                    tasks[table.level] += table.tasks
                    problems += table.problems
                    table.close()
            browser.close()
    finally:
        stop()
    report["load_after"] = common.load_average()
    for level in LEVELS:
        report[level] = summary(waits[level], long_tasks[level], tasks[level])
    report["ratio_p50"] = round(report["master"]["p50_ms"] / report["random"]["p50_ms"], 2)
    report["ratio_p95"] = round(report["master"]["p95_ms"] / report["random"]["p95_ms"], 2)
    report["problems"] = problems
    kept = {**report, "waits": waits, "long_task_ms": long_tasks}
    common.save_results("waiting", json.dumps(kept) + "\n")
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"speed {args.speed}, {args.games} game(s) per level; load {report['load_before']}"
          f" before, {report['load_after']} after")  # fmt: skip
    for level in LEVELS:
        s = report[level]
        longest = s["longest_task_ms"]
        longest = "none >= 50 ms" if longest is None else f"{longest} ms"
        longest += f" wall; traced: {s['longest_task_cpu_ms']} ms CPU"
        print(f"  {level:7} {s['turns']} turns: p50 {s['p50_ms']} ms, p95 {s['p95_ms']} ms, "
              f"max {s['max_ms']} ms, {s['total_s']} s waiting; longest task {longest}")
    verdict = "met" if report["ratio_p50"] <= TARGET else "MISSED"
    print(f"  master/random: p50 {report['ratio_p50']}x (target <= {TARGET}: {verdict}), "
          f"p95 {report['ratio_p95']}x")
    for problem in problems:
        print(f"  browser problem: {problem}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
