"""The page in headless Chromium: boot time against bare Pyodide, bot move times, main-thread
blocking and bytes loaded.

    python3 bench/web.py [--rounds N] [--moves M] [--levels a,b,...] [--json]

Four measurements, each against a reference taken in the same browser run:

  boot     navigation to a playable table (the page's first game dealt, South to play),
           divided by navigation to a bare ``loadPyodide()`` of the same runtime in a module
           worker (target <= 1.15). Each round opens both in fresh contexts (cold caches),
           alternating which goes first; the report gives medians.
  bots     per computer move at each level, in the page's worker: think time (measured in
           Python) and round trip (measured on the page), p50 and p95.
  blocking the longest main-thread task (PerformanceObserver "longtask", >= 50 ms) while
           the computer players think and the table redraws (target: none, i.e. < 50 ms).
  bytes    what the page loads beyond the Pyodide runtime files (pyodide/*), and the total;
           the service worker's offline precache after the boot is counted apart.

Builds dist/ first if it is missing. Needs Chromium (``chromium`` on the PATH or
CALYPSO_CHROMIUM) and Playwright. Results also go to bench/results/web-<time>.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import (
    CHROMIUM_ARGS,
    ROOT,
    built,
    launch_chromium,
    load_build,
    save_results,
)

BOOT_TARGET = 1.15
BLOCK_SW = False  # --no-service-worker: measure the page as if it had no offline cache
LONGTASK_TARGET_MS = 50
TIMEOUT_MS = 180_000

# The reference: a page whose module worker only loads the runtime, as web/worker.js does.
BARE_PAGE = """<!doctype html><meta charset="utf-8"><title>bare Pyodide</title>
<script type="module">
  const worker = new Worker(new URL("./bench-bare-worker.js", location.href), {type: "module"});
  worker.onmessage = (event) => { window.__bareReady = performance.now(); };
</script>"""
BARE_WORKER = """
const { loadPyodide } = await import(new URL("./pyodide/pyodide.mjs", location.href).href);
await loadPyodide({ indexURL: new URL("./pyodide/", location.href).href });
postMessage("ready");
"""
# Marks the moment the table first waits for the person, and records long main-thread tasks.
PAGE_PROBE = """
(() => {
  window.__longtasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longtasks.push([e.startTime, e.duration]);
    }).observe({ type: "longtask", buffered: true });
  } catch { /* no longtask support: reported as unknown */ }
  // When each loading stage starts, as the boot screen shows it.
  window.__stages = {};
  new MutationObserver((records) => {
    for (const r of records) {
      const step = r.target.dataset?.bootStep;
      if (step && r.target.dataset.done === "now" && !(step in window.__stages)) {
        window.__stages[step] = performance.now();
      }
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-done"] });
  const look = () => {
    if (document.querySelector("[data-table][data-state=ready]")) {
      window.__playable = performance.now();
    } else {
      requestAnimationFrame(look);
    }
  };
  requestAnimationFrame(look);
})();
"""
# Times every "step" request the page sends, and keeps the move each reply reports.
STEP_TIMER = """async () => {
  const { engine } = await import("./engine.js");
  const client = engine();
  window.__moves = [];
  window.__sinceBoot = performance.now();
  const request = client.request.bind(client);
  client.request = async (type, payload) => {
    const start = performance.now();
    const result = await request(type, payload);
    if (type === "step" && result.last_event) {
      window.__moves.push({ think: result.last_event.think_ms,
                            trip: performance.now() - start });
    }
    return result;
  };
}"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def new_context(browser: Browser, url: str) -> BrowserContext:
    context = browser.new_context(viewport={"width": 1280, "height": 900},
                                  service_workers="block" if BLOCK_SW else "allow")
    origin = f"{urlsplit(url).scheme}://{urlsplit(url).netloc}"
    context.route(f"{origin}/bench-bare.html",
                  lambda route: route.fulfill(content_type="text/html", body=BARE_PAGE))
    context.route(f"{origin}/bench-bare-worker.js",
                  lambda route: route.fulfill(content_type="text/javascript", body=BARE_WORKER))
    return context


def time_bare(browser: Browser, url: str) -> float:
    context = new_context(browser, url)
    page = context.new_page()
    page.goto(url + "bench-bare.html")
    page.wait_for_function("() => window.__bareReady !== undefined", timeout=TIMEOUT_MS)
    ms = float(page.evaluate("window.__bareReady"))
    context.close()
    return ms


def time_page(browser: Browser, url: str,
              stages: dict[str, Any]) -> tuple[float, dict[str, int], int]:
    """Milliseconds to a playable table, bytes the page loaded by path, and bytes the service
    worker's precache loaded (fresh context); fills ``stages`` with when each stage began."""
    context = new_context(browser, url)
    sizes: dict[str, int] = {}
    precache = [0]

    def on_response(response: Any) -> None:
        length = response.headers.get("content-length")
        path = urlsplit(response.url).path
        # GETs only: the worker checks the runtime files with HEAD requests first.
        if length is None or response.status != 200 or response.request.method != "GET":
            return
        if response.request.service_worker is not None:  # the offline copy, after the boot
            precache[0] += int(length)
        else:
            sizes[path] = sizes.get(path, 0) + int(length)

    context.on("response", on_response)
    page = context.new_page()
    page.add_init_script(PAGE_PROBE)
    page.goto(url + "?seed=bench&level=random&speed=0")
    page.wait_for_function("() => window.__playable !== undefined", timeout=TIMEOUT_MS)
    ms = float(page.evaluate("window.__playable"))
    stages.update(page.evaluate("window.__stages"))
    # How the worker started its runtime: "snapshot" (build.py's memory image) or "plain".
    stages["start"] = page.evaluate("""async () =>
        (await (await import("./engine.js")).engine().stats()).start""")
    page.wait_for_selector("html[data-engine-state=ready]", state="attached", timeout=TIMEOUT_MS)
    context.close()
    return ms, sizes, precache[0]


def settle(page: Page) -> str:
    page.wait_for_selector("[data-table][data-state=ready], [data-table][data-state=over]",
                           timeout=TIMEOUT_MS)
    return page.locator("[data-table]").get_attribute("data-state") or ""


def deal(page: Page, level: str, seed: str) -> None:
    """A new game through the page's own dialog: the given level, instant speed."""
    page.get_by_role("button", name="New game").click()
    dialog = page.locator("[data-dialog=new_game]")
    dialog.get_by_label("Level", exact=True).select_option(level)
    dialog.get_by_label("Speed").select_option("instant")
    dialog.get_by_label("Seed").fill(seed)
    dialog.get_by_role("button", name="Deal").click()
    page.locator("[data-seed-info]").filter(has_text=f"Seed {seed}").wait_for()
    settle(page)


def time_bots(browser: Browser, url: str, levels: list[str] | None,
              moves: int) -> tuple[dict[str, dict[str, float]], float | None]:
    """Per level: think and round-trip times per bot move; and the longest main-thread task."""
    context = new_context(browser, url)
    page = context.new_page()
    page.add_init_script(PAGE_PROBE)
    page.goto(url + "?seed=bench&level=random&speed=0")
    page.wait_for_selector("html[data-engine-state=ready]", state="attached", timeout=TIMEOUT_MS)
    hello = page.evaluate("""async () => (await import("./engine.js")).engine()
                                            .request("hello")""")
    page.evaluate(STEP_TIMER)
    results: dict[str, dict[str, float]] = {}
    for level in levels or [entry["key"] for entry in hello["levels"]]:
        deal(page, level, f"bench-{level}")
        page.evaluate("window.__moves = []")
        while page.evaluate("window.__moves.length") < moves and settle(page) == "ready":
            page.locator("[data-hand] [data-card][data-playable]").first.click()
            settle(page)
        recorded = page.evaluate("window.__moves")
        think = [float(m["think"]) for m in recorded]
        trip = [float(m["trip"]) for m in recorded]
        results[level] = {
            "moves": len(recorded),
            "think_p50_ms": percentile(think, 0.5), "think_p95_ms": percentile(think, 0.95),
            "trip_p50_ms": percentile(trip, 0.5), "trip_p95_ms": percentile(trip, 0.95),
        }
    tasks = page.evaluate("window.__longtasks.filter(([start]) => start >= window.__sinceBoot)")
    supported = page.evaluate("PerformanceObserver.supportedEntryTypes.includes('longtask')")
    context.close()
    longest = max((float(duration) for _, duration in tasks), default=0.0)
    return results, longest if supported else None


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3, help="boot rounds (default 3)")
    parser.add_argument("--moves", type=int, default=24,
                        help="computer moves timed per level (default 24)")
    parser.add_argument("--levels", help="comma-separated levels (default: all)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--no-service-worker", action="store_true",
                        help="block service workers (no offline precache during the boot)")
    args = parser.parse_args(argv)
    global BLOCK_SW
    BLOCK_SW = args.no_service_worker

    build = load_build()
    url, stop = build.start_server(built(build, ROOT / "dist"))
    report: dict[str, Any] = {"when": time.strftime("%Y-%m-%dT%H:%M:%S"),
                              "service_worker": not BLOCK_SW}
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright, CHROMIUM_ARGS)
            bare: list[float] = []
            table: list[float] = []
            sizes: dict[str, int] = {}
            stages: list[dict[str, Any]] = []
            for round_ in range(args.rounds):
                stages.append({})
                if round_ % 2:
                    table_ms, sizes, precache = time_page(browser, url, stages[-1])
                    bare_ms = time_bare(browser, url)
                else:
                    bare_ms = time_bare(browser, url)
                    table_ms, sizes, precache = time_page(browser, url, stages[-1])
                bare.append(bare_ms)
                table.append(table_ms)
            ratios = [t / b for t, b in zip(table, bare, strict=True)]
            runtime = sum(n for path, n in sizes.items() if path.startswith("/pyodide/"))
            report["boot"] = {
                "bare_ms": [round(x) for x in bare], "table_ms": [round(x) for x in table],
                "bare_median_ms": round(statistics.median(bare)),
                "table_median_ms": round(statistics.median(table)),
                "ratio_median": round(statistics.median(ratios), 3), "target": BOOT_TARGET,
                "runtime_start": sorted({s.get("start") for s in stages}),
                # When the boot screen showed each stage starting (ms since navigation).
                "stage_start_median_ms": {
                    stage: round(statistics.median(s[stage] for s in stages if stage in s))
                    for stage in ("runtime", "engine", "ready")
                    if any(stage in s for s in stages)
                },
            }
            report["bytes"] = {
                "runtime": runtime,
                "beyond_runtime": sum(sizes.values()) - runtime,
                "total": sum(sizes.values()),
                "service_worker_precache": precache,
                "beyond_runtime_by_path": {p: n for p, n in sorted(sizes.items())
                                           if not p.startswith("/pyodide/")},
            }
            levels = args.levels.split(",") if args.levels else None
            bots, longest = time_bots(browser, url, levels, args.moves)
            report["bots"] = bots
            report["longest_task_ms"] = longest
            report["longest_task_target_ms"] = LONGTASK_TARGET_MS
            browser.close()
    finally:
        stop()

    save_results("web", json.dumps(report, indent=1) + "\n")
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    boot = report["boot"]
    print(f"boot    table {boot['table_median_ms']} ms / bare loadPyodide "
          f"{boot['bare_median_ms']} ms = {boot['ratio_median']:.3f}  (target <= {BOOT_TARGET}; "
          f"rounds: table {boot['table_ms']}, bare {boot['bare_ms']})")
    print("        stages began at (ms): " + ", ".join(
        f"{stage} {ms}" for stage, ms in boot["stage_start_median_ms"].items())
        + f", playable {boot['table_median_ms']}; runtime started from: "
        + ", ".join(boot["runtime_start"]))
    kb = report["bytes"]
    mib = 1024 * 1024
    print(f"bytes   beyond the runtime {kb['beyond_runtime'] / 1024:.0f} KiB "
          f"(runtime {kb['runtime'] / mib:.1f} MiB, total {kb['total'] / mib:.1f} MiB; "
          f"then the offline precache {kb['service_worker_precache'] / mib:.1f} MiB)")
    for path, n in kb["beyond_runtime_by_path"].items():
        print(f"          {n / 1024:8.1f} KiB  {path}")
    print("bots    level     moves  think p50/p95 ms   round trip p50/p95 ms")
    for level, r in report["bots"].items():
        print(f"        {level:<9} {r['moves']:>5}  "
              f"{r['think_p50_ms']:7.1f} /{r['think_p95_ms']:7.1f}   "
              f"{r['trip_p50_ms']:7.1f} /{r['trip_p95_ms']:7.1f}")
    longest_text = "unknown (no longtask support)" if longest is None else (
        f"{longest:.0f} ms" if longest else f"none >= {LONGTASK_TARGET_MS} ms")
    print(f"main    longest task while bots play: {longest_text} "
          f"(target < {LONGTASK_TARGET_MS} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
