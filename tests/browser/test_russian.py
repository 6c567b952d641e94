"""The page in Russian: a whole game played by card buttons named in Russian, every dialog
opened, and no English word of the catalog left on the page; the language chosen by the URL
or the browser, and switched in the settings without losing the game.

Words are looked up in the catalogs (calypso_core/messages/), so the test follows the
translation; what it checks is that the page shows the Russian ones and no English ones.
"""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Browser, Page, Route, expect
from protocol_calls import ok

from calypso_core import Card
from calypso_core.messages import catalog, message, render

from .table import (
    PLAYABLE,
    TIMEOUT_MS,
    hand,
    open_game_file,
    play_a_card,
    plays,
    random_game,
    settle,
)
from .watching import page_for_the_module

pytestmark = pytest.mark.browser

RU = catalog("ru")
RUSSIAN_CARD_NAMES = {render(message("card.name", rank=str(c)[0], suit=str(c)[1]), "ru")
                      for c in map(Card, range(52))}


def english_words() -> set[str]:
    """Words of the English catalog that the Russian one never uses: any of them on the page
    is a word left untranslated. (Card codes such as QH, typed in both, are not words.)"""

    def words(lang: str) -> set[str]:
        found: set[str] = set()
        for value in catalog(lang).values():
            texts = value.values() if isinstance(value, dict) else [value]
            for text in texts:
                found |= {w.lower() for w in re.findall(r"[A-Za-z]{2,}", text)}
        return found

    return {w for w in words("en") - words("ru") if not re.fullmatch(r"[2-9tjqka][shdc]", w)}


ENGLISH = english_words()
KEYS = set(catalog("en"))
NAMESPACES = {key.split(".")[0] for key in KEYS}


def untranslated(page: Page) -> list[str]:
    """English catalog words in the page's visible text, in the words its style sheet draws and
    in its accessible names."""
    text: str = page.evaluate("""() => {
        const named = [...document.querySelectorAll("[aria-label], [title], [placeholder]")]
            .filter((el) => el.checkVisibility())
            .map((el) => [el.getAttribute("aria-label"), el.getAttribute("title"),
                          el.getAttribute("placeholder")].filter(Boolean).join(" "));
        // Words the style sheet draws (badges) are visible too.
        const drawn = [...document.querySelectorAll("body *")].filter((el) => el.checkVisibility())
            .flatMap((el) => ["::before", "::after"].map((at) => getComputedStyle(el, at).content))
            .filter((content) => content.startsWith('"'));
        return [document.body.innerText, document.title, ...named, ...drawn].join("\\n");
    }""")
    english = {w for w in re.findall(r"[A-Za-z]{2,}", text) if w.lower() in ENGLISH}
    # A message that failed to render shows its id ("rank.Q") or a JavaScript non-value.
    broken = {w for w in re.findall(r"\b(?:[a-z_]+\.[A-Za-z0-9_]+|undefined|NaN|null)\b", text)
              if w in KEYS or w.split(".")[0] in NAMESPACES or "." not in w}
    return sorted(english | broken)


shared, table = page_for_the_module("?lang=ru&seed=ru-1&level=random&speed=0",
                                    viewport={"width": 1366, "height": 900})


def from_menu(page: Page, key: str) -> None:
    page.get_by_role("button", name=RU["bar.menu"], exact=True).click()
    page.locator("[data-dialog=menu]").get_by_role("button", name=RU[key], exact=True).click()


def close(page: Page, dialog: str) -> None:
    box = page.locator(f"[data-dialog={dialog}]")
    box.get_by_role("button", name=RU["dialog.close"], exact=True).click()
    expect(box).to_be_hidden()


def test_a_whole_game_in_russian_by_russian_named_cards_with_every_dialog(table: Page) -> None:
    page = table
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    assert page.title() == RU["app.title"]
    assert page.locator("link[rel=manifest]").get_attribute("href") == "manifest.ru.webmanifest"
    # The review and the master in your seat at test budgets (web/dev.js): seconds, not minutes.
    page.evaluate("""() => localStorage.setItem("calypso.dev.v1",
        JSON.stringify({ review_budget: 60, master_iterations: 3 }))""")
    seen: dict[str, list[str]] = {"table": untranslated(page)}
    played = 0
    while (state := settle(page)) != "over":
        if state == "next_deal":  # a deal's end waits for the person, in their words
            seen["deal end"] = untranslated(page)
            page.get_by_role("button", name=RU["table.next_deal"], exact=True).click()
            expect(page.locator("[data-table]")).not_to_have_attribute("data-state", "next_deal")
            continue
        # A person who reads Russian picks a card by its Russian name, as a screen reader says
        # it (the button is named by its text: the name, for assistive technology only).
        name = page.locator(PLAYABLE).first.locator(".sr-only").text_content() or ""
        assert name in RUSSIAN_CARD_NAMES, name
        before = plays(page)
        page.locator("[data-hand]").get_by_role("button", name=name, exact=True).first.click()
        expect(page.locator("[data-table]")).not_to_have_attribute("data-plays", str(before),
                                                                   timeout=TIMEOUT_MS)
        played += 1
        seen["table"] += untranslated(page)  # the log says why each trick was won
        if played == 20:
            page.get_by_role("button", name=RU["bar.last_trick"], exact=True).click()
            expect(page.locator("[data-dialog=last_trick]")).to_be_visible()
            seen["last trick"] = untranslated(page)
            close(page, "last_trick")
    # The last card of each of the four deals plays itself (web/flow.js: forced cards).
    assert played == 52 - 4 and plays(page) == 208
    sheet = page.locator("[data-dialog=score_sheet]")
    expect(sheet).to_be_visible()
    # The legend's numbers are numbers (a parameter named "card" was once taken for a card).
    scoring = ok("hello")["scoring"]
    first, second, rest = scoring["calypsos"][:3]
    expect(sheet.locator(".sheet-legend")).to_have_text(render(message(
        "sheet.legend", first=first, second=second, rest=rest,
        card_points=scoring["calypso_card"], pile=scoring["pile_card"]), "ru"))
    master = sheet.locator("[data-sheet-master]")
    expect(master).to_have_attribute("data-master", "done", timeout=TIMEOUT_MS)
    seen["score sheet"] = untranslated(page)
    sheet.get_by_role("button", name=RU["sheet.review"], exact=True).click()
    review = page.locator("[data-dialog=review]")
    expect(review).to_have_attribute("data-review-state", "done", timeout=TIMEOUT_MS)
    seen["review"] = untranslated(page)
    tries = review.get_by_role("button", name=RU["review.try_again"], exact=True)
    if tries.count():
        tries.first.click()
        review.locator("[data-try-hand] [data-card]:not([disabled])").first.click()
        expect(review.locator("[data-try-cost]")).to_be_visible()
        seen["try again"] = untranslated(page)
    close(page, "review")
    page.get_by_role("button", name=RU["bar.score_sheet"], exact=True).click()
    expect(sheet).to_be_visible()
    sheet.get_by_role("button", name=RU["sheet.replay"], exact=True).click()
    expect(page.locator("[data-dialog=replay]")).to_be_visible()
    page.locator("[data-dialog=replay]").get_by_role(
        "button", name=RU["replay.next"], exact=True).click()
    seen["replay"] = untranslated(page)
    close(page, "replay")
    for key, dialog in [("menu.rules", "rules"), ("menu.stats", "stats"),
                        ("menu.settings", "settings"), ("menu.saves", "saves")]:
        from_menu(page, key)
        expect(page.locator(f"[data-dialog={dialog}]")).to_be_visible()
        seen[dialog] = untranslated(page)
        page.keyboard.press("Escape")
        expect(page.locator(f"[data-dialog={dialog}]")).to_be_hidden()
    page.get_by_role("button", name=RU["bar.menu"], exact=True).click()
    seen["menu"] = untranslated(page)
    page.keyboard.press("Escape")
    page.get_by_role("button", name=RU["bar.new_game"], exact=True).click()
    expect(page.locator("[data-dialog=new_game]")).to_be_visible()
    seen["new game"] = untranslated(page)
    page.keyboard.press("Escape")
    from_menu(page, "menu.show_cut")
    expect(page.locator("[data-cut-banner]")).to_be_visible()
    seen["cut"] = untranslated(page)
    page.locator("[data-cut-banner]").get_by_role("button", name=RU["cut.play"],
                                                  exact=True).click()
    from_menu(page, "menu.tour")
    tour = page.locator("[data-tour]")
    for step in range(5):
        expect(tour).to_be_visible()
        seen[f"walkthrough {step + 1}"] = untranslated(page)
        last = step == 4
        tour.get_by_role("button", name=RU["tour.done" if last else "tour.next"],
                         exact=True).click()
    expect(tour).to_be_hidden()
    assert {where: words for where, words in seen.items() if words} == {}


def test_the_rules_dialog_shows_the_russian_rules_and_worked_examples(table: Page) -> None:
    page = table
    from_menu(page, "menu.rules")
    rules = page.locator("[data-dialog=rules]")
    expect(rules.locator("[data-rules-from][lang=ru]")).to_be_visible()
    expect(rules.locator("[data-rules-from][lang=en]")).to_be_hidden()
    examples = rules.locator("[data-example]")
    expect(examples).to_have_count(8)
    # The second example: East trumps in with the 3♣ over North's trump lead of the 6♠.
    expect(examples.nth(1)).to_contain_text(
        render(message("trick.trump_in_beats_lead", seat=1, card="3C"), "ru"))
    expect(examples.nth(1).get_by_role("img", name="Восток (трефы): Тройка треф, берёт взятку"))\
        .to_be_visible()
    page.keyboard.press("Escape")
    expect(rules).to_be_hidden()


def test_switching_language_in_the_settings_keeps_the_game(table: Page) -> None:
    page = table
    page.get_by_role("button", name=RU["bar.new_game"], exact=True).click()
    dialog = page.locator("[data-dialog=new_game]")
    dialog.get_by_role("button", name=RU["form.deal"], exact=True).click()
    settle(page)
    for _ in range(3):
        play_a_card(page)
    before, cards = plays(page), hand(page)
    from_menu(page, "menu.settings")
    settings = page.locator("[data-dialog=settings]")
    settings.get_by_label(RU["settings.language"]).select_option("en")
    try:
        expect(page.locator("html")).to_have_attribute("lang", "en")
        expect(settings.get_by_label("Language")).to_have_value("en")
        expect(page).to_have_title(catalog("en")["app.title"])
        # The same cards, drawn again (at the next frame) with English words: "Queen of hearts".
        first = page.locator("[data-hand] [data-card]").first
        expect(first).to_contain_text(
            render(message("card.name", rank=cards[0][0], suit=cards[0][1]), "en"))
        assert plays(page) == before and hand(page) == cards
    finally:
        settings.get_by_label(catalog("en")["settings.language"]).select_option("ru")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(first).to_contain_text(
        render(message("card.name", rank=cards[0][0], suit=cards[0][1]), "ru"))
    assert plays(page) == before
    page.keyboard.press("Escape")


def test_the_keys_are_named_as_on_a_russian_keyboard_and_work_as_named(table: Page) -> None:
    page = table
    settle(page)
    foot = page.locator(".foot")
    for key in ("Р (H)", "Г (U)", "Д (L)", "Ввод"):
        expect(foot).to_contain_text(key)
    # The key labelled Р and H on a Russian keyboard, typing «р»: a hint.
    page.evaluate("""() => document.body.dispatchEvent(new KeyboardEvent("keydown",
        {key: "р", code: "KeyH", bubbles: true}))""")
    expect(page.locator("[data-notice]")).to_contain_text(RU["notice.hint"].split(" ")[0])
    # «д», wherever the layout puts it: the last trick, once there is one.
    while page.locator(".bar [data-action=last_trick]").is_disabled():
        play_a_card(page)
    page.evaluate("""() => document.body.dispatchEvent(new KeyboardEvent("keydown",
        {key: "д", code: "KeyY", bubbles: true}))""")
    expect(page.locator("[data-dialog=last_trick]")).to_be_visible()
    page.keyboard.press("Escape")


@pytest.mark.parametrize(("query", "locale", "saved", "expected"), [
    ("", "ru-RU", None, "ru"),          # the browser's preferred language
    ("?lang=en", "ru-RU", None, "en"),  # a ?lang= beats the browser
    ("?lang=en", "en-US", "ru", "ru"),  # a saved choice beats both
    ("?lang=xx", "de-DE", None, "en"),  # nothing known: English
])
def test_the_language_is_saved_else_asked_else_the_browsers_else_english(
    browser: Browser, server_url: str, query: str, locale: str, saved: str | None,
    expected: str,
) -> None:
    context = browser.new_context(locale=locale)
    if saved:
        context.add_init_script(f"localStorage.setItem('calypso.lang.v1', '{saved}')")
    page = context.new_page()
    page.goto(server_url + query)
    expect(page.locator("html")).to_have_attribute("lang", expected, timeout=TIMEOUT_MS)
    expect(page).to_have_title(catalog(expected)["app.title"])
    context.close()


@pytest.mark.parametrize("words", ["late", "missing"])
def test_a_russian_first_visit_never_shows_the_loading_screens_english_words(
    browser: Browser, server_url: str, words: str,
) -> None:
    context = browser.new_context(locale="ru-RU")
    page = context.new_page()
    # Style animations stand still, so the loading screen's 3 s fallback cannot fire.
    cdp = context.new_cdp_session(page)
    cdp.send("Animation.enable")
    cdp.send("Animation.setPlaybackRate", {"playbackRate": 0})
    held: list[Route] = []
    page.route("**/messages/ru.json", lambda route: held.append(route))
    page.goto(server_url)
    title = page.locator("#boot-title")
    expect(title).to_have_count(1)
    for _ in range(TIMEOUT_MS // 100):  # until the page asks for the Russian words
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the page never asked for messages/ru.json"
    assert title.evaluate("(el) => getComputedStyle(el).visibility") == "hidden"
    if words == "late":  # they come: the loading screen speaks Russian
        held[0].continue_()
        expect(title).to_have_text(RU["app.name"], timeout=TIMEOUT_MS)
    else:  # they cannot be had: the page keeps its English words, and shows them
        held[0].abort()
        expect(page.locator("html")).to_have_attribute("data-words", "shown", timeout=TIMEOUT_MS)
        expect(title).to_have_text(catalog("en")["app.name"])
    expect(title).to_be_visible()
    context.close()


def test_the_calypso_of_the_day_speaks_russian(table: Page) -> None:
    page = table
    from_menu(page, "menu.daily")
    notice = page.locator("[data-notice]")
    expect(notice).to_contain_text(RU["daily.stats_title"].split()[0], timeout=TIMEOUT_MS)
    expect(page.locator("[data-seat='0'] .seat-name")).to_contain_text(RU["level.master"])
    assert untranslated(page) == []


def test_the_russian_bar_fits_a_small_phone_without_scrolling_sideways(table: Page) -> None:
    # Russian labels are longer («Последняя взятка»): the buttons wrap to a second line.
    page = table
    size = page.viewport_size
    page.set_viewport_size({"width": 360, "height": 640})
    try:
        assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
        for button in page.locator(".bar button:visible").all():
            box = button.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360, button.inner_text()
    finally:
        page.set_viewport_size(size or {"width": 1366, "height": 900})


# Each text of a chart's picture whose box is not wholly inside the picture's: [text, how far
# past its left edge, how far past its right edge] (px).
TEXT_OUTSIDE = """(svg) => {
    const box = svg.getBoundingClientRect();
    return [...svg.querySelectorAll("text")].map((text) => {
        const r = text.getBoundingClientRect();
        return [text.textContent, Math.round(box.left - r.left), Math.round(r.right - box.right)];
    }).filter(([, left, right]) => left > 0 || right > 0);
}"""


def test_a_finished_game_fits_a_russian_phone(table: Page) -> None:
    # The longer Russian words once cut the sheet chart's last label ("Раздача 4") at the
    # dialog's edge, pushed the review's per-deal table past the dialog (its blunders behind
    # a sideways scroll), and "Play it out" drew the next trick straight under the reviewed
    # one, eight cards that read as one trick.
    page = table
    size = page.viewport_size
    page.set_viewport_size({"width": 390, "height": 844})
    page.evaluate("""() => localStorage.setItem("calypso.dev.v1",
        JSON.stringify({ review_budget: 40, master_iterations: 3 }))""")
    try:
        open_game_file(page, random_game("ru-phone", random.Random(7), 204), "nearly.json")
        expect(page.locator("[data-notice]")).to_contain_text(RU["files.continued"])
        while settle(page) != "over":
            play_a_card(page)
        sheet = page.locator("[data-dialog=score_sheet]")
        expect(sheet).to_be_visible()
        chart = sheet.locator("[data-chart=deals] svg")
        chart.scroll_into_view_if_needed()
        assert chart.evaluate(TEXT_OUTSIDE) == []
        sheet.get_by_role("button", name=RU["sheet.review"], exact=True).click()
        review = page.locator("[data-dialog=review]")
        expect(review.locator("[data-review-total]")).to_have_attribute("data-review-total", "52")
        expect(review).to_have_attribute("data-review-state", "done", timeout=TIMEOUT_MS)
        deals = review.locator("[data-chart=review-deals]")
        assert deals.locator("svg").evaluate(TEXT_OUTSIDE) == []
        numbers = deals.locator(".chart-table-box")
        numbers.scroll_into_view_if_needed()
        assert numbers.evaluate("(el) => el.scrollWidth <= el.clientWidth"), "it scrolls sideways"
        for name in [RU["charts.cards_column"], RU["charts.lost_column"], RU["grade.blunder"]]:
            expect(numbers.get_by_role("rowheader", name=name, exact=True)).to_be_in_viewport()
        # Play it out, after a costly card before a deal's last trick: its trick and the next.
        costly = review.locator("[data-review-list] li").evaluate_all(
            "(items) => items.map((li) => Number(li.dataset.reviewPlay))")
        before_last = [i for i, play in enumerate(costly) if play % 52 < 48]
        assert before_last, "this game loses no points before a deal's last trick: no test"
        item = review.locator("[data-review-list] li").nth(before_last[0])
        item.get_by_role("button", name=RU["review.play_it_out"], exact=True).click()
        lines = review.locator("[data-line-card]")
        expect(lines).to_have_count(2, timeout=TIMEOUT_MS)
        step = review.locator("[data-line-step]")
        further = review.get_by_role("button", name=RU["review.line_next"], exact=True)
        while further.is_enabled():
            shown = int(step.get_attribute("data-line-step") or "0")
            further.click()
            expect(step).to_have_attribute("data-line-step", str(shown + 1))
        trick = (costly[before_last[0]] % 52) // 4 + 1
        for line in lines.all():
            # Each trick its own group, named by its number, of at most four cards.
            named = [render(message("review.line_trick", trick=n), "ru")
                     for n in (trick, trick + 1)]
            groups = line.get_by_role("group")
            expect(groups).to_have_count(2)
            for group, name in zip(groups.all(), named, strict=True):
                expect(group).to_have_accessible_name(name)
                expect(group.get_by_role("heading", name=name, exact=True)).to_be_visible()
                expect(group.locator("[data-card]")).to_have_count(4)
            assert line.locator("[data-card]").count() == 8
    finally:
        page.set_viewport_size(size or {"width": 1366, "height": 900})
