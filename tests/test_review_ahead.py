"""The review ready when the game ends: each person's cards reviewed, and the master played in
the person's seat, in slices of work between the game's requests (``work``), with the same
answers as the command line's review and a fresh rerun, kept in the save."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from protocol_calls import advance, call, error, ok

from calypso_core import parse_record
from calypso_core.bots import review as review_module
from calypso_core.bots.review import (
    CardReviewer,
    review_card,
    review_game,
    review_position,
    seat_plays,
)
from calypso_core.game import new_game
from calypso_core.table import ahead as ahead_module
from calypso_core.table import facts, jobs, reviews, sealed
from calypso_core.table import rerun as rerun_module
from calypso_core.table.settings import Settings

SOUTH = 2
BUDGET = 60  # review iterations a card in these tests
MASTER = 20  # the master's iterations a move in the reruns of these tests
GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.record.json"))


@pytest.fixture(autouse=True)
def small_budgets(fresh_table: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The review's budget and the master's in the rerun made small: the same code runs."""
    monkeypatch.setattr(ahead_module, "REVIEW_BUDGET", BUDGET)
    monkeypatch.setattr(reviews, "REVIEW_ITERATIONS", BUDGET)
    monkeypatch.setattr(facts, "REVIEW_ITERATIONS", BUDGET)
    monkeypatch.setattr(ahead_module, "master_slices",
                        lambda settings, index, iterations=None:
                        rerun_module.master_slices(settings, index, MASTER))
    yield


# -- a card's review in slices ------------------------------------------------------------------


@pytest.mark.parametrize("slice_", [1, 7, 100])
def test_a_card_reviewed_in_slices_is_the_card_reviewed_at_once(slice_: int) -> None:
    state = parse_record(GOLDEN[0].read_text())
    for play in seat_plays(state, SOUTH)[::5]:
        position = new_game(rules=state.rules, suits=state.suits,
                            first_dealer=state.first_dealer, deck=state.deck)
        for card in state.plays[:play]:
            position.play(card)
        card = state.plays[play]
        whole = review_position(position, card, play, budget=300, seed="s")
        reviewer = CardReviewer(position, card, play, budget=300, seed="s")
        slices = 0
        while reviewer.step(slice_) is None:
            slices += 1
        assert reviewer.review == whole
        assert whole.forced or slices >= 300 // max(slice_, 13) - 1


# -- the game's cards reviewed ahead give the command line's costs --------------------------


def play_golden_with_work(record: dict[str, Any], seat: int, ms: int = 20) -> dict[str, Any]:
    """The golden game's cards come one deal at a time into the engine (a load of the
    record so far, with the work kept so far), and work runs between them."""
    settings = {"seed": "golden", "levels": ["random"] * 4, "people": [{"seat": seat}],
                "rules": record["rules"]}
    kept = None
    for upto in range(13, len(record["plays"]) + 1, 13):
        recipe: dict[str, Any] = {"record": {**record, "plays": record["plays"][:upto]},
                                  "settings": settings}
        if kept is not None:
            recipe["ahead"] = kept
        ok("load", **recipe)
        for _ in range(400):
            if not ok("work", ms=ms)["more"]:
                break
        kept = ok("record").get("ahead")
    return dict(ok("work", ms=1))


@pytest.mark.parametrize("path", GOLDEN[:2], ids=lambda p: p.name)
def test_the_review_done_ahead_gives_the_command_lines_costs(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    record = json.loads(path.read_text())
    record.pop("players", None)
    state = parse_record(json.dumps(record))
    progress = play_golden_with_work(record, SOUTH)
    plays = len(seat_plays(state, SOUTH))
    assert progress["review"] == {"done": plays, "played": plays}
    # The review asked for at the end searches nothing: every card was done ahead.
    monkeypatch.setattr(jobs, "review_position", lambda *a, **k: pytest.fail("searched again"))
    started = ok("review")
    moves = [ok("review_next", job=started["job"])["move"] for _ in range(started["total"])]
    expected = review_game(state, SOUTH, budget=BUDGET, seed="0").to_json()["moves"]
    assert moves == expected


@pytest.mark.parametrize(("ready_ms", "budget"), [(0, 20), (10**9, BUDGET)])
def test_cards_left_when_the_game_ends_get_a_search_sized_to_the_time_there_is(
        ready_ms: int, budget: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # The fewest iterations a card may get made 20 here (2,000 for the engine's budget).
    monkeypatch.setattr(ahead_module, "LEAST_REVIEW_ITERATIONS", 20)
    monkeypatch.setattr(reviews, "LEAST_REVIEW_ITERATIONS", 20)
    monkeypatch.setattr(ahead_module, "READY_MS", ready_ms)
    record = json.loads(GOLDEN[0].read_text())
    record.pop("players", None)
    state = parse_record(json.dumps(record))
    ok("load", record=record, settings={"seed": "golden", "levels": ["random"] * 4,
                                        "rules": record["rules"]})
    while ok("work", ms=50)["more"]:  # the game over, no card of it reviewed yet
        pass
    monkeypatch.setattr(jobs, "review_position", lambda *a, **k: pytest.fail("searched again"))
    started = ok("review")
    moves = [ok("review_next", job=started["job"])["move"] for _ in range(started["total"])]
    searched = [m for m in moves if not m["forced"]]
    # No time left: every card on the fewest iterations; time enough: on the whole budget.
    assert searched and {m["budget"] for m in searched} == {budget}
    # The same review as the command line's at that budget: it says what it was done at.
    assert searched[3] == review_card(state, searched[3]["play"], budget=budget,
                                      seed="0").to_json()
    # A review asked for at a budget of its own takes no smaller search.
    play = searched[3]["play"]
    assert jobs.remembered(state, play, BUDGET, "0", least=20).budget == budget
    assert (jobs.remembered(state, play, BUDGET, "0") is None) == (budget < BUDGET)


def test_the_rerun_keeps_pace_with_the_game_before_the_review_goes_on() -> None:
    view = advance(ok("new_game", seed="pace", level="random"))
    while view["plays"] < 52:  # a deal played, nothing worked on yet
        view = advance(ok("play", card=view["legal"][0]))
    progress = ok("work", ms=1)
    while progress["rerun"]["done"] < view["plays"]:
        # The person's cards wait while the rerun has played fewer cards than the game.
        assert progress["review"]["done"] == 0
        progress = ok("work", ms=20)
    while progress["more"]:
        progress = ok("work", ms=50)
    assert progress["review"]["done"] == progress["review"]["played"] >= 13


def first_deal_worked_ahead() -> dict[str, Any]:
    """The save of the golden game's first deal, loaded with random players and its work
    ahead all done."""
    record = json.loads(GOLDEN[0].read_text())
    record.pop("players", None)
    record["plays"] = record["plays"][:52]
    settings = {"seed": "golden", "levels": ["random"] * 4, "rules": record["rules"]}
    ok("load", record=record, settings=settings)
    while ok("work", ms=50)["more"]:
        pass
    saved: dict[str, Any] = ok("record")
    return saved


def test_the_work_kept_in_the_save_comes_back_after_a_reload(
        monkeypatch: pytest.MonkeyPatch) -> None:
    saved = first_deal_worked_ahead()
    assert sealed.is_sealed(saved["ahead"])  # the page keeps it without reading it
    kept = sealed.open_data(saved["ahead"], "ahead")
    assert len(kept["reviews"]) == 13
    assert not any(key in json.dumps(kept) for key in ("hand", "deck"))
    jobs.reset()  # a new worker: nothing remembered
    ahead_module.reset()
    ok("load", **saved)
    assert ok("work", ms=1)["review"] == {"done": 13, "played": 13}
    monkeypatch.setattr(jobs, "review_position", lambda *a, **k: pytest.fail("searched again"))
    started = ok("review")
    assert [ok("review_next", job=started["job"])["done"] for _ in range(13)][-1] == 13
    # A kept review that does not read back is refused, the game in play kept; so is work
    # kept unsealed, or a seal changed by one character.
    kept["reviews"][0]["cost"] = "a lot"
    for broken in (sealed.seal_data(kept), kept,
                   saved["ahead"][:-1] + ("0" if saved["ahead"][-1] != "0" else "1")):
        assert error("load", **{**saved, "ahead": broken}) == "bad_record"
        assert ok("view")["plays"] == 52


def test_work_kept_by_an_earlier_version_of_the_page_is_done_again_and_the_game_loads() -> None:
    saved = first_deal_worked_ahead()
    kept = sealed.open_data(saved["ahead"], "ahead")
    assert kept["rules"] == review_module.REVIEW_RULES
    # As the page before the cards' lines kept it: no rules, no line nor budget in a review.
    kept.pop("rules")
    for review in kept["reviews"]:
        review.pop("line")
        review.pop("budget")
    jobs.reset()
    ahead_module.reset()
    ok("load", **{**saved, "ahead": sealed.seal_data(kept)})
    assert ok("view")["plays"] == 52
    assert ok("work", ms=1)["review"]["done"] < 13  # left out: reviewed again
    # Work kept by rules to come is no more use to this page than an older one's.
    ok("load", **{**saved, "ahead": sealed.seal_data(
        {**sealed.open_data(saved["ahead"], "ahead"), "rules": review_module.REVIEW_RULES + 1})})
    assert ok("view")["plays"] == 52


# -- the master in your seat, played as the game goes ----------------------------------------


def test_the_master_in_your_seat_played_ahead_is_the_rerun_played_after() -> None:
    view = advance(ok("new_game", seed=31, level="random"))
    while view["status"] != "game_over":
        ok("work", ms=30)
        view = advance(ok("play", card=view["legal"][-1]))
    for _ in range(200):
        progress = ok("work", ms=1000)
        if not progress["more"]:
            break
    assert progress["rerun"] == {"done": 208, "total": 208}
    saved = ok("record")
    started = ok("rerun")  # taken over, already finished
    assert started["finished"] and started["done"] == 208
    settings = Settings.from_request(saved["settings"], saved=True)
    game = parse_record(json.dumps(saved["record"]))
    fresh = rerun_module.rerun_game(settings, game, 0,
                                    rerun_module.master_player(settings, 0, MASTER))
    assert started["result"]["master"] == list(fresh.partnership_scores())
    assert started["result"]["record"]["plays"] == [str(c) for c in fresh.plays]


@pytest.mark.parametrize("rerun_first", [True, False])
def test_the_calypso_of_the_days_work_plays_the_master_before_it_reviews(
    monkeypatch: pytest.MonkeyPatch, rerun_first: bool,
) -> None:
    # Its share line waits for the master's score; the review can wait for the end.
    monkeypatch.setattr(ahead_module, "RERUN_FIRST", rerun_first)
    view = advance(ok("daily", date="2026-12-01"))
    view = advance(ok("play", card=view["legal"][0]))
    progress = ok("work", ms=1)
    while progress["rerun"]["done"] < view["plays"]:  # any game's rerun keeps pace first
        assert progress["review"]["done"] == 0
        progress = ok("work", ms=50)
    # Level with the game: the day's master plays on past it, any other game's card is reviewed.
    progress = ok("work", ms=300)
    assert progress["review"] == {"done": 0 if rerun_first else 1, "played": 1}
    if rerun_first:
        assert progress["rerun"]["done"] > view["plays"]
    # Any other game: the review once the rerun has kept pace.
    view = advance(ok("new_game", seed=33, level="random"))
    advance(ok("play", card=view["legal"][0]))
    assert ok("work", ms=300)["review"] == {"done": 1, "played": 1}


def test_a_rerun_half_done_ahead_goes_on_in_the_rerun_job_and_after_a_reload() -> None:
    view = advance(ok("new_game", seed=32, level="random"))
    while view["status"] != "game_over":
        view = advance(ok("play", card=view["legal"][0]))
    while ok("work", ms=25)["rerun"]["done"] < 40:
        pass
    saved = ok("record")
    done = len(sealed.open_data(saved["ahead"], "ahead")["rerun"])
    assert 0 < done < 208
    ahead_module.reset()
    ok("load", **saved)
    started = ok("rerun")
    assert started["done"] == done and not started["finished"]
    while not (step := ok("rerun_next", job=started["job"]))["finished"]:
        pass
    settings = Settings.from_request(saved["settings"], saved=True)
    game = parse_record(json.dumps(saved["record"]))
    fresh = rerun_module.rerun_game(settings, game, 0,
                                    rerun_module.master_player(settings, 0, MASTER))
    assert step["result"]["master"] == list(fresh.partnership_scores())


def test_a_rerun_card_is_searched_in_slices_and_the_rerun_is_the_same(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jobs, "RERUN_SLICE_MS", 0)  # a layout of one search a request
    view = advance(ok("new_game", seed=33, level="random"))
    while view["status"] != "game_over":
        view = advance(ok("play", card=view["legal"][0]))
    started = ok("rerun", iterations=MASTER)
    done = within = 0
    while not (step := ok("rerun_next", job=started["job"]))["finished"]:
        assert step["done"] in (done, done + 1)  # never more than a card
        within += step["done"] == done
        done = step["done"]
    assert within > 52  # requests that ended within a card of the master's
    saved = ok("record")
    settings = Settings.from_request(saved["settings"], saved=True)
    game = parse_record(json.dumps(saved["record"]))
    fresh = rerun_module.rerun_game(settings, game, 0,
                                    rerun_module.master_player(settings, 0, MASTER))
    assert step["result"]["record"]["plays"] == [str(c) for c in fresh.plays]


def test_work_at_a_tests_budgets_is_kept_and_restored_at_those_budgets() -> None:
    view = advance(ok("new_game", seed=34, level="random"))
    for _ in range(3):
        view = advance(ok("play", card=view["legal"][0]))
    while ok("work", ms=50, budget=40, iterations=10)["more"]:
        pass
    saved = ok("record")  # asked without budgets: the work done at the test's is kept
    kept = sealed.open_data(saved["ahead"], "ahead")
    assert (kept["budget"], kept["iterations"], len(kept["reviews"])) == (40, 10, 3)
    assert len(kept["rerun"]) == 208
    ahead_module.reset()
    ok("load", **saved)
    progress = ok("work", ms=1, budget=40, iterations=10)
    assert progress["review"] == {"done": 3, "played": 3} and not progress["more"]
    assert progress["rerun"] == {"done": 208, "total": 208}


# -- several people, and bad requests ---------------------------------------------------------


def test_with_several_people_each_persons_cards_are_reviewed_and_none_is_said() -> None:
    people = [{"seat": 2, "name": "Ana"}, {"seat": 0, "name": "Ben"}]
    view = ok("new_game", seed=5, level="random", people=people)
    reviewed: dict[int, int] = {}
    people_plays: set[int] = set()
    while view["status"] != "game_over" and len(view["log"]["tricks"]) < 6:
        if view["status"] == "waiting":
            view = ok("step")
        elif view["status"] == "handoff":
            view = ok("reveal", seat=view["handoff"]["seat"])
        else:
            reviewed[view["viewer"]] = reviewed.get(view["viewer"], 0) + 1
            people_plays.add(view["plays"])
            view = ok("play", card=view["legal"][0])
        progress = ok("work", ms=40)
        assert set(progress) == {"review", "rerun", "more", "keep", "plays"}
        assert progress["plays"] == view["plays"]
        assert progress["rerun"] is None  # the master in your seat is for one person
    while ok("work", ms=100)["more"]:
        pass
    progress = ok("work", ms=1)
    assert progress["review"]["done"] == progress["review"]["played"] == sum(reviewed.values())
    saved = ok("record")
    reviews = sealed.open_data(saved["ahead"], "ahead")["reviews"]
    assert {move["play"] for move in reviews} == people_plays


def test_work_needs_a_game_and_a_time_in_milliseconds() -> None:
    assert error("work", ms=10) == "no_game"
    ok("new_game", seed=1, level="random")
    for ms in (0, -5, 5001, 2.5, "10", None):
        assert call("work", ms=ms)["error"]["code"] == "bad_request"
    assert review_module.REVIEW_ITERATIONS == 8000  # the module's own budget is untouched
