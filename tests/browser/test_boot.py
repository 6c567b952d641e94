"""The page boots the engine in its worker, and says so — or says clearly why not."""

from __future__ import annotations

import gzip
import hashlib
import importlib
import io
import itertools
import json
import re
import shutil
import zipfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from pyodide_node import engine_wheel

import calypso_core

from .conftest import BOOT_TIMEOUT_MS
from .table import play_a_card, plays, settle
from .watching import origin_of

ENGINE = Path(calypso_core.__file__).parent

pytestmark = pytest.mark.browser

Boot = Callable[[Page, str], str]


def test_page_boots_and_shows_the_engine_version(
    page: Page, server_url: str, boot: Boot
) -> None:
    state = boot(page, server_url)
    assert state == "ready", page.locator("[data-engine-error]").text_content()
    expect(page.locator("[data-engine-version]")).to_have_text(calypso_core.__version__)
    expect(page.locator("[data-engine-version]")).to_be_visible()


def worker_start(page: Page) -> str:
    """How the worker started its runtime: "snapshot" or "plain"."""
    return str(page.evaluate("""async () =>
        (await (await import("./engine.js")).engine().stats()).start"""))


QUERY = "?seed=snap&level=random&speed=0"
SNAPSHOT_WARNING = "starting without the runtime snapshot"
# Records what the loading screen showed: [received, expected, text] of its byte count, and
# each value of its bar.
LOADING_PROBE = """
window.__bytes = [];
window.__bar = [];
new MutationObserver((records) => {
  for (const { target, attributeName } of records) {
    if (attributeName === "data-received") {
      window.__bytes.push([Number(target.dataset.received), Number(target.dataset.expected),
                           target.textContent]);
    } else if (attributeName === "value" && target.matches("[data-boot-progress]")) {
      window.__bar.push(target.value);
    }
  }
}).observe(document, { subtree: true, attributes: true,
                       attributeFilter: ["data-received", "value"] });
"""


def warnings_of(page: Page) -> list[str]:
    warnings: list[str] = []
    page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
    return warnings


def big_files(info: dict[str, Any], *extra: str) -> int:
    """Bytes of the files the loading screen counts: the runtime's, the wheel, and extra."""
    paths = ["pyodide/pyodide.asm.wasm", info["stdlib"], info["engine_wheel"], *extra]
    return sum(info["files"][path] for path in paths)


def test_the_loading_screen_counts_the_bytes_of_the_big_files_and_its_bar_moves_with_them(
    page: Page, dist_dir: Path, allowed_origins: set[str], boot: Boot
) -> None:
    # Through a 10 Mbit/s link, as a person's download arrives: the page's own modules load
    # once the worker has asked for the runtime's files, and a local server would hand
    # every byte over before the loading screen is drawn.
    info = json.loads((dist_dir / "build-info.json").read_text())
    throttle = importlib.import_module("bench.throttle")
    url, _, stop = throttle.start_throttled_server(dist_dir, *throttle.LINKS["slow"])
    allowed_origins.add(origin_of(url))
    page.add_init_script(LOADING_PROBE)
    try:
        assert boot(page, url + QUERY) == "ready"
    finally:
        stop()
    counts: list[list[Any]] = page.evaluate("window.__bytes")
    received = [count[0] for count in counts]
    assert received == sorted(received) and len(set(received)) >= 3, counts
    total = big_files(info)
    assert counts[-1] == [total, total, f"{total / 1e6:.1f} of {total / 1e6:.1f} MB"]
    assert {count[1] for count in counts} == {total}
    bar: list[float] = page.evaluate("window.__bar")
    assert bar == sorted(bar) and len(set(bar)) >= 4 and bar[-1] == 1, bar


def test_a_first_visit_starts_plainly_and_a_later_one_from_the_snapshot_kept_offline(
    page: Page, dist_dir: Path, server_url: str, boot: Boot
) -> None:
    info = json.loads((dist_dir / "build-info.json").read_text())
    snapshot_requests: list[bool] = []  # for each request of the snapshot: by the service worker?
    page.context.on("request", lambda r: snapshot_requests.append(r.service_worker is not None)
                    if r.url == server_url + info["snapshot"] else None)
    full_stdlib = requests_of(page, server_url + info["stdlib_full"])
    warnings = warnings_of(page)
    page.add_init_script(LOADING_PROBE)
    # A first visit: nothing is cached, so no snapshot (as if it were missing), and no warning.
    assert boot(page, server_url + QUERY) == "ready"
    assert worker_start(page) == "plain"
    page.wait_for_selector("html[data-offline=ready]", state="attached", timeout=BOOT_TIMEOUT_MS)
    # Only the offline copy fetched it, after the table was playable (sw-register.js waits).
    assert snapshot_requests == [True]
    assert not [w for w in warnings if SNAPSHOT_WARNING in w], warnings

    page.reload()
    page.wait_for_selector("html[data-engine-state=ready]", state="attached",
                           timeout=BOOT_TIMEOUT_MS)
    assert worker_start(page) == "snapshot"
    total = big_files(info, info["snapshot"])
    assert page.evaluate("window.__bytes")[-1][:2] == [total, total]
    assert snapshot_requests == [True]  # read from the offline copy, not fetched
    play_a_card(page)
    assert not [w for w in warnings if SNAPSHOT_WARNING in w], warnings
    # The game's own standard library was enough, on both visits.
    assert full_stdlib == [], full_stdlib


def test_a_first_visit_asks_for_the_wasm_then_the_standard_library_then_the_wheel(
    page: Page, dist_dir: Path, server_url: str, boot: Boot
) -> None:
    # Each is asked for once the one before it is in (web/worker.js, linkOrder), so the
    # .wasm has the link to itself until Python's start can begin.
    info = json.loads((dist_dir / "build-info.json").read_text())
    assert boot(page, server_url + QUERY) == "ready"
    [worker] = page.workers
    times: dict[str, list[float]] = worker.evaluate("""() => Object.fromEntries(
        performance.getEntriesByType("resource")
          .map((e) => [e.name, [e.startTime, e.responseEnd]]))""")
    order = [server_url + path
             for path in ("pyodide/pyodide.asm.wasm", info["stdlib"], info["engine_wheel"])]
    for before, after in itertools.pairwise(order):
        assert times[after][0] >= times[before][1], (before, after, times)


def requests_of(page: Page, url: str) -> list[str]:
    """The requests for a URL from now on, by the page or its workers (filled as they go); the
    service worker's are left out (it may cache the build once the engine has failed)."""
    seen: list[str] = []
    page.context.on("request", lambda r: seen.append(r.method)
                    if r.url == url and r.service_worker is None else None)
    return seen


def with_an_import_on_each_play(build_module: ModuleType, wheel: Path, module: str) -> None:
    """Rewrite the engine wheel (compiled, gzipped whole) so that the engine imports ``module``
    at each play request, after the first card: the way a new import would first happen in the
    middle of a game. The changed module goes in as source, in place of its bytecode."""
    with zipfile.ZipFile(io.BytesIO(gzip.decompress(wheel.read_bytes()))) as archive:
        entries = {info.filename: archive.read(info) for info in archive.infolist()}
    transport = "calypso_core/table/transport.py"
    del entries[transport + "c"]
    entries[transport] = (ENGINE / "table" / "transport.py").read_bytes() + (
        "\n\n_plain_handle = handle\n\n\n"
        "def handle(request: str) -> str:\n"
        "    if '\"play\"' in request:\n"
        f"        import {module}  # noqa: F401\n"
        "    return _plain_handle(request)\n").encode()
    plain = wheel.with_suffix("")
    with zipfile.ZipFile(plain, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    build_module.mark_names_utf8(plain)  # as build.py's wheels are
    wheel.write_bytes(gzip.compress(plain.read_bytes(), mtime=0))
    plain.unlink()


def test_a_module_the_games_standard_library_lacks_comes_from_the_whole_one_mid_game(
    page: Page, dist_dir: Path, tmp_path: Path, serve: Callable[[Path], str],
    build_module: ModuleType, boot: Boot,
) -> None:
    info = json.loads((dist_dir / "build-info.json").read_text())
    missing = "statistics"  # in the whole standard library, not in the game's
    assert missing not in build_module.stdlib_modules()
    copy = tmp_path / "dist"
    shutil.copytree(dist_dir, copy)
    with_an_import_on_each_play(build_module, copy / info["engine_wheel"], missing)
    build_module.finalize(copy)
    url = serve(copy)
    full_stdlib = requests_of(page, url + info["stdlib_full"])
    warnings = warnings_of(page)
    assert boot(page, url + QUERY) == "ready"
    assert worker_start(page) == "plain"
    assert full_stdlib == []  # not before it is needed
    play_a_card(page)  # the engine imports the missing module: the whole zip comes, once
    assert full_stdlib == ["GET"]
    assert any(f"{missing} is not in the game's standard library" in w for w in warnings)
    first = plays(page)
    play_a_card(page)
    assert plays(page) > first
    assert full_stdlib == ["GET"]


def another_builds_snapshot(build_module: ModuleType, dist: Path, folder: Path) -> bytes:
    """A sound snapshot made from another build of the engine (one module more)."""
    info = json.loads((dist / "build-info.json").read_text())
    wheel = engine_wheel(dist)
    other = folder / wheel.name
    shutil.copyfile(wheel, other)
    with zipfile.ZipFile(other, "a") as archive:
        archive.writestr("calypso_core/another_build.py", "BUILD = 'another'\n")
    stdlib = gzip.decompress((dist / info["stdlib"]).read_bytes())
    snapshot: Path = build_module.make_snapshot(build_module.fetch_pyodide(), other, stdlib,
                                                folder)
    return snapshot.read_bytes()


@pytest.mark.parametrize("kind", ["damaged", "another_build", "not_restorable"])
def test_a_cached_snapshot_that_is_not_this_builds_own_gives_a_plain_start(
    page: Page,
    dist_dir: Path,
    tmp_path: Path,
    serve: Callable[[Path], str],
    build_module: ModuleType,
    boot: Boot,
    kind: str,
) -> None:
    info = json.loads((dist_dir / "build-info.json").read_text())
    copy = tmp_path / "dist"
    shutil.copytree(dist_dir, copy)
    own = (dist_dir / info["snapshot"]).read_bytes()
    if kind == "damaged":  # cut short, as by a full disk
        planted = own[:len(own) // 2]
    elif kind == "another_build":
        planted = another_builds_snapshot(build_module, dist_dir, tmp_path)
        assert planted != own
    else:  # the build names these bytes, but Pyodide cannot restore them
        planted = gzip.compress(b"\0" * 4096, mtime=0)
        (copy / info["snapshot"]).write_bytes(planted)
        info["snapshot_sha256"] = hashlib.sha256(planted).hexdigest()
        (copy / "build-info.json").write_text(json.dumps(info))
        build_module.finalize(copy)
    (copy / "planted.bin").write_bytes(planted)
    (copy / "plant.html").write_text('<!doctype html><link rel="icon" href="favicon.svg">')
    url = serve(copy)
    # Planted where the offline copy keeps it, before the page boots.
    page.goto(url + "plant.html")
    page.evaluate("""async (path) => {
        const cache = await caches.open("planted");
        await cache.put(new URL(path, location.href), await fetch("planted.bin"));
    }""", info["snapshot"])
    warnings = warnings_of(page)
    assert boot(page, url + QUERY) == "ready"
    assert worker_start(page) == "plain"
    assert any(SNAPSHOT_WARNING in w for w in warnings), warnings
    play_a_card(page)


def grown_by_a_page(packed: bytes) -> bytes:
    """A snapshot whose heap grew by one WebAssembly page past the runtime's default: the
    snapshot of Pyodide issue #6254, which that runtime never restores."""
    image = gzip.decompress(packed)
    return gzip.compress(image + bytes(1 << 16), mtime=0)


def snapshot_made_here(page: Page, path: str, made: str | None = None) -> str:
    """Wait until the offline copy's entry for the snapshot says it was made here (``made``:
    that exactly, as "none"); return what it says. Each poll reads the cache again."""
    handle = page.wait_for_function("""([path, made]) => {
        caches.match(new URL(path, location.href)).then((found) => {
            window.__madeHere = found?.headers.get("x-calypso-made-here") ?? null;
        });
        const seen = window.__madeHere;
        return (made === null ? Boolean(seen) : seen === made) && seen;
    }""", arg=[path, made], polling=100, timeout=BOOT_TIMEOUT_MS)
    return str(handle.json_value())


def test_a_later_visit_whose_snapshot_fails_plays_on_keeps_the_game_and_makes_its_own(
    page: Page, dist_dir: Path, tmp_path: Path, serve: Callable[[Path], str],
    build_module: ModuleType, boot: Boot,
) -> None:
    # The build's own snapshot, checked by its sha256, fails to restore (as #6254's would).
    info = json.loads((dist_dir / "build-info.json").read_text())
    copy = tmp_path / "dist"
    shutil.copytree(dist_dir, copy)
    grown = grown_by_a_page((dist_dir / info["snapshot"]).read_bytes())
    (copy / info["snapshot"]).write_bytes(grown)
    info["snapshot_sha256"] = hashlib.sha256(grown).hexdigest()
    (copy / "build-info.json").write_text(json.dumps(info))
    build_module.finalize(copy)
    url = serve(copy)
    warnings = warnings_of(page)
    assert boot(page, url + QUERY) == "ready"
    play_a_card(page)
    before = plays(page)
    page.wait_for_selector("html[data-offline=ready]", state="attached", timeout=BOOT_TIMEOUT_MS)

    def later_visit(start: str) -> None:
        page.reload()
        page.wait_for_selector("html[data-engine-state=ready]", state="attached",
                               timeout=BOOT_TIMEOUT_MS)
        assert worker_start(page) == start
        settle(page)
        assert plays(page) == before  # the saved game, where it was
        expect(page.locator("[data-notice]")).to_be_hidden()  # nothing said: nothing is wrong

    later_visit("plain")
    assert any(SNAPSHOT_WARNING in w and "out of bounds" in w for w in warnings), warnings
    # The runtime imaged itself for the next visit, in place of the build's snapshot.
    assert re.fullmatch("[0-9a-f]{64}", snapshot_made_here(page, info["snapshot"]))
    warned = len(warnings)
    later_visit("snapshot")
    assert len(warnings) == warned
    play_a_card(page)
    before = plays(page)
    # An image made here that fails as well is dropped: later visits start plainly, quietly.
    page.evaluate("""async (path) => {
        const url = new URL(path, location.href);
        const junk = new Uint8Array(await new Response(new Blob([new Uint8Array(4096)])
            .stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer());
        const digest = Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", junk)),
                                  (b) => b.toString(16).padStart(2, "0")).join("");
        for (const name of await caches.keys()) {
            const cache = await caches.open(name);
            const made = { headers: { "x-calypso-made-here": digest } };
            if (await cache.match(url)) await cache.put(url, new Response(junk, made));
        }
    }""", info["snapshot"])
    later_visit("plain")
    snapshot_made_here(page, info["snapshot"], "none")
    warned = len(warnings)
    later_visit("plain")
    assert len(warnings) == warned


def test_bad_requests_get_structured_errors_through_the_worker(
    page: Page, server_url: str, boot: Boot
) -> None:
    assert boot(page, server_url) == "ready"
    replies: dict[str, Any] = page.evaluate("""async () => {
        const { engine } = await import("./engine.js");
        const client = engine();
        // The reply to a request that cannot be parsed has no id; the page's own requests
        // (work ahead among them) may be answered meanwhile.
        const raw = await new Promise((resolve) => {
            const listener = (e) => {
                const reply = JSON.parse(e.data);
                if (reply.id !== null && reply.id !== undefined) return;
                client.worker.removeEventListener("message", listener);
                resolve(reply);
            };
            client.worker.addEventListener("message", listener);
            client.worker.postMessage("{not json");
        });
        const unknown = await client.request("no_such_type", { x: 1 }).then(
            (result) => ({ result }), (error) => ({ name: error.name, code: error.code }));
        return { raw, unknown, hello: await client.request("hello") };
    }""")
    assert replies["raw"]["ok"] is False
    assert replies["raw"]["error"]["code"] == "bad_json"
    assert replies["unknown"] == {"name": "EngineError", "code": "unknown_type"}
    assert replies["hello"]["engine"] == calypso_core.__version__


def test_a_missing_engine_wheel_is_reported_on_the_page(
    page: Page,
    dist_dir: Path,
    broken_dist: Callable[[str], Path],
    serve: Callable[[Path], str],
    expected_problems: list[re.Pattern[str]],
    boot: Boot,
) -> None:
    wheel = json.loads((dist_dir / "build-info.json").read_text())["engine_wheel"]
    url = serve(broken_dist(wheel))
    # Failed requests for the missing wheel are the point of this test.
    expected_problems.append(re.compile(re.escape(f"/{wheel}") + "( |$)"))
    assert boot(page, url) == "error"
    error = page.locator("[data-engine-error]")
    expect(error).to_be_visible()
    expect(error).to_contain_text("engine_install_failed")
    expect(error).to_contain_text(f"{Path(wheel).name}: the file is missing (HTTP 404)")


def test_a_missing_standard_library_is_reported_on_the_page_without_a_check_request(
    page: Page,
    dist_dir: Path,
    broken_dist: Callable[[str], Path],
    serve: Callable[[Path], str],
    expected_problems: list[re.Pattern[str]],
    boot: Boot,
) -> None:
    stdlib = json.loads((dist_dir / "build-info.json").read_text())["stdlib"]
    url = serve(broken_dist(stdlib))
    # The failed request, and Pyodide's own reports of it ("Failed to load '…zip': …", and
    # when the failure reaches its start before the worker's check does, "Error occurred
    # while installing the standard library").
    expected_problems.append(re.compile(re.escape(f"/{stdlib}") + "(?![\\w.])"))
    # (Pyodide names the zip it asked for; the worker fetched it gzipped, as the build ships it.)
    expected_problems.append(re.compile(re.escape(f"/{stdlib.removesuffix('.gz')}") + "(?![\\w.])"))
    expected_problems.append(re.compile("Error occurred while installing the standard library"))
    # And, when Python's own start gets that far without its standard library, its fatal
    # report ("Python runtime state: core initialized", "Current thread …", "<no Python
    # frame>", "No module named 'encodings'"), written to the console by the runtime's loader.
    expected_problems.append(re.compile(r"\(http[^ ]*/pyodide/pyodide\.asm\.mjs\)$"))
    methods = requests_of(page, url + stdlib)
    assert boot(page, url) == "error"  # not a loading screen that never ends
    error = page.locator("[data-engine-error]")
    expect(error).to_contain_text("runtime_missing")
    expect(error).to_contain_text(f"{stdlib}: HTTP 404")
    assert methods == ["GET"]  # Pyodide's own request, looked at on its way
