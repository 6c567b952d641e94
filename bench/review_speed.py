"""How long a review takes: one deal's cards in CPython and in Pyodide under Node, same run.

    python3 bench/review_speed.py [--budget N] [--deals 1] [--record FILE] [--seat S]

Reviews South's cards of the first ``--deals`` deals of a record (the golden standard game
by default) at the review budget in CPython, then the same in Pyodide under Node with the
engine wheel of dist/ (built if missing), and prints both times and their ratio. Node runs
pure Python 2-3x slower than CPython here and Chromium 1.1-2.2x (platform notes), so the
Node time is a pessimistic estimate of the page's. Needs Node.js.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from pyodide_node import engine_wheel, run_in_pyodide

from calypso_core import new_game, parse_record, to_record
from calypso_core.bots.review import REVIEW_ITERATIONS, review_game

ROOT = Path(__file__).resolve().parents[1]
TIMED = """
import json, time
from calypso_core import parse_record
from calypso_core.bots.review import review_game

state = parse_record({record!r})
start = time.perf_counter()
review = review_game(state, {seat}, budget={budget}, seed=0)
print(json.dumps({{"seconds": time.perf_counter() - start, "cost": review.total_cost}}))
"""


def load_build() -> object:
    spec = importlib.util.spec_from_file_location("calypso_build", ROOT / "build.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=REVIEW_ITERATIONS)
    parser.add_argument("--deals", type=int, default=1)
    parser.add_argument("--record", type=Path,
                        default=ROOT / "tests" / "golden" / "standard-seed-2024.record.json")
    parser.add_argument("--seat", type=int, default=2)
    args = parser.parse_args()
    full = parse_record(args.record.read_text())
    cut = new_game(rules=full.rules, suits=full.suits, first_dealer=full.first_dealer,
                   deck=full.deck)
    for card in full.plays[: 52 * args.deals]:
        cut.play(card)
    record = json.dumps(to_record(cut))
    start = time.perf_counter()
    review = review_game(parse_record(record), args.seat, budget=args.budget, seed=0)
    cpython = time.perf_counter() - start
    build = load_build()
    dist = ROOT / "dist"
    if not (dist / build.MANIFEST).is_file():  # type: ignore[attr-defined]
        build.build(dist)  # type: ignore[attr-defined]
    with tempfile.TemporaryDirectory() as folder:
        code = TIMED.format(record=record, seat=args.seat, budget=args.budget)
        out = run_in_pyodide(code, build.fetch_pyodide(),  # type: ignore[attr-defined]
                             engine_wheel(dist), Path(folder), timeout=3600)
    pyodide = json.loads(out)
    assert pyodide["cost"] == review.total_cost, "the two runtimes disagree"
    print(json.dumps({
        "budget": args.budget, "deals": args.deals, "cards": len(review.moves),
        "searched": sum(not m.forced for m in review.moves),
        "cpython_s": round(cpython, 2), "pyodide_node_s": round(pyodide["seconds"], 2),
        "ratio": round(pyodide["seconds"] / cpython, 2),
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
