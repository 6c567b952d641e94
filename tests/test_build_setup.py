"""build.py's set-up: it says what it installs and why before doing it, and a missing tool
or a failing one ends it with one line saying what to do, never a traceback."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


def one_line(exit: pytest.ExceptionInfo[SystemExit]) -> str:
    message = exit.value.code
    assert isinstance(message, str), message  # sys.exit(text): Python prints it, no traceback
    assert "\n" not in message and message.startswith("build.py: ")
    return message


def which_only(*found: str) -> Callable[[str], str | None]:
    return lambda name: f"/usr/bin/{name}" if name in found else None


@pytest.fixture
def no_tools_run(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Every command build.py would run, recorded instead of run."""
    ran: list[list[str]] = []

    def record(cmd: list[str], **options: Any) -> subprocess.CompletedProcess[str]:
        ran.append([str(part) for part in cmd])
        return subprocess.CompletedProcess(cmd, 0)

    monkeypatch.setattr(subprocess, "run", record)
    return ran


def test_without_apt_get_a_missing_npm_ends_in_one_line_naming_it(
    build_module: ModuleType, monkeypatch: pytest.MonkeyPatch, no_tools_run: list[list[str]]
) -> None:
    monkeypatch.setattr(shutil, "which", which_only())
    with pytest.raises(SystemExit) as ended:
        build_module.apt_install("npm", "npm", "npm fetches the runtime")
    assert one_line(ended) == (
        "build.py: npm is missing (npm fetches the runtime); install npm with your system's "
        "package manager, then run build.py again"
    )
    assert no_tools_run == []


def test_without_root_a_missing_package_ends_in_one_line_with_the_apt_command(
    build_module: ModuleType, monkeypatch: pytest.MonkeyPatch, no_tools_run: list[list[str]]
) -> None:
    monkeypatch.setattr(shutil, "which", which_only("apt-get"))
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    with pytest.raises(SystemExit) as ended:
        build_module.apt_install("nodejs", "node", "Node.js makes the snapshot")
    assert one_line(ended) == (
        "build.py: node is missing (Node.js makes the snapshot); install it as root "
        "(apt-get install nodejs), then run build.py again"
    )
    assert no_tools_run == []


def test_as_root_it_says_what_it_installs_and_why_before_running_apt(
    build_module: ModuleType,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    installed: list[str] = []
    said_first: list[bool] = []

    def apt(cmd: list[str], **options: Any) -> subprocess.CompletedProcess[str]:
        said_first.append("installing the system package chromium" in capsys.readouterr().err)
        installed.append(" ".join(str(part) for part in cmd))
        return subprocess.CompletedProcess(cmd, 0)

    def which(name: str) -> str | None:  # chromium appears once apt-get has installed it
        return which_only("apt-get", *(["chromium"] if installed else []))(name)

    monkeypatch.delenv("CALYPSO_CHROMIUM", raising=False)
    monkeypatch.setattr(subprocess, "run", apt)
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    monkeypatch.setattr(shutil, "which", which)
    assert build_module.ensure_chromium(Path("python")) == "/usr/bin/chromium"
    assert installed == ["apt-get update -q", "apt-get install -y -q chromium"]
    assert said_first == [True, False]


def test_a_failing_set_up_tool_ends_in_one_line_with_advice(build_module: ModuleType) -> None:
    with pytest.raises(SystemExit) as ended:
        build_module.run_setup("npm pack pyodide", "check the network",
                               sys.executable, "-c", "raise SystemExit(3)")  # fmt: skip
    assert one_line(ended) == "build.py: npm pack pyodide failed (exit status 3); check the network"
    with pytest.raises(SystemExit) as ended:
        build_module.run_setup("node", "install Node.js", "/nowhere/node")
    assert one_line(ended) == (
        "build.py: node could not start (No such file or directory); install Node.js"
    )


def test_without_chromium_or_root_it_says_it_downloads_playwrights_chromium(
    build_module: ModuleType,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    no_tools_run: list[list[str]],
) -> None:
    monkeypatch.delenv("CALYPSO_CHROMIUM", raising=False)
    monkeypatch.setattr(shutil, "which", which_only("apt-get"))
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert build_module.ensure_chromium(Path("python")) == ""
    assert no_tools_run == [["python", "-m", "playwright", "install", "chromium"]]
    assert "downloading Playwright's own Chromium" in capsys.readouterr().err


def test_a_fresh_machine_without_npm_or_apt_gets_one_line_not_a_traceback(
    tmp_path: Path,
) -> None:
    # The runtime is not cached (the cache fetch.py reads is an empty folder) and nothing can
    # fetch it: build.py says what to install.
    code = (
        "import pathlib, sys\n"
        "from buildsteps import fetch\n"
        "fetch.CACHE = pathlib.Path(sys.argv[1])\n"
        "fetch.fetch_pyodide()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)], cwd=ROOT,
        env={**os.environ, "PATH": str(tmp_path)}, capture_output=True, text=True,
        timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stderr == (
        "build.py: npm is missing (npm fetches the pinned Pyodide runtime from the npm "
        "registry); install npm with your system's package manager, then run build.py again\n"
    )


def test_serve_on_a_port_in_use_ends_in_one_line_naming_port(
    build_module: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(build_module, "build", lambda: None)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(SystemExit) as ended:
            build_module.serve("127.0.0.1", port)
    assert one_line(ended) == (
        f"build.py: port {port} is in use on 127.0.0.1 (another server?); serve on another "
        f"with --port, as in: python3 build.py serve --port {port + 1}")
    with pytest.raises(SystemExit) as ended:
        build_module.serve("192.0.2.1", 8000)  # an address of no interface here (TEST-NET-1)
    assert one_line(ended).startswith("build.py: cannot serve on 192.0.2.1 port 8000 (")
    assert "--host" in one_line(ended) and "--port" in one_line(ended)
