"""The worker protocol, driven as the page drives it: JSON strings in, JSON strings out."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pytest
from protocol_calls import advance, call, error, ok, recipe, said, same_table

import calypso_core
from calypso_core import Card, Rules, Suit, from_record, new_game, table
from calypso_core.bots import Bot
from calypso_core.jsontext import top_level_id
from calypso_core.messages import LANGUAGES, message
from calypso_core.record import MAX_RECORD_BYTES
from calypso_core.table import players as players_module
from calypso_core.table.transport import MAX_REQUEST_CHARS
from calypso_core.table.views import suit_order
from calypso_core.trick_reasons import explain_trick, trick_reason

SOUTH = 2


# Each test starts from a fresh table session and leaves none behind.
pytestmark = pytest.mark.usefixtures("fresh_table")


def playable(view: dict[str, Any]) -> list[str]:
    return list(view["legal"])


def play_out(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Finish the game: random legal cards for South, computer moves for the others."""
    view = advance(view)
    while view["status"] != "game_over":
        view = advance(ok("play", card=rng.choice(playable(view))))
    return view



# -- hello and malformed requests -------------------------------------------------------------


def test_hello_carries_the_engine_and_protocol_versions_and_the_choices() -> None:
    hello = ok("hello")
    assert hello["engine"] == calypso_core.__version__
    assert hello["protocol"] == table.PROTOCOL_VERSION == 3
    assert hello["seats"] == [{"key": "north"}, {"key": "east"}, {"key": "south"}, {"key": "west"}]
    assert hello["people"] == {"max": 4, "default": [SOUTH], "name_chars": 20}
    levels = [level["key"] for level in hello["levels"]]
    assert "random" in levels and hello["default_level"] in levels
    assert [o["key"] for o in hello["options"]] == list(Rules().to_dict())
    assert {o["key"]: o["default"] for o in hello["options"]} == Rules().to_dict()
    assert hello["games"] == {"min": 1, "max": 4, "default": 1}


def test_hello_carries_the_engine_facts_the_page_would_otherwise_repeat() -> None:
    hello = ok("hello")
    assert hello["scoring"] == {"calypsos": [500, 750, 1000, 1000], "calypso_card": 20,
                                "pile_card": 10}
    assert hello["limits"] == {"file_bytes": 64_000}
    assert hello["deals"] == {"count": 4, "tricks": 13}
    ranks = hello["cards"]["ranks"]
    assert [r["key"] for r in ranks] == list("AKQJT98765432")
    assert ranks[4] == {"key": "T"}  # its words are the catalogs' (calypso_core/messages)
    suits = hello["cards"]["suits"]
    assert [(s["key"], s["symbol"], s["color"]) for s in suits] == [
        ("S", "♠", "black"), ("H", "♥", "red"), ("D", "♦", "red"), ("C", "♣", "black")]
    # Every card's name follows from its code and the catalogs, as the page builds it.
    for card in map(Card, range(52)):
        assert said(message("card.name", rank=str(card)[0], suit=str(card)[1])) == card.name


def test_levels_say_how_strong_they_are_and_how_long_they_think() -> None:
    levels = ok("hello")["levels"]
    assert [level["strength"] for level in levels] == list(range(1, len(levels) + 1))
    for level in levels:
        for lang in LANGUAGES:
            assert said(level["label"], lang) and said(level["help"], lang).endswith(".")
    by_key = {level["key"]: level for level in levels}
    assert by_key["random"]["think_ms"] == 0
    if "master" in by_key:
        assert by_key["master"]["think_ms"] >= by_key["expert"]["think_ms"] > 0


@pytest.mark.parametrize(
    ("request_text", "code"),
    [
        ("{not json", "bad_json"),
        ("", "bad_json"),
        ('{"id": 1, "type": "hello", "x": NaN}', "bad_json"),
        ("[1, 2]", "bad_request"),
        ('"hello"', "bad_request"),
        ('{"id": 1}', "unknown_type"),
        ('{"id": 1, "type": "no_such_type"}', "unknown_type"),
        ('{"id": 1, "type": 5}', "unknown_type"),
        ('{"id": [1], "type": "hello"}', "bad_request"),
        ('{"id": 1, "type": "hello", "extra": 1}', "bad_request"),
        ('{"id": 1, "type": "view", "card": "QH"}', "bad_request"),
        ('{"id": 1, "type": "hello", "type": "view"}', "bad_json"),
        ("[" * 100_000, "bad_json"),
    ],
)
def test_malformed_requests_get_structured_errors(request_text: str, code: str) -> None:
    reply = json.loads(table.handle(request_text))
    assert reply["ok"] is False
    assert reply["error"]["code"] == code
    assert reply["error"]["message"]


def test_an_oversized_request_is_refused_before_parsing() -> None:
    text = '{"type": "hello", "x": "' + "a" * MAX_REQUEST_CHARS + '"}'
    reply = json.loads(table.handle(text))
    assert reply["error"]["code"] == "bad_request"
    assert f"the limit is {MAX_REQUEST_CHARS}" in reply["error"]["message"]


# Refused by each check before the request is read as data; the id is readable in each.
REFUSED_WITH_AN_ID = {
    "too long": ('{"type": "hello", "x": "' + "a" * MAX_REQUEST_CHARS + '", "id": 41}',
                 "bad_request"),
    "too deep": ('{"type": "load", "record": ' + "[" * 40 + "]" * 40 + ', "id": "r-42"}',
                 "bad_json"),
    "lone surrogate": ('{"id": 43, "type": "new_game", "seed": "\\ud800"}', "bad_json"),
    "not JSON": ('{"id": 44, "type": "play", "card": NaN}', "bad_json"),
    "key twice": ('{"id": 45, "type": "view", "type": "step"}', "bad_json"),
    "unknown type": ('{"type": "no_such_type", "id": 46}', "unknown_type"),
}


@pytest.mark.parametrize("name", REFUSED_WITH_AN_ID)
def test_a_refused_request_is_answered_with_its_id(name: str) -> None:
    # The page matches replies by id: a refusal answered with "id": null was dropped, and
    # the page waited for a reply that never came.
    text, code = REFUSED_WITH_AN_ID[name]
    reply = json.loads(table.handle(text))
    assert reply["error"]["code"] == code
    assert reply["id"] == top_level_id(text) != None  # noqa: E711


def test_an_import_the_page_accepts_is_judged_as_a_game_record_whatever_its_bytes() -> None:
    # 64,000 control characters were a 384,000-character request, refused for its size
    # with "id": null: the page hung, restarted its worker twice and blamed the engine.
    for text in ["\x01" * MAX_RECORD_BYTES, "\ufffd" * (MAX_RECORD_BYTES // 3),
                 '"\\' * (MAX_RECORD_BYTES // 2)]:
        request = json.dumps({"text": text, "id": 47, "type": "import"})
        assert len(request) <= MAX_REQUEST_CHARS
        reply = json.loads(table.handle(request))
        assert reply["id"] == 47
        assert reply["error"]["code"] == "bad_record"


def test_an_id_that_is_not_an_id_is_not_sent_back() -> None:
    for text in ['{"id": 1.5, "type": "view"}', '{"id": 9007199254740993, "type": "view"}',
                 '{"id": [1], "type": "view", "x": NaN}', '{"type": "view", "x": {"id": 1}}']:
        assert json.loads(table.handle(text))["id"] is None


def test_a_non_string_request_is_refused() -> None:
    reply = json.loads(table.handle(b"{}"))  # type: ignore[arg-type]
    assert reply["error"]["code"] == "bad_json"


@pytest.mark.parametrize("kind", ["view", "play", "step", "reveal", "next_game", "record",
                                  "hint", "aids", "undo"])
def test_game_commands_need_a_game(kind: str) -> None:
    payload = {"card": "QH"} if kind == "play" else {"seat": 2} if kind == "reveal" else {}
    assert error(kind, **payload) == "no_game"


def test_the_handler_never_raises_on_junk() -> None:
    rng = random.Random(1)
    kinds = [*table.REQUESTS, "junk"]
    values: list[Any] = [None, 0, -1, 5, 10**30, 1.5, "", "QH", "XX", [], {}, [1, 2, 3, 4],
                         {"a": 1}, True, "random", "master", ["random"] * 4,
                         [{"seat": 0}], [{"seat": 2, "name": "Ana"}, {"seat": 0}]]
    ok("new_game", seed=1, level="random")
    for _ in range(500):
        request: dict[str, Any] = {"id": rng.randrange(100), "type": rng.choice(kinds)}
        for key in rng.sample(["seed", "rules", "level", "levels", "people", "games", "suit",
                               "card", "seat", "record", "settings", "history"],
                              rng.randrange(3)):
            request[key] = rng.choice(values)
        reply = json.loads(table.handle(json.dumps(request)))
        assert reply["id"] == request["id"]
        assert isinstance(reply["ok"], bool)
        if not reply["ok"]:
            assert reply["error"]["code"] != "internal", (request, reply)


# -- new_game ---------------------------------------------------------------------------------


def test_new_game_deals_from_the_seed_as_the_engine_does() -> None:
    view = ok("new_game", seed=42, level="random")
    state = new_game("42")
    assert view["table"]["settings"]["seed"] == "42"
    assert [s["suit"] for s in view["table"]["seats"]] == [str(s) for s in state.suits]
    assert sorted(view["hand"]) == sorted(str(c) for c in state.hand(SOUTH))
    assert view["dealer"] == state.dealer
    assert view["to_move"] == state.to_move
    assert view["viewer"] == SOUTH
    assert (view["deal"], view["trick"]["index"], view["plays"], view["stock"]) == (0, 0, 0, 156)
    assert [s["cards"] for s in view["seats"]] == [13, 13, 13, 13]
    assert view["match"]["game"] == 0 and view["match"]["games"] == 1
    assert view["sheet"] is None and view["log"]["tricks"] == []
    assert view["event"] is None and "save" not in view


def test_a_number_seed_and_its_text_give_the_same_deal() -> None:
    first = ok("new_game", seed=42, level="random")
    second = ok("new_game", seed="42", level="random")
    assert first == second


def test_without_a_seed_a_fresh_one_is_drawn_and_reported() -> None:
    view = ok("new_game", level="random")
    seed = view["table"]["settings"]["seed"]
    assert isinstance(seed, str) and seed
    assert ok("new_game", seed=seed, level="random")["hand"] == view["hand"]


@pytest.mark.parametrize("suit", ["S", "H", "D", "C"])
def test_the_person_may_choose_a_suit_and_the_deal_stays_the_seeds(suit: str) -> None:
    view = ok("new_game", seed=9, level="random", suit=suit)
    suits = [s["suit"] for s in view["table"]["seats"]]
    assert suits[SOUTH] == suit
    assert suits[0] == str(Suit.parse(suit).mate)
    assert {suits[1], suits[3]} == {"S", "H", "D", "C"} - {suit, suits[0]}
    state = new_game("9")
    assert view["dealer"] == state.dealer
    assert sorted(view["hand"]) == sorted(str(c) for c in state.hand(SOUTH))


def test_levels_may_be_set_per_seat() -> None:
    levels = [level["key"] for level in ok("hello")["levels"]]
    chosen = [levels[-1], "random", None, levels[0]]
    view = ok("new_game", seed=1, levels=chosen)
    assert [s["level"] for s in view["table"]["seats"]] == [levels[-1], "random", "human",
                                                            levels[0]]


def test_rules_options_reach_the_game() -> None:
    view = ok("new_game", seed=1, level="random", rules={"all_fours": True}, games=3)
    assert view["table"]["settings"]["rules"] == Rules(all_fours=True).to_dict()
    assert view["match"]["games"] == 3


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ({"seed": [1]}, "bad_seed"),
        ({"seed": 1.5}, "bad_seed"),
        ({"seed": "x" * 101}, "bad_seed"),
        ({"rules": {"no_such_option": True}}, "bad_rules"),
        ({"rules": {"all_fours": 1}}, "bad_rules"),
        ({"rules": []}, "bad_rules"),
        ({"level": "grandmaster"}, "bad_level"),
        ({"level": "random", "levels": ["random"] * 4}, "bad_level"),
        ({"levels": ["random"] * 3}, "bad_level"),
        ({"levels": "random"}, "bad_level"),
        ({"levels": ["human", "random", None, "random"]}, "bad_level"),
        ({"games": 0}, "bad_games"),
        ({"games": 5}, "bad_games"),
        ({"games": "2"}, "bad_games"),
        ({"games": True}, "bad_games"),
        ({"suit": "X"}, "bad_suit"),
        ({"suit": 1}, "bad_suit"),
        ({"people": []}, "bad_people"),
        ({"people": [{"seat": 0}] * 5}, "bad_people"),
        ({"people": {"seat": 2}}, "bad_people"),
        ({"people": [{"seat": 4}]}, "bad_people"),
        ({"people": [{"seat": "2"}]}, "bad_people"),
        ({"people": [{"name": "Ana"}]}, "bad_people"),
        ({"people": [{"seat": 2, "name": "Ana", "age": 9}]}, "bad_people"),
        ({"people": [{"seat": 2}, {"seat": 2}]}, "bad_people"),
        ({"people": [{"seat": 2, "name": "Ana"}, {"seat": 0, "name": " ana "}]}, "bad_people"),
        ({"people": [{"seat": 2, "name": "x" * 21}]}, "bad_people"),
        ({"people": [{"seat": 2, "name": "Ana\u0000"}]}, "bad_people"),
        ({"people": [{"seat": 2, "name": 7}]}, "bad_people"),
    ],
)
def test_bad_settings_are_refused_and_the_game_in_play_is_kept(
    payload: dict[str, Any], code: str
) -> None:
    before = ok("new_game", seed=3, level="random")
    assert error("new_game", **payload) == code
    assert ok("view") == {**same_table(before), "event": None, "table": before["table"]}


# -- play and step ----------------------------------------------------------------------------


def test_the_hand_is_sorted_own_suit_then_partners_and_lists_exactly_the_legal_cards() -> None:
    view = advance(ok("new_game", seed=5, level="random"))
    own = Suit.parse(ok("view")["table"]["seats"][SOUTH]["suit"])
    order = suit_order(own)
    assert order[:2] == (own, own.mate)
    keys = [(order.index(Card.parse(c).suit), -Card.parse(c).rank) for c in view["hand"]]
    assert keys == sorted(keys)
    state = from_record(recipe()["record"])
    assert sorted(playable(view)) == sorted({str(c) for c in state.legal_moves()})
    assert len(set(playable(view))) == len(playable(view))


def test_the_view_shows_no_hidden_cards() -> None:
    view = advance(ok("new_game", seed=5, level="random"))
    state = from_record(recipe()["record"])
    assert "deck" not in view
    # Only South's hand is listed card by card; the others show how many cards they hold.
    assert [s["cards"] for s in view["seats"]] == [state.hand_size(s) for s in range(4)]
    assert "hand" not in json.dumps(view["seats"])
    assert len(view["hand"]) == state.hand_size(SOUTH)
    assert json.dumps(view).count('"hand"') == 1


def test_step_moves_one_computer_player_and_says_what_happened() -> None:
    view = ok("new_game", seed=1, level="random")
    assert view["to_move"] == 0  # with this seed North leads, then East plays before South
    mover = view["to_move"]
    after = ok("step")
    event = after["event"]
    assert event["seat"] == mover
    assert after["plays"] == 1
    assert after["trick"]["cards"] == [event["card"]]
    assert event["trick_over"] is False and event["game_over"] is False
    assert ok("step")["plays"] == 2
    assert ok("view")["event"] is None  # only the reply to the move says what it did


def test_a_computers_card_is_held_to_its_levels_clock_cap_whatever_it_held() -> None:
    # A master with one legal card answered in 1.8 ms, with several in 722 ms: the page showed
    # a void by how fast the card came. It now holds every card to the level's cap (1 s).
    assert players_module.hold_ms("master", 0.0018) == 998
    assert players_module.hold_ms("master", 0.722) == 278
    assert players_module.hold_ms("master", 1.3) == 0  # past the cap: shown at once
    assert players_module.hold_ms("random", 0.0001) == 0  # a level that answers at once
    # Through the protocol: the hold is the level's cap less the time thought.
    view = ok("new_game", seed=1, level="master")
    while view["status"] == "waiting":
        view = ok("step")
        event = view["event"]
        assert abs(event["hold_ms"] - max(0, 1000 - event["think_ms"])) <= 1, event
    view = ok("play", card=view["legal"][0])
    assert view["event"]["hold_ms"] == 0  # a person's card is not held


def test_the_old_bot_move_alias_is_gone() -> None:
    ok("new_game", seed=1, level="random")
    assert error("bot_move") == "unknown_type"


def test_a_completed_trick_names_its_winner_and_why_once() -> None:
    view = ok("new_game", seed=11, level="random")
    rng = random.Random(0)
    while view["plays"] < 4:
        view = ok("play", card=rng.choice(playable(view))) if view["to_move"] == SOUTH \
            else ok("step")
    state = from_record(recipe()["record"])
    trick = state.tricks[0]
    assert view["event"]["trick_over"] is True
    assert view["trick"]["cards"] == [] and view["trick"]["index"] == 1
    [last] = view["log"]["tricks"]
    assert last["winner"] == trick.winner and last["leader"] == trick.leader
    assert last["cards"] == [str(c) for c in trick.cards]
    trumps = [state.suits[(trick.leader + i) % 4] for i in range(4)]
    assert last["reason"] == trick_reason(trick.cards, trumps, state.rules, trick.leader)
    assert said(last["reason"]) == explain_trick(trick.cards, trumps, state.rules, trick.leader)
    # One copy of the trick in the reply.
    assert json.dumps(view).count(json.dumps(last["reason"])) == 1
    assert view["to_move"] == trick.winner


def test_the_log_keeps_a_finished_deal_and_its_summary_until_the_next_deals_first_card(
) -> None:
    view = ok("new_game", seed=12, level="random")
    rng = random.Random(4)

    def move(view: dict[str, Any]) -> Any:
        return ok("play", card=rng.choice(playable(view))) if view["status"] == "your_turn" \
            else ok("step")

    while view["plays"] < 52:
        assert view["log"]["summary"] is None  # the deal is not over yet
        view = move(view)
    assert view["event"]["deal_over"] is True
    assert (view["deal"], view["trick"]["index"], view["log"]["deal"]) == (1, 0, 0)
    assert len(view["log"]["tricks"]) == 13
    summary = view["log"]["summary"]
    winners = [t["winner"] % 2 for t in view["log"]["tricks"]]
    assert summary["tricks"] == [winners.count(0), winners.count(1)]
    assert summary["points"] == view["scores"]  # the first deal brought every point so far
    # From the next deal's first card on, the log is of the deal being played.
    view = move(view)
    assert (view["deal"], view["log"]["deal"], view["log"]["tricks"]) == (1, 1, [])
    assert len(view["trick"]["cards"]) == 1 and view["log"]["summary"] is None
    assert said(view["log"]["opening"]).startswith("Deal 2 of 4: ")
    while not view["event"]["trick_over"]:
        view = move(view)
    assert (view["deal"], view["log"]["deal"], len(view["log"]["tricks"])) == (1, 1, 1)


def test_step_on_the_persons_turn_is_refused() -> None:
    view = advance(ok("new_game", seed=11, level="random"))
    assert error("step") == "not_bot_turn"
    assert same_table(ok("view")) == same_table(view)


def test_play_out_of_turn_is_refused_and_changes_nothing() -> None:
    view = ok("new_game", seed=11, level="random")
    assert view["to_move"] != SOUTH
    card = view["hand"][0]
    assert error("play", card=card) == "not_your_turn"
    assert same_table(ok("view")) == same_table(view)


def test_illegal_and_malformed_cards_are_refused_and_change_nothing() -> None:
    view = advance(ok("new_game", seed=11, level="random"))
    record = recipe()
    state = from_record(record["record"])
    not_held = next(str(c) for c in map(Card, range(52)) if c not in state.hand(SOUTH))
    assert error("play", card=not_held) == "illegal_move"
    assert error("play", card="XX") == "bad_card"
    assert error("play", card=12) == "bad_card"
    assert error("play", card=None) == "bad_card"
    assert error("play") == "bad_request"
    unplayable = [c for c in view["hand"] if c not in view["legal"]]
    if unplayable:
        assert error("play", card=unplayable[0]) == "illegal_move"
    assert same_table(ok("view")) == same_table(view)
    assert recipe() == record


def test_a_trick_where_south_cannot_follow_refuses_the_wrong_suit() -> None:
    # Find a position where South must follow suit, then try another suit.
    for seed in range(40):
        view = advance(ok("new_game", seed=seed, level="random"))
        if view["trick"]["cards"] and len(view["legal"]) < len(set(view["hand"])):
            bad = next(c for c in view["hand"] if c not in view["legal"])
            reply = call("play", card=bad)
            assert reply["error"]["code"] == "illegal_move"
            assert "must follow" in reply["error"]["message"]
            assert same_table(ok("view")) == same_table(view)
            return
    pytest.fail("no seed gave South a suit to follow")


# -- a whole game and the score sheet ---------------------------------------------------------


def test_a_full_game_through_the_protocol_matches_the_engine() -> None:
    view = play_out(ok("new_game", seed=2024, level="random"), random.Random(3))
    assert view["status"] == "game_over"
    assert view["to_move"] is None and view["hand"] == [] and "legal" not in view
    assert view["plays"] == 208 and view["stock"] == 0
    assert view["event"]["game_over"] is True
    record = recipe()
    state = from_record(record["record"])
    assert state.is_over
    sheet = view["sheet"]
    for seat, player in enumerate(sheet["players"]):
        assert player["total"] == state.score(seat)
        assert player["total"] == (
            player["calypso_points"] + player["in_progress_points"] + player["pile_points"]
        )
        assert player["completed"] == state.completed(seat)
        assert player["calypso_points"] == [0, 500, 1250, 2250, 3250][player["completed"]]
        assert player["in_progress_points"] == 20 * len(state.calypso(seat))
        assert player["pile_points"] == 10 * state.pile(seat)
    for side, partnership in enumerate(sheet["sides"]):
        pair = [sheet["players"][side], sheet["players"][side + 2]]
        for key in ("completed", "calypso_points", "in_progress_points", "pile_points", "total"):
            assert partnership[key] == pair[0][key] + pair[1][key]
        assert partnership["total"] == state.partnership_scores()[side]
    assert sheet["winner"] == state.winner()
    assert view["scores"] == list(state.partnership_scores())
    assert view["match"]["totals"] == list(state.partnership_scores())
    assert view["match"]["is_over"] is True
    assert view["match"]["winner"] == state.winner()
    assert error("step") == "game_over"
    assert error("play", card="QH") == "game_over"
    assert error("next_game") == "match_over"


def test_deal_and_stock_advance_through_the_game() -> None:
    view = ok("new_game", seed=8, level="random")
    rng = random.Random(8)
    seen = set()
    while view["status"] != "game_over":
        seen.add((view["deal"], view["stock"]))
        assert sum(s["cards"] for s in view["seats"]) + len(view["trick"]["cards"]) == (
            52 - 4 * view["trick"]["index"]
        )
        view = ok("play", card=rng.choice(playable(view))) if view["to_move"] == SOUTH \
            else ok("step")
    assert seen == {(0, 156), (1, 104), (2, 52), (3, 0)}


# -- records --------------------------------------------------------------------------------


def test_record_and_load_rebuild_the_same_table() -> None:
    view = ok("new_game", seed=77, level="random", rules={"last_trump_in_wins": True})
    rng = random.Random(1)
    for _ in range(30):
        view = ok("play", card=rng.choice(playable(view))) if view["to_move"] == SOUTH \
            else ok("step")
    saved = recipe()
    assert saved["settings"] == view_settings()
    assert saved["record"]["format"] == "calypso-record"
    assert saved["record"]["players"] == [{"computer": "random"}, {"computer": "random"},
                                          {"person": ""}, {"computer": "random"}]
    assert saved["history"] == []
    table.reset()
    loaded = ok("load", **saved)
    assert loaded["event"] is None
    assert same_table(loaded) == same_table(view)
    assert recipe() == saved


def view_settings() -> Any:
    return ok("view")["table"]["settings"]


def test_a_save_from_before_several_people_could_play_still_loads() -> None:
    ok("new_game", seed=70, level="random")
    saved = recipe()
    old = {
        "record": {k: v for k, v in saved["record"].items() if k != "players"} | {"version": 1},
        "settings": {k: v for k, v in saved["settings"].items() if k != "people"},
        "history": [],
    }
    table.reset()
    loaded = ok("load", **old)
    assert loaded["viewer"] == SOUTH
    assert loaded["table"]["settings"]["people"] == [{"seat": SOUTH, "name": ""}]
    assert recipe() == saved


@pytest.mark.parametrize(
    ("mutate", "code"),
    [
        (lambda s: s["record"].update(plays=["XX"]), "bad_record"),
        (lambda s: s["record"].update(version=99), "bad_record"),
        (lambda s: s["record"].pop("deck"), "bad_record"),
        (lambda s: s.update(record="not a record"), "bad_record"),
        (lambda s: s.update(settings=[]), "bad_settings"),
        (lambda s: s["settings"].pop("seed"), "bad_settings"),
        (lambda s: s["settings"].update(games=9), "bad_games"),
        (lambda s: s["settings"].update(colour="red"), "bad_settings"),
        (lambda s: s["settings"].update(rules={"all_fours": True}), "bad_record"),
        (lambda s: s["settings"].update(people=[{"seat": 0}]), "bad_level"),
        (lambda s: s["settings"].update(people=[{"seat": 2, "name": "Ana"}]), "bad_record"),
        (lambda s: s["record"].update(players=[{"person": "Zed"}] * 4), "bad_record"),
        (lambda s: s.update(history="none"), "bad_record"),
        (lambda s: s.update(history=[s["record"]]), "bad_record"),
        (lambda s: s.pop("settings"), "bad_request"),
    ],
)
def test_a_bad_save_is_refused_and_the_game_in_play_is_kept(mutate: Any, code: str) -> None:
    ok("new_game", seed=4, level="random")
    saved = recipe()
    view = ok("step") if ok("view")["to_move"] != SOUTH else ok("view")
    mutate(saved)
    assert error("load", **saved) == code
    assert same_table(ok("view")) == same_table(view)


# -- matches --------------------------------------------------------------------------------


def test_a_match_reshuffles_keeps_suits_and_passes_the_deal_on() -> None:
    rng = random.Random(5)
    first = play_out(ok("new_game", seed="m", level="random", games=2, suit="D"), rng)
    assert first["match"]["is_over"] is False and first["match"]["winner"] is None
    game1 = from_record(recipe()["record"])
    second = ok("next_game")
    game2 = from_record(recipe()["record"])
    assert second["match"]["game"] == 1
    assert game2.suits == game1.suits and game2.suits[SOUTH] == Suit.DIAMONDS
    assert game2.first_dealer == game1.dealer == second["dealer"]
    assert game2.deck != game1.deck
    assert all(s["completed"] == 0 and s["pile"] == 0 and s["calypso"] == ""
               for s in second["seats"])
    assert second["match"]["finished"] == [
        {"scores": list(game1.partnership_scores()), "winner": game1.winner()}
    ]
    assert second["match"]["totals"] == list(game1.partnership_scores())
    assert error("next_game") == "game_not_over"
    # Saving mid-match keeps the earlier game.
    saved = recipe()
    assert len(saved["history"]) == 1
    table.reset()
    assert ok("load", **saved)["match"] == second["match"]
    last = play_out(second, rng)
    game2 = from_record(recipe()["record"])
    totals = [a + b for a, b in zip(game1.partnership_scores(), game2.partnership_scores(),
                                    strict=True)]
    assert last["match"]["totals"] == totals
    assert last["match"]["is_over"] is True
    winner = None if totals[0] == totals[1] else int(totals[1] > totals[0])
    assert last["match"]["winner"] == winner
    assert error("next_game") == "match_over"


def test_a_saved_match_with_a_broken_dealer_chain_is_refused() -> None:
    play_out(ok("new_game", seed="chain", level="random", games=2), random.Random(0))
    ok("next_game")
    saved = recipe()
    other = new_game("elsewhere", suits=from_record(saved["record"]).suits,
                     first_dealer=(from_record(saved["record"]).first_dealer + 1) % 4)
    saved["record"] = calypso_core.to_record(other)
    assert error("load", **saved) == "bad_record"


# -- computer players -----------------------------------------------------------------------


def test_a_failing_bot_falls_back_to_a_random_legal_card(monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken(Bot):
        def choose(self, observation: dict[str, Any], legal: Sequence[Card]) -> Card:
            raise RuntimeError("out of ideas")

    def make_broken(level: str, seat: int, rng: random.Random, **settings: Any) -> Bot:
        return Broken(seat, rng)

    monkeypatch.setattr(players_module, "make_bot", make_broken)
    view = ok("new_game", seed=11, level="novice")
    assert view["to_move"] != SOUTH
    event = ok("step")["event"]
    assert "out of ideas" in said(event["note"])


def test_the_default_level_plays_a_game() -> None:
    view = play_out(ok("new_game", seed=12), random.Random(2))
    assert view["status"] == "game_over"
    default = ok("hello")["default_level"]
    seats = ok("view")["table"]["seats"]
    assert all(s["level"] == default for s in seats if not s["person"])


def test_a_hint_is_a_legal_card_with_a_reason_and_changes_nothing() -> None:
    view = advance(ok("new_game", seed=13, level="random"))
    hint = ok("hint")
    assert hint["card"] in playable(view)
    assert hint["reason"] and all(said(part) for part in hint["reason"])
    assert same_table(ok("view")) == same_table(view)


# -- sizes ------------------------------------------------------------------------------------


def test_replies_over_a_whole_game_are_small() -> None:
    # Every reply the page receives in a game against computer players (docs/protocol.md:
    # about 17 KB for a view, before the table said each thing once).
    sizes = []

    def send(kind: str, **payload: Any) -> Any:
        reply = table.handle(json.dumps({"id": 1, "type": kind, **payload}))
        sizes.append(len(reply.encode()))
        return json.loads(reply)["result"]

    rng = random.Random(7)
    send("hello")
    view = send("new_game", seed="sizes", level="club")  # with the game's recipe: no "record"
    while view["status"] != "game_over":
        view = send("step") if view["status"] == "waiting" else \
            send("play", card=rng.choice(view["legal"]))
    assert len(sizes) == 2 + 208
    sizes.sort()
    assert sizes[len(sizes) // 2] <= 4_000
    assert sizes[-1] <= 6_000


def test_an_optional_key_given_as_null_is_left_out() -> None:
    view = ok("new_game", seed=None, rules=None, level=None, levels=None, people=None,
              games=None, suit=None)
    assert view["match"]["games"] == 1 and view["table"]["settings"]["people"] == [
        {"seat": SOUTH, "name": ""}]
    saved = recipe()
    assert ok("load", record=saved["record"], settings=saved["settings"], history=None,
              viewer=None)["plays"] == 0
    while ok("view")["status"] != "game_over":
        view = ok("view")
        ok("play", card=view["legal"][0]) if view["status"] == "your_turn" else ok("step")
    assert ok("replay", tricks=None)["tricks"] == 52
