"""Presence at a table for friends (web/remote/presence.js, docs/remote.md): a guest who drops
and opens the link again, a host who reloads, a seat handed to a computer player and back, the
relays left alone while every guest is connected, and four people at one table. Everything
goes through a Nostr relay on 127.0.0.1 that the tests start."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from nostr_relay import NostrRelay
from playwright.sync_api import Browser, Page, WebSocket, expect

from calypso_core.table.fair import fair_seed

from .table import PLAYABLE, TIMEOUT_MS, engine_request, hand, plays
from .test_remote import DEAL, seat_hand, watch, watched

RU = json.loads((Path(__file__).resolve().parents[2] / "calypso_core" / "messages" / "ru.json")
                .read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def relay() -> Iterator[NostrRelay]:
    started = NostrRelay.start()
    yield started
    started.stop()


def open_sockets(sockets: list[WebSocket]) -> int:
    """How many of a page's WebSockets (its relay connections) are open."""
    return sum(not ws.is_closed() for ws in sockets)


def wait_for(condition: Callable[[], bool], what: str, page: Page, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"still not: {what}"
        page.wait_for_timeout(100)


def said(page: Page) -> list[str]:
    """Everything the page announced to screen readers about who is here."""
    return list(page.evaluate(
        """async () => (await import("./state.js")).app.remote?.said ?? []"""))


def play_until(pages: list[Page], cards: int, watch: Page) -> None:
    """Each page plays its first playable card as soon as it can, until ``watch`` shows
    ``cards`` played."""
    deadline = time.monotonic() + 240
    while plays(watch) < cards:
        assert time.monotonic() < deadline, f"stuck at {plays(watch)} cards"
        for page in pages:
            ready = page.locator("[data-table][data-state=ready] " + PLAYABLE)
            if ready.count():
                ready.first.click()
        watch.wait_for_timeout(50)


def join(page: Page, link: str, name: str, lang: str = "en") -> None:
    base, fragment = link.split("#", 1)
    page.goto(f"{base}?speed=instant&lang={lang}#{fragment}")
    if name:
        page.fill("[data-remote-panel=guest] input[name=name]", name)
        page.click("[data-remote-join]")


def host_page(browser: Browser, server_url: str, relay_url: str, seats: str,
              problems: list[str], relay: NostrRelay) -> tuple[Page, list[WebSocket]]:
    host = watched(browser, server_url, relay, problems)
    sockets: list[WebSocket] = []
    host.on("websocket", lambda ws: sockets.append(ws))
    host.goto(f"{server_url}?remote={seats}&level=random&seed=presence&speed=instant"
              f"&relays={quote(relay_url, safe='')}")
    return host, sockets


def reopen_host(host: Page, server_url: str, relay: NostrRelay,
                problems: list[str]) -> tuple[Page, list[WebSocket]]:
    """The host closes its tab (not a reload) and opens the table's address in a new one."""
    address, context = host.url, host.context
    host.close()
    again = watch(context.new_page(), server_url, relay, problems)
    sockets: list[WebSocket] = []
    again.on("websocket", lambda ws: sockets.append(ws))
    again.goto(address)
    return again, sockets


def play_to_bens_turn(host: Page) -> None:
    """The host plays its cards until the table waits for Ben (North), as its status line
    (a live region) says by name."""
    deadline = time.monotonic() + 60
    while "Ben (North) to play…" not in (host.locator("[data-status]").text_content() or ""):
        assert time.monotonic() < deadline, host.locator("[data-status]").text_content()
        ready = host.locator("[data-table][data-state=ready] " + PLAYABLE)
        if ready.count():
            ready.first.click()
        host.wait_for_timeout(100)

def test_a_guest_drops_a_computer_stands_in_the_guest_comes_back_and_the_host_reloads(
    browser: Browser, server_url: str, relay: NostrRelay, screenshots: Any,
) -> None:
    problems: list[str] = []
    host, host_sockets = host_page(browser, server_url, relay.url, "north", problems, relay)
    invite = host.locator("a[data-invite=north]")
    invite.wait_for(timeout=TIMEOUT_MS)
    link = invite.get_attribute("href") or ""
    guest = watched(browser, server_url, relay, problems)
    join(guest, link, "Ben")
    host.wait_for_selector("[data-table][data-plays]", timeout=TIMEOUT_MS)
    guest.wait_for_selector("[data-table][data-plays]", timeout=TIMEOUT_MS)
    # Every guest's seat connected: the host's page closes its relay connections.
    wait_for(lambda: open_sockets(host_sockets) == 0, "the host left the relays", host)
    play_until([host, guest], 6, host)

    # The guest's tab is closed mid-deal: every screen waits for Ben and says so.
    context = guest.context
    guest.close()
    host.wait_for_selector("[data-presence] [data-presence-seat='0'][data-presence-state=away]",
                           timeout=TIMEOUT_MS)
    assert "Waiting for Ben (North)…" in host.locator("[data-presence]").inner_text()
    assert {"Ben (North) has lost the connection.", "Waiting for Ben (North)…"} <= set(said(host))
    # ... and opens its relay connections again, for Ben's page to find it.
    wait_for(lambda: open_sockets(host_sockets) == 1, "the host back on the relays", host)
    for size, name in (((1366, 768), "wide"), ((390, 844), "narrow")):
        host.set_viewport_size({"width": size[0], "height": size[1]})
        screenshots(host, f"presence-host-waiting-{name}")
    host.set_viewport_size({"width": 1280, "height": 720})

    # The table plays on to North's turn and waits there; the status line (a live region)
    # says whose turn it is, by name.
    play_to_bens_turn(host)
    waiting_at = plays(host)
    host.wait_for_timeout(500)  # nothing may happen meanwhile: the table waits for Ben
    assert plays(host) == waiting_at
    assert host.locator("[data-presence]").inner_text().startswith("Waiting for Ben (North)…")

    # The host gives North to a computer player: the game goes on past North's turns.
    at = plays(host)
    host.select_option("[data-presence-level='0']", "random")
    host.click("[data-presence-give='0']")
    host.wait_for_selector("[data-presence-seat='0'][data-presence-state=computer]")
    play_until([host], at + 8, host)
    record = engine_request(host, "record")["result"]["record"]
    assert len(record["plays"]) >= at + 8

    # The host closes its tab while the computer plays for Ben and opens the table's address
    # in a new one: the same room and game, and the computer still plays North (kept.js).
    host, host_sockets = reopen_host(host, server_url, relay, problems)
    host.wait_for_selector("[data-presence-seat='0'][data-presence-state=computer]",
                           timeout=TIMEOUT_MS)
    assert host.locator("a[data-invite=north]").get_attribute("href") == link
    resumed = engine_request(host, "record")["result"]["record"]["plays"]
    assert resumed[: len(record["plays"])] == record["plays"]
    play_until([host], len(resumed) + 8, host)

    # Ben opens the link again (same browser, in Russian): the same seat, no name asked, the
    # table as it is now, and a banner saying who plays for him.
    guest = context.new_page()
    join(guest, link, "", lang="ru")
    guest.wait_for_selector("[data-table][data-plays]", timeout=TIMEOUT_MS)
    guest.wait_for_selector("[data-presence-seat='0'][data-presence-state=computer]",
                            timeout=TIMEOUT_MS)
    # "A computer player (…) plays for you", in Russian: the catalog's words before the level.
    banner = guest.locator("[data-presence]").inner_text()
    assert RU["presence.stand_in_you"].split("(")[0] in banner
    for size, name in (((1366, 768), "wide"), ((390, 844), "narrow")):
        guest.set_viewport_size({"width": size[0], "height": size[1]})
        screenshots(guest, f"presence-guest-stand-in-{name}")
    host.set_viewport_size({"width": 1366, "height": 768})
    screenshots(host, "presence-host-stand-in-wide")
    wait_for(lambda: "Ben (North) is back." in " ".join(said(host)), "Ben's return said", host)
    host.click("[data-presence-give-back='0']")
    host.wait_for_selector("[data-presence]", state="hidden")
    wait_for(lambda: open_sockets(host_sockets) == 0, "the host left the relays again", host)
    play_until([host, guest], plays(host) + 8, guest)  # Ben plays his own cards again

    # The host reloads: the same room and game; Ben's page finds it by itself and goes on.
    before = engine_request(host, "record")["result"]["record"]["plays"]
    host_sockets.clear()
    host.reload()
    # Its table is drawn from the save; "ready" may wait for Ben's card (North to move).
    host.wait_for_selector("[data-table][data-plays]", timeout=TIMEOUT_MS)
    assert host.locator("a[data-invite=north]").get_attribute("href") == link
    after = engine_request(host, "record")["result"]["record"]["plays"]
    assert after[: len(before)] == before
    wait_for(lambda: RU["presence.waiting_host"] in said(guest), "the host's absence said", guest)
    wait_for(lambda: RU["presence.host_back"] in said(guest), "the host's return said", guest)
    wait_for(lambda: open_sockets(host_sockets) == 0, "the reloaded host left the relays", host)
    play_until([host, guest], plays(host) + 8, guest)
    host.context.close()
    context.close()
    assert problems == []


# Every RTCPeerConnection of a page, kept where a test can close them (a network cut).
KEEP_CONNECTIONS = """(() => {
  const Made = window.RTCPeerConnection;
  window.connections = [];
  window.RTCPeerConnection = class extends Made {
    constructor(...args) { super(...args); window.connections.push(this); }
  };
})()"""


def trystero_id(page: Page) -> str:
    """The id a page's transport announces itself by (trystero's selfId)."""
    return str(page.evaluate("async () => (await import('./vendor/nostr/index.mjs')).selfId"))


def test_a_seated_guest_stops_announcing_and_comes_back_after_a_network_cut(
    browser: Browser, server_url: str, relay: NostrRelay, screenshots: Any,
) -> None:
    problems: list[str] = []
    host, host_sockets = host_page(browser, server_url, relay.url, "north", problems, relay)
    invite = host.locator("a[data-invite=north]")
    invite.wait_for(timeout=TIMEOUT_MS)
    link = invite.get_attribute("href") or ""
    room = link.split("#join=", 1)[1].split("&", 1)[0]
    guest = watched(browser, server_url, relay, problems)
    guest.context.add_init_script(KEEP_CONNECTIONS)
    guest_sockets: list[WebSocket] = []
    guest.on("websocket", lambda ws: guest_sockets.append(ws))
    join(guest, link, "Ben")
    host.wait_for_selector("[data-table][data-plays]", timeout=TIMEOUT_MS)
    guest.wait_for_selector("[data-table][data-plays]", timeout=TIMEOUT_MS)
    ben = trystero_id(guest)
    # Connected to the host, the guest's page closes its relay connections, as the host's
    # does once every seat is connected: neither announces any more.
    wait_for(lambda: open_sockets(guest_sockets) == 0, "the guest left the relays", guest)
    wait_for(lambda: open_sockets(host_sockets) == 0, "the host left the relays", host)
    announced = relay.announcements(room, ben)
    assert announced >= 1  # how it found the table
    play_until([host, guest], 4, host)
    assert relay.announcements(room, ben) == announced

    # A network cut with the page open: the guest's browser goes offline and its connection
    # to the host drops (Chromium's offline mode leaves WebRTC alone: the test closes it).
    guest.context.set_offline(True)
    guest.evaluate("window.connections.filter((c) => c.connectionState === 'connected')"
                   ".forEach((c) => c.close())")
    host.wait_for_selector("[data-presence] [data-presence-seat='0'][data-presence-state=away]",
                           timeout=TIMEOUT_MS)
    assert host.locator("[data-presence]").inner_text().startswith("Waiting for Ben (North)…")
    guest.wait_for_selector("[data-presence] [data-presence-seat=host][data-presence-state=away]",
                            timeout=TIMEOUT_MS)
    assert guest.locator("[data-presence]").inner_text() == "Waiting for the host…"
    for size, name in (((1366, 768), "wide"), ((390, 844), "narrow")):
        guest.set_viewport_size({"width": size[0], "height": size[1]})
        screenshots(guest, f"presence-guest-cut-{name}")
    guest.set_viewport_size({"width": 1280, "height": 720})
    # The host plays on to Ben's turn meanwhile (the table waits there).
    play_to_bens_turn(host)

    # Back online: the guest's page announces at once (not at trystero's next minute), takes
    # its seat back and is sent the table as it is now.
    cut_at = time.monotonic()
    guest.context.set_offline(False)
    wait_for(lambda: relay.announcements(room, ben) > announced, "the guest announced again",
             guest, seconds=20)
    host.wait_for_selector("[data-presence]", state="hidden", timeout=TIMEOUT_MS)
    guest.wait_for_selector("[data-presence]", state="hidden", timeout=TIMEOUT_MS)
    print(f"the guest was back {time.monotonic() - cut_at:.1f} s after the network came back")
    wait_for(lambda: plays(guest) == plays(host), "the guest's table as it is now", guest)
    assert sorted(hand(guest)) == seat_hand(host)
    assert {"Ben (North) has lost the connection.", "Ben (North) is back."} <= set(said(host))
    wait_for(lambda: open_sockets(guest_sockets) == 0, "the guest left the relays again", guest)
    play_until([host, guest], plays(host) + 4, guest)  # Ben plays his own cards again

    # The host closes its tab and opens the table again: Ben's page, left open, finds it by
    # itself, in the same seat, and they play on.
    before = engine_request(host, "record")["result"]["record"]["plays"]
    host, host_sockets = reopen_host(host, server_url, relay, problems)
    host.wait_for_selector("[data-table][data-plays]", timeout=TIMEOUT_MS)
    assert host.locator("a[data-invite=north]").get_attribute("href") == link
    assert engine_request(host, "record")["result"]["record"]["plays"][: len(before)] == before
    wait_for(lambda: "Waiting for the host…" in said(guest), "the host's absence said", guest)
    wait_for(lambda: "The host is back." in said(guest), "the host's return said", guest)
    wait_for(lambda: open_sockets(host_sockets) == 0, "the host left the relays again", host)
    play_until([host, guest], plays(host) + 4, guest)
    host.context.close()
    guest.context.close()
    assert problems == []


def ben_seated_in_north(browser: Browser, server_url: str, relay: NostrRelay,
                        problems: list[str]) -> tuple[Page, Page]:
    """A host's table with Ben (a guest whose connections can be cut) seated in North, both
    pages showing it."""
    host, _ = host_page(browser, server_url, relay.url, "north", problems, relay)
    invite = host.locator("a[data-invite=north]")
    invite.wait_for(timeout=TIMEOUT_MS)
    guest = watched(browser, server_url, relay, problems)
    guest.context.add_init_script(KEEP_CONNECTIONS)
    join(guest, invite.get_attribute("href") or "", "Ben")
    host.wait_for_selector("[data-table][data-plays]", timeout=TIMEOUT_MS)
    guest.wait_for_selector("[data-table][data-plays]", timeout=TIMEOUT_MS)
    return host, guest


def cut(host: Page, guest: Page) -> None:
    """A network cut of the guest (the browser offline, its connections closed) that the host
    has seen."""
    guest.context.set_offline(True)
    guest.evaluate("window.connections.filter((c) => c.connectionState === 'connected')"
                   ".forEach((c) => c.close())")
    host.wait_for_selector("[data-presence] [data-presence-seat='0'][data-presence-state=away]",
                           timeout=TIMEOUT_MS)


def fair_deal(host: Page, guest: Page) -> tuple[dict[str, Any], dict[str, Any]]:
    """The host's fair deal ({secret, commitment, guests, dealt}) and the guest's part of it
    ({commitment, seed})."""
    return host.evaluate("""async () => {
        const { engine } = await import("./engine.js");
        const { fair } = engine().table;
        return { secret: fair.secret, commitment: await fair.commitment, dealt: fair.dealt,
                 guests: Object.fromEntries(fair.seeds) };
    }"""), guest.evaluate("""async () => {
        const { engine } = await import("./engine.js");
        return engine().table._fair;
    }""")


def test_a_guest_away_at_a_new_match_is_in_its_mix_if_back_before_the_deal_else_told(
    browser: Browser, server_url: str, relay: NostrRelay, screenshots: Any,
) -> None:
    problems: list[str] = []
    host, guest = ben_seated_in_north(browser, server_url, relay, problems)
    panel = guest.locator("[data-fair]")
    deal = """async () => {
        const { engine } = await import("./engine.js");
        window.dealt = engine().request("new_game", { level: "random", games: 1 });
    }"""

    # Ben is away when the host deals a new match, and back before its round of seeds ends
    # (5 s): the deal waits for his seed and mixes it.
    cut(host, guest)
    host.evaluate(deal)
    guest.context.set_offline(False)
    host.evaluate("async () => { await window.dealt; }")
    fair, mine = fair_deal(host, guest)
    assert mine["commitment"] == fair["commitment"] and fair["guests"] == {"0": mine["seed"]}
    assert engine_request(host, "record")["result"]["settings"]["seed"] == fair_seed(
        fair["secret"], {0: mine["seed"]})
    expect(panel).to_have_attribute("data-fair", "committed", timeout=TIMEOUT_MS)

    # Away until the match is dealt: his page is told plainly that his seed is not in the mix,
    # the host takes no seed from him afterwards, and the reveal at the end says the same.
    host.wait_for_selector("[data-presence]", state="hidden", timeout=TIMEOUT_MS)
    cut(host, guest)
    host.evaluate(deal)
    host.evaluate("async () => { await window.dealt; }")
    guest.context.set_offline(False)
    expect(panel).to_have_attribute("data-fair", "late", timeout=TIMEOUT_MS)
    expect(panel.locator("[data-fair-words]")).to_contain_text(
        "This match was dealt while you were away, so your seed is not in its mix")
    guest.wait_for_selector("[data-table][data-plays]", timeout=TIMEOUT_MS)
    expect(guest.locator("[data-side-panel] [data-fair]")).to_be_visible()
    for size, name in (((1366, 768), "wide"), ((390, 844), "narrow")):
        guest.set_viewport_size({"width": size[0], "height": size[1]})
        screenshots(guest, f"fair-late-{name}")
    guest.set_viewport_size({"width": 1280, "height": 720})
    fair, mine = fair_deal(host, guest)
    assert fair["dealt"] and fair["guests"] == {} and mine["seed"] is None
    assert engine_request(host, "record")["result"]["settings"]["seed"] == fair_seed(
        fair["secret"], {})
    host.evaluate("""async () => {
        const { engine } = await import("./engine.js");
        await engine().table._revealAtEnd({ status: "game_over", match: { is_over: true } });
    }""")
    expect(panel).to_have_attribute("data-fair", "left_out", timeout=TIMEOUT_MS)
    expect(panel.locator("[data-fair-words]")).to_contain_text(
        "Your seed is not in the mix: the match was dealt while you were away.")
    expect(panel.locator("[data-fair-replay]")).to_be_visible()
    host.context.close()
    guest.context.close()
    assert problems == []


def test_four_people_play_a_whole_deal(browser: Browser, server_url: str, relay: NostrRelay,
                                       screenshots: Any) -> None:
    seats = "north,east,west"
    problems: list[str] = []
    host, host_sockets = host_page(browser, server_url, relay.url, seats, problems, relay)
    guests = []
    for key, name in zip(seats.split(","), ("Ben", "Cat", "Dan"), strict=True):
        invite = host.locator(f"a[data-invite={key}]")
        invite.wait_for(timeout=TIMEOUT_MS)
        guest = watched(browser, server_url, relay, problems)
        join(guest, invite.get_attribute("href") or "", name)
        guests.append(guest)
    for page in (host, *guests):
        page.wait_for_selector("[data-table][data-plays]", timeout=TIMEOUT_MS)
    wait_for(lambda: open_sockets(host_sockets) == 0, "the host left the relays", host)
    started = time.monotonic()
    play_until([host, *guests], DEAL, host)
    for guest in guests:
        wait_for(lambda: plays(guest) >= DEAL, "every guest saw the deal end", guest)  # noqa: B023
    print(f"four people played {DEAL} cards in {time.monotonic() - started:.1f} s")
    # Ben, seated first, heard the others come to the table.
    assert {"Cat (East) has joined the table.", "Dan (West) has joined the table."} <= set(
        said(guests[0]))
    # Ben's tab closes: the other guests' screens wait for him too, and say so.
    guests[0].close()
    cat = guests[1]
    cat.wait_for_selector("[data-presence-seat='0'][data-presence-state=away]", timeout=TIMEOUT_MS)
    assert cat.locator("[data-presence]").inner_text() == "Waiting for Ben (North)…"
    assert {"Ben (North) has lost the connection.", "Waiting for Ben (North)…"} <= set(said(cat))
    for size, name in (((1366, 768), "wide"), ((390, 844), "narrow")):
        cat.set_viewport_size({"width": size[0], "height": size[1]})
        screenshots(cat, f"presence-guest-waiting-{name}")
    for page in (host, *guests):
        page.context.close()
    assert problems == []


def test_a_guest_cut_on_its_turn_while_a_computer_plays_for_it_sees_the_table_as_it_is(
    browser: Browser, server_url: str, relay: NostrRelay,
) -> None:
    """Ben's page stays open through a cut that comes on his turn; the host gives North to a
    computer player, which plays Ben's card and the game goes on. Back online, Ben's page
    draws the table as it is, without a click (the view comes unasked: onChange)."""
    problems: list[str] = []
    host, guest = ben_seated_in_north(browser, server_url, relay, problems)
    play_to_bens_turn(host)
    guest.wait_for_selector("[data-table][data-state=ready] " + PLAYABLE, timeout=TIMEOUT_MS)
    shown = plays(guest)
    cut(host, guest)
    host.select_option("[data-presence-level='0']", "random")
    host.click("[data-presence-give='0']")
    play_until([host], shown + 4, host)  # Ben's card among them, played by the computer
    guest.context.set_offline(False)
    wait_for(lambda: plays(guest) == plays(host) > shown,
             "Ben's page drawing the table as it is, with no click", guest)
    assert sorted(hand(guest)) == seat_hand(host)
    host.context.close()
    guest.context.close()
    assert problems == []
