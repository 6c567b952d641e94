"""bench/policy_match.py: how often the playout policy picks the master's card."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest


def test_the_decisions_are_kept_a_game_a_line_and_not_played_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    policy_match = importlib.import_module("bench.policy_match")
    log = tmp_path / "decisions.log"
    argv = ["policy_match.py", "--games", "1", "--iterations", "2", "--log", str(log)]
    monkeypatch.setattr(sys, "argv", argv)
    assert policy_match.main() == 0
    first = capsys.readouterr().out
    (game,) = map(json.loads, log.read_text().splitlines())
    assert game["game"] == 0 and len(game["decisions"]) > 100  # every choice of 208 cards
    # The table's first row: all the decisions, and a share for every variant.
    assert first.splitlines()[1].split()[0] == "all"
    assert len(first.splitlines()[1].split()) == 2 + len(policy_match.VARIANTS)

    def refuse(game: int, iterations: int) -> None:
        raise AssertionError("the game in the log was played again")

    monkeypatch.setattr(policy_match, "decisions", refuse)
    with log.open("a") as handle:
        handle.write('{"game": 1, "iterations": 2, "decis')  # a line cut short by a kill
    assert policy_match.main() == 0
    assert capsys.readouterr().out == first
    assert len(log.read_text().splitlines()) == 1
    monkeypatch.setattr(sys, "argv", [*argv[:4], "3", *argv[5:]])
    with pytest.raises(SystemExit, match=r"line 1: not a game at 3 iterations"):
        policy_match.main()
