"""The review ready when the game ends: one whole game in the page against each level, the
person clicking the first playable card as soon as there is one, the engine working ahead in
the idle time (web/ahead.js, calypso_core/table/ahead.py).

    .venv/bin/python bench/review_ahead.py [--levels random,master,daily:2026-12-01]
                                           [--speed normal] [--seed S] [--cpu-levels random]

Measured in the page (headless Chromium, dist/ or CALYPSO_DIST): the time the result shows
(the table's data-state=over), how long after it the review of all the person's cards is done
ahead (``data-review-ahead`` reaches 52/52) and the master in your seat's score is on the
score sheet (``data-master=done``), and every request of the game in play answered while
work ahead was in the worker's queue (sent while a ``work`` request had no reply yet): the
round trip of each ``play`` (the engine answers it at once: its time is the wait) and of each
``step`` (a computer's thinking besides). Then the same game on a clock of CPU time in
CPython (bench/ahead_schedule.py), figures that do not depend on the machine's load: the CPU
time work ahead took and what for, and the same times after the result and waits. Results
also go to bench/results/review-ahead-*.json.

A level ``daily:DATE`` plays that date's Calypso of the day, the kept attempt, in a fresh
browser, pressing Next deal at once at each deal's end: reported besides is how long after
the result its share line is whole, with the master's score (``data-share-master``; at most
5 s is the aim).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, expect, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
# tests/ too: the browser tests' helpers are imported as pytest imports them (browser.table).
sys.path.insert(1, str(Path(__file__).resolve().parents[1] / "tests"))

from browser.table import NEXT_DEAL, PLAYABLE, SETTLED, TIMEOUT_MS, plays
from browser.watching import origin_of, watch

from bench import ahead_schedule as schedule
from bench import common

TARGETS = {"review_s": 5.0, "master_s": 20.0, "play_ms": 200.0, "share_s": 5.0}
MASTER_WAIT_MS = 180_000
# In the page from its start: each request to the worker and each reply, with its time, and
# when the result showed, the review was done ahead and the master's score came.
PROBE = """
window.__requests = {};
window.__replies = {};
window.__marks = {};
const Native = window.Worker;
window.Worker = class extends Native {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (event) => {
      if (typeof event.data !== "string") return;
      const id = JSON.parse(event.data).id;
      if (id !== null && !(id in window.__replies)) window.__replies[id] = performance.now();
    });
  }
  postMessage(message, ...rest) {
    if (typeof message === "string") {
      const data = JSON.parse(message);
      window.__requests[data.id] = [data.type, performance.now()];
    }
    return super.postMessage(message, ...rest);
  }
};
new MutationObserver(() => {
  const marks = window.__marks;
  const now = performance.now();
  const review = document.documentElement.dataset.reviewAhead;
  if (!marks.over && document.querySelector("[data-table][data-state=over]")) {
    marks.over = now;
    marks.atResult = [review, document.documentElement.dataset.rerunAhead];
  }
  if (review) {
    const [done, played] = review.split("/").map(Number);
    if (played >= 52 && done === played && !marks.review) marks.review = now;
  }
  if (!marks.master && document.querySelector("[data-master=done]")) marks.master = now;
  if (!marks.share && document.querySelector("[data-share-master=true]")) marks.share = now;
}).observe(document, { subtree: true, attributes: true, childList: true,
  attributeFilter: ["data-state", "data-review-ahead", "data-master", "data-share-master"] });
"""


def play_game(browser: Browser, url: str, level: str, seed: str, speed: str) -> dict[str, Any]:
    """One game; the level "daily:DATE" plays that date's Calypso of the day (the kept attempt,
    in a fresh browser), whose score sheet's share line waits for the master's score."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    context.add_init_script(PROBE)
    page = context.new_page()
    problems = watch(page, origin_of(url))
    daily = level.removeprefix("daily:") if level.startswith("daily:") else None
    page.goto(f"{url}?daily={daily}&speed={speed}" if daily
              else f"{url}?seed={seed}&level={level}&games=1&speed={speed}")
    page.wait_for_selector("html[data-engine-state=ready]", state="attached", timeout=TIMEOUT_MS)
    cards = 0
    while True:
        page.wait_for_selector(SETTLED, timeout=TIMEOUT_MS)
        if page.locator("[data-table][data-state=over]").count():
            break
        if page.locator(NEXT_DEAL).count():  # a deal's end: the person goes on at once
            page.locator(NEXT_DEAL).click()
            expect(page.locator("[data-table]")).not_to_have_attribute(
                "data-state", "next_deal", timeout=TIMEOUT_MS)
            continue
        before = plays(page)
        try:  # a forced card (the last of a deal) plays itself meanwhile: none is left
            page.locator(PLAYABLE).first.click(timeout=2_000)
        except PlaywrightTimeout:
            continue
        cards += 1
        page.wait_for_function("(n) => document.querySelector('[data-table]').dataset.plays "
                               "!== String(n)", arg=before, timeout=TIMEOUT_MS)
    try:
        # (A page before data-share-master said the master's score with the master's line.)
        page.wait_for_function("(daily) => window.__marks.master && window.__marks.review"
                               " && (!daily || window.__marks.share"
                               " || !document.querySelector('[data-share-line]')"
                               " || !document.querySelector('[data-share-master]'))",
                               arg=bool(daily), timeout=MASTER_WAIT_MS, polling=200)
    except PlaywrightTimeout:
        problems.append("timed out: " + page.evaluate(
            "JSON.stringify([window.__marks, document.documentElement.dataset.reviewAhead, "
            "document.documentElement.dataset.rerunAhead, "
            "document.querySelector('[data-master]')?.dataset.master])"))
    marks = page.evaluate("window.__marks")
    requests = page.evaluate("window.__requests")
    replies = page.evaluate("window.__replies")
    context.close()
    return {"level": level, "cards": cards, "problems": problems,
            **timings(marks, requests, replies)}


def timings(marks: dict[str, Any], requests: dict[str, Any], replies: dict[str, float]
            ) -> dict[str, Any]:
    """The times after the result and the round trips of the game's requests sent while
    work ahead waited for its reply."""
    works = [(sent, replies.get(i, float("inf"))) for i, (kind, sent) in requests.items()
             if kind == "work"]
    trips: dict[str, list[float]] = {"play": [], "step": []}
    for i, (kind, sent) in requests.items():
        if kind in trips and i in replies and any(a <= sent < b for a, b in works):
            trips[kind].append(replies[i] - sent)
    work_ms = [b - a for a, b in works if b != float("inf")]
    reruns = [(sent, replies.get(i)) for i, (kind, sent) in requests.items() if kind == "rerun"]
    rerun_sent, rerun_reply = reruns[-1] if reruns else (None, None)
    return {
        # None: not within MASTER_WAIT_MS of the result.
        "review_s": round(max(0.0, marks["review"] - marks["over"]) / 1000, 1)
        if "review" in marks else None,
        "master_s": round((marks["master"] - marks["over"]) / 1000, 1)
        if "master" in marks else None,
        # The Calypso of the day: the share line whole, with the master's score.
        "share_s": round((marks["share"] - marks["over"]) / 1000, 1)
        if "share" in marks else None,
        # When the page asked for the rerun and had its reply (it takes over the work ahead).
        "rerun_asked_s": None if rerun_sent is None else round((rerun_sent - marks["over"])
                                                                / 1000, 1),
        "rerun_reply_s": None if rerun_reply is None else round((rerun_reply - marks["over"])
                                                                 / 1000, 1),
        "rerun_next": sum(kind == "rerun_next" for kind, _ in requests.values()),
        # How far the review and the rerun were when the result showed.
        "at_result": marks.get("atResult"),
        "work_requests": len(works),
        "work_ms_max": round(max(work_ms, default=0)),
        **{f"{kind}_behind_work": len(values) for kind, values in trips.items()},
        **{f"{kind}_ms_p50": round(statistics.median(values)) if values else None
           for kind, values in trips.items()},
        **{f"{kind}_ms_p95": round(sorted(values)[int(0.95 * (len(values) - 1))])
           if values else None for kind, values in trips.items()},
        **{f"{kind}_ms_max": round(max(values)) if values else None
           for kind, values in trips.items()},
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--levels", default="random,master")
    parser.add_argument("--speed", default="normal")
    parser.add_argument("--seed", default="ahead")
    parser.add_argument("--cpu-levels", default="random",
                        help="levels of the game played on a clock of CPU time (bench/"
                        "ahead_schedule.py: figures that do not depend on the load); '' for none")
    args = parser.parse_args(argv)
    build = common.load_build()
    dist = common.built(build, common.dist_folder())
    report: dict[str, Any] = {"when": time.strftime("%Y-%m-%dT%H:%M:%S"), "speed": args.speed,
                              "build": common.build_id(build, dist),
                              "load_before": common.load_average(), "games": []}
    url, stop = build.start_server(dist)
    try:
        with sync_playwright() as playwright:
            browser = common.launch_chromium(playwright, common.CHROMIUM_ARGS)
            for level in args.levels.split(","):
                result = play_game(browser, url, level, args.seed, args.speed)
                report["games"].append(result)
                print(json.dumps(result), file=sys.stderr)
            browser.close()
    finally:
        stop()
    report["load_after"] = common.load_average()
    report["cpu"] = [schedule.simulate(level, args.seed, args.speed)
                     for level in filter(None, args.cpu_levels.split(","))]
    common.save_results("review-ahead", json.dumps(report) + "\n")
    print(f"speed {args.speed}; load {report['load_before']} before, {report['load_after']} after")
    for game in report["games"]:
        # A time after the result that never came (None) misses; no play behind work meets.
        met = (all(game[key] is not None and game[key] <= TARGETS[key]
                   for key in ("review_s", "master_s"))
               and (game["play_ms_p95"] or 0) <= TARGETS["play_ms"])
        print(f"  {game['level']:7} review done {game['review_s']} s after the result, the "
              f"master's score {game['master_s']} s after; {game['play_behind_work']} plays "
              f"sent behind work: p50 {game['play_ms_p50']} ms, p95 {game['play_ms_p95']} ms, "
              f"max {game['play_ms_max']} ms; {game['step_behind_work']} steps: p50 "
              f"{game['step_ms_p50']} ms, p95 {game['step_ms_p95']} ms, max "
              f"{game['step_ms_max']} ms; longest work {game['work_ms_max']} ms; at the "
              f"result review {game['at_result'][0]}, rerun {game['at_result'][1]} "
              f"({'met' if met else 'MISSED'})")
        if game["level"].startswith("daily:"):
            whole = game["share_s"] is not None and game["share_s"] <= TARGETS["share_s"]
            print(f"  {game['level']}: the share line whole {game['share_s']} s after the result "
                  f"({'met' if whole else 'MISSED'}: at most {TARGETS['share_s']} s)")
        for problem in game["problems"]:
            print(f"  browser problem: {problem}")
    for result in report["cpu"]:
        print(schedule.describe(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
