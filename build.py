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
import errno
import os
import subprocess
import sys
import threading
from pathlib import Path

from buildsteps.bytecode import compile_zips, gzipped
from buildsteps.content import icon_png, rules_dialog_html
from buildsteps.dist import ICON_SIZES, MANIFEST, build, finalize
from buildsteps.fetch import fetch_axe_core, fetch_pyodide, fetch_typescript
from buildsteps.serve import MIME_TYPES, DistServer, serve_in_background, start_server
from buildsteps.snapshot import make_snapshot
from buildsteps.stdlib import (
    STDLIB_LIST,
    STDLIB_MOUNT,
    STDLIB_ZIP,
    game_stdlib,
    stdlib_modules,
    stdlib_trace,
    write_stdlib_list,
    zip_modules,
)
from buildsteps.tools import (
    DIST,
    ROOT,
    apt_install,
    ensure_chromium,
    ensure_node,
    ensure_venv,
    log,
    run_setup,
)
from buildsteps.wheel import build_engine_wheel, mark_names_utf8

# The commands are here; each step is in buildsteps/ (its __init__ lists them). The tests and
# the benchmarks load this file by path and call the steps through it, by these names.
__all__ = [
    "DIST", "ICON_SIZES", "MANIFEST", "MIME_TYPES", "STDLIB_MOUNT", "STDLIB_ZIP", "DistServer",
    "apt_install", "build", "build_engine_wheel", "compile_zips", "ensure_chromium",
    "fetch_axe_core", "fetch_pyodide", "fetch_typescript", "finalize", "game_stdlib",
    "gzipped", "icon_png", "main", "make_snapshot", "mark_names_utf8",
    "rules_dialog_html", "run_setup", "serve", "serve_in_background", "start_server",
    "stdlib_modules", "stdlib_trace", "test", "zip_modules",
]


def serve(host: str, port: int) -> None:
    build()
    try:
        url, stop = start_server(DIST, host, port, quiet=False)
    except OSError as exc:  # one line, naming the way out
        if exc.errno == errno.EADDRINUSE:
            sys.exit(f"build.py: port {port} is in use on {host} (another server?); serve on "
                     f"another with --port, as in: python3 build.py serve --port {port + 1}")
        sys.exit(f"build.py: cannot serve on {host} port {port} ({exc.strerror or exc}); "
                 "choose another address with --host or another port with --port")
    print(f"Serving {DIST} at {url}  (Ctrl+C stops)", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        stop()


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
    # pyproject.toml names what mypy checks (the package, tests/, bench/, boot/, buildsteps/
    # and build.py); typecheck/ holds tsc's settings for the page's and the workers' JavaScript.
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
