"""Game records (docs/game-record.md): round trips, refusals, limits and golden records."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers import (
    ALL_RULES,
    NORTH_COMPLETES_DEAL_1,
    NORTH_RUNS_SPADES,
    NORTH_RUNS_SPADES_TRICKS,
    deck_from_hands,
    play_cards,
    play_tricks,
    position,
    snapshot,
)
from refmodel import Options, ReferenceGame

from calypso_core import (
    GameState,
    RecordError,
    Rules,
    from_record,
    new_game,
    parse_record,
    to_record,
)
from calypso_core.__main__ import replay_summary
from calypso_core.record import MAX_RECORD_BYTES, RecordEncodingError

GOLDEN = Path(__file__).parent / "golden"


def random_state(seed: int, plays: int, rules: Rules | None = None) -> GameState:
    rng = random.Random(seed)
    state = new_game(seed, rules or Rules())
    for _ in range(plays):
        state.play(rng.choice(state.legal_moves()))
    return state


def through_json(record: dict[str, Any]) -> GameState:
    return parse_record(json.dumps(record))


# -- the format ------------------------------------------------------------------------------


def test_a_record_holds_the_recipe_of_a_game() -> None:
    state = position(3, NORTH_RUNS_SPADES)
    play_cards(state, "AS 2D")
    record = to_record(state)
    assert list(record) == ["format", "version", "rules", "suits", "first_dealer", "deck", "plays"]
    assert record["format"] == "calypso-record"
    assert record["version"] == 1
    assert record["rules"] == {
        "lead_trump_must_be_beaten": False,
        "last_trump_in_wins": False,
        "all_fours": False,
        "leftovers_start_next_calypso": True,
    }
    assert record["suits"] == ["S", "C", "H", "D"]
    assert record["first_dealer"] == 3
    assert record["deck"] == deck_from_hands(3, NORTH_RUNS_SPADES)
    assert record["plays"] == ["AS", "2D"]
    assert json.loads(json.dumps(record)) == record


@pytest.mark.parametrize("plays", [0, 1, 3, 4, 51, 52, 53, 130, 207, 208])
def test_record_round_trip_at_any_point(plays: int) -> None:
    state = random_state(plays, plays)
    record = to_record(state)
    again = through_json(record)
    assert again == state
    assert snapshot(again) == snapshot(state)
    assert to_record(again) == record


@pytest.mark.parametrize("rules", ALL_RULES)
def test_record_round_trip_under_every_option(rules: Rules) -> None:
    state = random_state(7, 208, rules)
    again = from_record(to_record(state))
    assert again.rules == rules
    assert snapshot(again) == snapshot(state)


def test_a_replayed_record_plays_on_like_the_original() -> None:
    state = random_state(3, 90)
    again = from_record(to_record(state))
    rng = random.Random(0)
    while not state.is_over:
        card = rng.choice(state.legal_moves())
        state.play(card)
        again.play(card)
    assert snapshot(again) == snapshot(state)


def test_a_record_reader_accepts_any_card_spelling_and_writes_the_canonical_one() -> None:
    record = to_record(random_state(1, 10))
    canonical = copy.deepcopy(record)
    record["deck"] = [("10" + c[1].lower()) if c[0] == "T" else c.lower() for c in record["deck"]]
    record["plays"] = [c.lower() for c in record["plays"]]
    record["suits"] = [s.lower() for s in record["suits"]]
    assert to_record(from_record(record)) == canonical


# -- refusals: the first bad item, named --------------------------------------------------------


def base_record() -> dict[str, Any]:
    """Deal 0 of North running his spades, then East leads 2S to deal 1 (54 plays)."""
    state = position(3, NORTH_RUNS_SPADES, NORTH_COMPLETES_DEAL_1)
    play_tricks(state, *NORTH_RUNS_SPADES_TRICKS)
    play_cards(state, "2S AS")
    return to_record(state)


def changed(**items: Any) -> Callable[[dict[str, Any]], Any]:
    def change(record: dict[str, Any]) -> Any:
        record.update(items)
        return record

    return change


def without(key: str) -> Callable[[dict[str, Any]], Any]:
    def change(record: dict[str, Any]) -> Any:
        del record[key]
        return record

    return change


def with_rules(**options: Any) -> Callable[[dict[str, Any]], Any]:
    def change(record: dict[str, Any]) -> Any:
        record["rules"].update(options)
        return record

    return change


def with_item(key: str, index: int, value: Any) -> Callable[[dict[str, Any]], Any]:
    def change(record: dict[str, Any]) -> Any:
        record[key][index] = value
        return record

    return change


def without_rule(name: str) -> Callable[[dict[str, Any]], Any]:
    def change(record: dict[str, Any]) -> Any:
        del record["rules"][name]
        return record

    return change


def deck_short(record: dict[str, Any]) -> Any:
    record["deck"] = record["deck"][:-1]
    return record


def deck_long(record: dict[str, Any]) -> Any:
    record["deck"] = [*record["deck"], "7H"]
    return record


def test_a_record_with_players_is_version_2_and_reads_back() -> None:
    state = position(3, NORTH_RUNS_SPADES)
    play_cards(state, "AS 2D")
    players = [{"person": "Ben"}, {"computer": "club"}, {"person": "Ana"}, {"computer": "x"}]
    record = to_record(state, players)
    assert list(record)[-1] == "players" and record["version"] == 2
    assert record["players"] == players
    assert from_record(record) == state
    assert through_json(record) == state
    # Without players the record stays version 1, which every older reader reads.
    assert to_record(state)["version"] == 1
    assert from_record({**to_record(state), "version": 2}) == state  # players are optional


def plays_too_many(record: dict[str, Any]) -> Any:
    record["plays"] = record["plays"] * 4
    return record


def newer_version_with_new_key(record: dict[str, Any]) -> Any:
    record["version"] = 3
    record["match"] = {"games": 2}
    return record


def two_bad_things(record: dict[str, Any]) -> Any:
    record["suits"] = ["S", "H", "D", "C"]
    record["deck"] = []
    record["plays"][53] = "8H"
    return record


def two_bad_plays(record: dict[str, Any]) -> Any:
    record["plays"][53] = "8H"
    record["plays"][1] = "KS"
    return record


SEAT_ERROR = "is not a seat (0-3: North, East, South, West)"
BAD_RECORDS: list[tuple[str, Callable[[dict[str, Any]], Any], str]] = [
    ("not an object", lambda r: [r], "a game record is a JSON object, not list"),
    ("no format", without("format"), "game record has no 'format'"),
    ("other format", changed(format="chess"), "format is 'chess', not 'calypso-record'"),
    ("no version", without("version"), "game record has no 'version'"),
    ("version 3", changed(version=3), "unsupported record version 3 (this reads 1 and 2)"),
    ("version text", changed(version="1"),
     "unsupported record version '1' (this reads 1 and 2)"),
    ("version float", changed(version=1.0),
     "unsupported record version 1.0 (this reads 1 and 2)"),
    ("version bool", changed(version=True),
     "unsupported record version True (this reads 1 and 2)"),
    ("newer, new key", newer_version_with_new_key,
     "unsupported record version 3 (this reads 1 and 2)"),
    ("players in version 1", changed(players=[{"person": "Ana"}] * 4),
     "unknown key 'players' in game record"),
    ("players three", changed(version=2, players=[{"person": ""}] * 3),
     "players must be a list of four players, one per seat, "
     "not [{'person': ''}, {'person': ''}, {'pers…"),
    ("player kind", changed(version=2, players=[{"person": ""}] * 3 + [{"robot": "x"}]),
     "players[3] must be {\"person\": name} or {\"computer\": level}, not {'robot': 'x'}"),
    ("player two kinds", changed(version=2, players=[{"person": "A", "computer": "club"}] * 4),
     "players[0] must be {\"person\": name} or {\"computer\": level}, not "
     "{'person': 'A', 'computer': 'club'}"),
    ("player name long",
     changed(version=2, players=[{"computer": "c"}] * 3 + [{"person": "x" * 41}]),
     "players[3]: a person is named by visible text of at most 40 characters (naming.py), "
     "not 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…"),
    ("player name control", changed(version=2, players=[{"person": "A\nB"}] * 4),
     "players[0]: a person is named by visible text of at most 40 characters (naming.py), "
     "not 'A\\nB'"),
    ("unknown key", changed(comment="hi"), "unknown key 'comment' in game record"),
    ("no plays", without("plays"), "game record has no 'plays'"),
    ("no rules", without("rules"), "game record has no 'rules'"),
    ("rules list", changed(rules=[]), "rules must be an object of options, not list"),
    ("rules unknown", with_rules(trumps=True), "rules: unknown option 'trumps'"),
    ("rules non-bool", with_rules(all_fours=1), "rules: all_fours must be true or false, not 1"),
    ("rules missing", without_rule("all_fours"), "rules: missing option 'all_fours'"),
    ("suits text", changed(suits="SCHD"), "suits must be a list of strings, not str"),
    ("suits number", with_item("suits", 0, 0), "suits[0] must be a string, not 0"),
    ("suits three", changed(suits=["S", "C", "H"]),
     "suits must be four suits, one per seat, not ['S', 'C', 'H']"),
    ("suits letter", with_item("suits", 1, "X"), "suits[1]: 'X' is not a suit"),
    ("suits unpaired", changed(suits=["S", "H", "D", "C"]),
     "suits SHDC: partners (seats 0-2 and 1-3) must hold spades+hearts against diamonds+clubs"),
    ("dealer 4", changed(first_dealer=4), f"4 {SEAT_ERROR}"),
    ("dealer -1", changed(first_dealer=-1), f"-1 {SEAT_ERROR}"),
    ("dealer text", changed(first_dealer="3"), f"'3' {SEAT_ERROR}"),
    ("dealer bool", changed(first_dealer=True), f"True {SEAT_ERROR}"),
    ("dealer null", changed(first_dealer=None), f"None {SEAT_ERROR}"),
    ("deck object", changed(deck={}), "deck must be a list of strings, not dict"),
    ("deck number", with_item("deck", 7, 7), "deck[7] must be a string, not 7"),
    ("deck card", with_item("deck", 7, "ZZ"), "deck card 7: 'ZZ' is not a card"),
    ("deck short", deck_short, "deck has 207 cards, not 208 (too few of AC)"),
    ("deck long", deck_long, "deck card 208: a fifth 7H (a deck has four copies of each)"),
    ("deck fifth", with_item("deck", 1, "AS"),
     "deck card 125: a fifth AS (a deck has four copies of each)"),
    ("plays text", changed(plays="AS 2D"), "plays must be a list of strings, not str"),
    ("plays number", with_item("plays", 3, 3), "plays[3] must be a string, not 3"),
    ("plays too many", plays_too_many, "plays has 216 cards; a game has at most 208"),
    ("play not a card", with_item("plays", 53, "ZZ"),
     "play 53: 'ZZ' is not a card (move for South)"),
    ("play not held", with_item("plays", 53, "7C"),
     "play 53: 7C is not legal for South, who does not hold it"),
    ("play must follow", with_item("plays", 53, "8H"),
     "play 53: 8H is not legal for South, who must follow S"),
    ("first of two: suits", two_bad_things,
     "suits SHDC: partners (seats 0-2 and 1-3) must hold spades+hearts against diamonds+clubs"),
    ("first of two plays", two_bad_plays,
     "play 1: KS is not legal for East, who does not hold it"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "change", "message"), BAD_RECORDS, ids=[bad[0] for bad in BAD_RECORDS]
)
def test_a_bad_record_is_refused_naming_the_first_bad_item(
    name: str, change: Callable[[dict[str, Any]], Any], message: str
) -> None:
    bad = change(base_record())
    with pytest.raises(RecordError) as caught:
        from_record(bad)
    assert str(caught.value) == message
    with pytest.raises(RecordError) as caught:
        parse_record(json.dumps(bad))
    assert str(caught.value) == message


def test_the_base_of_the_bad_records_is_good() -> None:
    record = base_record()
    state = from_record(record)
    assert len(state.plays) == 54
    assert record["deck"][0] == record["deck"][125] == "AS"
    assert record["deck"][1] == "2H" and record["deck"].count("AS") == 4
    assert record["deck"][-1] == "AC"
    assert record["deck"][:126].count("AS") == 4  # so a fifth AS at 1 is found at 125


def test_record_error_is_a_value_error() -> None:
    assert issubclass(RecordError, ValueError)


# -- parse_record: JSON text -------------------------------------------------------------------


def test_parse_record_reads_text_or_bytes() -> None:
    record = base_record()
    text = json.dumps(record)
    assert parse_record(text) == parse_record(text.encode()) == from_record(record)
    assert parse_record(json.dumps(record, indent=2)) == from_record(record)


@pytest.mark.parametrize(
    "text",
    ["", "{", "{'format': 1}", "[1,]", '{"version": NaN}', '{"version": Infinity}', "\x00"],
)
def test_parse_record_refuses_what_is_not_json(text: str) -> None:
    with pytest.raises(RecordError) as caught:
        parse_record(text)
    assert str(caught.value).startswith("game record is not valid JSON: ")


def test_parse_record_refuses_bytes_that_are_not_utf8_text() -> None:
    with pytest.raises(RecordError) as caught:
        parse_record(b'{"format": "\xff"}')
    assert str(caught.value).startswith("game record is not UTF-8 text: ")


def test_parse_record_refuses_a_record_over_the_size_limit() -> None:
    assert MAX_RECORD_BYTES == 64_000
    padded = json.dumps(base_record()).ljust(MAX_RECORD_BYTES + 1)
    with pytest.raises(RecordError) as caught:
        parse_record(padded)
    assert str(caught.value) == "game record is 64001 bytes; the limit is 64000"
    # Just under the limit, whitespace is fine.
    assert parse_record(padded[:MAX_RECORD_BYTES]) == from_record(base_record())


def test_deeply_nested_json_is_refused_not_crashing() -> None:
    # Regression: 60,000 open brackets fit under the size limit and made json.loads raise
    # RecursionError, which escaped parse_record (and `replay` crashed with a traceback).
    with pytest.raises(RecordError) as caught:
        parse_record("[" * 60_000)
    assert str(caught.value) == "game record is not valid JSON: nested too deeply"


def test_newer_version_with_new_key_reports_the_version() -> None:
    # Regression: a version-2 record with a key version 1 lacks was refused as "unknown key",
    # hiding the real reason.
    record = base_record()
    record["version"] = 3
    record["match"] = {"games": 2}
    with pytest.raises(RecordError,
                       match=r"^unsupported record version 3 \(this reads 1 and 2\)$"):
        from_record(record)


def test_record_missing_a_rules_option_is_refused() -> None:
    # Regression: {"rules": {}} used to be read as the default options.
    record = base_record()
    record["rules"] = {}
    with pytest.raises(RecordError) as caught:
        from_record(record)
    assert str(caught.value) == "rules: missing option 'lead_trump_must_be_beaten'"


# -- golden records ---------------------------------------------------------------------------

GOLDEN_NAMES = sorted(
    path.name.removesuffix(".record.json") for path in GOLDEN.glob("*.record.json")
)


def test_there_are_golden_records() -> None:
    assert len(GOLDEN_NAMES) >= 3


@pytest.mark.parametrize("name", GOLDEN_NAMES)
def test_golden_record_replays_to_its_summary(name: str) -> None:
    text = (GOLDEN / f"{name}.record.json").read_text(encoding="utf-8")
    expected = json.loads((GOLDEN / f"{name}.summary.json").read_text(encoding="utf-8"))
    state = parse_record(text)
    assert replay_summary(state) == expected
    # Golden records are written in the canonical form.
    assert to_record(state) == json.loads(text)


@pytest.mark.parametrize("name", GOLDEN_NAMES)
def test_golden_summary_agrees_with_the_reference_model(name: str) -> None:
    record = json.loads((GOLDEN / f"{name}.record.json").read_text(encoding="utf-8"))
    expected = json.loads((GOLDEN / f"{name}.summary.json").read_text(encoding="utf-8"))
    model = ReferenceGame(
        record["deck"], record["suits"], record["first_dealer"], Options(**record["rules"])
    )
    for card in record["plays"]:
        model.play(card)
    assert model.is_over == expected["is_over"]
    assert [
        {"deal": deal, "leader": leader, "cards": list(cards), "winner": winner}
        for deal, leader, cards, winner in model.tricks
    ] == expected["tricks"]
    assert [
        {
            "seat": seat,
            "suit": player.suit,
            "completed": player.completed,
            "in_progress": model.in_progress(seat),
            "pile": player.pile,
            "score": player.score(),
        }
        for seat, player in enumerate(model.players)
    ] == expected["players"]
    scores = [player.score() for player in model.players]
    assert expected["partnerships"] == [
        {"seats": [0, 2], "score": scores[0] + scores[2]},
        {"seats": [1, 3], "score": scores[1] + scores[3]},
    ]


# -- docs/game-record.md ----------------------------------------------------------------------

DOC = Path(__file__).resolve().parents[1] / "docs" / "game-record.md"


def doc_json_blocks() -> list[Any]:
    text = DOC.read_text(encoding="utf-8")
    blocks = text.split("```json\n")[1:]
    return [json.loads(block.split("\n```")[0]) for block in blocks]


def test_the_documented_example_replays_to_the_documented_summary() -> None:
    example, summary = doc_json_blocks()
    state = from_record(example)
    assert replay_summary(state) == summary
    assert to_record(state) == example
    assert state.to_move == 2  # "it is South's turn"
    golden = json.loads((GOLDEN / "north-south-four-calypsos.record.json").read_text())
    assert golden["deck"] == example["deck"]
    assert golden["plays"][:6] == example["plays"]


def test_duplicate_json_key_is_refused() -> None:
    text = '{"format": "calypso-record", "format": "calypso-record"}'
    with pytest.raises(RecordError, match="key 'format' appears twice"):
        parse_record(text)


def test_size_limit_counts_utf8_bytes_of_text() -> None:
    from calypso_core.record import MAX_RECORD_BYTES

    text = '"' + "♦" * (MAX_RECORD_BYTES // 3 + 1) + '"'
    assert len(text) < MAX_RECORD_BYTES
    with pytest.raises(RecordError, match="bytes; the limit is"):
        parse_record(text)


# -- decisions on odd input (docs/game-record.md#json-text) ------------------------------------


def test_a_key_given_twice_anywhere_is_refused_with_its_name() -> None:
    text = json.dumps(base_record())[:-1] + ', "plays": []}'
    with pytest.raises(RecordError) as caught:
        parse_record(text)
    assert str(caught.value) == "game record is not valid JSON: key 'plays' appears twice"
    twice = '"all_fours": false, "all_fours": true'
    nested = json.dumps(base_record()).replace('"all_fours": false', twice)
    with pytest.raises(RecordError) as caught:
        parse_record(nested)
    assert str(caught.value) == "game record is not valid JSON: key 'all_fours' appears twice"


@pytest.mark.parametrize("marks", [0, 1, 2, 3])
@pytest.mark.parametrize("encoding", ["utf-8", "utf-16-le", "utf-16-be", "utf-32-le",
                                      "utf-32-be"])
def test_a_file_reads_the_same_in_every_encoding_its_byte_order_mark_names(
        encoding: str, marks: int) -> None:
    # An editor may write one mark, a copy of a copy two; UTF-8 needs none, the others one.
    # A name outside ASCII: each encoding writes it its own way.
    players = [{"person": "Аня"}, {"computer": "club"}, {"person": "Zoë"}, {"computer": "x"}]
    text = json.dumps({**base_record(), "version": 2, "players": players}, ensure_ascii=False)
    if encoding != "utf-8" and marks == 0:
        marks = 1
    assert parse_record(("\ufeff" * marks + text).encode(encoding)) == parse_record(text)
    assert parse_record("\ufeff" * marks + text) == parse_record(text)


@pytest.mark.parametrize(
    "encoding", ["utf-16-le", "utf-16-be", "utf-32-le", "latin-1", "cp1252"]
)
def test_bytes_in_another_encoding_without_a_mark_are_refused_as_not_utf8(encoding: str) -> None:
    # Latin-1 and cp1252 only differ from UTF-8 where there is a non-ASCII character; UTF-16
    # and UTF-32 without their mark read as UTF-8 full of NULs, which JSON never holds.
    data = json.dumps({**base_record(), "format": "calypso-récord"}, ensure_ascii=False)
    with pytest.raises(RecordEncodingError) as caught:
        parse_record(data.encode(encoding))
    assert str(caught.value).startswith("game record is not UTF-8 text: ")


def test_bytes_that_are_not_the_encoding_their_mark_names_are_refused() -> None:
    text = json.dumps(base_record())
    with pytest.raises(RecordEncodingError, match="not UTF-16-LE text"):
        parse_record(b"\xff\xfe" + text.encode("utf-16-le")[:-1])  # an odd number of bytes
    with pytest.raises(RecordEncodingError, match="not UTF-8 text"):
        parse_record(b"\xef\xbb\xbf" + text.encode("utf-16-le"))


LONG_S = "\u017f"  # the long s: LONG_S.upper() == "S"
FULL_WIDTH_S = "\uff33"
KELVIN = "\u212a"  # "K".lower() == "k", the Kelvin sign's too


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("suits", [LONG_S, "D", "H", "C"], f"suits[0]: '{LONG_S}' is not a suit"),
        ("suits", [FULL_WIDTH_S, "D", "H", "C"], f"suits[0]: '{FULL_WIDTH_S}' is not a suit"),
        ("suits", ["\u2664", "D", "H", "C"], "suits[0]: '\u2664' is not a suit"),  # outlined
        ("plays", ["A" + LONG_S], f"play 0: 'A{LONG_S}' is not a card"),
        ("plays", [KELVIN + "S"], f"play 0: '{KELVIN}S' is not a card"),
        ("plays", ["\u00a0AS"], "play 0: '\\xa0AS' is not a card"),  # a no-break space
    ],
)
def test_only_ascii_letters_and_the_four_symbols_name_suits_and_ranks(
    key: str, value: list[str], message: str
) -> None:
    with pytest.raises(RecordError) as caught:
        from_record({**base_record(), key: value})
    assert str(caught.value).startswith(message)
