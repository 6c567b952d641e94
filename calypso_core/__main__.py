"""The command line: ``python -m calypso_core replay|play|suggest|match|review`` (``--help``).

Each command is registered by one ``add_*`` function listed in ``COMMANDS``; the shared
reading and error handling are in ``cli_io``. Run as a program, it handles Ctrl+C before it
imports anything of the engine (the package's ``__init__`` imports nothing either), and the
bots and the table are imported only in ``main`` (they take most of a second to import on
a slow machine), so a Ctrl+C at any moment ends in one line.
"""

from __future__ import annotations

from .interrupts import handle_interrupts

if __name__ == "__main__":
    handle_interrupts()  # first: a Ctrl+C during the imports below is one line too

import argparse
import json
import sys
from typing import Any

from .cli_io import (
    ArgumentParser,
    CommandError,
    add_lang,
    choice,
    read_line,
    read_record,
    run_command,
    write_line,
)
from .game import GameState, players_json, tricks_json

DESCRIPTION = (
    "Calypso, the four-trump partnership card game, from the command line: check and "
    "summarise a game record, play a game in the terminal, ask a computer player for a "
    "card, or measure two computer levels against each other."
)


def replay_summary(state: GameState) -> dict[str, Any]:
    """The JSON summary ``replay`` prints: tricks, players and partnerships so far."""
    ns, ew = state.partnership_scores()
    return {
        "is_over": state.is_over,
        "tricks": tricks_json(state),
        "players": players_json(state),
        "partnerships": [{"seats": [0, 2], "score": ns}, {"seats": [1, 3], "score": ew}],
    }


def _replay(args: argparse.Namespace) -> int:
    state = read_record(args.file)
    write_line(json.dumps(replay_summary(state), indent=2 if args.pretty else None))
    return 0


def add_replay(sub: Any) -> None:
    """``replay FILE [--pretty]``: check a record and print its summary as JSON."""
    replay = sub.add_parser(
        "replay",
        help="check a game record and print its summary as JSON",
        description="Check a game record and print its tricks, players and scores as JSON.",
    )
    replay.add_argument("file", help="record file, or - for standard input")
    replay.add_argument("--pretty", action="store_true", help="indent the JSON")
    replay.set_defaults(run=_replay)


def _seed(text: str) -> str:
    from .table.settings import MAX_SEED_CHARS

    if len(text) > MAX_SEED_CHARS or not text.isprintable():
        raise argparse.ArgumentTypeError(
            f"a seed is printable text of at most {MAX_SEED_CHARS} characters"
        )
    try:
        text.encode()
    except UnicodeEncodeError:  # bytes that are not UTF-8, passed through from the shell
        raise argparse.ArgumentTypeError("a seed must be UTF-8 text") from None
    return text


def _play(args: argparse.Namespace) -> int:
    from .terminal import play_in_terminal

    if sys.stdin is None:
        raise CommandError("play reads your cards from standard input, which is closed")
    return play_in_terminal(args, read=read_line, write=write_line)


def add_play(sub: Any) -> None:
    """``play [--level L] [--seed S] [--seat N]``: a game in the terminal."""
    from .bots import LEVELS

    play = sub.add_parser(
        "play",
        help="play a game in the terminal against computer players",
        description="Play one game in the terminal; three computer players take the other seats.",
    )
    play.add_argument("--seed", type=_seed, default=None, help="deal seed (default: random)")
    play.add_argument(
        "--level", type=choice("level", LEVELS), default="random", metavar="LEVEL",
        help=f"the computer players' level: {', '.join(LEVELS)} (default: %(default)s)",
    )  # fmt: skip
    play.add_argument(
        "--seat", type=int, default=2, choices=range(4),
        help="your seat: 0 North, 1 East, 2 South, 3 West (default: 2)",
    )  # fmt: skip
    add_lang(play)
    play.set_defaults(run=_play)


def add_suggest(sub: Any) -> None:
    """``suggest``: see ``calypso_core.bots.cli``."""
    from .bots.cli import add_suggest as add

    add(sub)


def add_match(sub: Any) -> None:
    """``match``: see ``calypso_core.bots.cli``."""
    from .bots.cli import add_match as add

    add(sub)


def add_review(sub: Any) -> None:
    """``review``: see ``calypso_core.bots.review_cli``."""
    from .bots.review_cli import add_review as add

    add(sub)


# Every command, in the order --help lists them: adding a command is one entry here.
COMMANDS = (add_replay, add_play, add_suggest, add_match, add_review)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every command."""
    from .bots import LEVELS

    parser = ArgumentParser(prog="python -m calypso_core", description=DESCRIPTION,
                            epilog=f"Computer levels, weakest first: {', '.join(LEVELS)}.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in COMMANDS:
        add(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status (2 for a bad record or input).

    Every failure ends in one line on standard error, never a traceback.
    """

    def run() -> int:
        args = build_parser().parse_args(argv)
        status: int = args.run(args)
        return status

    return run_command(run)


if __name__ == "__main__":
    sys.exit(main())
