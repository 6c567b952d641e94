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
