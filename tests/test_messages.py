"""The catalogs: English and Russian have the same messages with the same parameters; every
message and word is used somewhere and every one used exists; Russian plurals, numbers and
card names are as a Russian reader expects; the manifests and the sheet's legend say what the
engine does. (The Russian browser test renders the same messages in the page and compares.)"""

from __future__ import annotations

import doctest
import json
import re
from pathlib import Path
from typing import Any

import pytest
from protocol_calls import ok

from calypso_core import Card, Rules
from calypso_core.bots import LEVELS
from calypso_core.bots.puzzles import THEMES
from calypso_core.messages import (
    LANGUAGES,
    MessageError,
    catalog,
    format_number,
    kind_of,
    message,
    parse,
    placeholders,
    plural_category,
    render,
)
from calypso_core.table import REQUESTS

ROOT = Path(__file__).resolve().parents[1]
NOUNS = ("seat.", "suit.", "rank.")  # words with grammatical forms, not messages
SAMPLE = {"seat": 3, "card": "QH", "suit": "D", "rank": "T", "level": "master"}


def templates(lang: str) -> dict[str, str]:
    return {key: value for key, value in catalog(lang).items() if not key.startswith(NOUNS)}


def plural_names(template: str) -> set[str]:
    return set(re.findall(r"\{\s*([a-z][a-z0-9_]*)\s*,\s*plural", template))


def sample_params(template: str) -> dict[str, Any]:
    """A value of the right kind for every parameter of a template."""
    counted = plural_names(template)
    return {name: 21 if name in counted else SAMPLE.get(kind_of(name) or "", "Ana")
            for name in placeholders(template)}


# -- the same messages in both languages --------------------------------------------------------


def test_both_catalogs_have_the_same_keys_in_the_same_order() -> None:
    assert list(catalog("ru")) == list(catalog("en"))


def test_each_message_takes_the_same_parameters_in_both_languages() -> None:
    english, russian = templates("en"), templates("ru")
    assert set(english) == set(russian)
    for key, template in english.items():
        assert isinstance(template, str) and isinstance(russian[key], str), key
        assert placeholders(template) == placeholders(russian[key]), key
        assert plural_names(template) == plural_names(russian[key]), key


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_template_parses_and_every_form_it_asks_for_exists(lang: str) -> None:
    words = catalog(lang)
    for key, template in templates(lang).items():
        parse(template)  # raises MessageError on a bad template
        for name, form in re.findall(r"\{\s*([a-z][a-z0-9_]*)\s*:\s*([a-z]+)\s*\}", template):
            kind = kind_of(name)
            if (kind, form) in (("card", "name"), ("suit", "symbol")):
                continue
            assert kind in ("seat", "suit", "rank"), (key, name)
            for noun_key in (k for k in words if k.startswith(f"{kind}.")):
                noun = words[noun_key]
                assert isinstance(noun, str) or form in noun, (lang, key, noun_key, form)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_renders_with_parameters_of_its_kinds(lang: str) -> None:
    for key, template in templates(lang).items():
        text = render(message(key, **sample_params(template)), lang)
        assert text and "{" not in text and "}" not in text, (key, text)


def test_a_missing_parameter_or_message_is_refused() -> None:
    with pytest.raises(MessageError):
        render(message("trick.trump_in", seat=1), "en")
    with pytest.raises(MessageError):
        render(message("no.such.message"), "ru")
    with pytest.raises(MessageError):
        catalog("fr")


def test_russian_nouns_have_every_form_and_english_ones_their_words() -> None:
    for lang in LANGUAGES:
        words = catalog(lang)
        for seat in range(4):
            assert isinstance(words[f"seat.{seat}"], str if lang == "en" else dict)
        for suit in "SHDC":
            assert {"pl", "one", "title"} <= set(words[f"suit.{suit}"])
        for rank in "AKQJT98765432":
            assert set(words[f"rank.{rank}"]) == {"name", "short"}
    assert catalog("ru")["seat.3"] == {"nom": "Запад", "gen": "Запада", "dat": "Западу",
                                       "ins": "Западом"}


# -- plurals, numbers and card names ------------------------------------------------------------


@pytest.mark.parametrize(("number", "category", "cards"), [
    (1, "one", "1 карта"), (2, "few", "2 карты"), (5, "many", "5 карт"),
    (11, "many", "11 карт"), (21, "one", "21 карта"), (101, "one", "101 карта"),
    (12, "many", "12 карт"), (22, "few", "22 карты"), (0, "many", "0 карт"),
])
def test_russian_plurals_agree_with_the_number(number: int, category: str, cards: str) -> None:
    assert plural_category(number, "ru") == category
    assert render(message("seat.cards_in_hand", count=number), "ru") == f"На руке {cards}"


def test_english_plurals_are_one_and_other() -> None:
    assert [plural_category(n, "en") for n in (0, 1, 2, 21)] == ["other", "one", "other", "other"]
    assert render(message("seat.cards_in_hand", count=1), "en") == "1 card in hand"
    assert render(message("seat.cards_in_hand", count=21), "en") == "21 cards in hand"
    # Fractions take "other" in Russian: 1,5 карты.
    assert plural_category(1.5, "ru") == "other"


def test_numbers_are_written_as_each_language_writes_them() -> None:
    assert format_number(1000, "en") == "1,000" and format_number(1000, "ru") == "1\u00a0000"
    assert format_number(1250, "ru") == "1\u00a0250" and format_number(2.5, "ru") == "2,5"
    assert format_number(999, "ru") == "999" and format_number(0.25, "en") == "0.25"
    said = render(message("sheet.win", side=message("label.you"), count=1250), "ru")
    assert said == "Победа: Вы, на 1\u00a0250 очков больше."


def test_every_card_has_a_name_in_both_languages() -> None:
    names = {lang: [render(message("card.name", rank=str(c)[0], suit=str(c)[1]), lang)
                    for c in map(Card, range(52))] for lang in LANGUAGES}
    assert names["en"] == [card.name for card in map(Card, range(52))]
    assert len(set(names["ru"])) == 52
    ru = dict(zip((str(c) for c in map(Card, range(52))), names["ru"], strict=True))
    assert [ru["QH"], ru["AS"], ru["TD"], ru["2C"], ru["JS"], ru["KD"]] == [
        "Дама червей", "Туз пик", "Десятка бубён", "Двойка треф", "Валет пик", "Король бубён"]
    short = render(message("hint.trump_in", card="QH"), "ru")
    assert short == "Бейте козырем Д♥."


# -- every message is used, and every one used exists -------------------------------------------


def sources() -> dict[Path, str]:
    """The code that says things: the engine's Python, the page's scripts and HTML, and the
    build (which names the manifests)."""
    paths = [*ROOT.glob("calypso_core/**/*.py"), *ROOT.glob("web/**/*.js"), ROOT / "web/index.html",
             ROOT / "build.py", *ROOT.glob("buildsteps/*.py")]
    return {path: path.read_text() for path in paths}


# Keys made from a value at run time, each family with the code that makes it and its
# members: every member must exist, and the family must be made somewhere.
FAMILIES: dict[str, tuple[str, set[str]]] = {
    "level.": ('message(f"level.{level}")', set(LEVELS)),
    "level_help.": ('message(f"level_help.{level}")', set(LEVELS)),
    "option.": ('message(f"option.{key}")', set(Rules().to_dict())),
    "grade.": ('message(f"grade.{grade}")', {"inaccuracy", "mistake", "blunder"}),
    "option_help.": ('message(f"option_help.{key}")', set(Rules().to_dict())),
    "seat.": ("noun(`seat.${seat}`, form)", {"0", "1", "2", "3"}),
    "seat_letter.": ("noun(`seat_letter.${seat}`)", {"0", "1", "2", "3"}),
    "suit.": ("noun(`suit.${key}`, form)", set("SHDC")),
    "rank.": ("noun(`rank.${key}`, \"short\")", set("AKQJT98765432")),
    "terminal.": ('message(f"terminal.{outcome}"', {"win", "lose", "draw"}),
    "boot.": ("t(`boot.${stage}`)", {"runtime", "engine", "ready"}),
    "save_problem.": ("msg(`save_problem.kept_${outcome.kept}`)",
                      {"full", "blocked", "kept_tab", "kept_nowhere", "todo_full",
                       "todo_blocked"}),
    "remote.guest_": ("t(`remote.guest_${stage}`", {"name", "joining", "seated", "host_left",
                                                     "unreachable", "pairing", "bad_offer",
                                                     "refused"}),
    "remote.lobby_": ("t(`remote.lobby_${waiting}`)", {"guests", "seeds"}),
    "puzzles.theme.": ("t(`puzzles.theme.${k}`)", set(THEMES)),
    "puzzles.difficulty_": ("t(`puzzles.difficulty_${store.OFFSETS.indexOf(p.record.offset)}`)",
                            {"0", "1", "2", "3", "4"}),
    "error.": ("msg(`error.${error.code}`)", set()),  # the codes: see the test below
    "tour.": ("t(`tour.${step.key}.title`)", set()),  # the steps: see the test below
}
# A quoted key; not a ``module.name`` of a docstring (two backticks).
LITERAL = re.compile(r"""(?<!`)["'`]([a-z_]+(?:\.[a-z0-9_]+)+)["'`](?!`)"""
                     r"""|data-i18n(?:-attr)?="([^"]+)\"""")
FILE_NAMES = re.compile(r"\.(js|json|css|html|md|svg|png|webmanifest|py)$")


def literal_keys(text: str) -> set[str]:
    found = set()
    for quoted, attribute in LITERAL.findall(text):
        if quoted and not FILE_NAMES.search(quoted):
            found.add(quoted)
        for part in attribute.split(";"):
            found.add(part.split(":")[-1].strip())
    return found


def test_every_message_is_used_and_every_message_used_exists() -> None:
    keys = set(catalog("en"))
    namespaces = {key.split(".")[0] for key in keys}
    code = "\n".join(sources().values())
    used = {key for key in literal_keys(code) if key.split(".")[0] in namespaces}
    # Quoted text that looks like a key of a known namespace is one: it must exist.
    assert sorted(used - keys) == []
    unused = keys - used
    for prefix, (made, members) in FAMILIES.items():
        family = {key for key in unused if key.startswith(prefix)}
        if family:
            assert made in code, f"nothing makes the keys {prefix}*"
        if members:
            assert {key.removeprefix(prefix) for key in family} <= members, prefix
            unused -= family
    unused = {key for key in unused if not key.startswith(("error.", "tour."))}
    assert sorted(unused) == []


def test_every_error_code_people_may_meet_has_words() -> None:
    words = catalog("en")
    code = "\n".join(sources().values())
    raised = set(re.findall(r'ProtocolError\(\s*"([a-z_]+)"', code))
    client = set(re.findall(r'code: "([a-z_]+)"', (ROOT / "web/engine-client.js").read_text()))
    protocol = (ROOT / "docs/protocol.md").read_text()
    errors = protocol[protocol.index("## Errors"):].split("Limits")[0]
    listed = set(re.findall(r"`([a-z_]+)`", errors)) - set(REQUESTS)  # codes, not requests
    assert raised <= listed and len(raised) >= 20
    specific = {key.removeprefix("error.") for key in literal_keys(code)
                if key.startswith("error.")}
    assert sorted(f"error.{c}" for c in raised | client | listed if f"error.{c}" not in words) == []
    unused = {key.removeprefix("error.") for key in words if key.startswith("error.")}
    assert sorted(unused - raised - client - listed - specific) == []


# A stop that more words follow: a second sentence. A code as the engine writes it.
SENTENCE_BREAK = re.compile(r"[.!?…](?=\s+\S)")
RAW_CODE = re.compile(r"\b[a-z]+_[a-z0-9_]+\b")


def sentences_with_no_code(text: str, code: str) -> int:
    """How many whole sentences ``text`` is (each with its stop), or 0 when it shows a raw
    code or ends without a stop."""
    if not text.endswith((".", "?", "!")) or RAW_CODE.search(text) or f"({code})" in text:
        return 0
    return len(SENTENCE_BREAK.findall(text)) + 1


def test_the_sentence_check_catches_the_notice_of_a_later_day() -> None:
    # The notice ?daily=2999-01-01 gave: two sentences glued, the first without its stop,
    # and the raw code.
    said = ("The Calypso of the day for 2999-01-01 could not be dealt The Calypso of "
            "2999-01-01 is not dealt before its day. (not_dealt_yet)")
    assert sentences_with_no_code(said, "not_dealt_yet") == 0
    assert sentences_with_no_code("Could not deal. No.", "x") == 2
    assert sentences_with_no_code("It is not a readable record.", "bad_record") == 1


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refusal_people_read_is_one_sentence_without_a_raw_code(lang: str) -> None:
    # What the engine says with a code (error.<code>, or a more precise error.* message).
    found = []
    for key, template in templates(lang).items():
        if key.startswith("error."):
            text = render(message(key, **sample_params(template)), lang)
            if sentences_with_no_code(text, key.removeprefix("error.")) != 1:
                found.append(f"{key}: {text}")
    assert found == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_problem_notice_says_what_failed_and_why_in_sentences_without_the_code(
        lang: str) -> None:
    # The page's notice of a failure: what failed (problem.*), then the refusal's sentence.
    words = templates(lang)
    assert placeholders(words["notice.problem"]) == {"what", "error"}
    failures = [key for key in words if key.startswith("problem.")]
    refusals = [key for key in words if key.startswith("error.")]
    for what in failures:
        for why in refusals:
            text = render(message("notice.problem",
                                  what=message(what, **sample_params(words[what])),
                                  error=message(why, **sample_params(words[why]))), lang)
            assert sentences_with_no_code(text, why.removeprefix("error.")) == 2, text


def test_every_step_of_the_walkthrough_has_its_words() -> None:
    steps = re.findall(r'\{ key: "(\w+)", target: .*?, rules: (\d) \}',
                       (ROOT / "web/tour.js").read_text())
    expected = {"tour.step", "tour.next", "tour.done", "tour.offer", "tour.show_me",
                "tour.no_thanks", "tour.skip", "tour.back"}
    for key, rules in steps:
        expected |= {f"tour.{key}.title", f"tour.{key}.text"}
        expected |= {f"tour.{key}.rule_{i}" for i in range(1, int(rules) + 1)}
    assert len(steps) == 5
    assert {key for key in catalog("en") if key.startswith("tour.")} == expected


# -- what the words say of the engine ---------------------------------------------------------


def test_the_sheets_legend_fits_the_engines_ladder() -> None:
    # "500 for the first, 750 for the second, 1,000 for each after": the third and fourth
    # calypsos must score the same for "each after" to be true.
    ladder = ok("hello")["scoring"]["calypsos"]
    assert len(ladder) == 4 and ladder[2] == ladder[3]


def test_the_built_manifests_are_named_and_described_in_each_language(dist_dir: Path) -> None:
    for lang in LANGUAGES:
        name = "manifest.webmanifest" if lang == "en" else f"manifest.{lang}.webmanifest"
        manifest = json.loads((dist_dir / name).read_text())
        words = catalog(lang)
        assert manifest["lang"] == lang
        assert manifest["name"] == manifest["short_name"] == words["app.name"]
        assert manifest["description"] == words["app.manifest_description"]
        assert json.loads((dist_dir / "messages" / f"{lang}.json").read_text()) == words
    # The English manifest in web/ is the template, and says the same.
    template = json.loads((ROOT / "web/manifest.webmanifest").read_text())
    assert template["description"] == catalog("en")["app.manifest_description"]


def test_the_examples_of_docs_messages_md_run_as_written() -> None:
    text = (ROOT / "docs" / "messages.md").read_text()
    examples = "\n".join(re.findall(r"```python\n(.*?)```", text, flags=re.S))
    test = doctest.DocTestParser().get_doctest(examples, {}, "docs/messages.md", None, 0)
    assert len(test.examples) == 4
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
