"""The table's features around play, in the page: hint, undo, last trick, the log and memory
aids, saved games and their failures, game files, replay, statistics, settings, the rules,
the walkthrough and the cut.

The tests share one booted page and run in order; the last ones reload it (each reload
boots Pyodide again, so they are few). Waits are on visible state, never on time.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from calypso_core import Card, from_record, to_record
from calypso_core.table.sealed import opened_record

from .table import (
    PLAYABLE,
    engine_request,
    hand,
    next_deal,
    open_game_file,
    open_menu_item,
    open_page,
    play_a_card,
    plays,
    random_game,
    settle,
)
from .test_game import deal
from .watching import page_for_the_module

pytestmark = pytest.mark.browser
SOUTH = 2


shared, table = page_for_the_module("?seed=features-1&level=random&speed=0",
                                    viewport={"width": 1400, "height": 950},
                                    accept_downloads=True)


def record(page: Page) -> dict[str, Any]:
    """The game's recipe, without the work done ahead, which goes on by itself while a
    person thinks (web/ahead.js) and is no part of the game."""
    return {k: v for k, v in engine_request(page, "record")["result"].items() if k != "ahead"}


# -- at the table ---------------------------------------------------------------------------


def test_the_h_key_shows_a_legal_hint_with_a_reason_and_never_plays_it(table: Page) -> None:
    page = table
    deal(page, "f-hint")
    before = plays(page)
    page.keyboard.press("h")
    marked = page.locator("[data-hand] [data-card][data-hint]")
    expect(marked).to_have_count(1)
    expect(marked).to_have_attribute("data-playable", "true")
    notice = page.locator("[data-notice]")
    expect(notice).to_contain_text("Hint (")
    assert len(notice.inner_text()) > len("Hint (Q♥): ") + 10  # a reason in words
    assert plays(page) == before


def test_undo_restores_the_exact_position_and_the_same_card_brings_the_same_replies(
    table: Page,
) -> None:
    page = table
    deal(page, "f-undo")
    undo = page.locator(".bar [data-action=undo]")
    expect(undo).to_be_disabled()  # nothing played yet
    play_a_card(page)
    play_a_card(page)
    before, before_hand = record(page), hand(page)
    before_log = page.locator("[data-log]").inner_text()
    card = play_a_card(page)
    after = record(page)
    assert len(after["record"]["plays"]) > len(before["record"]["plays"])
    page.keyboard.press("u")
    expect(page.locator("[data-table]")).to_have_attribute(
        "data-plays", str(len(before["record"]["plays"])))
    settle(page)
    assert record(page) == before
    assert hand(page) == before_hand
    assert page.locator("[data-log]").inner_text() == before_log
    # The computer players depend only on the position: the same card, the same game.
    page.locator(f"{PLAYABLE}[data-card='{card}']").first.click()
    settle(page)
    assert record(page) == after
    # Undo goes back further, card by card, to the start of the game.
    for _ in range(3):
        undo.click()
        settle(page)
    assert record(page)["record"]["plays"] == after["record"]["plays"][:plays(page)]
    expect(undo).to_be_disabled()


def set_settings(page: Page, speed: str | None = None, forced: bool | None = None) -> None:
    """Change the animation speed and the forced-card setting in the Settings dialog."""
    open_menu_item(page, "Settings")
    form = page.locator("[data-dialog=settings]")
    if speed is not None:
        form.get_by_label("Speed of play").select_option(speed)
    if forced is not None:
        form.get_by_label("Play a forced card by itself").set_checked(forced)
    form.get_by_role("button", name="Done").click()


def cards_of(page: Page, selector: str) -> list[str]:
    return list(page.locator(f"[data-hand] {selector}").evaluate_all(
        "els => els.map(e => e.dataset.card)"))


def test_a_card_chosen_while_the_computers_play_is_played_on_the_turn_or_dropped_saying_why(
    table: Page,
) -> None:
    page = table
    deal(page, "f-ahead")
    # Find a card after which South must follow suit holding cards it may not play.
    for _ in range(40):
        first = cards_of(page, "[data-card][data-playable]")[0]
        play_a_card(page)
        legal, refused = cards_of(page, "[data-playable]"), cards_of(page, "[data-card]:disabled")
        if legal and refused and settle(page) == "ready":
            break
    else:
        pytest.fail("South never had to follow suit with other cards in hand")
    turn = plays(page)
    page.keyboard.press("u")  # back to before the card, to play it again choosing ahead
    settle(page)
    before = plays(page)
    ahead = page.locator(f"[data-hand] [data-card='{legal[-1]}']").first
    set_settings(page, speed="slow")
    try:
        page.locator(f"{PLAYABLE}[data-card='{first}']").first.click()
        # While the computers play: a click chooses, a second one or Escape takes it back.
        ahead.click()
        expect(ahead).to_have_attribute("aria-pressed", "true")
        expect(page.locator("[data-hand-title]")).to_contain_text("chosen")
        expect(page.locator("[data-status]")).to_contain_text("chosen")
        assert plays(page) < turn
        ahead.click()
        expect(ahead).to_have_attribute("aria-pressed", "false")
        ahead.click()
        expect(ahead).to_have_attribute("aria-pressed", "true")
        page.keyboard.press("Escape")
        expect(ahead).to_have_attribute("aria-pressed", "false")
        ahead.click()
        expect(ahead).to_have_attribute("aria-pressed", "true")
        # On the turn, a legal card is played at once.
        settle(page)
        assert record(page)["record"]["plays"][turn] == legal[-1]
        # A card the engine does not list is dropped, saying why.
        for _ in range(2):
            page.keyboard.press("u")
            settle(page)
        assert plays(page) == before
        page.locator(f"{PLAYABLE}[data-card='{first}']").first.click()
        page.locator(f"[data-hand] [data-card='{refused[0]}']").first.click()
        expect(page.locator("[data-hand] [data-chosen]")).to_have_count(1)
        assert settle(page) == "ready" and plays(page) == turn
        expect(page.locator("[data-notice]")).to_contain_text(
            f"The {Card.parse(refused[0]).pretty} you chose cannot be played to this trick")
        expect(page.locator("[data-hand] [data-chosen]")).to_have_count(0)
        play_a_card(page)
        expect(page.locator("[data-notice]")).to_be_hidden()
    finally:
        set_settings(page, speed="instant")


def test_forced_cards_play_themselves_at_a_deals_last_trick_and_when_the_setting_says(
    table: Page,
) -> None:
    page = table
    deal(page, "f-forced")
    info = page.locator("[data-info]")
    one_legal = 0  # South's turns with one legal card and more in hand: off by default
    while info.get_attribute("data-deal-number") == "1":
        assert settle(page) == "ready"
        held, legal = len(cards_of(page, "[data-card]")), cards_of(page, "[data-playable]")
        assert held > 1, "the last card of a deal waited for a click"
        one_legal += len(legal) == 1
        play_a_card(page)
    assert one_legal, "no forced card in the first deal: choose another seed"
    set_settings(page, forced=True)
    try:
        for _ in range(13):
            next_deal(page)  # at deal 1's end, the table waits for Next deal
            assert len(cards_of(page, "[data-playable]")) > 1, "a forced card waited"
            play_a_card(page)
        # The record shows more forced cards than the first deal had: the page played them.
        played = opened_record(record(page)["record"])
        replay = from_record({**played, "plays": []})
        forced = 0
        for card in played["plays"]:
            forced += (replay.to_move == SOUTH and replay.hand_size(SOUTH) > 1
                       and len(replay.legal_moves()) == 1)
            replay.play(card)
        assert forced > one_legal
    finally:
        set_settings(page, forced=False)


def test_the_last_trick_and_the_log_match_what_was_played(table: Page) -> None:
    page = table
    deal(page, "f-last")
    for _ in range(3):
        play_a_card(page)
    state = from_record(opened_record(record(page)["record"]))
    last = state.tricks[-1]
    page.keyboard.press("l")
    dialog = page.locator("[data-dialog=last_trick]")
    expect(dialog).to_be_visible()
    shown = dialog.locator(".compass [data-card]")
    expect(shown).to_have_count(4)
    cards = {int(s.get_attribute("data-seat") or "-1"):
             s.locator("[data-card]").get_attribute("data-card")
             for s in dialog.locator(".compass-slot").all()}
    assert cards == {(last.leader + i) % 4: str(c) for i, c in enumerate(last.cards)}
    expect(dialog.locator(f".compass-slot[data-seat='{last.winner}']")).to_have_attribute(
        "data-winner", "true")
    expect(dialog.locator("[data-last-trick-reason]")).not_to_be_empty()
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_be_hidden()
    # The log: every completed trick of the deal, with its winner and why.
    items = page.locator("[data-log] [data-log-trick]")
    done = [t for t in state.tricks if t.deal == state.deal]
    expect(page.locator("[data-log] [data-log-trick] .log-why")).to_have_count(len(done))
    for item, trick in zip(items.all(), done, strict=False):
        assert item.get_attribute("data-winner") == str(trick.winner)
        assert item.locator(".pip-card").evaluate_all(
            "els => els.map(e => e.textContent)") == [
            f"{'10' if c.rank == 8 else str(c)[0]}{c.pretty[-1]}" for c in trick.cards]
    # The memory aids agree with the cards seen.
    unseen = page.locator("[data-aids] [data-unseen-suit]")
    expect(unseen).to_have_count(4)
    hidden = sum(state.hand_size(s) for s in range(4) if s != SOUTH) + state.stock_size
    total = sum(int(t) for t in page.locator("[data-aids] .aid-suit-name small").evaluate_all(
        "els => els.map(e => e.textContent)"))
    assert total == hidden


def test_the_rules_show_the_worked_examples_as_cards(table: Page) -> None:
    page = table
    open_menu_item(page, "Rules")
    rules = page.locator("[data-dialog=rules]")
    expect(rules).to_be_visible()
    # The text above the examples is docs/rules.md's "game in brief", rendered by build.py.
    expect(rules.get_by_role("heading", name="Who takes a trick")).to_be_visible()
    expect(rules.locator("[data-rules-from]:not([hidden]) ol li")).to_have_count(3)
    examples = rules.locator("[data-example]")
    expect(examples).to_have_count(8)
    winners = [ex.locator(".example-card[data-winner]").count() for ex in examples.all()]
    assert winners == [1] * 8
    expect(examples.nth(1)).to_contain_text("a trump-in beats a trump lead")
    page.keyboard.press("Escape")
    expect(rules).to_be_hidden()


def test_the_walkthrough_points_at_each_part_and_can_be_skipped(table: Page) -> None:
    page = table
    open_menu_item(page, "Walkthrough")
    tour = page.locator("[data-tour]")
    expect(tour).to_be_visible()
    expect(tour).to_be_focused()
    expect(page.locator("[data-hand][data-tour-target]")).to_have_count(1)
    tour.get_by_role("button", name="Next").click()
    expect(page.locator("[data-trick][data-tour-target]")).to_have_count(1)
    expect(tour).to_contain_text("if nobody trumps in, a trump lead wins")
    tour.get_by_role("button", name="Skip").click()
    expect(tour).to_be_hidden()
    expect(page.locator("[data-tour-target]")).to_have_count(0)


def test_the_cut_is_shown_and_agrees_with_the_first_dealer(table: Page) -> None:
    page = table
    open_menu_item(page, "Show the cut")
    banner = page.locator("[data-cut-banner]")
    expect(banner).to_be_visible()
    expect(banner.locator("[data-card]")).to_have_count(4)
    state = from_record(opened_record(record(page)["record"]))
    dealer = ["North", "East", "South", "West"][state.first_dealer]
    expect(banner.locator("[data-cut-text]")).to_contain_text(f"{dealer} deals first")
    banner.get_by_role("button", name="Play").click()
    expect(banner).to_be_hidden()


# -- files, replay and statistics -----------------------------------------------------------


def test_a_bad_game_file_is_refused_with_a_message_and_changes_nothing(table: Page) -> None:
    page = table
    before = record(page)
    files = page.locator("[data-import-file]")
    for name, content in [("nested.json", b"[" * 3000 + b"]" * 3000),
                          ("other.json", b'{"format": "another-game", "version": 1}'),
                          ("big.json", b" " * 70_000),
                          ("noise.json", b"\xff\xfe\x00" + bytes(range(256)) * 4)]:
        files.set_input_files({"name": name, "mimeType": "application/json", "buffer": content})
        notice = page.locator("[data-notice]")
        expect(notice).to_contain_text(name)
        expect(notice).to_contain_text("Nothing was changed")
        assert record(page) == before
    expect(page.locator("dialog[open]")).to_have_count(0)


def test_a_game_file_round_trips_and_a_finished_one_replays_trick_by_trick(
    table: Page,
) -> None:
    page = table
    with page.expect_download() as download:
        open_menu_item(page, "Save game to a file")
    saved = json.loads(download.value.path().read_text(encoding="utf-8"))
    assert saved == record(page)["record"]
    state = random_game("f-replay", random.Random(1))
    open_game_file(page, state, "finished.json")
    dialog = page.locator("[data-dialog=replay]")
    expect(dialog).to_be_visible()
    expect(dialog.locator("[data-replay-at]")).to_have_attribute("data-replay-at", "52")
    dialog.get_by_role("button", name="Back to the start").click()
    expect(dialog.locator("[data-replay-at]")).to_have_attribute("data-replay-at", "0")
    hands = dialog.locator("[data-replay-seat] .replay-hand .pip-card")
    expect(hands).to_have_count(52)
    page.keyboard.press("ArrowRight")
    expect(dialog.locator("[data-replay-at]")).to_have_attribute("data-replay-at", "1")
    expect(hands).to_have_count(48)
    first = state.tricks[0]
    assert dialog.locator(".compass [data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)") != []
    expect(dialog.locator(f".compass-slot[data-seat='{first.winner}']")).to_have_attribute(
        "data-winner", "true")
    dialog.get_by_role("button", name="Close").click()
    assert saved == record(page)["record"]  # the game in play is untouched
    # The same file in UTF-32 with two byte-order marks, as a copy of a copy may be (the
    # browser reads no UTF-32 as text: the engine reads the bytes by their mark).
    page.locator("[data-import-file]").set_input_files({
        "name": "utf32.json", "mimeType": "application/json",
        "buffer": ("\ufeff\ufeff" + json.dumps(to_record(state))).encode("utf-32-le")})
    expect(dialog.locator("[data-replay-at]")).to_have_attribute("data-replay-at", "52")
    dialog.get_by_role("button", name="Close").click()


def test_statistics_count_a_finished_game_once(table: Page) -> None:
    page = table
    # An imported game four cards from its end, continued and finished in the page.
    open_game_file(page, random_game("f-stats", random.Random(2), 204), "nearly.json")
    expect(page.locator("[data-notice]")).to_contain_text("goes on from where it was saved")
    while settle(page) != "over":
        play_a_card(page)
    final = from_record(opened_record(record(page)["record"]))
    # The finished game replays from its first trick, every hand face up.
    sheet = page.locator("[data-dialog=score_sheet]")
    sheet.get_by_role("button", name="Replay this game").click()
    replay = page.locator("[data-dialog=replay]")
    expect(replay.locator("[data-replay-at]")).to_have_attribute("data-replay-at", "0")
    expect(replay.locator("[data-replay-seat] .replay-hand .pip-card")).to_have_count(52)
    replay.get_by_role("button", name="On to the end").click()
    expect(replay.locator("[data-replay-at]")).to_have_attribute("data-replay-at", "52")
    replay.get_by_role("button", name="Close").click()
    open_menu_item(page, "Statistics")
    stats = page.locator("[data-dialog=stats]")
    row = stats.locator("[data-stats-level]").first
    expect(row.locator("[data-stat=games]")).to_have_text("1")
    ours = final.partnership_scores()[0]
    expect(row.locator("[data-stat=best]")).to_have_text(f"{ours:,}")
    stats.get_by_role("button", name="Reset statistics").click()
    stats.get_by_role("button", name="Really reset").click()
    expect(stats.locator("[data-stats-empty]")).to_be_visible()
    stats.get_by_role("button", name="Close").click()


# -- settings and saves across reloads -----------------------------------------------------


def test_settings_persist_and_a_game_in_play_resumes_after_a_reload(
    table: Page, server_url: str,
) -> None:
    page = table
    deal(page, "f-reload")
    play_a_card(page)
    open_menu_item(page, "Settings")
    form = page.locator("[data-dialog=settings]")
    form.get_by_label("Card size").select_option("large")
    form.get_by_label("Suit colours").select_option("four")
    form.get_by_label("Table colour").select_option("blue")
    form.get_by_label("Sound effects").check()
    form.get_by_label("Cards not yet seen, by suit").uncheck()
    form.get_by_label("Allow undo").uncheck()
    undo = page.locator(".bar [data-action=undo]")
    expect(undo).to_be_hidden()
    form.get_by_label("Allow undo").check()
    expect(undo).to_be_visible()
    form.get_by_role("button", name="Done").click()
    html = page.locator("html")
    expect(html).to_have_attribute("data-card-size", "large")
    expect(page.locator("[data-aid=unseen]")).to_be_hidden()
    saved, before_hand = record(page), hand(page)
    before_aids = page.locator("[data-aids]").inner_text()
    open_page(page, server_url)
    # From the page's load, the keyboard reaches the hand in two keys: Tab to the skip
    # link (first of all, shown when focused), Enter to the hand; the menus stay after it.
    page.keyboard.press("Tab")
    skip = page.get_by_role("button", name="Skip to your hand")
    expect(skip).to_be_focused()
    expect(skip).to_be_in_viewport()
    page.keyboard.press("Tab")
    expect(page.locator(".bar-actions :focus")).to_have_count(1)
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Enter")
    expect(page.locator("[data-hand] [data-card]:focus")).to_have_count(1)
    assert record(page) == saved
    assert hand(page) == before_hand
    assert page.locator("[data-aids]").inner_text() == before_aids
    expect(html).to_have_attribute("data-card-size", "large")
    expect(html).to_have_attribute("data-colors", "four")
    expect(html).to_have_attribute("data-felt", "blue")
    open_menu_item(page, "Settings")
    expect(form.get_by_label("Sound effects")).to_be_checked()
    expect(form.get_by_label("Cards not yet seen, by suit")).not_to_be_checked()
    form.get_by_role("button", name="Done").click()


def test_a_corrupt_save_and_bad_settings_are_set_aside_with_a_message(
    table: Page, server_url: str,
) -> None:
    page = table
    prefs = page.evaluate("localStorage.getItem('calypso.prefs.v1')")
    page.evaluate("""() => {
        localStorage.setItem("calypso.save.v1", "{not json at all");
        localStorage.setItem("calypso.settings.v1", JSON.stringify({level: "random",
            levels: null, rules: {x: true}, games: 1, suit: "random", speed: "instant"}));
    }""")
    open_page(page, server_url)
    notice = page.locator("[data-notice]")
    expect(notice).to_contain_text("damaged")
    expect(notice).to_contain_text("set aside")
    expect(notice).to_contain_text("settings")
    expect(page.locator(PLAYABLE).first).to_be_enabled()
    assert page.evaluate("localStorage.getItem('calypso.save.unreadable')")
    assert page.evaluate("localStorage.getItem('calypso.settings.unreadable')")
    assert page.evaluate("localStorage.getItem('calypso.prefs.v1')") == prefs
    settings = json.loads(page.evaluate("localStorage.getItem('calypso.settings.v1')"))
    assert settings["rules"] == {} and settings["speed"] == "instant"
    # A save from another application: reported, set aside, the settings kept.
    page.evaluate("""() => localStorage.setItem("calypso.save.v1",
        JSON.stringify({app: "solitaire", schema: 1, game: {}}))""")
    kept = page.evaluate("localStorage.getItem('calypso.settings.v1')")
    open_page(page, server_url)
    expect(notice).to_contain_text("another application")
    assert page.evaluate("localStorage.getItem('calypso.settings.v1')") == kept
    assert json.loads(page.evaluate("localStorage.getItem('calypso.save.unreadable')"))[
        "app"] == "solitaire"
