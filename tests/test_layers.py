"""The package's layers, read from its imports: the engine, then the bots, then the table, then
the command line; a module imports nothing from a layer above its own, the table reaches the
bots only through their public package, and no module imports another by name at run time.

The modules are found by walking the package, so a new module is checked from its first day:
any module not named below as part of a higher layer is engine. (Circles and private names:
tests/test_imports.py.)"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

from test_imports import PACKAGE, imports, sources

LAYERS = ("engine", "bots", "table", "command line")
# The modules above the engine: a name, or a package and everything in it.
COMMAND_LINE = {"calypso_core.__main__", "calypso_core.terminal", "calypso_core.cli_io",
                "calypso_core.interrupts",
                "calypso_core.bots.cli", "calypso_core.bots.review_cli"}


def layer(module: str) -> int:
    """The index in LAYERS of a module of calypso_core."""
    if module in COMMAND_LINE:
        return LAYERS.index("command line")
    for name in ("table", "bots"):
        if module == f"calypso_core.{name}" or module.startswith(f"calypso_core.{name}."):
            return LAYERS.index(name)
    return LAYERS.index("engine")


def is_import_by_name(node: ast.Call) -> bool:
    """A call of ``importlib.import_module``, ``import_module`` or ``__import__``."""
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return name in ("import_module", "__import__")


def layer_problems(package: Path = PACKAGE) -> list[str]:
    """Every import that breaks the layers, as "module:line imports target (why)"."""
    found = sources(package)
    problems = []
    for name, source in sorted(found.items()):
        for target, _, line in imports(source, set(found)):
            where = f"{name}:{line} imports {target}"
            if layer(target) > layer(name):
                problems.append(f"{where} ({LAYERS[layer(name)]} below "
                                f"{LAYERS[layer(target)]})")
            elif (layer(name) == LAYERS.index("table") and target.startswith("calypso_core.bots.")):
                problems.append(f"{where} (the table uses the bots' public package only)")
        problems += [f"{name}:{node.lineno} imports a module by name at run time"
                     for node in ast.walk(source.tree)
                     if isinstance(node, ast.Call) and is_import_by_name(node)]
    return problems


def test_every_module_keeps_to_its_layer() -> None:
    assert layer_problems() == []


def test_the_layers_cover_every_module_of_the_package() -> None:
    found = set(sources())
    # The walk sees the modules that were missed when the list was written by hand.
    assert {"calypso_core.kernel", "calypso_core.trick_reasons", "calypso_core.jsontext",
            "calypso_core.messages", "calypso_core.messages.render"} <= found
    assert {name for name in found if layer(name) == 0} >= {
        "calypso_core.cards", "calypso_core.game", "calypso_core.kernel",
        "calypso_core.trick_reasons", "calypso_core.messages.render"}
    assert found >= COMMAND_LINE  # no name of a deleted module lingers here


# -- the check itself fails when it should --------------------------------------------------


def copy_of_the_package(tmp_path: Path) -> Path:
    copy = tmp_path / "calypso_core"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "*.json"))
    return copy


def add_line(path: Path, line: str) -> None:
    path.write_text(path.read_text() + f"\n{line}\n")


def test_an_engine_module_importing_the_bots_is_caught(tmp_path: Path) -> None:
    copy = copy_of_the_package(tmp_path)
    add_line(copy / "trick_reasons.py", "from .bots import LEVELS")
    problems = layer_problems(copy)
    assert len(problems) == 1
    assert problems[0].startswith("calypso_core.trick_reasons:")
    assert problems[0].endswith("imports calypso_core.bots (engine below bots)")


def test_an_upward_import_inside_a_function_is_caught(tmp_path: Path) -> None:
    copy = copy_of_the_package(tmp_path)
    add_line(copy / "bots" / "knowledge.py",
             "def later():\n    from ..table.words import level_label\n    return level_label")
    assert [p.split(":", 1)[1].split(" ", 1)[1] for p in layer_problems(copy)] == [
        "imports calypso_core.table.words (bots below table)"]


def test_the_table_importing_a_bots_module_directly_is_caught(tmp_path: Path) -> None:
    copy = copy_of_the_package(tmp_path)
    add_line(copy / "table" / "aids.py", "from ..bots.search import SearchBot")
    assert [p.split(" (")[1] for p in layer_problems(copy)] == [
        "the table uses the bots' public package only)"]


def test_importing_a_module_by_name_is_caught(tmp_path: Path) -> None:
    copy = copy_of_the_package(tmp_path)
    add_line(copy / "table" / "players.py",
             "import importlib\nbots = importlib.import_module('calypso_core.bots')")
    problems = layer_problems(copy)
    assert len(problems) == 1
    assert problems[0].startswith("calypso_core.table.players:")
    assert problems[0].endswith("imports a module by name at run time")
