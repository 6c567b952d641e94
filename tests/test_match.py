"""Duplicate matches and the ``match`` and ``suggest`` commands (smoke tests, not ladders)."""

from __future__ import annotations

import json
import math
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest

from calypso_core import Rules, new_game, to_record
from calypso_core.bots import make_bot, play_game, run_match
from calypso_core.bots.cli import parse_rules_option
from calypso_core.bots.duplicate import BoardResult, board_seed

ROOT = Path(__file__).resolve().parents[1]


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "calypso_core", *args],
        capture_output=True,
        cwd=ROOT,
        env=env,
        timeout=120,
        check=False,
        text=True,
    )


def test_a_level_against_itself_is_even_board_by_board_when_seeds_match() -> None:
    result = run_match("novice", "novice", boards=3, seed=1)
    # Same bots, same seeds by seat, same deck: swapping the partnerships mirrors the game.
    assert result.mean_margin == 0
    assert result.board_win_rate == 0.5


def test_the_summary_is_worked_out_from_the_games_of_each_board() -> None:
    rules = Rules(all_fours=True)
    result = run_match("novice", "random", boards=3, seed=2, rules=rules)
    # Each board played by hand: the same deck twice, the partnerships swapped, bot seeds
    # by seat (calypso_core/bots/duplicate.py's docstring).
    margins, calypsos = [], {"novice": 0, "random": 0}
    for board in range(3):
        state = new_game(board_seed(2, board), rules)
        lead = 0.0
        for a_side in (0, 1):
            levels = ["novice" if seat % 2 == a_side else "random" for seat in range(4)]
            bots = [make_bot(level, seat, random.Random(f"calypso-bots/2/{board}/{seat}"))
                    for seat, level in enumerate(levels)]
            end = play_game(state, bots)
            scores = end.partnership_scores()
            lead += (scores[a_side] - scores[a_side ^ 1]) / 2
            for seat, level in enumerate(levels):
                calypsos[level] += end.completed(seat)
        margins.append(lead)
    assert result.margins == margins
    mean = statistics.fmean(margins)
    half = 1.96 * statistics.stdev(margins) / math.sqrt(3)
    assert result.mean_margin == pytest.approx(mean)
    assert result.ci95 == pytest.approx((mean - half, mean + half))
    assert result.board_win_rate == sum(1 if m > 0 else 0.5 if m == 0 else 0 for m in margins) / 3
    assert result.calypsos_per_game == {level: n / 6 for level, n in calypsos.items()}
    data = result.to_json()
    assert data["mean_margin"] == round(mean, 1)
    assert data["ci95"] == [round(mean - half, 1), round(mean + half, 1)]
    for level in ("novice", "random"):
        p50, p95 = data["move_ms"][level]["p50"], data["move_ms"][level]["p95"]
        assert 0 < p50 <= p95


def test_match_is_reproducible_and_spreads_over_processes() -> None:
    one = run_match("club", "novice", boards=2, seed=5)
    two = run_match("club", "novice", boards=2, seed=5, jobs=2)
    assert one.margins == two.margins


def test_match_refuses_bad_input() -> None:
    with pytest.raises(ValueError, match="unknown bot level"):
        run_match("grandmaster", "random", boards=1)
    with pytest.raises(ValueError, match="boards"):
        run_match("random", "random", boards=0)
    with pytest.raises(ValueError, match="setting"):
        run_match("club", "random", boards=1, settings_a={"iterations": 5})


def test_an_interrupted_match_resumed_from_its_log_equals_one_run() -> None:
    whole = run_match("club", "novice", boards=4, seed=3)
    log: dict[int, BoardResult] = {}
    run_match("club", "novice", boards=2, seed=3, on_board=log.__setitem__)
    assert sorted(log) == [0, 1]
    # Through JSON, as bench/bot_ladder.py --log keeps them.
    done = {i: BoardResult.from_json(json.loads(json.dumps(r.to_json()))) for i, r in log.items()}
    played: list[int] = []
    resumed = run_match("club", "novice", boards=4, seed=3, done=done,
                        on_board=lambda i, r: played.append(i))  # fmt: skip
    assert played == [2, 3]
    assert resumed.margins == whole.margins
    assert resumed.calypsos_per_game == whole.calypsos_per_game


def test_a_broken_board_log_is_refused_saying_what() -> None:
    good = run_match("novice", "random", boards=1, seed=1)
    row = BoardResult(good.margins[0], 1, 0, [0.001], [0.0]).to_json()
    assert BoardResult.from_json(row).margin == good.margins[0]
    for broken, message in [
        ([], "JSON object"),
        ({**row, "margin": "lots"}, "margin"),
        ({**row, "calypsos_a": 17}, "calypsos_a"),
        ({**row, "times_b": [-1]}, "times_b"),
        ({k: v for k, v in row.items() if k != "times_a"}, "lacks times_a"),
    ]:
        with pytest.raises(ValueError, match=message):
            BoardResult.from_json(broken)
    with pytest.raises(ValueError, match="numbered from 0 to 0"):
        run_match("novice", "random", boards=1, done={1: BoardResult.from_json(row)})


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_match_of_countless_boards_plays_its_first_board_at_once(jobs: int) -> None:
    # Regression: every board was made before the first was played (250 MB a second, and
    # no output, for --boards 99999999999999999999).
    class Enough(Exception):
        pass

    def stop(done: int, total: int) -> None:
        assert total == 10**20
        raise Enough

    start = time.monotonic()
    with pytest.raises(Enough):
        run_match("random", "random", boards=10**20, seed=1, jobs=jobs, progress=stop)
    assert time.monotonic() - start < 30


def test_rules_option_text() -> None:
    assert parse_rules_option("") == Rules()
    assert parse_rules_option("all_fours,leftovers_start_next_calypso=false") == Rules(
        all_fours=True, leftovers_start_next_calypso=False
    )
    assert parse_rules_option('{"last_trump_in_wins": true}') == Rules(last_trump_in_wins=True)
    with pytest.raises(ValueError, match="unknown option"):
        parse_rules_option("fast_play")


def test_the_match_command_prints_the_match_it_played() -> None:
    done = run_cli(
        "match", "--a", "expert", "--b", "club", "--boards", "2", "--seed", "3",
        "--a-iterations", "8", "--rules", "last_trump_in_wins", "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    same = run_match("expert", "club", boards=2, seed=3, rules=Rules(last_trump_in_wins=True),
                     settings_a={"iterations": 8, "time_limit": None})
    expected = same.to_json()
    data = json.loads(done.stdout)
    del data["move_ms"], expected["move_ms"]  # times differ from run to run
    assert data == expected
    text = run_cli("match", "--a", "novice", "--b", "random", "--boards", "2", "--progress")
    assert text.returncode == 0, text.stderr
    described = run_match("novice", "random", boards=2).describe().splitlines()
    assert text.stdout.splitlines()[:3] == described[:3]  # the lines without move times
    assert text.stderr.endswith("2/2 boards\n")


def test_suggest_command_prints_a_card_and_a_reason(tmp_path: Path) -> None:
    state = new_game(9)
    bots = [make_bot("club", s, random.Random(s)) for s in range(4)]
    for _ in range(61):
        seat = state.to_move
        state.play(bots[seat].choose(state.observation(seat), state.legal_moves()))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(to_record(state)))
    done = run_cli("suggest", "--level", "club", "--json", str(path))
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["card"] in [str(c) for c in state.legal_moves()]
    assert data["reason"]
    plain = run_cli("suggest", "--level", "novice", "--seed", "4", str(path))
    assert plain.returncode == 0 and plain.stdout.count("\n") == 1
    missing = run_cli("suggest", str(tmp_path / "nope.json"))
    assert missing.returncode == 2 and "error" in missing.stderr
