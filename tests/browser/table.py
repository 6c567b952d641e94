"""Reading and playing the table the way a person does, for the browser tests."""

from __future__ import annotations

from playwright.sync_api import Page, expect

TIMEOUT_MS = 90_000
SETTLED = "[data-table][data-state=ready], [data-table][data-state=over]"
PLAYABLE = "[data-hand] [data-card][data-playable]"


def plays(page: Page) -> int:
    """How many cards have been played in the game on the table."""
    return int(page.locator("[data-table]").get_attribute("data-plays") or "0")


def play_a_card(page: Page) -> None:
    """Play the first playable card of the hand and wait until the table has settled."""
    page.wait_for_selector(SETTLED, timeout=TIMEOUT_MS)
    before = plays(page)
    page.locator(PLAYABLE).first.click()
    expect(page.locator("[data-table]")).not_to_have_attribute("data-plays", str(before),
                                                               timeout=TIMEOUT_MS)
    page.wait_for_selector(SETTLED, timeout=TIMEOUT_MS)


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
        const { engine } = await import("./engine-client.js");
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
