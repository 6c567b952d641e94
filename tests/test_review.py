"""The review: what each card cost, from its player's view only, graded in points."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from helpers import play_cards, position, rehide, replay
from test_bots import redeal_anyhow

from calypso_core import Card, GameState, new_game, to_record
from calypso_core.__main__ import main
from calypso_core.bots import make_bot
from calypso_core.bots import review as review_module
from calypso_core.bots.knowledge import Knowledge
from calypso_core.bots.review import (
    COST_BIAS,
    COST_SCALE,
    GRADES,
    NOISE_SE,
    cost_of,
    crossed_gaps,
    grade,
    iter_review,
    judge,
    judgement,
    paired_gap,
    points_lost,
    review_card,
    review_game,
    seat_plays,
)
from calypso_core.bots.search import CheaterBot, SearchResult, Watch
from calypso_core.messages import render

SMALL = 60  # iterations a card: enough to exercise everything, quick

# Deal 0, West leads (South deals): West leads the 2H, North follows with the 3H, East
# covers with the KH, and South, whose suit is hearts, holds the AH. The ace takes four
# hearts for South's calypso; any other heart gives them and the trick to East.
ACE_TAKES_THE_HEARTS = {
    "N": "3H AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S",
    "E": "KH 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
    "S": "AH 5H 6H 7H 2D 3D 4D 5D 6D 7D 8D 9D TD",
    "W": "2H 2S AC AD KD QD JD 8H 9H TH JH QH JD",
}
# The same trick with two aces of hearts in South's hand: taking it with one gives up nothing
# for later, and any other heart is a blunder.
TWO_ACES_TAKE_THE_HEARTS = {**ACE_TAKES_THE_HEARTS,
                            "S": "AH AH 5H 6H 7H 2D 3D 4D 5D 6D 7D 8D 9D"}


def game_in_progress(seed: int = 5, plays: int = 70) -> GameState:
    """A game of club players stopped in its second deal."""
    state = new_game(seed)
    bots = [make_bot("club", seat, random.Random(seat)) for seat in range(4)]
    for _ in range(plays):
        seat = state.to_move
        state.play(bots[seat].choose(state.observation(seat), state.legal_moves()))
    return state


# -- grades and noise -----------------------------------------------------------------------


def test_grades_are_thresholds_in_points_worst_first() -> None:
    (blunder, b), (mistake, m), (inaccuracy, i) = GRADES
    assert (blunder, mistake, inaccuracy) == ("blunder", "mistake", "inaccuracy")
    assert 0 < i < m < b
    assert grade(0) is None
    assert grade(i - 1) is None
    assert grade(i) == grade(m - 1) == "inaccuracy"
    assert grade(m) == grade(b - 1) == "mistake"
    assert grade(b) == grade(10 * b) == "blunder"


def test_a_gap_within_the_noise_costs_nothing() -> None:
    # Two cards on four layouts: the second is behind by 10 on average, but by +30 or -10.
    samples = [(1.0, [50.0, 20.0]), (1.0, [50.0, 60.0]), (1.0, [50.0, 20.0]), (1.0, [50.0, 60.0])]
    gap, error = paired_gap(samples, 0, 1)
    assert gap == 10.0 and error == pytest.approx(20 / 3**0.5)
    assert cost_of(gap, error) == 0


def test_a_gap_the_same_on_every_layout_costs_all_of_it_less_the_playouts_bias() -> None:
    samples = [(1.0, [50.0 + x, 20.0 + x]) for x in (0.0, 40.0, -25.0)]
    assert paired_gap(samples, 0, 1) == (30.0, 0.0)
    assert cost_of(30.0, 0.0) == 30 - COST_BIAS


def test_a_gap_no_larger_than_the_playouts_bias_costs_nothing() -> None:
    assert cost_of(COST_BIAS, 0.0) == cost_of(COST_BIAS - 0.4, 0.0) == 0
    assert cost_of(COST_BIAS + 1, 0.0) == 1


def test_a_gap_counts_only_beyond_the_noise_rule() -> None:
    gap = NOISE_SE * 50 + 0.1
    assert cost_of(gap, 50.0) == round(gap) - COST_BIAS
    assert cost_of(NOISE_SE * 50, 50.0) == 0


def test_the_cost_of_a_gap_is_scaled_then_rounded_then_less_the_bias() -> None:
    for gap in (25.5, 26.49, 60.5, 99.6, 124.5, 125.4, 300.0):
        assert points_lost(gap) == max(0, round(COST_SCALE * gap) - COST_BIAS)
        assert cost_of(gap, 0.0) == points_lost(gap)


def test_weights_count_in_the_paired_gap() -> None:
    samples = [(3.0, [10.0, 0.0]), (1.0, [10.0, 10.0])]
    gap, _ = paired_gap(samples, 0, 1)
    assert gap == 7.5


def test_one_layout_says_nothing_about_the_noise() -> None:
    gap, error = paired_gap([(1.0, [100.0, 0.0])], 0, 1)
    assert gap == 100.0 and error == float("inf")
    assert cost_of(gap, error) == 0


def test_a_gap_behind_on_every_layout_is_crossed_whole() -> None:
    # The best card chosen on one half of the layouts and measured on the other: a card
    # behind by 30 on every layout is behind by 30 either way round.
    samples = [(1.0, [50.0 + x, 20.0 + x]) for x in (0.0, 40.0, -25.0, 5.0)]
    assert crossed_gaps(samples, [0, 1]) == [0.0, 30.0]


def test_the_luck_that_made_a_card_the_best_is_not_counted_as_a_cost() -> None:
    # Chosen on all four layouts the first card leads by 4, thanks to one lucky layout; but
    # the even layouts choose the second card and the odd ones the first: measured on the
    # half that did not choose it, each choice does worse than the other card, and the
    # second card costs nothing.
    samples = [(1.0, [0.0, 10.0]), (1.0, [10.0, 0.0]), (1.0, [0.0, 10.0]), (1.0, [26.0, 0.0])]
    assert paired_gap(samples, 0, 1)[0] == 4.0
    assert crossed_gaps(samples, [0, 1]) == [-9.0, -5.0]


def test_the_best_card_costs_nothing_even_where_the_halves_choose_another() -> None:
    samples = [(1.0, [0.0, 10.0]), (1.0, [12.0, 0.0]), (1.0, [0.0, 10.0]), (1.0, [12.0, 0.0])]
    found = judgement([Card.parse("2C"), Card.parse("3C")], samples)
    assert found.best == Card.parse("2C") and found.costs[0] == 0


# -- reviewing cards ------------------------------------------------------------------------


def test_the_review_finds_the_card_that_throws_away_the_hearts() -> None:
    state = position(2, ACE_TAKES_THE_HEARTS)
    play_cards(state, "2H 3H KH 5H")
    review = review_card(state, 3, budget=2000)
    assert review.seat == 2 and review.card == Card.parse("5H")
    assert review.best == Card.parse("AH")
    # Letting East's K♥ hold the trick is at least a mistake.
    assert review.cost >= dict(GRADES)["mistake"] and review.grade == grade(review.cost)
    assert review.option("AH").cost == 0
    assert review.options[0].card == Card.parse("AH")
    assert all(review.option(c).cost >= dict(GRADES)["mistake"] for c in ("6H", "7H"))
    assert review.reason is not None and "A♥" in render(review.reason)
    assert "Т♥" in render(review.reason, "ru")
    with pytest.raises(ValueError, match="2C was not a legal card"):
        review.option("2C")


def test_the_best_card_costs_nothing() -> None:
    state = position(2, ACE_TAKES_THE_HEARTS)
    play_cards(state, "2H 3H KH AH")
    review = review_card(state, 3, budget=2000)
    assert review.card == review.best == Card.parse("AH")
    assert review.cost == 0 and review.grade is None and review.reason is None


def test_judging_a_position_costs_each_card_as_its_review_there_would() -> None:
    state = position(2, ACE_TAKES_THE_HEARTS)
    play_cards(state, "2H 3H KH")
    judged = judge(state, budget=SMALL, seed=3)
    assert judged.legal == tuple(state.legal_moves())
    for card in judged.legal:
        played = state.clone()
        played.play(card)
        review = review_card(played, 3, budget=SMALL, seed=3)
        assert (review.best, review.cost) == (judged.best, judged.costs[judged.index(card)])
    assert judged.costs[judged.index(judged.best)] == 0
    with pytest.raises(ValueError, match="2C is not a legal card here"):
        judged.index("2C")


def test_a_forced_card_costs_nothing_and_is_not_searched() -> None:
    state = game_in_progress()
    for move in iter_review(state, 0, budget=SMALL):
        if move.forced:
            assert move.cost == 0 and move.best == move.card and move.layouts == 0
            break
    else:
        pytest.fail("no forced card in this game")


def test_review_card_is_one_step_of_iter_review() -> None:
    state = game_in_progress()
    moves = list(iter_review(state, 1, budget=SMALL, seed=4))
    assert [m.play for m in moves] == seat_plays(state, 1)
    assert all(state.plays[m.play] == m.card and m.seat == 1 for m in moves)
    for move in moves[::5]:
        assert review_card(state, move.play, budget=SMALL, seed=4) == move


def test_the_same_seed_gives_the_same_review_and_another_seed_may_not() -> None:
    state = game_in_progress()
    first = review_game(state, 3, budget=SMALL, seed=1).to_json()
    assert review_game(state, 3, budget=SMALL, seed=1).to_json() == first
    assert review_game(state, 3, budget=SMALL, seed=2).to_json() != first


def test_review_game_reports_progress_and_totals_per_deal() -> None:
    state = game_in_progress(plays=80)
    calls: list[tuple[int, int]] = []
    review = review_game(state, 2, budget=SMALL, progress=lambda d, t: calls.append((d, t)))
    total = len(seat_plays(state, 2))
    assert calls == [(i, total) for i in range(1, total + 1)]
    data = review.to_json()
    assert data["total_cost"] == sum(m["cost"] for m in data["moves"]) == review.total_cost
    assert [row["deal"] for row in data["per_deal"]] == [0, 1, 2, 3]
    assert [row["cards"] for row in data["per_deal"]] == [13, total - 13, 0, 0]
    for row in data["per_deal"]:
        moves = [m for m in data["moves"] if m["deal"] == row["deal"]]
        assert row["cost"] == sum(m["cost"] for m in moves)
        for name in ("inaccuracy", "mistake", "blunder"):
            assert row[name] == sum(m["grade"] == name for m in moves)


def test_the_review_refuses_bad_input() -> None:
    state = game_in_progress()
    with pytest.raises(ValueError, match="not a seat"):
        list(iter_review(state, 4))
    with pytest.raises(ValueError, match="positive number of iterations"):
        list(iter_review(state, 0, budget=0))
    with pytest.raises(ValueError, match="not in the game"):
        review_card(state, len(state.plays))


# -- no peeking -----------------------------------------------------------------------------


def redeals(state: GameState, seat: int, rng: random.Random) -> list[GameState]:
    """The same game as ``seat`` saw it, with the cards it could not see dealt again."""
    others = [replay(state, rehide(state, seat, rng)) for _ in range(2)]
    anyhow = redeal_anyhow(state, seat, rng)
    if anyhow is not None:
        others.append(anyhow)
    for other in others:
        assert other.hand(seat) == state.hand(seat)
        assert other.observation(seat) == state.observation(seat)
    return others


@pytest.mark.parametrize(("seed", "plays", "seat"), [(5, 70, 1), (9, 40, 2), (12, 150, 0)])
def test_redealing_the_unseen_cards_never_changes_the_review(
    seed: int, plays: int, seat: int
) -> None:
    state = game_in_progress(seed, plays)
    expected = review_game(state, seat, budget=SMALL, seed=7).to_json()
    others = redeals(state, seat, random.Random(seed))
    assert any(other.deck != state.deck for other in others)
    for other in others:
        assert review_game(other, seat, budget=SMALL, seed=7).to_json() == expected


class PeekingSearch(CheaterBot):
    """A review that cheats: the master's search on the true cards of ``truth``."""

    truth: GameState

    def search(self, k: Knowledge, legal: list[int], watch: Watch | None = None) -> SearchResult:
        truth = self.truth
        now = new_game(rules=truth.rules, suits=truth.suits, first_dealer=truth.first_dealer,
                       deck=truth.deck)
        for card in truth.plays[: 52 * k.deal + 4 * k.trick_number + len(k.trick)]:
            now.play(card)
        self.peek(now)
        return super().search(k, legal, watch)


def test_the_redeal_test_would_catch_a_peeking_review(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(review_module.CardReviewer, "SEARCHER", PeekingSearch)
    state = game_in_progress(5, 70)
    PeekingSearch.truth = state
    expected = review_game(state, 1, budget=SMALL, seed=7).to_json()
    changed = False
    for other in redeals(state, 1, random.Random(5)):
        PeekingSearch.truth = other
        changed |= review_game(other, 1, budget=SMALL, seed=7).to_json() != expected
    assert changed


# -- the command line -----------------------------------------------------------------------


def record_file(tmp_path: Path, state: GameState) -> str:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(to_record(state)))
    return str(path)


def run_main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_review_command_prints_every_card_of_the_seat_as_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = game_in_progress()
    path = record_file(tmp_path, state)
    status, out, err = run_main(capsys, "review", path, "--seat", "E", "--budget", "40",
                                "--seed", "3", "--json")
    assert status == 0 and err == ""
    data: dict[str, Any] = json.loads(out)
    assert data["seat"] == 1
    assert [m["play"] for m in data["moves"]] == seat_plays(state, 1)
    for move in data["moves"]:
        assert move["card"] == str(state.plays[move["play"]])
        assert {"card", "best", "cost", "grade"} <= set(move)
        assert move["cost"] >= 0 and move["grade"] == grade(move["cost"])
    assert data["total_cost"] == sum(m["cost"] for m in data["moves"])
    assert data == review_game(state, 1, budget=40, seed="3").to_json()
    for seat in ("1", "east", "East"):
        assert run_main(capsys, "review", path, "--seat", seat, "--budget", "40",
                        "--seed", "3", "--json")[1] == out


def test_review_command_prints_a_table_without_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = position(2, ACE_TAKES_THE_HEARTS)
    play_cards(state, "2H 3H KH 5H")
    status, out, _ = run_main(capsys, "review", record_file(tmp_path, state), "--seat", "S",
                              "--budget", "2000")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("South's cards, reviewed at 2000 iterations a card (seed 0)")
    row = lines[2].split()
    assert row[:5] == ["3", "1", "1", "5H", "AH"] and row[6] == grade(int(row[5])) == "mistake"
    # The costly card's line on the row below: what the better card does in the layouts.
    assert lines[3].strip().startswith("In 20 of 20 layouts the A♥ takes this trick")
    assert lines[4] == f"deal 1: 1 card, {row[5]} points lost (1 {row[6]})"
    assert lines[-1] == f"total: 1 card, {row[5]} points lost"


def test_review_command_exits_2_for_a_broken_record_or_a_bad_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "calypso-record"}')
    status, out, err = run_main(capsys, "review", str(broken), "--seat", "S")
    assert status == 2 and out == "" and "error: game record has no 'version'" in err
    path = record_file(tmp_path, game_in_progress())
    for args in (["--seat", "X"], ["--seat", "4"], ["--seat", "S", "--budget", "0"], []):
        status, out, err = run_main(capsys, "review", path, *args)
        assert status == 2 and out == "" and err.count("\n") == 1, args
