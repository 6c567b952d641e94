"""After the game, in the page: the review of a deal (progress, Cancel, Go on, Try again), the
whole game's review marked in the replay, the master in your seat and the charts on the score
sheet, the statistics' charts, and the Calypso of the day's link.

The tests share one booted page and run in order. The review and the master get small test
budgets (web/dev.js) so that they take seconds; waits are on visible state, never on time.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from calypso_core import from_record
from calypso_core.messages import message, render
from calypso_core.table.sealed import opened_record

from .pixels import edge_shades
from .table import (
    SETTLED,
    TIMEOUT_MS,
    engine_request,
    open_game_file,
    open_menu_item,
    play_a_card,
    plays,
    random_game,
    settle,
)
from .watching import booted_page, page_for_the_module, settled

pytestmark = pytest.mark.browser
SLOW = 90_000  # ms: the review and the master on a busy machine


def budgets(page: Page, review: int, master: int = 3) -> None:
    page.evaluate("""([review, master]) => localStorage.setItem("calypso.dev.v1",
        JSON.stringify({ review_budget: review, master_iterations: master }))""", [review, master])


shared, table = page_for_the_module("?seed=review-page-3&level=random&speed=0",
                                    viewport={"width": 1366, "height": 900})


def record_requests_after_a_click(page: Page, button: Locator) -> None:
    """From the moment ``button`` is clicked, keep each request the page sends its worker
    in ``window.sentAfterClick``."""
    button.evaluate("""(button) => {
        window.sentAfterClick = [];
        let clicked = false;
        button.addEventListener("click", () => { clicked = true; }, { capture: true, once: true });
        const send = Worker.prototype.postMessage;
        Worker.prototype.postMessage = function (message, ...rest) {
            if (clicked && typeof message === "string") window.sentAfterClick.push(message);
            return send.call(this, message, ...rest);
        };
    }""")


def play_until(page: Page, cards: int) -> None:
    while plays(page) < cards:
        if settle(page) == "over":
            return
        play_a_card(page)


def test_a_deal_is_reviewed_with_progress_can_be_cancelled_and_tried_again(table: Page) -> None:
    page = table
    budgets(page, review=1500)
    play_until(page, 52)
    offer = page.locator("[data-review-offer]")
    expect(offer).to_be_visible()
    offer.get_by_role("button", name="Review deal 1").click()
    dialog = page.locator("[data-dialog=review]")
    expect(dialog).to_be_visible()
    expect(dialog).to_have_attribute("data-review-state", "running", timeout=SLOW)
    status = dialog.locator("[data-review-done]")
    expect(status).to_have_attribute("data-review-total", "13", timeout=SLOW)
    expect(dialog.locator("progress")).to_be_visible()
    record_requests_after_a_click(page, dialog.get_by_role("button", name="Cancel"))
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_have_attribute("data-review-state", "stopped")
    expect(dialog.get_by_role("button", name="Cancel")).to_be_hidden()
    stopped_at = int(status.get_attribute("data-review-done") or "0")
    assert stopped_at < 13
    expect(status).to_contain_text(f"Stopped after {stopped_at} of 13 cards")
    # Nothing more is reviewed once cancelled: a request answered after the one in flight
    # at the click (the worker answers in order) finds no review asked for since.
    assert engine_request(page, "hello")["ok"]
    sent = page.evaluate("() => window.sentAfterClick.map((m) => JSON.parse(m).type)")
    # Work ahead (ahead.js) goes on while the person thinks: it is no review asked for.
    assert [kind for kind in sent if kind != "work"] == ["hello"]
    assert int(status.get_attribute("data-review-done") or "0") == stopped_at
    dialog.get_by_role("button", name="Go on").click()
    expect(dialog).to_have_attribute("data-review-state", "done", timeout=SLOW)
    expect(status).to_have_attribute("data-review-done", "13")
    total = int(dialog.locator("[data-review-total-cost]").get_attribute(
        "data-review-total-cost") or "-1")
    chart = dialog.locator("[data-chart=review-deals]")
    expect(chart.locator("svg")).to_have_count(1)
    # The table's deals run across, as the bars: one column for the one deal reviewed.
    numbers = chart.locator("[data-chart-table]")
    expect(numbers.locator("thead th")).to_have_count(2)
    expect(numbers.get_by_role("columnheader", name="Deal 1", exact=True)).to_have_text("1")
    lost = numbers.locator("tr").filter(has=page.get_by_role("rowheader", name="Points lost"))
    expect(lost.locator("td")).to_have_text(f"{total:,}")
    costly = dialog.locator("[data-review-list] li")
    assert total > 0 and costly.count() > 0, "this seed's first-card play loses points"
    # Try again: the position before the first costly card; any legal card says its cost.
    costly.first.get_by_role("button", name="Try again").click()
    hand = dialog.locator("[data-try-hand] [data-card]")
    expect(hand.first).to_be_visible()
    hand.locator("xpath=self::*[not(@disabled)]").first.click()
    answer = dialog.locator("[data-try-cost]")
    expect(answer).to_be_visible()
    dialog.get_by_role("button", name="Show the best card").click()
    best = dialog.locator("[data-try-best]").get_attribute("data-try-best")
    dialog.locator(f"[data-try-hand] [data-card='{best}']").click()
    expect(answer).to_have_attribute("data-try-cost", "0")
    expect(answer).to_contain_text("is the best card here")
    dialog.get_by_role("button", name="Back to the list").click()
    expect(costly.first).to_be_visible()
    # Play it out: the master plays on after the card played and after the better one, a
    # card at a time, each trick drawn as it grows.
    costly.first.get_by_role("button", name="Play it out").click()
    lines = dialog.locator("[data-line-card]")
    expect(lines).to_have_count(2, timeout=SLOW)
    expect(lines.first).to_have_attribute("data-line-played", "true")
    step = dialog.locator("[data-line-step]")
    expect(step).to_have_attribute("data-line-step", "1")
    expect(lines.first.get_by_role("group")).to_have_accessible_name(re.compile(r"^Trick \d+$"))
    previous = dialog.get_by_role("button", name="Previous card")
    expect(previous).to_be_disabled()
    shown = lines.first.locator("[data-card]").count()
    dialog.get_by_role("button", name="Next card").click()
    expect(step).to_have_attribute("data-line-step", "2")
    expect(lines.first.locator("[data-card]")).to_have_count(shown + 1)
    previous.click()
    expect(step).to_have_attribute("data-line-step", "1")
    dialog.get_by_role("button", name="Back to the list").click()
    expect(costly.first).to_be_visible()
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_be_hidden()


def test_the_finished_game_shows_the_scores_chart_and_the_master_in_your_seat(
    table: Page,
) -> None:
    page = table
    play_until(page, 208)
    assert settle(page) == "over"
    sheet = page.locator("[data-dialog=score_sheet]")
    expect(sheet).to_be_visible()
    chart = sheet.locator("[data-chart=deals]")
    expect(chart.locator("svg polyline")).to_have_count(2)
    rows = chart.locator("[data-chart-table] tbody tr")
    expect(rows).to_have_count(4)
    state = from_record(opened_record(engine_request(page, "record")["result"]["record"]))
    last = rows.nth(3).locator("td")
    assert [last.nth(i).inner_text() for i in (0, 1)] == \
        [f"{score:,}" for score in state.partnership_scores()]
    master = sheet.locator("[data-sheet-master]")
    expect(master).to_have_attribute("data-master", "done", timeout=SLOW)
    # In the partnership's lead, the review's unit: its score less the other side's.
    ns, ew = state.partnership_scores()
    lead = ns - ew
    expect(master.locator("[data-master-you]")).to_have_attribute("data-master-you", str(lead))
    written = f"+{lead:,}" if lead > 0 else f"\u2212{-lead:,}" if lead < 0 else "0"
    expect(master).to_contain_text(f"Your side's lead: {written} — with the master in your seat:")
    expect(master.locator("[data-master-review]")).to_have_text(
        render(message("master.review_relation")))


def test_the_whole_game_is_reviewed_and_its_costly_cards_are_marked_in_the_replay(
    table: Page, screenshots: Callable[[Page, str], Path]
) -> None:
    page = table
    budgets(page, review=60)
    sheet = page.locator("[data-dialog=score_sheet]")
    sheet.get_by_role("button", name="Review this game").click()
    dialog = page.locator("[data-dialog=review]")
    # The whole game's review, not the last deal's (whose "done" the dialog may still show).
    expect(dialog.locator("[data-review-total]")).to_have_attribute("data-review-total", "52")
    expect(dialog).to_have_attribute("data-review-state", "done", timeout=SLOW)
    expect(dialog.locator("[data-review-done]")).to_have_attribute("data-review-done", "52")
    expect(dialog.locator("[data-chart=review-deals] [data-chart-table] thead th")).to_have_count(5)
    # On a phone, the narrowest too, every column of the deals' table is in the dialog, the
    # last deal's last (test_russian.py checks the longer Russian words).
    box = dialog.locator("[data-chart=review-deals] .chart-table-box")
    for width, height in [(390, 844), (320, 640)]:
        page.set_viewport_size({"width": width, "height": height})
        box.scroll_into_view_if_needed()
        last = box.locator("thead th").last.bounding_box()
        inside = dialog.bounding_box()
        assert last and inside and last["x"] + last["width"] <= inside["x"] + inside["width"]
        assert box.evaluate("(el) => el.scrollWidth <= el.clientWidth")
        assert edge_shades(box) == (False, False)  # nothing to scroll to: no shade
        screenshots(page, f"review-game-{width}")
    page.set_viewport_size({"width": 1366, "height": 900})
    item = dialog.locator("[data-review-list] li").first
    grade = item.get_attribute("data-review-grade")
    item.get_by_role("button", name="Show in the replay").click()
    replay = page.locator("[data-dialog=replay]")
    expect(replay).to_be_visible()
    expect(replay.locator(".compass-slot[data-seat='2']")).to_have_attribute(
        "data-review-grade", grade or "")
    expect(replay.locator("[data-review-mark]")).to_contain_text("Better:")
    replay.get_by_role("button", name="Close").click()


def test_the_statistics_chart_results_per_level_and_the_difference_from_the_master(
    table: Page, screenshots: Callable[[Page, str], Path]
) -> None:
    page = table
    open_menu_item(page, "Statistics")
    stats = page.locator("[data-dialog=stats]")
    results = stats.locator("[data-chart=results]")
    expect(results.locator("svg")).to_have_count(1)
    expect(results.locator("[data-chart-table] tbody tr")).to_have_count(1)
    master = stats.locator("[data-chart=master]")
    expect(master.locator("[data-chart-table] tbody tr")).to_have_count(1)
    expect(stats.locator("[data-master-average]")).to_contain_text("Over 1 game")
    expect(stats.locator("[data-streak]")).to_have_attribute("data-streak", "0")
    # The table of seven columns fits a laptop's dialog; on a phone it scrolls, shaded at
    # the edge it continues past (it was cut off at the dialog's edge with no sign of more),
    # which moves to the other edge once scrolled to the end.
    numbers = stats.locator("[data-stats]")
    assert edge_shades(numbers) == (False, False)
    page.set_viewport_size({"width": 390, "height": 844})
    numbers.scroll_into_view_if_needed()
    assert numbers.evaluate("(el) => el.scrollWidth > el.clientWidth"), "it fits: no test"
    assert edge_shades(numbers) == (False, True)
    screenshots(page, "stats-phone")
    numbers.evaluate("(el) => { el.scrollLeft = el.scrollWidth; }")
    assert edge_shades(numbers) == (True, False)  # scrolled to its end: the other way
    page.set_viewport_size({"width": 1366, "height": 900})
    stats.get_by_role("button", name="Close").click()


def test_a_game_file_opened_in_the_replay_is_reviewed_from_there(table: Page) -> None:
    # Opening a file in the replay before any review of it threw "Cannot read properties of
    # null (reading 'seat')" while marking the replay's costly cards.
    page = table
    budgets(page, review=40)
    open_game_file(page, random_game("review-file-1", random.Random(5)), "finished.json")
    replay = page.locator("[data-dialog=replay]")
    expect(replay).to_be_visible()
    expect(replay.locator("[data-review-mark]")).to_have_count(0)
    replay.get_by_role("button", name="Review", exact=True).click()
    dialog = page.locator("[data-dialog=review]")
    expect(dialog).to_have_attribute("data-review-state", "done", timeout=SLOW)
    expect(dialog.locator("[data-review-done]")).to_have_attribute("data-review-done", "52")
    expect(dialog.locator("[data-review-title]")).to_have_text("Review: South's cards")
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_be_hidden()


def test_charts_draw_no_inline_style(table: Page) -> None:
    charts = table.evaluate("() => document.querySelectorAll('[data-chart]').length")
    styled = table.evaluate("() => document.querySelectorAll('[data-chart] [style]').length")
    assert charts >= 4 and styled == 0


def test_a_daily_link_deals_that_days_calypso_and_a_bad_date_is_said(
    browser: Browser, server_url: str
) -> None:
    def opened(query: str) -> tuple[str, dict[str, Any], str, bool, str]:
        with booted_page(browser, server_url, query, TIMEOUT_MS) as (page, problems), \
                settled(page, problems, SETTLED, TIMEOUT_MS):
            notice = page.locator("[data-notice]")
            expect(notice).to_be_visible()
            hint_shown = page.locator(".bar [data-action=hint]").is_visible()
            keys = page.locator("[data-foot-keys]").inner_text()
            return (notice.inner_text(), engine_request(page, "record")["result"], page.url,
                    hint_shown, keys)

    notice, saved, url, hint_shown, keys = opened("?daily=2025-01-31&seed=x")
    assert "The Calypso of the day" in notice and "seed was left out" in notice
    assert "no hints and no undo" in notice and not hint_shown  # the kept attempt
    assert "L last trick" in keys and "hint" not in keys and "undo" not in keys
    assert saved["settings"]["straight"] is True
    assert saved["settings"]["seed"] == "daily:2025-01-31"
    assert saved["settings"]["levels"].count("master") == 3
    assert "daily=" not in url
    notice, saved, _, _, keys = opened("?daily=2025-02-30")
    assert notice == "There is no Calypso of the day for that date."  # the engine's, alone
    assert "H hint" in keys and "U undo" in keys
    assert not saved["settings"]["seed"].startswith("daily:")  # the usual game instead


def test_the_first_daily_attempt_is_kept_even_unfinished_shared_without_cards_and_in_a_streak(
    table: Page,
) -> None:
    result = table.evaluate("""async () => {
        const stats = await import("./stats.js");
        const daily = await import("./daily.js");
        const seats = [0, 1, 2, 3].map((seat) => ({ person: seat === 2, side: seat % 2 }));
        const seed = "daily:2025-01-31";
        const kept = { settings: { seed, straight: true }, daily: "2025-01-31", seats };
        const again = { settings: { seed }, daily: "2025-01-31", seats };
        const game = (scores) => ({ status: "game_over", match: { game: 0 }, plays: 208, scores });
        const first = game([1860, 1500]);
        const practice = game([2400, 900]);
        stats.startDaily("2025-01-31", "2025-02-03");
        daily.gameOver(first, kept);
        daily.gameOver(practice, again);
        const drawn = (view, table) => {
            const el = document.createElement("div");
            daily.drawDaily(el, { view, table });
            return { attempt: el.querySelector("[data-daily-attempt]").dataset.dailyAttempt,
                line: el.querySelector("[data-share-line]").value,
                link: el.querySelector("[data-daily-link]").getAttribute("href") };
        };
        stats.finishDaily("2025-01-29", { id: "a", you: 1, them: 2 }, "2025-01-29");
        stats.startDaily("2025-01-30", "2025-01-30"); // dealt on its day and left unfinished
        const out = { first: drawn(first, kept), practice: drawn(practice, again),
            streak: stats.streak("2025-01-31"), entry: stats.dailyEntry("2025-01-31"),
            abandoned: stats.dailyEntry("2025-01-30") };
        stats.reset();
        return out;
    }""")
    assert result["first"]["attempt"] == "kept" and result["practice"]["attempt"] == "practice"
    assert result["entry"]["you"] == 1860  # the first attempt, not the better practice
    assert result["abandoned"]["you"] is None  # counted as played
    line = result["first"]["line"]
    assert line.startswith("Calypso of the day 2025-01-31: 1,860 to 1,500, won. Streak: ")
    assert "daily=2025-01-31" in line and result["first"]["link"].endswith("?daily=2025-01-31")
    cards = [f"{rank}{suit}" for rank in "AKQJT98765432" for suit in "SHDC"]
    assert not any(card in line.split("http")[0] for card in cards)
    assert not any(symbol in line for symbol in "♠♥♦♣")
    # A streak counts days whose deal was played on its own date: the 29th was, and the 30th
    # was dealt that day and left; the 31st's deal was played later, so it is kept but not in
    # the streak.
    assert result["streak"] == {"current": 2, "best": 2, "days": 3}
