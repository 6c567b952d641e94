"""The command line: ``python -m calypso_core replay FILE`` (``-`` for standard input)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import NORTH_RUNS_SPADES, NORTH_RUNS_SPADES_TRICKS, play_cards, play_tricks, position

from calypso_core import new_game, to_record
from calypso_core.__main__ import main

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = Path(__file__).parent / "golden"
FULL = GOLDEN / "standard-seed-2024.record.json"
FULL_SUMMARY = json.loads((GOLDEN / "standard-seed-2024.summary.json").read_text())


def run_cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "calypso_core", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        env=env,
        timeout=60,
        check=False,
    )


def midgame_record() -> dict[str, Any]:
    state = position(3, NORTH_RUNS_SPADES)
    play_tricks(state, *NORTH_RUNS_SPADES_TRICKS[:11])
    play_cards(state, "3S 3H")
    return to_record(state)


# -- through a real process -------------------------------------------------------------------


def test_replay_prints_the_summary_as_json() -> None:
    done = run_cli("replay", str(FULL))
    assert done.returncode == 0, done.stderr
    assert done.stderr == b""
    assert json.loads(done.stdout) == FULL_SUMMARY
    assert done.stdout.count(b"\n") == 1  # one line unless --pretty


def test_replay_reads_standard_input_for_a_dash() -> None:
    done = run_cli("replay", "-", stdin=FULL.read_bytes())
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == FULL_SUMMARY


def test_replay_pretty_indents() -> None:
    done = run_cli("replay", "--pretty", str(FULL))
    assert done.returncode == 0
    assert done.stdout.startswith(b'{\n  "is_over": true,')
    assert json.loads(done.stdout) == FULL_SUMMARY


def test_a_bad_record_exits_2_with_the_message_on_stderr() -> None:
    record = midgame_record()
    record["plays"][45] = "AS"
    done = run_cli("replay", "-", stdin=json.dumps(record).encode())
    assert done.returncode == 2
    assert done.stdout == b""
    assert done.stderr.decode().strip() == (
        "error: play 45: AS is not legal for East, who does not hold it"
    )


def test_deeply_nested_json_exits_2_without_a_traceback() -> None:
    # Regression: replay crashed with a RecursionError traceback (exit 1).
    done = run_cli("replay", "-", stdin=b"[" * 60_000)
    assert done.returncode == 2
    assert done.stderr.decode().strip() == "error: game record is not valid JSON: nested too deeply"


# -- in process, through main() ---------------------------------------------------------------


def test_main_replays_a_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(FULL)]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out) == FULL_SUMMARY
    assert err == ""


def test_main_replays_a_game_stopped_midway(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "midgame.json"
    path.write_text(json.dumps(midgame_record()))
    assert main(["replay", str(path)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert list(summary) == ["is_over", "tricks", "players", "partnerships"]
    assert summary["is_over"] is False
    assert len(summary["tricks"]) == 11  # the unfinished twelfth trick is not listed
    assert summary["tricks"][10] == {
        "deal": 0, "leader": 0, "cards": ["4S", "2H", "4C", "5H"], "winner": 0,
    }  # fmt: skip
    assert summary["players"][0] == {
        "seat": 0, "suit": "S", "completed": 0,
        "in_progress": ["4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"],
        "pile": 31, "score": 11 * 20 + 310,
    }  # fmt: skip
    assert summary["players"][2]["in_progress"] == ["2H", "5H"]
    assert summary["partnerships"] == [
        {"seats": [0, 2], "score": 530 + 40},
        {"seats": [1, 3], "score": 0},
    ]


def test_main_reads_standard_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    record = to_record(new_game(5))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(json.dumps(record).encode())))
    assert main(["replay", "-"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["is_over"] is False
    assert summary["tricks"] == []
    assert [p["score"] for p in summary["players"]] == [0, 0, 0, 0]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"not json",
         "error: game record is not valid JSON: Expecting value: line 1 column 1 (char 0)"),
        (b"[]", "error: a game record is a JSON object, not list"),
        (b'{"format": "calypso-record", "version": 9}',
         "error: unsupported record version 9 (this reads 1 and 2)"),
    ],
)  # fmt: skip
def test_main_refuses_a_bad_record_with_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    assert main(["replay", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.strip() == message


def test_main_reports_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "nowhere.json"
    assert main(["replay", str(path)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"error: cannot read {path}: No such file or directory"
    )


def test_main_refuses_a_record_over_the_size_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "big.json"
    path.write_bytes(b" " * 64_001)
    assert main(["replay", str(path)]) == 2
    assert capsys.readouterr().err.strip() == (
        "error: game record is 64001 bytes; the limit is 64000"
    )


def test_main_without_a_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main([])
    assert caught.value.code == 2
    assert "usage:" in capsys.readouterr().err
    with pytest.raises(SystemExit) as caught:
        main(["replay"])
    assert caught.value.code == 2
