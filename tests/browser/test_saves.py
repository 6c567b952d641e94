"""Nothing lost, nothing stalls: the page's saved games across reloads, links, two tabs and
a full storage, and bad input — hostile game files, damaged saves, an unbounded speed —
refused quickly with a clear message.

Each test opens its own browser context (its own storage); a second tab is a second page in
the same context, as a person's second tab shares the first one's storage.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Page, expect

from calypso_core import from_record
from calypso_core.table.sealed import opened_record

from .conftest import BOOT_TIMEOUT_MS
from .table import (
    SETTLED,
    TIMEOUT_MS,
    engine_request,
    hand,
    open_page,
    play_a_card,
    plays,
    saved_plays,
    shown_plays,
)
from .watching import origin_of, watch

pytestmark = pytest.mark.browser

LINK = "?seed=sharedlink&level=random&speed=0"
FAST = 10_000  # ms: generous for what takes milliseconds, far below the minutes it took

# Fills the page's storage to the last character (the test stands for a full disk).
FILL_STORAGE = """() => {
    let i = 0;
    for (let size = 1 << 20; size >= 1; size >>= 1) {
        const chunk = "x".repeat(size);
        try { for (;; i++) localStorage.setItem(`fill${i}`, chunk); } catch { /* next size */ }
    }
    // A new key costs its name too: grow the last item a character at a time to the brim.
    const last = `fill${i - 1}`;
    try {
        for (;;) localStorage.setItem(last, localStorage.getItem(last) + "x");
    } catch { /* full */ }
    return i;
}"""
FREE_STORAGE = """() => {
    for (const key of Object.keys(localStorage)) {
        if (key.startsWith("fill")) localStorage.removeItem(key);
    }
}"""


@pytest.fixture
def second_tab(page: Page, server_url: str) -> Iterator[Callable[..., Page]]:
    """Opens more pages in the page's context (a person's other tabs), each watched."""
    problems: list[str] = []

    def open_tab(query: str = "") -> Page:
        tab = page.context.new_page()
        seen = watch(tab, origin_of(server_url))
        tab.on("close", lambda _: problems.extend(seen))
        watched.append(seen)
        open_page(tab, server_url + query)
        return tab

    watched: list[list[str]] = []
    yield open_tab
    found = [p for seen in watched for p in seen]
    if found:
        pytest.fail("browser problems in another tab:\n  " + "\n  ".join(found), pytrace=False)


def reload(page: Page) -> None:
    page.reload()
    page.wait_for_selector("html[data-engine-state=ready]", state="attached",
                           timeout=BOOT_TIMEOUT_MS)
    page.wait_for_selector(SETTLED, timeout=TIMEOUT_MS)


def notice(page: Page) -> str:
    box = page.locator("[data-notice]")
    return box.inner_text() if box.is_visible() else ""


# -- links ----------------------------------------------------------------------------------


def test_a_link_deals_its_game_once_and_a_reload_resumes_it(
    page: Page, server_url: str, second_tab: Callable[..., Page],
) -> None:
    open_page(page, server_url + LINK)
    while plays(page) < 16:
        play_a_card(page)
    played, cards = shown_plays(page), hand(page)
    # The address no longer deals: a reload, like the "new version… Reload" prompt, resumes.
    assert "seed=" not in page.url and "speed=0" in page.url
    reload(page)
    assert shown_plays(page) == played and hand(page) == cards
    expect(page.locator("[data-seed-info]")).to_have_text("Seed sharedlink")
    # The same link opened again, once its tab is closed, resumes the game it dealt.
    page.goto("about:blank")
    again = second_tab(LINK)
    assert shown_plays(again) == played
    assert "goes on where you left it" in notice(again)


def test_a_link_opened_beside_a_game_in_play_leaves_that_game_alone(
    page: Page, server_url: str,
) -> None:
    open_page(page, server_url + "?seed=first-game&level=random&speed=0")
    play_a_card(page)
    mine = shown_plays(page)
    open_page(page, server_url + "?seed=second-game&level=random&speed=0")
    expect(page.locator("[data-seed-info]")).to_have_text("Seed second-game")
    page.locator(".bar [data-action=menu]").click()
    page.locator("[data-dialog=menu] [data-action=saves]").click()
    rows = page.locator("[data-dialog=saves] [data-save-row]")
    expect(rows).to_have_count(2)
    other = rows.filter(has_text="Seed first-game")
    expect(other).to_contain_text(f"{len(mine)} cards played")
    other.get_by_role("button", name="Play here").click()
    expect(page.locator("[data-seed-info]")).to_have_text("Seed first-game")
    page.wait_for_selector(SETTLED, timeout=TIMEOUT_MS)
    assert shown_plays(page) == mine


# -- two tabs -------------------------------------------------------------------------------


def test_two_tabs_each_keep_their_own_game(page: Page, server_url: str,
                                           second_tab: Callable[..., Page]) -> None:
    open_page(page, server_url + "?seed=tab-one&level=random&speed=0")
    play_a_card(page)
    other = second_tab("?speed=0")
    # The game in play is the first tab's: the second deals its own and says why.
    assert "open in another tab" in notice(other)
    assert shown_plays(other) != shown_plays(page) or other.locator(
        "[data-seed-info]").inner_text() != "Seed tab-one"
    for _ in range(2):
        play_a_card(page)
        play_a_card(other)
    first, second = shown_plays(page), shown_plays(other)
    assert saved_plays(page) == first and saved_plays(other) == second
    reload(other)
    reload(page)
    assert shown_plays(page) == first and shown_plays(other) == second
    # Each lists the other's game as open there, with nothing to click that would take it.
    page.locator(".bar [data-action=menu]").click()
    page.locator("[data-dialog=menu] [data-action=saves]").click()
    elsewhere = page.locator("[data-dialog=saves] [data-save-row][data-elsewhere]")
    expect(elsewhere).to_have_count(1)
    expect(elsewhere.get_by_role("button")).to_have_count(0)
    page.keyboard.press("Escape")
    # Once the second tab is closed, its game can be played in the first; the first's stays.
    seed = other.locator("[data-seed-info]").inner_text()
    other.close()
    page.locator(".bar [data-action=menu]").click()
    page.locator("[data-dialog=menu] [data-action=saves]").click()
    page.locator("[data-dialog=saves] [data-save-row]:not([data-mine])").get_by_role(
        "button", name="Play here").click()
    expect(page.locator("[data-seed-info]")).to_have_text(seed)
    page.wait_for_selector(SETTLED, timeout=TIMEOUT_MS)
    assert shown_plays(page) == second
    page.locator(".bar [data-action=menu]").click()
    page.locator("[data-dialog=menu] [data-action=saves]").click()
    expect(page.locator("[data-dialog=saves] [data-save-row]:not([data-mine])")).to_contain_text(
        f"{len(first)} cards played")


def test_a_duplicated_tab_does_not_take_the_game_of_the_tab_it_copies(
    page: Page, server_url: str, second_tab: Callable[..., Page],
) -> None:
    # "Duplicate tab" copies sessionStorage, so the copy names the same save as the original.
    open_page(page, server_url + "?seed=original&level=random&speed=0")
    play_a_card(page)
    played = shown_plays(page)
    tab = page.evaluate("sessionStorage.getItem('calypso.tab.v1')")
    copy = page.context.new_page()
    copy.add_init_script(f"sessionStorage.setItem('calypso.tab.v1', {json.dumps(tab)})")
    problems = watch(copy, origin_of(server_url))
    open_page(copy, server_url + "?speed=0")
    assert "open in another tab" in notice(copy)
    play_a_card(copy)
    assert saved_plays(page) == played == shown_plays(page)
    assert problems == []


# -- a full storage -------------------------------------------------------------------------


def test_a_save_that_fails_is_said_at_once_and_no_card_is_lost(page: Page,
                                                                server_url: str) -> None:
    # Quick budgets, so that the work done ahead while the person thinks is in the save before
    # the storage fills: a reload once dropped that work from the game, and the smaller save
    # then fit where the whole game did not (the banner went away, the work was lost).
    page.add_init_script("""localStorage.setItem("calypso.dev.v1",
        JSON.stringify({ review_budget: 200, master_iterations: 5 }))""")
    open_page(page, server_url + "?seed=full-disk&level=random&speed=0")
    play_a_card(page)
    banner = page.locator("[data-save-problem]")
    expect(banner).to_be_hidden()
    expect(page.locator("html")).to_have_attribute("data-rerun-ahead", "208/208",
                                                   timeout=TIMEOUT_MS)
    page.wait_for_function("JSON.parse(localStorage.getItem('calypso.save.v1')).game.ahead",
                           timeout=TIMEOUT_MS)
    last_good = saved_plays(page)
    assert last_good is not None
    page.evaluate(FILL_STORAGE)
    play_a_card(page)
    # At once, with what to do and the buttons to do it.
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("storage for Calypso is full")
    expect(banner.get_by_role("button", name="Save game to a file")).to_be_visible()
    expect(banner.get_by_role("button", name="Saved games")).to_be_visible()
    assert page.evaluate("JSON.parse(localStorage.getItem('calypso.save.v1')).game.record"
                         ".plays.length") == len(last_good)  # the last good save is intact
    play_a_card(page)
    played = shown_plays(page)
    assert saved_plays(page) == played  # kept in the tab meanwhile
    reload(page)
    assert shown_plays(page) == played
    # Still full: the last good save stays, work done ahead and all (a save of the game
    # without that work once fit in its place).
    stored = page.evaluate("JSON.parse(localStorage.getItem('calypso.save.v1')).game")
    assert len(stored["record"]["plays"]) == len(last_good) and stored.get("ahead")
    expect(banner).to_be_visible()  # said again at once
    # Room again: the next move is saved where it belongs, and the page says so.
    page.evaluate(FREE_STORAGE)
    play_a_card(page)
    expect(banner).to_be_hidden()
    expect(page.locator("[data-notice]")).to_contain_text("saved again")
    assert page.evaluate("JSON.parse(localStorage.getItem('calypso.save.v1')).game.record"
                         ".plays.length") == plays(page)


def test_a_storage_full_from_the_first_visit_is_said_before_the_first_card(
    page: Page, server_url: str,
) -> None:
    page.add_init_script(f"""if (!sessionStorage.getItem("filled")) {{
        sessionStorage.setItem("filled", "yes");
        ({FILL_STORAGE})();
    }}""")
    open_page(page, server_url + "?seed=full-from-the-start&level=random&speed=0")
    expect(page.locator("[data-save-problem]")).to_be_visible()
    play_a_card(page)
    played = shown_plays(page)
    reload(page)  # the tab kept it: the same game, not a new deal
    assert shown_plays(page) == played
    expect(page.locator("[data-seed-info]")).to_have_text("Seed full-from-the-start")


# -- hostile files, damaged saves, hostile settings -----------------------------------------

HOSTILE_FILES = {
    "control characters": bytes(range(1, 32)) * (64_000 // 31) + b"\x01" * (64_000 % 31),
    "deep nesting": b"[" * 32_000 + b"]" * 32_000,
    "quotes and escapes": b'"\\' * 32_000,
    "escaped quotes": b'[' * 40 + b'\\"' * 31_980,
}


def test_hostile_game_files_are_refused_fast_with_a_clear_message(page: Page,
                                                                  server_url: str) -> None:
    open_page(page, server_url + "?seed=hostile&level=random&speed=0")
    before = shown_plays(page)
    box = page.locator("[data-notice]")
    for name, content in HOSTILE_FILES.items():
        assert len(content) == 64_000  # the largest file the page sends to the engine
        started = time.perf_counter()
        page.locator("[data-import-file]").set_input_files(
            {"name": f"{name}.json", "mimeType": "application/json", "buffer": content})
        expect(box).to_contain_text(f'"{name}.json" could not be opened', timeout=FAST)
        assert time.perf_counter() - started < FAST / 1000, name
        expect(box).to_contain_text(re.compile(r"game record.*Nothing was changed"))
        assert shown_plays(page) == before, name
    restarts = page.evaluate(
        "import('./engine.js').then(({ engine }) => engine().restarts)")
    assert restarts == 0


# Each damages the saved game in its own way; every one was answered with "id": null, and
# the page said "Cannot read properties of null (reading 'ok')".
DAMAGED_SAVES = {
    "nested too deeply": "save.game.record.plays = JSON.parse('['.repeat(40) + ']'.repeat(40))",
    "lone surrogate": "save.game.settings.seed = '\\ud800'",
    "far too long": "save.game.record.junk = 'x'.repeat(450000)",
    "quotes and escapes": "save.game.record.junk = '\"\\\\'.repeat(60000)",
    "not data": "save = '{not json'",
}


def test_damaged_saves_are_set_aside_with_a_clear_message(page: Page, server_url: str) -> None:
    open_page(page, server_url + "?seed=to-damage&level=random&speed=0")
    for damage, script in DAMAGED_SAVES.items():
        page.evaluate(f"""() => {{
            localStorage.removeItem("calypso.save.unreadable");
            let save = JSON.parse(localStorage.getItem("calypso.save.v1"));
            {script};
            if (typeof save !== "string") save = JSON.stringify(save);
            localStorage.setItem("calypso.save.v1", save);
        }}""")
        reload(page)
        text = page.locator("[data-notice]").inner_text()
        assert re.search(r"could not be restored|damaged", text), (damage, text)
        assert "set aside" in text, (damage, text)
        assert "Cannot read" not in text and "null" not in text, (damage, text)
        expect(page.locator(".bar [data-action=menu]")).to_be_visible()
        assert page.evaluate("localStorage.getItem('calypso.save.unreadable')"), damage
        play_a_card(page)  # and a new game goes on


def test_an_unbounded_speed_in_a_link_is_refused_with_a_notice(page: Page,
                                                                server_url: str) -> None:
    open_page(page, server_url + "?seed=slowpoke&level=random&speed=999999999")
    expect(page.locator(".bar [data-action=menu]")).to_be_visible()
    text = page.locator("[data-notice]").inner_text()
    assert 'The speed "999999999"' in text and "your usual speed" in text, text
    assert "speed" not in page.url  # said once, not on every reload
    play_a_card(page)


def test_an_unbounded_speed_in_saved_settings_is_put_back_to_the_default(
    page: Page, server_url: str,
) -> None:
    page.add_init_script("""localStorage.setItem("calypso.settings.v1", JSON.stringify({
        level: "random", levels: null, rules: {}, games: 1, suit: "random", speed: 999999999 }))""")
    open_page(page, server_url)
    expect(page.locator(".bar [data-action=menu]")).to_be_visible()
    play_a_card(page)  # the computer players answer within the normal speed


def test_saved_settings_out_of_range_are_judged_by_the_engine_and_said(
    page: Page, server_url: str,
) -> None:
    # The page once checked them against limits of its own, and put them back silently.
    page.add_init_script("""if (!sessionStorage.getItem("planted")) {
        sessionStorage.setItem("planted", "1");
        localStorage.setItem("calypso.settings.v1", JSON.stringify({ level: "random",
            levels: null, people: [{seat: 9}], rules: {}, games: 9, suit: "Q", speed: "instant" }));
    }""")
    open_page(page, server_url)
    notice = page.locator("[data-notice]")
    for said in ["saved settings could not be used", "A match is 1 to 4 games long",
                 "There is no such suit", "The people at the table are not set correctly"]:
        expect(notice).to_contain_text(said)
    settings = json.loads(page.evaluate("localStorage.getItem('calypso.settings.v1')"))
    assert settings == {"level": "random", "levels": None, "people": None, "rules": {},
                        "games": 1, "suit": "random", "speed": "instant"}
    aside = json.loads(page.evaluate("localStorage.getItem('calypso.settings.unreadable')"))
    assert aside["settings"]["games"] == 9
    play_a_card(page)
    reload(page)  # judged once: nothing more to say
    expect(page.locator(".bar [data-action=menu]")).to_be_visible()
    assert "settings" not in page.locator("[data-notice]").inner_text()


def test_each_link_parameter_out_of_range_is_named_and_the_rest_is_dealt(
    page: Page, server_url: str,
) -> None:
    open_page(page, server_url + "?seed=x&games=99&suit=Q&level=grandmaster&speed=-5")
    for said in ['A match cannot be "99" games long', 'There is no suit "Q"',
                 'There is no level "grandmaster"', 'The speed "-5"']:
        expect(page.locator("[data-notice]")).to_contain_text(said)
    expect(page.locator("[data-seed-info]")).to_have_text("Seed x")
    assert page.url == server_url  # the link is used once: a reload resumes its game


# -- the engine client ----------------------------------------------------------------------


def test_a_reply_whose_id_cannot_be_read_answers_the_oldest_request(page: Page,
                                                                     server_url: str) -> None:
    open_page(page, server_url + "?seed=client&level=random&speed=0")
    outcome = page.evaluate("""async () => {
        const { engine } = await import("./engine.js");
        const client = engine();
        const worker = client.worker;
        const post = worker.postMessage.bind(worker);
        // The request loses its id on the way: its refusal can only come back with none.
        worker.postMessage = (message) => post(message.replace('"id":', '"lost":'));
        const started = performance.now();
        const answer = await client.request("view").then(() => "answered", (e) => e.code);
        worker.postMessage = post;
        return { answer, ms: performance.now() - started, restarts: client.restarts };
    }""")
    assert outcome["answer"] == "bad_request" and outcome["restarts"] == 0, outcome
    assert outcome["ms"] < FAST, outcome
    assert engine_request(page, "view")["ok"]


def test_a_request_that_cannot_be_written_as_json_is_refused_at_once(page: Page,
                                                                       server_url: str) -> None:
    open_page(page, server_url + "?seed=client&level=random&speed=0")
    before = from_record(opened_record(engine_request(page, "record")["result"]["record"]))
    refused = page.evaluate("""async () => {
        const { engine } = await import("./engine.js");
        const cycle = {};
        cycle.self = cycle;
        return engine().request("play", { card: cycle }).then(() => null, (e) => [e.name, e.code]);
    }""")
    assert refused == ["EngineError", "bad_request"]
    assert from_record(opened_record(engine_request(page, "record")["result"]["record"])) == before


def test_a_game_saved_by_the_previous_version_is_resumed(page: Page, server_url: str) -> None:
    # Earlier versions kept one save, {app, schema, game}, under calypso.save.v1, and no tab
    # memory: after an update the game in play must come back.
    open_page(page, server_url + "?seed=old-version&level=random&speed=0")
    play_a_card(page)
    played = shown_plays(page)
    page.evaluate("""() => {
        const { app, schema, game } = JSON.parse(localStorage.getItem("calypso.save.v1"));
        localStorage.setItem("calypso.save.v1", JSON.stringify({ app, schema, game }));
        sessionStorage.clear();
    }""")
    reload(page)
    assert shown_plays(page) == played
    assert page.evaluate("Object.keys(localStorage).filter((k) => k.startsWith('calypso.save'))"
                         ) == ["calypso.save.v1"]
