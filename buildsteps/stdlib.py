"""The page's standard library: the modules the game imports (traced under Node over
boot/game_paths.py and listed in boot/stdlib-modules.txt), zipped with the finder that fetches
any other from Pyodide's whole zip, and Pyodide's lock file with no package."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from .fetch import fetch_pyodide
from .pins import PYODIDE, PYODIDE_PYTHON
from .tools import CACHE, ROOT, log
from .wheel import ENGINE_SITE, build_engine_wheel

# The page's standard library: only the modules the game imports, as traced (stdlib_trace),
# with the finder that brings in any other from Pyodide's whole zip, shipped beside it and
# fetched only then (boot/stdlib_fallback.py). Pyodide's lock file goes out with no package:
# the page loads none.
BOOT = ROOT / "boot"
STDLIB_LIST = BOOT / "stdlib-modules.txt"
STDLIB_ZIP = "pyodide/python_stdlib_game.zip"
STDLIB_FULL = "pyodide/python_stdlib.zip"
# Where the runtime mounts the standard library zip it is given (sys.path's second entry).
STDLIB_MOUNT = f"/lib/python{PYODIDE_PYTHON.replace('.', '')}.zip/"
STDLIB_FALLBACK = "calypso_stdlib_fallback"  # the finder's module name in the page's zip


def stdlib_modules(listing: Path = STDLIB_LIST) -> list[str]:
    """The module list: one dotted name a line, sorted, no repeats; ``#`` starts a comment."""
    names = [line.split("#", 1)[0].strip() for line in listing.read_text().splitlines()]
    names = [name for name in names if name]
    if names != sorted(set(names)):
        sys.exit(f"build.py: {listing}: the module names must be sorted, "
                 "each once (python build.py stdlib-trace writes them so)")
    return names


def zip_modules(archive: zipfile.ZipFile) -> dict[str, str]:
    """The modules of a standard library zip: dotted name -> the file that holds it."""
    modules = {}
    for name in archive.namelist():
        if name.endswith(".py") and not name.startswith("site-packages/"):
            dotted = name[:-3].removesuffix("/__init__").replace("/", ".")
            modules[dotted] = name
    return modules


def game_stdlib(runtime: Path, modules: list[str] | None = None) -> bytes:
    """The page's standard library zip: the listed modules of the runtime's whole one, the
    folders that hold them, and the fallback finder stamped with every module left out.

    Same list, same bytes: sorted entries, fixed times and modes, fixed compression.
    """
    wanted = stdlib_modules() if modules is None else modules
    with zipfile.ZipFile(runtime / "python_stdlib.zip") as whole:
        files = zip_modules(whole)
        if missing := [name for name in wanted if name not in files]:
            sys.exit(f"build.py: {STDLIB_LIST.relative_to(ROOT)} names modules that Pyodide "
                     f"{PYODIDE['version']}'s standard library does not hold: {', '.join(missing)}")
        contents = {files[name]: whole.read(files[name]) for name in wanted}
    left_out = sorted(set(files) - set(wanted))
    finder = (BOOT / "stdlib_fallback.py").read_text()
    finder, stamped = re.subn(r"^LEFT_OUT: frozenset\[str\] = frozenset\(\).*$",
                              lambda _: f"LEFT_OUT = frozenset({left_out!r})", finder,
                              count=1, flags=re.M)
    if stamped != 1:
        sys.exit("build.py: boot/stdlib_fallback.py has no line 'LEFT_OUT: frozenset[str] = "
                 "frozenset()' to stamp")
    contents[f"{STDLIB_FALLBACK}.py"] = finder.encode()
    for path in list(contents):
        parts = path.split("/")[:-1]
        for depth in range(1, len(parts) + 1):
            contents["/".join(parts[:depth]) + "/"] = b""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for path in sorted(contents):
            info = zipfile.ZipInfo(path, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = (0o40755 if path.endswith("/") else 0o100644) << 16
            info.compress_type = zipfile.ZIP_STORED if path.endswith("/") else zipfile.ZIP_DEFLATED
            archive.writestr(info, contents[path], compresslevel=9)
    return out.getvalue()


def game_lock(runtime: Path) -> bytes:
    """Pyodide's lock file with only what the page loads: no package."""
    lock = json.loads((runtime / "pyodide-lock.json").read_text())
    return (json.dumps({"info": lock["info"], "packages": {}}, indent=1, sort_keys=True)
            + "\n").encode()


# Run by Node: the runtime with its whole standard library starts the engine as the worker
# does (web/worker.js), then takes every path of the page (boot/game_paths.py), and prints the
# modules it imported from the standard library zip, Pyodide's own start's among them.
STDLIB_TRACER = """
import fs from "node:fs";
import { pathToFileURL } from "node:url";
const [runtime, wheel, site, paths] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${runtime}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${runtime}/` });
process.on("uncaughtException", (err) => {  // its message, not the minified line it came from
  console.error(err.message);
  process.exit(1);
});
pyodide.unpackArchive(new Uint8Array(fs.readFileSync(wheel)), "wheel", { extractDir: site });
pyodide.runPython(`import sys\\nsys.path_importer_cache.pop("${site}", None)`);  // as worker.js
pyodide.runPython("import calypso_core.table");
pyodide.runPython("import random\\nrandom.seed()");
pyodide.runPython(fs.readFileSync(paths, "utf8"));
process.stdout.write(pyodide.runPython(`
import sys
_zip = next(entry for entry in sys.path if entry.endswith(".zip")) + "/"
"\\\\n".join(sorted(name for name, module in list(sys.modules.items())
                   if (getattr(getattr(module, "__spec__", None), "origin", None) or "")
                   .startswith(_zip)))
`));
"""


def stdlib_trace(runtime: Path, wheel: Path) -> list[str]:
    """The standard library modules the page imports, traced in the runtime under Node."""
    node = shutil.which("node") or shutil.which("nodejs") or "node"
    done = subprocess.run([node, "--input-type=module", "-", str(runtime), str(wheel),
                           ENGINE_SITE, str(BOOT / "game_paths.py")], input=STDLIB_TRACER,
                          capture_output=True, text=True, cwd=ROOT, check=False)
    if done.returncode != 0:
        sys.exit(f"build.py: tracing the standard library failed:\n{done.stderr[-3000:]}")
    return done.stdout.split()


def write_stdlib_list() -> None:
    """Trace the page's imports and write them to STDLIB_LIST."""
    runtime = fetch_pyodide()
    wheel = build_engine_wheel(CACHE / "trace")
    modules = stdlib_trace(runtime, wheel)
    header = ("# The standard library modules the page imports: Pyodide's own start, the\n"
              "# engine's start in the worker and every path of boot/game_paths.py, traced in\n"
              "# Pyodide under Node. Written by `python build.py stdlib-trace`;\n"
              "# tests/test_stdlib.py checks it.\n")
    STDLIB_LIST.write_text(header + "".join(f"{name}\n" for name in modules))
    log(f"wrote {len(modules)} modules to {STDLIB_LIST.relative_to(ROOT)}")
