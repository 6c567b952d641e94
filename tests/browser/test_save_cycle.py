"""The page's save/restore cycle, property-based, in the real page: random sequences of play,
undo, reload, new game, import, a second tab and a full storage, and after every step no card
played is lost without the person being told.

What "lost" means here, for every tab open: the game it shows is the one it has saved (in
localStorage, or kept in the tab while storage is full, with the banner saying so); a reload
brings back exactly the cards it showed; another tab's arrival or departure changes no
tab's game and leaves every game saved. Only the person's own choices (undo, a new game,
continuing an imported one) take cards away. A few sequences with a fixed seed, in one
browser, each in a fresh context (its own storage): about a minute.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st
from playwright.sync_api import Browser, Page, expect

from calypso_core import new_game, to_record

from .table import SETTLED, TIMEOUT_MS, open_page, play_a_card, saved_plays, shown_plays
from .test_saves import FILL_STORAGE, FREE_STORAGE, reload
from .watching import origin_of, watch

pytestmark = pytest.mark.browser

ACTIONS = ("play", "play", "play", "undo", "reload", "new_game", "import", "second_tab",
           "close_tab", "fill_storage", "free_storage")
steps_strategy = st.lists(st.tuples(st.sampled_from(ACTIONS), st.integers(0, 1)),
                          min_size=5, max_size=8)


def local_plays(page: Page) -> list[str] | None:
    """The cards of this tab's save in localStorage itself (not the tab's own copy)."""
    found: list[str] | None = page.evaluate("""() => {
        const tab = JSON.parse(sessionStorage.getItem("calypso.tab.v1") ?? "null");
        const key = tab?.id ? `calypso.save.v1.${tab.id}` : "calypso.save.v1";
        return JSON.parse(localStorage.getItem(key) ?? "null")?.game?.record?.plays ?? null;
    }""")
    return found


def all_saved(page: Page) -> list[list[str]]:
    """The cards of every save in localStorage."""
    found: list[list[str]] = page.evaluate("""() => Object.keys(localStorage)
        .filter((key) => key === "calypso.save.v1" || key.startsWith("calypso.save.v1."))
        .map((key) => JSON.parse(localStorage.getItem(key))?.game?.record?.plays ?? [])""")
    return found


def told_about_saving(page: Page) -> bool:
    return page.locator("[data-save-problem]").is_visible()


class Person:
    """One person's browser: tabs on the page, and what each showed last."""

    def __init__(self, browser: Browser, server_url: str, seed: int) -> None:
        self.context = browser.new_context(reduced_motion="reduce")
        self.url = server_url
        self.rng = random.Random(seed)
        self.seed = seed
        self.watched: list[list[str]] = []
        self.tabs: list[Page] = []
        self.shown: dict[Page, list[str]] = {}
        self.open_tab(f"?seed=cycle-{seed}&level=random&speed=0")

    def open_tab(self, query: str = "") -> Page:
        tab = self.context.new_page()
        self.watched.append(watch(tab, origin_of(self.url)))
        open_page(tab, self.url + query)
        self.tabs.append(tab)
        self.shown[tab] = shown_plays(tab)
        return tab

    def check(self, step: str) -> None:
        for tab in self.tabs:
            shown = shown_plays(tab)
            assert shown == self.shown[tab], f"after {step}: the tab's game changed by itself"
            assert saved_plays(tab) == shown, f"after {step}: the tab has not saved its game"
            assert local_plays(tab) == shown or told_about_saving(tab), (
                f"after {step}: the save failed and nobody was told")
        found = [p for seen in self.watched for p in seen]
        assert not found, f"after {step}: browser problems: {found}"

    def act(self, action: str, which: int) -> None:
        tab = self.tabs[which % len(self.tabs)]
        tab.wait_for_selector(SETTLED, timeout=TIMEOUT_MS)
        if action == "play":
            if tab.locator("[data-table]").get_attribute("data-state") == "over":
                self.deal(tab)
            else:
                play_a_card(tab)
        elif action == "undo":
            undo = tab.locator(".bar [data-action=undo]")
            if undo.is_visible() and undo.is_enabled():
                undo.click()
                tab.wait_for_selector(SETTLED, timeout=TIMEOUT_MS)
        elif action == "reload":
            reload(tab)
            assert shown_plays(tab) == self.shown[tab], "a reload lost cards"
        elif action == "new_game":
            self.deal(tab)
        elif action == "import":
            self.import_file(tab)
        elif action == "second_tab" and len(self.tabs) < 2:
            before = {t: shown_plays(t) for t in self.tabs}
            self.open_tab()
            assert {t: shown_plays(t) for t in before} == before, "a new tab changed a game"
            ids = [t.evaluate("JSON.parse(sessionStorage.getItem('calypso.tab.v1'))?.id ?? ''")
                   for t in self.tabs]
            assert len(set(ids)) == len(ids), f"two tabs play one save: {ids}"
        elif action == "close_tab" and len(self.tabs) > 1:
            closing = self.tabs.pop()
            shown, told = self.shown.pop(closing), told_about_saving(closing)
            closing.close()
            assert told or shown in all_saved(self.tabs[0]), "a closed tab's game is gone"
        elif action == "fill_storage":
            tab.evaluate(FILL_STORAGE)
        elif action == "free_storage":
            tab.evaluate(FREE_STORAGE)
        for t in self.tabs:
            self.shown[t] = shown_plays(t) if t is tab else self.shown[t]

    def deal(self, tab: Page) -> None:
        tab.locator(".bar [data-action=new_game]").click()
        dialog = tab.locator("[data-dialog=new_game]")
        dialog.get_by_label("Level", exact=True).select_option("random")
        dialog.get_by_label("Speed").select_option("instant")
        dialog.get_by_label("Seed").fill(f"cycle-{self.seed}-{self.rng.randrange(1000)}")
        dialog.get_by_role("button", name="Deal").click()
        expect(dialog).to_be_hidden()
        tab.wait_for_selector(SETTLED, timeout=TIMEOUT_MS)

    def import_file(self, tab: Page) -> None:
        state = new_game(f"file-{self.rng.randrange(1000)}")
        for _ in range(self.rng.choice([8, 208])):
            state.play(self.rng.choice(state.legal_moves()))
        tab.locator("[data-import-file]").set_input_files({
            "name": "game.json", "mimeType": "application/json",
            "buffer": json.dumps(to_record(state)).encode()})
        if state.is_over:  # a finished game opens in its replay: looked at, nothing changed
            replay = tab.locator("[data-dialog=replay]")
            expect(replay).to_be_visible()
            replay.get_by_role("button", name="Close").click()
            expect(replay).to_be_hidden()
        else:  # a game in play goes on at the table
            expect(tab.locator("[data-notice]")).to_contain_text("goes on from where it was saved")
        tab.wait_for_selector(SETTLED, timeout=TIMEOUT_MS)

    def close(self) -> None:
        self.context.close()


# Every action at least once, whatever the generated sequences happen to hold.
EVERY_ACTION = [("play", 0), ("second_tab", 0), ("play", 1), ("fill_storage", 0), ("play", 0),
                ("reload", 0), ("close_tab", 1), ("free_storage", 0), ("import", 0),
                ("undo", 0), ("new_game", 0), ("reload", 0)]


@settings(max_examples=5, derandomize=True, deadline=None, database=None,
          phases=[Phase.explicit, Phase.generate], suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=steps_strategy)
@example(seed=1, steps=EVERY_ACTION)
def test_no_played_card_is_lost_without_the_person_being_told(
    browser: Browser, server_url: str, seed: int, steps: list[tuple[str, int]],
) -> None:
    person = Person(browser, server_url, seed)
    try:
        person.check("opening the page")
        for number, (action, which) in enumerate(steps):
            person.act(action, which)
            person.check(f"step {number} ({action}) of {steps}")
    finally:
        person.close()
