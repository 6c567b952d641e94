"""bench/policy_match.py: how often the playout policy picks the master's card."""

from __future__ import annotations

import importlib
import json
import random
import sys
from collections import Counter
from pathlib import Path

import pytest

from calypso_core import new_game
from calypso_core.bots import make_bot
from calypso_core.kernel import trumps_by_position


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


def test_the_let_go_table_counts_the_plays_that_left_a_trick_to_the_other_side() -> None:
    policy_match = importlib.import_module("bench.policy_match")
    state = new_game(3)
    bots = [make_bot("random", seat, random.Random(seat)) for seat in range(4)]
    rows = []
    expected: Counter[str] = Counter()
    chances: Counter[str] = Counter()
    while not state.is_over:
        seat = state.to_move
        observation = state.observation(seat)
        legal = state.legal_moves()
        card = bots[seat].choose(observation, legal)
        rows.append({"obs": observation, "choice": str(card)})
        trick = [int(c) for c in state.trick]
        n = len(trick)
        if n:
            trumps = trumps_by_position([int(s) for s in state.suits])[state.leader]
            winner_fn = state.rules.winner_fn
            takes = [c for c in legal if winner_fn([*trick, int(c)], trumps) == n]
            if (n - winner_fn(trick, trumps)) % 2 == 1 and takes:
                led = trick[0] // 13
                where = f"{'follow' if any(int(c) // 13 == led for c in legal) else 'void'} {n + 1}"
                chances[where] += 1
                expected[where] += card not in takes
        state.play(card)
    assert policy_match.let_go(rows) == (chances, expected)
    assert sum(expected.values()) > 10  # random players let many tricks go
