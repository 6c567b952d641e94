"""Puzzles: the set's format, a puzzle rebuilt from its game, Glicko-2, and the puzzles at the
table (calypso_core/bots/puzzles.py, calypso_core/glicko.py, calypso_core/table/puzzles.py)."""

from __future__ import annotations

import copy
import gzip
import importlib
import json
import math
import random
from pathlib import Path
from typing import Any

import pytest
from helpers import play_cards, position
from protocol_calls import call, ok
from puzzle_sets import club_game_until, made_set, made_set_text
from test_review import ACE_TAKES_THE_HEARTS, TWO_ACES_TAKE_THE_HEARTS

from calypso_core import Card, to_record
from calypso_core.bots import make_bot, play_game
from calypso_core.bots.puzzles import (
    THEMES,
    PuzzleError,
    dealt,
    encode_choices,
    parse_set,
    puzzle_id,
    replay_choices,
)
from calypso_core.bots.review import REVIEW_ITERATIONS, points_lost, review_card
from calypso_core.glicko import MIN_DEVIATION, Rating, expected_score, rate

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "web" / "puzzles.json"
miner = importlib.import_module("bench.puzzles")

pytestmark = pytest.mark.usefixtures("fresh_table")


# -- choices and ids ---------------------------------------------------------------------------


def test_choices_rebuild_every_position_of_a_game() -> None:
    bots = [make_bot("random", seat, random.Random(seat)) for seat in range(4)]
    game = play_game(dealt("choices"), bots)
    choices = encode_choices(game)
    assert set(choices) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    for plays in (0, 1, 51, 52, 130, 208):
        assert replay_choices(dealt("choices"), choices, plays).plays == game.plays[:plays]


def test_choices_of_a_position_rebuild_it_and_are_shorter_than_a_card_a_play() -> None:
    state = club_game_until("short", 150)
    choices = encode_choices(state)
    assert replay_choices(dealt("short"), choices, 150).plays == state.plays[:150]
    assert len(choices) < 150 / 2


def test_choices_that_are_not_base64url_or_run_past_the_game_are_refused() -> None:
    with pytest.raises(PuzzleError, match="base64url"):
        replay_choices(dealt("x"), "not base64!", 10)
    with pytest.raises(PuzzleError, match="ends after 208 plays"):
        replay_choices(dealt("x"), "", 209)


def test_a_puzzles_id_is_six_letters_that_cannot_be_misread_and_stays_the_same() -> None:
    assert puzzle_id("puzzles:4", 156) == puzzle_id("puzzles:4", 156) == "3rjhdu"
    assert puzzle_id("puzzles:4", 157) != puzzle_id("puzzles:4", 156)
    assert not set(puzzle_id("puzzles:4", 156)) & set("01lio")


# -- the set -----------------------------------------------------------------------------------


def test_a_made_set_parses_and_each_puzzle_rebuilds_with_its_cards() -> None:
    puzzles = parse_set(made_set_text())
    assert len(puzzles) == 3
    for puzzle in puzzles.puzzles:
        state = puzzle.position()
        assert len(state.plays) == puzzle.play
        assert set(puzzle.costs) == set(state.legal_moves())
        assert puzzle.solutions == (state.legal_moves()[0],)


def corrupted(change: Any) -> str:
    data = made_set()
    change(data)
    return json.dumps(data)


@pytest.mark.parametrize(("change", "said"), [
    (lambda d: d.update(format="calypso-record"), "not a puzzle set"),
    (lambda d: d.update(version=2), "not a puzzle set of version 1"),
    (lambda d: d.pop("games"), "exactly format, version, games, puzzles"),
    (lambda d: d["games"][0].append("x"), "game 0 is not"),
    (lambda d: d["puzzles"][1].__setitem__(0, "aaaaaa"), "'aaaaaa' is not its id"),
    (lambda d: d["puzzles"][0].__setitem__(1, 9), "game 9 is not one of"),
    (lambda d: d["puzzles"][0].__setitem__(3, "ZZ"), "'ZZ' is not a card"),
    (lambda d: d["puzzles"][0][4].append(list(d["puzzles"][0][4][0])), "listed twice"),
    (lambda d: d["puzzles"][0][4][0].__setitem__(1, 0), "points above 0"),
    (lambda d: d["puzzles"][0].__setitem__(5, ["luck"]), "themes must be"),
    (lambda d: d["puzzles"][0].__setitem__(6, 99999), "rating 99999"),
    (lambda d: d["puzzles"].append(copy.deepcopy(d["puzzles"][0])), "there twice"),
    (lambda d: d.update(puzzles=[]), "at least one puzzle"),
])
def test_a_corrupt_set_is_refused_naming_what_is_wrong(change: Any, said: str) -> None:
    with pytest.raises(PuzzleError, match=said):
        parse_set(corrupted(change))


def test_a_set_that_is_not_json_is_refused() -> None:
    with pytest.raises(PuzzleError, match="not JSON"):
        parse_set('{"format": "calypso-puzzles",')


def test_a_puzzle_whose_cards_are_not_its_positions_legal_cards_fails_when_opened() -> None:
    # An edit that keeps the set's shape: a cost of a card not held, found when rebuilt.
    data = made_set()
    data["puzzles"][0][4][0][0] = "AS" if data["puzzles"][0][4][0][0] != "AS" else "KS"
    puzzle = parse_set(json.dumps(data)).puzzles[0]
    with pytest.raises(PuzzleError, match="not the legal cards"):
        puzzle.position()


def test_the_next_puzzle_is_the_nearest_to_the_rating_and_not_a_recent_one() -> None:
    puzzles = parse_set(made_set_text())  # rated 1400, 1500, 1600
    ids = [p.id for p in puzzles.puzzles]
    assert puzzles.nearest(1480, [], "a").id == ids[1]
    assert puzzles.nearest(1480, [ids[1]], "a").id in (ids[0], ids[2])
    assert puzzles.nearest(1700, [ids[2]], "a").id == ids[1]
    # All seen: the one seen longest ago comes back.
    assert puzzles.nearest(1500, [ids[2], ids[0], ids[1]], "a").id == ids[2]


def test_the_puzzle_of_a_day_is_the_same_for_everyone_and_changes_with_the_day() -> None:
    puzzles = parse_set(made_set_text(6))
    days = [puzzles.of_the_day(f"2025-01-{d:02d}").id for d in range(1, 11)]
    assert days == [parse_set(made_set_text(6)).of_the_day(f"2025-01-{d:02d}").id
                    for d in range(1, 11)]
    assert len(set(days)) > 2


# -- Glicko-2 ---------------------------------------------------------------------------------


def test_glicko2_gives_the_papers_worked_example() -> None:
    # Glickman, "Example of the Glicko-2 system" (2013): 1500, RD 200, volatility 0.06 against
    # 1400/30 (won), 1550/100 (lost), 1700/300 (lost), tau 0.5.
    after = rate(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1), (Rating(1550, 100), 0),
                                           (Rating(1700, 300), 0)])
    assert round(after.rating, 2) == 1464.05  # the paper rounds the last step: 1464.06
    assert round(after.deviation, 2) == 151.52
    assert math.isclose(after.volatility, 0.05999, abs_tol=0.00001)


def test_a_rating_period_without_games_only_widens_the_deviation() -> None:
    after = rate(Rating(1500, 200, 0.06), [])
    assert after.rating == 1500 and after.volatility == 0.06
    assert math.isclose(after.deviation, math.sqrt(200**2 + (0.06 * 173.7178) ** 2))


def test_a_solved_puzzle_raises_the_rating_and_a_missed_one_lowers_it_by_the_surprise() -> None:
    start = Rating()
    easy, hard = Rating(1200, 100), Rating(1800, 100)
    assert rate(start, [(hard, 1)]).rating - 1500 > rate(start, [(easy, 1)]).rating - 1500 > 0
    assert 1500 - rate(start, [(easy, 0)]).rating > 1500 - rate(start, [(hard, 0)]).rating > 0
    assert expected_score(start, easy) > 0.5 > expected_score(start, hard)


def test_the_puzzles_deviation_keeps_a_floor_so_the_rating_keeps_moving() -> None:
    rating = Rating()
    for n in range(200):  # puzzles at the person's own rating, solved and missed in turn
        rating = rate(rating, [(Rating(rating.rating, 100), n % 2)], floor=MIN_DEVIATION)
    assert rating.deviation == MIN_DEVIATION
    assert abs(rate(rating, [(Rating(rating.rating, 100), 1)]).rating - rating.rating) > 5


def test_a_rating_reads_back_and_a_tampered_one_is_refused() -> None:
    rating = rate(Rating(), [(Rating(1600, 100), 1)])
    assert Rating.from_json(rating.to_json()).to_json() == rating.to_json()
    for bad in ({"rating": 1500}, {"rating": "1500", "deviation": 100, "volatility": 0.06},
                {"rating": 1500, "deviation": 0, "volatility": 0.06},
                {"rating": 1500, "deviation": 900, "volatility": 0.06}, [1500, 100, 0.06]):
        with pytest.raises(ValueError, match="rating"):
            Rating.from_json(bad)


# -- at the table ------------------------------------------------------------------------------


def the_game_in_play() -> None:
    ok("new_game", seed="beside the puzzles", level="random")


def test_a_puzzle_is_shown_from_its_solvers_seat_as_at_the_table_and_leaves_the_game_alone(
) -> None:
    the_game_in_play()
    before = ok("record")
    assert ok("puzzles", text=made_set_text()) == {"count": 3, "themes": ["trump_in"]}
    data = made_set()
    shown = ok("puzzle", puzzle=data["puzzles"][1][0])
    view, info = shown["view"], shown["puzzle"]
    assert info == {"id": data["puzzles"][1][0], "kind": "set", "seat": view["viewer"],
                    "rating": 1500, "themes": ["trump_in"]}
    assert view["status"] == "your_turn" and view["to_move"] == view["viewer"]
    assert sorted(view["legal"]) == sorted([data["puzzles"][1][3]] +
                                           [c for c, _ in data["puzzles"][1][4]])
    assert view["plays"] == data["puzzles"][1][2] and "aids" in view and "log" in view
    assert "seed" not in view["table"]["settings"] and view["table"]["settings"]["straight"]
    assert view["table"]["seats"][view["viewer"]]["person"]
    assert len(view["hand"]) == view["seats"][view["viewer"]]["cards"]  # its own hand only
    assert ok("record") == before  # the game in play and its recipe are untouched


def test_an_answer_is_judged_from_the_costs_and_the_first_one_moves_the_rating() -> None:
    data = made_set()
    ok("puzzles", text=json.dumps(data))
    pid, _, _, solution, costs, _, _ = data["puzzles"][0]
    ok("puzzle", puzzle=pid)
    wrong = ok("puzzle_answer", card=costs[1][0], rate=True)
    assert (wrong["right"], wrong["cost"], wrong["solutions"]) == (False, costs[1][1], [solution])
    assert wrong["costs"][0] == {"card": solution, "cost": 0}
    assert wrong["rating"]["rating"] < 1500 and wrong["expected"] > 0.5  # rated 1400
    assert wrong["reason"] and wrong["themes"] == ["trump_in"]
    again = ok("puzzle_answer", card=solution, rate=True, rating=wrong["rating"])
    assert again["right"] and "rating" not in again  # only the first answer is rated
    ok("puzzle", puzzle=pid)
    right = ok("puzzle_answer", card=solution, rate=True, rating=wrong["rating"])
    assert right["rating"]["rating"] > wrong["rating"]["rating"]


def test_a_card_not_legal_in_the_puzzle_and_a_tampered_rating_are_refused() -> None:
    data = made_set()
    ok("puzzles", text=json.dumps(data))
    ok("puzzle", puzzle=data["puzzles"][0][0])
    legal = {data["puzzles"][0][3], *(c for c, _ in data["puzzles"][0][4])}
    other = next(str(Card(c)) for c in range(52) if str(Card(c)) not in legal)
    reply = call("puzzle_answer", card=other)
    assert reply["error"]["code"] == "illegal_move"
    assert reply["error"]["text"] == {"id": "error.puzzle_card", "params": {"card": other}}
    bad = call("puzzle_answer", card=data["puzzles"][0][3], rate=True,
               rating={"rating": 1500, "deviation": -1, "volatility": 0.06})
    assert bad["error"]["code"] == "bad_rating" and bad["error"]["input"]


@pytest.mark.parametrize("edited", ["zzzzzz", "3RJHDU", "x" * 300, 7])
def test_an_unknown_or_edited_id_gets_a_clear_sentence_and_changes_nothing(edited: Any) -> None:
    the_game_in_play()
    before = ok("record")
    ok("puzzles", text=made_set_text())
    reply = call("puzzle", puzzle=edited)
    assert reply["error"]["code"] == "unknown_puzzle" and not reply["error"]["input"]
    assert reply["error"]["text"]["id"] == "error.unknown_puzzle"
    assert len(reply["error"]["text"]["params"]["id"]) <= 20
    assert ok("record") == before


def test_a_corrupt_set_gets_a_clear_sentence_and_the_set_before_it_stays() -> None:
    ok("puzzles", text=made_set_text())
    reply = call("puzzles", text='{"format": "calypso-puzzles"}')
    assert reply["error"]["code"] == "bad_puzzle_set" and reply["error"]["input"]
    assert reply["error"]["text"] == {"id": "error.bad_puzzle_set"}
    assert ok("puzzle", puzzle=made_set()["puzzles"][0][0])["puzzle"]["kind"] == "set"


def test_puzzles_before_the_set_and_answers_before_a_puzzle_are_refused() -> None:
    assert call("puzzle", puzzle="3rjhdu")["error"]["code"] == "no_puzzles"
    assert call("puzzle_answer", card="AS")["error"]["code"] == "no_puzzle"
    assert call("puzzle_step")["error"]["code"] == "no_puzzle"
    ok("puzzles", text=made_set_text())
    assert call("puzzle")["error"]["code"] == "bad_request"
    assert call("puzzle", puzzle="x", day="2025-01-01")["error"]["code"] == "bad_request"
    assert call("puzzle", day="1 January")["error"]["code"] == "bad_date"
    assert call("puzzle", near={"offset": 5000})["error"]["code"] == "bad_request"


def test_the_next_puzzle_and_the_puzzle_of_the_day_come_from_the_set() -> None:
    data = made_set()
    ok("puzzles", text=json.dumps(data))
    near = ok("puzzle", near={"offset": 100, "recent": [], "salt": "1"})["puzzle"]
    assert near["rating"] == 1600
    easier = ok("puzzle", near={"rating": {"rating": 1700, "deviation": 80, "volatility": 0.06},
                                "offset": -300, "recent": []})["puzzle"]
    assert easier["rating"] == 1400
    day = ok("puzzle", day="2025-02-03")["puzzle"]["id"]
    assert day == ok("puzzle", day="2025-02-03")["puzzle"]["id"]


def test_the_master_plays_on_from_the_answer_to_the_end_of_the_deal() -> None:
    data = made_set(1)
    ok("puzzles", text=json.dumps(data))
    pid, _, play, solution, _, _, _ = data["puzzles"][0]
    ok("puzzle", puzzle=pid)
    assert call("puzzle_step")["error"]["code"] == "line_over"  # nothing played yet
    line = ok("puzzle_play", card=solution)
    assert line["view"]["event"]["card"] == solution and line["view"]["plays"] == play + 1
    assert "legal" not in line["view"] or line["view"]["status"] == "your_turn"
    end = (play // 52 + 1) * 52
    while not line["over"]:
        line = ok("puzzle_step")
    assert line["view"]["plays"] == end
    assert call("puzzle_step")["error"]["code"] == "line_over"


def test_a_blunder_of_a_reviewed_game_is_a_puzzle_from_that_seats_information() -> None:
    state = position(2, TWO_ACES_TAKE_THE_HEARTS)
    play_cards(state, "2H 3H KH 5H")
    move = review_card(state, 3, budget=2000)
    assert move.grade == "blunder"
    entry = {"record": to_record(state), "play": move.play,
             "costs": [[str(o.card), o.cost] for o in move.options]}
    shown = ok("puzzle", mine=entry)
    assert shown["puzzle"]["kind"] == "mine" and shown["puzzle"]["seat"] == 2
    assert shown["view"]["viewer"] == 2 and "AH" in shown["view"]["legal"]
    assert ok("puzzle_answer", card="AH")["right"]
    wrong = ok("puzzle_answer", card="5H", rate=True)
    assert wrong["cost"] == move.cost and "rating" not in wrong  # one's own are not rated


@pytest.mark.parametrize("change", [
    lambda e: e.update(play=300),
    lambda e: e.update(costs=[]),
    lambda e: e["costs"].pop(),
    lambda e: e.update(record={"format": "calypso-record"}),
    lambda e: e.pop("costs"),
])
def test_a_mistake_that_does_not_fit_its_game_is_refused(change: Any) -> None:
    state = position(2, ACE_TAKES_THE_HEARTS)
    play_cards(state, "2H 3H KH")
    entry = {"record": to_record(state), "play": 3,
             "costs": [["AH", 0], ["5H", 120], ["6H", 120], ["7H", 120]]}
    assert ok("puzzle", mine=copy.deepcopy(entry))["puzzle"]["kind"] == "mine"
    change(entry)
    reply = call("puzzle", mine=entry)
    assert reply["error"]["code"] in ("bad_puzzle", "bad_record")


# -- the shipped set ---------------------------------------------------------------------------


def shipped() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SHIPPED.read_text(encoding="utf-8"))
    return data


def test_the_shipped_set_is_small_enough_to_fetch_and_big_enough_to_play() -> None:
    text = SHIPPED.read_bytes()
    assert len(gzip.compress(text, mtime=0)) <= 150_000
    assert len(text) < 400_000  # under the worker's request size limit (docs/protocol.md)
    assert len(shipped()["puzzles"]) >= 1000


def test_every_shipped_puzzle_rebuilds_to_a_legal_position_with_a_legal_solution() -> None:
    puzzles = parse_set(SHIPPED.read_text(encoding="utf-8"))
    for puzzle in puzzles.puzzles:
        state = puzzle.position()  # checks the costs are exactly the legal cards
        assert len(puzzle.solutions) == 1 and state.is_legal(puzzle.solutions[0])
        assert min(cost for card, cost in puzzle.costs.items() if cost) >= miner.LINE
        assert set(puzzle.themes) <= set(THEMES)


def test_a_sample_of_the_shipped_set_keeps_its_card_and_gap_when_searched_again() -> None:
    # A new seed at the review's own budget: the same card is best, and no other card comes
    # within the line by more than the noise (three standard errors).
    puzzles = parse_set(SHIPPED.read_text(encoding="utf-8")).puzzles
    for puzzle in puzzles[:: max(1, len(puzzles) // 2)][:2]:
        judged = miner.judge(puzzle.position(), puzzle.play, seed="searched again", looks=(),
                             budget=REVIEW_ITERATIONS)
        assert judged.best == puzzle.solutions[0], puzzle.id
        for card, _, _, gap, error in judged.options[1:]:
            assert points_lost(gap + miner.SE_LINE * error) >= miner.LINE, (
                puzzle.id, str(card), gap, error)
