"""Making dist/ from clean: the page, its runtime and standard library, the engine's wheel and
snapshot, the catalogs, the icons; then every file hashed into the manifest and the service
worker's precache list."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from .bytecode import FULL_LINES, LEAN, compile_zips, gzipped, page_wheel
from .content import copy_messages, icon_png, render_rules_dialog
from .fetch import RUNTIME_FILES, fetch_pyodide, fetch_transport
from .pins import PYODIDE
from .snapshot import SNAPSHOT_FOLDER, SNAPSHOT_MODULES, make_snapshot, snapshot_heap
from .stdlib import STDLIB_FULL, STDLIB_MOUNT, STDLIB_ZIP, game_lock, game_stdlib
from .tools import DIST, WEB, log, sha256_of
from .wheel import ENGINE_SITE, build_engine_wheel, mark_names_utf8

MANIFEST = "build-info.json"
SERVICE_WORKER = "sw.js"  # stamped with the build and its file list; see stamp_service_worker
ICON_SIZES = (192, 512)  # PNG icons for the web app manifest, drawn by icon_png
# Files the page fetches only when the person asks for them, never on a first visit: the
# service worker keeps each once fetched (checked against its hash), not at its install.
ON_DEMAND = ("puzzles.json",)


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
    # The page's Python goes out compiled (see buildsteps/bytecode.py): the standard library
    # and the engine's wheel, each a stored zip gzipped whole, which the worker unzips.
    # The wheels are this build's own (a folder of its own): two checkouts sharing the cache
    # that built at once once put one's engine in the other's snapshot.
    scratch = Path(tempfile.mkdtemp(prefix="calypso-wheels-"))
    try:
        source = build_engine_wheel(scratch / "wheel")
        stdlib, compiled = compile_zips(runtime, [(game_stdlib(runtime), STDLIB_MOUNT, LEAN),
                                                  (source.read_bytes(), f"{ENGINE_SITE}/",
                                                   FULL_LINES)])
        engine = scratch / source.name  # the wheel the snapshot's micropip installs
        engine.write_bytes(page_wheel(compiled))
        mark_names_utf8(engine)
        (dist / f"{STDLIB_ZIP}.gz").write_bytes(gzipped(stdlib))
        (dist / "wheels").mkdir()
        (dist / "wheels" / f"{engine.name}.gz").write_bytes(gzipped(engine.read_bytes()))
        snapshot = make_snapshot(runtime, engine, stdlib)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    snapshot_sha256 = sha256_of(snapshot)
    snapshot_path = f"{SNAPSHOT_FOLDER}/engine-{snapshot_sha256[:16]}.snapshot.gz"
    (dist / SNAPSHOT_FOLDER).mkdir()
    shutil.copyfile(snapshot, dist / snapshot_path)
    (dist / "icons").mkdir()
    for size in ICON_SIZES:
        (dist / "icons" / f"icon-{size}.png").write_bytes(icon_png(size))
    manifest = finalize(dist, {"pyodide": PYODIDE["version"],
                               "engine_wheel": f"wheels/{engine.name}.gz",
                               "engine_site": ENGINE_SITE,
                               "stdlib": f"{STDLIB_ZIP}.gz",
                               "stdlib_full": STDLIB_FULL,
                               "snapshot": snapshot_path,
                               "snapshot_sha256": snapshot_sha256,
                               "snapshot_modules": SNAPSHOT_MODULES,
                               "snapshot_heap": snapshot_heap(snapshot),
                               "on_demand": list(ON_DEMAND)})
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
        worker.write_text(stamp_service_worker(code, "unbuilt", {}, {}))
    files = sorted(p for p in dist.rglob("*") if p.is_file())
    hashes = {p.relative_to(dist).as_posix(): sha256_of(p) for p in files}
    build_id = hashlib.sha256(json.dumps(hashes, sort_keys=True).encode()).hexdigest()[:16]
    if code is not None:
        # The whole standard library is fetched only if a module the page's lacks is imported;
        # the files fetched on demand are kept once fetched, not on a first visit.
        precache = {path: digest for path, digest in hashes.items()
                    if path not in (SERVICE_WORKER, info.get("stdlib_full"), *ON_DEMAND)}
        on_demand = {path: hashes[path] for path in ON_DEMAND if path in hashes}
        worker.write_text(stamp_service_worker(code, build_id, precache, on_demand))
    manifest = {
        # The build hash covers every other file, so it names the service worker's cache.
        "build": build_id,
        **info,
        "files": {path: (dist / path).stat().st_size for path in hashes},
    }
    old.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    return manifest


SW_STAMP = {"BUILD": re.compile(r"^const BUILD = .*;$", re.M),
            "FILES": re.compile(r"^const FILES = .*;$", re.M),
            "ON_DEMAND": re.compile(r"^const ON_DEMAND = .*;$", re.M)}


def stamp_service_worker(code: str, build_id: str, files: dict[str, str],
                         on_demand: dict[str, str] | None = None) -> str:
    """Write the build id, the precache list and the files kept once fetched ({path: sha256})
    into sw.js's three stamp lines."""
    values = {"BUILD": json.dumps(build_id), "FILES": json.dumps(files, sort_keys=True),
              "ON_DEMAND": json.dumps(on_demand or {}, sort_keys=True)}
    for name, pattern in SW_STAMP.items():
        line = f"const {name} = {values[name]};"
        code, count = pattern.subn(line.replace("\\", "\\\\"), code, count=1)
        if count != 1:
            sys.exit(f"build.py: {SERVICE_WORKER} has no line starting 'const {name} = '")
    return code
