"""Reliability in the browser: a dead engine worker is replaced and the game comes back as it
was, and a long session of complete games keeps memory and move times flat.

One page for the module, booted once; each replacement of the worker costs another boot.
"""

from __future__ import annotations

import datetime
import statistics
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from calypso_core import from_record
from calypso_core.table.sealed import opened_record

from .table import SETTLED, TIMEOUT_MS, hand, play_a_card, plays
from .watching import booted_page, page_for_the_module, settled

pytestmark = pytest.mark.browser

SESSION_GAMES = 20


shared, table = page_for_the_module("?seed=reliable-1&level=random&speed=0")


def client_call(page: Page, script: str, arg: Any = None) -> Any:
    """Run an async function of (client, arg) against the page's own engine client."""
    return page.evaluate(
        f"""async (arg) => {{
            const {{ engine }} = await import("./engine.js");
            const client = engine();
            return ({script})(client, arg);
        }}""",
        arg,
    )


def position(page: Page) -> dict[str, Any]:
    """The game as the engine holds it and as the table shows it."""
    view = client_call(page, "async (client) => client.request('view')")
    return {
        "view": {**view, "event": None, "table": None},
        "plays": plays(page),
        "hand": page.locator("[data-hand] [data-card]").evaluate_all(
            "(cards) => cards.map((card) => card.dataset.card)"),
    }


def test_a_killed_worker_is_replaced_and_the_same_game_comes_back(table: Page) -> None:
    play_a_card(table)
    play_a_card(table)
    before = position(table)
    outcome = client_call(table, """async (client) => {
        const restarted = new Promise((resolve) => client.onRestart(resolve));
        const restarts = client.restarts;
        client.kill();
        const info = await restarted;
        return { restarts: client.restarts - restarts, restored: info.restored,
                 reason: info.reason.code };
    }""")
    assert outcome == {"restarts": 1, "restored": True, "reason": "worker_killed"}
    assert position(table) == before
    # The page goes on with the new worker as if nothing happened.
    play_a_card(table)
    assert plays(table) > before["plays"]
    expect(table.locator("[data-notice]")).to_be_hidden()


def test_a_worker_that_fails_mid_move_is_replaced_without_the_page_noticing(
    table: Page,
) -> None:
    before = plays(table)
    # The person plays; while the engine works on it, its worker fails.
    restarts = client_call(table, """async (client) => {
        const restarts = client.restarts;
        document.querySelector("[data-hand] [data-card][data-playable]").click();
        client.worker.dispatchEvent(new ErrorEvent("error", { message: "simulated failure" }));
        return client.restarts - restarts;
    }""")
    assert restarts == 1
    expect(table.locator("[data-table]")).not_to_have_attribute("data-plays", str(before),
                                                               timeout=TIMEOUT_MS)
    table.wait_for_selector(SETTLED, timeout=TIMEOUT_MS)
    after = position(table)
    assert after["plays"] == after["view"]["plays"] > before
    assert after["hand"] == after["view"]["hand"]
    saved = client_call(table, "async (client) => client.request('record')")
    assert len(from_record(opened_record(saved["record"])).plays) == after["plays"]
    expect(table.locator("[data-notice]")).to_be_hidden()


# -- the Calypso of the day comes back whole ---------------------------------------------------

TODAY = datetime.datetime.now(datetime.UTC).date().isoformat()
DAILY = f"?daily={TODAY}&speed=0"


def saved_game(page: Page) -> dict[str, Any] | None:
    """The game this tab's page saved (web/saves.js), read from its storage, not the engine."""
    game: dict[str, Any] | None = page.evaluate("""() => {
        const tab = JSON.parse(sessionStorage.getItem("calypso.tab.v1") ?? "null");
        const key = tab?.id ? `calypso.save.v1.${tab.id}` : "calypso.save.v1";
        return (tab?.pending ?? JSON.parse(localStorage.getItem(key) ?? "null"))?.game ?? null;
    }""")
    return game


def table_shown(page: Page) -> dict[str, Any]:
    """What the table shows: the cards played, the deal, the trick and the hand."""
    page.wait_for_selector(SETTLED, timeout=TIMEOUT_MS)
    return {
        "plays": plays(page),
        "deal": page.locator("[data-deal-number]").get_attribute("data-deal-number"),
        "trick": page.locator("[data-trick] [data-card]").evaluate_all(
            "(cards) => cards.map((card) => card.dataset.card)"),
        "hand": hand(page),
    }


def play_reload_and_compare(page: Page, cards: int) -> None:
    """Play ``cards`` cards of the daily deal; the page's save holds them; a reload brings
    back the same table."""
    start = plays(page)
    for _ in range(cards):
        play_a_card(page)
    before = table_shown(page)
    saved = saved_game(page)
    assert saved is not None and saved["settings"]["seed"] == f"daily:{TODAY}"
    assert len(saved["record"]["plays"]) >= before["plays"] > start
    page.reload()
    page.wait_for_selector("html[data-engine-state=ready]", state="attached", timeout=TIMEOUT_MS)
    assert table_shown(page) == before
    # The same game, saved again; the work kept ahead on it may have grown meanwhile.
    assert without_ahead(saved_game(page)) == without_ahead(saved)


def without_ahead(game: dict[str, Any] | None) -> dict[str, Any] | None:
    return None if game is None else {key: game[key] for key in game if key != "ahead"}


def test_a_daily_link_played_and_reloaded_comes_back_whole(browser: Browser,
                                                           server_url: str) -> None:
    # Its games were once lost: the page's own list of requests that start a game missed it.
    with booted_page(browser, server_url, DAILY, TIMEOUT_MS) as (page, problems), \
            settled(page, problems, SETTLED, TIMEOUT_MS):
        play_reload_and_compare(page, 2)


def test_a_daily_link_after_another_game_and_a_killed_worker_comes_back_whole(
    table: Page,
) -> None:
    page = table
    play_a_card(page)  # another game first, in the same tab
    page.goto(page.url.split("?")[0] + DAILY)
    page.wait_for_selector("html[data-engine-state=ready]", state="attached", timeout=TIMEOUT_MS)
    play_reload_and_compare(page, 2)
    # The worker dies mid-game: the new one loads the daily deal, and the page saves it.
    assert client_call(page, """async (client) => {
        const restarted = new Promise((resolve) => client.onRestart(resolve));
        client.kill();
        return (await restarted).restored;
    }""")
    play_reload_and_compare(page, 1)


PLAY_A_GAME = """async (client, seed) => {
    // One complete game through the page's client: club bots, South plays its first card.
    const times = [];
    let view = await client.request("new_game", { seed, level: "club" });
    while (view.status !== "game_over") {
        const started = performance.now();
        view = view.status === "your_turn"
            ? await client.request("play", { card: view.legal[0] })
            : await client.request("step");
        times.push(performance.now() - started);
    }
    return { times, plays: view.plays, stats: await client.stats() };
}"""


@pytest.mark.long_session
def test_a_long_session_keeps_memory_and_move_times_flat(table: Page) -> None:
    cdp = table.context.new_cdp_session(table)
    cdp.send("Performance.enable")
    games = []
    for number in range(SESSION_GAMES):
        game = client_call(table, PLAY_A_GAME, f"session-{number}")
        assert game["plays"] == 208
        cdp.send("HeapProfiler.collectGarbage")
        metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
        games.append({"times": game["times"], "median_ms": statistics.median(game["times"]),
                      "page_heap": metrics["JSHeapUsedSize"], **game["stats"]})
    cdp.detach()
    summary = "\n".join(str({k: v for k, v in game.items() if k != "times"}) for game in games)
    # The first game warms up (imports, caches): compare the last games with the next ones,
    # three games each, so that a busy moment of the machine does not decide.
    early = statistics.median(t for game in games[1:4] for t in game["times"])
    late = statistics.median(t for game in games[-3:] for t in game["times"])
    assert late <= 1.5 * early + 1, summary
    second, last = games[1], games[-1]
    assert last["python_objects"] <= 1.02 * second["python_objects"], summary
    assert last["wasm_bytes"] <= second["wasm_bytes"], summary
    assert last["page_heap"] <= 1.2 * second["page_heap"] + 512_000, summary
    print(f"\nlong session, {SESSION_GAMES} games:\n{summary}")
