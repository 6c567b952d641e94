"""bench/review_calibration.py: the review's costs against what the master makes of them,
resumable, every rule judged from the same logged searches."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from calypso_core.bots.review import NOISE_SE, points_lost
from calypso_core.bots.search import MasterBot

calibration = importlib.import_module("bench.review_calibration")


def searched(gap: float, error: float, played: str = "5H", best: str = "AH") -> dict[str, Any]:
    """A searched card as a game row logs it: two legal cards, the best ``gap`` points ahead
    on all the layouts and on each half, the paired gap's standard error ``error``."""
    return {"card": played, "legal": [best, played], "v": [gap, 0.0], "a": [gap, 0.0],
            "b": [gap, 0.0], "se": [error, error]}


def test_each_rule_turns_the_same_search_into_its_cost() -> None:
    costs = calibration.rules(searched(100.0, 5.0))
    assert costs["review"] == (float(points_lost(100.0)), "AH")
    assert costs["whole"] == costs["before"] == costs["threshold"] == (100.0, "AH")
    assert costs["gap"] == costs["crossed"] == (100.0, "AH")


def test_a_gap_within_the_noise_costs_nothing_by_any_rule_but_the_raw_gaps() -> None:
    costs = calibration.rules(searched(NOISE_SE * 10.0 - 1, 10.0))
    assert costs["review"][0] == costs["whole"][0] == costs["before"][0] == 0.0
    assert costs["gap"][0] == costs["crossed"][0] == NOISE_SE * 10.0 - 1


def test_the_best_card_played_costs_nothing() -> None:
    card = {**searched(100.0, 5.0), "card": "AH"}
    assert all(cost == 0.0 and best == "AH" for cost, best in calibration.rules(card).values())


@pytest.mark.parametrize("gap", [0.0, 5.0, 24.0, 26.0, 60.0, 300.0])
@pytest.mark.parametrize("error", [0.5, 10.0, 40.0])
def test_a_rule_covers_only_cards_it_charges_itself_with_the_same_best_card(
        gap: float, error: float) -> None:
    costs = calibration.rules(searched(gap, error))
    for rule, covered in calibration.COVERS.items():
        for other in covered:
            if costs[other][0] > 0:
                assert costs[rule][0] > 0 and costs[rule][1] == costs[other][1]


def test_a_slope_is_fitted_by_least_squares_with_its_interval_over_games() -> None:
    points = [(game, x, 0.5 * x + 3) for game in range(20) for x in (10.0, 40.0, 90.0)]
    slope, low, high, intercept = calibration.slope_of(points)
    assert (slope, intercept) == pytest.approx((0.5, 3.0))
    assert low == pytest.approx(0.5) and high == pytest.approx(0.5)


def run(monkeypatch: pytest.MonkeyPatch, *args: str) -> int:
    monkeypatch.setattr(sys, "argv", ["review_calibration.py", *args])
    return int(calibration.main())


def test_games_and_their_cards_are_kept_a_line_each_and_not_played_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    games, cards = tmp_path / "games.log", tmp_path / "cards.log"
    play = ("games", "--level", "club", "--games", "1", "--budget", "40", "--no-rerun",
            "--log", str(games))
    assert run(monkeypatch, *play) == 0
    row = json.loads(games.read_text())
    assert row["kind"] == "game" and row["rerun"] is None and row["cards"]
    assert row["total"] == sum(calibration.rules(card)["review"][0] for card in row["cards"])
    assert run(monkeypatch, *play) == 0
    assert len(games.read_text().splitlines()) == 1
    on = ("cards", "--only", "whole", "--reps", "1", "--master", "5", "--policy-reps", "2",
          "--from", str(games), "--log", str(cards))
    assert run(monkeypatch, *on) == 0
    played = json.loads(cards.read_text())
    charged = {card["play"] for card in row["cards"] if calibration.rules(card)["whole"][0] > 0}
    assert {card["play"] for card in played["cards"]} == charged
    assert all(len(values) == 1 for card in played["cards"] for values in card["master"].values())
    with pytest.raises(SystemExit, match="other budgets"):
        run(monkeypatch, *on[:4], "2", *on[5:])
    capsys.readouterr()
    assert run(monkeypatch, "summary", str(games), str(cards)) == 0
    # Masters of other iterations than the usual 300 are set beside those, not mixed in.
    assert capsys.readouterr().out.startswith("masters at 5 iterations")


def test_least_goes_with_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(SystemExit, match="--least goes with --only"):
        run(monkeypatch, "cards", "--least", "50", "--from", str(tmp_path / "games.log"),
            "--log", str(tmp_path / "cards.log"))


@pytest.fixture(scope="module", name="small_game")
def small_game_row(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """A club game with every South card reviewed at 300 iterations (three of them costly),
    and its log."""
    log = tmp_path_factory.mktemp("again") / "games.log"
    calibration.append_line(log, calibration.game_row("club", 0, 300, None, 1, False))
    return log, json.loads(log.read_text())


def test_searched_again_with_the_reviews_own_playouts_a_card_has_the_reviews_gap(
        small_game: tuple[Path, dict[str, Any]]) -> None:
    _, game = small_game
    plays = [card["play"] for card in game["cards"] if len(card["legal"]) > 1]
    same = calibration.again_row(game, plays, MasterBot.EPSILON, False)
    gaps = {card["play"]: calibration.rules(card)["gap"][0] for card in game["cards"]}
    assert [card["play"] for card in same["cards"]] == plays
    assert all(card["gap"] == pytest.approx(gaps[card["play"]], abs=0.02)
               for card in same["cards"])
    gaps_of = [card["gap"] for card in same["cards"]]
    for other in (calibration.again_row(game, plays, 0.3, True),
                  calibration.again_row(game, plays, MasterBot.EPSILON, False, seed="1")):
        assert [card["gap"] for card in other["cards"]] != gaps_of


def test_the_costly_cards_played_on_are_searched_again_once_and_summed_up(
        small_game: tuple[Path, dict[str, Any]], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    games, game = small_game
    costly = [card for card in game["cards"] if calibration.rules(card)["review"][0] > 0]
    assert len(costly) >= 3
    # The masters' values as a cards run would log them (here made up: the best card ahead).
    played_on = [{"play": card["play"], "policy": {card["card"]: 0.0, card["best"]: 0.0},
                  "master": {card["card"]: [0.0], card["best"]: [10.0 * i]}}
                 for i, card in enumerate(costly)]
    cards, again = tmp_path / "cards.log", tmp_path / "again.log"
    calibration.append_line(cards, {
        "kind": "cards", "level": "club", "table": "club", "budget": 300, "game": 0, "reps": 1,
        "iterations": calibration.PLAY_ON_ITERATIONS, "policy_reps": 1, "only": "review",
        "least": 0, "cards": played_on, "cpu": 0.0, "load": [0.0, 0.0, 0.0]})
    search = ("again", "--epsilon", "0.0", "--from", str(games), str(cards), "--log", str(again))
    assert run(monkeypatch, *search) == 0
    assert run(monkeypatch, *search) == 0  # nothing left to search: the log is unchanged
    rows = [json.loads(line) for line in again.read_text().splitlines()]
    assert len(rows) == 1 and [c["play"] for c in rows[0]["cards"]] == [c["play"] for c in costly]
    with pytest.raises(SystemExit, match="other playouts"):
        run(monkeypatch, *search[:2], "0.1", *search[3:])
    capsys.readouterr()
    assert run(monkeypatch, "summary", str(games), str(cards), str(again)) == 0
    out = capsys.readouterr().out
    assert f"random rate of 0.0: {len(costly)} cards" in out
    assert out.count("the masters' loss on") == 6


def test_a_loss_that_spreads_no_more_than_its_repetitions_is_none_of_the_cards_own() -> None:
    points = [(0, 10.0, loss) for loss in (0.0, 10.0, 20.0, 30.0)]  # variance 166.7
    noisy = calibration.measure_reliability(points, [500 / 3] * 4)
    assert "0.00 of its variance is the cards' own" in noisy
    exact = calibration.measure_reliability(points, [0.0] * 4)
    assert "spreads by 12.9 from card to card, by 0.0 from its repetitions" in exact
    assert "1.00 of its variance is the cards' own" in exact


def test_a_cards_repetitions_spread_its_loss_by_their_paired_differences() -> None:
    values = {"AH": [10.0, 30.0, 20.0], "5H": [0.0, 20.0, 10.0]}  # always 10 apart
    assert calibration.repetitions_spread(values, "AH", "5H") == 0.0
    assert calibration.repetitions_spread({"AH": [10.0, 0.0], "5H": [0.0, 0.0]},
                                          "AH", "5H") == pytest.approx(50 / 2)


def test_a_game_reviewed_again_with_the_reviews_own_playouts_is_the_same_review(
        small_game: tuple[Path, dict[str, Any]]) -> None:
    _, game = small_game
    again = calibration.again_game(game, MasterBot.EPSILON, False)
    assert again["cards"] == game["cards"] and again["total"] == game["total"]
    assert calibration._level_of(again) == "club, 300 iterations, playouts at 0.03"
    other = calibration.again_game(game, 0.75, False, seed="1")
    assert calibration._level_of(other) == "club, 300 iterations, playouts at 0.75 (seed 1)"
    assert [c["v"] for c in other["cards"]] != [c["v"] for c in game["cards"]]


def test_only_games_with_the_masters_rerun_are_reviewed_again(
        small_game: tuple[Path, dict[str, Any]], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    games, _ = small_game  # played without a rerun: no gain to set a total beside
    again = tmp_path / "again.log"
    assert run(monkeypatch, "again", "--games", "--epsilon", "0.75", "--from", str(games),
               "--log", str(again)) == 0
    assert not again.exists() or again.read_text() == ""


def test_a_review_with_other_playouts_is_judged_on_its_own_costly_cards() -> None:
    # Its four costly cards (the 5H where the AH was best), three of them played on by masters.
    row = {"level": "club", "playouts": [0.75, False, "0"],
           "cards": [{**searched(100.0, 5.0), "play": play} for play in (10, 20, 30, 40)]}
    logs = calibration.Logs(games={("club, playouts at 0.75", 0): row})
    logs.played_on = {("club", 0, play): {"master": {"AH": [float(play)], "5H": [0.0]}}
                      for play in (10, 20, 30)}
    said = calibration.own_cards_summary(logs, "club, playouts at 0.75")
    cost = points_lost(100.0)
    assert said.startswith("club, playouts at 0.75: its own costly cards, 4, of which 3 played "
                           f"on by masters after its best card: mean cost {cost:.1f}, the "
                           "masters' loss 20.0")
