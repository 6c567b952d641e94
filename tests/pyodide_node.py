"""Run Python in Pyodide under Node with the engine's wheel: engine checks without a browser.

The pinned runtime (``build.fetch_pyodide``) boots in Node; the engine wheel that dist/
ships (its compiled modules) goes on ``sys.path`` as a zip (a pure wheel imports as one), or
with ``files`` unzipped into files, as the page's worker installs it (the engine reads its
message catalogs beside their module: a name checked reads them), so the code under test is the
page's own. What the Python code prints comes back as text.
"""

from __future__ import annotations

import gzip
import hashlib
import shutil
import subprocess
import tempfile
from pathlib import Path

RUNNER = """
import fs from "node:fs";
import { pathToFileURL } from "node:url";
const [runtime, wheel, script, stdlib, files] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${runtime}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${runtime}/`,
                                    ...(stdlib ? { stdLibURL: stdlib } : {}) });
pyodide.FS.writeFile("/tmp/engine.whl", fs.readFileSync(wheel));
pyodide.setStdout({ batched: (line) => process.stdout.write(line + "\\n") });
const unzipped = 'import zipfile; zipfile.ZipFile("/tmp/engine.whl").extractall("/tmp/engine")';
pyodide.runPython(files ? `${unzipped}; import sys; sys.path.insert(0, "/tmp/engine")`
                        : 'import sys; sys.path.insert(0, "/tmp/engine.whl")');
pyodide.runPython(fs.readFileSync(script, "utf8"));
"""


def engine_wheel(dist: Path) -> Path:
    """The engine wheel a built dist/ ships (compiled, and gzipped whole for the link), as the
    worker unzips it: a file in the temporary folder, named by the shipped file's content."""
    (packed,) = (dist / "wheels").glob("calypso_core-*.whl.gz")
    data = packed.read_bytes()
    folder = Path(tempfile.gettempdir()) / f"calypso-wheel-{hashlib.sha256(data).hexdigest()[:16]}"
    wheel = folder / packed.name.removesuffix(".gz")
    if not wheel.is_file():
        folder.mkdir(exist_ok=True)
        partial = folder / "partial"
        partial.write_bytes(gzip.decompress(data))
        partial.rename(wheel)
    return wheel


def run_in_pyodide(code: str, runtime: Path, wheel: Path, folder: Path, timeout: int = 300,
                   stdlib: Path | None = None, *, files: bool = False) -> str:
    """Run ``code`` in Pyodide under Node with the engine importable; return what it printed.
    ``stdlib`` is a standard library zip in place of the runtime's whole one; ``files``: the
    engine is unzipped into files first, as the page has it."""
    node = shutil.which("node") or shutil.which("nodejs")
    assert node, "Node.js is needed to run Pyodide outside a browser"
    script = folder / "script.py"
    script.write_text(code, encoding="utf-8")
    done = subprocess.run(
        [node, "--input-type=module", "-", str(runtime), str(wheel), str(script),
         str(stdlib or ""), "files" if files else ""],
        input=RUNNER, capture_output=True, text=True, timeout=timeout, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout
