"""The worker protocol's after-the-game requests: the review and the master in your seat as
jobs of one card a request, and the Calypso of the day."""

from __future__ import annotations

import datetime
import json
import random
from pathlib import Path
from typing import Any

import pytest
from protocol_calls import advance, error, ok, recipe

from calypso_core import days, parse_record, table
from calypso_core.bots.review import review_card, seat_plays

SOUTH = 2
BUDGET = 24  # iterations a card: enough to exercise the search, fast enough for a test
GOLDEN = Path(__file__).parent / "golden" / "standard-seed-2024.record.json"


# Each test starts from a fresh table session and leaves none behind.
pytestmark = pytest.mark.usefixtures("fresh_table")


def finished_game(seed: int = 2024) -> dict[str, Any]:
    """A game of South (a person, random cards) against random players, played out."""
    rng = random.Random(seed)
    view = advance(ok("new_game", seed=seed, level="random"))
    while view["status"] != "game_over":
        view = advance(ok("play", card=rng.choice(view["legal"])))
    return view


def golden() -> dict[str, Any]:
    return dict(json.loads(GOLDEN.read_text()))


# -- the review -------------------------------------------------------------------------------


def test_a_review_goes_one_card_a_request_and_sums_the_points_lost_per_deal() -> None:
    started = ok("review", record=golden(), seat=SOUTH, deal=1, budget=BUDGET, seed=5)
    assert started["deals"] == [1] and started["total"] == 13 and started["seat"] == SOUTH
    moves = []
    for done in range(1, 14):
        step = ok("review_next", job=started["job"])
        assert step["done"] == done and step["finished"] == (done == 13)
        moves.append(step["move"])
    assert [m["deal"] for m in moves] == [1] * 13
    state = parse_record(GOLDEN.read_text())
    plays = [p for p in seat_plays(state, SOUTH) if p // 52 == 1]
    assert [m["play"] for m in moves] == plays
    # Each card reviews as the engine reviews it alone.
    assert moves[4] == review_card(state, plays[4], budget=BUDGET, seed="5").to_json()
    (deal,) = step["summary"]["per_deal"]
    assert deal["deal"] == 1 and deal["cards"] == 13
    assert deal["cost"] == step["summary"]["total_cost"] == sum(m["cost"] for m in moves)


def test_a_reviewed_card_comes_with_the_position_as_its_player_saw_it() -> None:
    started = ok("review", record=golden(), seat=SOUTH, deal=0, budget=BUDGET)
    step = ok("review_next", job=started["job"])
    position = step["position"]
    assert step["move"]["card"] in position["hand"]
    assert {o["card"] for o in step["move"]["options"]} <= set(position["hand"])
    assert len(position["hand"]) == 13 - len([c for c in position["trick"]["cards"] if c]) // 4
    assert "hands" not in position and "deck" not in json.dumps(position)


def test_a_finished_review_takes_no_more_requests() -> None:
    started = ok("review", record=golden(), seat=SOUTH, deal=3, budget=BUDGET)
    for _ in range(started["total"]):
        ok("review_next", job=started["job"])
    assert error("review_next", job=started["job"]) == "no_job"


def test_starting_a_review_cancels_the_one_before() -> None:
    first = ok("review", record=golden(), seat=SOUTH, deal=0, budget=BUDGET)
    ok("review_next", job=first["job"])
    second = ok("review", record=golden(), seat=SOUTH, deal=2, budget=BUDGET)
    assert second["job"] != first["job"]
    assert error("review_next", job=first["job"]) == "no_job"
    assert ok("review_next", job=second["job"])["move"]["deal"] == 2


def test_starting_a_game_ends_the_review() -> None:
    started = ok("review", record=golden(), seat=SOUTH, deal=0, budget=BUDGET)
    ok("new_game", seed=1, level="random")
    assert error("review_next", job=started["job"]) == "no_job"


def test_the_game_in_play_is_reviewed_deal_by_deal_as_the_deals_end() -> None:
    rng = random.Random(4)
    view = advance(ok("new_game", seed=4, level="random"))
    assert error("review", deal=0) == "deal_not_over"
    assert error("review") == "deal_not_over"
    while view["plays"] < 52:
        view = advance(ok("play", card=rng.choice(view["legal"])))
    started = ok("review", budget=BUDGET)
    assert started["deals"] == [0] and started["seat"] == SOUTH and started["total"] == 13
    assert error("review", deal=1) == "deal_not_over"
    # The review works on its own copy: the game goes on between its cards.
    ok("review_next", job=started["job"])
    before = view["plays"]
    view = advance(ok("play", card=view["legal"][0])) if view["status"] == "your_turn" else view
    assert view["plays"] > before
    assert ok("review_next", job=started["job"])["done"] == 2


def test_a_record_of_a_game_not_over_is_reviewed_only_in_its_deals_that_are_over() -> None:
    # The cards of the deal in play are secret, whoever's game the record is.
    rng = random.Random(6)
    view = advance(ok("new_game", seed=6, level="random"))
    while view["plays"] < 60:
        view = advance(ok("play", card=rng.choice(view["legal"])))
    for record in (recipe()["record"], ok("record")["record"]):
        assert ok("review", record=record, seat=SOUTH - 1)["deals"] == [0]
        assert error("review", record=record, seat=SOUTH, deal=1) == "deal_not_over"


@pytest.mark.parametrize(
    ("payload", "code", "words"),
    [
        ({"seat": 4}, "bad_request", "seat must be 0-3"),
        ({"seat": "S"}, "bad_request", "seat must be 0-3"),
        ({"deal": 4}, "bad_request", "deal must be 0-3"),
        ({"deal": "1"}, "bad_request", "deal must be 0-3"),
        ({"budget": 0}, "bad_request", "budget must be a whole number"),
        ({"budget": 10**6}, "bad_request", "budget must be a whole number"),
        ({"budget": 1.5}, "bad_request", "budget must be a whole number"),
        ({"seed": []}, "bad_seed", "a review seed is a number or a text"),
        ({"seed": ""}, "bad_seed", "a review seed is a number or a text"),
        ({"record": {"format": "nonsense"}}, "bad_record", ""),
        ({"record": "AD 2S"}, "bad_record", ""),
    ],
)
def test_a_malformed_review_is_refused_with_a_clear_error(
    payload: dict[str, Any], code: str, words: str
) -> None:
    request = {"record": golden(), "seat": SOUTH, **payload}
    reply = json.loads(table.handle(json.dumps({"id": 1, "type": "review", **request})))
    assert reply["ok"] is False
    assert reply["error"]["code"] == code
    assert words in reply["error"]["message"]


@pytest.mark.parametrize(
    ("job", "code"), [(None, "bad_request"), ("1", "bad_request"), (1.0, "bad_request"),
                      (True, "bad_request"), (99, "no_job")]
)
def test_review_next_needs_the_number_of_the_review_in_progress(job: Any, code: str) -> None:
    ok("review", record=golden(), seat=SOUTH, deal=0, budget=BUDGET)
    payload = {} if job is None else {"job": job}
    assert error("review_next", **payload) == code


def test_a_review_of_the_game_in_play_needs_a_persons_seat() -> None:
    finished_game()
    assert error("review", seat=0) == "bad_request"
    assert error("review", seat="South") == "bad_request"
    assert ok("review", seat=SOUTH, deal=3, budget=BUDGET)["deals"] == [3]


def test_hello_tells_the_page_the_review_budget_and_grades() -> None:
    facts = ok("hello")["review"]
    assert facts["budget"] > 0
    assert [g["key"] for g in facts["grades"]] == ["inaccuracy", "mistake", "blunder"]
    assert [g["cost"] for g in facts["grades"]] == sorted(g["cost"] for g in facts["grades"])
    assert all(g["label"] for g in facts["grades"])


# -- the master in your seat ------------------------------------------------------------------


def test_the_master_in_your_seat_plays_the_finished_game_again_a_card_at_most_a_request() -> None:
    view = finished_game()
    started = ok("rerun", iterations=4)
    assert started["total"] == 208 and started["side"] == 0 and started["done"] == 0
    step: dict[str, Any] = {"finished": False}
    while not step["finished"]:
        step = ok("rerun_next", job=started["job"])
    assert step["done"] == 208
    result = step["result"]
    assert result["you"] == view["scores"]
    assert result["difference"] == result["you"][0] - result["master"][0]
    rerun = parse_record(json.dumps(result["record"]))
    assert rerun.is_over and list(rerun.deck) == list(parse_record(
        json.dumps(recipe()["record"])).deck)
    assert result["record"]["players"][SOUTH] == {"computer": "master"}
    assert error("rerun_next", job=started["job"]) == "no_job"


def test_the_master_plays_your_seat_only_once_the_game_is_over() -> None:
    ok("new_game", seed=3, level="random")
    assert error("rerun") == "game_not_over"


@pytest.mark.parametrize("iterations", [0, -1, 10**9, "many", 2.5])
def test_a_rerun_with_a_bad_budget_is_refused(iterations: Any) -> None:
    finished_game()
    assert error("rerun", iterations=iterations) == "bad_request"


def test_rerun_next_needs_the_number_of_the_rerun_in_progress() -> None:
    finished_game()
    started = ok("rerun", iterations=4)
    assert error("rerun_next", job="x") == "bad_request"
    assert error("rerun_next", job=started["job"] + 1) == "no_job"
    ok("new_game", seed=1, level="random")
    assert error("rerun_next", job=started["job"]) == "no_job"


# -- the Calypso of the day -------------------------------------------------------------------


def test_the_calypso_of_the_day_deals_that_dates_cards_and_says_its_date() -> None:
    view = ok("daily", date="2025-01-31")
    assert view["table"]["daily"] == "2025-01-31"
    settings = view["table"]["settings"]
    assert settings["seed"] == "daily:2025-01-31" and settings["games"] == 1
    assert settings["levels"] == ["master", "master", "human", "master"]
    again = ok("daily", date="2025-01-31")
    assert again["hand"] == view["hand"]
    assert ok("daily")["table"]["daily"] == days.today().isoformat()


def test_a_game_with_a_daily_seed_is_refused_it_comes_only_from_daily() -> None:
    assert error("new_game", seed="daily:2025-01-31", level="random") == "bad_seed"
    assert ok("new_game", seed=1, level="random")["table"]["daily"] is None


@pytest.mark.parametrize(
    ("date", "words"),
    [("2025-02-30", "2025-02-30"), ("31/01/2025", "31/01/2025"), (20250131, "20250131"),
     ("", "")],
)
def test_a_bad_date_is_refused_and_the_game_in_play_is_kept(date: Any, words: str) -> None:
    view = ok("new_game", seed=9, level="random")
    reply = json.loads(table.handle(json.dumps({"id": 1, "type": "daily", "date": date})))
    assert reply["error"]["code"] == "bad_date"
    assert words in reply["error"]["message"]
    assert ok("view")["hand"] == view["hand"]


def test_tomorrows_calypso_is_not_dealt_yet() -> None:
    tomorrow = days.today() + datetime.timedelta(days=1)
    reply = json.loads(table.handle(json.dumps(
        {"id": 1, "type": "daily", "date": tomorrow.isoformat()})))
    assert reply["error"]["code"] == "not_dealt_yet"
    assert "not dealt yet" in reply["error"]["message"]
