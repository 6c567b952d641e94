"""The runtime's memory snapshot: Pyodide with the engine installed and imported, made once
with Node at build time and cached, which the worker restores instead of starting Python."""

from __future__ import annotations

import gzip
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

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
# Pyodide issue #6254: a runtime restores a snapshot into its default heap, the initial
# memory its .wasm declares (loadPyodide asks for the snapshot's size as INITIAL_MEMORY, which
# the built runtime never reads), so a snapshot taken after the heap grew past that default
# never restores ("RangeError: offset is out of bounds"). The heap in use when the snapshot
# is taken (the allocator's break) must leave at least this much of the default to spare.
HEAP_MARGIN = 1 << 20
WASM_PAGE = 1 << 16


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
// What the heap held: its size (the image's, after the snapshot's header) and its break.
fs.writeFileSync(`${out}.json`, JSON.stringify({
  heap: pyodide._module.HEAP8.length, top: pyodide._module._sbrk(0) >>> 0 }));
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
    figures = cached.with_suffix(".heap.json")
    default = default_heap(runtime / "pyodide.asm.wasm")
    if cached.is_file() and figures.is_file():
        check_heap(json.loads(figures.read_text()), default)
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
    made = raw.with_suffix(".raw.json")
    heap = json.loads(made.read_text())
    check_heap(heap, default)
    log(f"the snapshot's heap: {heap['top'] / 2**20:.1f} MiB in use of the runtime's "
        f"{default / 2**20:.1f} MiB ({(default - heap['top']) / 2**20:.1f} MiB to spare)")
    made.replace(figures)
    partial = cached.with_suffix(".partial")
    partial.write_bytes(gzip.compress(raw.read_bytes(), compresslevel=6, mtime=0))
    raw.unlink()
    partial.rename(cached)
    return cached


def snapshot_heap(snapshot: Path) -> dict[str, int]:
    """What the heap of a snapshot made by make_snapshot held: ``{heap, top}``, its size and
    the allocator's break when the snapshot was taken, in bytes."""
    heap: dict[str, int] = json.loads(snapshot.with_suffix(".heap.json").read_text())
    return heap


def check_heap(heap: dict[str, Any], default: int, margin: int = HEAP_MARGIN) -> None:
    """Stop the build, in one line, unless a snapshot of this heap (``{heap, top}``: its size
    and the allocator's break when the snapshot was taken) restores into a runtime whose
    default heap is ``default`` bytes, with ``margin`` to spare (Pyodide issue #6254)."""
    mib = 2**20
    if heap["heap"] > default or heap["top"] + margin > default:
        sys.exit(
            f"build.py: the runtime's memory snapshot holds a heap of {heap['heap'] / mib:.2f} "
            f"MiB with {heap['top'] / mib:.2f} MiB in use, and the pinned Pyodide "
            f"{PYODIDE['version']} restores a snapshot only into its default heap of "
            f"{default / mib:.2f} MiB (Pyodide issue #6254), with {margin / mib:.2f} MiB to "
            "spare; import less before the snapshot (SNAPSHOT_MODULES in buildsteps/snapshot.py)")


def default_heap(wasm: Path) -> int:
    """The initial memory a WebAssembly module declares or imports, in bytes: the heap a
    runtime built from it starts with (Pyodide restores a snapshot into it)."""
    data = wasm.read_bytes()
    if data[:4] != b"\0asm":
        sys.exit(f"build.py: {wasm} is not a WebAssembly module")
    at = 8
    while at < len(data):
        section, at = data[at], at + 1
        size, at = _leb128(data, at)
        end = at + size
        if section == 2:  # imports: a memory may come from outside
            count, at = _leb128(data, at)
            for _ in range(count):
                for _ in range(2):  # module and field names
                    length, at = _leb128(data, at)
                    at += length
                kind, at = data[at], at + 1
                if kind == 2:
                    return _memory_limits(data, at) * WASM_PAGE
                at = _skip_import(data, kind, at)
        elif section == 5:  # memories declared by the module itself
            count, at = _leb128(data, at)
            if count:
                return _memory_limits(data, at) * WASM_PAGE
        at = end
    sys.exit(f"build.py: {wasm} declares no memory")


def _leb128(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte, at = data[at], at + 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at


def _memory_limits(data: bytes, at: int) -> int:
    """A memory type's minimum, in pages (its flags first: a maximum or sharing follow)."""
    _, at = _leb128(data, at)
    minimum, _ = _leb128(data, at)
    return minimum


def _skip_import(data: bytes, kind: int, at: int) -> int:
    if kind == 0:  # a function: its type's index
        return _leb128(data, at)[1]
    if kind == 1:  # a table: its element type, then its limits
        flags, at = _leb128(data, at + 1)
        at = _leb128(data, at)[1]
        return _leb128(data, at)[1] if flags & 1 else at
    if kind == 3:  # a global: its value type and mutability
        return at + 2
    if kind == 4:  # a tag: its attribute and type's index
        return _leb128(data, at + 1)[1]
    sys.exit(f"build.py: an import of unknown kind {kind} in the runtime's .wasm")
