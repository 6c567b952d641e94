"""Puzzles in the page: ?puzzle=ID, one solved wrong and one right with the rating moving and
kept through a reload, the game in play untouched behind them, an unknown id said plainly, and
a blunder of a reviewed game practised as a puzzle.

The tests share one booted page and run in order; waits are on visible state, never on time.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from helpers import play_cards, position
from playwright.sync_api import Page, expect
from test_review import TWO_ACES_TAKE_THE_HEARTS

from calypso_core import GameState
from calypso_core.bots import make_bot

from .accessibility import axe_problems
from .table import TIMEOUT_MS, open_game_file, open_menu_item, plays
from .watching import page_for_the_module

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
SLOW = 90_000  # ms: a review on a busy machine

shared, table = page_for_the_module("?seed=puzzles-page&level=random&speed=0",
                                    viewport={"width": 1366, "height": 768})


def shipped() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((ROOT / "web" / "puzzles.json").read_text())
    return data


def solution_of(pid: str) -> tuple[str, list[list[Any]]]:
    found = next(p for p in shipped()["puzzles"] if p[0] == pid)
    return found[3], found[4]


def panel_state(page: Page, state: str) -> None:
    expect(page.locator("[data-puzzle-panel]")).to_have_attribute("data-state", state,
                                                                    timeout=TIMEOUT_MS)


def rating_shown(page: Page) -> int:
    return int(page.locator("[data-puzzle-rating]").get_attribute("data-puzzle-rating") or "0")


def test_a_puzzle_link_opens_the_puzzle_on_the_table_from_the_solvers_seat(
        table: Page, axe_script: str) -> None:
    page = table
    first = shipped()["puzzles"][0][0]
    page.goto(page.url.split("?")[0] + f"?puzzle={first}")
    panel_state(page, "asking")
    panel = page.locator("[data-puzzle-panel]")
    expect(panel).to_have_attribute("data-puzzle-id", first)
    expect(panel.get_by_role("heading")).to_have_text(f"Puzzle {first}")
    solution, costs = solution_of(first)
    playable = page.locator("[data-hand] [data-card][data-playable]")
    shown = {playable.nth(i).get_attribute("data-card") for i in range(playable.count())}
    assert shown == {solution, *(card for card, _ in costs)}
    assert "puzzle=" not in page.url  # opened once: a reload is back at the table
    expect(page.locator(".bar [data-action=hint]")).to_be_hidden()  # played straight
    assert axe_problems(page, axe_script) == []
    # Last trick (L, as the keys line says) is the puzzle's, not the game's behind it.
    play = next(p[2] for p in shipped()["puzzles"] if p[0] == first)
    done = play % 52 // 4
    page.keyboard.press("l")
    dialog = page.locator("[data-dialog=last_trick]")
    expect(dialog).to_contain_text(f"Deal {play // 52 + 1}, trick {done}:" if done
                                   else "No trick has been completed yet in this deal.")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()


def test_a_wrong_answer_costs_points_and_the_rating_then_a_right_one_raises_it(table: Page) -> None:
    page = table
    panel = page.locator("[data-puzzle-panel]")
    pid = panel.get_attribute("data-puzzle-id") or ""
    _, costs = solution_of(pid)
    wrong, cost = costs[0]
    page.locator(f"[data-hand] [data-card='{wrong}'][data-playable]").first.click()
    panel_state(page, "missed")
    expect(panel.locator("[data-puzzle-verdict=wrong]")).to_have_attribute("data-puzzle-cost",
                                                                          str(cost))
    after_miss = rating_shown(page)
    assert 0 < after_miss < 1500
    panel.get_by_role("button", name="Show the solution").click()
    expect(panel.locator("[data-puzzle-solution]")).to_be_visible()
    panel.get_by_role("button", name="Next puzzle").click()
    panel_state(page, "asking")
    second = panel.get_attribute("data-puzzle-id") or ""
    assert second != pid
    solution, _ = solution_of(second)
    page.locator(f"[data-hand] [data-card='{solution}'][data-playable]").first.click()
    panel_state(page, "solved")
    expect(panel.locator("[data-puzzle-verdict=right]")).to_contain_text("Right")
    assert rating_shown(page) > after_miss
    # What happens next: the master plays on from the solution.
    panel.get_by_role("button", name="Play on").click()
    panel_state(page, "line")
    before = int(page.locator("[data-table]").get_attribute("data-plays") or "0")
    panel.get_by_role("button", name="Next card").click()
    expect(page.locator("[data-table]")).to_have_attribute("data-plays", str(before + 1),
                                                           timeout=TIMEOUT_MS)
    panel.get_by_role("button", name="Back to the puzzle").click()
    panel_state(page, "solved")


def test_the_rating_survives_a_reload_and_the_game_waited_untouched(
        table: Page, axe_script: str) -> None:
    page = table
    rating = rating_shown(page)
    page.locator("[data-puzzle-panel]").get_by_role("button", name="Back to the game").click()
    expect(page.locator("[data-puzzle-panel]")).to_be_hidden()
    game_plays = plays(page)
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-engine-state", "ready",
                                                   timeout=TIMEOUT_MS)
    assert plays(page) == game_plays
    open_menu_item(page, "Puzzles")
    panel_state(page, "asking")
    assert rating_shown(page) == rating
    page.locator("[data-puzzle-panel]").get_by_role("button", name="Your puzzles").click()
    dialog = page.locator("[data-dialog=puzzles]")
    expect(dialog.locator("[data-puzzle-tried]")).to_have_attribute("data-puzzle-tried", "2")
    expect(dialog.locator("[data-puzzle-themes] tbody tr").first).to_be_visible()
    assert axe_problems(page, axe_script, "[data-dialog=puzzles]") == []
    dialog.get_by_role("button", name="Close").click()


def test_an_unknown_puzzle_is_said_plainly_and_nothing_else_changes(table: Page) -> None:
    page = table
    stored = page.evaluate("() => localStorage.getItem('calypso.puzzles.v1')")
    page.goto(page.url.split("?")[0] + "?puzzle=zzzzzz")
    panel = page.locator("[data-puzzle-panel]")
    expect(panel.locator(".puzzle-prompt")).to_contain_text("There is no puzzle zzzzzz",
                                                            timeout=TIMEOUT_MS)
    assert page.evaluate("() => localStorage.getItem('calypso.puzzles.v1')") == stored
    panel.get_by_role("button", name="Back to the game").click()
    expect(page.locator("[data-table]")).to_have_attribute("data-state", "ready")


def test_unreadable_puzzle_records_are_set_aside_and_said(table: Page) -> None:
    page = table
    page.evaluate("""() => localStorage.setItem("calypso.puzzles-mine.v1", "{not json")""")
    before = page.evaluate("() => localStorage.getItem('calypso.puzzles.v1')")
    open_menu_item(page, "Puzzles")
    panel = page.locator("[data-puzzle-panel]")
    expect(panel.locator("[data-puzzle-notice]")).to_have_text(
        "Your mistakes to practise could not be read: the list was set aside.")
    panel_state(page, "asking")
    assert page.evaluate("() => localStorage.getItem('calypso.puzzles-mine.unreadable')") == (
        '{"text":"{not json"}')
    assert page.evaluate("() => localStorage.getItem('calypso.puzzles.v1')") == before
    panel.get_by_role("button", name="Back to the game").click()


def a_finished_game_with_a_blunder() -> GameState:
    """South throws a small heart under East's king where either of its two aces takes four
    hearts (tests/test_review.py), then random players play the game out."""
    state: GameState = position(2, TWO_ACES_TAKE_THE_HEARTS)
    play_cards(state, "2H 3H KH 5H")
    bots = [make_bot("random", seat, random.Random(seat)) for seat in range(4)]
    while not state.is_over:
        seat = state.to_move
        state.play(bots[seat].choose(state.observation(seat), state.legal_moves()))
    return state


def test_a_blunder_of_a_reviewed_game_is_practised_as_a_puzzle(table: Page) -> None:
    page = table
    page.evaluate("""() => localStorage.setItem("calypso.dev.v1",
        JSON.stringify({ review_budget: 300, master_iterations: 3 }))""")
    open_game_file(page, a_finished_game_with_a_blunder(), "blunder.json")
    replay = page.locator("[data-dialog=replay]")
    expect(replay).to_be_visible(timeout=TIMEOUT_MS)
    replay.get_by_role("button", name="Review").click()
    review = page.locator("[data-dialog=review]")
    expect(review).to_have_attribute("data-review-state", "done", timeout=SLOW)
    blunder = review.locator("[data-review-play='3'][data-review-grade=blunder]")
    expect(blunder).to_be_visible()
    blunder.get_by_role("button", name="Practise this position").click()
    panel = page.locator("[data-puzzle-panel]")
    panel_state(page, "asking")
    expect(panel.get_by_role("heading")).to_have_text("Your mistake")
    expect(panel.locator(".puzzle-prompt")).to_contain_text("you played the 5♥ here")
    page.locator("[data-hand] [data-card='AH'][data-playable]").first.click()
    panel_state(page, "solved")
    # Solved at the first try: it leaves the queue. Every blunder of the review was queued.
    queued = page.evaluate("""() => JSON.parse(localStorage.getItem("calypso.puzzles-mine.v1"))
        .entries.map((e) => e.play)""")
    assert 3 not in queued
    page.evaluate("() => localStorage.removeItem('calypso.dev.v1')")
    panel.get_by_role("button", name="Back to the game").click()
