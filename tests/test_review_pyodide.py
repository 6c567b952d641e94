"""The review gives the same numbers in CPython and in Pyodide (under Node, no browser)."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

from pyodide_node import engine_wheel, run_in_pyodide

from calypso_core import parse_record
from calypso_core.bots.review import review_game

RECORD = Path(__file__).parent / "golden" / "standard-seed-2024.record.json"
BUDGET = 150

REVIEW = """
import json
from calypso_core import parse_record
from calypso_core.bots.review import review_game

state = parse_record({record!r})
print(json.dumps(review_game(state, 2, budget={budget}, seed="same").to_json()))
"""


def test_a_review_gives_the_same_numbers_in_cpython_and_pyodide(
    build_module: ModuleType, dist_dir: Path, tmp_path: Path
) -> None:
    text = RECORD.read_text()
    code = REVIEW.format(record=text, budget=BUDGET)
    in_pyodide = json.loads(
        run_in_pyodide(code, build_module.fetch_pyodide(), engine_wheel(dist_dir), tmp_path)
    )
    in_cpython = review_game(parse_record(text), 2, budget=BUDGET, seed="same").to_json()
    assert len(in_cpython["moves"]) == 52
    assert sum(not m["forced"] for m in in_cpython["moves"]) > 30
    assert in_pyodide == in_cpython
