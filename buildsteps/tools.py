"""What every build step uses: where things are, saying what build.py does, running a tool,
checking a download's hash, and setting up a missing tool (apt-get, Node.js, .venv, Chromium)
with one line saying what to do when that is not possible, never a traceback."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

from .pins import DEV_TOOLS

ROOT = Path(__file__).resolve().parents[1]
WEB, DIST, CACHE, VENV = ROOT / "web", ROOT / "dist", ROOT / ".cache", ROOT / ".venv"


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
