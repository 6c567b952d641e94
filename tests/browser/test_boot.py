"""The page boots the engine in its worker, and says so — or says clearly why not."""

from __future__ import annotations

import gzip
import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

import calypso_core

from .table import play_a_card

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
        (await (await import("./engine-client.js")).engine().stats()).start"""))


def test_the_runtime_starts_from_the_build_snapshot(
    page: Page, server_url: str, boot: Boot
) -> None:
    assert boot(page, server_url + "?seed=snap&level=random&speed=0") == "ready"
    assert worker_start(page) == "snapshot"
    play_a_card(page)


@pytest.mark.parametrize("damage", ["missing", "corrupt", "not_gzip"])
def test_without_a_usable_snapshot_the_runtime_starts_plainly(
    page: Page,
    dist_dir: Path,
    tmp_path: Path,
    serve: Callable[[Path], str],
    expected_problems: list[re.Pattern[str]],
    boot: Boot,
    damage: str,
) -> None:
    snapshot = json.loads((dist_dir / "build-info.json").read_text())["snapshot"]
    copy = tmp_path / "dist"
    shutil.copytree(dist_dir, copy)
    target = copy / snapshot
    if damage == "missing":
        target.unlink()
        expected_problems.append(re.compile(re.escape(f"/{snapshot}") + "( |$)"))
    elif damage == "corrupt":  # a valid gzip of the wrong bytes: Pyodide refuses the image
        target.write_bytes(gzip.compress(b"\0" * 4096, mtime=0))
    else:  # decompressing fails, which cancels the download
        target.write_bytes(b"not a gzip stream at all")
        expected_problems.append(re.compile(re.escape(f"/{snapshot} net::ERR_ABORTED")))
    warnings: list[str] = []
    page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
    assert boot(page, serve(copy) + "?seed=snap&level=random&speed=0") == "ready"
    assert worker_start(page) == "plain"
    assert any("starting without the runtime snapshot" in w for w in warnings), warnings
    play_a_card(page)


def test_bad_requests_get_structured_errors_through_the_worker(
    page: Page, server_url: str, boot: Boot
) -> None:
    assert boot(page, server_url) == "ready"
    replies: dict[str, Any] = page.evaluate("""async () => {
        const { engine } = await import("./engine-client.js");
        const client = engine();
        const raw = await new Promise((resolve) => {
            client.worker.addEventListener("message", (e) => resolve(JSON.parse(e.data)),
                                           { once: true });
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
