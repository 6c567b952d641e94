"""Command line: ``python -m calypso_core replay|play|suggest|match``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .game import GameState
from .observe import players_json, tricks_json
from .record import RecordError, parse_record


def replay_summary(state: GameState) -> dict[str, Any]:
    """The JSON summary ``replay`` prints: tricks, players and partnerships so far."""
    ns, ew = state.partnership_scores()
    return {
        "is_over": state.is_over,
        "tricks": tricks_json(state),
        "players": players_json(state),
        "partnerships": [{"seats": [0, 2], "score": ns}, {"seats": [1, 3], "score": ew}],
    }


def read_record(path: str) -> GameState:
    """Read and check a game record from a file, or stdin for ``-``."""
    try:
        if path == "-":
            text = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as handle:
                text = handle.read()
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from None
    return parse_record(text)


def _replay(args: argparse.Namespace) -> int:
    state = read_record(args.file)
    print(json.dumps(replay_summary(state), indent=2 if args.pretty else None))
    return 0


def _play(args: argparse.Namespace) -> int:
    from .terminal import play_in_terminal

    return play_in_terminal(args)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every subcommand."""
    parser = argparse.ArgumentParser(prog="python -m calypso_core", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    replay = sub.add_parser("replay", help="validate a game record and print its summary as JSON")
    replay.add_argument("file", help="record file, or - for standard input")
    replay.add_argument("--pretty", action="store_true", help="indent the JSON")
    replay.set_defaults(run=_replay)

    play = sub.add_parser("play", help="play a game in the terminal against computer players")
    play.add_argument("--seed", default=None, help="deal seed (default: random)")
    play.add_argument("--level", default="random", help="computer players' level")
    play.add_argument("--seat", type=int, default=2, choices=range(4), help="your seat (2 = South)")
    play.set_defaults(run=_play)

    from .bots.cli import add_bot_commands

    add_bot_commands(sub)
    from .bots.review_cli import add_review_command

    add_review_command(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status (2 for a bad record or input)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.run(args)
    except (RecordError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return status


if __name__ == "__main__":
    sys.exit(main())
