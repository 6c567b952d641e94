"""The worker protocol, driven as the page drives it: JSON strings in, JSON strings out."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from protocol_calls import call, error, ok

import calypso_core
from calypso_core import Card, Rules, Suit, from_record, new_game
from calypso_core.explain import explain_trick
from calypso_core.table import match as match_module
from calypso_core.table import transport as protocol
from calypso_core.table.views import suit_order

SOUTH = 2


@pytest.fixture(autouse=True)
def fresh_session() -> Iterator[None]:
    protocol.reset()
    yield
    protocol.reset()


def playable(view: dict[str, Any]) -> list[str]:
    return [c["card"] for c in view["hand"] if c["playable"]]


def advance(view: dict[str, Any]) -> dict[str, Any]:
    """Let the computer players move until it is South's turn or the game is over."""
    while not view["is_over"] and view["to_move"] != SOUTH:
        view = ok("step")
    return view


def play_out(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Finish the game: random legal cards for South, computer moves for the others."""
    view = advance(view)
    while not view["is_over"]:
        view = advance(ok("play", card=rng.choice(playable(view))))
    return view


# -- hello and malformed requests -------------------------------------------------------------


def test_hello_carries_the_engine_and_protocol_versions_and_the_choices() -> None:
    hello = ok("hello")
    assert hello["engine"] == calypso_core.__version__
    assert hello["protocol"] == protocol.PROTOCOL_VERSION
    assert hello["you"] == SOUTH
    levels = [level["key"] for level in hello["levels"]]
    assert "random" in levels and hello["default_level"] in levels
    assert [o["key"] for o in hello["options"]] == list(Rules().to_dict())
    assert {o["key"]: o["default"] for o in hello["options"]} == Rules().to_dict()
    assert hello["games"] == {"min": 1, "max": 4, "default": 1}


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
    reply = json.loads(protocol.handle(request_text))
    assert reply["ok"] is False
    assert reply["error"]["code"] == code
    assert reply["error"]["message"]


def test_an_oversized_request_is_refused_before_parsing() -> None:
    reply = json.loads(protocol.handle('{"type": "hello", "x": "' + "a" * 300_000 + '"}'))
    assert reply["error"]["code"] == "bad_request"


def test_a_non_string_request_is_refused() -> None:
    reply = json.loads(protocol.handle(b"{}"))  # type: ignore[arg-type]
    assert reply["error"]["code"] == "bad_json"


@pytest.mark.parametrize("kind", ["view", "play", "step", "bot_move", "next_game", "record",
                                  "hint"])
def test_game_commands_need_a_game(kind: str) -> None:
    payload = {"card": "QH"} if kind == "play" else {}
    assert error(kind, **payload) == "no_game"


def test_the_handler_never_raises_on_junk() -> None:
    rng = random.Random(1)
    kinds = [*protocol.REQUESTS, "junk"]
    values: list[Any] = [None, 0, -1, 5, 10**30, 1.5, "", "QH", "XX", [], {}, [1, 2, 3, 4],
                         {"a": 1}, True, "random", "master", ["random"] * 4]
    ok("new_game", seed=1, level="random")
    for _ in range(500):
        request: dict[str, Any] = {"id": rng.randrange(100), "type": rng.choice(kinds)}
        for key in rng.sample(["seed", "rules", "level", "levels", "games", "suit", "card",
                               "record", "settings", "history"], rng.randrange(3)):
            request[key] = rng.choice(values)
        reply = json.loads(protocol.handle(json.dumps(request)))
        assert reply["id"] == request["id"]
        assert isinstance(reply["ok"], bool)
        if not reply["ok"]:
            assert reply["error"]["code"] != "internal", (request, reply)


# -- new_game ---------------------------------------------------------------------------------


def test_new_game_deals_from_the_seed_as_the_engine_does() -> None:
    view = ok("new_game", seed=42, level="random")
    state = new_game("42")
    assert view["settings"]["seed"] == "42"
    assert [s["suit"] for s in view["seats"]] == [str(s) for s in state.suits]
    assert sorted(c["card"] for c in view["hand"]) == sorted(str(c) for c in state.hand(SOUTH))
    assert view["dealer"] == state.dealer
    assert view["to_move"] == state.to_move
    assert (view["deal"], view["trick_number"], view["plays"], view["stock"]) == (1, 1, 0, 156)
    assert [s["cards_left"] for s in view["seats"]] == [13, 13, 13, 13]
    assert view["match"]["game_number"] == 1 and view["match"]["games"] == 1
    assert view["score_sheet"] is None and view["last_trick"] is None


def test_a_number_seed_and_its_text_give_the_same_deal() -> None:
    first = ok("new_game", seed=42, level="random")
    second = ok("new_game", seed="42", level="random")
    assert first == second


def test_without_a_seed_a_fresh_one_is_drawn_and_reported() -> None:
    view = ok("new_game", level="random")
    seed = view["settings"]["seed"]
    assert isinstance(seed, str) and seed
    assert ok("new_game", seed=seed, level="random")["hand"] == view["hand"]


@pytest.mark.parametrize("suit", ["S", "H", "D", "C"])
def test_the_person_may_choose_a_suit_and_the_deal_stays_the_seeds(suit: str) -> None:
    view = ok("new_game", seed=9, level="random", suit=suit)
    suits = [s["suit"] for s in view["seats"]]
    assert suits[SOUTH] == suit
    assert suits[0] == str(Suit.parse(suit).mate)
    assert {suits[1], suits[3]} == {"S", "H", "D", "C"} - {suit, suits[0]}
    state = new_game("9")
    assert view["dealer"] == state.dealer
    assert sorted(c["card"] for c in view["hand"]) == sorted(str(c) for c in state.hand(SOUTH))


def test_levels_may_be_set_per_seat() -> None:
    levels = [level["key"] for level in ok("hello")["levels"]]
    chosen = [levels[-1], "random", None, levels[0]]
    view = ok("new_game", seed=1, levels=chosen)
    assert [s["level"] for s in view["seats"]] == [levels[-1], "random", "human", levels[0]]


def test_rules_options_reach_the_game() -> None:
    view = ok("new_game", seed=1, level="random", rules={"all_fours": True}, games=3)
    assert view["rules"] == Rules(all_fours=True).to_dict()
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
        ({"games": 0}, "bad_games"),
        ({"games": 5}, "bad_games"),
        ({"games": "2"}, "bad_games"),
        ({"games": True}, "bad_games"),
        ({"suit": "X"}, "bad_suit"),
        ({"suit": 1}, "bad_suit"),
    ],
)
def test_bad_settings_are_refused_and_the_game_in_play_is_kept(
    payload: dict[str, Any], code: str
) -> None:
    before = ok("new_game", seed=3, level="random")
    assert error("new_game", **payload) == code
    assert ok("view") == before


# -- play and step ----------------------------------------------------------------------------


def test_the_hand_is_sorted_own_suit_then_partners_and_flags_exactly_the_legal_cards() -> None:
    view = advance(ok("new_game", seed=5, level="random"))
    own = Suit.parse(view["seats"][SOUTH]["suit"])
    order = suit_order(own)
    assert order[:2] == (own, own.mate)
    keys = [(order.index(Suit.parse(c["suit"])), -Card.parse(c["card"]).rank) for c in view["hand"]]
    assert keys == sorted(keys)
    state = from_record(ok("record")["record"])
    assert sorted(playable(view)) == sorted({str(c) for c in state.legal_moves()})
    assert all(c["name"] == Card.parse(c["card"]).name for c in view["hand"])


def test_the_view_shows_no_hidden_cards() -> None:
    view = advance(ok("new_game", seed=5, level="random"))
    state = from_record(ok("record")["record"])
    text = json.dumps(view)
    assert "deck" not in view
    # Only South's hand is listed card by card; the others show how many cards they hold.
    assert [s["cards_left"] for s in view["seats"]] == [state.hand_size(s) for s in range(4)]
    assert "hand" not in json.dumps(view["seats"])
    assert len(view["hand"]) == state.hand_size(SOUTH)
    assert text.count('"playable"') == len(view["hand"])


def test_step_moves_one_computer_player_and_says_what_happened() -> None:
    view = ok("new_game", seed=1, level="random")
    assert view["to_move"] == 0  # with this seed North leads, then East plays before South
    mover = view["to_move"]
    after = ok("step")
    event = after["last_event"]
    assert event["seat"] == mover
    assert after["plays"] == 1
    assert after["trick"]["cards"] == [{"seat": mover, **event["card"]}]
    assert event["trick"] is None and event["game_over"] is False
    assert ok("bot_move")["plays"] == 2


def test_a_completed_trick_names_its_winner_and_why() -> None:
    view = ok("new_game", seed=11, level="random")
    rng = random.Random(0)
    while view["plays"] < 4:
        view = ok("play", card=rng.choice(playable(view))) if view["to_move"] == SOUTH \
            else ok("step")
    state = from_record(ok("record")["record"])
    trick = state.tricks[0]
    last = view["last_trick"]
    assert view["trick"]["cards"] == []
    assert view["last_event"]["trick"] == {k: v for k, v in last.items() if k != "number"}
    assert last["number"] == 1 and last["winner"] == trick.winner
    assert [c["card"] for c in last["cards"]] == [str(c) for c in trick.cards]
    trumps = [state.suits[(trick.leader + i) % 4] for i in range(4)]
    assert last["reason"] == explain_trick(trick.cards, trumps, state.rules, trick.leader)
    assert view["to_move"] == trick.winner
    assert view["trick_number"] == 2


def test_step_on_the_persons_turn_is_refused() -> None:
    view = advance(ok("new_game", seed=11, level="random"))
    assert error("step") == "not_bot_turn"
    assert ok("view") == view


def test_play_out_of_turn_is_refused_and_changes_nothing() -> None:
    view = ok("new_game", seed=11, level="random")
    assert view["to_move"] != SOUTH
    card = view["hand"][0]["card"]
    assert error("play", card=card) == "not_your_turn"
    assert ok("view") == view


def test_illegal_and_malformed_cards_are_refused_and_change_nothing() -> None:
    view = advance(ok("new_game", seed=11, level="random"))
    record = ok("record")
    state = from_record(record["record"])
    not_held = next(str(c) for c in map(Card, range(52)) if c not in state.hand(SOUTH))
    assert error("play", card=not_held) == "illegal_move"
    assert error("play", card="XX") == "bad_card"
    assert error("play", card=12) == "bad_card"
    assert error("play", card=None) == "bad_card"
    assert error("play") == "bad_request"
    unplayable = [c["card"] for c in view["hand"] if not c["playable"]]
    if unplayable:
        assert error("play", card=unplayable[0]) == "illegal_move"
    assert ok("view") == view
    assert ok("record") == record


def test_a_trick_where_south_cannot_follow_refuses_the_wrong_suit() -> None:
    # Find a position where South must follow suit, then try another suit.
    for seed in range(40):
        view = advance(ok("new_game", seed=seed, level="random"))
        cards = view["hand"]
        if view["trick"]["cards"] and any(not c["playable"] for c in cards):
            bad = next(c["card"] for c in cards if not c["playable"])
            reply = call("play", card=bad)
            assert reply["error"]["code"] == "illegal_move"
            assert "must follow" in reply["error"]["message"]
            assert ok("view") == view
            return
    pytest.fail("no seed gave South a suit to follow")


# -- a whole game and the score sheet ---------------------------------------------------------


def test_a_full_game_through_the_protocol_matches_the_engine() -> None:
    view = play_out(ok("new_game", seed=2024, level="random"), random.Random(3))
    assert view["is_over"] and view["status"] == "game_over"
    assert view["to_move"] is None and view["hand"] == []
    assert view["plays"] == 208 and view["stock"] == 0
    assert view["last_event"]["game_over"] is True
    record = ok("record")
    state = from_record(record["record"])
    assert state.is_over
    sheet = view["score_sheet"]
    for player in sheet["players"]:
        seat = player["seat"]
        assert player["total"] == state.score(seat)
        assert player["total"] == (
            player["calypso_points"] + player["in_progress_points"] + player["pile_points"]
        )
        assert player["completed"] == state.completed(seat)
        assert player["calypso_points"] == [0, 500, 1250, 2250, 3250][player["completed"]]
        assert player["in_progress_points"] == 20 * len(state.calypso(seat))
        assert player["pile_points"] == 10 * state.pile(seat)
    for side, partnership in enumerate(sheet["partnerships"]):
        pair = [sheet["players"][side], sheet["players"][side + 2]]
        for key in ("completed", "calypso_points", "in_progress_points", "pile_points", "total"):
            assert partnership[key] == pair[0][key] + pair[1][key]
        assert partnership["total"] == state.partnership_scores()[side]
    assert sheet["winner"] == state.winner()
    assert view["partnership_scores"] == list(state.partnership_scores())
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
    while not view["is_over"]:
        seen.add((view["deal"], view["stock"]))
        assert sum(s["cards_left"] for s in view["seats"]) + len(view["trick"]["cards"]) == (
            52 - 4 * (view["trick_number"] - 1)
        )
        view = ok("play", card=rng.choice(playable(view))) if view["to_move"] == SOUTH \
            else ok("step")
    assert seen == {(1, 156), (2, 104), (3, 52), (4, 0)}


# -- records --------------------------------------------------------------------------------


def test_record_and_load_rebuild_the_same_table() -> None:
    view = ok("new_game", seed=77, level="random", rules={"last_trump_in_wins": True})
    rng = random.Random(1)
    for _ in range(30):
        view = ok("play", card=rng.choice(playable(view))) if view["to_move"] == SOUTH \
            else ok("step")
    saved = ok("record")
    assert saved["settings"] == view["settings"]
    assert saved["record"]["format"] == "calypso-record"
    assert saved["history"] == []
    protocol.reset()
    loaded = ok("load", **saved)
    assert loaded["last_event"] is None
    assert {**loaded, "last_event": view["last_event"]} == view
    assert ok("record") == saved


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
        (lambda s: s.update(history="none"), "bad_record"),
        (lambda s: s.update(history=[s["record"]]), "bad_record"),
        (lambda s: s.pop("settings"), "bad_request"),
    ],
)
def test_a_bad_save_is_refused_and_the_game_in_play_is_kept(mutate: Any, code: str) -> None:
    ok("new_game", seed=4, level="random")
    saved = ok("record")
    view = ok("step") if ok("view")["to_move"] != SOUTH else ok("view")
    mutate(saved)
    assert error("load", **saved) == code
    assert ok("view") == view


# -- matches --------------------------------------------------------------------------------


def test_a_match_reshuffles_keeps_suits_and_passes_the_deal_on() -> None:
    rng = random.Random(5)
    first = play_out(ok("new_game", seed="m", level="random", games=2, suit="D"), rng)
    assert first["match"]["is_over"] is False and first["match"]["winner"] is None
    game1 = from_record(ok("record")["record"])
    second = ok("next_game")
    game2 = from_record(ok("record")["record"])
    assert second["match"]["game_number"] == 2
    assert game2.suits == game1.suits and game2.suits[SOUTH] == Suit.DIAMONDS
    assert game2.first_dealer == game1.dealer == second["dealer"]
    assert game2.deck != game1.deck
    assert all(s["completed"] == 0 and s["pile"] == 0 and s["in_progress"] == 0
               for s in second["seats"])
    assert second["match"]["finished"] == [
        {"game": 1, "scores": list(game1.partnership_scores()), "winner": game1.winner()}
    ]
    assert second["match"]["totals_before"] == list(game1.partnership_scores())
    assert error("next_game") == "game_not_over"
    # Saving mid-match keeps the earlier game.
    saved = ok("record")
    assert len(saved["history"]) == 1
    protocol.reset()
    assert ok("load", **saved)["match"] == second["match"]
    last = play_out(second, rng)
    game2 = from_record(ok("record")["record"])
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
    saved = ok("record")
    other = new_game("elsewhere", suits=from_record(saved["record"]).suits,
                     first_dealer=(from_record(saved["record"]).first_dealer + 1) % 4)
    saved["record"] = calypso_core.to_record(other)
    assert error("load", **saved) == "bad_record"


# -- computer players -----------------------------------------------------------------------


def test_a_failing_bot_falls_back_to_a_random_legal_card(monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken:
        def choose(self, observation: Any, legal: Any) -> Any:
            raise RuntimeError("out of ideas")

    class FakeBots:
        LEVELS = ("random", "broken")

        @staticmethod
        def make_bot(level: str, seat: int, rng: random.Random) -> Broken:
            return Broken()

    monkeypatch.setattr(match_module, "_bots", lambda: (FakeBots, None))
    view = ok("new_game", seed=11, level="broken")
    assert view["to_move"] != SOUTH
    event = ok("step")["last_event"]
    assert "out of ideas" in event["note"]


def test_without_bots_only_random_is_offered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(match_module, "_bots", lambda: (None, "ModuleNotFoundError: no bots"))
    hello = ok("hello")
    assert [level["key"] for level in hello["levels"]] == ["random"]
    assert hello["default_level"] == "random"
    assert hello["bots_problem"] == "ModuleNotFoundError: no bots"
    assert error("new_game", level="master") == "bad_level"
    view = play_out(ok("new_game", seed=1), random.Random(1))
    assert view["is_over"]
    assert error("hint") in ("not_your_turn", "unavailable")


def test_the_default_level_plays_a_game() -> None:
    view = play_out(ok("new_game", seed=12), random.Random(2))
    assert view["is_over"]
    assert all(s["level"] == ok("hello")["default_level"] for s in view["seats"] if not s["is_you"])


def test_a_hint_is_a_legal_card_or_says_it_is_unavailable() -> None:
    view = advance(ok("new_game", seed=13, level="random"))
    reply = call("hint")
    if reply["ok"]:
        assert reply["result"]["card"]["card"] in playable(view)
        assert reply["result"]["reason"]
    else:
        assert reply["error"]["code"] == "unavailable"
    assert ok("view") == view
