"""Reading and playing the table the way a person does, for the browser tests."""

from __future__ import annotations

import json
import random
from typing import Any

from playwright.sync_api import Page, expect

from calypso_core import GameState, new_game, to_record

TIMEOUT_MS = 90_000
# The page waits for the person: their turn, the game over, or a deal's end ("Next deal").
SETTLED = ("[data-table][data-state=ready], [data-table][data-state=over], "
           "[data-table][data-state=next_deal]")
# With two people at the table, it also settles between their turns to be handed over.
SETTLED_OR_HANDOFF = f"{SETTLED}, [data-table][data-state=handoff]"
PLAYABLE = "[data-hand] [data-card][data-playable]"
NEXT_DEAL = "[data-deal-summary] [data-action=next_deal]"


def plays(page: Page) -> int:
    """How many cards have been played in the game on the table."""
    return int(page.locator("[data-table]").get_attribute("data-plays") or "0")


def settle(page: Page) -> str:
    """Wait until the table has settled; its state then: ready, over, handoff or next_deal
    (a deal is over: the page waits for "Next deal")."""
    # One read in the page: the state seen settled is the state returned (a second read could
    # find the table already busy with what the person has just pressed).
    state = page.wait_for_function(
        """selector => document.querySelector(selector)
            ?.closest("[data-table]")?.dataset.state ?? false""",
        arg=SETTLED_OR_HANDOFF, timeout=TIMEOUT_MS)
    return str(state.json_value())


def next_deal(page: Page) -> str:
    """Press "Next deal" when a deal's end waits for it; the table's state once settled."""
    while (state := settle(page)) == "next_deal":
        page.locator(NEXT_DEAL).click()
        expect(page.locator("[data-table]")).not_to_have_attribute("data-state", "next_deal")
    return state


def play_a_card(page: Page) -> str:
    """Play the first playable card of the hand (going on to the next deal first when a
    deal's end waits) and wait until the table has settled again; the card played."""
    next_deal(page)
    before = plays(page)
    button = page.locator(PLAYABLE).first
    card = button.get_attribute("data-card") or ""
    button.click()
    expect(page.locator("[data-table]")).not_to_have_attribute("data-plays", str(before),
                                                               timeout=TIMEOUT_MS)
    settle(page)
    return card


def engine_request(page: Page, kind: str, payload: dict[str, Any] | None = None) -> Any:
    """Send a request through the page's own engine client (the worker the page uses):
    ``{ok: true, result}``, or ``{ok: false, code, message}``."""
    return page.evaluate(
        """async ([kind, payload]) => {
            const { engine } = await import("./engine.js");
            return engine().request(kind, payload).then(
                (result) => ({ ok: true, result }),
                (error) => ({ ok: false, code: error.code, message: error.message }));
        }""",
        [kind, payload or {}],
    )


def open_menu_item(page: Page, name: str) -> None:
    """Choose an item of the Menu, by its name."""
    page.get_by_role("button", name="Menu").click()
    page.locator("[data-dialog=menu]").get_by_role("button", name=name).click()


def random_game(seed: str, rng: random.Random, cards: int = 208) -> GameState:
    """A game dealt from ``seed`` with random legal cards played, ``cards`` of them (all by
    default, to its end)."""
    state = new_game(seed)
    while not state.is_over and len(state.plays) < cards:
        state.play(rng.choice(state.legal_moves()))
    return state


def open_game_file(page: Page, state: GameState, name: str) -> None:
    """Pick the game as a file named ``name`` in the page's file input, as a person does."""
    page.locator("[data-import-file]").set_input_files({
        "name": name, "mimeType": "application/json",
        "buffer": json.dumps(to_record(state)).encode()})


def hand(page: Page) -> list[str]:
    """The person's cards, as shown, in order."""
    return list(page.locator("[data-hand] [data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)"))


def open_page(page: Page, url: str) -> None:
    """Go to ``url`` and wait until the engine is ready and the table has settled."""
    page.goto(url)
    page.wait_for_selector("html[data-engine-state=ready]", state="attached", timeout=TIMEOUT_MS)
    page.wait_for_selector(SETTLED, timeout=TIMEOUT_MS)


def shown_plays(page: Page) -> list[str]:
    """The cards played in the game the page's engine holds (its game record)."""
    return list(page.evaluate("""async () => {
        const { engine } = await import("./engine.js");
        return (await engine().request("record")).record.plays;
    }"""))


def saved_plays(page: Page) -> list[str] | None:
    """The cards played in the game this tab has saved (web/saves.js): its own save in
    localStorage (the first save's key if the tab names none), or the copy kept in the tab
    while storage is full; None if there is none."""
    plays_: list[str] | None = page.evaluate("""() => {
        const tab = JSON.parse(sessionStorage.getItem("calypso.tab.v1") ?? "null");
        const key = tab?.id ? `calypso.save.v1.${tab.id}` : "calypso.save.v1";
        const save = tab?.pending ?? JSON.parse(localStorage.getItem(key) ?? "null");
        return save?.game?.record?.plays ?? null;
    }""")
    return plays_
