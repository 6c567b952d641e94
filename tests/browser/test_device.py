"""At one device (issue 42): the page's words when something is refused, a deal's end that
waits for the person at every speed, the keyboard after a dialog, the keys line, text that
fits a small phone in either language, and one name for the speed of play.

The tests share one booted page and run in order.
"""

from __future__ import annotations

import datetime
import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from protocol_calls import call, said

from .table import (
    NEXT_DEAL,
    SETTLED,
    TIMEOUT_MS,
    engine_request,
    next_deal,
    play_a_card,
    settle,
)
from .watching import booted_page, origin_of, page_for_the_module, settled, watch

pytestmark = pytest.mark.browser

MESSAGES = Path(__file__).resolve().parents[2] / "calypso_core" / "messages"
CATALOGS = {lang: json.loads((MESSAGES / f"{lang}.json").read_text(encoding="utf-8"))
            for lang in ("en", "ru")}
# A sample value for each parameter of the engine's refusals, by its name's last word.
SAMPLES = {"seat": 1, "card": "QH", "suit": "H", "date": "2999-01-01", "name": "Ana",
           "count": 3, "size": 70_000, "limit": 64_000, "rank": "Q", "level": "club"}
SENTENCE_END = re.compile(r"[.!?…»\"]$")
TODAY = datetime.datetime.now(datetime.UTC).date().isoformat()  # the page's date here
DAILY_SEED = f"daily:{TODAY}"

shared, table = page_for_the_module("?seed=device-1&level=random&speed=0",
                                    viewport={"width": 1366, "height": 768})


def sample_params(template: str) -> dict[str, Any]:
    names = set(re.findall(r"\{(\w+)", template))
    return {name: SAMPLES.get(name.rsplit("_", 1)[-1], "x") for name in names}


def speak(page: Page, lang: str) -> None:
    page.evaluate("async (lang) => (await import('./i18n.js')).setLanguage(lang)", lang)
    expect(page.locator("html")).to_have_attribute("lang", lang)


# -- the words of a refusal -------------------------------------------------------------------


def test_every_refusal_is_said_in_whole_sentences_and_never_by_its_code(table: Page) -> None:
    page = table
    codes = sorted(key.removeprefix("error.") for key in CATALOGS["en"] if key.startswith("error."))
    assert len(codes) > 40
    for lang in ("en", "ru"):
        speak(page, lang)
        refusals = [{"code": code, "message": f"the engine refused ({code})",
                     "text": {"id": f"error.{code}",
                              "params": sample_params(CATALOGS["en"][f"error.{code}"])}}
                    for code in codes]
        # As the page words them: after what failed ("Could not deal."), alone where the
        # refusal says what it refused, and a failure the engine did not word (a crash).
        notices: list[list[str]] = page.evaluate("""async (refusals) => {
            const { problemNotice } = await import("./flow.js");
            const { msg, say } = await import("./i18n.js");
            const what = msg("problem.deal");
            return refusals.map((refusal) => [
                say(problemNotice(what, refusal)),
                say(problemNotice(what, refusal, null)),
                // Only a code without parameters comes so: the worker's own failures.
                refusal.text.params && Object.keys(refusal.text.params).length ? null
                  : say(problemNotice(what, { code: refusal.code, message: refusal.message })),
            ].filter((text) => text !== null));
        }""", refusals)
        for code, texts in zip(codes, notices, strict=True):
            for text in texts:
                where = f"{lang} {code}: {text!r}"
                assert f"({code})" not in text and ("_" not in code or code not in text), where
                first = re.search(r"\w", text)
                assert SENTENCE_END.search(text) and first and first.group().isupper(), where
                assert "  " not in text and "{" not in text and ".." not in text, where
                sentences = [s for s in re.split(r"(?<=[.!?])\s+", text) if s]
                assert len(sentences) == len(set(sentences)), where
            # Alone, the refusal is one sentence of the engine's.
            assert texts[1] == said({"id": f"error.{code}", "params": refusals[codes.index(
                code)]["text"]["params"]}, lang)
    speak(page, "en")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_day_not_yet_come_is_refused_in_one_clean_sentence(
    browser: Browser, server_url: str, lang: str,
) -> None:
    tomorrow = (datetime.date.today() + datetime.timedelta(days=1)).isoformat()
    for query, kind, payload in [
        ("?daily=2999-01-01", "daily", {"date": "2999-01-01"}),
        (f"?seed=daily:{tomorrow}", "new_game", {"seed": f"daily:{tomorrow}"}),
    ]:
        with booted_page(browser, server_url, f"{query}&speed=0&lang={lang}", TIMEOUT_MS) \
                as (page, problems), settled(page, problems, SETTLED, TIMEOUT_MS):
            today = page.evaluate("async () => (await import('./engine-client.js')).localToday()")
            refusal = call(kind, today=today, **payload)["error"]
            # The engine's own sentence, alone: no code, nothing said twice.
            expect(page.locator("[data-notice]")).to_have_text(said(refusal["text"], lang))
            assert refusal["code"] not in page.locator("[data-notice]").inner_text()


# -- the table ----------------------------------------------------------------------------------


def deal(page: Page, seed: str, *, speed: str = "instant", people: tuple[int, ...] = (2,)) -> None:
    """A new game through the New game dialog: random computer players, people at ``people``."""
    page.locator(".bar [data-action=new_game]").click()  # in any language
    dialog = page.locator("[data-dialog=new_game]")
    dialog.locator("[name=level]").select_option("random")
    for seat in range(4):
        dialog.locator(f"[data-seat-select='{seat}']").select_option(
            "person" if seat in people else "random")
    dialog.locator("[name=speed]").select_option(speed)
    dialog.locator("[name=seed]").fill(seed)
    dialog.locator("[data-deal]").click()
    expect(dialog).to_be_hidden()
    while engine_request(page, "record")["result"]["settings"]["seed"] != seed:
        pass  # dealt once the engine holds the new match
    settle(page)


@pytest.mark.parametrize("speed", ["instant", "fast"])
def test_at_every_speed_a_deals_end_waits_for_next_deal_and_the_log_follows_the_deal(
    table: Page, speed: str,
) -> None:
    page = table
    deal(page, "layout-deal", speed=speed)  # a computer (West) leads deal 2
    hand = page.locator("[data-hand] [data-card]")
    while settle(page) != "next_deal":
        if hand.count() > 1:
            play_a_card(page)
        else:  # the deal's last card: the page plays it by itself after a card's pause
            expect(page.locator("[data-table]")).to_have_attribute("data-state", "next_deal",
                                                                   timeout=TIMEOUT_MS)
    # The engine has played the first card of deal 2 (asked for ahead, as always); once its
    # reply is in and drawn twice over, the table still shows deal 1's end: it waits.
    assert engine_request(page, "view")["result"]["plays"] == 53
    page.evaluate("() => new Promise((done) => "
                  "requestAnimationFrame(() => requestAnimationFrame(done)))")
    table_ = page.locator("[data-table]")
    expect(table_).to_have_attribute("data-state", "next_deal")
    expect(table_).to_have_attribute("data-plays", "52")
    summary = page.locator("[data-deal-summary]")
    expect(summary).to_contain_text("Deal 1 is over")
    expect(page.locator("[data-status]")).to_contain_text("Deal 1 is over: Next deal goes on.")
    expect(page.locator("[data-log] [data-log-trick]")).to_have_count(13)
    page.locator(NEXT_DEAL).click()
    # Taken before settling: until the click is taken the table still waits for it.
    expect(table_).not_to_have_attribute("data-state", "next_deal")
    assert settle(page) == "ready"
    expect(summary).to_be_hidden()
    # The log is of the deal being played, as the bar says.
    expect(page.locator("[data-info]")).to_have_text(re.compile(r"^Deal 2 of 4 · Trick 1 of 13"))
    expect(page.locator("[data-log]")).to_contain_text("Deal 2 of 4")
    expect(page.locator("[data-log] .log-why")).to_have_count(0)  # no trick of deal 1


HAND_FOCUSED = "[data-hand] [data-card]:focus"
FOCUSED_CARD = ("() => document.activeElement?.closest('[data-hand]')"
                " ? document.activeElement.dataset.card : null")


def test_closing_a_dialog_gives_the_keyboard_back_to_the_hand_or_where_it_was(
    table: Page,
) -> None:
    page = table
    deal(page, "device-focus")
    while not page.locator("[data-log] [data-log-trick] .log-why").count():
        play_a_card(page)  # until a trick is over: the last trick (L) has something to show
    assert settle(page) == "ready"
    # Opened with the mouse from the bar: the keyboard goes to the hand, not back to Menu.
    for item, dialog in [("Settings", "settings"), ("Statistics", "stats"), ("Rules", "rules"),
                         ("Saved games", "saves"), ("Close", None)]:
        page.get_by_role("button", name="Menu").click()
        page.locator("[data-dialog=menu]").get_by_role("button", name=item).click()
        if dialog:
            expect(page.locator(f"[data-dialog={dialog}]")).to_be_visible()
            page.keyboard.press("Escape")
        expect(page.locator("dialog[open]")).to_have_count(0)
        expect(page.locator(HAND_FOCUSED), item).to_have_count(1)
    # The arrows go along the hand from there.
    first = page.evaluate(FOCUSED_CARD)
    page.keyboard.press("End")
    assert page.evaluate(FOCUSED_CARD) not in (None, first) or page.locator(
        "[data-hand] [data-card]:not(:disabled)").count() == 1
    # From a card, L and Escape: back to that very card, and Enter plays it (no menu opens).
    card = page.evaluate(FOCUSED_CARD)
    page.keyboard.press("l")
    expect(page.locator("[data-dialog=last_trick]")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator(f"[data-hand] [data-card='{card}']:focus")).to_have_count(1)
    before = page.locator("[data-table]").get_attribute("data-plays")
    page.keyboard.press("Enter")
    expect(page.locator("[data-table]")).not_to_have_attribute("data-plays", before or "")
    expect(page.locator("dialog[open]")).to_have_count(0)


def test_the_keys_line_names_only_keys_that_work(table: Page) -> None:
    page = table
    keys = page.locator("[data-foot-keys]")
    deal(page, "device-keys")
    expect(keys).to_have_text("Keys: ← → choose a card, Enter plays it · H hint · U undo · "
                              "L last trick.")
    # Two people at the device: undo is off, and U is not named.
    deal(page, "device-keys-2", people=(0, 2))
    expect(keys).to_have_text("Keys: ← → choose a card, Enter plays it · H hint · L last trick.")
    if settle(page) == "handoff":
        page.locator("[data-action=reveal]").click()
    play_a_card(page)
    before = page.locator("[data-table]").get_attribute("data-plays")
    page.keyboard.press("u")  # does nothing: none was named
    assert engine_request(page, "view")["result"]["plays"] == int(before or 0)


def test_one_name_for_the_speed_of_play_and_no_complete_calypso_in_progress() -> None:
    for lang, words in CATALOGS.items():
        # The New game dialog and the Settings name the one setting with one key.
        assert "settings.speed" not in words and words["form.speed"], lang
    # The score sheet's calypso in progress is called as the table calls it (the calypso
    # being collected), not a word read as "assembled".
    ru = CATALOGS["ru"]
    assert ru["sheet.col_in_progress"].lower() in ru["seat.calypso"].lower()


# Every visible button and tag of the page whose text does not fit its box, or which reaches
# past the screen's sides; and the tag a hinted card wears, wider than the card.
CUT_TEXT = """() => {
  const cut = [];
  const what = (el) => `${el.tagName.toLowerCase()}.${el.className}`
    + ` "${el.textContent.trim().slice(0, 30)}"`;
  // Shown: not hidden, and not wholly off the screen (the side panel's closed drawer).
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    return el.checkVisibility() && r.width > 0 && r.right > 0 && r.left < innerWidth;
  };
  for (const el of document.querySelectorAll(
      "button, .btn, .tag, .suit-badge, .score-pill, .slot-label, .save-tag, .seat-role, .stat")) {
    if (!shown(el)) continue;
    const r = el.getBoundingClientRect();
    if (el.scrollWidth > el.clientWidth + 1) cut.push(`${what(el)} overflows its box`);
    if (r.left < -0.5 || r.right > innerWidth + 0.5) cut.push(`${what(el)} reaches off the screen`);
  }
  for (const card of document.querySelectorAll("[data-hand] [data-card][data-hint]")) {
    const tag = parseFloat(getComputedStyle(card, "::after").width);
    if (tag > card.getBoundingClientRect().width) cut.push(`the hint tag is wider than its card`);
  }
  return cut;
}"""


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_no_text_is_cut_on_a_390_px_phone(table: Page, lang: str) -> None:
    page = table
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        speak(page, lang)
        deal(page, f"device-phone-{lang}")
        while not page.locator("[data-log] [data-log-trick] .log-why").count():
            play_a_card(page)  # a trick over: the last trick has one to show
        assert settle(page) == "ready"
        page.keyboard.press("h")
        expect(page.locator("[data-hand] [data-card][data-hint]")).to_have_count(1)
        assert page.evaluate(CUT_TEXT) == []
        for dialog in ("menu", "new_game", "last_trick"):
            page.locator(f".bar [data-action={dialog}]").click()
            expect(page.locator(f"[data-dialog={dialog}]")).to_be_visible()
            assert page.evaluate(CUT_TEXT) == [], dialog
            page.keyboard.press("Escape")
        page.locator(".bar [data-action=menu]").click()
        page.locator("[data-dialog=menu] [data-action=settings]").click()
        assert page.evaluate(CUT_TEXT) == [], "settings"
        page.keyboard.press("Escape")
        while settle(page) != "next_deal":
            play_a_card(page)
        assert page.evaluate(CUT_TEXT) == [], "a deal's end"
        next_deal(page)
    finally:
        speak(page, "en")
        page.set_viewport_size({"width": 1366, "height": 768})


# -- one day's cards, one attempt at a time -------------------------------------------------


def daily_entry(page: Page, date: str) -> Any:
    return page.evaluate("async (date) => (await import('./stats.js')).dailyEntry(date)", date)


def test_a_days_kept_attempt_is_played_in_one_tab_at_a_time_and_practised_once_given_up(
    browser: Browser, server_url: str,
) -> None:
    context = browser.new_context(viewport={"width": 1366, "height": 768},
                                  reduced_motion="reduce", accept_downloads=True)
    try:
        first = context.new_page()
        problems = [watch(first, origin_of(server_url))]
        first.goto(f"{server_url}?daily={TODAY}&speed=0")
        first.wait_for_selector("html[data-engine-state=ready]", state="attached",
                                timeout=TIMEOUT_MS)
        play_a_card(first)
        kept = engine_request(first, "record")["result"]
        assert kept["settings"]["straight"] is True and kept["settings"]["seed"] == DAILY_SEED
        with first.expect_download() as download:
            first.locator(".bar [data-action=menu]").click()
            first.locator("[data-dialog=menu] [data-action=export]").click()
        game_file = download.value.path()

        # The same link in a second tab: no practice of the day, but an offer to play it here.
        second = context.new_page()
        problems.append(watch(second, origin_of(server_url)))
        second.goto(f"{server_url}?daily={TODAY}&speed=0")
        second.wait_for_selector("html[data-engine-state=ready]", state="attached",
                                 timeout=TIMEOUT_MS)
        offer = second.locator("[data-dialog=daily_elsewhere]")
        expect(offer).to_be_visible()
        expect(offer).to_contain_text("is open in another tab")
        assert engine_request(second, "record")["result"]["settings"]["seed"] != DAILY_SEED
        offer.get_by_role("button", name="Not now").click()
        # Nor from the Menu, nor from the kept attempt's own game file.
        second.locator(".bar [data-action=menu]").click()
        second.locator("[data-dialog=menu] [data-action=daily]").click()
        expect(offer).to_be_visible()
        offer.get_by_role("button", name="Not now").click()
        second.locator("[data-import-file]").set_input_files(game_file)
        expect(second.locator("[data-notice]")).to_contain_text(
            "whose kept attempt is not finished")
        assert engine_request(second, "record")["result"]["settings"]["seed"] != DAILY_SEED

        # Taken over: the second tab plays it on, straight, where the first left it.
        second.locator(".bar [data-action=menu]").click()
        second.locator("[data-dialog=menu] [data-action=daily]").click()
        offer.get_by_role("button", name="Play it here").click()
        expect(second.locator("[data-table]")).to_have_attribute(
            "data-plays", str(len(kept["record"]["plays"])))
        assert engine_request(second, "record")["result"]["settings"]["straight"] is True
        expect(second.locator(".bar [data-action=hint]")).to_be_hidden()
        # The first tab plays it no more: it comes back with another game and says why.
        expect(first.locator("[data-notice]")).to_contain_text("Your game went on in another tab",
                                                               timeout=TIMEOUT_MS)
        assert engine_request(first, "record")["result"]["settings"]["seed"] != DAILY_SEED

        # Given up (asked twice): the day is played with no result, and practice is dealt.
        settle(second)
        second.locator(".bar [data-action=menu]").click()
        give_up = second.locator("[data-dialog=menu] [data-action=give_up]")
        expect(give_up).to_have_text("Give up today's attempt")
        give_up.click()
        give_up.click()
        expect(second.locator("[data-notice]")).to_contain_text("you gave up your kept attempt")
        practice = engine_request(second, "record")["result"]["settings"]
        assert practice["seed"] == DAILY_SEED and "straight" not in practice
        entry = daily_entry(second, TODAY)
        assert entry["you"] is None and entry["given_up"] is True
        # Now the first tab may practise too.
        first.locator(".bar [data-action=menu]").click()
        first.locator("[data-dialog=menu] [data-action=daily]").click()
        expect(first.locator("[data-notice]")).to_contain_text("practice, with hints and undo")
        assert [p for seen in problems for p in seen] == []
    finally:
        context.close()
