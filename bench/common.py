"""What the benchmarks share: the checkout, build.py and its dist/, and headless Chromium.

A script in bench/ runs as ``python3 bench/<name>.py`` (or is loaded by path from a test): it
puts the checkout on ``sys.path`` and imports this module as ``bench.common``.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import shutil
import statistics
import time
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Playwright

ROOT = Path(__file__).resolve().parents[1]
GOLDEN_RECORD = ROOT / "tests" / "golden" / "standard-seed-2024.record.json"
RESULTS = ROOT / "bench" / "results"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update"]


def load_module(name: str, path: Path) -> ModuleType:
    """The Python file at path, run as a module of that name."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_build() -> ModuleType:
    """build.py, loaded by path: "build" would clash with the PyPA package of that name."""
    return load_module("calypso_build", ROOT / "build.py")


def dist_folder() -> Path:
    """The built site: CALYPSO_DIST, or dist/."""
    return Path(os.environ.get("CALYPSO_DIST") or ROOT / "dist")


def built(build: ModuleType, dist: Path) -> Path:
    """dist, built first by build.py if it holds no build."""
    if not (dist / build.MANIFEST).is_file():
        build.build(dist)
    return dist


def build_id(build: ModuleType, dist: Path) -> Any:
    """The build's identity, as its manifest names it."""
    return json.loads((dist / build.MANIFEST).read_text())["build"]


def load_average() -> list[float]:
    """The machine's load averages (1, 5, 15 minutes), to two places."""
    return [round(x, 2) for x in os.getloadavg()]


def launch_chromium(playwright: Playwright, args: list[str]) -> Browser:
    """Headless Chromium: CALYPSO_CHROMIUM, or ``chromium`` on the PATH, or Playwright's own."""
    executable = os.environ.get("CALYPSO_CHROMIUM") or shutil.which("chromium") or None
    return playwright.chromium.launch(executable_path=executable, headless=True, args=args)


def save_results(name: str, text: str) -> None:
    """Keep a run's results as bench/results/<name>-<time>.json."""
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{name}-{time.strftime('%Y%m%d-%H%M%S')}.json").write_text(text)


def finished_lines(log: Path, mend: bool = True) -> tuple[list[str], bool]:
    """The lines of the JSON-lines ``log`` that a run finished writing (none if there is no
    log), and whether a last one was left out: a line without its newline was cut short by a
    kill, or is being written by a run still playing. With ``mend`` it is dropped from the
    file, so that a resumed run appends after whole lines."""
    if not log.exists():
        return [], False
    text = log.read_text(encoding="utf-8")
    cut = bool(text) and not text.endswith("\n")
    if cut:
        text = text[: text.rfind("\n") + 1]
        if mend:
            log.write_text(text, encoding="utf-8")
    return text.splitlines(), cut


def mean_interval(values: list[float]) -> tuple[float, float]:
    """The mean of ``values`` and the half-width of its 95% interval (1.96 standard errors;
    infinite with fewer than two values)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.inf
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def append_line(log: Path, row: dict[str, Any]) -> None:
    """Append one finished row to the JSON-lines ``log`` (read back by ``finished_lines``)."""
    with log.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(row) + "\n")
