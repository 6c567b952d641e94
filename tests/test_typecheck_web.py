"""The type check of web/ (tsc with typecheck/'s settings, run by build.py test) fails when it
should: a small page with the mistakes it is there to catch, checked with the same settings."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]

MISTAKES = {
    "helpers.js": """
/** @param {number} count @returns {string} */
export function cards(count) { return `${count} cards`; }
export const SUITS = "SHDC";
""",
    "page.js": """
import { cards, SUITS, rank } from "./helpers.js";
document.title = cards(2, "extra");
document.body.dataset.suits = SUITS.lenght;
""",
    "worker.js": """
self.addEventListener("fetch", (event) => event.respondWith(fetch(event.request)));
""",
}


def run_tsc(build_module: ModuleType, folder: Path, config: str) -> str:
    node = shutil.which("node") or shutil.which("nodejs")
    assert node, "build.py test installs Node.js before it runs the tests"
    done = subprocess.run([node, str(build_module.fetch_typescript()), "--noEmit", "-p",
                           str(folder / config)], capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode != 0, done.stdout
    return done.stdout


def test_the_settings_catch_a_wrong_call_a_missing_export_an_unused_name_and_a_misspelling(
    build_module: ModuleType, tmp_path: Path,
) -> None:
    for name, code in MISTAKES.items():
        (tmp_path / name).write_text(code)
    # The project's two settings files as they are (the worker one extends the other), on
    # these files instead of web/'s.
    includes = {"jsconfig.json": ["page.js", "helpers.js", str(ROOT / "typecheck/dom.d.ts")],
                "jsconfig.worker.json": ["worker.js"]}
    for config, files in includes.items():
        settings = json.loads((ROOT / "typecheck" / config).read_text())
        settings.update(include=files, exclude=[])
        (tmp_path / config).write_text(json.dumps(settings))
    page = errors(run_tsc(build_module, tmp_path, "jsconfig.json"))
    assert page == [
        ("page.js", 2, "TS2305: Module '\"./helpers.js\"' has no exported member 'rank'."),
        ("page.js", 2, "TS6133: 'rank' is declared but its value is never read."),
        ("page.js", 3, "TS2554: Expected 1 arguments, but got 2."),
        ("page.js", 4, "TS2551: Property 'lenght' does not exist on type '\"SHDC\"'. Did you "
                       "mean 'length'?"),
    ]
    # In a service worker an event is a FetchEvent only through the script's own annotation,
    # as web/sw.js gives its global scope one.
    worker = errors(run_tsc(build_module, tmp_path, "jsconfig.worker.json"))
    assert worker == [
        ("worker.js", 2, "TS2339: Property 'respondWith' does not exist on type 'Event'."),
        ("worker.js", 2, "TS2339: Property 'request' does not exist on type 'Event'."),
    ]


def errors(output: str) -> list[tuple[str, int, str]]:
    """(file, line, "TSnnnn: message") for each error tsc printed."""
    found = re.findall(r"([\w.-]+)\((\d+),\d+\): error (TS\d+: .*)", output)
    return [(name, int(line), text) for name, line, text in found]
