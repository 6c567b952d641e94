"""The runtime's memory snapshot: Pyodide with the engine installed and imported, made once
with Node at build time and cached, which the worker restores instead of starting Python."""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

from .fetch import fetch_wheel
from .pins import MICROPIP, PYODIDE, PYODIDE_PYTHON
from .stdlib import game_lock
from .tools import CACHE, ensure_node, log, run_setup, sha256_of
from .wheel import ENGINE_SITE

# A memory image of the runtime with the engine imported, which the worker restores instead
# of starting Python on later visits (see make_snapshot); named after its content, so two
# builds' snapshots never share a URL. Its modules: what the page's first game imports, and
# the standard library's fallback finder, which the worker installs at every start (imported
# from source after a restore, it cost a later visit 0.1 s under Node).
# Nothing here may hold a JavaScript object, or Pyodide refuses to take the snapshot.
SNAPSHOT_FOLDER = "snapshot"
# The table loads the handlers of a guest's seat (remote) and of the review, the rerun and
# the work ahead (reviews) at their first request (table/transport.py), which a later
# visit's first game may be: a friends' table, or a saved game that brings work ahead;
# likewise the search bots (bots/levels.py), which a saved game's level may need, and the
# puzzles (table/puzzles.py), which a ?puzzle= link opens at once.
SNAPSHOT_MODULES = ["calypso_core.table", "calypso_core.table.remote",
                    "calypso_core.table.seat_reviews", "calypso_core.table.reviews",
                    "calypso_core.table.puzzles", "calypso_core.bots.search",
                    "calypso_stdlib_fallback"]


# Run by Node at build time. Entropy and clocks are fixed while it runs, so the same runtime
# and wheels give the same bytes; the worker reseeds `random` after restoring. _makeSnapshot
# and makeMemorySnapshot are Pyodide's own (private) snapshot API, as pinned in pins.py.
# micropip, pinned from PyPI, installs the engine wheel into the site-packages of a
# first runtime; the snapshot is taken of a second one that imports the engine from those
# files, because micropip leaves JavaScript references behind that a snapshot refuses.
# Pyodide's lockfile names its own micropip build, whose hash differs, so the wheel is loaded
# by path and loadPackage's result checked: it never throws, it only leaves out what failed.
# The snapshot holds the wasm heap only, not the file system: after restoring, the worker
# unpacks the wheel into site-packages again, for modules and files read later.
SNAPSHOT_MAKER = """
import fs from "node:fs";
import nodeCrypto from "node:crypto";
import { pathToFileURL } from "node:url";
const [runtime, out, wheel, micropipWheel, site, modules, stdlib, lock] = process.argv.slice(2);
const fill = (view) => {
  new Uint8Array(view.buffer, view.byteOffset, view.byteLength).fill(7);
  return view;
};
globalThis.crypto.getRandomValues = fill;
nodeCrypto.randomFillSync = fill;
let tick = 0;
Date.now = () => 315532800000;
performance.now = () => (tick += 1);
process.hrtime.bigint = () => BigInt(tick += 1);
const { loadPyodide } = await import(pathToFileURL(`${runtime}/pyodide.mjs`).href);

const installer = await loadPyodide({ indexURL: `${runtime}/` });
const loaded = await installer.loadPackage(micropipWheel, { messageCallback: () => {} });
if (!loaded.some((pkg) => pkg.name === "micropip")) {
  console.error(`micropip did not load from ${micropipWheel}`);
  process.exit(1);
}
const local = `/tmp/${wheel.slice(wheel.lastIndexOf("/") + 1)}`;
installer.FS.writeFile(local, fs.readFileSync(wheel));
await installer.runPythonAsync(
  `import micropip\\nawait micropip.install(${JSON.stringify(`emfs:${local}`)}, deps=False)`);

const pyodide = await loadPyodide({ indexURL: `${runtime}/`, stdLibURL: stdlib, lockFileURL: lock,
                                    _makeSnapshot: true });
const copy = (path) => {  // what micropip installed, file by file, in a fixed order
  const { mode } = installer.FS.stat(path);
  if (installer.FS.isDir(mode)) {
    pyodide.FS.mkdirTree(path);
    for (const name of installer.FS.readdir(path).sort()) {
      if (name !== "." && name !== "..") copy(`${path}/${name}`);
    }
  } else {
    pyodide.FS.writeFile(path, installer.FS.readFile(path));
  }
};
for (const name of installer.FS.readdir(site).sort()) {
  if (/^calypso_core([-.]|$)/.test(name)) copy(`${site}/${name}`);
}
// Clocks stand still here, so a folder's time cannot tell the import system it changed: its
// finder is dropped, as worker.js does (importlib.invalidate_caches() would import
// importlib.metadata, which the page's standard library leaves out).
pyodide.runPython(`import sys\\nsys.path_importer_cache.pop("${site}", None)\\nimport ${modules}`);
fs.writeFileSync(out, pyodide.makeMemorySnapshot());
"""


def make_snapshot(runtime: Path, wheel: Path, stdlib: bytes,
                  cache: Path = CACHE / "snapshots") -> Path:
    """Return the gzipped memory snapshot of the runtime with the engine installed by
    micropip and imported, made with Node and cached.

    Restoring it skips Python's start-up and the engine's import, most of a first boot. The
    runtime it images has the page's standard library (``stdlib``, the zip the worker gives
    it) and lock file, as the worker's has: its import system keeps the zip's table of
    contents. The cache key covers the runtime, both wheels, that zip, the module list and
    the maker script.
    """
    micropip = fetch_wheel("micropip", MICROPIP, "--python-version", PYODIDE_PYTHON,
                           "--implementation", "py")
    lock = game_lock(runtime)
    key = hashlib.sha256(json.dumps([PYODIDE, MICROPIP, sha256_of(wheel), ENGINE_SITE,
                                     hashlib.sha256(stdlib + lock).hexdigest(),
                                     SNAPSHOT_MODULES, SNAPSHOT_MAKER]).encode())
    cached = cache / f"{key.hexdigest()[:16]}.gz"
    if cached.is_file():
        return cached
    node = ensure_node("Node.js runs the Pyodide runtime once at build time to "
                       "make its start-up snapshot")
    log("making the runtime's memory snapshot with node")
    raw = cached.with_suffix(".raw")
    raw.parent.mkdir(parents=True, exist_ok=True)
    inputs = {cached.with_suffix(".stdlib.zip"): stdlib, cached.with_suffix(".lock.json"): lock}
    for path, data in inputs.items():
        path.write_bytes(data)
    run_setup("node making the runtime's memory snapshot",
              "the pinned Pyodide needs Node.js 18 or later; see node's messages above",
              node, "--input-type=module", "-", runtime, raw, wheel, micropip, ENGINE_SITE,
              ", ".join(SNAPSHOT_MODULES), *inputs, input=SNAPSHOT_MAKER)
    for path in inputs:
        path.unlink()
    partial = cached.with_suffix(".partial")
    partial.write_bytes(gzip.compress(raw.read_bytes(), compresslevel=6, mtime=0))
    raw.unlink()
    partial.rename(cached)
    return cached
