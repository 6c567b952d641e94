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

from .table import SETTLED, TIMEOUT_MS
from .watching import booted_page, page_for_the_module, settled

pytestmark = pytest.mark.browser

MESSAGES = Path(__file__).resolve().parents[2] / "calypso_core" / "messages"
CATALOGS = {lang: json.loads((MESSAGES / f"{lang}.json").read_text(encoding="utf-8"))
            for lang in ("en", "ru")}
# A sample value for each parameter of the engine's refusals, by its name's last word.
SAMPLES = {"seat": 1, "card": "QH", "suit": "H", "date": "2999-01-01", "name": "Ana",
           "count": 3, "size": 70_000, "limit": 64_000, "rank": "Q", "level": "club"}
SENTENCE_END = re.compile(r"[.!?…»\"]$")

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
