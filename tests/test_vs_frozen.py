"""bench/vs_frozen.py: the duplicate match of the master against a frozen copy of itself."""

from __future__ import annotations

import importlib
import json
import random
import statistics
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import calypso_core.bots
from calypso_core.bots.search import MasterBot


@pytest.fixture(scope="module")
def vs_frozen() -> ModuleType:
    return importlib.import_module("bench.vs_frozen")


def test_a_master_against_the_same_code_draws_every_board(vs_frozen: ModuleType) -> None:
    # Same code on both sides, same seeds by seat: the two games of a board are the same
    # game with the partnerships swapped, so A's margin is exactly nothing.
    row = vs_frozen.play_board(calypso_core.bots, seed=3, board=0, a_iters=2, b_iters=2)
    assert row["margin"] == 0
    assert row["calypsos"]["a"] == row["calypsos"]["b"]
    assert len(row["ms"]["a"]) > 50 and len(row["ms"]["b"]) > 50
    assert sorted(row["iterations"]["a"]) == sorted(row["iterations"]["b"])
    assert len(row["iterations"]["a"]) == len(row["ms"]["a"])


def test_a_variant_that_plays_on_past_its_budget_shows_it_in_its_iterations(
    vs_frozen: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A's CLOSE_BUDGET lets it spend up to three times its budget where cards still race; the
    # board's record says what each side spent, which is how the budgets are compared.
    class CloseMaster(MasterBot):
        CLOSE_BUDGET = 3.0

    monkeypatch.setattr(vs_frozen, "MasterBot", CloseMaster)  # A's only; B is today's
    row = vs_frozen.play_board(calypso_core.bots, seed=3, board=0, a_iters=6, b_iters=6)
    a, b = (statistics.median(row["iterations"][side]) for side in "ab")
    assert a >= 18 > b  # a layout at a time, so each side may overrun its end by one


def test_a_cheater_as_a_is_shown_the_true_position_and_its_log_is_of_another_match(
    vs_frozen: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The cheater refuses to choose unless shown the position, so a board played at all was
    # played on the true cards; at 20 iterations a seat it wins what seeing them is worth.
    row = vs_frozen.play_board(calypso_core.bots, seed=3, board=0, a_iters=20, b_iters=20,
                               cheater=True)  # fmt: skip
    assert row["margin"] > 100
    log = tmp_path / "boards.log"
    monkeypatch.setattr(vs_frozen, "play_board", board_of_ten_a_board)
    argv = ["vs_frozen.py", "--boards", "1", "--frozen", "HEAD", "--log", str(log)]
    monkeypatch.setattr(sys, "argv", [*argv, "--a-level", "cheater"])
    assert vs_frozen.main() == 0
    assert json.loads(log.read_text())["a_level"] == "cheater"
    monkeypatch.setattr(sys, "argv", argv)
    with pytest.raises(SystemExit, match=r"a_level 'cheater' in the log, 'master' now"):
        vs_frozen.main()


def test_the_frozen_master_is_the_commit_s_code_under_another_name(
    vs_frozen: ModuleType,
) -> None:
    bots = vs_frozen.frozen_package("HEAD")
    assert bots.__name__.startswith("frozen_") and bots.__name__.endswith(".bots")
    bot = bots.make_bot("master", 0, random.Random(0))
    assert bot.level == "master" and not isinstance(bot, MasterBot)


def test_a_run_is_resumed_from_its_log(
    vs_frozen: ModuleType,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    log = tmp_path / "boards.log"
    calls: list[int] = []

    def play_board(frozen: Any, seed: Any, board: int, a: Any, b: Any, cheat: bool
                   ) -> dict[str, Any]:  # fmt: skip
        calls.append(board)
        return {"margin": 10.0 * board, "calypsos": {"a": 1, "b": 0},
                "ms": {"a": [5.0], "b": [4.0]}}

    monkeypatch.setattr(vs_frozen, "play_board", play_board)
    argv = ["vs_frozen.py", "--boards", "2", "--a-iterations", "7", "--frozen", "HEAD",
            "--log", str(log)]  # fmt: skip
    monkeypatch.setattr(sys, "argv", argv)
    assert vs_frozen.main() == 0
    assert calls == [0, 1] and len(log.read_text().splitlines()) == 2
    monkeypatch.setattr(sys, "argv", [*argv[:2], "3", *argv[3:]])
    assert vs_frozen.main() == 0
    assert calls == [0, 1, 2]  # boards 0 and 1 came from the log
    assert "3 boards: A +10 a game" in capsys.readouterr().out
    assert all(json.loads(line)["a_settings"]["MISS_WEIGHTS"] == [] for line in log.open())


def test_a_log_of_another_match_is_refused_naming_what_differs(
    vs_frozen: ModuleType,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    log = tmp_path / "boards.log"
    calls: list[int] = []

    def play_board(frozen: Any, seed: Any, board: int, a: Any, b: Any, cheat: bool
                   ) -> dict[str, Any]:  # fmt: skip
        calls.append(board)
        return {"margin": 1.0, "calypsos": {"a": 0, "b": 0}, "ms": {"a": [], "b": []}}

    monkeypatch.setattr(vs_frozen, "play_board", play_board)
    monkeypatch.setattr(MasterBot, "MISS_WEIGHTS", MasterBot.MISS_WEIGHTS)  # undone after
    argv = ["vs_frozen.py", "--boards", "1", "--frozen", "HEAD", "--log", str(log)]
    monkeypatch.setattr(sys, "argv", [*argv, "--set", "MISS_WEIGHTS=[0.3,0.85]"])
    assert vs_frozen.main() == 0
    # The variant is off again: resuming the log would mix two masters in one figure.
    monkeypatch.setattr(MasterBot, "MISS_WEIGHTS", ())
    monkeypatch.setattr(sys, "argv", [*argv[:2], "2", *argv[3:]])
    with pytest.raises(SystemExit, match=r"a_settings\.MISS_WEIGHTS \[0\.3, 0\.85\] in the log, "
                       r"\[\] now"):  # fmt: skip
        vs_frozen.main()
    monkeypatch.setattr(sys, "argv", [*argv[:2], "2", *argv[3:], "--b-iterations", "9"])
    with pytest.raises(SystemExit, match=r"b_iterations 5000 in the log, 9 now"):
        vs_frozen.main()
    assert calls == [0] and len(log.read_text().splitlines()) == 1


def test_a_log_from_before_an_option_existed_resumes_with_the_option_off(
    vs_frozen: ModuleType, tmp_path: Path
) -> None:
    log = tmp_path / "boards.log"
    key = {"label": "", "seed": 1, "frozen": "frozen_x", "a_iterations": 7, "b_iterations": 7,
           "a_settings": vs_frozen.search_settings(MasterBot)}  # fmt: skip
    old = {**key, "a_settings": dict(key["a_settings"])}
    del old["a_settings"]["CLOSE_BUDGET"]  # the log of a run begun before CLOSE_BUDGET
    log.write_text(json.dumps({**old, "board": 0}) + "\n")
    assert list(vs_frozen.read_log(log, key)) == [0]
    # Nor does it name A's level, added with --a-level: it was a master's.
    assert list(vs_frozen.read_log(log, {**key, "a_level": "master"})) == [0]
    # With the option set the same log is of another match.
    with pytest.raises(SystemExit, match=r"a_settings\.CLOSE_BUDGET None in the log, 1\.0 now"):
        vs_frozen.read_log(log, key, frozenset({"CLOSE_BUDGET"}))


def test_a_line_cut_short_by_a_kill_is_dropped_and_its_board_played_again(
    vs_frozen: ModuleType,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    log = tmp_path / "boards.log"
    calls: list[int] = []

    def play_board(frozen: Any, seed: Any, board: int, a: Any, b: Any, cheat: bool
                   ) -> dict[str, Any]:  # fmt: skip
        calls.append(board)
        return {"margin": 1.0, "calypsos": {"a": 0, "b": 0}, "ms": {"a": [], "b": []}}

    monkeypatch.setattr(vs_frozen, "play_board", play_board)
    argv = ["vs_frozen.py", "--boards", "1", "--frozen", "HEAD", "--log", str(log)]
    monkeypatch.setattr(sys, "argv", argv)
    assert vs_frozen.main() == 0
    with log.open("a") as handle:
        handle.write('{"label": "", "seed": 1, "fro')
    monkeypatch.setattr(sys, "argv", [*argv[:2], "2", *argv[3:]])
    assert vs_frozen.main() == 0
    assert calls == [0, 1]
    assert [json.loads(line)["board"] for line in log.open()] == [0, 1]


def test_a_broken_log_line_stops_the_run_saying_where(
    vs_frozen: ModuleType,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    log = tmp_path / "boards.log"
    log.write_text("{not json\n")
    monkeypatch.setattr(sys, "argv", ["vs_frozen.py", "--frozen", "HEAD", "--log", str(log)])
    with pytest.raises(SystemExit, match=r"boards\.log, line 1"):
        vs_frozen.main()


def board_of_ten_a_board(frozen: Any, seed: Any, board: int, a: Any, b: Any,
                         cheat: bool) -> dict[str, Any]:  # fmt: skip
    """A stand-in for play_board: board n's margin is 10 n."""
    return {"margin": 10.0 * board, "calypsos": {"a": 1, "b": 0}, "ms": {"a": [5.0], "b": [4.0]}}


def test_a_match_split_over_two_logs_is_reported_as_one(
    vs_frozen: ModuleType,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(vs_frozen, "play_board", board_of_ten_a_board)
    logs = [tmp_path / "first.log", tmp_path / "second.log", tmp_path / "other.log"]
    for log, first, more in zip(logs, ("0", "2", "0"), ([], [], ["--b-iterations", "9"]),
                                strict=True):  # fmt: skip
        monkeypatch.setattr(sys, "argv", ["vs_frozen.py", "--boards", "2", "--first", first,
                                          "--frozen", "HEAD", "--log", str(log), *more])
        assert vs_frozen.main() == 0
    capsys.readouterr()
    monkeypatch.setattr(sys, "argv", ["vs_frozen.py", "--summary", *map(str, logs[:2])])
    assert vs_frozen.main() == 0
    assert capsys.readouterr().out.startswith("4 boards: A +15 a game")  # boards 0-3
    # Another match's log, or a board in two logs, would make the figure a mix.
    with pytest.raises(SystemExit, match=r"other\.log, line 1 is of another match \(b_iter"
                                         r"ations 9 in the log, 5000 now\): a summary reports "
                                         r"one match, that of .*first\.log$"):  # fmt: skip
        vs_frozen.summary([logs[0], logs[2]])
    with pytest.raises(SystemExit, match=r"first\.log: board 0 is in an earlier log too"):
        vs_frozen.summary([logs[0], logs[0]])


def test_a_summary_only_reads_the_logs_of_a_run_still_playing(
    vs_frozen: ModuleType,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A board half written by a run still playing is left out of the figure and in the file.
    monkeypatch.setattr(vs_frozen, "play_board", board_of_ten_a_board)
    log = tmp_path / "playing.log"
    monkeypatch.setattr(sys, "argv", ["vs_frozen.py", "--boards", "2", "--frozen", "HEAD",
                                      "--log", str(log)])  # fmt: skip
    assert vs_frozen.main() == 0
    with log.open("a") as handle:
        handle.write('{"label": "", "seed": 1, "fro')
    written = log.read_text()
    capsys.readouterr()
    assert vs_frozen.summary([log]).startswith("2 boards: A +5 a game")
    assert log.read_text() == written
    assert capsys.readouterr().out == ""
