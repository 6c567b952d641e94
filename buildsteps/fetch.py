"""Fetching the pinned inputs into .cache/ (outside git), each checked against its hash: the
Pyodide runtime, the remote table's transport (rewritten as browser ES modules), axe-core and
TypeScript for the tests, and PyPI wheels."""

from __future__ import annotations

import re
import shutil
import sys
import tarfile
from pathlib import Path

from .pins import AXE_CORE, PYODIDE, TRANSPORT, TYPESCRIPT
from .tools import CACHE, apt_install, check_hash, log, run, run_setup

RUNTIME_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json"]


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
