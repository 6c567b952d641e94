"""Two people sharing one device: a whole game in the page with a hand-off at each change of
person, no hidden card anywhere in the page while every hand is covered, the right hand
shown by "Show <Seat>'s hand", and a reload that comes back to the hand-off screen.

The hidden cards are worked out in CPython from the page's own game record (its deck opened
here: the engine hands it over sealed): every card in any hand that nobody has seen played
(nor cut). Each must be absent from the page's DOM (text, attributes, accessible names,
titles, the log) and from its accessibility tree, by code ("QH"), by name ("Queen of
hearts") and by short form ("Q♥") — and, while every hand is covered, from every message the
page received since a hand was last shown, from everything it stores, and from the game file
it writes.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from calypso_core import Card, from_record
from calypso_core.table.sealed import opened_record

from .table import TIMEOUT_MS, engine_request, settle
from .watching import page_for_the_module

pytestmark = pytest.mark.browser

SEATS = ["North", "East", "South", "West"]
SEED = "pass-1"
QUERY = f"?seed={SEED}&level=random&speed=0&humans=south,north"


shared, table = page_for_the_module(QUERY,
                                    viewport={"width": 1366, "height": 768})


def engine(page: Page, kind: str, payload: dict[str, Any] | None = None) -> Any:
    """The result of a request through the page's own engine client."""
    reply = engine_request(page, kind, payload)
    assert reply["ok"], reply
    return reply["result"]


# Keeps every message the page's thread receives from its engine workers (window.__received).
RECORD_MESSAGES = """(() => {
    window.__received = [];
    const Original = window.Worker;
    window.Worker = class extends Original {
        constructor(...args) {
            super(...args);
            this.addEventListener("message", (event) => window.__received.push(
                typeof event.data === "string" ? event.data : JSON.stringify(event.data)));
        }
    };
})();"""
CODE = re.compile(r'"([2-9TJQKA][SHDC])"')


def game_record(page: Page) -> dict[str, Any]:
    """The game in play's record, its deck opened."""
    return dict(opened_record(engine(page, "record")["record"]))


def hidden_cards(page: Page) -> set[Card]:
    """Cards in some hand that nobody at the table has seen: not played, not cut."""
    record, view = game_record(page), engine(page, "view")
    state = from_record(record)
    public = {Card.parse(c) for c in [*record["plays"], *view["table"]["cut"]["cards"]]}
    return {card for seat in range(4) for card in state.hand(seat)} - public


def page_text(page: Page) -> str:
    """Everything in the page a person or a screen reader could meet: the whole DOM as HTML
    (text, attributes, titles, accessible names) and the accessibility tree."""
    html: str = page.evaluate("document.documentElement.outerHTML")
    return html + "\n" + page.locator("body").aria_snapshot()


def forms(card: Card) -> list[str]:
    return [f'"{card}"', f">{card}<", card.name, card.name.lower(), card.pretty]


def assert_nothing_hidden_shown(page: Page) -> int:
    text = page_text(page)
    hidden = hidden_cards(page)
    shown = [(str(card), form) for card in hidden for form in forms(card) if form in text]
    assert not shown, f"covered, yet the page shows {shown[:5]}"
    assert page.locator("[data-hand] [data-card]").count() == 0
    return len(hidden) * len(forms(Card(0)))


def covered_since_shown(page: Page) -> str:
    """Every message the page received since the last one that showed a hand."""
    received: list[str] = page.evaluate("window.__received")
    last = max((i for i, text in enumerate(received)
                if isinstance(json.loads(text).get("result"), dict)
                and isinstance(json.loads(text)["result"].get("viewer"), int)), default=-1)
    return "\n".join(received[last + 1:])


def stored(page: Page) -> str:
    """Everything the page keeps in localStorage and sessionStorage."""
    return str(page.evaluate("""() => JSON.stringify([localStorage, sessionStorage].map(
        (store) => Object.fromEntries(Object.keys(store).map((k) => [k, store.getItem(k)]))))"""))


def assert_no_hidden_code(hidden: set[Card], where: str, text: str) -> None:
    found = {Card.parse(code) for code in CODE.findall(text)} & hidden
    assert not found, f"covered, yet {where} holds {sorted(map(str, found))[:5]}"


def assert_seed_named_nowhere(page: Page) -> None:
    """The match's seed, which deals every hand again, is nowhere a person can read it: the
    page (under the table, the Saved games list), its title, the address."""
    assert SEED not in page_text(page) and SEED not in page.title() and SEED not in page.url


def test_a_two_person_game_hands_the_device_over_and_never_shows_a_covered_hand(
    table: Page,
) -> None:
    page = table
    page.add_init_script(RECORD_MESSAGES)  # from the next load on: the reload below
    handoffs = checked = 0
    shown: int | None = None
    reloaded = False
    while (state := settle(page)) != "over":
        if state == "next_deal":  # a deal is over: the table waits for the people
            assert_seed_named_nowhere(page)
            page.get_by_role("button", name="Next deal").click()
            expect(page.locator("[data-table]")).not_to_have_attribute("data-state", "next_deal")
            continue
        if state == "handoff":
            handoff = page.locator("[data-handoff]")
            expect(handoff).to_be_visible()
            to_move = engine(page, "view")["to_move"]
            assert to_move in (0, 2) and to_move != shown  # only when the turn changes person
            expect(handoff).to_contain_text(f"Pass the device to {SEATS[to_move]}")
            button = page.get_by_role("button", name=f"Show {SEATS[to_move]}'s hand")
            expect(button).to_be_visible()
            if shown is not None:  # the keyboard goes on from the card played to the hand-off
                expect(button).to_be_focused()
            expect(page.locator("[data-table]")).to_have_attribute("data-covered", "true")
            # Public things stay: the trick, the seats' calypsos, the scores.
            expect(page.locator("[data-seat] .calypso")).to_have_count(4)
            checked += assert_nothing_hidden_shown(page)
            assert_seed_named_nowhere(page)
            hidden = hidden_cards(page)
            if reloaded:
                assert_no_hidden_code(hidden, "a message", covered_since_shown(page))
            assert_no_hidden_code(hidden, "the storage", stored(page))
            if handoffs == 4:
                with page.expect_download() as download:
                    page.get_by_role("button", name="Menu").click()
                    page.locator("[data-dialog=menu]").get_by_role(
                        "button", name="Save game to a file").click()
                written = download.value.path().read_text(encoding="utf-8")
                assert_no_hidden_code(hidden, "the game file", written)
                # Named by when it was saved, not by the seed that deals every hand.
                assert re.fullmatch(r"calypso-\d{4}-\d\d-\d\d-\d{4}-game1\.json",
                                    download.value.suggested_filename)
                page.get_by_role("button", name="Menu").click()
                page.locator("[data-dialog=menu]").get_by_role("button", name="Saved games").click()
                expect(page.locator("[data-saves] [data-mine]")).to_contain_text("2 people")
                assert_seed_named_nowhere(page)
                page.locator("[data-dialog=saves]").get_by_role("button", name="Close").click()
                assert json.loads(written)["plays"] == game_record(page)["plays"]
                expect(page.locator("[data-table]")).to_have_attribute("data-covered", "true")
            handoffs += 1
            if handoffs == 3 and not reloaded:
                # A reload mid-game comes back to the hand-off screen, never to a hand.
                reloaded = True
                page.reload()  # the address the page left: the link's speed, not its deal
                page.wait_for_selector("html[data-engine-state=ready]", state="attached",
                                       timeout=TIMEOUT_MS)
                assert settle(page) == "handoff"
                assert engine(page, "view")["to_move"] == to_move
                assert_nothing_hidden_shown(page)
                button = page.get_by_role("button", name=f"Show {SEATS[to_move]}'s hand")
            button.click()
            assert settle(page) == "ready"
            shown = to_move
            record = from_record(game_record(page))
            hand = page.locator("[data-hand] [data-card]").evaluate_all(
                "els => els.map(e => e.dataset.card)")
            assert sorted(hand) == sorted(str(c) for c in record.hand(to_move))
            expect(page.locator("[data-status]")).to_contain_text(f"{SEATS[to_move]}, your turn")
            expect(page.locator("[data-handoff]")).to_be_hidden()
        else:
            assert state == "ready"
            before = page.locator("[data-table]").get_attribute("data-plays")
            page.locator("[data-hand] [data-card][data-playable]").first.click()
            # The same person may win the trick and lead again: wait for the card, not a state.
            expect(page.locator("[data-table]")).not_to_have_attribute(
                "data-plays", before or "", timeout=TIMEOUT_MS)
    assert handoffs >= 13 and reloaded
    assert checked > 1_000  # many hidden cards were looked for, in every form
    assert from_record(engine(page, "record")["record"]).is_over  # a finished game's deck: plain
    sheet = page.locator("[data-dialog=score_sheet]")
    expect(sheet).to_be_visible()
    expect(sheet.locator("[data-score-side='0'] th")).to_have_text("South & North")
    sheet.get_by_role("button", name="Close").click()
    # The match is over: nothing is covered any more, and the seed is said.
    expect(page.locator("[data-seed-info]")).to_have_text(f"Seed {SEED}")
    # A game of several people counts in nobody's statistics.
    assert page.evaluate("localStorage.getItem('calypso.stats.v1')") is None


def test_the_new_game_dialog_seats_named_people_and_computers(table: Page) -> None:
    page = table
    page.get_by_role("button", name="New game").click()
    dialog = page.locator("[data-dialog=new_game]")
    dialog.get_by_label("Level", exact=True).select_option("random")
    dialog.get_by_label("East", exact=True).select_option("person")
    dialog.get_by_label("East's name").fill("Ben")
    dialog.get_by_label("South's name").fill("Ana")
    dialog.get_by_label("North", exact=True).select_option("random")
    expect(dialog.get_by_label("South's suit")).to_be_visible()
    dialog.get_by_label("Speed").select_option("instant")
    dialog.get_by_label("Seed").fill("pass-2")
    dialog.get_by_role("button", name="Deal").click()
    expect(page.locator("[data-scores]")).to_contain_text("Ana & North")  # dealt
    assert settle(page) == "handoff"
    expect(page.locator("[data-seed-info]")).to_be_empty()  # it would deal every hand
    seat = engine(page, "view")["to_move"]
    name = {1: "Ben", 2: "Ana"}[seat]
    expect(page.locator("[data-handoff-text]")).to_have_text(
        f"Pass the device to {name} ({SEATS[seat]}).")
    assert_nothing_hidden_shown(page)
    expect(page.locator("[data-scores]")).to_contain_text("Ana & North")
    expect(page.locator("[data-scores]")).to_contain_text("Ben & West")
    settings = engine(page, "record")["settings"]
    assert settings["people"] == [{"seat": 2, "name": "Ana"}, {"seat": 1, "name": "Ben"}]
    expect(page.locator(".bar [data-action=undo]")).to_be_hidden()  # undo is off
    page.get_by_role("button", name=f"Show {SEATS[seat]}'s hand").click()
    assert settle(page) == "ready"
    expect(page.locator(f"[data-seat='{seat}']")).to_have_attribute("data-viewer", "true")
    expect(page.locator("[data-hand-title]")).to_contain_text(f"{name}'s hand")


def test_an_unknown_seat_in_the_link_is_refused_with_a_notice(
    page: Page, server_url: str,
) -> None:
    page.goto(server_url + "?seed=pass-3&speed=0&humans=south,nowhere")
    page.wait_for_selector("html[data-engine-state=ready]", state="attached", timeout=TIMEOUT_MS)
    settle(page)
    expect(page.locator("[data-notice]")).to_contain_text('There is no seat "nowhere"')
    saved = engine(page, "record")
    assert saved["settings"]["people"] == [{"seat": 2, "name": ""}]
    assert json.loads(json.dumps(saved["record"]["players"]))[2] == {"person": ""}


@pytest.mark.parametrize(("address", "said"), [
    ("?speed=0&remote=north,nowhere",
     '"north,nowhere" does not name 1 to 3 different seats for guests (the seats are north, '
     "east, south, west): this device plays alone."),
    ("?speed=0&remote=north&relays=http://relay.invalid",
     "The relays of this table's address cannot be used"),
    ("?speed=0#join=ROOMROOMROOM&key=SECRETSECRET&seat=nowhere",
     "This invitation link cannot be read (it needs a room, a key and one of the seats north, "
     "east, south, west)"),
])
def test_a_remote_tables_address_that_cannot_be_followed_is_said_and_this_device_plays(
    page: Page, server_url: str, address: str, said: str,
) -> None:
    page.goto(server_url + address)
    page.wait_for_selector("html[data-engine-state=ready]", state="attached", timeout=TIMEOUT_MS)
    assert settle(page) == "ready"
    expect(page.locator("[data-notice]")).to_contain_text(said)
    assert page.evaluate("() => document.documentElement.dataset.remote ?? null") is None
