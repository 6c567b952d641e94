"""The one rule for names (calypso_core/naming.py): the names people type pass — joined
emoji, flags, variation selectors, Cyrillic, accents — and what would stop a table or mislabel
it is refused, with words that say what to change, by ``check_name`` (a guest's name, asked
by the host's page before it gives the seat) and by ``new_game`` alike."""

from __future__ import annotations

from typing import Any

import pytest
from protocol_calls import call, ok

from calypso_core.messages import render
from calypso_core.naming import MAX_NAME_CHARS, name_problem

pytestmark = pytest.mark.usefixtures("fresh_table")

TYPED = [
    "Ben 👨\u200d👩\u200d👧",  # a family: three emoji joined by U+200D
    "Dan 👨🏽\u200d💻",  # a skin tone and a profession
    "🇹🇹 Ana",  # a flag: two regional indicators
    "🏳️\u200d🌈",  # a flag with the emoji variation selector, joined
    "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f Cat",  # England: tags
    "❤️ Eve",  # a variation selector
    "Бен", "José", "Zoë", "Ólafur Þór", "李雷",  # scripts, accents
    "\u0641\u0627\u0631\u0633\u06cc\u200c\u0632\u0628\u0627\u0646",  # Persian, with a ZWNJ
]
REFUSED = {
    "Ben\u200b": "error.name_invisible",  # a zero-width space
    "\u200d": "error.name_invisible",  # a joiner joining nothing
    "Ben\u200d": "error.name_invisible",
    "\u0301\u0301": "error.name_invisible",  # combining marks only
    "Ben\x07": "error.name_control",  # a bell
    "Ben\x00": "error.name_control",
    "Ben\u202e": "error.name_bidi",  # right-to-left override
    "\u2067Ben": "error.name_bidi",  # right-to-left isolate
    "You": "error.name_reserved", "host": "error.name_reserved", "EAST": "error.name_reserved",
    "Вы": "error.name_reserved", "Хозяин стола": "error.name_reserved",
    "Север": "error.name_reserved", "Югу": "error.name_reserved",  # any form of a seat's name
    "x" * (MAX_NAME_CHARS + 1): "error.name_too_long",
}


@pytest.mark.parametrize("name", TYPED)
def test_a_name_people_type_passes_the_form_and_the_deal(name: str) -> None:
    assert name_problem(name) is None
    assert ok("check_name", name=f"  {name} ") == {"name": name}  # spaces at the ends go
    people = [{"seat": 2, "name": "Ana!"}, {"seat": 0, "name": name, "remote": True}]
    view = ok("new_game", seed="names", people=people, level="random")
    assert view["guests"][0]["table"]["seats"][0]["called"] == "you"


@pytest.mark.parametrize(("name", "words"), sorted(REFUSED.items()))
def test_a_name_that_would_stop_or_mislabel_a_table_is_refused_saying_what_to_change(
        name: str, words: str) -> None:
    refused = call("check_name", name=name)["error"]
    assert (refused["code"], refused["text"]["id"], refused["input"]) == ("bad_name", words, True)
    for lang in ("en", "ru"):
        assert render(refused["text"], lang).endswith(".")  # a whole sentence in each
    people = [{"seat": 2, "name": "Ana"}, {"seat": 0, "name": name, "remote": True}]
    dealt = call("new_game", seed="names", people=people)["error"]
    assert (dealt["code"], dealt["text"]) == ("bad_people", refused["text"])


def test_a_name_taken_at_the_table_or_left_empty_is_refused() -> None:
    taken = call("check_name", name="ana ", taken=["Ben", " Ana"])["error"]
    assert taken["text"] == {"id": "error.same_name", "params": {"name": "ana"}}
    assert call("check_name", name=" \u3000 ")["error"]["text"] == {"id": "error.name_empty"}
    for bad in ({"name": 7}, {"name": "Ben", "taken": "Ana"}, {"name": "x" * 1000}, {}):
        assert call("check_name", **bad)["error"]["code"] == "bad_request", bad


def test_the_reserved_words_are_the_tables_own_labels_in_every_language() -> None:
    # Words of the catalogs, not a list of their own: a label renamed there is refused here.
    seats = ({"id": "label.seat", "params": {"seat": s}} for s in range(4))
    labels: list[dict[str, Any]] = [{"id": "label.you"}, {"id": "label.host"}, *seats]
    for lang in ("en", "ru"):
        for label in labels:
            word = render(label, lang)
            assert name_problem(word) == {"id": "error.name_reserved", "params": {"name": word}}
    assert name_problem("Youssef") is None and name_problem("Northrop") is None
