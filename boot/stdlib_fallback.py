"""The page's standard library holds only what the game imports (boot/stdlib-modules.txt):
this finder brings in any other module of Pyodide's whole standard library when one is
imported, so a module left out costs a download, never the game.

build.py puts this file into the page's standard library zip as ``calypso_stdlib_fallback``,
with LEFT_OUT stamped: the modules of the whole zip that the page's zip leaves out. The
worker installs the finder with a function that fetches the whole zip and writes it to a
path; that happens once, at the first import of a module left out, and that import then goes
on from the whole zip, as do the later ones. Other names it leaves alone: an optional import
of a module that no zip holds fails as it always would.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from importlib.machinery import ModuleSpec, PathFinder
from types import ModuleType

FULL_ZIP = "/lib/python_stdlib_full.zip"  # where the whole standard library goes when needed
LEFT_OUT: frozenset[str] = frozenset()  # stamped by build.py


class FullStdlibFinder:
    """The last meta path finder: a module left out is found in the whole zip, mounted first
    by ``mount(name, path)`` (which writes the zip to ``path`` or raises)."""

    def __init__(self, mount: Callable[[str, str], object], left_out: frozenset[str] = LEFT_OUT,
                 full_zip: str = FULL_ZIP) -> None:
        self.mount = mount
        self.left_out = left_out
        self.full_zip = full_zip
        self.mounted = False
        self.found: list[str] = []  # the modules taken from the whole zip, in order

    def find_spec(self, name: str, path: object = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if name not in self.left_out:
            return None
        if not self.mounted:
            try:
                self.mount(name, self.full_zip)
            except Exception as exc:  # offline, say: the import fails as it would have
                print(f"calypso_stdlib_fallback: cannot load the whole standard library for "
                      f"{name}: {exc}", file=sys.stderr)
                return None
            self.mounted = True
        parent = name.rpartition(".")[0]
        folder = self.full_zip + ("/" + parent.replace(".", "/") if parent else "")
        spec = PathFinder.find_spec(name, [folder])
        if spec is not None:
            self.found.append(name)
        return spec


def install(mount: Callable[[str, str], object]) -> FullStdlibFinder:
    """Put the finder last on ``sys.meta_path`` (after every finder that looks in the page's
    own zip) and return it."""
    finder = FullStdlibFinder(mount)
    sys.meta_path.append(finder)
    return finder
