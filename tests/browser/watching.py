"""Watching a page that a test module keeps open across tests (the page fixture's checks)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page

from .table import SETTLED_OR_HANDOFF, TIMEOUT_MS


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def watch(page: Page, origin: str) -> list[str]:
    """Collect console errors, page errors, failed or off-origin requests, as conftest does."""
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console error: {m.text}")
            if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("crash", lambda _: problems.append("page crashed"))
    page.on("request", lambda r: problems.append(f"request left the origin: {r.url}")
            if urlsplit(r.url).scheme not in ("data", "blob") and origin_of(r.url) != origin
            else None)
    page.on("response", lambda r: problems.append(f"HTTP {r.status}: {r.url}")
            if r.status >= 400 else None)
    page.on("requestfailed", lambda r: problems.append(f"request failed: {r.url} {r.failure}"))
    return problems


@contextmanager
def booted_page(
    browser: Browser, server_url: str, query: str, timeout: float, **context_options: Any
) -> Iterator[tuple[Page, list[str]]]:
    """A watched page opened on ``server_url + query`` once the engine is ready.

    Reduced motion: no card transitions, so clicks need not wait for cards to settle.
    """
    context = browser.new_context(reduced_motion="reduce", **context_options)
    page = context.new_page()
    problems = watch(page, origin_of(server_url))
    page.goto(server_url + query)
    page.wait_for_selector("html[data-engine-state=ready]", state="attached", timeout=timeout)
    yield page, problems
    context.close()


@contextmanager
def settled(page: Page, problems: list[str], selector: str, timeout: float) -> Iterator[Page]:
    """The page once ``selector`` shows; fails the test on any problem that arises meanwhile."""
    before = len(problems)
    page.wait_for_selector(selector, timeout=timeout)
    yield page
    new = problems[before:]
    if new:
        pytest.fail("browser problems:\n  " + "\n  ".join(new), pytrace=False)


def page_for_the_module(query: str, **context_options: Any) -> tuple[Any, Any]:
    """The fixtures ``shared`` and ``table`` of a test module that plays in one page:

        shared, table = page_for_the_module("?seed=...", viewport={...})

    ``shared`` is (page, problems), the page booted once for the module on ``query``;
    ``table`` is that page once the table has settled (ready, over or handoff), and fails its
    test on any problem that arises during it.
    """

    @pytest.fixture(scope="module", name="shared")
    def shared_page(browser: Browser, server_url: str) -> Iterator[tuple[Page, list[str]]]:
        with booted_page(browser, server_url, query, TIMEOUT_MS, **context_options) as opened:
            yield opened

    @pytest.fixture(name="table")
    def settled_page(shared: tuple[Page, list[str]]) -> Iterator[Page]:
        with settled(*shared, SETTLED_OR_HANDOFF, TIMEOUT_MS) as page:
            yield page

    return shared_page, settled_page
