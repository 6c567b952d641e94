"""The modules of calypso_core import each other without circles and without private names.

The graph is built from the sources (every import statement, including those inside
functions and under ``if TYPE_CHECKING``), so a circle hidden in a function body counts.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "calypso_core"


class Source:
    """One module: its dotted name, whether it is a package's __init__, its syntax tree."""

    def __init__(self, path: Path, root: Path) -> None:
        parts = path.relative_to(root).with_suffix("").parts
        self.is_package = parts[-1] == "__init__"
        self.name = ".".join(parts[:-1] if self.is_package else parts)
        self.tree = ast.parse(path.read_text(encoding="utf-8"), str(path))


def sources(package: Path = PACKAGE) -> dict[str, Source]:
    found = (Source(path, package.parent) for path in sorted(package.rglob("*.py")))
    return {source.name: source for source in found}


def imports(source: Source, modules: set[str]) -> list[tuple[str, str, int]]:
    """(module, name or "", line) for each import of a calypso_core module in ``source``.

    ``from .x import y`` imports the module ``.x.y`` when there is one, else the name ``y``
    of ``.x``. Imports in function bodies and ``if TYPE_CHECKING`` blocks count too.
    """
    package = source.name if source.is_package else source.name.rpartition(".")[0]
    found = []
    for node in ast.walk(source.tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, "", node.lineno) for alias in node.names
                      if alias.name.split(".")[0] == "calypso_core"]  # fmt: skip
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            parts = [*base, node.module] if node.level else [node.module or ""]
            target = ".".join(part for part in parts if part)
            if target.split(".")[0] != "calypso_core":
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                found.append((sub, "", node.lineno) if sub in modules else
                             (target, alias.name, node.lineno))  # fmt: skip
    return found


def import_graph(found: dict[str, Source]) -> dict[str, set[str]]:
    modules = set(found)
    return {
        name: {target for target, _, _ in imports(source, modules) if target != name}
        for name, source in found.items()
    }


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of two or more modules (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(groups)


def test_no_module_of_calypso_core_imports_in_a_circle() -> None:
    found = circles(import_graph(sources()))
    assert not found, "import circles: " + "; ".join(" <-> ".join(group) for group in found)


def test_no_private_name_is_imported_from_another_module() -> None:
    found = sources()
    private = [
        f"{name}:{line} imports {target}.{imported}"
        for name, source in found.items()
        for target, imported, line in imports(source, set(found))
        if imported.startswith("_") and not imported.startswith("__")
    ]
    assert not private, "private names imported: " + "; ".join(private)


# -- the checker itself ------------------------------------------------------------------------


def test_the_graph_sees_imports_in_functions_and_type_checking_blocks(tmp_path: Path) -> None:
    package = tmp_path / "calypso_core"
    (package / "bots").mkdir(parents=True)
    (package / "__init__.py").write_text("from .game import GameState\n")
    (package / "game.py").write_text("def view():\n    from .observe import show\n")
    (package / "observe.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .game import GameState\n"
    )
    (package / "bots" / "__init__.py").write_text("from .base import Bot\n")
    (package / "bots" / "base.py").write_text("from .. import game\nfrom ..cards import _x\n")
    (package / "cards.py").write_text("_x = 1\n")
    found = sources(package)
    graph = import_graph(found)
    assert graph["calypso_core"] == {"calypso_core.game"}
    assert graph["calypso_core.bots"] == {"calypso_core.bots.base"}
    assert graph["calypso_core.bots.base"] == {"calypso_core.game", "calypso_core.cards"}
    assert circles(graph) == [["calypso_core.game", "calypso_core.observe"]]
    assert ("calypso_core.cards", "_x", 2) in imports(found["calypso_core.bots.base"], set(found))


def test_a_circle_of_three_is_one_group() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]
