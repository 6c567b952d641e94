"""The page's standard library: exactly the modules the game imports (boot/stdlib-modules.txt),
in a zip made the same every time, and a finder that brings in any other module from the
whole standard library when one is imported.
"""

from __future__ import annotations

import ast
import importlib.util
import io
import re
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from pyodide_node import engine_wheel

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "calypso_core"
# Engine modules the page never runs: the command lines.
NOT_ON_THE_PAGE = {"__main__.py", "terminal.py", "cli_io.py", "interrupts.py", "bots/cli.py",
                   "bots/review_cli.py"}
# Imports inside functions the page never calls, each with where it is.
UNUSED_BY_THE_PAGE = {
    "concurrent.futures": "bots/duplicate.py: play_matches, the command line's parallel matches",
    "statistics": "bots/duplicate.py: the command line's match summary",
}


def load_fallback() -> ModuleType:
    spec = importlib.util.spec_from_file_location("stdlib_fallback_under_test",
                                                  ROOT / "boot" / "stdlib_fallback.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def imported_names(source: str) -> set[str]:
    """Every module an import statement names (at any depth), relative ones left out."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_the_module_list_is_what_the_page_imports_traced_in_pyodide(
    build_module: ModuleType, dist_dir: Path
) -> None:
    traced = build_module.stdlib_trace(build_module.fetch_pyodide(), engine_wheel(dist_dir))
    listed = build_module.stdlib_modules()
    assert "calypso_core" not in " ".join(traced)  # the engine is not the standard library's
    new, unused = sorted(set(traced) - set(listed)), sorted(set(listed) - set(traced))
    assert not new and not unused, (
        f"imported but not listed: {new}; listed but not imported: {unused}; "
        "run `python build.py stdlib-trace` and commit boot/stdlib-modules.txt")


def test_every_standard_module_the_engine_names_on_the_pages_paths_is_listed(
    build_module: ModuleType,
) -> None:
    with zipfile.ZipFile(build_module.fetch_pyodide() / "python_stdlib.zip") as whole:
        in_the_zip = set(build_module.zip_modules(whole))
    listed = set(build_module.stdlib_modules())
    named: dict[str, str] = {}
    for path in sorted(ENGINE.rglob("*.py")):
        where = path.relative_to(ENGINE).as_posix()
        if where not in NOT_ON_THE_PAGE:
            for name in imported_names(path.read_text()) & in_the_zip:
                named.setdefault(name, where)
    missing = {name: where for name, where in named.items()
               if name not in listed and name not in UNUSED_BY_THE_PAGE}
    assert not missing, f"imported on the page's paths, not in boot/stdlib-modules.txt: {missing}"
    assert set(UNUSED_BY_THE_PAGE) <= set(named), "an exception that no longer applies"


def test_the_static_check_catches_a_new_import() -> None:
    names = imported_names("def f():\n    import email.parser\n    from xml.dom import minidom\n")
    assert {"email.parser", "xml.dom", "xml.dom.minidom"} <= names


def test_the_wheel_names_its_files_in_utf8_so_unpacking_it_needs_no_codec_the_list_lacks(
    build_module: ModuleType, dist_dir: Path, tmp_path: Path
) -> None:
    # zipfile reads an unflagged name as code page 437, a codec the page's list leaves out.
    with zipfile.ZipFile(engine_wheel(dist_dir)) as wheel:
        assert all(info.flag_bits & 0x800 for info in wheel.infolist())
    assert "encodings.cp437" not in build_module.stdlib_modules()
    plain = tmp_path / "plain.zip"
    with zipfile.ZipFile(plain, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("calypso_core/a.py", "A = 1\n")
        archive.writestr("calypso_core/b.json", "{}")
    build_module.mark_names_utf8(plain)
    with zipfile.ZipFile(plain) as archive:
        assert [info.flag_bits & 0x800 for info in archive.infolist()] == [0x800, 0x800]
        assert archive.read("calypso_core/b.json") == b"{}" and archive.testzip() is None


def test_the_game_stdlib_holds_the_list_and_the_finder_and_is_made_the_same_every_time(
    build_module: ModuleType, dist_dir: Path
) -> None:
    runtime = build_module.fetch_pyodide()
    made = build_module.game_stdlib(runtime)
    assert made == build_module.game_stdlib(runtime)
    # dist/ ships it compiled: tests/test_bytecode.py.
    with zipfile.ZipFile(io.BytesIO(made)) as archive:
        modules = build_module.zip_modules(archive)
        listed = build_module.stdlib_modules()
        assert sorted(modules) == sorted([*listed, "calypso_stdlib_fallback"])
        assert {info.date_time for info in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}
        assert archive.namelist() == sorted(archive.namelist())
        finder = archive.read("calypso_stdlib_fallback.py").decode()
    with zipfile.ZipFile(runtime / "python_stdlib.zip") as whole:
        everything = set(build_module.zip_modules(whole))
        # Every module keeps its bytes, so its code is Pyodide's own.
        assert archive_files_match(made, whole)
    stamped = re.search(r"^LEFT_OUT = frozenset\((.*)\)$", finder, re.M)
    assert stamped, "LEFT_OUT is stamped"
    assert set(ast.literal_eval(stamped.group(1))) == everything - set(modules)
    assert "email.parser" in everything - set(modules)


def archive_files_match(made: bytes, whole: zipfile.ZipFile) -> bool:
    with zipfile.ZipFile(io.BytesIO(made)) as archive:
        return all(archive.read(name) == whole.read(name) for name in archive.namelist()
                   if name.endswith(".py") and name != "calypso_stdlib_fallback.py")


def test_a_list_naming_a_module_the_runtime_lacks_stops_the_build(
    build_module: ModuleType,
) -> None:
    with pytest.raises(SystemExit, match="does not hold: no_such_module"):
        build_module.game_stdlib(build_module.fetch_pyodide(), ["json", "no_such_module"])


def test_an_unsorted_list_stops_the_build(build_module: ModuleType, tmp_path: Path) -> None:
    listing = tmp_path / "list.txt"
    listing.write_text("# a comment\njson\nbase64\n")
    with pytest.raises(SystemExit, match="must be sorted"):
        build_module.stdlib_modules(listing)
    listing.write_text("# a comment\nbase64\njson  # kept\n\n")
    assert build_module.stdlib_modules(listing) == ["base64", "json"]


# -- the finder ------------------------------------------------------------------------------


@pytest.fixture
def whole_zip(tmp_path: Path) -> Path:
    """A stand-in for the whole standard library: a module, and a package with a submodule."""
    path = tmp_path / "whole.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("calypso_left_mod.py", "VALUE = 1\n")
        archive.writestr("calypso_left_pkg/__init__.py", "")
        archive.writestr("calypso_left_pkg/sub.py", "VALUE = 2\n")
        archive.writestr("calypso_kept_pkg/__init__.py", "")
        archive.writestr("calypso_kept_pkg/extra.py", "VALUE = 3\n")
    return path


@pytest.fixture
def trimmed_zip(tmp_path: Path) -> Iterator[Path]:
    """A stand-in for the page's zip on sys.path: a package without one of its submodules."""
    path = tmp_path / "trimmed.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("calypso_kept_pkg/__init__.py", "")
    sys.path.append(str(path))
    yield path
    sys.path.remove(str(path))


@pytest.fixture
def clean_imports() -> Iterator[None]:
    meta_path = list(sys.meta_path)
    yield
    sys.meta_path[:] = meta_path
    for name in [n for n in sys.modules if n.startswith(("calypso_left_", "calypso_kept_"))]:
        del sys.modules[name]


@pytest.mark.usefixtures("clean_imports", "trimmed_zip")
def test_the_finder_mounts_the_whole_zip_once_and_imports_go_on_from_it(
    whole_zip: Path, tmp_path: Path
) -> None:
    fallback = load_fallback()
    mounted: list[str] = []
    target = tmp_path / "mounted.zip"

    def mount(name: str, path: str) -> None:
        mounted.append(name)
        Path(path).write_bytes(whole_zip.read_bytes())

    finder = fallback.FullStdlibFinder(
        mount, frozenset({"calypso_left_mod", "calypso_left_pkg", "calypso_left_pkg.sub",
                          "calypso_kept_pkg.extra"}), str(target))
    sys.meta_path.append(finder)
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("calypso_not_left_out")
    assert mounted == []  # a name that is not left out costs nothing
    assert importlib.import_module("calypso_left_mod").VALUE == 1
    assert importlib.import_module("calypso_left_pkg.sub").VALUE == 2
    assert mounted == ["calypso_left_mod"]
    # A package of the page's zip, its submodule from the whole zip.
    assert importlib.import_module("calypso_kept_pkg.extra").VALUE == 3
    assert mounted == ["calypso_left_mod"]
    # A package found there looks for its submodules there itself.
    assert finder.found == ["calypso_left_mod", "calypso_left_pkg", "calypso_kept_pkg.extra"]


@pytest.mark.usefixtures("clean_imports")
def test_a_failed_mount_fails_that_import_only_and_is_tried_again(
    whole_zip: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fallback = load_fallback()
    offline = [True]

    def mount(name: str, path: str) -> None:
        if offline[0]:
            raise OSError("the network is down")
        Path(path).write_bytes(whole_zip.read_bytes())

    sys.meta_path.append(fallback.FullStdlibFinder(
        mount, frozenset({"calypso_left_mod"}), str(tmp_path / "mounted.zip")))
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("calypso_left_mod")
    assert "calypso_left_mod: the network is down" in capsys.readouterr().err
    offline[0] = False
    assert importlib.import_module("calypso_left_mod").VALUE == 1


@pytest.mark.usefixtures("clean_imports")
def test_install_puts_the_finder_last() -> None:
    fallback = load_fallback()
    finder: Any = fallback.install(lambda name, path: None)
    assert finder.left_out == frozenset()  # stamped by build.py only
    assert sys.meta_path[-1] is finder
