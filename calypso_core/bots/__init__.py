"""Computer players: one small contract shared by every level, from random to master.

``make_bot(level, seat, rng, **settings)`` builds a bot; ``bot.choose(observation, legal)``
returns its card, seeing only ``observation(seat)`` (``choose_steps`` the same in slices,
run to its end by ``finish``). ``suggest`` gives a hint with a reason (``suggest_steps`` the
same in slices), ``play_game`` plays a whole game with four bots, ``run_match`` a duplicate
match.
``Knowledge`` is a seat's card counting from its observation (the table's memory aids).
``review_position`` and ``seat_plays`` review a seat's cards in points lost
(docs/review.md), one card at a time; ``judge`` judges every legal card of a position as the
review does, and ``continuation`` plays on after a card as the master would
(``continuation_steps`` the same in slices). ``parse_set`` reads a set of puzzles and
``Puzzle`` is one (docs/puzzles.md).
"""

from typing import TYPE_CHECKING, Any

from .base import (
    GRADES,
    LEAST_REVIEW_ITERATIONS,
    MASTER_ITERATIONS,
    MAX_REVIEW_ITERATIONS,
    MAX_SEARCH_ITERATIONS,
    REVIEW_ITERATIONS,
    REVIEW_RULES,
    Bot,
    finish,
    play_game,
)
from .hints import Suggestion, suggest, suggest_steps
from .knowledge import Knowledge
from .levels import ALL_LEVELS, LEVELS, make_bot, think_time

# The review and the duplicate match load at their first use (PEP 562): a game's first deal
# uses neither, and the page imports the engine from source on a first visit (README,
# Start-up). The names are the modules' own, spelled out for the type checker; no name is
# looked up from text.
if TYPE_CHECKING:
    from .duplicate import MatchResult, run_match
    from .lines import continuation, continuation_steps
    from .puzzles import (
        THEMES,
        Puzzle,
        PuzzleError,
        PuzzleSet,
        parse_set,
        puzzle_id,
        solution_reason,
        themes_of,
    )
    from .review import (
        CardReview,
        CardReviewer,
        GameReview,
        Judgement,
        judge,
        review_position,
        seat_plays,
    )


def __getattr__(name: str) -> Any:
    if name in ("MatchResult", "run_match"):
        from . import duplicate

        return duplicate.MatchResult if name == "MatchResult" else duplicate.run_match
    if name in ("continuation", "continuation_steps"):
        from . import lines

        return lines.continuation if name == "continuation" else lines.continuation_steps
    if name in _REVIEW:
        from . import review

        return {"CardReview": review.CardReview, "CardReviewer": review.CardReviewer,
                "GameReview": review.GameReview, "Judgement": review.Judgement,
                "judge": review.judge, "review_position": review.review_position,
                "seat_plays": review.seat_plays}[name]
    if name in _PUZZLES:
        from . import puzzles

        return {"THEMES": puzzles.THEMES, "Puzzle": puzzles.Puzzle,
                "PuzzleError": puzzles.PuzzleError, "PuzzleSet": puzzles.PuzzleSet,
                "parse_set": puzzles.parse_set, "puzzle_id": puzzles.puzzle_id,
                "solution_reason": puzzles.solution_reason,
                "themes_of": puzzles.themes_of}[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_REVIEW = ("CardReview", "CardReviewer", "GameReview", "Judgement", "judge", "review_position",
           "seat_plays")
_PUZZLES = ("THEMES", "Puzzle", "PuzzleError", "PuzzleSet", "parse_set", "puzzle_id",
            "solution_reason", "themes_of")

__all__ = [
    "ALL_LEVELS",
    "GRADES",
    "LEAST_REVIEW_ITERATIONS",
    "LEVELS",
    "MASTER_ITERATIONS",
    "MAX_REVIEW_ITERATIONS",
    "MAX_SEARCH_ITERATIONS",
    "REVIEW_ITERATIONS",
    "REVIEW_RULES",
    "THEMES",
    "Bot",
    "CardReview",
    "CardReviewer",
    "GameReview",
    "Judgement",
    "Knowledge",
    "MatchResult",
    "Puzzle",
    "PuzzleError",
    "PuzzleSet",
    "Suggestion",
    "continuation",
    "continuation_steps",
    "finish",
    "judge",
    "make_bot",
    "parse_set",
    "play_game",
    "puzzle_id",
    "review_position",
    "run_match",
    "seat_plays",
    "solution_reason",
    "suggest",
    "suggest_steps",
    "themes_of",
    "think_time",
]
