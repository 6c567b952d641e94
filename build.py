#!/usr/bin/env python3
"""Build, serve and test Calypso's static site — standard library only.

    python build.py [build]                    make dist/ from clean
    python build.py serve [--port N] [--host H] build, then serve dist/ and print the URL
    python build.py test [PYTEST ARGS]          set up .venv, Chromium and the runtime,
                                               build, then run mypy, ruff, tsc and pytest
    python build.py stdlib-trace               write boot/stdlib-modules.txt: what the page
                                               imports of the standard library, traced
"""

from __future__ import annotations

import argparse
import functools
import gzip
import hashlib
import io
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tarfile
import threading
import zipfile
import zlib
from collections.abc import Callable
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

# --- Every pinned version and hash lives here. ---------------------------------------------
PYODIDE = {"version": "314.0.7",  # npm tarball
           "sha256": "66b7949e5a0cba2250b586d7e368bf12fb482800748d182c4618254b685ffaa0"}
AXE_CORE = {"version": "4.14.1",  # npm tarball; the browser tests' accessibility checks only
            "sha256": "e6b0ce02b84d892e2e33e403485e7f3d6c29e2be6df65daf44d89ba564139745"}
TYPESCRIPT = {"version": "5.9.3",  # npm tarball; its tsc type-checks web/'s JavaScript in test
              "sha256": "10e108c9cf7d5f2879053dff18515fb405abf2ccef63eaaf017d9c571687a1d3"}
# The remote table's transport (web/remote/): trystero's Nostr strategy and its one
# dependency, served from dist/vendor/ as ES modules (see fetch_transport); and lean-qr (7 KB,
# MIT), which draws an invitation's QR code in the host's page (web/remote/qr.js).
TRANSPORT = {  # npm tarballs: {name: {version, sha256}}
    name: {"version": version, "sha256": sha256} for name, version, sha256 in [
        ("@trystero-p2p/core", "0.25.4",
         "d0b156fbe560770d8c7dcb4cb8a51c2e90c2a5cdb35c800ed5c5998c5e4a7c44"),
        ("@trystero-p2p/nostr", "0.25.4",
         "639479ac29f7cb3707b902f40e2e7afabe389c32de4a426a62c89a116bbbd850"),
        ("@noble/secp256k1", "3.2.0",
         "2722e0b18b696cf6d3463ab10365f97f617fb651e85a7eeed8f12121a1077018"),
        ("lean-qr", "2.7.4",
         "e751d84a17c979a79d231828b9a3da0595614340d0d1138dec557ddc63deb10e"),
    ]
}
PYODIDE_PYTHON = "3.14"  # the Python inside that runtime: micropip's wheel, site-packages
MICROPIP = {"version": "0.11.1",  # PyPI wheel, not Pyodide's own build (see make_snapshot)
            "sha256": "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3"}
FLIT_CORE = {"version": "3.12.0",  # builds the engine wheel
             "sha256": "e7a0304069ea895172e3c7bb703292e992c5d1555dd1233ab7b5621b5b69e62c"}
DEV_TOOLS = ["pytest==9.0.3", "hypothesis==6.155.2", "mypy==2.4.1", "ruff==0.17.6",
             "playwright==1.65.2",
             "websockets==17.4"]  # the browser tests' local Nostr relay (tests/nostr_relay.py)
SOURCE_DATE_EPOCH = "315532800"  # 1980-01-01, the earliest zip time: timestamps carry no meaning
# --------------------------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parent
WEB, DIST, CACHE, VENV = ROOT / "web", ROOT / "dist", ROOT / ".cache", ROOT / ".venv"
RUNTIME_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json"]
# Where the engine is installed in Pyodide's file system: its site-packages. micropip puts it
# there when the snapshot is made; the worker unpacks the same wheel there in the browser.
ENGINE_SITE = f"/lib/python{PYODIDE_PYTHON}/site-packages"
# A memory image of the runtime with the engine imported, which the worker restores instead
# of starting Python on later visits (see make_snapshot); named after its content, so two
# builds' snapshots never share a URL. Its modules: what the page's first game imports, and
# the standard library's fallback finder, which the worker installs at every start (imported
# from source after a restore, it cost a later visit 0.1 s under Node).
# Nothing here may hold a JavaScript object, or Pyodide refuses to take the snapshot.
SNAPSHOT_FOLDER = "snapshot"
SNAPSHOT_MODULES = ["calypso_core.table", "calypso_core.bots", "calypso_stdlib_fallback"]
# The page's standard library: only the modules the game imports, as traced (stdlib_trace),
# with the finder that brings in any other from Pyodide's whole zip, shipped beside it and
# fetched only then (boot/stdlib_fallback.py). Pyodide's lock file goes out with no package:
# the page loads none.
BOOT = ROOT / "boot"
STDLIB_LIST = BOOT / "stdlib-modules.txt"
STDLIB_ZIP = "pyodide/python_stdlib_game.zip"
STDLIB_FULL = "pyodide/python_stdlib.zip"
STDLIB_FALLBACK = "calypso_stdlib_fallback"  # the finder's module name in the page's zip
MANIFEST = "build-info.json"
SERVICE_WORKER = "sw.js"  # stamped with the build and its file list; see stamp_service_worker
ICON_SIZES = (192, 512)  # PNG icons for the web app manifest, drawn by icon_png
MIME_TYPES = {
    ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".mjs": "text/javascript",
    ".css": "text/css", ".json": "application/json", ".wasm": "application/wasm",
    ".zip": "application/zip", ".whl": "application/octet-stream", ".svg": "image/svg+xml",
    ".png": "image/png", ".ico": "image/x-icon", ".txt": "text/plain; charset=utf-8",
    ".webmanifest": "application/manifest+json", ".gz": "application/gzip",
    "": "application/octet-stream",
}


def log(message: str) -> None:
    print(f"build.py: {message}", file=sys.stderr, flush=True)


def run(*cmd: str | Path, env: dict[str, str] | None = None) -> None:
    # Tools' chatter goes to stderr so stdout stays for what build.py itself reports.
    subprocess.run([str(c) for c in cmd], check=True, cwd=ROOT, env=env, stdout=sys.stderr)


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def check_hash(path: Path, expected: str) -> Path:
    actual = sha256_of(path)
    if actual != expected:
        path.unlink()  # never keep a bad download in the cache
        sys.exit(f"build.py: {path.name}: sha256 {actual} does not match the pinned {expected}")
    return path


# --- Fetching pinned inputs into .cache/ (outside git) --------------------------------------


def npm_pack(name: str, pin: dict[str, str], what: str) -> Path:
    """The pinned npm package's tarball in the cache, fetched with ``npm pack`` if missing."""
    spec = f"{name}@{pin['version']}"
    # npm names a scoped package's tarball without the "@" and with "-" for "/".
    tarball = CACHE / f"{name.lstrip('@').replace('/', '-')}-{pin['version']}.tgz"
    if not tarball.is_file():
        if not shutil.which("npm"):
            apt_install("npm", "npm", f"npm fetches {what}")
        CACHE.mkdir(exist_ok=True)
        log(f"fetching {spec} with npm pack")
        run_setup(f"npm pack {spec}", "check the network and npm's messages above",
                  "npm", "pack", "--quiet", spec, "--pack-destination", CACHE)
    check_hash(tarball, pin["sha256"])
    return tarball


def fetch_pyodide() -> Path:
    """Return the cache folder holding the runtime files of the pinned npm package."""
    folder = CACHE / f"pyodide-{PYODIDE['version']}"
    if all((folder / name).is_file() for name in RUNTIME_FILES):
        return folder
    tarball = npm_pack("pyodide", PYODIDE, "the pinned Pyodide runtime from the npm registry")
    partial = folder.with_suffix(".partial")
    shutil.rmtree(partial, ignore_errors=True)
    with tarfile.open(tarball) as tar:
        for name in RUNTIME_FILES:
            tar.extract(f"package/{name}", partial, filter="data")
    shutil.rmtree(folder, ignore_errors=True)
    (partial / "package").rename(folder)
    partial.rmdir()
    return folder


def fetch_axe_core() -> Path:
    """Return axe-core's script from the pinned npm package, cached in .cache/.

    The browser tests load it into the page under test; it is never part of dist/.
    """
    script = CACHE / f"axe-core-{AXE_CORE['version']}" / "axe.min.js"
    if script.is_file():
        return script
    tarball = npm_pack("axe-core", AXE_CORE,
                       "the pinned axe-core for the browser tests' accessibility checks")
    partial = script.parent.with_suffix(".partial")
    shutil.rmtree(partial, ignore_errors=True)
    with tarfile.open(tarball) as tar:
        tar.extract("package/axe.min.js", partial, filter="data")
    shutil.rmtree(script.parent, ignore_errors=True)
    (partial / "package").rename(script.parent)
    partial.rmdir()
    return script


def fetch_typescript() -> Path:
    """Return tsc.js of the pinned TypeScript npm package, cached in .cache/ (tests only)."""
    folder = CACHE / f"typescript-{TYPESCRIPT['version']}"
    tsc = folder / "lib" / "tsc.js"
    if tsc.is_file():
        return tsc
    tarball = npm_pack("typescript", TYPESCRIPT, "the pinned TypeScript that type-checks web/")
    partial = folder.with_suffix(".partial")
    shutil.rmtree(partial, ignore_errors=True)
    with tarfile.open(tarball) as tar:
        tar.extractall(partial, filter="data")
    shutil.rmtree(folder, ignore_errors=True)
    (partial / "package").rename(folder)
    partial.rmdir()
    return tsc


def fetch_transport() -> Path:
    """Return a cache folder holding the remote table's transport as browser ES modules:
    one folder per pinned package, its bare imports rewritten to relative paths."""
    folder = CACHE / ("transport-" + "-".join(pin["version"] for pin in TRANSPORT.values()))
    if (folder / "nostr" / "index.mjs").is_file():
        return folder
    partial = folder.with_suffix(".partial")
    shutil.rmtree(partial, ignore_errors=True)
    for name, pin in TRANSPORT.items():
        tarball = npm_pack(name, pin, f"{name}, the remote table's transport")
        short = TRANSPORT_FOLDERS[name]
        with tarfile.open(tarball) as tar:
            for member in tar.getmembers():
                path = member.name.removeprefix("package/")
                wanted = TRANSPORT_FILES.get(name)
                if wanted is not None and path not in wanted:
                    continue
                if member.isfile() and (path.endswith(".mjs") or path in ("index.js", "LICENSE")):
                    data = tar.extractfile(member)
                    assert data is not None
                    target = partial / short / Path(path).name
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_text(relative_imports(data.read().decode(), short))
    shutil.rmtree(folder, ignore_errors=True)
    partial.rename(folder)
    return folder


TRANSPORT_FOLDERS = {"@trystero-p2p/core": "core", "@trystero-p2p/nostr": "nostr",
                     "@noble/secp256k1": "secp256k1", "lean-qr": "qr"}
TRANSPORT_ENTRIES = {"@trystero-p2p/core": "index.mjs", "@trystero-p2p/nostr": "index.mjs",
                     "@noble/secp256k1": "index.js", "lean-qr": "index.mjs"}
# The files a package needs, when not all its modules (lean-qr's command line and its
# framework bindings stay out).
TRANSPORT_FILES = {"lean-qr": ("index.mjs", "LICENSE")}
BARE_IMPORT = re.compile(r'(\bfrom\s*)"(@[\w.-]+/[\w.-]+)"')


def relative_imports(code: str, folder: str) -> str:
    """A module's imports of the other pinned packages as paths a browser can load."""
    def local(found: re.Match[str]) -> str:
        name = found[2]
        if name not in TRANSPORT_FOLDERS:
            sys.exit(f"build.py: the transport module {folder} imports {name}, which is not pinned")
        return f'{found[1]}"../{TRANSPORT_FOLDERS[name]}/{TRANSPORT_ENTRIES[name]}"'
    return BARE_IMPORT.sub(local, code)


def fetch_wheel(project: str, pin: dict[str, str], *pip_args: str) -> Path:
    """Return the cached PyPI wheel of a pinned pure-Python project, hash checked."""
    name = f"{project}-{pin['version']}-py3-none-any.whl"
    wheel = CACHE / "wheels" / name
    if not wheel.is_file():
        log(f"fetching {name} with pip download")
        run(sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
            "--only-binary=:all:", "--dest", wheel.parent, *pip_args,
            f"{project}=={pin['version']}")
    return check_hash(wheel, pin["sha256"])


def build_engine_wheel(out: Path) -> Path:
    """Build calypso_core's wheel with the pinned flit_core; fixed timestamps make it stable."""
    flit = fetch_wheel("flit_core", FLIT_CORE)
    out.mkdir(parents=True, exist_ok=True)
    # A pure wheel is importable as a zip, so flit_core needs no install and no isolation venv.
    env = {**os.environ, "PYTHONPATH": str(flit), "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH}
    code = "import sys, flit_core.buildapi as b; print(b.build_wheel(sys.argv[1]))"
    name = subprocess.run([sys.executable, "-c", code, str(out)], check=True, cwd=ROOT, env=env,
                          capture_output=True, text=True).stdout.strip().splitlines()[-1]
    (out / name).chmod(0o644)  # flit writes it private
    mark_names_utf8(out / name)
    return out / name


def mark_names_utf8(archive: Path) -> None:
    """Flag every name in a zip as UTF-8 (its names are ASCII, so they read the same). The
    worker's zipfile reads an unflagged name as code page 437 and imports that codec, tens of
    milliseconds of a first visit, only to unpack the wheel. The flag is bit 11 of each local
    header's and each central directory entry's flags; nothing else changes."""
    data = bytearray(archive.read_bytes())
    with zipfile.ZipFile(archive) as source:
        infos = source.infolist()
        central = source.start_dir  # where the central directory begins
    if any(not info.filename.isascii() for info in infos):
        sys.exit(f"build.py: {archive.name} has a name that is not ASCII")

    def flag(at: int, signature: bytes, offset: int) -> None:
        if data[at:at + 4] != signature:
            sys.exit(f"build.py: {archive.name}: no {signature!r} header at {at}")
        flags = int.from_bytes(data[at + offset:at + offset + 2], "little") | 0x800
        data[at + offset:at + offset + 2] = flags.to_bytes(2, "little")

    for info in infos:
        flag(info.header_offset, b"PK\x03\x04", 6)
        flag(central, b"PK\x01\x02", 8)
        name, extra, comment = (int.from_bytes(data[central + at:central + at + 2], "little")
                                for at in (28, 30, 32))
        central += 46 + name + extra + comment
    archive.write_bytes(bytes(data))


# Run by Node at build time. Entropy and clocks are fixed while it runs, so the same runtime
# and wheels give the same bytes; the worker reseeds `random` after restoring. _makeSnapshot
# and makeMemorySnapshot are Pyodide's own (private) snapshot API, as pinned above.
# micropip, pinned above from PyPI, installs the engine wheel into the site-packages of a
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


def make_snapshot(runtime: Path, wheel: Path, cache: Path = CACHE / "snapshots") -> Path:
    """Return the gzipped memory snapshot of the runtime with the engine installed by
    micropip and imported, made with Node and cached.

    Restoring it skips Python's start-up and the engine's import, most of a first boot. The
    runtime it images has the page's standard library and lock file, as the worker's has: its
    import system keeps the zip's table of contents. The cache key covers the runtime, both
    wheels, that zip, the module list and the maker script.
    """
    micropip = fetch_wheel("micropip", MICROPIP, "--python-version", PYODIDE_PYTHON,
                           "--implementation", "py")
    stdlib, lock = game_stdlib(runtime), game_lock(runtime)
    key = hashlib.sha256(json.dumps([PYODIDE, MICROPIP, sha256_of(wheel), ENGINE_SITE,
                                     hashlib.sha256(stdlib + lock).hexdigest(),
                                     SNAPSHOT_MODULES, SNAPSHOT_MAKER]).encode())
    cached = cache / f"{key.hexdigest()[:16]}.gz"
    if cached.is_file():
        return cached
    node = shutil.which("node") or shutil.which("nodejs")
    if not node:
        apt_install("nodejs", "node", "Node.js runs the Pyodide runtime once at build time to "
                    "make its start-up snapshot")
        node = shutil.which("node") or shutil.which("nodejs") or "node"
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


# --- the page's standard library --------------------------------------------------------------

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


# --- build -----------------------------------------------------------------------------------

def build(dist: Path = DIST) -> dict[str, Any]:
    """Make dist/ from clean and return its manifest."""
    if not WEB.is_dir():
        sys.exit(f"build.py: {WEB} is missing")
    runtime = fetch_pyodide()
    transport = fetch_transport()
    shutil.rmtree(dist, ignore_errors=True)
    shutil.copytree(WEB, dist, ignore=shutil.ignore_patterns(".*", "__pycache__"))
    render_rules_dialog(dist / "index.html")
    copy_messages(dist)
    shutil.copytree(transport, dist / "vendor")
    (dist / "pyodide").mkdir()
    for name in RUNTIME_FILES:
        shutil.copyfile(runtime / name, dist / "pyodide" / name)
    (dist / "pyodide" / "pyodide-lock.json").write_bytes(game_lock(runtime))
    (dist / STDLIB_ZIP).write_bytes(game_stdlib(runtime))
    wheels = dist / "wheels"
    engine = build_engine_wheel(wheels)
    snapshot = make_snapshot(runtime, engine)
    snapshot_sha256 = sha256_of(snapshot)
    snapshot_path = f"{SNAPSHOT_FOLDER}/engine-{snapshot_sha256[:16]}.snapshot.gz"
    (dist / SNAPSHOT_FOLDER).mkdir()
    shutil.copyfile(snapshot, dist / snapshot_path)
    (dist / "icons").mkdir()
    for size in ICON_SIZES:
        (dist / "icons" / f"icon-{size}.png").write_bytes(icon_png(size))
    manifest = finalize(dist, {"pyodide": PYODIDE["version"],
                               "engine_wheel": f"wheels/{engine.name}",
                               "engine_site": ENGINE_SITE,
                               "stdlib": STDLIB_ZIP,
                               "stdlib_full": STDLIB_FULL,
                               "snapshot": snapshot_path,
                               "snapshot_sha256": snapshot_sha256})
    log(f"built {dist} ({len(manifest['files']) + 1} files, build {manifest['build']})")
    return manifest


def finalize(dist: Path, info: dict[str, Any] | None = None) -> dict[str, Any]:
    """Hash a built folder, stamp its service worker and write its manifest; return that.

    Runs again on a changed copy of dist/ (the update tests make a "next build" that way),
    keeping the other manifest entries unless ``info`` gives them.
    """
    old = dist / MANIFEST
    if info is None:
        info = {k: v for k, v in json.loads(old.read_text()).items() if k not in ("build", "files")}
    old.unlink(missing_ok=True)
    worker = dist / SERVICE_WORKER
    code = worker.read_text() if worker.is_file() else None
    if code is not None:
        # The build hash covers the worker's code but not its stamp, which derives from the hash.
        worker.write_text(stamp_service_worker(code, "unbuilt", {}))
    files = sorted(p for p in dist.rglob("*") if p.is_file())
    hashes = {p.relative_to(dist).as_posix(): sha256_of(p) for p in files}
    build_id = hashlib.sha256(json.dumps(hashes, sort_keys=True).encode()).hexdigest()[:16]
    if code is not None:
        # The whole standard library is fetched only if a module the page's lacks is imported.
        precache = {path: digest for path, digest in hashes.items()
                    if path not in (SERVICE_WORKER, info.get("stdlib_full"))}
        worker.write_text(stamp_service_worker(code, build_id, precache))
    manifest = {
        # The build hash covers every other file, so it names the service worker's cache.
        "build": build_id,
        **info,
        "files": {path: (dist / path).stat().st_size for path in hashes},
    }
    old.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    return manifest


SW_STAMP = {"BUILD": re.compile(r"^const BUILD = .*;$", re.M),
            "FILES": re.compile(r"^const FILES = .*;$", re.M)}


def stamp_service_worker(code: str, build_id: str, files: dict[str, str]) -> str:
    """Write the build id and the precache list ({path: sha256}) into sw.js's two stamp lines."""
    values = {"BUILD": json.dumps(build_id), "FILES": json.dumps(files, sort_keys=True)}
    for name, pattern in SW_STAMP.items():
        line = f"const {name} = {values[name]};"
        code, count = pattern.subn(line.replace("\\", "\\\\"), code, count=1)
        if count != 1:
            sys.exit(f"build.py: {SERVICE_WORKER} has no line starting 'const {name} = '")
    return code


# Every word people read is in the engine's catalogs, one per language; the page loads the
# same files, and each language has a web app manifest named and described in its words.
MESSAGES = ROOT / "calypso_core" / "messages"
MANIFEST_WORDS = {"name": "app.name", "short_name": "app.name",
                  "description": "app.manifest_description"}


def copy_messages(dist: Path) -> None:
    """Copy the catalogs to dist/messages/ and write each language's manifest from its words
    (English: manifest.webmanifest, the others: manifest.<lang>.webmanifest)."""
    (dist / "messages").mkdir()
    template = json.loads((WEB / "manifest.webmanifest").read_text())
    for catalog in sorted(MESSAGES.glob("*.json")):
        lang = catalog.stem
        shutil.copyfile(catalog, dist / "messages" / catalog.name)
        words = json.loads(catalog.read_text())
        manifest = {**template, "lang": lang,
                    **{key: words[word] for key, word in MANIFEST_WORDS.items()}}
        name = "manifest.webmanifest" if lang == "en" else f"manifest.{lang}.webmanifest"
        (dist / name).write_text(json.dumps(manifest, ensure_ascii=False, indent=1) + "\n")


# The page's Rules dialog is written once, in docs/rules.md, between these two marks; each
# <div data-rules-from="docs/NAME.md"> of a page is filled with that file's marked section, so
# a translation is one more file with the same marks and one more element with its lang.
RULES_MARKS = ("<!-- rules-dialog -->", "<!-- /rules-dialog -->")
RULES_FROM = re.compile(r'(<div\b[^>]*\bdata-rules-from="(docs/[\w.-]+\.md)"[^>]*>)(.*?)(</div>)',
                        re.S)


def render_rules_dialog(page: Path) -> None:
    """Fill the page's rules elements from the marked sections of the docs they name."""
    def fill(found: re.Match[str]) -> str:
        name = found.group(2)
        return found.group(1) + rules_dialog_html((ROOT / name).read_text(), name) + found.group(4)

    text, count = RULES_FROM.subn(fill, page.read_text())
    if not count:
        sys.exit(f'build.py: {page.name} has no <div data-rules-from="docs/….md"> to fill')
    page.write_text(text)


def rules_dialog_html(markdown: str, name: str = "docs/rules.md") -> str:
    """The section between RULES_MARKS as HTML: ### headings, paragraphs, numbered and bulleted
    lists, **bold** and *italics*. Anything else stops the build rather than show as Markdown."""
    start, end = (markdown.find(mark) for mark in RULES_MARKS)
    if start < 0 or end < start:
        sys.exit(f"build.py: {name} has no section between {RULES_MARKS[0]} and {RULES_MARKS[1]}")

    def inline(text: str) -> str:
        if any(sign in text for sign in "`|[]<>_#"):
            sys.exit(f"build.py: {name}: the rules dialog shows plain text only: {text!r}")
        text = text.replace("&", "&amp;")
        text = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", text)
        text = re.sub(r"\*(.+?)\*", r"<em>\1</em>", text)
        if "*" in text:
            sys.exit(f"build.py: {name}: an unpaired * in the rules dialog: {text!r}")
        return text

    out = []
    section = markdown[start + len(RULES_MARKS[0]):end]
    for block in re.split(r"\n\s*\n", section.strip()):
        lines = block.splitlines()
        if lines[0].startswith("### ") and len(lines) == 1:
            out.append(f"<h3>{inline(lines[0][4:])}</h3>")
        elif re.match(r"(\d+\.|-) ", lines[0]):
            items: list[str] = []
            for line in lines:
                item = re.match(r"(?:\d+\.|-) (.*)", line)
                if item:
                    items.append(item.group(1))
                elif line.startswith("  ") and items:
                    items[-1] += " " + line.strip()
                else:
                    sys.exit(f"build.py: {name}: the rules dialog cannot show {line!r}")
            tag = "ul" if lines[0].startswith("-") else "ol"
            out.append(f"<{tag}>" + "".join(f"<li>{inline(i)}</li>" for i in items) + f"</{tag}>")
        else:
            out.append(f"<p>{inline(' '.join(line.strip() for line in lines))}</p>")
    return "\n".join(out)


def icon_png(size: int) -> bytes:
    """The app icon as an RGB PNG: a white card with a red diamond on the theme green.

    Drawn row by row from the shapes' edges (no pixel loop), compressed with fixed zlib
    settings: the same size always gives the same bytes. The card sits inside the central
    80 % that a maskable icon keeps, so the full-bleed green can be cropped to any shape.
    """
    green, white, red = b"\x0f\x4d\x2c", b"\xff\xff\xff", b"\xc6\x28\x28"
    half_w, half_h, radius = 0.27 * size, 0.36 * size, 0.05 * size
    dia_w, dia_h = 0.17 * size, 0.24 * size
    centre = size / 2
    rows = []
    for y in range(size):
        row = bytearray(green * size)
        dy = abs(y + 0.5 - centre)
        if dy <= half_h:
            inset = 0.0
            if dy > half_h - radius:  # the rounded corners
                inset = radius - (radius**2 - (dy - (half_h - radius)) ** 2) ** 0.5
            left, right = round(centre - half_w + inset), round(centre + half_w - inset)
            row[3 * left:3 * right] = white * (right - left)
        if dy <= dia_h:
            reach = dia_w * (1 - dy / dia_h)
            left, right = round(centre - reach), round(centre + reach)
            row[3 * left:3 * right] = red * (right - left)
        rows.append(b"\x00" + bytes(row))  # filter type 0 for every row

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data)))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB, no interlace
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))


# --- serve -----------------------------------------------------------------------------------

class DistHandler(SimpleHTTPRequestHandler):
    """Serve a folder with explicit MIME types: a wrong .wasm type makes Pyodide hang."""

    extensions_map = MIME_TYPES
    quiet = False
    prefix = "/"  # the URL path the folder appears under, as a project page's "/<repo>/"
    extra_headers: ClassVar[dict[str, str]] = {}

    def translate_path(self, path: str) -> str:
        if self.prefix == "/":
            return super().translate_path(path)
        bare = path.split("?", 1)[0].split("#", 1)[0]
        if bare == self.prefix.rstrip("/"):
            return super().translate_path("/")  # a folder: the handler redirects to add "/"
        if not bare.startswith(self.prefix):
            return os.path.join(str(self.directory), ".outside-the-prefix")  # never exists: 404
        return super().translate_path("/" + path[len(self.prefix):])

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")  # always revalidate: rebuilds show at once
        for name, value in self.extra_headers.items():
            self.send_header(name, value)
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        if not self.quiet:
            super().log_message(format, *args)


class DistServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):  # browsers drop connections
            super().handle_error(request, client_address)


def start_server(folder: Path, host: str = "127.0.0.1", port: int = 0, quiet: bool = True,
                 prefix: str = "/", headers: dict[str, str] | None = None,
                 ) -> tuple[str, Callable[[], None]]:
    """Serve folder from a background thread; return its URL and a function that stops it.

    ``prefix`` mounts the folder under a path, as GitHub Pages does a project ("/calypso/");
    the URL returned includes it. ``headers`` are sent with every response.
    """
    prefix = "/" + prefix.strip("/") + "/" if prefix.strip("/") else "/"
    handler = type("Handler", (DistHandler,),
                   {"quiet": quiet, "prefix": prefix, "extra_headers": dict(headers or {})})
    server = DistServer((host, port), functools.partial(handler, directory=str(folder)))
    shown_host = "127.0.0.1" if host in ("", "0.0.0.0") else host
    return f"http://{shown_host}:{server.server_address[1]}{prefix}", serve_in_background(server)


def serve_in_background(server: ThreadingHTTPServer) -> Callable[[], None]:
    """Run server from a background thread; return a function that stops it."""
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()

    def stop() -> None:
        server.shutdown()
        server.server_close()
        thread.join()

    return stop


def serve(host: str, port: int) -> None:
    build()
    url, stop = start_server(DIST, host, port, quiet=False)
    print(f"Serving {DIST} at {url}  (Ctrl+C stops)", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        stop()


# --- test ------------------------------------------------------------------------------------

def apt_install(package: str, command: str, why: str) -> None:
    """Install a Debian package that provides ``command``, saying so first.

    Without apt-get, or without root, build.py ends with one line saying what to install.
    """
    if not shutil.which("apt-get"):
        sys.exit(f"build.py: {command} is missing ({why}); install {package} "
                 "with your system's package manager, then run build.py again")
    if os.geteuid() != 0:
        sys.exit(f"build.py: {command} is missing ({why}); install it as root "
                 f"(apt-get install {package}), then run build.py again")
    log(f"{command} is missing ({why}): installing the system package {package} "
        "with apt-get update && apt-get install")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    advice = f"install {package} yourself, then run build.py again"
    run_setup("apt-get update", advice, "apt-get", "update", "-q", env=env)
    run_setup(f"apt-get install {package}", advice, "apt-get", "install", "-y", "-q", package,
              env=env)
    if not shutil.which(command):
        sys.exit(f"build.py: apt-get installed {package}, but {command} is still not on the "
                 f"PATH; {advice}")


def run_setup(what: str, advice: str, *cmd: str | Path, env: dict[str, str] | None = None,
              input: str | None = None) -> None:
    """Run a set-up tool; if it fails, build.py ends with one line: what failed and what to do."""
    try:
        subprocess.run([str(c) for c in cmd], check=True, cwd=ROOT, env=env, input=input,
                       text=input is not None, stdout=sys.stderr)
    except subprocess.CalledProcessError as exc:
        sys.exit(f"build.py: {what} failed (exit status {exc.returncode}); {advice}")
    except OSError as exc:
        sys.exit(f"build.py: {what} could not start ({exc.strerror}); {advice}")


def ensure_venv() -> Path:
    """Create .venv with the pinned dev tools; reinstall only when the pins change."""
    python = VENV / "bin" / "python"
    stamp = VENV / "calypso-dev-tools.txt"
    wanted = "\n".join(DEV_TOOLS) + "\n"
    if python.is_file() and stamp.is_file() and stamp.read_text() == wanted:
        return python
    if not python.is_file():
        log("creating .venv")
        run(sys.executable, "-m", "venv", VENV)
    log("installing " + " ".join(DEV_TOOLS))
    run(python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *DEV_TOOLS)
    stamp.write_text(wanted)
    return python


def ensure_node(why: str) -> str:
    """Return a Node.js executable, installed with apt-get if there is none."""
    node = shutil.which("node") or shutil.which("nodejs")
    if not node:
        apt_install("nodejs", "node", why)
        node = shutil.which("node") or shutil.which("nodejs") or "node"
    return node


def ensure_chromium(python: Path) -> str:
    """Return a Chromium executable, or "" to let Playwright use the one it installed."""
    found = os.environ.get("CALYPSO_CHROMIUM") or shutil.which("chromium")
    if found:
        return found
    why = "the browser tests drive Chromium; CALYPSO_CHROMIUM=/path/to/chromium names another"
    if os.geteuid() == 0 and shutil.which("apt-get"):
        apt_install("chromium", "chromium", why)
        return shutil.which("chromium") or ""
    log(f"chromium is missing ({why}): downloading Playwright's own Chromium "
        "with playwright install chromium")
    run_setup("playwright install chromium",
              "install Chromium (Debian: apt-get install chromium as root), or set "
              "CALYPSO_CHROMIUM=/path/to/chromium, or CALYPSO_SKIP_BROWSER=1 to skip the "
              "browser tests", python, "-m", "playwright", "install", "chromium")
    return ""


def test(pytest_args: list[str]) -> int:
    python = ensure_venv()
    env = {**os.environ, "CALYPSO_DIST": str(DIST), "PYTHONDONTWRITEBYTECODE": "1"}
    if os.environ.get("CALYPSO_SKIP_BROWSER") != "1":
        env["CALYPSO_CHROMIUM"] = ensure_chromium(python)
        env["CALYPSO_AXE"] = str(fetch_axe_core())
    build()
    tsc = [ensure_node("Node.js runs TypeScript's tsc, which type-checks web/"),
           str(fetch_typescript()), "--noEmit", "-p"]
    failed = []
    # pyproject.toml names what mypy checks (the package, tests/, bench/, boot/, build.py);
    # typecheck/ holds tsc's settings for the page's and the workers' JavaScript.
    steps: list[tuple[str, list[str | Path]]] = [
        ("mypy", [python, "-m", "mypy"]),
        ("ruff", [python, "-m", "ruff", "check", "."]),
        ("tsc", [*tsc, "typecheck/jsconfig.json"]),
        ("tsc (workers)", [*tsc, "typecheck/jsconfig.worker.json"]),
        ("pytest", [python, "-m", "pytest", *pytest_args]),
    ]
    for name, cmd in steps:
        log(f"running {name}")
        if subprocess.run([str(part) for part in cmd], cwd=ROOT, env=env).returncode != 0:
            failed.append(name)
    if failed:
        log("FAILED: " + ", ".join(failed))
    return 1 if failed else 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["test"]:  # everything after "test" belongs to pytest
        return test(argv[1:])
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("build", help="make dist/ from clean")
    serve_parser = sub.add_parser("serve", help="build, then serve dist/")
    serve_parser.add_argument("--port", type=int, default=8000)
    serve_parser.add_argument("--host", default="127.0.0.1",
                              help="address to listen on (default 127.0.0.1)")
    sub.add_parser("test", help="set up tools, build, then run mypy, ruff, tsc and pytest")
    sub.add_parser("stdlib-trace", help="trace the page's standard library imports in Pyodide "
                   f"and write them to {STDLIB_LIST.relative_to(ROOT)}")
    args = parser.parse_args(argv)
    if args.command == "serve":
        serve(args.host, args.port)
    elif args.command == "stdlib-trace":
        write_stdlib_list()
    else:
        build()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
