"""How often Ctrl+C during the command line's start prints a traceback instead of one line.

    .venv/bin/python bench/ctrl_c_start.py [--tries 100] [--max-ms 500] [--seed 1] [--pyc]
                                           [--against OTHER_CHECKOUT ...]

Starts ``python -m calypso_core match --a random --b random --boards 100000`` (a command that
runs long enough for any signal to find it) ``--tries`` times and sends SIGINT to its process
group, as a terminal's Ctrl+C does, after a delay drawn at random from 0 to ``--max-ms``
milliseconds (seeded). A try ends in **one line** (``error: interrupted``, status 130:
calypso_core's handler was set), **silent** (status -2: the signal came before Python set its
own handler, and killed it as a terminal would), **traceback** (Python's ``KeyboardInterrupt``
during its start, in ``site``, ``runpy`` or the package before ``__main__`` sets the handler)
or **no end** (the signal was lost and the command went on: a second one, 10 s later, shows
what Python said of the first). The report counts them, says at which stage of the start
each traceback was raised, and gives the machine's load before and after. ``--against``
tries other checkouts (a change to compare) in turn with this one, at the same moments.

By default the run is as the tests run the command line (PYTHONDONTWRITEBYTECODE as in the
environment: here, no ``.pyc`` is kept, so the package's modules are compiled at each
start); ``--pyc`` writes and uses the ``.pyc`` files, as an installed package has them.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMAND = ["-m", "calypso_core", "match", "--a", "random", "--b", "random", "--boards", "100000"]


def ctrl_c_as_a_terminal_sends_it() -> None:
    """In the child: Ctrl+C's default action (a shell without job control ignores it)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def one_try(checkout: Path, delay: float, env: dict[str, str]) -> tuple[str, str]:
    """Interrupt one start after ``delay`` seconds: its outcome and, for a traceback, where."""
    with subprocess.Popen(
        [sys.executable, *COMMAND], cwd=checkout, env=env, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, start_new_session=True, preexec_fn=ctrl_c_as_a_terminal_sends_it,
    ) as command:  # fmt: skip
        try:
            time.sleep(delay)
            os.killpg(command.pid, signal.SIGINT)
            try:
                _, err = command.communicate(timeout=10)
            except subprocess.TimeoutExpired:
                # A second Ctrl+C says which handler it met, and where.
                masks = signals_of(command.pid)
                os.killpg(command.pid, signal.SIGINT)
                try:
                    _, err = command.communicate(timeout=10)
                except subprocess.TimeoutExpired:
                    err = b"(no end after a second Ctrl+C either)"
                said = re.sub(r"\r?\[[^\]\n]*\] \d+/\d+ boards", "", err.decode(errors="replace"))
                return "no end", (f"signal at {delay * 1000:.1f} ms; running 10 s later ({masks}); "
                                  f"a second one: status {command.returncode}, {said!r}")
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(command.pid, signal.SIGKILL)
    said = err.decode(errors="replace")
    if "Traceback" in said or "KeyboardInterrupt" in said:
        return "traceback", stage(said)
    if said.endswith("error: interrupted\n") and command.returncode == 130:
        return "one line", ""  # below the progress bar, if it was drawn
    if said == "" and command.returncode == -signal.SIGINT:
        return "silent", ""
    return "other", f"status {command.returncode}: {said[-200:]!r}"


def signals_of(pid: int) -> str:
    """The signal masks of a process (blocked, ignored, caught, pending), from /proc."""
    status = Path(f"/proc/{pid}/status").read_text().splitlines()
    return " ".join(line.replace("\t", "") for line in status
                    if line.startswith(("SigPnd", "ShdPnd", "SigBlk", "SigIgn", "SigCgt")))


def stage(said: str) -> str:
    """Where the start was when the signal came, read from its traceback's frames."""
    frames = re.findall(r'File "([^"]+)", line \d+, in (\S+)', said)
    files = [file for file, _ in frames]
    functions = {function for _, function in frames}
    if any("calypso_core" in file for file in files) or "_run_module_as_main" in functions:
        return "runpy running calypso_core, before the handler is set"
    if any(file.endswith("runpy>") for file in files):
        return "Python importing runpy"
    return "Python's start (site and its .pth files, the standard streams)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tries", type=int, default=100)
    parser.add_argument("--max-ms", type=float, default=500.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pyc", action="store_true", help="write and use .pyc files")
    parser.add_argument("--against", type=Path, action="append", default=[], metavar="CHECKOUT",
                        help="another checkout, tried in turn with this one at the same moments")
    args = parser.parse_args()
    checkouts = [ROOT, *args.against]
    env = {name: value for name, value in os.environ.items()
           if name not in ("PYTHONPATH", "PYTHONUNBUFFERED")}  # -m finds it in the checkout
    if args.pyc:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        for checkout in checkouts:  # writes the .pyc files
            subprocess.run([sys.executable, "-m", "calypso_core", "--help"], cwd=checkout,
                           env=env, stdout=subprocess.DEVNULL, check=True)
    rng = random.Random(args.seed)
    load_before = os.getloadavg()
    outcomes: dict[Path, Counter[str]] = {checkout: Counter() for checkout in checkouts}
    where: dict[Path, Counter[str]] = {checkout: Counter() for checkout in checkouts}
    for _ in range(args.tries):
        delay = rng.uniform(0, args.max_ms) / 1000
        for checkout in checkouts:  # the same moment for each, under the same load
            outcome, detail = one_try(checkout, delay, env)
            outcomes[checkout][outcome] += 1
            if detail:
                where[checkout][detail] += 1
    load_after = os.getloadavg()
    print(f"{args.tries} tries each, SIGINT at 0-{args.max_ms:g} ms (seed {args.seed}), "
          f"{'with' if args.pyc else 'without'} .pyc; load {load_before[0]:.1f} -> "
          f"{load_after[0]:.1f}")
    for checkout in checkouts:
        print(f"{checkout}:")
        for outcome in ("one line", "silent", "traceback", "no end", "other"):
            print(f"  {outcome}: {outcomes[checkout][outcome]}")
        for detail, count in where[checkout].most_common():
            print(f"    {count} x {detail}")


if __name__ == "__main__":
    main()
