"""The page's Python as bytecode: the standard library zip and the engine's wheel compiled by
the pinned runtime itself, so that a first visit imports without compiling.

Pyodide's standard library holds sources only, and compiling them is most of Python's start
in the browser: the runtime imports about 125 standard modules before the engine's first
line, and compiled by the .wasm's first tier they took 2.0 s of a 2.9 s start under Node,
against 0.9 s from bytecode (the engine's import: 0.19 s against 0.05 s). Bytecode is larger
than source, so each archive is stored (no compression by entry) and gzipped whole for the
link, where the modules' common names and code compress together; the worker unzips it as it
comes (web/worker.js). Same inputs, same bytes.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import io
import json
import re
import shutil
import zipfile
from pathlib import Path

from .pins import PYODIDE
from .tools import CACHE, ensure_node, log, run_setup

# Neither keeps function and module docstrings (class docstrings stay: dataclasses would
# otherwise write each one from the class's signature, at import) nor columns (Python's
# -X no_debug_ranges). The engine keeps its line numbers, for the tracebacks of a bug report;
# the standard library keeps one a function, its first: 72 kB less of a first visit than every
# line. None at all would be 21 kB less again, but the traceback module fails on code with no
# line table (StopIteration out of its generator).
LEAN, FULL_LINES = "lean", "lines"

# Run by Pyodide under Node: reads each source zip and writes its bytecode zip. The code
# objects name the files where the runtime will find them (co_filename), as compiling them
# there would: the standard library inside its zip, the engine in site-packages.
COMPILER = r'''
import ast, importlib.util, io, json, marshal, types, zipfile

def strip_docstrings(tree):
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                    and isinstance(body[0].value.value, str)):
                node.body = body[1:] or [ast.copy_location(ast.Pass(), body[0])]
    return tree

def first_lines(code):
    # Every instruction on the function's first line: entries of "no columns" (code 13) of up
    # to 8 code units each, each line delta 0 (the first one's from co_firstlineno).
    units, table = len(code.co_code) // 2, bytearray()
    while units:
        run = min(units, 8)
        table += bytes((0x80 | 13 << 3 | run - 1, 0))
        units -= run
    consts = tuple(first_lines(c) if isinstance(c, types.CodeType) else c for c in code.co_consts)
    return code.replace(co_linetable=bytes(table), co_consts=consts)

def bytecode(source, filename, mode):
    tree = ast.parse(source, filename)
    code = compile(strip_docstrings(tree), filename, "exec", dont_inherit=True)
    code = first_lines(code) if mode == "lean" else code
    # An unchecked hash-based .pyc (PEP 552): loaded as it is, whatever its source's time.
    return (importlib.util.MAGIC_NUMBER + (0b01).to_bytes(4, "little")
            + importlib.util.source_hash(source) + marshal.dumps(code))

def compile_zip(source_path, out_path, prefix, mode):
    out = io.BytesIO()
    with zipfile.ZipFile(source_path) as source, zipfile.ZipFile(out, "w") as archive:
        for name in sorted(source.namelist()):
            data = source.read(name)
            if name.endswith(".py"):
                data, name = bytecode(data, prefix + name, mode), name + "c"
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = (0o40755 if name.endswith("/") else 0o100644) << 16
            archive.writestr(info, data)  # stored: the whole zip is gzipped
    with open(out_path, "wb") as file:
        file.write(out.getvalue())

for job in json.loads(JOBS):
    compile_zip(*job)
'''

MAKER = """
import fs from "node:fs";
import { pathToFileURL } from "node:url";
const [runtime, jobs, compiler] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${runtime}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${runtime}/`,
                                    env: { HOME: "/home/pyodide", PYTHONNODEBUGRANGES: "1" } });
const list = JSON.parse(jobs);
const inside = list.map(([source, out, prefix, mode], n) => {
  pyodide.FS.writeFile(`/tmp/in${n}.zip`, fs.readFileSync(source));
  return [`/tmp/in${n}.zip`, `/tmp/out${n}.zip`, prefix, mode];
});
pyodide.globals.set("JOBS", JSON.stringify(inside));
pyodide.runPython(fs.readFileSync(compiler, "utf8"));
list.forEach(([, out], n) => fs.writeFileSync(out, pyodide.FS.readFile(`/tmp/out${n}.zip`)));
"""


def compile_zips(runtime: Path, jobs: list[tuple[bytes, str, str]],
                 cache: Path = CACHE / "bytecode") -> list[bytes]:
    """Each (source zip, where its files will be, LEAN or FULL_LINES) as a stored zip of the
    same files with every ``.py`` compiled to an unchecked ``.pyc`` by the pinned runtime;
    cached by the inputs."""
    key = hashlib.sha256(json.dumps([PYODIDE, COMPILER, MAKER, [
        [hashlib.sha256(data).hexdigest(), prefix, mode] for data, prefix, mode in jobs]])
        .encode()).hexdigest()[:16]
    outs = [cache / f"{key}-{n}.zip" for n in range(len(jobs))]
    if all(out.is_file() for out in outs):
        return [out.read_bytes() for out in outs]
    node = ensure_node("Node.js runs the Pyodide runtime at build time to "
                       "compile the page's Python")
    log("compiling the page's Python with the runtime, under node")
    cache.mkdir(parents=True, exist_ok=True)
    work = cache / f"{key}.work"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    spec = []
    for n, (data, prefix, mode) in enumerate(jobs):
        (work / f"in{n}.zip").write_bytes(data)
        spec.append([str(work / f"in{n}.zip"), str(work / f"out{n}.zip"), prefix, mode])
    (work / "compiler.py").write_text(COMPILER)
    run_setup("node compiling the page's Python",
              "the pinned Pyodide needs Node.js 18 or later; see node's messages above",
              node, "--input-type=module", "-", runtime, json.dumps(spec), work / "compiler.py",
              input=MAKER)
    for n, out in enumerate(outs):
        (work / f"out{n}.zip").rename(out)
    shutil.rmtree(work)
    return [out.read_bytes() for out in outs]


def gzipped(data: bytes) -> bytes:
    """A file as the page fetches it: gzipped whole, the same bytes every time."""
    return gzip.compress(data, compresslevel=9, mtime=0)


# The message catalogs: the page renders messages from its own copies (dist/messages/, the
# language in use only), and the engine in the worker never renders one (the command line
# does), so the page's wheel leaves them out: 31 kB of a first visit.
PAGE_LEAVES_OUT = re.compile(r"calypso_core/messages/[a-z]+\.json")


def page_wheel(wheel: bytes) -> bytes:
    """A compiled wheel as the page ships it: its METADATA without the long description (the
    README, 17 kB of a first visit that nothing on the page reads), without the catalogs
    (``PAGE_LEAVES_OUT``), and its RECORD listing the files it now holds (the ``.pyc`` files,
    by sha256 and size), as an installer checks them; stored, like the rest."""
    with zipfile.ZipFile(io.BytesIO(wheel)) as archive:
        entries = {info.filename: (info, archive.read(info)) for info in archive.infolist()
                   if not PAGE_LEAVES_OUT.fullmatch(info.filename)}
    (record,) = [name for name in entries if name.endswith(".dist-info/RECORD")]
    (metadata,) = [name for name in entries if name.endswith(".dist-info/METADATA")]
    headers = entries[metadata][1].decode().split("\n\n", 1)[0]
    entries[metadata] = (entries[metadata][0], (headers + "\n").encode())
    lines = []
    for name, (_, data) in entries.items():
        if name == record:
            lines.append(f"{name},,")
        elif not name.endswith("/"):
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            lines.append(f"{name},sha256={digest.decode()},{len(data)}")
    entries[record] = (entries[record][0], ("\n".join(lines) + "\n").encode())
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for info, data in entries.values():
            archive.writestr(info, data)
    return out.getvalue()
