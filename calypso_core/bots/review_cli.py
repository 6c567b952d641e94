"""The ``review`` subcommand: what each card one seat played cost, from what it knew."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..cards import SEAT_NAMES
from ..cli_io import add_lang, read_record, show_progress, whole_number, write_line
from ..messages import render
from .review import (
    GRADE_NAMES,
    MAX_REVIEW_ITERATIONS,
    REVIEW_ITERATIONS,
    GameReview,
    review_game,
)

MAX_SEED_CHARS = 100


def parse_seat(text: str) -> int:
    """A seat from ``0``-``3``, ``N``/``E``/``S``/``W`` or a seat name (any case)."""
    key = text.strip().lower()
    for seat, name in enumerate(SEAT_NAMES):
        if key in (str(seat), name[0].lower(), name.lower()):
            return seat
    raise argparse.ArgumentTypeError(f"{text!r} is not a seat (0-3, N, E, S, W)")


def _seed(text: str) -> str:
    if len(text) > MAX_SEED_CHARS or not text.isprintable():
        raise argparse.ArgumentTypeError(
            f"a seed is printable text of at most {MAX_SEED_CHARS} characters")
    return text


def describe(review: GameReview, budget: int, seed: str, lang: str = "en") -> str:
    """The review as a readable table, with the points lost per deal and overall (the
    better card's reason and line in ``lang``, the line on the row below; the table itself
    is for developers, in English)."""
    lines = [
        f"{SEAT_NAMES[review.seat]}'s cards, reviewed at {budget} iterations a card "
        f"(seed {seed}); deals and tricks count from 1",
        f"{'play':>4} {'deal':>4} {'trick':>5}  {'card':<4}  {'best':<4}  {'cost':>4}  "
        f"{'grade':<10}  why the better card",
    ]
    for move in review.moves:
        costly = move.cost > 0
        lines.append(
            f"{move.play:>4} {move.deal + 1:>4} {move.trick + 1:>5}  {move.card:<4}  "
            f"{str(move.best) if costly else '':<4}  {move.cost:>4}  "
            f"{move.grade or ('forced' if move.forced else ''):<10}  "
            f"{render(move.reason, lang) if costly and move.reason else ''}".rstrip()
        )
        if costly and move.line:
            lines.append(f"{'':>36}{render(move.line, lang)}")
    for row in review.per_deal():
        lines.append(f"deal {row['deal'] + 1}: {_cards(row['cards'])}, {row['cost']} points lost"
                     f"{_counts(row)}")
    lines.append(f"total: {_cards(len(review.moves))}, {review.total_cost} points lost")
    return "\n".join(lines)


def _cards(count: int) -> str:
    return f"{count} card{'' if count == 1 else 's'}"


def _counts(row: dict[str, Any]) -> str:
    plural = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}
    parts = [f"{row[name]} {plural[name] if row[name] > 1 else name}"
             for name in reversed(GRADE_NAMES) if row[name]]
    return f" ({', '.join(parts)})" if parts else ""


def _progress(done: int, total: int) -> None:
    show_progress(f"reviewed {done}/{total} cards", done == total)


def _review(args: argparse.Namespace) -> int:
    state = read_record(args.file)
    show = sys.stderr.isatty() and not args.json
    review = review_game(state, args.seat, budget=args.budget, seed=args.seed,
                         progress=_progress if show else None)
    if args.json:
        write_line(json.dumps(review.to_json()))
    else:
        write_line(describe(review, args.budget, args.seed, args.lang))
    return 0


def add_review(sub: Any) -> None:
    """Add ``review`` to the main parser's subcommands."""
    review = sub.add_parser(
        "review", help="what each card a seat played cost, judged from what it knew"
    )
    review.add_argument("file", help="game record, or - for standard input")
    review.add_argument("--seat", required=True, type=parse_seat, help="0-3 or N, E, S, W")
    review.add_argument("--budget", type=whole_number(1, MAX_REVIEW_ITERATIONS),
                        default=REVIEW_ITERATIONS,
                        help=f"search iterations a card, 1 to {MAX_REVIEW_ITERATIONS:,} "
                        f"({REVIEW_ITERATIONS})")
    review.add_argument("--seed", type=_seed, default="0",
                        help=f"the review's seed, text of at most {MAX_SEED_CHARS} characters (0)")
    review.add_argument("--json", action="store_true",
                        help="print JSON (each reason as messages)")
    add_lang(review)
    review.set_defaults(run=_review)
