"""The engine's wheel, built with the pinned flit_core the same way every time, and where it
is installed in Pyodide's file system."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

from .fetch import fetch_wheel
from .pins import FLIT_CORE, PYODIDE_PYTHON, SOURCE_DATE_EPOCH
from .tools import ROOT

# Where the engine is installed in Pyodide's file system: its site-packages. micropip puts it
# there when the snapshot is made; the worker unpacks the same wheel there in the browser
# (compiled: buildsteps/bytecode.py).
ENGINE_SITE = f"/lib/python{PYODIDE_PYTHON}/site-packages"


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
