"""The cost of refusing a later day's cards: the time of the ``import`` request in CPython.

    python3 bench/import_check.py [--runs N] [--warm N] [--source DIR ...] [--json]

``import`` checks a game file's every hand against the hands of the next 366 days' deals
(calypso_core/days.py), whose table is built at the first check of a day. Each run is a fresh
Python process that imports the engine (``calypso_core`` of this checkout, or each
``--source`` folder: say, an older checkout's, ``git archive main calypso_core | tar -x -C
DIR``) and answers ``import`` of the golden game file: the first request (the day's table
built) and the median of ``--warm`` more. With several sources the runs alternate, so load
hits all alike; each run's times are its process's CPU time, and the report gives each
source's medians and their ratios to the first source's, run by run.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import common

RUNNER = r"""
import json, statistics, sys, time
sys.path.insert(0, sys.argv[1])
from calypso_core import table
request = json.dumps({"id": 1, "type": "import", "text": open(sys.argv[2]).read()})
def timed():
    start = time.process_time()
    reply = table.handle(request)
    assert '"ok":true' in reply, reply[:300]
    return (time.process_time() - start) * 1000
first = timed()
warm = statistics.median(timed() for _ in range(int(sys.argv[3])))
print(json.dumps({"first_ms": first, "warm_ms": warm}))
"""


def run(source: Path, warm: int) -> dict[str, float]:
    """One fresh process's times for ``source`` (the folder holding ``calypso_core``)."""
    done = subprocess.run([sys.executable, "-c", RUNNER, str(source), str(common.GOLDEN_RECORD),
                           str(warm)], capture_output=True, text=True, check=True)
    times: dict[str, float] = json.loads(done.stdout)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=9, help="processes per source (9)")
    parser.add_argument("--warm", type=int, default=20, help="imports after the first (20)")
    parser.add_argument("--source", type=Path, action="append",
                        help="a folder holding calypso_core (default: this checkout)")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = parser.parse_args(argv)
    sources = args.source or [common.ROOT]
    load_before = common.load_average()
    runs: list[list[dict[str, float]]] = [[] for _ in sources]
    for _ in range(args.runs):
        for index, source in enumerate(sources):
            runs[index].append(run(source, args.warm))
    summary: dict[str, Any] = {"load": [load_before, common.load_average()], "sources": []}
    for index, source in enumerate(sources):
        entry: dict[str, Any] = {"source": str(source)}
        for key in ("first_ms", "warm_ms"):
            entry[key] = round(statistics.median(r[key] for r in runs[index]), 2)
            if index:
                entry[f"{key.removesuffix('_ms')}_ratio"] = round(statistics.median(
                    r[key] / base[key] for r, base in zip(runs[index], runs[0], strict=True)), 2)
        summary["sources"].append(entry)
    if args.json:
        print(json.dumps(summary))
        return 0
    print(f"import of the golden game file, CPU ms, medians of {args.runs} processes "
          f"(load {summary['load'][0]} -> {summary['load'][1]})")
    for entry in summary["sources"]:
        ratios = (f"  ratio to the first: first {entry['first_ratio']}x, warm "
                  f"{entry['warm_ratio']}x" if "first_ratio" in entry else "")
        print(f"  {entry['source']}: first {entry['first_ms']} ms, then {entry['warm_ms']} ms"
              f"{ratios}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
