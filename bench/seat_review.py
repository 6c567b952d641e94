"""A guest's review in the host's worker (calypso_core/table/seat_reviews.py): how long each
of a guest's ``review_next`` keeps the worker (the table's requests wait for one at most) against a
card's review in one request (``review_next``, this device's review), in CPython.

    .venv/bin/python bench/seat_review.py [--seed S] [--budget N]

A game with the host in South and a guest in North, every card random, is played to its end;
then the guest's whole game is reviewed slice by slice, and the same seat's cards by
``review_next`` at another review seed (so that no card is found remembered). Prints the
requests' p50, p95 and max in ms and the whole review's time, and their ratio.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calypso_core import table
from calypso_core.bots import REVIEW_ITERATIONS

HOST, GUEST = 2, 0


def ask(kind: str, **payload: Any) -> Any:
    reply = json.loads(table.handle(json.dumps({"id": 1, "type": kind, **payload})))
    assert reply["ok"], reply
    return reply["result"]


def finished_game(seed: str) -> None:
    rng = random.Random(seed)
    people = [{"seat": HOST, "name": "Ana"}, {"seat": GUEST, "name": "Ben", "remote": True}]
    view = ask("new_game", seed=seed, people=people, level="random")
    while view["status"] != "game_over":
        if view["status"] == "your_turn":
            view = ask("play", card=rng.choice(view["legal"]))
        elif view["to_move"] == GUEST:
            view = ask("play", guest=GUEST, card=rng.choice(view["guests"][GUEST]["legal"]))
        else:
            view = ask("step")


def timed(kind: str, start: dict[str, Any], **payload: Any) -> tuple[list[float], float]:
    """Every request's ms until the job is finished, and the whole time in s."""
    times, begun = [], time.perf_counter()
    while True:
        at = time.perf_counter()
        reply = ask(kind, job=start["job"], **payload)
        times.append((time.perf_counter() - at) * 1000)
        if reply["finished"]:
            return times, time.perf_counter() - begun


def line(name: str, times: list[float], total: float) -> str:
    p95 = statistics.quantiles(times, n=20)[-1]
    return (f"{name}: {len(times)} requests, p50 {statistics.median(times):.0f} ms, "
            f"p95 {p95:.0f} ms, max {max(times):.0f} ms; whole review {total:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", default="bench-seat-review")
    parser.add_argument("--budget", type=int, default=REVIEW_ITERATIONS)
    args = parser.parse_args()
    finished_game(args.seed)
    sliced, sliced_s = timed("review_next",
                             ask("review", guest=GUEST, budget=args.budget), guest=GUEST)
    whole, whole_s = timed("review_next",
                           ask("review", seat=GUEST, budget=args.budget, seed="other"))
    print(line("a guest's review (review_next for its seat)", sliced, sliced_s))
    print(line("this device's review (review_next)", whole, whole_s))
    print(f"longest request, sliced / whole card: {max(sliced) / max(whole):.2f}; "
          f"whole review, sliced / whole cards: {sliced_s / whole_s:.2f}")


if __name__ == "__main__":
    main()
