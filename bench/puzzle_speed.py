"""How fast the puzzles answer in the page: a puzzle on screen after it is asked for, and an
answer judged, in Chromium with the page's own worker; the same requests in CPython in the
same run, for the ratio.

    python3 bench/puzzle_speed.py [--rounds N] [--json]

Boots the page (a game against random players), opens the puzzles once (the set is fetched
and handed to the worker: timed apart, as "first open"), then for each round clicks "Next
puzzle" and times until the panel shows the new puzzle and the frame after it is drawn (the
table redrawn from the puzzle's view), then clicks a card of the hand and times until the
verdict is drawn. Targets (docs/puzzles.md#speed): a puzzle on screen within 300 ms of
asking once the engine is ready, an answer judged within 100 ms. The CPython column times
``handle`` for the same requests (``puzzle`` near a rating, ``puzzle_answer``). Needs dist/
(``python3 build.py build``) and Chromium; results also go to bench/results/.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import common
from calypso_core import table

TARGETS_MS = {"puzzle": 300, "answer": 100}
TIMEOUT_MS = 300_000

# Clicks ``selector`` and resolves, in ms, when ``done()`` holds for the panel and the frame
# after it is drawn.
ROUNDS = """async (rounds) => {
  const panel = document.querySelector("[data-puzzle-panel]");
  const until = (done) => new Promise((resolve, reject) => {
    setTimeout(() => reject(new Error(`stuck: panel ${panel.dataset.state}`)), 60000);
    const check = () => {
      if (!done()) return false;
      requestAnimationFrame(() => resolve(performance.now()));
      return true;
    };
    if (check()) return;
    const observer = new MutationObserver(() => { if (check()) observer.disconnect(); });
    observer.observe(panel, { attributes: true, subtree: true, childList: true });
  });
  const out = { puzzle: [], answer: [] };
  for (let i = 0; i < rounds; i += 1) {
    const before = panel.dataset.puzzleId;
    let start = performance.now();
    document.querySelector("[data-puzzle-panel] [data-action=puzzle_next]").click();
    let end = await until(() => panel.dataset.state === "asking"
      && panel.dataset.puzzleId !== before);
    out.puzzle.push(end - start);
    const card = document.querySelector("[data-hand] [data-card][data-playable]");
    start = performance.now();
    card.click();
    end = await until(() => panel.dataset.state === "solved" || panel.dataset.state === "missed");
    out.answer.push(end - start);
  }
  return out;
}"""


def in_cpython(text: str, rounds: int) -> dict[str, list[float]]:
    """The same requests through ``handle`` in this process: ms each."""
    def timed(request: dict[str, Any]) -> tuple[float, Any]:
        start = time.perf_counter()
        reply = json.loads(table.handle(json.dumps({"id": 1, **request})))
        assert reply["ok"], reply
        return (time.perf_counter() - start) * 1000, reply["result"]

    table.reset()
    timed({"type": "puzzles", "text": text})
    out: dict[str, list[float]] = {"puzzle": [], "answer": []}
    recent: list[str] = []
    for n in range(rounds):
        ms, shown = timed({"type": "puzzle", "near": {"recent": recent, "salt": str(n)}})
        out["puzzle"].append(ms)
        recent.append(shown["puzzle"]["id"])
        ms, _ = timed({"type": "puzzle_answer", "card": shown["view"]["legal"][0], "rate": True})
        out["answer"].append(ms)
    return out


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"median": round(statistics.median(ordered), 1),
            "p90": round(ordered[int(0.9 * (len(ordered) - 1))], 1),
            "max": round(ordered[-1], 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    build = common.load_build()
    dist = common.built(build, common.dist_folder())
    text = (dist / "puzzles.json").read_text(encoding="utf-8")
    load_before = common.load_average()
    url, stop = build.start_server(dist)
    try:
        with sync_playwright() as playwright:
            browser = common.launch_chromium(playwright, common.CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1366, "height": 768})
            page.goto(url + "?seed=bench-puzzles&level=random&speed=0")
            page.wait_for_selector("html[data-engine-state=ready]", timeout=TIMEOUT_MS)
            started = time.perf_counter()
            page.click(".bar [data-action=menu]")
            page.click("[data-dialog=menu] [data-action=puzzles]")
            page.wait_for_selector("[data-puzzle-panel][data-state=asking]", timeout=TIMEOUT_MS)
            first_open = (time.perf_counter() - started) * 1000
            page_ms = page.evaluate(ROUNDS, args.rounds)
            browser.close()
    finally:
        stop()
    cpython = in_cpython(text, args.rounds)
    result = {
        "rounds": args.rounds, "load": [load_before, common.load_average()],
        "first_open_ms": round(first_open), "targets_ms": TARGETS_MS,
        "page": {kind: summary(values) for kind, values in page_ms.items()},
        "cpython": {kind: summary(values) for kind, values in cpython.items()},
        "ratio": {kind: round(statistics.median(page_ms[kind])
                              / statistics.median(cpython[kind]), 2) for kind in page_ms},
    }
    text_out = json.dumps(result, indent=None if args.json else 1)
    print(text_out)
    common.save_results("puzzle-speed", text_out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
