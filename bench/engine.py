"""Engine speed in card plays per second, as ratios to OpenSpiel's C++ Hearts.

    python3 bench/engine.py [--seconds S] [--rounds N] [--clock cpu|wall] [--json]

Three measurements. Each round gives every path the same time (--seconds; CPU time by
default), in short turns taken in rotation, so that load on a shared machine hits all
three alike; the report gives medians over the rounds:

  api      random complete games through the public API: ``new_game(seed)``, then
           ``state.play(rng.choice(state.legal_moves()))`` until over (every check included)
  fastsim  the bots' fast path: ``Sim.clone()`` of a fresh game, then ``random_playout``
           to the end of the game (clone included)
  hearts   OpenSpiel's Hearts (C++) through its Python API, random play; chance nodes
           sampled with ``rng.choice(state.chance_outcomes())``; only player actions count

The ratios api/hearts and fastsim/hearts are the medians of the per-round ratios. OpenSpiel
is needed only here, never by the package.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

TARGETS = {"api": 2.0, "fastsim": 5.0}
INSTALL_HINT = (
    "bench/engine.py needs OpenSpiel for its reference measurement (C++ Hearts).\n"
    "Install it with:  pip install open_spiel\n"
    "(it is a benchmark-only dependency; calypso_core itself never imports it)"
)


class Measurement:
    """One measured path: runs whole games on demand, keeping its state between slices."""

    SEED = 0

    def __init__(self) -> None:
        self.rng = random.Random(self.SEED)

    def run(self, budget: float, clock: Callable[[], float]) -> tuple[int, float]:
        """Play whole games until ``budget`` seconds of ``clock`` pass: (plays, seconds)."""
        plays = 0
        start = clock()
        elapsed = 0.0
        while elapsed < budget:
            plays += self.game()
            elapsed = clock() - start
        return plays, elapsed

    def game(self) -> int:
        raise NotImplementedError


class PublicApi(Measurement):
    """(a) new_game, then play(rng.choice(legal_moves())) until over."""

    SEED = 1

    def __init__(self) -> None:
        super().__init__()
        from calypso_core import new_game

        self.new_game = new_game
        self.seed = 0

    def game(self) -> int:
        choice = self.rng.choice
        state = self.new_game(self.seed)
        self.seed += 1
        plays = 0
        while not state.is_over:
            state.play(choice(state.legal_moves()))
            plays += 1
        return plays


class FastSim(Measurement):
    """(b) Sim.clone() of a fresh game, then random_playout to the end of the game."""

    SEED = 2

    def __init__(self) -> None:
        super().__init__()
        from calypso_core import new_game
        from calypso_core.fastsim import Sim

        self.starts = [Sim.from_state(new_game(seed)) for seed in range(64)]
        self.next = 0

    def game(self) -> int:
        sim = self.starts[self.next].clone()
        self.next = (self.next + 1) % len(self.starts)
        sim.random_playout(self.rng)
        return 208


class Hearts(Measurement):
    """(c) OpenSpiel's C++ Hearts, random play; only player actions count."""

    SEED = 3

    def __init__(self) -> None:
        super().__init__()
        import pyspiel  # type: ignore[import-not-found]  # untyped, benchmark-only

        self.hearts = pyspiel.load_game("hearts")

    def game(self) -> int:
        choice = self.rng.choice
        state = self.hearts.new_initial_state()
        actions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(choice(state.chance_outcomes())[0])
            else:
                state.apply_action(choice(state.legal_actions()))
                actions += 1
        return actions


PATHS: dict[str, type[Measurement]] = {"api": PublicApi, "fastsim": FastSim, "hearts": Hearts}
SLICE = 0.05  # seconds per turn: the paths take turns this often within a round
# CPU time (the default) counts only the time this process runs, so other work on a shared
# machine slows the clock less than it slows the wall.
CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.process_time, "wall": time.perf_counter}


def run(seconds: float, rounds: int, clock_name: str, progress: bool) -> dict[str, Any]:
    """Measure every path for ``seconds`` per round, in short alternating slices."""
    clock = CLOCKS[clock_name]
    paths = {name: cls() for name, cls in PATHS.items()}
    names = list(paths)
    for path in paths.values():  # warm up: imports, tables, caches
        path.run(min(0.1, seconds), clock)
    rates: dict[str, list[float]] = {name: [] for name in names}
    for r in range(rounds):
        plays = dict.fromkeys(names, 0)
        spent = dict.fromkeys(names, 0.0)
        turn = 0
        while min(spent.values()) < seconds:
            order = names[turn % 3 :] + names[: turn % 3]
            for name in order:
                if spent[name] < seconds:
                    n, t = paths[name].run(min(SLICE, seconds - spent[name]), clock)
                    plays[name] += n
                    spent[name] += t
            turn += 1
        for name in names:
            rates[name].append(plays[name] / spent[name])
        if progress:
            line = "  ".join(f"{n} {rates[n][-1] / 1e3:7.0f}k" for n in names)
            print(f"round {r + 1}/{rounds}: {line}", file=sys.stderr, flush=True)
    ratios = {
        name: [rates[name][i] / rates["hearts"][i] for i in range(rounds)] for name in TARGETS
    }
    return {
        "seconds": seconds,
        "rounds": rounds,
        "clock": clock_name,
        "rates": {name: statistics.median(values) for name, values in rates.items()},
        "rates_per_round": rates,
        "ratios": {name: statistics.median(values) for name, values in ratios.items()},
        "ratios_per_round": ratios,
        "targets": TARGETS,
    }


def report(result: dict[str, Any]) -> str:
    rates = result["rates"]
    lines = [
        f"median of {result['rounds']} rounds of {result['seconds']:g} s per path, taking "
        f"turns every {SLICE:g} s ({result['clock']} time; card plays per second, "
        "Hearts: player actions per second)",
    ]
    labels = {
        "api": "(a) public API, random games",
        "fastsim": "(b) fastsim random_playout",
        "hearts": "(c) OpenSpiel C++ Hearts",
    }
    for name, label in labels.items():
        spread = result["rates_per_round"][name]
        lines.append(
            f"  {label:32s} {rates[name]:>12,.0f}/s   "
            f"(range {min(spread):,.0f} - {max(spread):,.0f})"
        )
    for name, target in TARGETS.items():
        ratio = result["ratios"][name]
        per_round = " ".join(f"{x:.2f}" for x in result["ratios_per_round"][name])
        verdict = "met" if ratio >= target else "NOT met"
        lines.append(
            f"  ratio ({'a' if name == 'api' else 'b'})/(c) = {ratio:5.2f}   "
            f"target >= {target:g}: {verdict}   (per round: {per_round})"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument(
        "--seconds", type=float, default=1.0, help="time per path in each round (1.0)"
    )
    parser.add_argument("--rounds", type=int, default=5, help="rounds; medians are reported (5)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="cpu",
        help="cpu: process CPU time (default; steadier on a shared machine), wall: real time",
    )
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.rounds < 1:
        parser.error("--seconds must be positive and --rounds at least 1")
    try:
        import calypso_core  # noqa: F401
    except ImportError:  # run from a checkout without PYTHONPATH
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print(INSTALL_HINT, file=sys.stderr)
        return 2
    result = run(args.seconds, args.rounds, args.clock, progress=not args.json)
    print(json.dumps(result, indent=2) if args.json else report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
