"""How long a review takes: one deal's cards in CPython and in Pyodide under Node, same run.

    python3 bench/review_speed.py [--budget N] [--deals 1] [--record FILE] [--seat S]

Reviews South's cards of the first ``--deals`` deals of a record (the golden standard game
by default) at the review budget in CPython, then the same in Pyodide under Node with the
engine wheel of dist/ (built if missing), and prints both times deal by deal and their
ratio. Node runs pure Python 2-3x slower than CPython here and Chromium 1.1-2.2x (platform
notes), so the Node time is a pessimistic estimate of the page's. Needs Node.js.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from pyodide_node import engine_wheel, run_in_pyodide

from bench.common import GOLDEN_RECORD, ROOT, built, load_build
from calypso_core import new_game, parse_record, to_record
from calypso_core.bots.review import REVIEW_ITERATIONS

TIMED = """
import json, time
from calypso_core import parse_record
from calypso_core.bots.review import iter_review

def timed(state, seat, budget):
    seconds = [0.0, 0.0, 0.0, 0.0]
    cost = 0
    start = time.perf_counter()
    for move in iter_review(state, seat, budget=budget, seed=0):
        now = time.perf_counter()
        seconds[move.deal] += now - start
        start = now
        cost += move.cost
    return {"seconds": seconds, "cost": cost}

if __name__ == "__main__":
    print(json.dumps(timed(parse_record(RECORD), SEAT, BUDGET)))
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=REVIEW_ITERATIONS)
    parser.add_argument("--deals", type=int, default=1)
    parser.add_argument("--record", type=Path, default=GOLDEN_RECORD)
    parser.add_argument("--seat", type=int, default=2)
    args = parser.parse_args()
    full = parse_record(args.record.read_text())
    cut = new_game(rules=full.rules, suits=full.suits, first_dealer=full.first_dealer,
                   deck=full.deck)
    for card in full.plays[: 52 * args.deals]:
        cut.play(card)
    record = json.dumps(to_record(cut))
    namespace: dict[str, Any] = {"__name__": "timing"}
    exec(TIMED, namespace)
    cpython = namespace["timed"](parse_record(record), args.seat, args.budget)
    build = load_build()
    dist = built(build, ROOT / "dist")
    with tempfile.TemporaryDirectory() as folder:
        code = f"RECORD = {record!r}\nSEAT = {args.seat}\nBUDGET = {args.budget}\n{TIMED}"
        out = run_in_pyodide(code, build.fetch_pyodide(), engine_wheel(dist), Path(folder),
                             timeout=3600)
    pyodide = json.loads(out)
    assert pyodide["cost"] == cpython["cost"], "the two runtimes disagree"
    deals = slice(0, args.deals)
    print(json.dumps({
        "budget": args.budget, "deals": args.deals,
        "cpython_s": [round(t, 1) for t in cpython["seconds"][deals]],
        "pyodide_node_s": [round(t, 1) for t in pyodide["seconds"][deals]],
        "ratio": round(sum(pyodide["seconds"]) / sum(cpython["seconds"]), 2),
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
