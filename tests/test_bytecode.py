"""The page's Python goes out compiled: the standard library zip and the engine's wheel hold
bytecode made by the pinned runtime, stored and gzipped whole (buildsteps/bytecode.py), and
the runtime imports from it without compiling."""

from __future__ import annotations

import base64
import gzip
import hashlib
import io
import json
import zipfile
from pathlib import Path
from types import ModuleType

from pyodide_node import engine_wheel, run_in_pyodide

import calypso_core

ENGINE = Path(calypso_core.__file__).parent

def compiled_names(source: bytes) -> list[str]:
    with zipfile.ZipFile(io.BytesIO(source)) as archive:
        return sorted(name + "c" if name.endswith(".py") else name for name in archive.namelist())


def test_the_pages_standard_library_is_its_list_compiled_stored_and_gzipped_whole(
    build_module: ModuleType, dist_dir: Path
) -> None:
    info = json.loads((dist_dir / "build-info.json").read_text())
    assert info["stdlib"] == build_module.STDLIB_ZIP + ".gz"
    packed = (dist_dir / info["stdlib"]).read_bytes()
    with zipfile.ZipFile(io.BytesIO(gzip.decompress(packed))) as archive:
        assert archive.namelist() == compiled_names(build_module.game_stdlib(
            build_module.fetch_pyodide()))
        assert not [name for name in archive.namelist() if name.endswith(".py")]
        assert {info.compress_type for info in archive.infolist()} == {zipfile.ZIP_STORED}
        headers = {archive.read(name)[:8] for name in archive.namelist() if name.endswith(".pyc")}
    # One runtime's magic number; flags 0b01: checked against no source (PEP 552).
    assert len(headers) == 1 and headers.pop()[4:8] == (1).to_bytes(4, "little")


def test_the_pages_wheel_is_the_engine_compiled_with_a_record_of_what_it_holds(
    build_module: ModuleType, dist_dir: Path, tmp_path: Path
) -> None:
    source = build_module.build_engine_wheel(tmp_path).read_bytes()
    with zipfile.ZipFile(engine_wheel(dist_dir)) as wheel:
        # Everything but the catalogs, which the page has apart and the worker never reads.
        catalogs = ["calypso_core/messages/en.json", "calypso_core/messages/ru.json"]
        assert set(catalogs) <= set(compiled_names(source))
        assert sorted(wheel.namelist()) == [name for name in compiled_names(source)
                                            if name not in catalogs]
        assert "calypso_core/table/__init__.pyc" in wheel.namelist()
        assert all(info.flag_bits & 0x800 for info in wheel.infolist())  # UTF-8 names
        (record,) = [n for n in wheel.namelist() if n.endswith(".dist-info/RECORD")]
        rows = dict(line.split(",", 1) for line in wheel.read(record).decode().splitlines())
        for name in wheel.namelist():
            if name != record:
                digest = hashlib.sha256(wheel.read(name)).digest()
                hashed = base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
                assert rows[name] == f"sha256={hashed},{len(wheel.read(name))}"


def test_compiling_again_gives_the_same_bytes(
    build_module: ModuleType, dist_dir: Path, tmp_path: Path
) -> None:
    info = json.loads((dist_dir / "build-info.json").read_text())
    runtime = build_module.fetch_pyodide()
    (stdlib,) = build_module.compile_zips(
        runtime, [(build_module.game_stdlib(runtime), build_module.STDLIB_MOUNT, "lean")],
        tmp_path)
    assert build_module.gzipped(stdlib) == (dist_dir / info["stdlib"]).read_bytes()


def test_the_runtime_imports_the_standard_library_and_the_engine_from_bytecode(
    build_module: ModuleType, dist_dir: Path, tmp_path: Path
) -> None:
    info = json.loads((dist_dir / "build-info.json").read_text())
    stdlib = tmp_path / "stdlib.zip"
    stdlib.write_bytes(gzip.decompress((dist_dir / info["stdlib"]).read_bytes()))
    out = run_in_pyodide("""
import json, traceback
import calypso_core.cards, calypso_core.table
print(json.__spec__.origin, calypso_core.table.__spec__.origin)
def frames(action):
    try:
        action()
    except ValueError as error:
        return [(f.filename.rsplit("/", 1)[-1], f.lineno)
                for f in traceback.extract_tb(error.__traceback__)]
print(json.dumps([frames(lambda: json.loads("{")),
                  frames(lambda: calypso_core.cards.check_seat(9))]))
""", build_module.fetch_pyodide(), engine_wheel(dist_dir), tmp_path, stdlib=stdlib)
    origins, frames = out.splitlines()
    assert origins.split() == [f"{build_module.STDLIB_MOUNT}json/__init__.pyc",
                               "/tmp/engine.whl/calypso_core/table/__init__.pyc"]
    through_json, through_the_engine = json.loads(frames)
    # The standard library keeps the first line of each function, the engine every line.
    decoder = Path(build_module.fetch_pyodide() / "python_stdlib.zip")
    with zipfile.ZipFile(decoder) as whole:
        source = whole.read("json/decoder.py").decode().splitlines()
    assert through_json[-1][0] == "decoder.py"
    assert source[through_json[-1][1] - 1].lstrip().startswith("def raw_decode(")
    cards = (ENGINE / "cards.py").read_text().splitlines()
    assert through_the_engine[-1][0] == "cards.py"
    assert "raise ValueError" in cards[through_the_engine[-1][1] - 1]
