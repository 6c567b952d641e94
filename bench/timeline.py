"""Where a first visit's time goes: one visit's requests and phases on one clock.

    .venv/bin/python bench/timeline.py [--link slow|fast] [--bare] [--later] [--json]

Opens the game's page as bench/firstvisit.py does (fresh context, through bench/throttle.py's
link) and prints, in milliseconds from navigation, every request of the page and of the
engine's worker (Resource Timing: when it was asked for, when its first and last bytes came,
the bytes it took) and the phases both mark (``calypso:*`` performance marks: the worker's
start, the runtime's loader in, the .wasm instantiated, ``loadPyodide`` resolved, the wheel
in, the engine imported; the page's hello and first deal), then the moment the hand became
playable. ``--bare`` does the same for the bare ``loadPyodide()`` page first; ``--later`` then
reloads the page once the service worker has cached the build, as a later visit (its worker
marks the snapshot read, checked and unzipped before the runtime). The worker's clock is
moved onto the page's by their ``performance.timeOrigin``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import common, firstvisit, throttle, web

ENTRIES = """() => ({
  origin: performance.timeOrigin,
  entries: performance.getEntries()
    .filter((e) => ["resource", "mark", "navigation", "paint"].includes(e.entryType))
    .map((e) => ({type: e.entryType, name: e.name, start: e.startTime,
                  first: e.responseStart ?? null, end: e.responseEnd ?? e.startTime,
                  bytes: e.encodedBodySize ?? null})),
})"""


def entries_of(page: Page) -> list[dict[str, Any]]:
    """The page's entries and its workers', on the page's clock, by start."""
    mine = page.evaluate(ENTRIES)
    rows = [{**e, "where": "page"} for e in mine["entries"]]
    for worker in page.workers:
        theirs = worker.evaluate(ENTRIES)
        shift = theirs["origin"] - mine["origin"]
        for e in theirs["entries"]:
            moved = {k: (v + shift if k in ("start", "first", "end") and v else v)
                     for k, v in e.items()}
            rows.append({**moved, "where": "worker"})
    return sorted(rows, key=lambda e: e["start"])


def visit(browser: Any, url: str, bare: bool, later: bool = False) -> dict[str, Any]:
    """One visit's entries; with ``later``, those of a reload once the build is cached."""
    context = firstvisit.new_context(browser)
    if not bare:
        context.add_init_script(firstvisit.PLAYABLE_PROBE)
    page = context.new_page()
    page.goto(url + ("bench-bare.html" if bare else firstvisit.PAGE_QUERY))
    done = "window.__bareReady" if bare else "window.__playable"
    page.wait_for_function(f"() => {done} !== undefined", polling=firstvisit.POLL_MS,
                           timeout=firstvisit.TIMEOUT_MS)
    if later:
        page.wait_for_selector("html[data-offline=ready]", state="attached",
                               timeout=firstvisit.OFFLINE_TIMEOUT_MS)
        page.reload()
        page.wait_for_function(f"() => {done} !== undefined", polling=firstvisit.POLL_MS,
                               timeout=firstvisit.TIMEOUT_MS)
    result = {"done_ms": float(page.evaluate(done)), "entries": entries_of(page)}
    context.close()
    return result


def show(name: str, result: dict[str, Any]) -> None:
    print(f"{name}: done at {result['done_ms']:.0f} ms")
    print(f"  {'start':>6} {'first':>6} {'end':>6} {'kB':>7}  where   what")
    for e in result["entries"]:
        short = e["name"].split("/", 3)[-1] if "://" in e["name"] else e["name"]
        if e["type"] in ("mark", "paint"):
            print(f"  {e['start']:6.0f} {'':>6} {'':>6} {'':>7}  {e['where']:<7} [{short}]")
        else:
            kb = f"{e['bytes'] / 1000:.1f}" if e["bytes"] is not None else "?"
            first = f"{e['first']:6.0f}" if e["first"] else f"{'':>6}"
            print(f"  {e['start']:6.0f} {first} {e['end']:6.0f} {kb:>7}  {e['where']:<7} {short}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--link", default="slow", choices=list(throttle.LINKS))
    parser.add_argument("--bare", action="store_true", help="the bare loadPyodide() page too")
    parser.add_argument("--later", action="store_true",
                        help="time a later visit (a reload from the offline copy) instead")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    build = common.load_build()
    dist = common.built(build, common.dist_folder())
    rate, delay = throttle.LINKS[args.link]
    extra = {"/bench-bare.html": (web.BARE_PAGE.encode(), "text/html; charset=utf-8"),
             "/bench-bare-worker.js": (web.BARE_WORKER.encode(), "text/javascript")}
    results: dict[str, Any] = {"load_before": common.load_average()}
    with sync_playwright() as playwright:
        browser = common.launch_chromium(playwright, common.CHROMIUM_ARGS)
        for name in (["bare"] if args.bare else []) + ["first"]:
            url, _, stop = throttle.start_throttled_server(dist, rate, delay, extra)
            try:
                results[name] = visit(browser, url, name == "bare",
                                      later=args.later and name == "first")
            finally:
                stop()
        browser.close()
    results["load_after"] = common.load_average()
    if args.json:
        print(json.dumps(results, indent=1))
        return 0
    print(f"{args.link} link ({rate:g} Mbit/s, {delay:g} ms per request); load average "
          f"{results['load_before']} before, {results['load_after']} after")
    for name in ("bare", "first"):
        if name in results:
            show("later" if name == "first" and args.later else name, results[name])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
