"""How long a computer player's card takes to show, by how many cards it could play.

    .venv/bin/python bench/computer_pace.py [--level master] [--speed instant] [--deals 2] [--json]

A game alone in headless Chromium (the person in South clicks its first playable card as soon
as it can), computer players of ``--level`` at ``--speed``. For each computer's card: the time
from the card before it drawn on the page to this one drawn (the table's data-plays), and how
many different cards that player could play (the game's record, replayed here). A computer
with one legal card once answered in 1.8 ms against 722 ms with several, and the page drew it
as soon as it came: a void, told by the clock. Its card is now held to its level's clock cap
(the engine's event.hold_ms).

Target: the p50 with one legal card within 20% of the p50 with several. Timings on a shared
machine are noisy; the load is printed. Results also go to bench/results/computer-pace-<time>.json.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import common  # noqa: E402
from calypso_core import from_record, new_game  # noqa: E402
from calypso_core.table.sealed import opened_record  # noqa: E402

TIMEOUT_MS = 180_000
PLAYABLE = "[data-table][data-state=ready] [data-hand] [data-card][data-playable]"
DEAL = 52
# When each count of cards played is first drawn (performance.now()).
SHOWN_PROBE = """
window.__shown = {};
new MutationObserver(() => {
  const n = document.querySelector("[data-table]")?.dataset.plays;
  if (n !== undefined && !(n in window.__shown)) window.__shown[n] = performance.now();
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-plays"] });
"""
RECORD = """async () => (await (await import("./engine.js")).engine().request("record")).record"""


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(p * len(ordered)))], 1)


def who_could_play(record: dict[str, Any]) -> list[tuple[int, int]]:
    """For each play of a record: the seat to move and how many different cards it could play."""
    state = from_record(opened_record(record))
    again = new_game(rules=state.rules, suits=state.suits, first_dealer=state.first_dealer,
                     deck=state.deck)
    moves = []
    for card in state.plays:
        moves.append((again.to_move, len(again.legal_moves())))
        again.play(card)
    return moves


def run(level: str, speed: str, deals: int) -> dict[str, Any]:
    build = common.load_build()
    dist = common.built(build, common.dist_folder())
    url, stop = build.start_server(dist)
    try:
        with sync_playwright() as p:
            browser = common.launch_chromium(p, common.CHROMIUM_ARGS)
            page = browser.new_context(reduced_motion="reduce").new_page()
            page.add_init_script(SHOWN_PROBE)
            page.goto(f"{url}?level={level}&speed={speed}&seed=pace")
            page.wait_for_selector("html[data-engine-state=ready]", state="attached",
                                   timeout=TIMEOUT_MS)
            cards = deals * DEAL
            deadline = time.monotonic() + deals * 300
            while int(page.locator("[data-table]").get_attribute("data-plays") or 0) < cards:
                assert time.monotonic() < deadline, "the game did not move on"
                if page.locator(PLAYABLE).count():
                    page.locator(PLAYABLE).first.click()
                page.wait_for_timeout(20)
            shown: dict[str, float] = page.evaluate("window.__shown")
            record = page.evaluate(RECORD)
            browser.close()
    finally:
        stop()
    moves = who_could_play(record)
    person = 2  # South
    gaps: dict[str, list[float]] = {"one": [], "several": []}
    for n in range(1, cards):
        seat, legal = moves[n]
        if seat == person or str(n) not in shown or str(n + 1) not in shown:
            continue
        gaps["one" if legal == 1 else "several"].append(shown[str(n + 1)] - shown[str(n)])
    one, several = (percentile(gaps[key], 0.5) if gaps[key] else None for key in ("one", "several"))
    return {
        "load": common.load_average(), "level": level, "speed": speed, "deals": deals,
        "one": {"count": len(gaps["one"]), "p50": one},
        "several": {"count": len(gaps["several"]), "p50": several},
        "ratio_p50": round(one / several, 2) if one and several else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="master")
    parser.add_argument("--speed", default="instant")
    parser.add_argument("--deals", type=int, default=2)
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args()
    results = run(args.level, args.speed, args.deals)
    text = json.dumps(results, indent=1)
    common.save_results("computer-pace", text)
    if args.json:
        print(text)
        return
    print(f"load {results['load']}; {args.level} at {args.speed}, {args.deals} deals")
    for key, words in (("one", "one legal card"), ("several", "several")):
        r = results[key]
        print(f"a computer's card with {words}: p50 {r['p50']} ms ({r['count']} cards)")
    print(f"ratio of the p50s: {results['ratio_p50']} (target 0.8 to 1.2)")


if __name__ == "__main__":
    main()
