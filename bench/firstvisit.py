"""A first and a later visit through a throttled link, as ratios to a bare ``loadPyodide()``.

    .venv/bin/python bench/firstvisit.py [--rounds N] [--links slow,fast] [--json]

The site is served by bench/throttle.py: one shared link per round (slow: 10 Mbit/s and
60 ms per request; fast: 50 Mbit/s and 20 ms), gzipping what a static host gzips. On each
link every round opens, in fresh browser contexts (empty caches, no service worker) and in
alternating order:

  bare     a page whose module worker only runs ``loadPyodide()`` of the same runtime from
           the same server, with Pyodide's whole standard library, until it resolves
  first    the game's page (``?seed=bench&level=random&speed=0``) from navigation to the
           frame that first draws an enabled card of the hand: what a person waits for
           before they can play

Both are timed by the page's own clock (``performance.now()``, from navigation). On the fast
link, in the first visit's context once its service worker has cached the build:

  later    a reload of the page, to the first enabled card again

Targets: first <= 0.85 x bare on the slow link and <= 0.95 x on the fast one; later <= 0.25 x
first; a first visit's bytes <= 4.9 MB (gzipped where a host gzips). Each ratio is the median
of the rounds' ratios (a round pairs runs made one after the other, under the same load); the
report also gives the times' medians and ranges, how the runtime started (``plain`` or
``snapshot``), the bytes each visit took from the link until the hand was playable (the
offline copy's download after a first visit apart) and the CPU time the browser spent (all
its processes, from /proc on Linux), in all and by threads: the engine's worker (Python), the
pool (V8's background compiling, the .wasm's tier-up among it, and garbage collection), the
processes' main threads (the page's among them) and the rest. Timings on a shared machine
are noisy: use several rounds and note the load (printed); CPU time varies less with the load.
Builds dist/ if missing (CALYPSO_DIST names another); results also go to
bench/results/firstvisit-<time>.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import common, throttle, web  # web: its bare page

FIRST_TARGETS = {"slow": 0.85, "fast": 0.95}
LATER_TARGET = 0.25
BYTES_TARGET = 4.9e6
TIMEOUT_MS = 300_000
OFFLINE_TIMEOUT_MS = 120_000  # for the service worker to cache the build after a first visit
POLL_MS = 250  # Playwright's default polls every frame, which keeps the page drawing frames
PAGE_QUERY = "?seed=bench&level=random&speed=0"
# Notes when the hand with an enabled card is first drawn (window.__playable, ms since
# navigation): the frame after the card is enabled, since a person sees the card once the
# page has drawn it. A MutationObserver, not a requestAnimationFrame loop: polling every
# frame would keep the page drawing frames through the whole boot, a cost the bare page
# does not pay.
PLAYABLE = "[data-hand] [data-card][data-playable]:not(:disabled)"
PLAYABLE_PROBE = """
new MutationObserver((records, observer) => {
  if (document.querySelector("PLAYABLE")) {
    observer.disconnect();
    requestAnimationFrame(() => { window.__playable = performance.now(); });
  }
}).observe(document, { subtree: true, childList: true, attributes: true,
                       attributeFilter: ["disabled", "data-playable"] });
""".replace("PLAYABLE", PLAYABLE)


# What the browser's threads do, by their names in /proc (cut to 15 characters): the engine's
# worker (Python), the pool threads (V8's background work: compiling and tiering up the .wasm
# and scripts, garbage collection), each process's main thread (the page's own, the browser's,
# the GPU's) and the rest (network, compositing, the service worker).
THREAD_GROUPS = {"DedicatedWorker": "worker", "ThreadPoolForeg": "pool", "chromium": "main"}
CPU_GROUPS = (*dict.fromkeys(THREAD_GROUPS.values()), "other")


def browser_cpu() -> dict[tuple[int, int], tuple[str, float]]:
    """CPU seconds used so far by each thread of each running descendant of this process (the
    browser's processes), with the thread's group, from /proc; empty where there is no /proc."""
    parents: dict[int, int] = {}
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # ended meanwhile
        parents[int(entry.name)] = int(stat[stat.rindex(")") + 2:].split()[1])

    def descends(pid: int) -> bool:
        while pid > 1:
            pid = parents.get(pid, 0)
            if pid == os.getpid():
                return True
        return False

    cpu: dict[tuple[int, int], tuple[str, float]] = {}
    for pid in filter(descends, parents):
        for thread in Path(f"/proc/{pid}/task").glob("[0-9]*"):
            try:
                stat = (thread / "stat").read_text()
            except OSError:
                continue
            name = stat[stat.index("(") + 1:stat.rindex(")")]
            fields = stat[stat.rindex(")") + 2:].split()
            cpu[pid, int(thread.name)] = (THREAD_GROUPS.get(name, "other"),
                                          (int(fields[11]) + int(fields[12])) / tick)
    return cpu


def cpu_since(before: dict[tuple[int, int], tuple[str, float]]) -> dict[str, float]:
    """CPU seconds the browser's threads used since ``before``, by group and in all (threads
    that ended meanwhile are left out)."""
    groups = dict.fromkeys(CPU_GROUPS, 0.0)
    for key, (group, seconds) in browser_cpu().items():
        groups[group] += seconds - before.get(key, (group, 0.0))[1]
    return {**groups, "all": sum(groups.values())}


def new_context(browser: Browser) -> BrowserContext:
    return browser.new_context(viewport={"width": 1280, "height": 900})


def time_bare(browser: Browser, url: str, link: Any) -> tuple[float, dict[str, float], int]:
    """Milliseconds to a loaded runtime, the browser's CPU seconds meanwhile (by group of
    threads) and the bytes the link carried."""
    context = new_context(browser)
    page = context.new_page()
    sent = link.sent
    cpu_before = browser_cpu()
    page.goto(url + "bench-bare.html")
    page.wait_for_function("() => window.__bareReady !== undefined", polling=POLL_MS,
                           timeout=TIMEOUT_MS)
    cpu = cpu_since(cpu_before)
    ms = float(page.evaluate("window.__bareReady"))
    sent = link.sent - sent
    context.close()
    return ms, cpu, sent


def start_mode(page: Any) -> str:
    return str(page.evaluate("""async () =>
        (await (await import("./engine.js")).engine().stats()).start"""))


def time_visits(browser: Browser, url: str, link: Any, later: bool) -> dict[str, Any]:
    """The first visit in a fresh context and, if asked, a later one (a reload) once the
    service worker has cached the build; milliseconds, start modes and link bytes."""
    context = new_context(browser)
    context.add_init_script(PLAYABLE_PROBE)
    page = context.new_page()
    sent = link.sent
    cpu_before = browser_cpu()
    page.goto(url + PAGE_QUERY)
    page.wait_for_function("() => window.__playable !== undefined", polling=POLL_MS,
                           timeout=TIMEOUT_MS)
    cpu = cpu_since(cpu_before)
    result: dict[str, Any] = {"first_ms": float(page.evaluate("window.__playable")),
                              "first_cpu_s": cpu.pop("all"), "first_cpu_groups": cpu,
                              "first_bytes": link.sent - sent}
    page.wait_for_selector("html[data-engine-state=ready]", state="attached",
                           timeout=TIMEOUT_MS)
    result["first_start"] = start_mode(page)
    if later:
        sent = link.sent
        try:
            page.wait_for_selector("html[data-offline=ready]", state="attached",
                                   timeout=OFFLINE_TIMEOUT_MS)
        except PlaywrightTimeoutError:
            context.close()
            return {**result, "later_ms": None}  # counted and reported, not hidden
        result["precache_bytes"] = link.sent - sent
        sent = link.sent
        page.reload()
        page.wait_for_function("() => window.__playable !== undefined", polling=POLL_MS,
                           timeout=TIMEOUT_MS)
        result["later_ms"] = float(page.evaluate("window.__playable"))
        result["later_bytes"] = link.sent - sent
        result["later_start"] = start_mode(page)
    context.close()
    return result


def ratios(tops: list[float], bottoms: list[float]) -> dict[str, Any]:
    """Each round's ratio and their median: the rounds pair runs made one after the other,
    under the same load."""
    by_round = [t / b for t, b in zip(tops, bottoms, strict=True)]
    return {"median": round(statistics.median(by_round), 3),
            "by_round": [round(r, 3) for r in by_round]}


def spread(values: list[float]) -> dict[str, Any]:
    return {"median": round(statistics.median(values)), "min": round(min(values)),
            "max": round(max(values)), "all": [round(v) for v in values]}


def measure_link(browser: Browser, dist: Path, name: str, rounds: int) -> dict[str, Any]:
    rate, delay = throttle.LINKS[name]
    extra = {"/bench-bare.html": (web.BARE_PAGE.encode(), "text/html; charset=utf-8"),
             "/bench-bare-worker.js": (web.BARE_WORKER.encode(), "text/javascript")}
    later = name == "fast"
    bare: list[float] = []
    bare_cpu: list[dict[str, float]] = []
    bare_bytes: list[int] = []
    visits: list[dict[str, Any]] = []
    for number in range(rounds):
        # A new server and link each round: nothing carries over between rounds.
        url, link, stop = throttle.start_throttled_server(dist, rate, delay, extra)
        try:
            if number % 2:
                visits.append(time_visits(browser, url, link, later))
                ms, cpu, sent = time_bare(browser, url, link)
            else:
                ms, cpu, sent = time_bare(browser, url, link)
                visits.append(time_visits(browser, url, link, later))
            bare.append(ms)
            bare_cpu.append(cpu)
            bare_bytes.append(sent)
        finally:
            stop()
        print(f"{name} round {number + 1}/{rounds}: bare {bare[-1]:.0f} ms {cpu['all']:.2f} "
              "cpu_s, " + ", ".join(f"{k} {v:.5g}" if isinstance(v, int | float) else f"{k} {v}"
                                    for k, v in visits[-1].items() if k != "first_cpu_groups"),
              file=sys.stderr, flush=True)
    first = [v["first_ms"] for v in visits]
    report: dict[str, Any] = {
        "rate_mbit": rate, "delay_ms": delay,
        "bare_ms": spread(bare), "first_ms": spread(first),
        "first_to_bare": ratios(first, bare),
        "first_start": sorted({v["first_start"] for v in visits}),
        "bare_cpu_s": round(statistics.median(c["all"] for c in bare_cpu), 2),
        "first_cpu_s": round(statistics.median(v["first_cpu_s"] for v in visits), 2),
        "bare_cpu_groups": {group: round(statistics.median(c[group] for c in bare_cpu), 2)
                            for group in CPU_GROUPS},
        "first_cpu_groups": {group: round(statistics.median(v["first_cpu_groups"][group]
                                                            for v in visits), 2)
                             for group in CPU_GROUPS},
        "first_bytes": round(statistics.median(v["first_bytes"] for v in visits)),
        "bare_bytes": round(statistics.median(bare_bytes)),
    }
    cached = [v for v in visits if v.get("later_ms") is not None]
    if later:
        report["offline_copy_missing"] = len(visits) - len(cached)
    if cached:
        later_ms = [v["later_ms"] for v in cached]
        report.update({
            "later_ms": spread(later_ms),
            "later_to_first": ratios(later_ms, [v["first_ms"] for v in cached]),
            "later_start": sorted({v["later_start"] for v in cached}),
            "precache_bytes": round(statistics.median(v["precache_bytes"] for v in cached)),
            "later_bytes": round(statistics.median(v["later_bytes"] for v in cached)),
        })
    return report


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=10, help="rounds per link (default 10)")
    parser.add_argument("--links", default="slow,fast",
                        help=f"comma-separated, of {', '.join(throttle.LINKS)}")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    links = args.links.split(",")
    if unknown := [name for name in links if name not in throttle.LINKS]:
        parser.error(f"unknown link {', '.join(unknown)}; known: {', '.join(throttle.LINKS)}")

    build = common.load_build()
    dist = common.built(build, common.dist_folder())
    report: dict[str, Any] = {"when": time.strftime("%Y-%m-%dT%H:%M:%S"),
                              "build": common.build_id(build, dist),
                              "load_before": common.load_average()}
    with sync_playwright() as playwright:
        browser = common.launch_chromium(playwright, common.CHROMIUM_ARGS)
        for name in links:
            report[name] = measure_link(browser, dist, name, args.rounds)
        browser.close()
    report["load_after"] = common.load_average()

    common.save_results("firstvisit", json.dumps(report, indent=1) + "\n")
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    mb = 1e6
    print(f"build {report['build']}; load average {report['load_before']} before, "
          f"{report['load_after']} after")
    for name in links:
        r = report[name]
        def show(key: str, r: dict[str, Any] = r) -> str:
            s = r[key]
            return f"{s['median']} ms ({s['min']}-{s['max']})"
        print(f"{name} link ({r['rate_mbit']:g} Mbit/s, {r['delay_ms']:g} ms per request), "
              f"{len(r['bare_ms']['all'])} rounds:")
        print(f"  first visit / bare loadPyodide = {r['first_to_bare']['median']:.2f}  (target <= "
              f"{FIRST_TARGETS.get(name, '-')}; median of the rounds' ratios "
              f"{r['first_to_bare']['by_round']})")
        print(f"    first visit {show('first_ms')}, bare loadPyodide {show('bare_ms')} "
              f"(medians, ranges); started {', '.join(r['first_start'])}; "
              f"{r['first_bytes'] / mb:.2f} MB over the link (target <= {BYTES_TARGET / mb:g}), "
              f"bare {r['bare_bytes'] / mb:.2f} MB")
        print(f"  browser CPU time: first visit {r['first_cpu_s']:.2f} s, bare loadPyodide "
              f"{r['bare_cpu_s']:.2f} s (medians); by threads, first / bare: "
              + ", ".join(f"{group} {r['first_cpu_groups'][group]:.2f} / "
                          f"{r['bare_cpu_groups'][group]:.2f}" for group in CPU_GROUPS))
        if "later_ms" in r:
            print(f"  later visit / first visit = {r['later_to_first']['median']:.2f}  (target <= "
                  f"{LATER_TARGET}; median of {r['later_to_first']['by_round']})")
            print(f"    later visit {show('later_ms')}; started {', '.join(r['later_start'])}; "
                  f"{r['later_bytes'] / mb:.2f} MB over the link; the offline copy took "
                  f"{r['precache_bytes'] / mb:.2f} MB after the first visit")
        if r.get("offline_copy_missing"):
            print(f"  in {r['offline_copy_missing']} rounds the service worker had not cached "
                  f"the build {OFFLINE_TIMEOUT_MS // 1000} s after the first visit: no later "
                  f"visit measured")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
