"""bench/completion.py: the completion tables measured in self-play, resumable."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest

completion = importlib.import_module("bench.completion")


def test_a_share_that_falls_with_more_cards_is_pooled_with_its_neighbour_by_weight() -> None:
    # 0.5 on 3 cases then 0.2 on 1: one block of (1.5 + 0.2) / 4 = 0.425.
    assert completion.monotone([0.1, 0.5, 0.2, 0.9], [5, 3, 1, 2]) == pytest.approx(
        [0.1, 0.425, 0.425, 0.9])
    assert completion.monotone([0.1, 0.2, 0.3], [1, 1, 1]) == [0.1, 0.2, 0.3]


def test_a_card_count_with_no_case_takes_its_neighbours_share() -> None:
    assert completion.monotone([0.0, 0.0, 0.4, 0.0, 0.7], [0, 0, 2, 0, 3]) == pytest.approx(
        [0.4, 0.4, 0.4, 0.4, 0.7])


def test_the_games_are_kept_a_line_each_and_not_played_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "completion.jsonl"
    argv = ["completion.py", "--games", "2", "--level", "master", "--iterations", "3",
            "--jobs", "1", "--log", str(log)]  # fmt: skip
    monkeypatch.setattr(sys, "argv", argv)
    completion.main()
    first = capsys.readouterr().out
    games = [json.loads(line) for line in log.read_text().splitlines()]
    assert [g["game"] for g in games] == [0, 1]
    assert all(len(g["cases"]) == 12 for g in games)  # four players at the end of deals 1-3
    assert len(first.splitlines()) == 3

    def refuse(args: object) -> None:
        raise AssertionError("a game in the log was played again")

    monkeypatch.setattr(completion, "play", refuse)
    with log.open("a") as handle:
        handle.write('{"level": "master", "iterations": 3, "game": 2, "ca')  # cut by a kill
    completion.main()
    again = capsys.readouterr().out.splitlines()
    assert again[:2] == [f"{log}: dropped an unfinished last line", f"resumed: 2 games in {log}"]
    assert again[2:] == first.splitlines()
    assert len(log.read_text().splitlines()) == 2
    monkeypatch.setattr(sys, "argv", [*argv[:6], "4", *argv[7:]])
    with pytest.raises(SystemExit, match=r"line 1 is of another run \(iterations 3 in the log"):
        completion.main()


def test_a_search_level_needs_a_fixed_budget_and_the_others_refuse_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for argv in (["--level", "master"], ["--level", "club", "--iterations", "10"]):
        monkeypatch.setattr(sys, "argv", ["completion.py", *argv])
        with pytest.raises(SystemExit):
            completion.main()
        assert "--iterations is required for expert and master, and only for them" in (
            capsys.readouterr().err)


def test_a_live_row_fits_the_factor_of_a_single_copy_and_the_chance_it_multiplies() -> None:
    # Twelve cards, one deal left: 80 of 100 completed with no single-copy rank needed, 40 of
    # 100 with one, so a chance of 0.8 and a factor of 0.5; dead calypsos are not fitted.
    cases = ([(1, 12, True, False, 0)] * 80 + [(1, 12, False, False, 0)] * 20
             + [(1, 12, True, False, 1)] * 40 + [(1, 12, False, False, 1)] * 60
             + [(1, 12, False, True, 0)] * 500)  # fmt: skip
    first = completion.live_table({0: cases})[0]
    assert first.startswith("    (0.80, 0.80, ") and "0.80), x0.50  # 1 deal(s) left" in first
    assert first.endswith("live cases: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 200]")


def test_a_live_run_notes_each_calypsos_copies_and_keeps_its_log_apart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "live.jsonl"
    argv = ["completion.py", "--games", "2", "--live", "--jobs", "1", "--log", str(log)]
    monkeypatch.setattr(sys, "argv", argv)
    completion.main()
    out = capsys.readouterr().out.splitlines()
    assert [line.split("  # ")[1].split(";")[0] for line in out] == [
        "1 deal(s) left", "2 deal(s) left", "3 deal(s) left"]
    cases = [case for line in log.read_text().splitlines() for case in json.loads(line)["cases"]]
    assert len(cases) == 24 and {len(case) for case in cases} == {5}
    # (deals left, cards, completed later, a needed rank gone, needed ranks with one copy)
    assert all(isinstance(case[3], bool) and 0 <= case[4] <= 13 - case[1] for case in cases)
    monkeypatch.setattr(sys, "argv", [a for a in argv if a != "--live"])
    with pytest.raises(SystemExit, match=r"another run \(live True in the log, False now\)"):
        completion.main()
