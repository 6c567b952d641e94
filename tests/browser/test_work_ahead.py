"""Work ahead in the page (web/ahead.js, docs/review.md#ready-when-the-game-ends): what the
engine reviewed and played ahead while the person thought is kept in the save, and after a
reload it is not done again.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from calypso_core.table.sealed import open_data

from .table import SETTLED, TIMEOUT_MS, engine_request, play_a_card
from .watching import booted_page, settled

pytestmark = pytest.mark.browser
CARDS = 4  # the person's cards played before the reload
# In each page load: the progress of every work reply, in order.
PROBE = """
window.__works = [];
const Native = window.Worker;
window.Worker = class extends Native {
  constructor(...args) {
    super(...args);
    const sent = new Set();
    const post = this.postMessage.bind(this);
    this.postMessage = (message, ...rest) => {
      const data = typeof message === "string" ? JSON.parse(message) : null;
      if (data?.type === "work") sent.add(data.id);
      return post(message, ...rest);
    };
    this.addEventListener("message", (event) => {
      if (typeof event.data !== "string") return;
      const reply = JSON.parse(event.data);
      if (sent.has(reply.id) && reply.ok) {
        window.__works.push({ review: reply.result.review, rerun: reply.result.rerun });
      }
    });
  }
};
"""


def kept(page: Page) -> dict[str, Any]:
    """The work kept ahead in the game's recipe, opened as the engine opens it."""
    record = engine_request(page, "record")["result"]
    return dict(open_data(record["ahead"], "ahead"))


def test_work_done_ahead_is_kept_across_a_reload_and_not_done_again(
        browser: Any, server_url: str) -> None:
    with booted_page(browser, server_url, "?seed=ahead-reload&level=random&speed=0",
                     TIMEOUT_MS) as (page, problems), \
            settled(page, problems, SETTLED, TIMEOUT_MS):
        page.context.add_init_script(PROBE)
        # Budgets that make a card's review take several work windows (of 120 ms while the
        # person thinks), and the master's rerun quick.
        page.evaluate("""() => localStorage.setItem("calypso.dev.v1",
            JSON.stringify({ review_budget: 3000, master_iterations: 20 }))""")
        for _ in range(CARDS):
            play_a_card(page)
        root = page.locator("html")
        # The person thinks: the engine reviews the cards played and plays the rerun ahead.
        expect(root).to_have_attribute("data-review-ahead", f"{CARDS}/{CARDS}",
                                       timeout=TIMEOUT_MS)
        expect(root).to_have_attribute("data-rerun-ahead", "208/208", timeout=TIMEOUT_MS)
        before = kept(page)
        assert len(before["reviews"]) == CARDS and len(before["rerun"]) == 208

        page.reload()
        page.wait_for_selector("html[data-engine-state=ready]", state="attached",
                               timeout=TIMEOUT_MS)
        page.wait_for_selector(SETTLED, timeout=TIMEOUT_MS)
        # The game is saved as it is loaded, with that work (it was once saved without it
        # until new work was done: a second reload then lost it).
        saved = page.evaluate("JSON.parse(localStorage.getItem('calypso.save.v1')).game.ahead")
        assert saved and open_data(saved, "ahead") == before
        page.wait_for_function("() => window.__works.length > 0", timeout=TIMEOUT_MS)
        first = page.evaluate("window.__works[0]")
        # The first work reply after the reload finds every card reviewed and the rerun over:
        # a card's review alone takes several windows, so none was done again.
        assert first["review"] == {"done": CARDS, "played": CARDS}
        assert first["rerun"] == {"done": 208, "total": 208}
        after = kept(page)
        assert after["reviews"] == before["reviews"]  # once each, the same reviews
        assert after["rerun"] == before["rerun"]
