"""Fuzzing the worker protocol and game records with malformed and random inputs.

Every input gets a clear refusal — a structured reply with a known code and a short message
from ``protocol.handle``, a ``RecordError`` from the record readers — quickly, and the game
in play is exactly as it was. Inputs: hand-written mutations of valid requests and saves
(wrong types, huge numbers, deep nesting, unknown types, NaN, very long strings), truncated
and bit-flipped JSON text, and Hypothesis' random JSON. Everything is seeded; the whole file
takes a few seconds.
"""

from __future__ import annotations

import binascii
import copy
import json
import math
import random
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calypso_core import GameState, from_record, parse_record, to_record
from calypso_core import table as protocol
from calypso_core.jsontext import MAX_NESTING
from calypso_core.messages import LANGUAGES, render
from calypso_core.record import MAX_RECORD_BYTES, RecordError
from calypso_core.table.sealed import opened_record, seal_deck
from calypso_core.table.transport import MAX_REQUEST_CHARS

SOUTH = 2
SLOW_S = 2.0  # no single input may take longer (a real request takes milliseconds)
MAX_MESSAGE_CHARS = 1_000  # an error message names the problem; it never echoes a huge input
CHANGES_GAME = {"new_game", "load", "play", "step", "reveal", "next_game", "undo", "daily"}
CODE = re.compile(r"^[a-z][a-z_]*$")

# Values that break assumptions: types, sizes, special numbers, odd text, deep nesting.
WEIRD: list[Any] = [
    None, True, False, 0, -1, 1, 4, 5, 2**31, -(2**63), 2**64, 10**300, 1.5, -0.0, 1e308,
    "", " ", "x" * 100_000, "\u0000", "\ud800", "\u202e", "QH", "random", "S", "🂡",
    [], {}, [None], ["QH"] * 300, {"": None}, {"__proto__": {}}, {"constructor": 1},
    json.loads("[" * 200 + "]" * 200), json.loads('{"a":' * 200 + "1" + "}" * 200),
]
# The game fixture is restored before each test and kept unchanged by each example.
HYPOTHESIS = settings(max_examples=300, deadline=None, derandomize=True,
                      suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                             HealthCheck.function_scoped_fixture])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=12), inner,
                                                                 max_size=6),
    max_leaves=25,
)


# -- a game in play, and checks around every request ------------------------------------------


def send(request: Any) -> dict[str, Any]:
    """Pass anything to handle(); check the reply is a well-formed answer, given in time."""
    text = request if isinstance(request, str) else json.dumps(request)
    start = time.perf_counter()
    reply_text = protocol.handle(text)
    elapsed = time.perf_counter() - start
    assert elapsed < SLOW_S, f"{elapsed:.1f} s for {text[:200]!r}"
    reply = json.loads(reply_text, parse_constant=_no_constant)
    assert isinstance(reply, dict) and isinstance(reply.get("ok"), bool), reply
    if reply["ok"]:
        assert set(reply) == {"id", "ok", "result"}
    else:
        assert set(reply) == {"id", "ok", "error"}
        error = reply["error"]
        assert set(error) == {"code", "message", "text", "input", "no_game"}, error
        assert error["input"] is error["code"].startswith("bad_"), error
        assert error["no_game"] is (error["code"] == "no_game"), error
        assert CODE.match(error["code"]) and error["code"] != "internal", (text[:300], error)
        for lang in LANGUAGES:  # what people read of it has words in every language
            assert render(error["text"], lang).strip(), (lang, error)
        assert isinstance(error["message"], str) and error["message"].strip(), error
        assert len(error["message"]) <= MAX_MESSAGE_CHARS, (error["code"], len(error["message"]))
    return reply


def _no_constant(name: str) -> Any:
    raise AssertionError(f"the reply holds {name}, which is not JSON")


def snapshot() -> tuple[Any, Any]:
    view = json.loads(protocol.handle('{"type": "view"}'))
    record = json.loads(protocol.handle('{"type": "record"}'))
    assert view["ok"] and record["ok"]
    return view["result"], record["result"]


class Game:
    """A game in play, restored after any request that legitimately changed it."""

    def __init__(self) -> None:
        protocol.reset()
        view = send({"type": "new_game", "seed": "fuzz", "level": "random", "games": 2})["result"]
        rng = random.Random(3)
        for _ in range(45):
            if view["to_move"] == SOUTH:
                card = rng.choice(view["legal"])
                view = send({"type": "play", "card": card})["result"]
            else:
                view = send({"type": "step"})["result"]
        while view["to_move"] != SOUTH:  # South to play: "play" has a legal card to mutate
            view = send({"type": "step"})["result"]
        self.save = send({"type": "record"})["result"]
        self.before = snapshot()
        self.restore()  # the table as a load leaves it (no last move shown): restores compare
        self.before = snapshot()

    def check(self, request: Any) -> dict[str, Any]:
        """Send a request; a refused one must leave the game exactly as it was."""
        reply = send(request)
        kind = _kind(request)
        if reply["ok"] and kind in CHANGES_GAME:
            self.restore()
        else:
            assert snapshot() == self.before, f"the game changed after {str(request)[:300]}"
        return reply

    def restore(self) -> None:
        assert send({"type": "load", **self.save})["ok"]
        assert snapshot()[1] == self.before[1]  # the view may differ once: in its last move


def _kind(request: Any) -> Any:
    if isinstance(request, str):
        try:
            request = json.loads(request)
        except (ValueError, RecursionError):
            return None
    return request.get("type") if isinstance(request, dict) else None


@pytest.fixture(scope="module")
def game_in_play() -> Iterator[Game]:
    yield Game()
    protocol.reset()


@pytest.fixture
def game(game_in_play: Game) -> Game:
    """The module's game, as it was (a failed test leaves it otherwise)."""
    game_in_play.restore()
    return game_in_play


def valid_requests(game: Game) -> list[dict[str, Any]]:
    view = game.before[0]
    card = view["legal"][0]
    return [
        {"id": 1, "type": "hello"},
        {"id": 2, "type": "new_game", "seed": "s", "rules": {"all_fours": True},
         "level": "random", "games": 2, "suit": "H"},
        {"id": 3, "type": "new_game", "levels": ["random", "random", None, "random"]},
        {"id": 10, "type": "new_game", "level": "random",
         "people": [{"seat": 2, "name": "Ana"}, {"seat": 0, "name": "Ben"}]},
        {"id": 4, "type": "view"},
        {"id": 5, "type": "play", "card": card},
        {"id": 6, "type": "step"},
        {"id": 11, "type": "reveal", "seat": 2},
        {"id": 7, "type": "next_game"},
        {"id": 8, "type": "record"},
        {"id": 12, "type": "aids"},
        {"id": 9, "type": "load", **copy.deepcopy(game.save)},
    ]


def tree_paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a JSON value: the paths to it and to each of its parts."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from tree_paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from tree_paths(item, (*path, i))


def replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    copied = copy.copy(value)
    copied[path[0]] = replaced(value[path[0]], path[1:], new)
    return copied


def removed(value: Any, path: tuple[Any, ...]) -> Any:
    copied = copy.copy(value)
    if len(path) == 1:
        del copied[path[0]]
    else:
        copied[path[0]] = removed(value[path[0]], path[1:])
    return copied


def sample_paths(value: Any, rng: random.Random, per_list: int = 3) -> list[tuple[Any, ...]]:
    """All paths, but only a few items of each long list (a deck has 208)."""
    paths = list(tree_paths(value))
    return [p for p in paths if not _deep_in_long_list(value, p) or rng.random() < per_list / 60]


def _deep_in_long_list(value: Any, path: tuple[Any, ...]) -> bool:
    for key in path:
        if isinstance(value, list) and len(value) > 10:
            return True
        value = value[key]
    return False


# -- the protocol ---------------------------------------------------------------------------


def test_each_part_of_each_valid_request_replaced_by_odd_values(game: Game) -> None:
    rng = random.Random(1)
    count = 0
    for request in valid_requests(game):
        paths = [p for p in sample_paths(request, rng) if p]
        for path in paths:
            values = WEIRD if len(path) == 1 else rng.sample(WEIRD, 6)
            for value in values:
                game.check(replaced(request, path, value))
                count += 1
            if isinstance(path[-1], str):
                game.check(removed(request, path))
        game.check({**request, "unexpected": 1})
    assert count > 1_000


def test_request_envelopes_that_are_not_requests(game: Game) -> None:
    for text in ["", " ", "null", "0", "[]", '"view"', "{", "}", '{"type": "view"', "[{}]",
                 '{"type": "view"}{"type": "view"}', '{"type": "VIEW"}', '{"type": " view"}',
                 '{"type": ["view"]}', '{"type": "view", "type": "step"}', "\ufeff{}",
                 '{"type": "view", "id": NaN}', '{"type": "view", "id": Infinity}',
                 '{"type": "view", "id": -Infinity}', '{"type": "play", "card": NaN}',
                 '{"type": "view", "id": 1e999}', '{"type": "view", "id": ' + "9" * 5000 + "}",
                 '{"type": "new_game", "games": ' + "1" * 4400 + "}",
                 '{"type": "new_game", "seed": "' + "\\ud800" * 10 + '"}',
                 "[" * 100_000, "{" * 100_000, '{"a":' * 50_000,
                 '{"type": "load", "record": ' + "[" * 50_000 + "]" * 50_000 + "}",
                 "x" * (MAX_REQUEST_CHARS + 1),
                 '{"type": "' + "y" * 200_000 + '"}']:
        reply = game.check(text)
        assert not reply["ok"], text[:100]
    long_id = "x" * 200_000  # any text is an id; the reply carries it back unchanged
    assert game.check({"id": long_id, "type": "view"})["id"] == long_id
    for request in [None, 42, b'{"type": "view"}', {"type": "view"}, ["view"]]:
        reply = json.loads(protocol.handle(request))  # type: ignore[arg-type]
        assert reply["ok"] is False and reply["error"]["code"] == "bad_json"
    assert snapshot() == game.before


def test_truncated_and_bit_flipped_requests(game: Game) -> None:
    rng = random.Random(2)
    for request in valid_requests(game):
        text = json.dumps(request)
        cuts = sorted(rng.sample(range(len(text)), min(len(text), 40)))
        for cut in cuts:
            game.check(text[:cut])
        raw = text.encode()
        for _ in range(60):
            flipped = bytearray(raw)
            flipped[rng.randrange(len(raw))] ^= 1 << rng.randrange(8)
            game.check(flipped.decode("utf-8", errors="replace"))


def test_saves_with_each_part_broken_are_refused(game: Game) -> None:
    rng = random.Random(4)
    save = game.save
    count = 0
    for path in sample_paths(save, rng):
        if not path:
            continue
        for value in rng.sample(WEIRD, 6):
            game.check({"type": "load", **replaced(save, path, value)})
            count += 1
        game.check({"type": "load", **removed(save, path)})
    plays = save["record"]["plays"]
    sealed = save["record"]["deck"]
    deck = opened_record(save["record"])["deck"]
    for broken in [
        {"deck": sealed[:-2] + ("00" if sealed[-2:] != "00" else "01")},  # a seal changed
        {"deck": seal_deck([*deck[:-2], deck[-1], deck[-2]])[:20] + sealed[20:]},
        {"plays": plays[:-1] + plays[-2:-1]},  # a card played twice
        {"plays": [*plays[1:], plays[0]]},  # shifted: out of turn
        {"plays": plays + deck},  # more plays than cards
        {"deck": [*deck[1:], deck[0]]},  # another deal: the plays no longer fit
        {"deck": deck[:-1]},  # 207 cards
        {"deck": [*deck[:-1], deck[0]]},  # a card five times
        {"deck": deck * 2},
        {"suits": ["S", "H", "D", "C"]},  # partners in different pairs
        {"first_dealer": 4},
        {"first_dealer": True},
        {"version": 1.0},
        {"format": "calypso-record "},
        {"rules": {**save["record"]["rules"], "extra": True}},
    ]:
        reply = game.check({"type": "load", **save, "record": {**save["record"], **broken}})
        assert not reply["ok"] and reply["error"]["code"] == "bad_record", broken
        count += 1
    for history in [[save["record"]] * 3, [{}], [None], "x", [save["record"]] * 500]:
        assert not game.check({"type": "load", **save, "history": history})["ok"]
    assert count > 250


@HYPOTHESIS
@given(kind=st.sampled_from(sorted(set(protocol.REQUESTS) - {"hint"})) | st.text(max_size=12),
       payload=st.dictionaries(
           st.sampled_from(["id", "seed", "rules", "level", "levels", "people", "games", "suit",
                            "card", "seat", "record", "settings", "history", "x"]),
           json_values, max_size=4))
def test_random_requests_are_answered_and_refusals_change_nothing(
    game: Game, kind: str, payload: dict[str, Any]
) -> None:
    game.check({**payload, "type": kind})


@HYPOTHESIS
@given(data=st.data())
def test_random_values_inside_a_save_are_refused(game: Game, data: st.DataObject) -> None:
    save = game.save
    paths = [p for p in tree_paths(save) if p]
    path = data.draw(st.sampled_from(paths))
    game.check({"type": "load", **replaced(save, path, data.draw(json_values))})


def test_hints_with_bad_payloads_are_refused(game: Game) -> None:
    payloads: list[dict[str, Any]] = [{"card": "QH"}, {"level": "master"}, {"x": None}]
    for payload in payloads:
        reply = game.check({"type": "hint", **payload})
        assert reply["error"]["code"] == "bad_request"


# -- game records ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def record(game_in_play: Game) -> dict[str, Any]:
    return dict(game_in_play.save["record"])


def read_or_refuse(text: str | bytes) -> GameState | None:
    """parse_record either rebuilds a game or raises RecordError with a message; in time."""
    start = time.perf_counter()
    try:
        return parse_record(text)
    except RecordError as exc:
        assert str(exc).strip()
        return None
    finally:
        assert time.perf_counter() - start < SLOW_S


def test_record_text_truncated_anywhere_is_refused(record: dict[str, Any]) -> None:
    text = json.dumps(record)
    for cut in range(0, len(text), 7):
        assert read_or_refuse(text[:cut]) is None


def test_record_bytes_bit_flipped_are_refused_or_read_as_a_valid_game(
    record: dict[str, Any],
) -> None:
    rng = random.Random(5)
    raw = json.dumps(record).encode()
    valid = 0
    for _ in range(2_000):
        flipped = bytearray(raw)
        for _ in range(rng.choice([1, 1, 2, 8])):
            flipped[rng.randrange(len(raw))] ^= 1 << rng.randrange(8)
        state = read_or_refuse(bytes(flipped))
        if state is not None:  # a flip that keeps the record valid: "TD" -> "Td", say
            valid += 1
            assert from_record(to_record(state)) == state
    assert valid < 2_000 * 0.2


def test_oversized_and_deeply_nested_record_texts_are_refused() -> None:
    texts: list[str | bytes] = [
        "[" * (MAX_RECORD_BYTES - 1), '{"a":' * (MAX_RECORD_BYTES // 5 - 1),
        " " * (MAX_RECORD_BYTES + 1), b"\xff\xfe" * 100, b"\x00", "\ufeff{}",
        '{"format": NaN}', "1" * 5000, '"' + "x" * 60_000 + '"']
    for text in texts:
        assert read_or_refuse(text) is None


def test_each_part_of_a_record_replaced_by_odd_values(record: dict[str, Any]) -> None:
    rng = random.Random(6)
    for path in sample_paths(record, rng, per_list=6):
        for value in WEIRD:
            _from_record_or_refuse(replaced(record, path, value))
        if path:
            _from_record_or_refuse(removed(record, path))


@HYPOTHESIS
@given(value=json_values)
def test_random_json_is_not_a_record(value: Any) -> None:
    with pytest.raises(RecordError):
        from_record(value)


@HYPOTHESIS
@given(data=st.data())
def test_random_values_inside_a_record_are_refused_or_valid(
    record: dict[str, Any], data: st.DataObject
) -> None:
    path = data.draw(st.sampled_from([p for p in tree_paths(record) if p]))
    _from_record_or_refuse(replaced(record, path, data.draw(json_values)))


def _from_record_or_refuse(value: Any) -> None:
    start = time.perf_counter()
    try:
        state = from_record(value)
    except RecordError as exc:
        assert str(exc).strip()  # it may quote the bad value whole; the protocol cuts it short
    else:
        assert from_record(to_record(state)) == state
    assert time.perf_counter() - start < SLOW_S


# -- game files, in any encoding and none --------------------------------------------------

# The byte-order marks an editor may begin a file with, by the encoding each names.
MARKS = {"utf-8": b"\xef\xbb\xbf", "utf-16-le": b"\xff\xfe", "utf-16-be": b"\xfe\xff",
         "utf-32-le": b"\xff\xfe\x00\x00", "utf-32-be": b"\x00\x00\xfe\xff"}
# Names outside ASCII, which each encoding writes its own way.
PEOPLE = [{"computer": "random"}, {"person": "Zoë"}, {"person": "Аня"}, {"computer": "club"}]


def imported(game: Game, contents: str | bytes) -> dict[str, Any]:
    """``import`` of a game file as the page sends it (its bytes, in base64) or as text: a
    reply in time, never ``internal``, and the game in play unchanged (Game.check)."""
    if isinstance(contents, str):
        return game.check({"type": "import", "text": contents})
    encoded = binascii.b2a_base64(contents, newline=False).decode()
    return game.check({"type": "import", "base64": encoded})


@pytest.mark.parametrize("encoding", MARKS)
def test_a_game_file_imports_the_same_in_every_encoding_with_any_number_of_marks(
        game: Game, encoding: str) -> None:
    text = json.dumps({**game.save["record"], "players": PEOPLE}, ensure_ascii=False)
    plain = imported(game, text)["result"]
    for marks in range(4):
        if encoding == "utf-8" or marks:  # UTF-16 and UTF-32 are read by their mark
            data = MARKS[encoding] + ("\ufeff" * max(marks - 1, 0) + text).encode(encoding)
            assert imported(game, data)["result"] == plain, (encoding, marks)
        assert imported(game, "\ufeff" * marks + text)["result"] == plain


def test_regression_a_file_beginning_with_a_byte_order_mark_is_not_internal(game: Game) -> None:
    # parse_record skipped the mark, then import parsed the raw text again: "internal".
    text = json.dumps(game.save["record"])
    assert imported(game, "\ufeff" + text)["ok"]
    assert imported(game, "\ufeff\ufeff" + text)["ok"]  # what the page sent for two marks


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-32-be", "cp1251"])
def test_a_file_in_an_encoding_it_does_not_mark_is_refused_as_not_text(
        game: Game, encoding: str) -> None:
    # Cyrillic names in Windows-1251 are no UTF-8; UTF-16 and UTF-32 need their mark.
    people = [{"computer": "random"}, {"person": "Борис"}, {"person": "Аня"}, {"computer": "club"}]
    text = json.dumps({**game.save["record"], "players": people}, ensure_ascii=False)
    reply = imported(game, text.encode(encoding))
    assert reply["error"]["code"] == "bad_record"
    assert reply["error"]["text"] == {"id": "error.not_text"}


@HYPOTHESIS
@given(marks=st.lists(st.sampled_from(list(MARKS.values())), max_size=3),
       body=st.binary(max_size=400))
def test_random_bytes_after_any_marks_are_refused_never_internal(
        game_in_play: Game, marks: list[bytes], body: bytes) -> None:
    data = b"".join(marks) + body
    reply = imported(game_in_play, data)
    assert not reply["ok"] and reply["error"]["code"] == "bad_record"
    imported(game_in_play, data.decode("latin-1"))  # the same bytes, as a page might read them


def test_a_game_file_in_each_encoding_bit_flipped_is_refused_or_read_never_internal(
        game: Game) -> None:
    rng = random.Random(7)
    text = json.dumps({**game.save["record"], "players": PEOPLE}, ensure_ascii=False)
    for encoding, mark in MARKS.items():
        raw = mark + text.encode(encoding)
        for _ in range(60):
            flipped = bytearray(raw)
            for _ in range(rng.choice([1, 2, 8])):
                flipped[rng.randrange(len(raw))] ^= 1 << rng.randrange(8)
            imported(game, bytes(flipped))
        for cut in range(0, len(raw), len(raw) // 40):
            imported(game, raw[:cut])


def test_special_floats_never_pass_for_numbers(record: dict[str, Any]) -> None:
    for value in [math.nan, math.inf, -math.inf, 1.0, 0.0]:
        with pytest.raises(RecordError):
            from_record({**record, "first_dealer": value})
        with pytest.raises(RecordError):
            from_record({**record, "version": value})


def test_regression_deep_nesting_is_refused_before_parsing(game: Game) -> None:
    # In Pyodide, parsing "[" * 200_000 overflowed the JavaScript stack and killed the worker.
    limit = MAX_NESTING
    inside = '{"type": "new_game", "rules": ' + "[" * (limit - 1) + "]" * (limit - 1) + "}"
    assert game.check(inside)["error"]["code"] == "bad_rules"  # parsed, then refused
    for text in ["[" * (limit + 1) + "]" * (limit + 1), '{"a":' * (limit + 1),
                 '{"type": "view", "x": "' + "[" * 100_000 + '"}']:  # not in a string
        reply = game.check(text)
        assert reply["error"]["code"] == ("bad_request" if '"x"' in text else "bad_json")


def test_regression_lone_surrogates_are_refused(game: Game) -> None:
    # A seed of "\ud800" reached random.Random, which could not encode it: "internal".
    for text in ['{"type": "new_game", "seed": "\\ud800"}', '{"type": "view", "\\udfff": 1}']:
        assert game.check(text)["error"]["code"] == "bad_json"


def test_regression_load_applies_the_record_size_limit(game: Game) -> None:
    # Cards may carry spaces (" QH"), so a record padded past MAX_RECORD_BYTES was loaded,
    # though parse_record refuses the same record as a file.
    padded = {**game.save["record"],
              "deck": [" " * 400 + card for card in game.save["record"]["deck"]]}
    assert len(json.dumps(padded)) > MAX_RECORD_BYTES
    with pytest.raises(RecordError, match="limit"):
        parse_record(json.dumps(padded))
    for save in [{**game.save, "record": padded}, {**game.save, "history": [padded]}]:
        reply = game.check({"type": "load", **save})
        assert reply["error"]["code"] == "bad_record"
        assert str(MAX_RECORD_BYTES) in reply["error"]["message"]
