"""The table on every screen and for every player (issue 19).

At the sizes people use — laptops, a desktop, a tablet held upright, a phone — and with no
scrolling, on the person's turn: every card of the hand is wholly in view and uncovered
(hit-tested at its centre and the middles of its edges), the trick's four places are in view
with their seats' labels, the person's own seat (suit, calypso, points, the turn marker) is
at the bottom, the hand's title says whose turn it is, and a hint's reason is in view. The
same holds for each person of a table shared by two, and on the hand-off screen between
them. axe-core finds nothing serious or critical on any of these views, nor on the loading
screen, the dialogs, the score sheet and the replay; suits, sides and playable cards stay
apart under simulated colour blindness.

Every view is also saved as a screenshot in .cache/screenshots/ for a person to look at.
The tests share one booted page, resized for each screen, and run in order.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, expect
from protocol_calls import ok, said

from .accessibility import axe_problems
from .table import (
    TIMEOUT_MS,
    engine_request,
    open_game_file,
    open_menu_item,
    play_a_card,
    random_game,
    settle,
)
from .test_review_page import SLOW, budgets
from .watching import origin_of, page_for_the_module, watch

pytestmark = pytest.mark.browser

Shot = Callable[[Page, str], Path]
SCREENS = {
    "laptop-1280x720": (1280, 720),
    "laptop-1366x768": (1366, 768),
    "laptop-1440x900": (1440, 900),
    "desktop-1920x1080": (1920, 1080),
    "desktop-2560x1440": (2560, 1440),
    "tablet-820x1180": (820, 1180),
    "phone-390x844": (390, 844),
}

# Everything the person needs on their turn, checked from the page's geometry. Each problem
# is one line; none means the view is right. opts: {hint, covered}.
VISIBLE_ON_TURN = """(opts) => {
  const W = innerWidth, H = innerHeight, problems = [];
  const describe = (el) => el ? `${el.tagName.toLowerCase()}.${el.className}` : "nothing";
  const inView = (el, what) => {
    if (!el) { problems.push(`${what} is missing`); return; }
    const r = el.getBoundingClientRect();
    if (!(r.width > 0 && r.height > 0 && r.left >= -0.5 && r.top >= -0.5
          && r.right <= W + 0.5 && r.bottom <= H + 0.5)) {
      problems.push(`${what} is not wholly in view: [${[r.left, r.top, r.right, r.bottom]
        .map(Math.round)}] on a ${W}x${H} screen`);
    }
  };
  const uncovered = (el, what, points = [[0.5, 0.5]]) => {
    if (!el) return;
    const r = el.getBoundingClientRect();
    for (const [fx, fy] of points) {
      const x = r.left + fx * r.width, y = r.top + fy * r.height;
      const hit = document.elementFromPoint(x, y);
      if (!hit || !(hit === el || el.contains(hit))) {
        problems.push(`${what} is covered at (${Math.round(x)}, ${Math.round(y)})`
          + ` by ${describe(hit)}`);
      }
    }
  };
  if (scrollX || scrollY) problems.push(`the page is scrolled (${scrollX}, ${scrollY})`);
  if (document.documentElement.scrollWidth > W) problems.push("the page is wider than the screen");
  // The trick: four places, each with its seat's label; the cards on it uncovered.
  const slots = [...document.querySelectorAll("[data-trick] [data-slot]")];
  if (slots.length !== 4) problems.push(`the trick has ${slots.length} places`);
  for (const slot of slots) {
    const seat = slot.dataset.slot;
    inView(slot.querySelector("[data-slot-card]"), `the trick's place of seat ${seat}`);
    const label = slot.querySelector("[data-slot-label]");
    inView(label, `the label of seat ${seat}'s place`);
    uncovered(label, `the label of seat ${seat}'s place`);
    if (!label.textContent.trim()) problems.push(`seat ${seat}'s place has no label`);
    const card = slot.querySelector("[data-card]");
    uncovered(card, `seat ${seat}'s card in the trick`, [[0.5, 0.4], [0.2, 0.12]]);
  }
  const bottom = document.querySelector("[data-seat][data-place=bottom]");
  if (opts.covered) {
    const box = document.querySelector("[data-handoff]");
    inView(box, "the hand-off");
    const button = box.querySelector("[data-action=reveal]");
    inView(button, "the hand-off's button");
    uncovered(button, "the hand-off's button");
    if (bottom?.dataset.seat !== String(opts.handoff)) {
      problems.push(`seat ${bottom?.dataset.seat} is at the bottom,`
        + ` not ${opts.handoff}, whose turn it is`);
    }
    return problems;
  }
  // The hand: every card wholly in view and uncovered, none too small to read or touch.
  const cards = [...document.querySelectorAll("[data-hand] [data-card]")];
  if (!cards.length) problems.push("no hand is shown");
  const edges = [[0.5, 0.5], [0.5, 0.04], [0.5, 0.96], [0.04, 0.5], [0.96, 0.5]];
  for (const card of cards) {
    inView(card, `the hand's ${card.dataset.card}`);
    uncovered(card, `the hand's ${card.dataset.card}`, edges);
    if (card.getBoundingClientRect().width < 44) {
      problems.push(`the hand's ${card.dataset.card} is under 44 px wide`);
    }
  }
  // The person's own seat, at the bottom, between the trick and the hand.
  if (bottom?.dataset.viewer !== "true") {
    problems.push(`seat ${bottom?.dataset.seat} at the bottom is not the hand shown`);
  }
  for (const [selector, what] of [[".suit-badge", "suit"], [".calypso", "calypso"],
      ["[data-score]", "points"], ["[data-turn-marker]", "turn marker"]]) {
    const el = bottom?.querySelector(selector);
    inView(el, `the person's ${what}`);
    uncovered(el, `the person's ${what}`);
  }
  const trick = document.querySelector("[data-trick]").getBoundingClientRect();
  const seat = bottom.getBoundingClientRect();
  const hand = document.querySelector("[data-hand]").getBoundingClientRect();
  if (!(seat.top >= trick.bottom - 1 && seat.bottom <= hand.top + 1)) {
    problems.push("the person's seat is not between the trick and the hand");
  }
  const title = document.querySelector("[data-hand-title]");
  inView(title, "the hand's title");
  uncovered(title, "the hand's title", [[0.5, 0.5], [0.3, 0.5], [0.7, 0.5]]);
  if (!/your turn/.test(title.textContent)) {
    problems.push(`the hand's title says "${title.textContent}"`);
  }
  if (opts.hint) {
    const notice = document.querySelector("[data-notice]");
    inView(notice, "the hint's reason");
    uncovered(notice, "the hint's reason");
    if (!notice.textContent.startsWith("Hint (")) {
      problems.push(`the notice says "${notice.textContent}"`);
    }
  }
  return problems;
}"""


shared, table = page_for_the_module("?seed=layout-2&level=random&speed=0",
                                    viewport={"width": 1366, "height": 768},
                                    accept_downloads=True)


def resize(page: Page, screen: str) -> None:
    width, height = SCREENS[screen]
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate("() => new Promise((done) => "
                  "requestAnimationFrame(() => requestAnimationFrame(done)))")


def show_hint(page: Page) -> None:
    """Ask for a hint (H) and wait for it."""
    page.keyboard.press("h")
    expect(page.locator("[data-notice]")).to_contain_text("Hint (")


def in_view_problems(page: Page, **opts: Any) -> list[str]:
    problems: list[str] = page.evaluate(VISIBLE_ON_TURN, opts)
    return problems


def deal(page: Page, seed: str, *, people: tuple[int, ...] = (2,)) -> None:
    """A new game through the New game dialog: random computer players at instant speed,
    people at the given seats."""
    page.evaluate("() => document.querySelectorAll('dialog[open]').forEach((d) => d.close())")
    page.get_by_role("button", name="New game").click()
    dialog = page.locator("[data-dialog=new_game]")
    expect(dialog).to_be_visible()
    dialog.get_by_label("Level", exact=True).select_option("random")
    for seat in range(4):
        dialog.locator(f"[data-seat-select='{seat}']").select_option(
            "person" if seat in people else "random")
    dialog.get_by_label("Speed").select_option("instant")
    dialog.get_by_label("Seed").fill(seed)
    dialog.get_by_role("button", name="Deal").click()
    expect(dialog).to_be_hidden()
    # Dealt once the engine holds the new match (with several people the page names no seed).
    while engine_request(page, "record")["result"]["settings"]["seed"] != seed:
        pass
    settle(page)


# -- the first visit ------------------------------------------------------------------------


def test_the_first_visit_offers_the_walkthrough_in_view_names_the_level_and_hides_no_card(
    table: Page, axe_script: str, screenshots: Shot,
) -> None:
    page = table
    for screen in ("phone-390x844", "laptop-1280x720"):
        resize(page, screen)
        offer = page.locator("[data-tour-offer]")
        expect(offer).to_be_visible()
        box = offer.bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= SCREENS[screen][1]
        # It says which level was dealt, from the engine's hello: here, "Random".
        expect(offer).to_contain_text("the Random level")
        # The cut waits in the deal's log: nothing covers the computers' first cards.
        expect(page.locator("[data-cut-banner]")).to_be_hidden()
        expect(page.locator("[data-log] [data-log-cut]")).to_have_count(1)
        screenshots(page, f"first-visit-{screen}")
        assert in_view_problems(page) == [], screen
    assert axe_problems(page, axe_script) == []
    # Offered once: playing a card puts it away, and a later visit does not offer it again.
    play_a_card(page)
    expect(page.locator("[data-tour-offer]")).to_be_hidden()
    assert json.loads(page.evaluate("localStorage.getItem('calypso.prefs.v1')"))["tourDone"]


def test_the_cut_shows_above_the_table_and_never_over_the_trick(table: Page) -> None:
    page = table
    resize(page, "phone-390x844")
    open_menu_item(page, "Show the cut")
    banner = page.locator("[data-cut-banner]")
    expect(banner).to_be_visible()
    cut, trick = banner.bounding_box(), page.locator("[data-trick]").bounding_box()
    assert cut and trick and cut["y"] + cut["height"] <= trick["y"]
    banner.get_by_role("button", name="Play").click()
    expect(banner).to_be_hidden()


# -- every screen ---------------------------------------------------------------------------


@pytest.mark.parametrize("screen", list(SCREENS))
def test_on_the_persons_turn_everything_they_need_is_in_view_without_scrolling(
    table: Page, screen: str, axe_script: str, screenshots: Shot,
) -> None:
    page = table
    resize(page, screen)
    if settle(page) != "ready":
        deal(page, f"layout-{screen}")
    show_hint(page)
    screenshots(page, f"turn-{screen}")
    assert in_view_problems(page, hint=True) == []
    assert axe_problems(page, axe_script) == []
    # The table stays right a card later, with the hint gone.
    play_a_card(page)
    if settle(page) == "ready":
        assert in_view_problems(page) == []


def test_on_a_large_screen_the_table_its_cards_and_its_words_grow_with_it(table: Page) -> None:
    page = table
    if settle(page) != "ready":
        deal(page, "layout-large")
    sizes = {}
    for screen in ("laptop-1366x768", "desktop-1920x1080", "desktop-2560x1440"):
        resize(page, screen)
        sizes[screen] = page.evaluate("""() => {
          const width = (selector) =>
            document.querySelector(selector).getBoundingClientRect().width;
          return [width("[data-table]"), width("[data-hand] [data-card]"), width("[data-slot]"),
                  width("[data-seat][data-place=bottom]"),
                  parseFloat(getComputedStyle(document.querySelector("[data-hand-title]")).fontSize)];
        }""")
    laptop = sizes["laptop-1366x768"]
    for screen, scale in (("desktop-1920x1080", 1.3), ("desktop-2560x1440", 1.7)):
        # The table fills the screen's width, and what is on it grows about as the screen.
        table_w, *rest = sizes[screen]
        assert table_w == SCREENS[screen][0], screen
        for what, (large, small) in zip(("hand card", "trick place", "own seat", "words"),
                                        zip(rest, laptop[1:], strict=True), strict=True):
            assert large >= small * scale, f"{screen}: the {what} is {large} px, {small} at 1366"


def test_a_whole_trick_shows_its_four_cards_and_who_led_it_on_a_phone(
    table: Page, screenshots: Shot,
) -> None:
    page = table
    resize(page, "phone-390x844")
    deal(page, "layout-trick")
    complete = page.locator("[data-trick][data-complete=true]")
    for _ in range(40):  # until the person wins a trick and leads: it stays in view
        if settle(page) == "ready" and complete.count():
            break
        play_a_card(page)
    expect(complete).to_have_count(1)
    screenshots(page, "trick-complete-phone-390x844")
    assert in_view_problems(page) == []
    expect(page.locator("[data-trick] [data-card]")).to_have_count(4)
    expect(page.locator("[data-slot][data-led=true] [data-slot-label]")).to_contain_text("led")
    winner = page.locator("[data-slot][data-winner=true] [data-slot-label]")
    expect(winner).to_contain_text("win")
    # Its star is drawn by the style sheet (the star sign is missing from some fonts).
    assert winner.evaluate("el => getComputedStyle(el, '::before').clipPath") != "none"


def test_a_long_seat_label_in_the_trick_takes_a_second_line_and_is_never_cut_on_a_phone(
    table: Page,
) -> None:
    page = table
    resize(page, "phone-390x844")
    if settle(page) != "ready":
        deal(page, "layout-labels")
    # The longest label the catalogs make for a computer's seat: Russian, "East won, led",
    # after the winner's drawn star.
    cut = page.evaluate("""(text) => [...document.querySelectorAll("[data-slot-label]")]
      .filter((label) => {
        label.closest("[data-slot]").dataset.winner = "true";
        label.textContent = text;
        return label.scrollWidth > label.clientWidth + 1;
      }).map((label) => label.closest("[data-slot]").dataset.slot)""", "Восток берёт · заход")
    assert cut == []
    assert in_view_problems(page) == []


def test_the_end_of_a_deal_is_summed_up_until_next_deal_and_the_log_follows_the_deal_played(
    table: Page, screenshots: Shot,
) -> None:
    page = table
    resize(page, "laptop-1280x720")
    deal(page, "layout-deal")  # East deals first: West leads deal 2, South plays fourth
    info = page.locator("[data-info]")
    while info.get_attribute("data-deal-number") == "1":
        play_a_card(page)
    # Deal 1 is over and a computer leads deal 2: the table waits for the person (the engine
    # has played that first card meanwhile: the page shows the table it last drew).
    assert settle(page) == "next_deal"
    view = page.evaluate("async () => (await import('./state.js')).app.view")
    summary = page.locator("[data-deal-summary]")
    log = view["log"]
    assert log["deal"] == 0 and len(log["tricks"]) == 13
    expect(summary).to_be_visible()
    expect(summary).to_contain_text("Deal 1 is over")
    for side in (0, 1):
        row = summary.locator(f"[data-summary-side='{side}']")
        expect(row.locator("[data-summary=tricks]")).to_have_text(
            str(log["summary"]["tricks"][side]))
        expect(row.locator("[data-summary=points]")).to_have_text(
            f"{log['summary']['points'][side]:,}")
    expect(page.locator("[data-log] [data-log-trick]")).to_have_count(13)
    # The log's column holds its tricks and the summary within its width: nothing cut off.
    assert page.locator("[data-log]").evaluate("el => el.scrollWidth <= el.clientWidth")
    # The review's offer shows too, above the table: it covers none of the hand.
    expect(page.locator("[data-review-offer]")).to_be_visible()
    expect(summary.get_by_role("button", name="Next deal")).to_be_focused()
    screenshots(page, "deal-over-laptop-1280x720")
    page.keyboard.press("Enter")
    # Taken before settling: until the key is taken the table still waits for it.
    expect(page.locator("[data-table]")).not_to_have_attribute("data-state", "next_deal")
    # The person's first turn in deal 2: the log is of deal 2, with the trick being played.
    assert settle(page) == "ready"
    view = engine_request(page, "view")["result"]
    assert (view["trick"]["index"], len(view["trick"]["cards"])) == (0, 3)
    assert view["log"]["deal"] == 1 and view["log"]["tricks"] == []
    expect(summary).to_be_hidden()
    expect(page.locator("[data-log]")).to_contain_text("Deal 2 of 4")
    expect(page.locator("[data-log] [data-log-trick]")).to_have_count(1)  # the trick in play
    show_hint(page)
    assert in_view_problems(page, hint=True) == []


def test_a_small_phone_keeps_the_table_within_its_width_and_scrolls_to_the_hand(
    table: Page, screenshots: Shot,
) -> None:
    """Below the sizes above (360x640), the page may scroll down, never sideways."""
    page = table
    page.set_viewport_size({"width": 360, "height": 640})
    if settle(page) != "ready":
        deal(page, "layout-small-phone")
    screenshots(page, "turn-small-phone-360x640")
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    for button in page.locator(".bar button:visible").all():
        box = button.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360, button.inner_text()
    last = page.locator("[data-hand] [data-card]").last
    last.scroll_into_view_if_needed()
    assert last.evaluate("""(el) => { const r = el.getBoundingClientRect();
        return el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)); }""")
    page.evaluate("() => scrollTo(0, 0)")


# -- several people at one device -----------------------------------------------------------


@pytest.mark.parametrize("screen", ["laptop-1366x768", "phone-390x844"])
def test_each_person_sees_their_own_seat_at_the_bottom_and_the_hand_off_in_view(
    table: Page, screen: str, axe_script: str, screenshots: Shot,
) -> None:
    page = table
    resize(page, screen)
    deal(page, f"layout-people-{screen}", people=(0, 2))
    seen: set[str] = set()
    for _ in range(30):
        if settle(page) == "handoff":
            # The table turns to the person the device goes to, before their hand is shown.
            seat = engine_request(page, "view")["result"]["handoff"]["seat"]
            expect(page.locator(f"[data-seat='{seat}']")).to_have_attribute("data-place", "bottom")
            if "handoff" not in seen:
                screenshots(page, f"handoff-{screen}")
            assert in_view_problems(page, covered=True, handoff=seat) == []
            if "handoff" not in seen:
                assert axe_problems(page, axe_script) == []
            seen.add("handoff")
            page.locator("[data-action=reveal]").click()
            continue
        viewer = page.locator("[data-seat][data-viewer=true]").get_attribute("data-seat")
        expect(page.locator(f"[data-seat='{viewer}']")).to_have_attribute("data-place", "bottom")
        if f"seat-{viewer}" not in seen:
            screenshots(page, f"people-seat{viewer}-{screen}")
        assert in_view_problems(page) == [], viewer
        seen.add(f"seat-{viewer}")
        if {"handoff", "seat-0", "seat-2"} <= seen:
            break
        play_a_card(page)
    assert {"handoff", "seat-0", "seat-2"} <= seen


# -- the loading screen, the dialogs, the score sheet and the replay ---------------------------


def test_the_loading_screen_has_its_main_landmark_and_no_serious_accessibility_problem(
    browser: Browser, server_url: str, axe_script: str, screenshots: Shot,
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844},
                                  service_workers="block")
    page = context.new_page()
    problems = watch(page, origin_of(server_url))
    held: list[Route] = []
    # The runtime never arrives: the page stays on its loading screen while it is checked.
    context.route("**/pyodide/**", lambda route: held.append(route))
    page.goto(server_url)
    expect(page.locator("[data-boot]")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("data-engine-state", "loading")
    expect(page.locator("main [data-boot]")).to_have_count(1)
    expect(page.locator("[data-engine-line]")).to_be_hidden()  # no "Engine" with no version
    screenshots(page, "loading-phone-390x844")
    assert axe_problems(page, axe_script) == []
    assert [p for p in problems if "pyodide" not in p] == []
    context.close()


def test_every_dialog_has_no_serious_accessibility_problem(
    table: Page, axe_script: str, screenshots: Shot,
) -> None:
    page = table
    resize(page, "laptop-1366x768")
    deal(page, "layout-dialogs")
    play_a_card(page)
    while not page.locator("[data-log] [data-log-trick]").count():
        play_a_card(page)

    def check(dialog: str) -> None:
        expect(page.locator(f"[data-dialog={dialog}]")).to_be_visible()
        screenshots(page, f"dialog-{dialog}")
        assert axe_problems(page, axe_script) == [], dialog
        page.keyboard.press("Escape")
        expect(page.locator(f"[data-dialog={dialog}]")).to_be_hidden()

    page.get_by_role("button", name="New game").click()
    # Each level says where it stands (weakest first), what it does and how long it thinks.
    levels = engine_request(page, "hello")["result"]["levels"]
    help_ = page.locator("[data-level-help]")
    expect(help_).to_contain_text(f"Random (level 1 of {len(levels)}, the weakest)")
    expect(help_).to_contain_text("Plays at once.")
    strongest = levels[-1]
    page.locator("[data-dialog=new_game]").get_by_label("Level", exact=True).select_option(
        strongest["key"])
    expect(help_).to_contain_text(
        f"{said(strongest['label'])} (level {len(levels)} of {len(levels)}, the strongest)")
    expect(help_).to_contain_text("Thinks up to")
    check("new_game")
    page.get_by_role("button", name="Menu").click()
    check("menu")
    open_menu_item(page, "Rules")
    expect(page.locator("[data-examples] [data-example]")).to_have_count(8)
    check("rules")
    for item, dialog in [("Settings", "settings"), ("Statistics", "stats"),
                         ("Saved games", "saves")]:
        open_menu_item(page, item)
        check(dialog)
    page.keyboard.press("l")
    check("last_trick")
    # The walkthrough's box, on the table.
    open_menu_item(page, "Walkthrough")
    expect(page.locator("[data-tour]")).to_be_visible()
    assert axe_problems(page, axe_script) == []
    page.keyboard.press("Escape")
    expect(page.locator("[data-tour]")).to_be_hidden()
    # The log and the memory aids: a drawer on a phone, opened from the bar.
    resize(page, "phone-390x844")
    side = page.locator("[data-side-panel]")
    expect(side).to_be_hidden()
    page.get_by_role("button", name="Log").click()
    expect(side).to_be_visible()
    expect(page.get_by_role("button", name="Log")).to_have_attribute("aria-expanded", "true")
    screenshots(page, "drawer-phone-390x844")
    assert axe_problems(page, axe_script) == []
    page.keyboard.press("Escape")
    expect(side).to_be_hidden()
    resize(page, "laptop-1366x768")
    expect(side).to_be_visible()  # a column where the screen is wide enough


def test_the_score_sheet_the_replay_and_the_review_have_no_serious_accessibility_problem(
    table: Page, axe_script: str, screenshots: Shot,
) -> None:
    page = table
    resize(page, "laptop-1366x768")
    nearly = random_game("layout-sheet", random.Random("layout-sheet"), 204)
    open_game_file(page, nearly, "nearly.json")  # a game in play goes on at the table
    replay = page.locator("[data-dialog=replay]")
    expect(page.locator("[data-notice]")).to_contain_text("goes on from where it was saved")
    while settle(page) != "over":
        play_a_card(page)
    sheet = page.locator("[data-dialog=score_sheet]")
    expect(sheet).to_be_visible()
    # A calypso count of none is said once: "0", not "0" over "0 calypsos".
    for cell in sheet.locator("[data-col=calypsos]").all():
        if cell.get_attribute("data-points") == "0":
            expect(cell.locator(".detail")).to_have_count(0)
    screenshots(page, "score-sheet")
    assert axe_problems(page, axe_script) == []
    sheet.get_by_role("button", name="Replay this game").click()
    expect(replay.locator("[data-replay-at]")).to_have_attribute("data-replay-at", "0")
    page.keyboard.press("ArrowRight")
    expect(replay.locator("[data-replay-at]")).to_have_attribute("data-replay-at", "1")
    # The replay says who led the trick.
    led = replay.locator(".compass-slot[data-led=true] .compass-label")
    expect(led).to_have_count(1)
    expect(led).to_contain_text("led")
    screenshots(page, "replay")
    assert axe_problems(page, axe_script) == []
    # The review of the game in the replay (a small budget: the dialog, not the bots).
    budgets(page, review=60)
    replay.get_by_role("button", name="Review").click()
    review = page.locator("[data-dialog=review]")
    expect(review).to_have_attribute("data-review-state", "done", timeout=SLOW)
    screenshots(page, "review")
    assert axe_problems(page, axe_script) == []
    review.get_by_role("button", name="Close").click()
    expect(review).to_be_hidden()
    page.evaluate("() => localStorage.removeItem('calypso.dev.v1')")


def test_a_two_game_match_sheet_opens_at_its_top(
    table: Page, server_url: str, screenshots: Shot,
) -> None:
    page = table
    resize(page, "laptop-1280x720")
    # A two-game match three cards before the end of its first game, put in this tab's save.
    from calypso_core import table as engine_table
    engine_table.reset()
    view = ok("new_game", seed="layout-match", level="random", games=2)
    rng = random.Random(3)
    while not (view["plays"] >= 204 and view["status"] == "your_turn"):
        view = (ok("play", card=rng.choice(view["legal"])) if view["status"] == "your_turn"
                else ok("step"))
        assert view["status"] != "game_over"
    game = ok("record")
    engine_table.reset()
    page.evaluate("""(game) => {
        sessionStorage.setItem("calypso.tab.v1", JSON.stringify({ id: "layoutmatch" }));
        localStorage.setItem("calypso.save.v1.layoutmatch", JSON.stringify({
            app: "calypso", schema: 1, game, saved: Date.now(), over: false, link: null }));
    }""", game)
    page.goto(server_url)
    page.wait_for_selector("html[data-engine-state=ready]", state="attached", timeout=TIMEOUT_MS)
    while settle(page) != "over":
        play_a_card(page)
    sheet = page.locator("[data-dialog=score_sheet]")
    expect(sheet).to_be_visible()
    expect(sheet.locator("[data-match]")).to_be_visible()
    expect(sheet.locator("#sheet-title")).to_be_focused()
    screenshots(page, "match-sheet-laptop-1280x720")
    assert sheet.evaluate("el => el.scrollTop") == 0
    assert sheet.evaluate("el => el.scrollHeight > el.clientHeight"), "the sheet fits: no test"
    expect(sheet.get_by_role("button", name="Next game")).to_be_in_viewport()
    sheet.get_by_role("button", name="Next game").click()
    settle(page)


# -- colour blindness -------------------------------------------------------------------------

# Machado, Oliveira & Fernandes (2009), full severity, on linear RGB.
SIMULATIONS = {
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
}


def simulated_lab(rgb: tuple[int, ...], kind: str) -> tuple[float, float, float]:
    """A colour as someone with ``kind`` sees it, in CIELAB."""
    def linear(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    lin = [linear(c) for c in rgb[:3]]
    r, g, b = (min(1.0, max(0.0, sum(m * c for m, c in zip(row, lin, strict=True))))
               for row in SIMULATIONS[kind])
    x, y, z = (0.4124 * r + 0.3576 * g + 0.1805 * b, 0.2126 * r + 0.7152 * g + 0.0722 * b,
               0.0193 * r + 0.1192 * g + 0.9505 * b)

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    fx, fy, fz = f(x / 0.9505), f(y), f(z / 1.089)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def difference(a: tuple[int, ...], b: tuple[int, ...], kind: str) -> float:
    """How far apart two colours look to someone with ``kind`` (CIE76 delta E)."""
    la, lb = simulated_lab(a, kind), simulated_lab(b, kind)
    return float(sum((p - q) ** 2 for p, q in zip(la, lb, strict=True)) ** 0.5)


def suit_colours(page: Page) -> dict[str, tuple[int, ...]]:
    colours: dict[str, list[int]] = page.evaluate("""() => Object.fromEntries(["S", "H", "D", "C"]
        .map((s) => [s, document.querySelector(`.card[data-suit=${s}]`)])
        .filter(([, el]) => el)
        .map(([s, el]) => [s, getComputedStyle(el).color.match(/\\d+/g).slice(0, 3)
            .map(Number)]))""")
    return {suit: tuple(rgb) for suit, rgb in colours.items()}


@pytest.mark.parametrize("kind", list(SIMULATIONS))
def test_suits_sides_and_playable_cards_stay_apart_under_colour_blindness(
    table: Page, kind: str, screenshots: Shot,
) -> None:
    page = table
    resize(page, "laptop-1366x768")
    if settle(page) != "ready":
        deal(page, f"layout-colour-{kind}")
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setEmulatedVisionDeficiency", {"type": kind})
    try:
        screenshots(page, f"colour-{kind}-two-colours")
        # Playable cards are told by their place, not their colour: raised above the rest.
        tops = page.locator("[data-hand] [data-card]").evaluate_all(
            "els => els.map(e => [e.disabled, e.getBoundingClientRect().top])")
        raised = [top for disabled, top in tops if not disabled]
        lowered = [top for disabled, top in tops if disabled]
        if raised and lowered:
            assert max(raised) <= min(lowered) - 8
        # Sides are named in words: the score and each seat's role.
        expect(page.locator("[data-scores] [data-side='0'] .score-name")).not_to_be_empty()
        expect(page.locator("[data-seat] .seat-role")).to_contain_text(
            ["Partner", "Opponent", "Opponent"])
        # Two colours: red and black apart; four colours: no two suits alike.
        open_menu_item(page, "Rules")
        expect(page.locator("[data-examples] [data-example]")).to_have_count(8)
        colours = suit_colours(page)
        assert difference(colours["H"], colours["S"], kind) >= 20
        page.keyboard.press("Escape")
        open_menu_item(page, "Settings")
        page.locator("[data-dialog=settings]").get_by_label("Suit colours").select_option("four")
        page.keyboard.press("Escape")
        open_menu_item(page, "Rules")
        colours = suit_colours(page)
        assert len(colours) == 4
        for a, b in itertools.combinations(sorted(colours), 2):
            assert difference(colours[a], colours[b], kind) >= 20, (a, b, colours)
        page.keyboard.press("Escape")
        screenshots(page, f"colour-{kind}-four-colours")
    finally:
        cdp.send("Emulation.setEmulatedVisionDeficiency", {"type": "none"})
        open_menu_item(page, "Settings")
        page.locator("[data-dialog=settings]").get_by_label("Suit colours").select_option("two")
        page.keyboard.press("Escape")

