"""A game's first deal imports only what it uses; the rest loads at its first request.

The page imports the engine from source on a first visit, so every module the first deal
imports is compiled while a person waits (README, Start-up). The review, the rerun, the
work ahead, a guest's seat and the duplicate match load when first asked for
(table/transport.py, table/session.py, bots/__init__.py); the later visit's snapshot
imports them all the same (buildsteps/snapshot.py), so a later visit compiles none.
Each check runs in a fresh interpreter: the test process has imported everything.
"""

from __future__ import annotations

import datetime
import json
import subprocess
import sys
from pathlib import Path

from buildsteps.snapshot import SNAPSHOT_MODULES

# The page sends the person's date; the UTC date is somebody's today at any moment (a fixed
# date here failed two days after it was written: bad_date).
UTC_TODAY = datetime.datetime.now(datetime.UTC).date().isoformat()

ROOT = Path(__file__).resolve().parent.parent
LOADED_ON_FIRST_USE = [
    "calypso_core.table.ahead", "calypso_core.table.jobs", "calypso_core.table.rerun",
    "calypso_core.table.reviews", "calypso_core.table.remote", "calypso_core.table.fair",
    "calypso_core.bots.review", "calypso_core.bots.duplicate", "calypso_core.bots.search",
    "calypso_core.fastsim", "calypso_core.table.puzzles", "calypso_core.bots.puzzles",
    "calypso_core.glicko",
]  # fmt: skip


def modules_after(code: str) -> set[str]:
    """The calypso_core modules a fresh interpreter holds after running ``code``."""
    done = subprocess.run(
        [sys.executable, "-c", code + "\nimport sys, json\n"
         "print(json.dumps([m for m in sys.modules if m.startswith('calypso_core')]))"],
        capture_output=True, text=True, check=True, timeout=120, cwd=ROOT,
    )  # fmt: skip
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_the_first_deal_loads_no_review_rerun_work_ahead_or_guest_module() -> None:
    first_deal = [json.dumps({"id": n, **request}) for n, request in enumerate([
        {"type": "hello"}, {"type": "new_game", "seed": "s", "today": UTC_TODAY},
        {"type": "step"}, {"type": "aids"}])]  # fmt: skip
    loaded = modules_after(
        "import calypso_core.table as table\n"
        f"for request in {first_deal!r}:\n"
        "    assert '\"ok\":true' in table.handle(request), request\n")
    assert "calypso_core.table.playing" in loaded  # the check can see a loaded module
    assert sorted(loaded & set(LOADED_ON_FIRST_USE)) == []


def test_a_request_loads_its_module_at_first_use() -> None:
    loaded = modules_after(
        "import calypso_core.table as table\n"
        "table.handle('{\"id\":1,\"type\":\"new_game\",\"seed\":\"s\"}')\n"
        "assert '\"ok\":true' in table.handle('{\"id\":2,\"type\":\"work\",\"ms\":1}')\n")
    assert {"calypso_core.table.reviews", "calypso_core.table.ahead",
            "calypso_core.table.jobs", "calypso_core.bots.review"} <= loaded
    puzzles = modules_after(
        "import calypso_core.table as table\n"
        "assert 'no_puzzle' in table.handle('{\"id\":1,\"type\":\"puzzle_step\"}')\n")
    assert {"calypso_core.table.puzzles", "calypso_core.bots.puzzles",
            "calypso_core.glicko"} <= puzzles


def test_the_snapshot_holds_every_module_the_page_loads_later() -> None:
    engine = [name for name in SNAPSHOT_MODULES if name.startswith("calypso_core")]
    loaded = modules_after(f"import {', '.join(engine)}")
    page_later = set(LOADED_ON_FIRST_USE) - {"calypso_core.bots.duplicate"}  # the CLI's only
    assert sorted(page_later - loaded) == []
