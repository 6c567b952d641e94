"""Watching a page that a test module keeps open across tests (the page fixture's checks)."""

from __future__ import annotations

from urllib.parse import urlsplit

from playwright.sync_api import Page


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
