"""The engine's start in Pyodide under Node: CPU time of the table's import and first deal.

    python3 bench/engine_start.py [--runs N] [--source DIR ...] [--json]

What a first visit's worker does once Python is up, without a browser: the engine's files
(``calypso_core`` of this checkout, or each ``--source`` folder, as the worker writes the
wheel's into site-packages, with no bytecode cache) are imported from source, then ``hello``
and ``new_game`` are answered. Each run is a fresh Node process; the times are the process's
CPU time (``process.cpuUsage``: Python's thread and V8's, as a busy machine shares them) and
the medians over the runs. With several sources the runs alternate, so load hits all alike.
Also prints how many engine modules the first deal left imported.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import common

RUNNER = r"""
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
const [runtime, source] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${runtime}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${runtime}/` });
const site = "/home/pyodide/site";
function copy(folder, to) {
  pyodide.FS.mkdirTree(to);
  for (const name of fs.readdirSync(folder)) {
    const from = path.join(folder, name);
    if (name === "__pycache__") continue;
    if (fs.statSync(from).isDirectory()) copy(from, `${to}/${name}`);
    else pyodide.FS.writeFile(`${to}/${name}`, fs.readFileSync(from));
  }
}
copy(source, `${site}/calypso_core`);
pyodide.runPython(`import sys\nsys.dont_write_bytecode = True\nsys.path.insert(0, "${site}")`);
const cpu = () => { const used = process.cpuUsage(); return (used.user + used.system) / 1000; };
const t0 = cpu();
pyodide.runPython("import calypso_core.table as table");
const t1 = cpu();
pyodide.runPython(`
for request in ('{"id":1,"type":"hello"}', '{"id":2,"type":"new_game","today":"2026-12-02"}'):
    assert '"ok":true' in table.handle(request), request
`);
const t2 = cpu();
const modules = pyodide.runPython(
  "len([name for name in sys.modules if name.startswith('calypso_core')])");
console.log(JSON.stringify({ import_ms: t1 - t0, deal_ms: t2 - t1, modules }));
"""


def run_once(node: str, runtime: Path, source: Path) -> dict[str, Any]:
    done = subprocess.run([node, "--input-type=module", "-", str(runtime), str(source)],
                          input=RUNNER, capture_output=True, text=True, timeout=300,
                          check=False)  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"node failed:\n{done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per source (default 5)")
    parser.add_argument("--source", type=Path, action="append",
                        help="a calypso_core folder (default: this checkout's)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    node = shutil.which("node") or shutil.which("nodejs")
    if not node:
        raise SystemExit("bench/engine_start.py needs Node.js")
    runtime = common.load_build().fetch_pyodide()
    sources: list[Path] = args.source or [common.ROOT / "calypso_core"]
    runs: dict[Path, list[dict[str, Any]]] = {source: [] for source in sources}
    for _ in range(args.runs):
        for source in sources:
            runs[source].append(run_once(node, runtime, source))
    results = {str(source): {
        "import_ms": round(statistics.median(r["import_ms"] for r in done)),
        "deal_ms": round(statistics.median(r["deal_ms"] for r in done)),
        "modules": done[-1]["modules"], "runs": len(done),
    } for source, done in runs.items()}  # fmt: skip
    load = common.load_average()
    if args.json:
        print(json.dumps({"load": load, "results": results}, indent=2))
        return 0
    print(f"load {load}; CPU ms, medians of {args.runs} runs:")
    for name, result in results.items():
        print(f"  {name}: import calypso_core.table {result['import_ms']} ms, hello + "
              f"new_game {result['deal_ms']} ms, {result['modules']} engine modules")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
