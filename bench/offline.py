"""Start-up from the service worker's cache, as ratios to a cold start in the same run.

    .venv/bin/python bench/offline.py [--rounds N] [--json]

Each round opens a fresh browser context (empty HTTP cache, no service worker) and times,
from navigation start to the engine being ready (``html[data-engine-state=ready]``):

  cold      the first visit: everything from the network (the local test server)
  cached    a reload once the service worker has cached the build (online)
  offline   a reload with the server stopped and the browser offline

and reports the medians and the ratios cached/cold and offline/cold. The server is local, so
"cold" has no network latency: on a real connection the cold start is slower and the ratios
smaller. Builds dist/ first if it is missing. Needs Chromium and Playwright (the test venv).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from playwright.sync_api import Browser, Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import CHROMIUM_ARGS, built, dist_folder, launch_chromium, load_build

TIMEOUT_MS = 180_000
# Notes the moment the engine is ready, in milliseconds since navigation start.
PROBE = """
new MutationObserver(() => {
    if (document.documentElement?.dataset.engineState === "ready") {
        window.__readyAt ??= performance.now();
    }
}).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-engine-state"] });
"""


def ready_ms(page: Page) -> float:
    page.wait_for_selector("html[data-engine-state=ready]", state="attached",
                           timeout=TIMEOUT_MS)
    return float(page.evaluate("window.__readyAt"))


def one_round(browser: Browser, build: ModuleType, dist: Path) -> dict[str, float]:
    url, stop_server = build.start_server(dist)
    stopped: list[bool] = []

    def stop() -> None:
        if not stopped:
            stopped.append(True)
            stop_server()

    context = browser.new_context()
    try:
        context.add_init_script(PROBE)
        page = context.new_page()
        page.goto(url + "?seed=bench&level=random&speed=0")
        cold = ready_ms(page)
        page.wait_for_selector("html[data-offline=ready]", state="attached",
                               timeout=TIMEOUT_MS)
        page.reload()
        cached = ready_ms(page)
        stop()
        context.set_offline(True)
        page.reload()
        offline = ready_ms(page)
        return {"cold": cold, "cached": cached, "offline": offline}
    finally:
        context.close()
        stop()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)

    build = load_build()
    dist = built(build, dist_folder())
    rounds = []
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright, CHROMIUM_ARGS)
        for number in range(args.rounds):
            rounds.append(one_round(browser, build, dist))
            print(f"round {number + 1}/{args.rounds}: "
                  + ", ".join(f"{k} {v:.0f} ms" for k, v in rounds[-1].items()),
                  file=sys.stderr, flush=True)
        browser.close()
    medians = {key: statistics.median(r[key] for r in rounds) for key in rounds[0]}
    result: dict[str, Any] = {
        "rounds": rounds,
        "median_ms": medians,
        "ratio_cached_to_cold": medians["cached"] / medians["cold"],
        "ratio_offline_to_cold": medians["offline"] / medians["cold"],
    }
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        print(f"cold start          {medians['cold']:7.0f} ms (median of {len(rounds)})")
        print(f"from the SW cache   {medians['cached']:7.0f} ms  "
              f"ratio {result['ratio_cached_to_cold']:.2f}")
        print(f"offline             {medians['offline']:7.0f} ms  "
              f"ratio {result['ratio_offline_to_cold']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
