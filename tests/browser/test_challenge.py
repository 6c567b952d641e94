"""A challenge among friends in two browsers (docs/challenge.md): one sends, the other plays the
same cards and replies, and both see the same comparison; the same challenge played twice
gives the same record; an edited reply and a bad link are refused and change nothing; a
challenge without a name speaks of "your friend".

One game at instant speed against random players; the review and the master get small test
budgets (web/dev.js). The tests share the two pages and run in order.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from calypso_core.naming import MAX_NAME_CHARS
from calypso_core.table.challenge import Reply

from .accessibility import axe_problems
from .table import (
    PLAYABLE,
    SETTLED,
    TIMEOUT_MS,
    engine_request,
    hand,
    next_deal,
    play_a_card,
    plays,
    settle,
    shown_plays,
)
from .watching import booted_page

pytestmark = pytest.mark.browser
QUERY = "?seed=dare-1&level=random&speed=instant"


def budgets(page: Page) -> None:
    page.evaluate("""() => localStorage.setItem("calypso.dev.v1",
        JSON.stringify({ review_budget: 30, master_iterations: 3 }))""")


@pytest.fixture(scope="module")
def friends(browser: Browser, server_url: str) -> Iterator[dict[str, Any]]:
    """Two people in two browser contexts, each page booted once: Ann sends, Ben answers."""
    with booted_page(browser, server_url, QUERY, TIMEOUT_MS) as (ann, ann_problems), \
            booted_page(browser, server_url, "?speed=instant", TIMEOUT_MS) as (ben, ben_problems):
        for page in (ann, ben):
            budgets(page)
        state: dict[str, Any] = {"ann": ann, "ben": ben, "server": server_url}
        yield state
        assert ann_problems == [] and ben_problems == []


def at_instant_speed(link: str) -> str:
    """A link opened at the tests' speed: the page's speed comes from its address (else the
    person's settings, Normal), and a challenge link carries none."""
    base, _, fragment = link.partition("#")
    return f"{base}{'&' if '?' in base else '?'}speed=instant#{fragment}"


def play_to_the_end(page: Page, last: bool = False) -> list[str]:
    """Plays the first playable card each turn (the last one with ``last``) to the end of the
    match, with "Next deal" at each deal's end; the first hand seen (the person's cards of
    deal 1, as shown)."""
    settle(page)
    first = hand(page)
    while next_deal(page) != "over":
        if last:
            before = plays(page)
            page.locator(PLAYABLE).last.click()
            expect(page.locator("[data-table]")).not_to_have_attribute(
                "data-plays", str(before), timeout=TIMEOUT_MS)
        else:
            play_a_card(page)
    return first


def test_a_challenge_made_on_the_score_sheet_is_opened_by_a_friend(friends: dict[str, Any],
                                                                   axe_script: str) -> None:
    ann, ben = friends["ann"], friends["ben"]
    friends["ann_hand"] = play_to_the_end(ann)
    sheet = ann.locator("[data-dialog=score_sheet]")
    expect(sheet).to_be_visible()
    part = sheet.locator("[data-sheet-challenge]")
    field = part.get_by_label("Your name, as your friend will see it")
    # As long as the engine lets a name be, as the table's form: its hello says how long.
    name_chars = engine_request(ann, "hello")["result"]["people"]["name_chars"]
    assert field.get_attribute("maxlength") == str(name_chars) == str(MAX_NAME_CHARS)
    field.fill("Ann")
    part.get_by_role("button", name="Make the challenge link").click()
    link = part.locator("[data-challenge-link]")
    expect(link).to_be_visible(timeout=TIMEOUT_MS)
    href = link.input_value()
    assert "#challenge=" in href and len(href) < 200
    expect(part.locator("[data-challenge-qr] svg")).to_be_visible()
    friends["link"] = href

    before = shown_plays(ben)
    ben.goto(at_instant_speed(href))
    dialog = ben.locator("[data-dialog=challenge]")
    heading = dialog.get_by_role("heading", name="Ann challenges you")
    expect(heading).to_be_visible(timeout=TIMEOUT_MS)
    expect(dialog.locator("[data-challenge-terms]")).to_contain_text("Random")
    expect(heading).to_be_focused()  # the dialog opens once drawn, at its title
    # Ann's result is not shown before Ben has played.
    assert "lead" not in (dialog.text_content() or "").lower()
    assert axe_problems(ben, axe_script, "[data-dialog=challenge]") == []
    assert shown_plays(ben) == before  # the game in play is untouched until Ben chooses


def test_the_friend_plays_the_same_cards_and_sees_the_comparison(friends: dict[str, Any],
                                                                 axe_script: str) -> None:
    ben = friends["ben"]
    ben.locator("[data-dialog=challenge]").get_by_role("button", name="Play the challenge").click()
    ben.wait_for_selector(SETTLED, timeout=TIMEOUT_MS)
    assert hand(ben) == friends["ann_hand"]  # deal 1's first hand, card for card
    play_to_the_end(ben, last=True)  # Ben plays otherwise: the games part
    part = ben.locator("[data-sheet-challenge]")
    compared(part)
    friends["ben_comparison"] = comparison_of(part)
    assert friends["ben_comparison"]["difference"] is not None
    part.get_by_label("Your name, as Ann will see it").fill("Ben")
    part.get_by_role("button", name="Make the reply link").click()
    reply = part.locator("[data-challenge-link=reply-link]")
    expect(reply).to_be_focused()
    assert axe_problems(ben, axe_script, "[data-sheet-challenge]") == []
    friends["reply"] = reply.input_value()
    friends["ben_record"] = shown_plays(ben)


def compared(root: Any) -> None:
    """Wait until the comparison (one game) is whole: the points lost come from the reviews,
    the master's line last, each "…" until then."""
    expect(root.locator("[data-challenge-game]")).not_to_contain_text("…", timeout=TIMEOUT_MS)


def comparison_of(root: Any) -> dict[str, Any]:
    """What a comparison shows: the difference, where the games parted, each table's cells."""
    verdict = root.locator("[data-challenge-difference]")
    return {
        "difference": int(verdict.get_attribute("data-challenge-difference") or "0")
        if verdict.count() else None,
        "parted": root.locator("[data-parted]").evaluate_all(
            "els => els.map(e => e.dataset.parted)"),
        "cells": root.locator("[data-challenge-game] td").evaluate_all(
            "els => els.map(e => e.textContent)"),
    }


def test_the_sender_opens_the_reply_and_sees_the_same_comparison(friends: dict[str, Any],
                                                                 axe_script: str) -> None:
    ann = friends["ann"]
    ann.goto(friends["reply"])
    dialog = ann.locator("[data-dialog=challenge]")
    expect(dialog.get_by_role("heading", name="Ben's reply")).to_be_visible(timeout=TIMEOUT_MS)
    compared(dialog)
    mine, theirs = comparison_of(dialog), friends["ben_comparison"]
    assert mine["parted"] == theirs["parted"] != ["alike"]
    assert mine["difference"] == -theirs["difference"]
    # The columns are the same lines in the same order (the sender's first), the last one the
    # difference seen from each side.
    width = len(mine["cells"]) // 5
    assert [row[:-1] for row in rows(mine, width)] == [row[:-1] for row in rows(theirs, width)]
    standings = dialog.locator("[data-standings]")
    expect(standings).to_contain_text("Ben")
    assert axe_problems(ann, axe_script, "[data-dialog=challenge]") == []
    # Opened again, the same reply counts once.
    ann.goto(friends["reply"])
    compared(ann.locator("[data-dialog=challenge]"))
    expect(ann.locator("[data-notice]")).to_contain_text("counted already")
    # Ann's own line and Ben's, once.
    rows_shown = ann.locator("[data-dialog=challenge] [data-standings] tbody th")
    expect(rows_shown).to_have_count(2)
    assert sorted(rows_shown.all_text_contents()) == ["Ann (You)", "Ben"]


def rows(shown: dict[str, Any], width: int) -> list[list[str]]:
    cells = shown["cells"]
    return [cells[i:i + width] for i in range(0, len(cells), width)]


def test_the_same_challenge_played_twice_gives_the_same_record(friends: dict[str, Any]) -> None:
    ben = friends["ben"]
    ben.goto(at_instant_speed(friends["link"]))
    ben.locator("[data-dialog=challenge]").get_by_role("button", name="Play the challenge").click(
        timeout=TIMEOUT_MS)
    ben.wait_for_selector(SETTLED, timeout=TIMEOUT_MS)
    play_to_the_end(ben, last=True)
    assert shown_plays(ben) == friends["ben_record"]


def test_an_edited_reply_score_is_caught_and_changes_nothing(friends: dict[str, Any]) -> None:
    ann = friends["ann"]
    challenge, reply_text = friends["reply"].split("#challenge=")[1].split("&reply=")
    reply = Reply.read(reply_text)
    (north_south, east_west), = reply.played.scores
    edited = Reply(reply.challenge, type(reply.played)(reply.played.name, (
        (north_south + 300, east_west),), reply.played.plays))
    kept = ann.evaluate("() => localStorage.getItem('calypso.challenges.v1')")
    ann.goto(f"{friends['server']}#challenge={challenge}&reply={edited.link()}")
    problem = ann.locator("[data-challenge-problem]")
    expect(problem).to_have_attribute("data-challenge-problem", "edited_result", timeout=TIMEOUT_MS)
    expect(problem).to_contain_text("was changed after the game")
    assert ann.evaluate("() => localStorage.getItem('calypso.challenges.v1')") == kept


def test_a_bad_link_is_said_and_changes_nothing(friends: dict[str, Any]) -> None:
    ben = friends["ben"]
    ben.evaluate("() => document.querySelector('[data-dialog=challenge]').close()")
    before = shown_plays(ben)
    kept = ben.evaluate("() => localStorage.getItem('calypso.challenges.v1')")
    broken = friends["link"][:-3]
    ben.goto(broken)
    expect(ben.locator("[data-notice]")).to_contain_text("This challenge link is damaged",
                                                         timeout=TIMEOUT_MS)
    assert shown_plays(ben) == before
    assert ben.evaluate("() => localStorage.getItem('calypso.challenges.v1')") == kept
    assert engine_request(ben, "view")["ok"]


def test_a_challenge_without_a_name_speaks_of_your_friend(friends: dict[str, Any]) -> None:
    ben = friends["ben"]
    made = engine_request(ben, "challenge_make", {"name": "", "settings": {
        "seed": "dare-2", "level": "random"}})
    assert made["ok"], made
    ben.goto(at_instant_speed(f"{friends['server']}#challenge={made['result']['link']}"))
    dialog = ben.locator("[data-dialog=challenge]")
    expect(dialog.get_by_role("heading", name="A challenge")).to_be_visible(timeout=TIMEOUT_MS)
    expect(dialog).to_contain_text("then compare the two games deal by deal.")
    expect(dialog).to_contain_text("Your friend has not played these cards yet.")
    assert "A friend" not in (dialog.text_content() or "")
