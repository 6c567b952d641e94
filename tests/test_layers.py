"""The package's layers, read from its imports: the engine imports neither the bots nor the
table; the table reaches the bots only through their public package; no circles; nobody
imports another module's private names."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "calypso_core"
# The engine's own modules; the command line, the terminal game, bots and table sit above.
ENGINE = {"cards", "game", "rules", "record", "observe", "explain", "fastsim"}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_module(name: str) -> bool:
    path = PACKAGE.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def imports(path: Path) -> list[tuple[str, list[str]]]:
    """(absolute module, names taken from it) for each import in a file, lazy ones too."""
    here = module_name(path).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    found = []
    tree = ast.parse(path.read_text())
    # Imports for the type checker only are not run, so they make no circle.
    for block in ast.walk(tree):
        if isinstance(block, ast.If) and getattr(block.test, "id", "") == "TYPE_CHECKING":
            block.body = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            target = ".".join([*base, *(node.module.split(".") if node.module else [])])
            names = [alias.name for alias in node.names]
            submodules = [n for n in names if is_module(f"{target}.{n}")]  # from . import x
            found += [(f"{target}.{n}", []) for n in submodules]
            found.append((target, [n for n in names if n not in submodules]))
        elif isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names]
        elif (isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "import_module"
              and node.args and isinstance(node.args[0], ast.Constant)):
            found.append((str(node.args[0].value), []))
    return found


def modules() -> dict[str, list[tuple[str, list[str]]]]:
    return {module_name(p): imports(p) for p in PACKAGE.rglob("*.py")}


def test_the_engine_imports_neither_the_bots_nor_the_table() -> None:
    for name, found in modules().items():
        if name.removeprefix("calypso_core.") in ENGINE:
            for target, _ in found:
                assert not target.startswith(("calypso_core.bots", "calypso_core.table")), \
                    f"{name} imports {target}"


def test_the_table_reaches_the_bots_through_their_public_package_only() -> None:
    for name, found in modules().items():
        if name.startswith("calypso_core.table"):
            for target, _ in found:
                assert not target.startswith("calypso_core.bots."), f"{name} imports {target}"


def test_no_module_imports_a_private_name_of_another() -> None:
    for name, found in modules().items():
        for target, names in found:
            private = [n for n in names if n.startswith("_") and not n.startswith("__")]
            assert not private, f"{name} imports {private} from {target}"


def in_layers(name: str) -> bool:
    return name.startswith("calypso_core.table") or name.removeprefix("calypso_core.") in ENGINE


def test_the_engine_and_the_table_import_without_circles() -> None:
    # Lazy imports (inside functions) count: they are how a circle hides.
    graph = {
        name: {t for t, _ in found if in_layers(t) and t != name}
        for name, found in modules().items() if in_layers(name)
    }
    # Importing a package runs its __init__, which may gather its modules: a submodule
    # importing its own package's __init__ is no circle of code, so edges into a package
    # from inside it are left out.
    for name, targets in graph.items():
        graph[name] = {t for t in targets if not name.startswith(t + ".")}
    visiting: list[str] = []
    done: set[str] = set()

    def visit(node: str) -> None:
        if node in done:
            return
        assert node not in visiting, " -> ".join([*visiting[visiting.index(node):], node])
        visiting.append(node)
        for target in sorted(graph.get(node, ())):
            visit(target)
        visiting.pop()
        done.add(node)

    for node in sorted(graph):
        visit(node)
