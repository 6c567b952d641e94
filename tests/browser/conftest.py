"""Browser test fixtures: dist/ served on 127.0.0.1, headless Chromium, and a page that fails
its test on any console error, page error, failed response or request leaving the origin.

Set CALYPSO_SKIP_BROWSER=1 to skip these tests (reported as skipped, never silently).
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import (
    Browser,
    ConsoleMessage,
    Page,
    Playwright,
    Request,
    Response,
    sync_playwright,
)

from .watching import origin_of

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync",
                 # Remote tables: WebRTC between contexts on this machine over loopback only.
                 "--allow-loopback-in-peer-connection"]
BOOT_TIMEOUT_MS = 90_000  # boots take 8-10 s here; leave room for a loaded CI machine


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: needs dist/ and headless Chromium")
    config.addinivalue_line(
        "markers", "long_session: minutes of play in one page (part of the default run)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    skip = os.environ.get("CALYPSO_SKIP_BROWSER") == "1"
    for item in items:
        if here in Path(item.path).parents:
            item.add_marker(pytest.mark.browser)
            if skip:
                item.add_marker(pytest.mark.skip(reason="CALYPSO_SKIP_BROWSER=1"))


@pytest.fixture(scope="session")
def server_url(build_module: ModuleType, dist_dir: Path) -> Iterator[str]:
    url, stop = build_module.start_server(dist_dir)
    yield url
    stop()


@pytest.fixture
def serve(build_module: ModuleType, allowed_origins: set[str]) -> Iterator[Callable[[Path], str]]:
    """Serve another folder (say, a broken copy of dist/) for one test; returns its URL."""
    stops: list[Callable[[], None]] = []

    def start(folder: Path) -> str:
        url: str
        url, stop = build_module.start_server(folder)
        stops.append(stop)
        allowed_origins.add(origin_of(url))
        return url

    yield start
    for stop in stops:
        stop()


@pytest.fixture
def site_server(
    build_module: ModuleType, allowed_origins: set[str]
) -> Iterator[Callable[..., tuple[str, Callable[[], None]]]]:
    """Serve a folder for one test, optionally under a path prefix ("/calypso/", as GitHub
    Pages serves a project) and with extra response headers; returns its URL and a function
    that stops the server early (the network going away)."""
    stops: list[Callable[[], None]] = []

    def start(folder: Path, prefix: str = "/",
              headers: dict[str, str] | None = None) -> tuple[str, Callable[[], None]]:
        url, stop = build_module.start_server(folder, prefix=prefix, headers=headers)
        stopped: list[bool] = []

        def stop_once() -> None:
            if not stopped:
                stopped.append(True)
                stop()

        stops.append(stop_once)
        allowed_origins.add(origin_of(url))
        return url, stop_once

    yield start
    for stop in stops:
        stop()


@pytest.fixture
def broken_dist(dist_dir: Path, tmp_path: Path) -> Callable[[str], Path]:
    """Copy dist/ and delete one file from the copy, named relative to dist/."""

    def make(missing: str) -> Path:
        copy = tmp_path / "dist"
        shutil.copytree(dist_dir, copy)
        (copy / missing).unlink()
        return copy

    return make


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    # An empty path means Playwright's own Chromium (installed by `playwright install`).
    executable = os.environ.get("CALYPSO_CHROMIUM") or shutil.which("chromium") or None
    browser = playwright.chromium.launch(executable_path=executable, headless=True,
                                         args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def axe_script(build_module: ModuleType) -> str:
    """axe-core's script (the pinned npm package that `build.py test` fetches), to load into
    the page under test only: it is never part of dist/."""
    path = os.environ.get("CALYPSO_AXE") or build_module.fetch_axe_core()
    return Path(path).read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def screenshots() -> Callable[[Page, str], Path]:
    """Saves a screenshot of a page as .cache/screenshots/<name>.png (kept for a person to
    look at after the run, never committed); returns its path."""
    folder = ROOT / ".cache" / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)

    def take(page: Page, name: str) -> Path:
        path = folder / f"{name}.png"
        page.screenshot(path=path)
        return path

    return take


@pytest.fixture
def allowed_origins(server_url: str) -> set[str]:
    return {origin_of(server_url)}


@pytest.fixture
def expected_problems() -> list[re.Pattern[str]]:
    """Append patterns of problems a test provokes on purpose; the page fixture lets them be."""
    return []


@pytest.fixture
def page(browser: Browser, allowed_origins: set[str], expected_problems: list[re.Pattern[str]],
         serve: Any, site_server: Any) -> Iterator[Page]:
    """A fresh page; its test fails at teardown if anything went wrong in the browser.

    It asks for the servers a test may start so that they stop after its context closes: a
    service worker outlives the page and may still be fetching its offline copy.
    """
    context = browser.new_context()
    page = context.new_page()
    problems: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error":
            problems.append(f"console error: {message.text} ({message.location.get('url')})")

    def on_request(request: Request) -> None:
        scheme = urlsplit(request.url).scheme
        if scheme not in ("data", "blob") and origin_of(request.url) not in allowed_origins:
            problems.append(f"request left the origin: {request.method} {request.url}")

    def on_response(response: Response) -> None:
        if response.status >= 400:
            problems.append(f"HTTP {response.status}: {response.request.method} {response.url}")

    page.on("console", on_console)
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.on("crash", lambda _: problems.append("page crashed"))
    context.on("request", on_request)
    context.on("response", on_response)
    context.on("requestfailed", lambda r: problems.append(f"request failed: {r.url} {r.failure}"))
    yield page
    context.close()
    unexpected = [p for p in problems if not any(rx.search(p) for rx in expected_problems)]
    if unexpected:
        pytest.fail("browser problems:\n  " + "\n  ".join(unexpected), pytrace=False)


@pytest.fixture
def boot() -> Callable[[Page, str], str]:
    """Open a page and wait until loading has finished either way; return the state."""

    def open_and_wait(page: Page, url: str) -> str:
        page.goto(url)
        page.wait_for_selector("html[data-engine-state=ready], html[data-engine-state=error]",
                               state="attached", timeout=BOOT_TIMEOUT_MS)
        return page.locator("html").get_attribute("data-engine-state") or ""

    return open_and_wait
