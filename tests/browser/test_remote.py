"""A table for friends on two browsers (web/remote/, docs/remote.md): the host's page runs the
engine and the computer players, the guest's page runs no Python and receives only its own
seat's view. Everything goes through a Nostr relay on 127.0.0.1 that the test starts;
nothing contacts another address."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote, urlsplit

import pytest
from nostr_relay import NostrRelay
from playwright.sync_api import Browser, Page

from calypso_core import from_record

from .table import PLAYABLE, TIMEOUT_MS, engine_request, plays
from .watching import origin_of

CODE = re.compile(r'"([2-9TJQKA][SHDC])"')
DEAL = 52  # cards of one deal


@pytest.fixture(scope="module")
def relay() -> Iterator[NostrRelay]:
    started = NostrRelay.start()
    yield started
    started.stop()


def watched(browser: Browser, server_url: str, relay: NostrRelay,
            problems: list[str]) -> Page:
    """A fresh context's page; anything but the page's origin and the relay is a problem."""
    context = browser.new_context(reduced_motion="reduce")
    page = context.new_page()
    allowed = {origin_of(server_url), origin_of(relay.url.replace("ws://", "http://"))}

    def check(url: str) -> None:
        parts = urlsplit(url)
        if parts.scheme in ("data", "blob"):
            return
        if f"{'http' if parts.scheme == 'ws' else parts.scheme}://{parts.netloc}" not in allowed:
            problems.append(f"left the origin: {url}")

    context.on("request", lambda r: check(r.url))
    page.on("websocket", lambda ws: check(ws.url))
    page.on("console", lambda m: problems.append(f"console error: {m.text}")
            if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    return page


def guest_messages(page: Page) -> list[str]:
    return list(page.evaluate("""async () => {
        const { engine } = await import("./engine-client.js");
        return engine().table.received;
    }"""))


def test_a_host_and_a_guest_play_a_deal_and_the_guest_sees_only_its_cards(
    browser: Browser, server_url: str, relay: NostrRelay,
) -> None:
    problems: list[str] = []
    relays = quote(relay.url, safe="")
    host = watched(browser, server_url, relay, problems)
    host.goto(f"{server_url}?remote=north&level=random&seed=friends&speed=instant&relays={relays}")
    invite = host.locator("a[data-invite=north]")
    invite.wait_for(timeout=TIMEOUT_MS)
    link = invite.get_attribute("href") or ""
    assert "#join=" in link and "key=" in link and "?" not in link.split("#")[0].replace(
        server_url, "")

    guest = watched(browser, server_url, relay, problems)
    guest_requests: list[str] = []
    guest.context.on("request", lambda r: guest_requests.append(r.url))
    base, fragment = link.split("#", 1)
    guest.goto(f"{base}?speed=instant#{fragment}")
    guest.fill("[data-remote-panel=guest] input[name=name]", "Ben")
    guest.click("[data-remote-join]")
    # The host's first deal waits for the guest's first card (North leads or follows soon).
    guest.wait_for_selector("html[data-engine-state=ready]", state="attached",
                            timeout=TIMEOUT_MS)
    host.wait_for_selector("[data-table][data-plays]", timeout=TIMEOUT_MS)
    assert not [url for url in guest_requests if "pyodide" in url or url.endswith(".whl")]

    # Each plays its first playable card on its turn (the other page is busy meanwhile).
    deadline = time.monotonic() + 240
    while plays(guest) < DEAL:
        assert time.monotonic() < deadline, f"stuck at {plays(guest)} cards"
        for page in (host, guest):
            ready = page.locator("[data-table][data-state=ready] " + PLAYABLE)
            if ready.count():
                ready.first.click()
        host.wait_for_timeout(100)
    assert plays(host) >= DEAL

    record = engine_request(host, "record")["result"]["record"]
    received = guest_messages(guest)
    views = [json.loads(text)["view"] for text in received if json.loads(text)["t"] == "view"]
    assert len(views) >= DEAL
    state = from_record(record)
    for view in views:
        assert view["viewer"] == 0
        public = set(record["plays"][: view["plays"]]) | set(view["table"]["cut"]["cards"])
        leaked = set(CODE.findall(json.dumps(view))) - public - set(view["hand"])
        assert not leaked, f"the guest was sent {sorted(leaked)}"
    assert "friends" not in "".join(received)  # the seed would deal every hand
    assert "deck" not in "".join(received)
    assert state.hand_size(0) == views[-1]["seats"][0]["cards"] or not state.is_over
    assert problems == []


def test_the_solo_page_loads_no_transport(page: Page, server_url: str, boot: Any) -> None:
    # What the page itself loaded (the service worker keeps its own copy of every file).
    assert boot(page, server_url) == "ready"
    loaded = page.evaluate("performance.getEntriesByType('resource').map((e) => e.name)")
    assert any(url.endswith("/remote/choose.js") for url in loaded)
    assert not [url for url in loaded if "/vendor/" in url or url.endswith(("/room.js",
                                                                            "/host.js",
                                                                            "/guest.js"))]
