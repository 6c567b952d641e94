"""Playing Calypso in the page: the table, the person's moves, a whole game, and the engine in
Pyodide agreeing with CPython.

Most tests share one booted page (booting Pyodide takes seconds); each deals its own game
through the New game dialog and fails on any console error or off-origin request in its
own stretch. Waits are on visible state (``data-state`` on the table), never on time.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from calypso_core import from_record
from calypso_core import table as protocol
from calypso_core.table.sealed import opened_record

from .table import PLAYABLE, engine_request, hand, play_a_card, plays, settle
from .watching import page_for_the_module

pytestmark = pytest.mark.browser

CARD_NAME = re.compile(
    r"^(Ace|King|Queen|Jack|Ten|Nine|Eight|Seven|Six|Five|Four|Three|Two) of "
    r"(spades|hearts|diamonds|clubs)$"
)
Boot = Callable[[Page, str], str]

# One page booted once for this module, opened on a given deal by URL; ``table`` is that page
# settled, and fails its test on any problem that arises during it.
shared, table = page_for_the_module("?seed=boot-101&level=random&speed=0",
                                    viewport={"width": 1280, "height": 900})


def deal(page: Page, seed: str, *, games: int = 1, suit: str = "random",
         rules: tuple[str, ...] = ()) -> None:
    """Start a game through the New game dialog, with random bots at instant speed."""
    page.get_by_role("button", name="New game").click()
    dialog = page.locator("[data-dialog=new_game]")
    expect(dialog).to_be_visible()
    dialog.get_by_label("Level", exact=True).select_option("random")
    dialog.get_by_label("Match length").select_option(str(games))
    dialog.get_by_label("Your suit").select_option(suit)
    dialog.get_by_label("Speed").select_option("instant")
    for box in dialog.locator("[data-rule]").all():
        box.set_checked(box.get_attribute("data-rule") in rules)
    dialog.get_by_label("Seed").fill(seed)
    dialog.get_by_role("button", name="Deal").click()
    expect(page.locator("[data-seed-info]")).to_have_text(f"Seed {seed}")
    settle(page)


# -- the table ------------------------------------------------------------------------------


def test_the_page_boots_to_a_playable_table(table: Page) -> None:
    page = table
    assert page.locator("[data-table]").get_attribute("data-state") == "ready"
    expect(page.locator("[data-boot]")).to_be_hidden()
    expect(page.locator("[data-seed-info]")).to_have_text("Seed boot-101")
    # Four seats, each with its suit, cards left, a 13-slot calypso, pile and score.
    for seat in range(4):
        panel = page.locator(f"[data-seat='{seat}']")
        expect(panel.locator(".suit-badge")).to_be_visible()
        expect(panel.locator(".calypso-slot")).to_have_count(13)
        expect(panel.locator("[data-pile]")).to_be_visible()
        expect(panel.locator("[data-score]")).to_be_visible()
    expect(page.locator("[data-dealer-marker]")).to_have_count(1)
    expect(page.locator("[data-seat='2'] [data-turn-marker]")).to_be_visible()
    expect(page.locator("[data-stock-size]")).to_have_attribute("data-stock-size", "156")
    # The hand: real buttons named like "Queen of hearts" (by their text, which assistive
    # technology reads; the corners' "Q♥" is for the eye); the playable ones enabled.
    cards = page.locator("[data-hand] [data-card]")
    count = cards.count()
    assert 10 <= count <= 13
    for card in cards.all():
        expect(card).to_have_accessible_name(CARD_NAME)
    playable = page.locator(PLAYABLE)
    assert playable.count() >= 1
    for button in playable.all():
        expect(button).to_be_enabled()
    for button in page.locator("[data-hand] [data-card]:not([data-playable])").all():
        expect(button).to_be_disabled()
    expect(page.locator("[data-status]")).to_contain_text("Your turn")


def test_the_table_fits_a_phone_screen(table: Page) -> None:
    page = table
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        expect(page.locator(PLAYABLE).first).to_be_visible()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width}px wide on a 390px screen"
        expect(page.locator(PLAYABLE).first).to_be_in_viewport()
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})


def test_an_unplayable_card_cannot_be_played(table: Page) -> None:
    page = table
    deal(page, "unplayable-1")
    disabled = page.locator("[data-hand] [data-card]:disabled")
    for _ in range(60):  # play on until South must follow suit and holds other suits too
        if disabled.count() and settle(page) == "ready":
            break
        play_a_card(page)
    else:
        pytest.fail("South never had a card it could not play")
    button = disabled.first
    card = button.get_attribute("data-card") or ""
    expect(button).to_be_disabled()
    held = page.locator(f"[data-hand] [data-card='{card}']").count()
    before = plays(page)
    button.click(force=True)  # a disabled button gets no click at all
    button.evaluate("b => b.click()")
    refused = engine_request(page, "play", {"card": card})
    assert refused["ok"] is False and refused["code"] == "illegal_move", refused
    assert plays(page) == before
    assert page.locator(f"[data-hand] [data-card='{card}']").count() == held
    # The table still works: the next card played is a playable one, not the refused one.
    played = play_a_card(page)
    record = engine_request(page, "record")["result"]["record"]
    assert record["plays"][before] == played != card


def test_a_trick_can_be_played_with_the_keyboard_alone(table: Page) -> None:
    page = table
    deal(page, "keys-1")
    hand_card = "document.activeElement?.matches('[data-hand] [data-card]')"
    for _ in range(12):
        if page.evaluate(hand_card):
            break
        page.keyboard.press("Tab")
    assert page.evaluate(hand_card), "Tab never reached the hand"
    for _ in range(2):  # two tricks in a row: focus comes back to the hand each time
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowLeft")
        card = page.evaluate("document.activeElement.dataset.card")
        assert page.evaluate("document.activeElement.hasAttribute('data-playable')")
        before = plays(page)
        page.keyboard.press("Enter")
        expect(page.locator("[data-table]")).not_to_have_attribute("data-plays", str(before))
        assert settle(page) == "ready"
        record = engine_request(page, "record")["result"]["record"]
        assert record["plays"][before] == card
        page.wait_for_function(hand_card)
    expect(page.locator("[data-trick-caption]")).to_have_text(
        re.compile(r"^(Last trick: )?(North|East|South|West)\b.*\.$"))


def test_a_hint_marks_a_playable_card_and_says_why(table: Page) -> None:
    page = table
    deal(page, "hint-1")
    hint = page.get_by_role("button", name="Hint")
    hint.click()
    marked = page.locator("[data-hand] [data-card][data-hint]")
    expect(marked).to_have_count(1)
    expect(marked).to_be_enabled()
    expect(page.locator("[data-notice]")).to_contain_text("Hint (")
    play_a_card(page)
    expect(marked).to_have_count(0)


def test_a_whole_game_reaches_a_score_sheet_that_adds_up(table: Page) -> None:
    page = table
    deal(page, "full-1", rules=("all_fours",))
    for _ in range(60):
        if settle(page) == "over":
            break
        play_a_card(page)
    assert settle(page) == "over"
    sheet = page.locator("[data-dialog=score_sheet]")
    expect(sheet).to_be_visible()

    def number(cell: Any, attribute: str = "data-points") -> int:
        return int(cell.get_attribute(attribute))

    totals = {}
    for seat in range(4):
        row = sheet.locator(f"[data-score-seat='{seat}']")
        parts = [number(row.locator(f"[data-col={col}]"))
                 for col in ("calypsos", "in-progress", "pile")]
        totals[seat] = number(row.locator("[data-col=total]"), "data-total")
        assert sum(parts) == totals[seat]
    sides = [number(sheet.locator(f"[data-score-side='{side}'] [data-col=total]"), "data-total")
             for side in (0, 1)]
    assert sides == [totals[0] + totals[2], totals[1] + totals[3]]
    # The same record replayed by the engine in CPython gives the same scores.
    saved = engine_request(page, "record")["result"]
    state = from_record(saved["record"])
    assert state.is_over and state.rules.all_fours
    assert [totals[s] for s in range(4)] == list(state.scores())
    assert sides == list(state.partnership_scores())
    verdict = sheet.locator("[data-verdict]")
    expect(verdict).to_have_attribute("data-verdict", str(state.winner() if state.winner()
                                                           is not None else "draw"))
    expect(sheet.get_by_role("button", name="New match")).to_be_visible()
    sheet.get_by_role("button", name="Close").click()
    expect(sheet).to_be_hidden()


def test_a_match_goes_on_to_the_next_game(table: Page) -> None:
    page = table
    # The master in your seat replays the first game meanwhile; a small budget keeps the
    # card it works on when "Next game" is pressed (which waits for it) short on a busy machine.
    page.evaluate("""() => localStorage.setItem("calypso.dev.v1",
        JSON.stringify({ master_iterations: 3 }))""")
    deal(page, "match-1", games=2, suit="C")
    while settle(page) != "over":
        play_a_card(page)
    first = from_record(engine_request(page, "record")["result"]["record"])
    sheet = page.locator("[data-dialog=score_sheet]")
    sheet.get_by_role("button", name="Next game").click()
    expect(page.locator("[data-table]")).to_have_attribute("data-game", "2")
    settle(page)
    expect(page.locator("[data-seat='2'] .suit-badge")).to_contain_text("clubs")
    saved = engine_request(page, "record")["result"]
    second = from_record(opened_record(saved["record"]))  # sealed while in play
    assert second.first_dealer == first.dealer and second.suits == first.suits
    assert len(saved["history"]) == 1
    expect(page.locator("[data-match-totals]")).to_be_visible()
    page.evaluate("() => localStorage.removeItem('calypso.dev.v1')")


def test_the_same_record_gives_the_same_results_in_cpython_and_pyodide(table: Page) -> None:
    page = table
    deal(page, "same-1", rules=("lead_trump_must_be_beaten", "last_trump_in_wins"))
    for _ in range(7):
        play_a_card(page)
    saved = engine_request(page, "record")["result"]
    # Replay the record from its start and play it out the same way in both runtimes:
    # the person always plays the first playable card; random bots use seeded generators.
    # Without the work the page kept ahead ("ahead"), which CPython, loading it, would keep too.
    start = {**{k: v for k, v in saved.items() if k != "ahead"},
             "record": {**saved["record"], "plays": saved["record"]["plays"][:9]}}
    in_pyodide = page.evaluate(
        """async (saved) => {
            const { engine } = await import("./engine.js");
            const client = engine();
            const views = [await client.request("load", saved)];
            let view = views[0];
            while (view.status !== "game_over") {
                view = view.status === "your_turn"
                    ? await client.request("play", { card: view.legal[0] })
                    : await client.request("step");
                if (view.event?.trick_over) views.push(view);
            }
            return { views, record: await client.request("record") };
        }""",
        start,
    )
    protocol.reset()
    views = [call_cpython("load", **start)]
    view = views[0]
    while view["status"] != "game_over":
        if view["status"] == "your_turn":
            view = call_cpython("play", card=view["legal"][0])
        else:
            view = call_cpython("step")
        if view["event"] and view["event"]["trick_over"]:
            views.append(view)
    record = call_cpython("record")
    protocol.reset()
    assert len(views) == len(in_pyodide["views"]) == 13 * 4 - 2 + 1
    for mine, theirs in zip(views, in_pyodide["views"], strict=True):
        assert without_timing(mine) == without_timing(theirs)
    # The page's worker also keeps work done ahead beside the recipe ("ahead": the review it
    # ran meanwhile); CPython ran none. The game itself must be the same.
    assert record == {k: v for k, v in in_pyodide["record"].items() if k != "ahead"}
    state = from_record(record["record"])
    assert views[-1]["scores"] == list(state.partnership_scores())
    # Put the page's game back as it was, so the page and its engine agree again.
    assert engine_request(page, "load", saved)["ok"]


def call_cpython(kind: str, **payload: Any) -> Any:
    reply = json.loads(protocol.handle(json.dumps({"id": 1, "type": kind, **payload})))
    assert reply["ok"], reply
    return reply["result"]


def without_timing(view: dict[str, Any]) -> dict[str, Any]:
    """A view as the page gets it (the client keeps the recipe), the think time left out."""
    view = {key: value for key, value in view.items() if key != "recipe"}
    event = view.get("event")
    if event:
        view = {**view, "event": {**event, "think_ms": None}}
    return view


# -- loading and saving ---------------------------------------------------------------------


def test_a_game_in_play_is_restored_after_a_reload(page: Page, server_url: str,
                                                    boot: Boot) -> None:
    assert boot(page, server_url + "?seed=resume-1&level=random&speed=0") == "ready"
    settle(page)
    play_a_card(page)
    play_a_card(page)
    held = hand(page)
    count = plays(page)
    assert boot(page, server_url) == "ready"
    settle(page)
    expect(page.locator("[data-seed-info]")).to_have_text("Seed resume-1")
    assert plays(page) == count
    assert hand(page) == held
    # A save that no longer loads is reported, set aside, and a new game is dealt.
    page.evaluate("""() => {
        const save = JSON.parse(localStorage.getItem("calypso.save.v1"));
        save.game.record.plays = ["XX"];
        localStorage.setItem("calypso.save.v1", JSON.stringify(save));
    }""")
    assert boot(page, server_url) == "ready"
    settle(page)
    expect(page.locator("[data-notice]")).to_contain_text("could not be restored")
    expect(page.locator("[data-notice]")).to_contain_text("set aside")
    assert page.evaluate("localStorage.getItem('calypso.save.unreadable')") is not None
    assert page.locator("[data-hand] [data-card]").count() >= 10


def test_an_unknown_level_in_the_url_is_reported_and_a_game_is_dealt(
    page: Page, server_url: str, boot: Boot
) -> None:
    assert boot(page, server_url + "?level=grandmaster&speed=0") == "ready"
    settle(page)
    expect(page.locator("[data-notice]")).to_contain_text('There is no level "grandmaster"')
    expect(page.locator(PLAYABLE).first).to_be_enabled()


def test_a_computer_move_costs_one_round_trip(table: Page) -> None:
    # The page keeps the save recipe from the replies (their declared effects): each move is
    # one request (it used to be two, and a third after every turn, and one more a game).
    page = table
    page.evaluate("""async () => {
        const { engine } = await import("./engine.js");
        const client = engine();
        window.__sent = [];
        const worker = client.worker;
        const post = worker.postMessage.bind(worker);
        worker.postMessage = (message) => {
            if (typeof message === "string") window.__sent.push(JSON.parse(message).type);
            return post(message);
        };
    }""")
    deal(page, "trips-1")
    for _ in range(60):
        if settle(page) == "over":
            break
        play_a_card(page)
    sent = page.evaluate("window.__sent")
    assert sent.count("new_game") == 1 and sent.count("record") == 0, sent[:5]
    assert sent.count("step") + sent.count("play") == 208
    # Work ahead (web/ahead.js) and, after the game, the master in the person's seat
    # (web/rerun.js) are jobs of their own, not the game's.
    game = [kind for kind in sent if kind not in ("rerun", "rerun_next", "work")]
    assert len(game) == 209, sorted(set(game))
    # The work kept ahead may change between the two reads below: the game's recipe may not.
    saved = engine_request(page, "record")["result"]
    kept = page.evaluate("""async () => (await import("./engine.js")).engine().game""")
    assert {key: kept[key] for key in ("record", "settings", "history")} \
        == {key: saved[key] for key in ("record", "settings", "history")}
