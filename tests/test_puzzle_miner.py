"""The puzzles' miner (bench/puzzles.py): its filters on positions made for them (a tie, a gap
that evaporates on the check, a card the club player finds), its log and the set it builds."""

from __future__ import annotations

import functools
import importlib
import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from helpers import play_cards, position
from test_review import ACE_TAKES_THE_HEARTS, TWO_ACES_TAKE_THE_HEARTS

from calypso_core import Card, GameState
from calypso_core.bots.puzzles import parse_set, puzzle_id
from calypso_core.bots.review import COST_BIAS, REVIEW_RULES, cost_of, points_lost

miner = importlib.import_module("bench.puzzles")
Judgement = miner.Judgement

# South (hearts) must follow the KH of East: the AH takes four hearts for its calypso, any
# other heart gives the trick and them to East (tests/test_review.py).
ACE = "2H 3H KH"
# The same trick without the ace: every heart South holds loses it alike.
NO_ACE = {**ACE_TAKES_THE_HEARTS, "S": "JD 5H 6H 7H 2D 3D 4D 5D 6D 7D 8D 9D TD",
          "W": "2H 2S AC AD KD QD AH 8H 9H TH JH QH JD"}


def made(diagram: dict[str, str], cards: str) -> GameState:
    state = position(2, diagram)
    play_cards(state, cards)
    return state


def judged(best: str, others: list[tuple[str, float, float]], verdict: str = "puzzle"
           ) -> Any:
    """A judgement made up: the best card, and each other card's gap and its error."""
    options = [(Card.parse(best), 0.0, 0, 0.0, 0.0)]
    options += [(Card.parse(c), -gap, cost_of(gap, err), gap, err)
                for c, gap, err in others]
    return Judgement(Card.parse(best), tuple(options), verdict, 4000)


# -- the rule ----------------------------------------------------------------------------------


def test_a_puzzle_is_one_card_above_every_other_by_the_line_and_three_errors() -> None:
    assert points_lost(100) == miner.LINE and miner.SE_LINE == 3
    assert miner.verdict(judged("AH", [("5H", 120, 10), ("6H", 140, 12)]).options) == "puzzle"


def test_a_tie_is_no_puzzle() -> None:
    # Two cards as good: the second costs nothing.
    assert miner.verdict(judged("AH", [("5H", 0, 0), ("6H", 140, 12)]).options) == "below_line"
    assert miner.out_of_reach([(0.0, 0.0), (0.0, 0.0), (140.0, 12.0)])


def test_the_line_is_in_the_reviews_costs_the_playouts_gap_less_its_bias() -> None:
    # The set was mined at a gap of 100 in the playouts: its review cost is on the line.
    assert miner.verdict(judged("AH", [("5H", 100, 5)]).options) == "puzzle"
    assert miner.verdict(judged("AH", [("5H", 99, 5)]).options) == "below_line"


def test_a_gap_below_the_line_or_within_three_errors_is_no_puzzle() -> None:
    assert miner.verdict(judged("AH", [("5H", 95, 5)]).options) == "below_line"
    assert miner.verdict(judged("AH", [("5H", 130, 50)]).options) == "within_noise"
    assert miner.verdict(judged("AH", []).options) == "below_line"


def test_the_search_stops_early_only_when_no_card_can_reach_the_line() -> None:
    assert miner.out_of_reach([(0.0, 0.0), (20.0, 10.0)])  # 20 + 2.5 x 10: below the line
    assert not miner.out_of_reach([(0.0, 0.0), (60.0, 20.0)])  # 60 + 50: above it
    assert not miner.out_of_reach([(0.0, 0.0), (20.0, math.inf)])  # one layout says nothing


# -- the filters on made positions --------------------------------------------------------------


def examine(state: GameState) -> tuple[dict[str, Any] | None, Counter[str]]:
    counts: Counter[str] = Counter()
    entry = miner.examine(state, len(state.plays), "test", counts, Counter())
    return entry, counts


def test_a_tie_is_dropped_at_the_first_look() -> None:
    state = made(NO_ACE, ACE)
    assert sorted(str(c) for c in state.legal_moves()) == ["5H", "6H", "7H"]
    entry, counts = examine(state)
    assert entry is None and counts["early"] == 1 and counts["early@60"] == 1


def test_an_obvious_card_is_dropped() -> None:
    # The AH is far the best, and the club player plays it.
    state = made(ACE_TAKES_THE_HEARTS, ACE)
    assert str(miner.level_card("club", state, "test")) == "AH"
    entry, counts = examine(state)
    assert entry is None and counts["obvious"] == 1


def test_an_obvious_card_is_kept_when_the_lower_levels_play_another(
        monkeypatch: pytest.MonkeyPatch) -> None:
    state = made(TWO_ACES_TAKE_THE_HEARTS, ACE)
    monkeypatch.setattr(miner, "level_card", lambda level, s, key: Card.parse("5H"))
    entry, counts = examine(state)
    assert entry is not None and entry["confirmed"] and counts["confirmed"] == 1
    assert entry["check"]["best"] == "AH" and entry["levels"]["club"] == "5H"
    assert entry["check"]["iterations"] >= miner.CONFIRM_FACTOR * miner.JUDGE_BUDGET


def test_a_gap_that_evaporates_on_the_check_is_dropped_and_counted(
        monkeypatch: pytest.MonkeyPatch) -> None:
    state = made(ACE_TAKES_THE_HEARTS, ACE)
    budgets: list[int] = []
    seeds: list[str] = []

    def judge(position: GameState, play: int, *, budget: int, seed: str, **looks: Any) -> Any:
        budgets.append(budget)
        seeds.append(seed)
        if len(budgets) == 1:  # the first search: a puzzle
            return judged("6H", [("AH", 130, 10), ("5H", 150, 10), ("7H", 150, 10)])
        return judged("6H", [("AH", 70, 10), ("5H", 150, 10), ("7H", 150, 10)], "below_line")

    monkeypatch.setattr(miner, "judge", judge)
    entry, counts = examine(state)
    assert entry is not None and not entry["confirmed"]
    assert counts["candidates"] == 1 and counts["evaporated"] == 1 and not counts["confirmed"]
    assert budgets == [miner.JUDGE_BUDGET, miner.CONFIRM_FACTOR * miner.JUDGE_BUDGET]
    assert seeds[0] != seeds[1]  # another seed


def test_a_check_that_finds_another_best_card_drops_the_candidate(
        monkeypatch: pytest.MonkeyPatch) -> None:
    state = made(ACE_TAKES_THE_HEARTS, ACE)
    answers = iter([judged("6H", [("AH", 130, 10), ("5H", 150, 10), ("7H", 150, 10)]),
                    judged("AH", [("6H", 130, 10), ("5H", 150, 10), ("7H", 150, 10)])])
    monkeypatch.setattr(miner, "judge", lambda *a, **k: next(answers))
    entry, counts = examine(state)
    assert entry is not None and not entry["confirmed"] and counts["evaporated"] == 1


# -- the log and the set ---------------------------------------------------------------------------


def test_a_game_mines_the_same_whenever_it_is_mined(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(miner, "LOOKS", (20,))
    monkeypatch.setattr(miner, "JUDGE_BUDGET", 40)
    first = miner.mine_game((1, None))
    second = miner.mine_game((1, None))
    assert {k: v for k, v in first.items() if "cpu" not in k} == {
        k: v for k, v in second.items() if "cpu" not in k}
    assert first["counts"]["positions"] >= 30  # the last deal's choices
    assert miner.game_position(first, 180).plays == miner.play_mined_game(1)[2].plays[:180]


def test_mining_resumes_after_the_games_already_logged(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    mined: list[int] = []

    def mine_game(task: tuple[int, str | None]) -> dict[str, Any]:
        mined.append(task[0])
        return {"game": task[0], "counts": {}, "cpu": 1.0, "candidates": []}

    monkeypatch.setattr(miner, "mine_game", mine_game)
    log = tmp_path / "mine.log"
    log.write_text('{"game": 0, "counts": {}, "cpu": 1.0, "candidates": []}\n{"game": 1, "cou')
    args = miner.argparse.Namespace(log=log, games=3, first=0, jobs=1, records=[])
    miner.mine(args)
    assert mined == [1, 2]  # game 1 was cut short by a kill: mined again
    assert [json.loads(line)["game"] for line in log.read_text().splitlines()] == [0, 1, 2]


@functools.cache
def mined_game() -> tuple[str, list[str], GameState]:
    return miner.play_mined_game(3)  # type: ignore[no-any-return]


def a_log_line(confirmed: bool, rules: int | None = REVIEW_RULES) -> dict[str, Any]:
    """A logged game of the miner (game 3) with one candidate in its last deal, its search
    made up (the set is built from seeds and choices) by the review's ``rules`` (None: a
    check logged before the costs were calibrated)."""
    seed, levels, final = mined_game()
    play = next(p for p, s in miner.positions(final) if p >= 160 and len(s.legal_moves()) > 2)
    state = miner.game_position({"seed": seed, "choices": miner.encode_choices(final)}, play)
    legal = [str(c) for c in state.legal_moves()]
    options = [[legal[0], 10.0, 0, 0.0, 0.0]] + [[c, -120.0, 130, 130.0, 10.0] for c in legal[1:]]
    check = {"best": legal[0], "verdict": "puzzle" if confirmed else "below_line",
             "iterations": 16000, "options": options,
             **({} if rules is None else {"rules": rules})}
    return {"game": 3, "seed": seed, "source": "mixed", "levels": levels,
            "choices": miner.encode_choices(final), "counts": {}, "cpu": 1.0,
            "candidates": [{"play": play, "seat": state.to_move, "judge": check, "check": check,
                            "confirmed": confirmed,
                            "levels": {"novice": legal[1], "club": legal[1], "expert": legal[0],
                                       "master": legal[0]}}]}


def test_the_set_holds_only_confirmed_puzzles_and_reads_back() -> None:
    line = a_log_line(True)
    data = miner.puzzle_set([line, {**a_log_line(False), "game": 5}])
    assert len(data["puzzles"]) == 1
    puzzles = parse_set(json.dumps(data))
    puzzle = puzzles.puzzles[0]
    play = line["candidates"][0]["play"]
    assert puzzle.id == puzzle_id(line["seed"], play) and puzzle.rating == 1200 + 2 * 200
    assert puzzle.position().plays == miner.game_position(line, play).plays
    assert all(cost == 130 for card, cost in puzzle.costs.items() if card not in puzzle.solutions)


def test_a_check_logged_before_the_calibration_gives_its_costs_by_todays_rule() -> None:
    # Then a check kept the playouts' gap, rounded, as a card's cost: 130 costs less today.
    data = miner.puzzle_set([a_log_line(True, rules=None)])
    assert {cost for _, cost in data["puzzles"][0][4]} == {points_lost(130)} == {130 - COST_BIAS}
    with pytest.raises(ValueError, match="the review's rules 2, not 3: run confirm again"):
        miner.puzzle_set([a_log_line(True, rules=2)])


def test_the_set_is_built_the_same_from_the_same_log(tmp_path: Path) -> None:
    log = tmp_path / "mine.log"
    log.write_text(json.dumps(a_log_line(True)) + "\n")
    outs = [tmp_path / "a.json", tmp_path / "b.json"]
    for out in outs:
        miner.build(miner.argparse.Namespace(log=log, out=out))
    assert outs[0].read_bytes() == outs[1].read_bytes()


def test_the_figures_count_puzzles_per_cpu_hour_and_the_checks_survivors() -> None:
    lines = [{"counts": {"candidates": 4, "confirmed": 3, "evaporated": 1}, "cpu": 1800.0,
              "iterations": {}},
             {"counts": {"candidates": 0}, "cpu": 1800.0, "iterations": {}}]
    figures = miner.figures(lines)
    assert figures["puzzles_per_cpu_hour"] == 3.0 and figures["survive_check"] == 0.75
