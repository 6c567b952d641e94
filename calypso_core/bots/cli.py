"""The bots' commands: ``suggest`` (a card and its reason) and ``match`` (a duplicate match)."""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from typing import Any

from ..cards import brief_repr
from ..cli_io import (
    CommandError,
    add_lang,
    choice,
    progress_bar,
    read_record,
    seconds,
    whole_number,
    write_line,
)
from ..messages import message, render
from ..rules import Rules
from .base import MAX_SEARCH_ITERATIONS
from .levels import ALL_LEVELS, LEVELS, make_bot

RULE_OPTIONS = tuple(Rules().to_dict())
# The command line's ranges, checked before any work starts (see --help).
MAX_BOARDS = 100_000
MAX_SEED = 10**9
MAX_JOBS = 64
MAX_TIME_LIMIT = 60.0  # seconds a move
TRUE_WORDS = ("true", "on", "1")
FALSE_WORDS = ("false", "off", "0")


def parse_rules_option(text: str) -> Rules:
    """Rules from ``name[=true|false],...`` (a bare name switches an option on), or JSON.

    Unknown names, an option named twice and an empty value (``all_fours=``) are refused.
    """
    text = text.strip()
    if text.startswith("{"):
        try:  # as (name, value) pairs, so that a name given twice is seen
            pairs = json.loads(text, object_pairs_hook=list)
        except RecursionError:
            raise ValueError("--rules: the JSON is nested too deeply") from None
        except ValueError as exc:
            raise ValueError(f"--rules: not valid JSON: {exc}") from None
        _check_names([name for name, _ in pairs])
        return _rules(dict(pairs))
    parts = [p.strip() for p in text.split(",") if p.strip()]
    names = [part.partition("=")[0].strip() for part in parts]
    _check_names(names)
    options: dict[str, Any] = {}
    for name, part in zip(names, parts, strict=True):
        _, has_value, value = part.partition("=")
        word = value.strip().lower()
        if not has_value or word in TRUE_WORDS:
            options[name] = True
        elif word in FALSE_WORDS:
            options[name] = False
        else:
            raise ValueError(f"--rules: {part!r} should be {name}, {name}=true or {name}=false")
    return _rules(options)


def _check_names(names: list[str]) -> None:
    for i, name in enumerate(names):
        if name not in RULE_OPTIONS:
            known = ", ".join(RULE_OPTIONS)
            raise ValueError(f"--rules: unknown option {brief_repr(name)} (options: {known})")
        if name in names[:i]:
            raise ValueError(f"--rules: option {name!r} is given twice")


def _rules(options: dict[str, Any]) -> Rules:
    try:
        return Rules.from_dict(options)
    except ValueError as exc:
        raise ValueError(f"--{exc}") from None  # Rules says "rules: ..."


def _takes(level: str, setting: str) -> bool:
    return setting in make_bot(level, 0, random.Random(0)).SETTINGS


def _match_settings(args: argparse.Namespace) -> tuple[dict[str, Any], dict[str, Any]]:
    """Each side's bot settings; an option that no side would use is refused."""
    searching = [level for level in (args.a, args.b) if _takes(level, "iterations")]
    if args.time_limit is not None and not searching:
        raise CommandError(
            f"--time-limit: neither {args.a} nor {args.b} searches, so neither has a clock to cap"
        )
    settings: list[dict[str, Any]] = []
    sides = (("a", args.a, args.a_iterations), ("b", args.b, args.b_iterations))
    for side, level, iterations in sides:
        if level not in searching:
            if iterations is not None:
                takers = ", ".join(lv for lv in ALL_LEVELS if _takes(lv, "iterations"))
                raise CommandError(
                    f"--{side}-iterations: level {level} does not search (search levels: {takers})"
                )
            settings.append({})
            continue
        # No clock unless asked: the same command gives the same result on any machine.
        chosen: dict[str, Any] = {"time_limit": args.time_limit}
        if iterations is not None:
            chosen["iterations"] = iterations
        settings.append(chosen)
    return settings[0], settings[1]


def _finite(value: Any) -> Any:
    # JSON has no infinity: a one-board match's unbounded interval is written as null.
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(item) for item in value]
    return value


def _match(args: argparse.Namespace) -> int:
    from .duplicate import run_match

    rules = parse_rules_option(args.rules)
    settings_a, settings_b = _match_settings(args)
    show = args.progress if args.progress is not None else args.boards >= 10
    result = run_match(
        args.a,
        args.b,
        args.boards,
        seed=args.seed,
        rules=rules,
        jobs=args.jobs,
        settings_a=settings_a,
        settings_b=settings_b,
        progress=progress_bar if show and sys.stderr is not None else None,
    )
    if args.json:
        write_line(json.dumps(_finite(result.to_json()), allow_nan=False))
    else:
        write_line(result.describe())
    return 0


def _suggest(args: argparse.Namespace) -> int:
    from .hints import suggest

    state = read_record(args.file)
    hint = suggest(state, level=args.level, seed=args.seed)
    reason = render(hint.reason, args.lang)
    if args.json:
        write_line(json.dumps({"card": str(hint.card), "reason": reason,
                               "messages": hint.reason, "level": hint.level}))
    else:
        card = render(message("card.short", card=str(hint.card)), args.lang)
        write_line(f"{card}  {reason}")
    return 0


def add_suggest(sub: Any) -> None:
    """``suggest FILE [--level L] [--seed N] [--json]``: a card for the player to move."""
    suggest = sub.add_parser(
        "suggest",
        help="suggest a card for the player to move, with a reason",
        description="Suggest a card for the player to move in a game record, with a reason.",
    )
    suggest.add_argument("file", help="game record in progress, or - for standard input")
    suggest.add_argument(
        "--level", type=choice("level", LEVELS), default="master", metavar="LEVEL",
        help=f"the bot's level: {', '.join(LEVELS)} (default: %(default)s)",
    )  # fmt: skip
    suggest.add_argument("--seed", type=whole_number(0, MAX_SEED), default=0,
                         help=f"the bot's seed, 0 to {MAX_SEED:,} (default: 0)")
    suggest.add_argument(
        "--json", action="store_true",
        help="print JSON: the card, the reason in words and as messages, the level",
    )  # fmt: skip
    add_lang(suggest)
    suggest.set_defaults(run=_suggest)


def add_match(sub: Any) -> None:
    """``match --a L --b L [...]``: a duplicate match between two bot levels."""
    match = sub.add_parser(
        "match",
        help="duplicate match between two computer levels",
        description=(
            "A duplicate match: each board is dealt twice, A and B swapping seats, and the "
            f"result is A's mean margin. Levels: {', '.join(ALL_LEVELS)} (the cheater sees "
            "every card: a yardstick, not a player)."
        ),
    )
    level = choice("level", ALL_LEVELS)
    match.add_argument("--a", required=True, type=level, metavar="LEVEL", help="level A")
    match.add_argument("--b", required=True, type=level, metavar="LEVEL", help="level B")
    match.add_argument("--boards", type=whole_number(1, MAX_BOARDS), default=20,
                       help=f"boards, each played twice: 1 to {MAX_BOARDS:,} (20)")
    match.add_argument("--seed", type=whole_number(0, MAX_SEED), default=0,
                       help=f"match seed, deals and bot seeds: 0 to {MAX_SEED:,} (0)")
    match.add_argument(
        "--rules", default="",
        help="rule options as name,name=false,... or a JSON object; the names: "
        + ", ".join(RULE_OPTIONS),
    )  # fmt: skip
    match.add_argument("--jobs", type=whole_number(1, MAX_JOBS), default=1,
                       help=f"processes to spread boards over: 1 to {MAX_JOBS} (1)")
    for side in ("a", "b"):
        match.add_argument(
            f"--{side}-iterations", type=whole_number(1, MAX_SEARCH_ITERATIONS), default=None,
            help=f"search budget for {side.upper()} in playouts a move, 1 to "
            f"{MAX_SEARCH_ITERATIONS:,} (search levels only)",
        )  # fmt: skip
    match.add_argument(
        "--time-limit", type=seconds(MAX_TIME_LIMIT), default=None,
        help=f"wall-clock cap per move for search bots, in seconds, at most {MAX_TIME_LIMIT:g} "
        "(default: none, for reproducible results)",
    )  # fmt: skip
    match.add_argument("--json", action="store_true", help="print the summary as JSON")
    match.add_argument(
        "--progress", action=argparse.BooleanOptionalAction, default=None,
        help="progress bar on stderr (default: on from 10 boards)",
    )  # fmt: skip
    match.set_defaults(run=_match)
