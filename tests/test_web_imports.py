"""The page's modules import each other in no circle, as the engine's do (tests/test_imports.py).

A circle in web/ once ran engine-client.js -> remote/choose.js -> remote/guest.js (and host.js)
-> remote/commit.js (now fair.js) -> engine-client.js, because the page's one client,
``engine()``, lived in the worker's client; it now has a module of its own (web/engine.js). The
graph counts every import of a module of web/: static ones (``import … from``, ``export …
from``, ``import "…"``) and dynamic ones (``import("…")``), which load on demand but still make
a circle. The check is shown to fire on a circle planted in a copy of the page."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

WEB = Path(__file__).resolve().parents[1] / "web"
# The path of an import: from "x", import "x", or import("x"), with ' or ".
_IMPORT = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)(['"])(\.{1,2}/[^'"]+)\1""",
                     re.MULTILINE)


def code_of(source: str) -> str:
    """A module's source less its comments (a comment may name a module it does not import)."""
    source = re.sub(r"/\*.*?\*/", " ", source, flags=re.DOTALL)
    return re.sub(r"(?<![:\"'\\])//[^\n]*", " ", source)


def import_graph(web: Path = WEB) -> dict[str, set[str]]:
    """Each module of ``web`` (its path under it) and the modules of ``web`` it imports."""
    modules = {path.relative_to(web).as_posix(): path for path in sorted(web.rglob("*.js"))}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = set()
        for _, target in _IMPORT.findall(code_of(path.read_text())):
            resolved = (path.parent / target).resolve()
            if resolved.is_relative_to(web.resolve()):
                under = resolved.relative_to(web.resolve()).as_posix()
                if under in modules:  # web/vendor/… is built into dist/ only
                    targets.add(under)
        graph[name] = targets
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every circle of the graph, each once, as the modules along it from its least name back
    to it (depth first from every module; the page has a few dozen)."""
    found: set[tuple[str, ...]] = set()

    def walk(path: list[str]) -> None:
        for target in sorted(graph[path[-1]]):
            if target == path[0]:
                found.add(tuple(path))
            elif target not in path and target > path[0]:  # each circle from its least name
                walk([*path, target])

    for start in sorted(graph):
        walk([start])
    return [[*circle, circle[0]] for circle in sorted(found)]


def test_the_pages_modules_import_each_other_in_no_circle() -> None:
    assert circles(import_graph()) == []


def test_the_graph_sees_static_dynamic_and_re_exporting_imports() -> None:
    graph = import_graph()
    assert "engine-client.js" in graph["engine.js"]  # import { … } from
    assert "remote/guest.js" in graph["remote/choose.js"]  # import("./guest.js")
    assert "app.js" in graph["start-engine.js"]  # import("./app.js"), after the worker starts
    assert "state.js" in graph["remote/host.js"]  # a module one folder up: "../state.js"


def test_the_circle_check_fires_on_a_planted_circle(tmp_path: Path) -> None:
    copy = tmp_path / "web"
    shutil.copytree(WEB, copy)
    # The circle there was: the worker's client importing the remote table's chooser again.
    client = copy / "engine-client.js"
    client.write_text('import { tableClient } from "./remote/choose.js";\n' + client.read_text())
    found = circles(import_graph(copy))
    assert found and all("engine-client.js" in circle for circle in found)
    assert ["engine-client.js", "remote/choose.js", "remote/guest.js", "remote/fair.js",
            "engine-client.js"] in found
    # A comment naming an import is no import.
    quiet = tmp_path / "quiet"
    shutil.copytree(WEB, quiet)
    (quiet / "engine-client.js").write_text(
        '// import { tableClient } from "./remote/choose.js";\n'
        + (quiet / "engine-client.js").read_text())
    assert circles(import_graph(quiet)) == []
