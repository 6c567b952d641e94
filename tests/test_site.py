"""The site as files: its security policy, no inline or evaluated code, URLs that work under
any sub-path, and a build whose service worker is stamped with exactly its own files.

These read web/ and dist/ (built when missing); the browser tests check the same behaviour
in Chromium.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import shutil
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from pyodide_node import engine_wheel

from buildsteps import snapshot

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "web"
PAGES = sorted(WEB.glob("*.html"))
SCRIPTS = sorted(WEB.glob("*.js"))
# The pinned relays of a table with friends, as the page names them (no test contacts one).
PINNED_RELAYS = set(re.findall(r'"(wss://[^"/]+)[^"]*"',
                               (WEB / "remote" / "relays.js").read_text()))
POLICY = {
    "default-src": {"'none'"},
    "script-src": {"'self'", "'wasm-unsafe-eval'"},
    "worker-src": {"'self'"},
    # The page's own origin, and the Nostr relays of a table with friends: the pinned ones
    # (web/remote/relays.js) and one on this machine (the tests', a club's own).
    "connect-src": {"'self'", "ws://127.0.0.1:*", "ws://localhost:*", *PINNED_RELAYS},
    "style-src": {"'self'"},
    "img-src": {"'self'", "data:"},
    "font-src": {"'self'"},
    "manifest-src": {"'self'"},
    "object-src": {"'none'"},
    "base-uri": {"'none'"},
    "form-action": {"'none'"},
}


def csp_of(html: str) -> dict[str, set[str]]:
    found = re.findall(
        r'<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"', html, re.I)
    assert len(found) == 1, "one Content-Security-Policy meta tag"
    directives = (part.split() for part in found[0].split(";") if part.strip())
    return {name: set(values) for name, *values in directives}


def without_comments(code: str) -> str:
    code = re.sub(r"/\*.*?\*/", "", code, flags=re.S)
    return re.sub(r"(?m)^\s*//.*$|\s//\s.*$", "", code)


# -- the security policy --------------------------------------------------------------------


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_page_carries_the_strict_policy_in_a_meta_tag(page: Path) -> None:
    html = page.read_text()
    assert csp_of(html) == POLICY
    # A meta policy covers only what comes after it: it must come before any script or link.
    head = html.split("</head>", 1)[0]
    assert head.index("Content-Security-Policy") < min(
        head.index(tag) for tag in ("<script", "<link") if tag in head)


def test_the_policy_allows_no_inline_code_and_no_eval() -> None:
    for page in PAGES:
        policy = csp_of(page.read_text())
        for values in policy.values():
            assert not values & {"'unsafe-inline'", "'unsafe-eval'", "*", "http:", "https:"}


# -- no inline or evaluated code ------------------------------------------------------------


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_pages_have_no_inline_script_handler_or_style(page: Path) -> None:
    html = page.read_text()
    for script in re.findall(r"<script\b[^>]*>(.*?)</script>", html, re.S | re.I):
        assert not script.strip(), "inline <script>"
    for tag in re.findall(r"<script\b[^>]*>", html, re.I):  # modules from files of the site
        assert re.fullmatch(r'<script type="module" src="[^":]+\.js"( async)?>', tag), tag
    assert not re.search(r"\son[a-z]+\s*=", html, re.I), "inline event handler"
    assert not re.search(r"\sstyle\s*=", html, re.I), "inline style attribute"
    assert "javascript:" not in html.lower()


IMPORT_FROM = re.compile(r"""^\s*(?:import|export)\b[^"'(]*?\bfrom\s+["'](\.[^"']+)["']"""
                         r"""|^\s*import\s+["'](\.[^"']+)["']""", re.M)


def static_imports(module: Path) -> set[Path]:
    """The modules a module imports statically, and theirs (dynamic imports left out)."""
    found: set[Path] = set()
    todo = [module]
    while todo:
        importer = todo.pop()
        for names in IMPORT_FROM.findall(without_comments(importer.read_text())):
            path = (importer.parent / "".join(names)).resolve()
            if path not in found:
                found.add(path)
                todo.append(path)
    return found


def test_the_engine_starter_and_every_module_it_imports_load_in_one_round_trip() -> None:
    # The worker starts as soon as the page's first script runs (early-worker.js imports
    # nothing), and start-engine.js's whole graph is preloaded; the page's other modules load
    # after it (start-engine.js imports them once the worker has asked for the runtime's
    # files), so none of them is a script of the page.
    html = (WEB / "index.html").read_text()
    head = html.split("</head>", 1)[0]
    scripts = re.findall(r'<script type="module" src="([^"]+)"( async)?>', head)
    assert scripts == [("early-worker.js", " async"), ("start-engine.js", "")]
    assert not static_imports(WEB / "early-worker.js")
    preloaded = {(WEB / href).resolve()
                 for href in re.findall(r'<link rel="modulepreload" href="([^"]+)">', head)}
    graph = static_imports(WEB / "start-engine.js")
    assert graph and preloaded | {(WEB / "early-worker.js").resolve()} == graph
    assert head.index("start-engine.js") < head.index("<link")


DANGEROUS = {
    r"\beval\s*\(": "eval()",
    r"\bnew\s+Function\b|\bFunction\s*\(": "new Function",
    r"\.(innerHTML|outerHTML)\s*\+?=": "HTML from strings",
    r"\binsertAdjacentHTML\b|\bdocument\.write\b|\bcreateContextualFragment\b": "HTML parsing",
    r"\bset(Timeout|Interval)\s*\(\s*['\"`]": "code in a string",
    r"setAttribute\(\s*['\"](on[a-z]+|style)['\"]": "handler or style attribute",
    r"\.on[a-z]+\s*=(?!=)": "handler property (use addEventListener)",
    r"javascript:": "javascript: URL",
}


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_scripts_neither_evaluate_code_nor_build_html_from_strings(script: Path) -> None:
    code = without_comments(script.read_text())
    for pattern, what in DANGEROUS.items():
        match = re.search(pattern, code)
        assert not match, f"{script.name}: {what}: {match.group(0) if match else ''}"


# -- URLs relative, for a project page's sub-path -------------------------------------------


@pytest.mark.parametrize("path", [*PAGES, *SCRIPTS, WEB / "manifest.webmanifest"],
                         ids=lambda p: p.name)
def test_every_url_is_relative(path: Path) -> None:
    text = without_comments(path.read_text())
    absolute = re.findall(
        r"""(?:href|src)\s*=\s*["'](?:/|[a-z]+://)[^"']*|"""
        r"""(?:fetch|URL|import|register|Worker)\(\s*["'`](?:/|[a-z]+://)[^"'`]*|"""
        r"""["'](?:start_url|scope|id|src)["']\s*:\s*["'](?:/|[a-z]+://)[^"']*""",
        text)
    assert not absolute, absolute


def test_the_manifest_makes_the_site_installable() -> None:
    manifest = json.loads((WEB / "manifest.webmanifest").read_text())
    assert manifest["start_url"] == manifest["scope"] == "./"
    assert manifest["display"] == "standalone" and manifest["name"]
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512", "any"} <= sizes
    assert any("maskable" in icon.get("purpose", "") for icon in manifest["icons"])


# -- the build ------------------------------------------------------------------------------


def stamped(code: str, name: str) -> Any:
    found = re.search(rf"^const {name} = (.*);$", code, re.M)
    assert found, f"sw.js has no {name} line"
    return json.loads(found.group(1))


def test_the_service_worker_is_stamped_with_the_build_and_each_file_hash(dist_dir: Path) -> None:
    info = json.loads((dist_dir / "build-info.json").read_text())
    code = (dist_dir / "sw.js").read_text()
    build, files, on_demand = (stamped(code, name) for name in ("BUILD", "FILES", "ON_DEMAND"))
    assert build == info["build"]
    on_disk = {p.relative_to(dist_dir).as_posix() for p in dist_dir.rglob("*") if p.is_file()}
    # The whole standard library is left to the network: fetched only if a module is missing;
    # the files fetched on demand (the puzzles' set) are kept once asked for, not installed.
    assert set(on_demand) == set(info["on_demand"]) == {"puzzles.json"}
    assert set(files) == on_disk - {"sw.js", "build-info.json", info["stdlib_full"], *on_demand}
    for path, digest in {**files, **on_demand}.items():
        assert hashlib.sha256((dist_dir / path).read_bytes()).hexdigest() == digest, path
    assert set(info["files"]) == on_disk - {"build-info.json"}


def test_the_build_hash_covers_the_service_worker_code_but_not_its_stamp(
    dist_dir: Path, tmp_path: Path, build_module: ModuleType
) -> None:
    copy = tmp_path / "dist"
    shutil.copytree(dist_dir, copy)
    again = build_module.finalize(copy)
    assert again["build"] == json.loads((dist_dir / "build-info.json").read_text())["build"]
    for path in ("sw.js", "build-info.json"):  # finalizing again changes no byte
        assert (copy / path).read_bytes() == (dist_dir / path).read_bytes()
    worker = copy / "sw.js"
    worker.write_text(worker.read_text().replace("skip_waiting", "skip-waiting"))
    assert build_module.finalize(copy)["build"] != again["build"]


def test_icons_are_drawn_the_same_every_time(dist_dir: Path, build_module: ModuleType) -> None:
    for size in build_module.ICON_SIZES:
        png = (dist_dir / "icons" / f"icon-{size}.png").read_bytes()
        assert png == build_module.icon_png(size)
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        assert int.from_bytes(png[16:20], "big") == int.from_bytes(png[20:24], "big") == size


@pytest.mark.parametrize("snippet", [
    'box.innerHTML = message;', 'eval("1 + 1")', 'const f = new Function("return 1");',
    'setTimeout("tick()", 10);', 'button.onclick = go;', 'el.setAttribute("onload", x);',
    'el.insertAdjacentHTML("beforeend", row);', 'location.href = "javascript:void 0";',
])
def test_the_scan_would_catch_dangerous_code(snippet: str) -> None:
    assert any(re.search(pattern, without_comments(snippet)) for pattern in DANGEROUS)


def test_the_same_sources_build_the_same_site_byte_for_byte(
    tmp_path: Path, build_module: ModuleType
) -> None:
    first, second = (build_module.build(tmp_path / name) for name in ("a", "b"))
    assert first == second
    files = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*")
                   if p.is_file())
    assert files == sorted(p.relative_to(tmp_path / "b") for p in (tmp_path / "b").rglob("*")
                           if p.is_file())
    for path in files:
        assert (tmp_path / "a" / path).read_bytes() == (tmp_path / "b" / path).read_bytes()


def test_the_runtime_snapshot_is_made_the_same_every_time(
    tmp_path: Path, build_module: ModuleType, dist_dir: Path
) -> None:
    info = json.loads((dist_dir / "build-info.json").read_text())
    runtime = build_module.fetch_pyodide()
    wheel = engine_wheel(dist_dir)
    stdlib = gzip.decompress((dist_dir / info["stdlib"]).read_bytes())
    first, second = (build_module.make_snapshot(runtime, wheel, stdlib, tmp_path / name)
                     for name in "ab")
    assert first.read_bytes() == second.read_bytes()
    assert first.read_bytes() == (dist_dir / info["snapshot"]).read_bytes()
    # Named and described by its content: two builds' snapshots never share a URL.
    digest = hashlib.sha256(first.read_bytes()).hexdigest()
    assert info["snapshot_sha256"] == digest
    assert info["snapshot"] == f"snapshot/engine-{digest[:16]}.snapshot.gz"
    image = gzip.decompress(first.read_bytes())
    assert int.from_bytes(image[:4], "little") == 0x706E7300  # Pyodide's snapshot magic
    assert len(image) > 16 * 1024 * 1024  # the whole wasm heap, not a stub
    # micropip installed the engine into the site-packages the worker unpacks the wheel to.
    assert info["engine_site"] == "/lib/python3.14/site-packages"
    assert (info["engine_site"] + "/calypso_core/").encode() in image
    assert b"micropip" in image
    assert b"calypso_core.table" in image


def test_the_snapshot_restores_into_the_runtimes_default_heap_with_a_mebibyte_to_spare(
    build_module: ModuleType, dist_dir: Path
) -> None:
    # Pyodide issue #6254: a runtime restores a snapshot into its default heap only.
    info = json.loads((dist_dir / "build-info.json").read_text())
    default = snapshot.default_heap(build_module.fetch_pyodide() / "pyodide.asm.wasm")
    assert default == 30 * 2**20  # Pyodide 314's, as the issue measured it
    image = gzip.decompress((dist_dir / info["snapshot"]).read_bytes())
    header = int.from_bytes(image[4:8], "little")  # the heap follows Pyodide's header
    heap = info["snapshot_heap"]
    assert len(image) - header == heap["heap"] == default  # the heap never grew
    assert heap["top"] + snapshot.HEAP_MARGIN <= default
    assert not image[header + heap["top"]:].strip(b"\0")  # nothing lies past the break


def test_the_build_stops_in_one_line_when_the_snapshot_would_not_restore() -> None:
    default, margin = 30 * 2**20, snapshot.HEAP_MARGIN
    snapshot.check_heap({"heap": default, "top": default - margin}, default)  # just enough
    for heap in ({"heap": default, "top": default - margin + 1},
                 {"heap": default + 2**16, "top": default - margin}):  # it grew a page
        with pytest.raises(SystemExit) as ended:
            snapshot.check_heap(heap, default)
        said = str(ended.value.code)
        assert said.startswith("build.py: the runtime's memory snapshot holds a heap of ")
        assert "\n" not in said and "Pyodide issue #6254" in said and "SNAPSHOT_MODULES" in said


def test_every_pinned_relay_is_allowed_by_the_policy() -> None:
    allowed = csp_of((WEB / "index.html").read_text())["connect-src"]
    assert 5 <= len(PINNED_RELAYS) <= 8
    assert sorted(PINNED_RELAYS - allowed) == []
