"""The bots' command-line subcommands: ``suggest`` and ``match``."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..rules import Rules
from .levels import ALL_LEVELS, LEVELS


def parse_rules_option(text: str) -> Rules:
    """Rules from ``name[=true|false],...`` (bare names switch an option on), or a JSON object."""
    text = text.strip()
    if text.startswith("{"):
        try:
            return Rules.from_dict(json.loads(text))
        except ValueError as exc:
            raise ValueError(f"--rules: {exc}") from None
    options: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, value = part.partition("=")
        if value.lower() in ("", "true", "on", "1"):
            options[name.strip()] = True
        elif value.lower() in ("false", "off", "0"):
            options[name.strip()] = False
        else:
            raise ValueError(f"--rules: {part!r} should be name, name=true or name=false")
    try:
        return Rules.from_dict(options)
    except ValueError as exc:
        raise ValueError(f"--rules: {exc}") from None


def _search_settings(iterations: int | None, time_limit: float | None) -> dict[str, Any]:
    settings: dict[str, Any] = {"time_limit": time_limit}
    if iterations is not None:
        settings["iterations"] = iterations
    return settings


def _match(args: argparse.Namespace) -> int:
    from .duplicate import progress_bar, run_match

    search = ("expert", "master", "cheater")
    sa = _search_settings(args.a_iterations, args.time_limit) if args.a in search else {}
    sb = _search_settings(args.b_iterations, args.time_limit) if args.b in search else {}
    show = args.progress if args.progress is not None else args.boards >= 10
    result = run_match(
        args.a,
        args.b,
        args.boards,
        seed=args.seed,
        rules=parse_rules_option(args.rules),
        jobs=args.jobs,
        settings_a=sa,
        settings_b=sb,
        progress=progress_bar if show else None,
    )
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(result.describe())
    return 0


def _suggest(args: argparse.Namespace) -> int:
    from ..__main__ import read_record
    from .hints import suggest

    state = read_record(args.file)
    hint = suggest(state, level=args.level, seed=args.seed)
    if args.json:
        print(json.dumps({"card": str(hint.card), "reason": hint.reason, "level": hint.level}))
    else:
        print(f"{hint.card.pretty}  {hint.reason}")
    return 0


def add_bot_commands(sub: Any) -> None:
    """Add ``suggest`` and ``match`` to the main parser's subcommands."""
    suggest = sub.add_parser("suggest", help="suggest a card for the player to move, with a reason")
    suggest.add_argument("file", help="game record in progress, or - for standard input")
    suggest.add_argument("--level", default="master", choices=LEVELS, help="bot level (master)")
    suggest.add_argument("--seed", type=int, default=0, help="the bot's seed (0)")
    suggest.add_argument("--json", action="store_true", help="print JSON")
    suggest.set_defaults(run=_suggest)

    match = sub.add_parser("match", help="duplicate match between two bot levels")
    match.add_argument("--a", required=True, choices=ALL_LEVELS, help="level A")
    match.add_argument("--b", required=True, choices=ALL_LEVELS, help="level B")
    match.add_argument("--boards", type=int, default=20, help="boards (each played twice)")
    match.add_argument("--seed", type=int, default=0, help="match seed (deals and bot seeds)")
    match.add_argument("--rules", default="", help="options: all_fours,last_trump_in_wins=true,...")
    match.add_argument("--jobs", type=int, default=1, help="processes to spread boards over")
    match.add_argument("--a-iterations", type=int, default=None, help="search budget for A")
    match.add_argument("--b-iterations", type=int, default=None, help="search budget for B")
    match.add_argument(
        "--time-limit", type=float, default=None,
        help="wall-clock cap per move for search bots (default: none, for reproducible results)",
    )  # fmt: skip
    match.add_argument("--json", action="store_true", help="print the summary as JSON")
    match.add_argument(
        "--progress", action=argparse.BooleanOptionalAction, default=None,
        help="progress bar on stderr (default: on from 10 boards)",
    )  # fmt: skip
    match.set_defaults(run=_match)
