"""How long the review and the master in your seat take in the page: Chromium, the page's own
engine worker, the protocol's one-card requests; CPython in the same run for the ratio.

    python3 bench/review_page.py [--budget N] [--record FILE] [--seat S] [--rerun LEVEL]

Reviews the seat's cards of a record (the golden standard game by default) through the
page's client ("review", then one "review_next" a card), deal by deal, and the same in
CPython; prints the seconds of each deal in both, their ratio, and the longest single
request (how long the worker is busy without answering: one card). With ``--rerun LEVEL``
it also plays a game of one person against LEVEL computer players through the protocol
(``--rerun daily``: today's Calypso of the day, three masters) and times the master in your
seat, card by card. Needs dist/ (``python3 build.py build``) and Chromium.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import GOLDEN_RECORD, launch_chromium, load_build
from calypso_core import parse_record
from calypso_core.bots.review import REVIEW_ITERATIONS, iter_review

REVIEW = """async ([record, seat, budget]) => {
  const { engine } = await import("./engine.js");
  const client = engine();
  const started = await client.request("review", { record, seat, budget });
  const seconds = [0, 0, 0, 0];
  let longest = 0;
  let cost = 0;
  let at = performance.now();
  for (let i = 0; i < started.total; i += 1) {
    const next = await client.request("review_next", { job: started.job });
    const now = performance.now();
    seconds[next.move.deal] += (now - at) / 1000;
    longest = Math.max(longest, (now - at) / 1000);
    cost += next.move.cost;
    at = now;
  }
  return { seconds, longest, cost };
}"""

RERUN = """async ([level]) => {
  const { engine } = await import("./engine.js");
  const client = engine();
  let view = level === "daily" ? await client.request("daily")
    : await client.request("new_game", { seed: "bench-rerun", level });
  const played = performance.now();
  while (view.status !== "game_over") {
    view = view.status === "your_turn" ? await client.request("play", { card: view.legal[0] })
      : await client.request("step");
  }
  const game = (performance.now() - played) / 1000;
  const started = await client.request("rerun");
  let longest = 0;
  let at = performance.now();
  const begin = at;
  let next;
  do {
    next = await client.request("rerun_next", { job: started.job });
    const now = performance.now();
    longest = Math.max(longest, (now - at) / 1000);
    at = now;
  } while (!next.finished);
  const { you, master } = next.result;
  return { game, rerun: (at - begin) / 1000, longest, you, master };
}"""


def in_cpython(record: str, seat: int, budget: int) -> list[float]:
    seconds = [0.0] * 4
    start = time.perf_counter()
    for move in iter_review(parse_record(record), seat, budget=budget, seed=0):
        now = time.perf_counter()
        seconds[move.deal] += now - start
        start = now
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--budget", type=int, default=REVIEW_ITERATIONS)
    parser.add_argument("--record", type=Path, default=GOLDEN_RECORD)
    parser.add_argument("--seat", type=int, default=2)
    parser.add_argument("--rerun", help="also time the master in your seat against this level "
                        "(or 'daily')")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    build = load_build()
    text = args.record.read_text()
    url, stop = build.start_server(build.DIST)
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright, ["--no-sandbox"])
            page = browser.new_page()
            page.goto(url + "?seed=bench-review&level=random&speed=0")
            page.wait_for_selector("html[data-engine-state=ready]", state="attached",
                                   timeout=120_000)
            inpage = page.evaluate(REVIEW, [json.loads(text), args.seat, args.budget])
            rerun = page.evaluate(RERUN, [args.rerun]) if args.rerun else None
            browser.close()
    finally:
        stop()
    cpython = in_cpython(text, args.seat, args.budget)
    print(f"review of seat {args.seat}'s cards of {args.record.name} at {args.budget} "
          "iterations a card")
    print("deal  page s  CPython s  ratio")
    for deal in range(4):
        page_s, cpy_s = inpage["seconds"][deal], cpython[deal]
        print(f"{deal + 1:>4}  {page_s:6.1f}  {cpy_s:9.1f}  {page_s / max(cpy_s, 1e-9):5.2f}")
    print(f"game  {sum(inpage['seconds']):6.1f}  {sum(cpython):9.1f}  "
          f"{sum(inpage['seconds']) / sum(cpython):5.2f}")
    print(f"longest single request in the page: {inpage['longest']:.2f} s; "
          f"points lost: {inpage['cost']}")
    if rerun:
        print(f"master in your seat against {args.rerun}: the game itself {rerun['game']:.0f} s, "
              f"the rerun {rerun['rerun']:.0f} s (longest card {rerun['longest']:.2f} s); "
              f"you {rerun['you']}, master {rerun['master']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
