"""Thinking time of a search level, in CPython or in Pyodide (headless Chromium).

    python3 bench/search_speed.py [--level master] [--iterations N] [--time-limit S|none]
                                  [--drops on|off] [--pyodide] [--tree PATH] [--compare PATH]
                                  [--json]

The positions: every seventh decision with more than one legal card in four club self-play
games (seeds 1000-1003), 91 positions spread over the tricks of all four deals, made by this
checkout. Each is searched once by a fresh bot of the level, seeded by the position's index,
with the level's budget and clock cap unless given. The report: time a move (p50, p95, mean,
max, measured around ``search`` in the runtime itself) and how many moves took longer than
the clock cap, playouts a second, and the iterations spent (p10, p50, p90).

``--tree PATH`` measures another checkout's ``calypso_core`` on the same positions (a
worktree of an older commit, say). ``--compare PATH`` measures a second checkout in the same
process, the two taking turns position by position, so that load on a shared machine hits
both alike; the report then gives the ratio of their times. ``--drops off`` turns the
master's early drops off
(``MasterBot.DROP_Z = None``: the search of the code before them, move for move).
``--pyodide`` runs the search in Pyodide in a module worker in headless Chromium, as the
page does (the pinned runtime from build.py's cache; Chromium from CALYPSO_CHROMIUM or the
PATH; Playwright).
"""

from __future__ import annotations

import argparse
import io
import json
import random
import statistics
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import ROOT, launch_chromium, load_build

# Runs in the measured runtime: POSITIONS and OPTIONS (JSON texts) are set before it, and
# each measured calypso_core is importable as measured_0, measured_1.
RUNNER = """
import importlib, json, random, time
OPTIONS = json.loads(OPTIONS)
settings = {k: OPTIONS[k] for k in ("iterations", "time_limit") if OPTIONS[k] != "default"}
names = [f"measured_{i}" for i in range(OPTIONS["trees"])]
makers = {}
for name in names:
    search = importlib.import_module(name + ".bots.search")
    if OPTIONS["drops"] == "off":
        search.MasterBot.DROP_Z = None
    makers[name] = (importlib.import_module(name + ".bots").make_bot,
                    importlib.import_module(name + ".bots.knowledge").Knowledge)
rows = {name: [] for name in names}
for i, p in enumerate(json.loads(POSITIONS)):
    for name in names if i % 2 == 0 else names[::-1]:
        make_bot, Knowledge = makers[name]
        bot = make_bot(OPTIONS["level"], p["seat"], random.Random(i), **settings)
        start = time.perf_counter()
        result = bot.search(Knowledge(p["observation"]), p["legal"])
        rows[name].append([time.perf_counter() - start, result.iterations, result.best])
RESULT = json.dumps([rows[name] for name in names])
RESULT
"""
PAGE = """<!doctype html><meta charset="utf-8"><title>search speed</title>
<link rel="icon" href="data:,">
<script type="module">
  const worker = new Worker(new URL("./worker.js", location.href), {type: "module"});
  worker.onmessage = (event) => { window.__result = event.data; };
</script>"""
WORKER = """
const { loadPyodide } = await import(new URL("./pyodide/pyodide.mjs", location.href).href);
const py = await loadPyodide({ indexURL: new URL("./pyodide/", location.href).href });
try {
  const engine = await (await fetch("./engine.zip")).arrayBuffer();
  py.unpackArchive(engine, "zip", { extractDir: "/engine" });
  py.runPython("import importlib; importlib.invalidate_caches()");
  py.globals.set("POSITIONS", await (await fetch("./positions.json")).text());
  py.globals.set("OPTIONS", await (await fetch("./options.json")).text());
  const runner = await (await fetch("./runner.py")).text();
  const path = "import sys\\nsys.path.insert(0, '/engine')\\n";
  postMessage({ ok: true, rows: py.runPython(path + runner) });
} catch (error) {
  postMessage({ ok: false, error: String(error) });
}
"""


def positions() -> list[dict[str, Any]]:
    """Every seventh decision with a choice in four club self-play games."""
    from calypso_core import new_game
    from calypso_core.bots import make_bot

    found = []
    for game in range(4):
        state = new_game(1000 + game)
        bots = [make_bot("club", seat, random.Random(seat)) for seat in range(4)]
        choices = 0
        while not state.is_over:
            seat = state.to_move
            legal = state.legal_moves()
            if len(legal) > 1:
                if choices % 7 == game % 7:
                    found.append({"seat": seat, "observation": state.observation(seat),
                                  "legal": [int(card) for card in legal]})  # fmt: skip
                choices += 1
            state.play(bots[seat].choose(state.observation(seat), legal))
    return found


def engine_zip(trees: list[Path]) -> bytes:
    """The trees' calypso_core packages, as measured_0, measured_1, ..."""
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as archive:
        for i, tree in enumerate(trees):
            package = tree / "calypso_core"
            for path in sorted(package.rglob("*.py")):
                archive.write(path, f"measured_{i}/{path.relative_to(package).as_posix()}")
    return data.getvalue()


def run_cpython(trees: list[Path], found: list[dict[str, Any]], options: dict[str, Any]) -> Any:
    with tempfile.TemporaryDirectory() as folder:
        with zipfile.ZipFile(io.BytesIO(engine_zip(trees))) as archive:
            archive.extractall(folder)
        code = (f"import sys; sys.path.insert(0, {folder!r})\n"
                f"POSITIONS = {json.dumps(json.dumps(found))}\n"
                f"OPTIONS = {json.dumps(json.dumps(options))}\n"
                f"{RUNNER}\nprint(RESULT)\n")  # fmt: skip
        done = subprocess.run([sys.executable, "-"], input=code, check=True,
                              capture_output=True, text=True, cwd=folder)  # fmt: skip
    return json.loads(done.stdout)


def run_pyodide(trees: list[Path], found: list[dict[str, Any]], options: dict[str, Any]) -> Any:
    from playwright.sync_api import sync_playwright

    build = load_build()
    runtime = build.fetch_pyodide()
    with tempfile.TemporaryDirectory() as folder:
        site = Path(folder)
        (site / "pyodide").symlink_to(runtime, target_is_directory=True)
        (site / "index.html").write_text(PAGE, encoding="utf-8")
        (site / "worker.js").write_text(WORKER, encoding="utf-8")
        (site / "runner.py").write_text(RUNNER, encoding="utf-8")
        (site / "positions.json").write_text(json.dumps(found), encoding="utf-8")
        (site / "options.json").write_text(json.dumps(options), encoding="utf-8")
        (site / "engine.zip").write_bytes(engine_zip(trees))
        url, stop = build.start_server(site)
        try:
            with sync_playwright() as playwright:
                browser = launch_chromium(playwright, ["--no-sandbox", "--disable-gpu"])
                page = browser.new_page()
                page.goto(url + "index.html")
                page.wait_for_function("() => window.__result !== undefined",
                                       timeout=3_600_000, polling=500)  # fmt: skip
                result = page.evaluate("window.__result")
                browser.close()
        finally:
            stop()
    if not result["ok"]:
        raise SystemExit(f"bench/search_speed.py: the search failed in Pyodide: {result['error']}")
    return json.loads(result["rows"])


def summary(rows: list[list[Any]], cap: float | None) -> dict[str, Any]:
    times = sorted(row[0] for row in rows)
    iterations = sorted(row[1] for row in rows)

    def at(values: list[Any], q: float) -> Any:
        return values[min(len(values) - 1, int(q * len(values)))]

    ms = {"p50": round(1000 * statistics.median(times)), "p95": round(1000 * at(times, 0.95)),
          "mean": round(1000 * statistics.fmean(times)),
          "max": round(1000 * times[-1])}  # fmt: skip
    spent = {"p10": at(iterations, 0.1), "p50": at(iterations, 0.5), "p90": at(iterations, 0.9)}
    return {
        "moves": len(rows),
        "ms": ms,
        "playouts_per_s": round(sum(iterations) / sum(times)),
        "iterations": spent,
        "over_cap": None if cap is None else sum(t > cap for t in times),
        "best": [row[2] for row in rows],
    }


def over_cap(moves: int | None, cap: float | None) -> str:
    return "" if cap is None else f" ({moves} over the {cap:g} s cap)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="master", choices=("expert", "master", "cheater"))
    parser.add_argument("--iterations", type=int, help="search budget (default: the level's)")
    parser.add_argument("--time-limit", help="clock cap in seconds, or none (default: the level's)")
    parser.add_argument("--drops", choices=("on", "off"), default="on")
    parser.add_argument("--pyodide", action="store_true", help="in Pyodide in headless Chromium")
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout to measure")
    parser.add_argument("--compare", type=Path, help="a second checkout, measured in turns")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    trees = [args.tree] if args.compare is None else [args.tree, args.compare]
    for tree in trees:
        if not (tree / "calypso_core").is_dir():
            parser.error(f"{tree}: no calypso_core there")
    limit: Any = "default"
    if args.time_limit is not None:
        limit = None if args.time_limit == "none" else float(args.time_limit)
    options = {"level": args.level, "iterations": args.iterations or "default",
               "time_limit": limit, "drops": args.drops, "trees": len(trees)}  # fmt: skip
    from calypso_core.bots import make_bot

    cap = make_bot(args.level, 0, random.Random(0)).time_limit if limit == "default" else limit
    found = positions()
    measured = (run_pyodide if args.pyodide else run_cpython)(trees, found, options)
    runtime = "pyodide" if args.pyodide else "cpython"
    results = [{"runtime": runtime, "tree": str(tree), **options, **summary(rows, cap)}
               for tree, rows in zip(trees, measured, strict=True)]  # fmt: skip
    if len(results) == 2:
        ratio = results[1]["ms"]["mean"] / max(1, results[0]["ms"]["mean"])
        results[0]["time_ratio_of_compare"] = round(ratio, 2)
    if args.json:
        print(json.dumps(results))
        return 0
    for result in results:
        ms, its = result["ms"], result["iterations"]
        print(f"{args.level} in {runtime} ({result['tree']}), {result['moves']} moves: "
              f"p50 {ms['p50']} ms, p95 {ms['p95']} ms, mean {ms['mean']} ms, "
              f"max {ms['max']} ms{over_cap(result['over_cap'], cap)}; "
              f"{result['playouts_per_s']:,} playouts/s; iterations p10 {its['p10']}, "
              f"p50 {its['p50']}, p90 {its['p90']}")  # fmt: skip
    if len(results) == 2:
        print(f"mean time of the second / the first: {results[0]['time_ratio_of_compare']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
