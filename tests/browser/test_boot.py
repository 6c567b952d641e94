"""The page boots the engine in its worker, and says so — or says clearly why not."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

import calypso_core

pytestmark = pytest.mark.browser

Boot = Callable[[Page, str], str]


def test_page_boots_and_shows_the_engine_version(
    page: Page, server_url: str, boot: Boot
) -> None:
    state = boot(page, server_url)
    assert state == "ready", page.locator("[data-engine-error]").text_content()
    expect(page.locator("[data-engine-version]")).to_have_text(calypso_core.__version__)
    expect(page.locator("[data-engine-version]")).to_be_visible()


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
    # Close the page while its server still runs: the server stops before the page fixture's
    # teardown, and a request still in flight would then fail with a connection reset.
    page.close()
