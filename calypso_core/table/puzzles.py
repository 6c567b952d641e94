"""Puzzles at the table: the shipped set, a puzzle shown from its solver's seat, the answer
judged from the costs the puzzle holds, the rating kept on the person's device, and what
happens next as the master plays on (docs/puzzles.md).

The set comes once per worker (``puzzles``, its text as the page fetched it); a puzzle is
opened by id, as the one nearest the person's rating, as the puzzle of a day, or from the
person's own reviewed games (``puzzle``). Its position is a match of its own with one person,
the solver, and the master in the other seats: the view is the table's (``session.view_for``),
and the game in play, its recipe and its saves are never touched. Loaded at the first
puzzle request (transport.py), like the review's handlers.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any

from ..bots import (
    THEMES,
    Puzzle,
    PuzzleError,
    PuzzleSet,
    parse_set,
    puzzle_id,
    solution_reason,
    themes_of,
)
from ..cards import brief_repr
from ..game import GameState
from ..glicko import MIN_DEVIATION, Rating, expected_score, rate
from ..kernel import DEALS, TRICKS_PER_DEAL
from ..messages import message
from .errors import ProtocolError
from .match import Match, parse_card
from .players import make_chooser
from .session import state_of, table_facts, view_for
from .settings import HUMAN, Person, Settings

# How sure a set puzzle's rating is, as the opponent a solved or missed puzzle counts as.
PUZZLE_DEVIATION = 100.0
MAX_RECENT = 500  # ids of puzzles seen lately that the page may send
MAX_SALT_CHARS = 40
MAX_OFFSET = 1000  # the most points above or below the rating a person may ask puzzles at
DEAL_PLAYS = 4 * TRICKS_PER_DEAL
MINE_RATING = 1500  # a person's own puzzles are not rated; this only fills the field
DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass
class _Open:
    """The puzzle on screen: what it is, its match (the position, then the line played on
    from it), and whether it was answered."""

    puzzle: Puzzle
    kind: str  # "set" or "mine"
    start: GameState
    match: Match
    answered: bool = False


class _Puzzles:
    """The set loaded into this worker, and the puzzle on screen."""

    set: PuzzleSet | None = None
    open: _Open | None = None


_puzzles = _Puzzles()


def reset() -> None:
    """Forget the set and the puzzle on screen (for tests)."""
    _puzzles.set = None
    _puzzles.open = None


# -- requests ---------------------------------------------------------------------------------

def load_set(data: dict[str, Any]) -> dict[str, Any]:
    """Read the shipped set (``text``, as fetched): its size and the themes it uses."""
    text = data.get("text")
    if not isinstance(text, str):
        raise ProtocolError("bad_request", f"puzzles needs the set's text, not {brief_repr(text)}")
    try:
        loaded = parse_set(text)
    except PuzzleError as exc:
        raise ProtocolError("bad_puzzle_set", str(exc)) from None
    _puzzles.set = loaded
    used = {theme for p in loaded.puzzles for theme in p.themes}
    return {"count": len(loaded), "themes": [t for t in THEMES if t in used]}


def open_puzzle(data: dict[str, Any]) -> dict[str, Any]:
    """Show a puzzle: ``puzzle`` (an id of the set), ``near`` ({rating?, offset?, recent?,
    salt?}: the set's puzzle nearest a rating and offset, none of the recent ids while others
    are left), ``day`` (the puzzle of a date) or ``mine`` (a blunder of the person's own
    reviewed games)."""
    given = [key for key in ("puzzle", "near", "day", "mine") if data.get(key) is not None]
    if len(given) != 1:
        raise ProtocolError("bad_request", "puzzle needs one of puzzle (an id), near, day or mine")
    kind = "mine" if given == ["mine"] else "set"
    puzzle = _mine(data["mine"], data) if kind == "mine" else _from_set(given[0], data[given[0]])
    try:
        start = puzzle.position()
    except PuzzleError as exc:
        code = "bad_puzzle" if kind == "mine" else "bad_puzzle_set"
        raise ProtocolError(code, str(exc)) from None
    match = _match(puzzle, start)
    _puzzles.open = _Open(puzzle, kind, start, match)
    table = table_facts(match)
    # No seed (it deals every hand), and played straight: no hints, no undo.
    table["settings"] = {**{k: v for k, v in table["settings"].items() if k != "seed"},
                         "straight": True}
    return {"puzzle": {"id": puzzle.id, "kind": kind, "seat": start.to_move,
                       "rating": puzzle.rating, "themes": list(puzzle.themes)},
            "view": {**view_for(match), "table": table}}


def answer(data: dict[str, Any]) -> dict[str, Any]:
    """Judge a card of the puzzle on screen from its costs: right when it costs nothing.
    With ``rate``, the first answer to a set puzzle also gives the person's rating after it,
    from ``rating`` (as the page keeps it; none: a new player's)."""
    shown = _shown("puzzle_answer")
    card = parse_card(data.get("card"))
    costs = shown.puzzle.costs
    if card not in costs:
        raise ProtocolError("illegal_move", f"{card} is not a legal card of this puzzle",
                            message("error.puzzle_card", card=str(card)))
    right = costs[card] == 0
    best = shown.puzzle.solutions[0]
    reply: dict[str, Any] = {
        "card": str(card), "right": right, "cost": costs[card],
        "solutions": [str(c) for c in shown.puzzle.solutions],
        "costs": [{"card": str(c), "cost": cost}
                  for c, cost in sorted(costs.items(), key=lambda item: (item[1], item[0]))],
        "reason": solution_reason(shown.start, best),
        "themes": list(shown.puzzle.themes),
    }
    if data.get("rate") and shown.kind == "set" and not shown.answered:
        before = Rating() if data.get("rating") is None else _rating(data["rating"])
        opponent = Rating(shown.puzzle.rating, PUZZLE_DEVIATION)
        after = rate(before, [(opponent, 1.0 if right else 0.0)], floor=MIN_DEVIATION)
        reply["rating"] = after.to_json()
        reply["expected"] = round(expected_score(before, opponent), 3)
    shown.answered = True
    return reply


def play_on(data: dict[str, Any]) -> dict[str, Any]:
    """From the puzzle's position, the solver's ``card`` (their answer, or the solution) is
    played: the table after it. ``puzzle_step`` goes on from there."""
    shown = _shown("puzzle_play")
    shown.match = _match(shown.puzzle, shown.start)
    card = parse_card(data.get("card"))
    if card not in shown.puzzle.costs:
        raise ProtocolError("illegal_move", f"{card} is not a legal card of this puzzle",
                            message("error.puzzle_card", card=str(card)))
    event = shown.match.play(str(card))
    return {"view": view_for(shown.match, event=event), "over": _line_over(shown)}


def step(data: dict[str, Any]) -> dict[str, Any]:
    """The master plays the next card of the line, for whichever seat is to move (the solver's
    too), until the puzzle's deal is over."""
    shown = _shown("puzzle_step")
    if len(shown.match.state.plays) == shown.puzzle.play or _line_over(shown):
        raise ProtocolError("line_over", "there is no card of this puzzle's line to play now")
    match = shown.match
    seat = match.state.to_move
    if seat in match.settings.seats:
        chooser = make_chooser("master", seat, f"puzzle:{shown.puzzle.id}:{seat}")
        card, _ = chooser(match.state)
        event = match.play(str(card))
    else:
        event = match.step()
    return {"view": view_for(match, event=event), "over": _line_over(shown)}


# -- helpers ----------------------------------------------------------------------------------

def _loaded(kind: str) -> PuzzleSet:
    if _puzzles.set is None:
        raise ProtocolError("no_puzzles", f"{kind}: the puzzle set is not loaded (send puzzles)")
    return _puzzles.set


def _from_set(key: str, value: Any) -> Puzzle:
    loaded = _loaded("puzzle")
    if key == "puzzle":
        try:
            return loaded.get(value)
        except PuzzleError as exc:
            shown = value if isinstance(value, str) and len(value) <= 20 else brief_repr(value)
            raise ProtocolError("unknown_puzzle", str(exc),
                                message("error.unknown_puzzle", id=str(shown)[:20])) from None
    if key == "day":
        if not isinstance(value, str) or not DAY.fullmatch(value):
            raise ProtocolError("bad_date", f"day must be YYYY-MM-DD, not {brief_repr(value)}")
        return loaded.of_the_day(value)
    if not isinstance(value, dict) or set(value) - {"rating", "offset", "recent", "salt"}:
        raise ProtocolError("bad_request", "near is {rating?, offset?, recent?, salt?}")
    rating = Rating() if value.get("rating") is None else _rating(value["rating"])
    offset: Any = value.get("offset") or 0
    recent = value.get("recent") or []
    salt = value.get("salt") or ""
    if type(offset) is not int or abs(offset) > MAX_OFFSET:
        raise ProtocolError("bad_request", f"near.offset is a whole number of points within "
                            f"{MAX_OFFSET} of the rating, not {brief_repr(offset)}")
    if not (isinstance(recent, list) and len(recent) <= MAX_RECENT
            and all(isinstance(r, str) for r in recent)):
        raise ProtocolError("bad_request", f"near.recent is at most {MAX_RECENT} ids")
    if not isinstance(salt, str) or len(salt) > MAX_SALT_CHARS:
        raise ProtocolError("bad_request", f"near.salt is a text of at most {MAX_SALT_CHARS}")
    return loaded.nearest(rating.rating + offset, recent, salt)


def _mine(entry: Any, data: dict[str, Any]) -> Puzzle:
    """A puzzle from a blunder of the person's reviewed games: ``{record, play, costs}``, the
    game's record (its deck may be sealed) cut anywhere at or after the position, the play
    and every legal card's cost there as the review gave it (``data``: the request, whose
    date judges a hand of a later day's deal)."""
    if not isinstance(entry, dict) or set(entry) != {"record", "play", "costs"}:
        raise ProtocolError("bad_puzzle", "mine is {record, play, costs}")
    play, costs = entry["play"], entry["costs"]
    game = state_of(entry["record"], data)
    if type(play) is not int or not 0 <= play <= len(game.plays) or play == DEALS * DEAL_PLAYS:
        raise ProtocolError("bad_puzzle", f"play {brief_repr(play)} is not a play of its game")
    if not isinstance(costs, list) or not all(
            isinstance(c, list) and len(c) == 2 and type(c[1]) is int and c[1] >= 0
            for c in costs):
        raise ProtocolError("bad_puzzle", "costs is a list of [card, points]")
    cards = {parse_card(card): cost for card, cost in costs}
    position = game.before(play)
    best = [c for c, cost in cards.items() if cost == 0]
    if len(cards) != len(costs) or not best or set(cards) != set(position.legal_moves()):
        raise ProtocolError("bad_puzzle", f"the costs are not those of play {play}'s legal cards")
    key = hashlib.sha256(json.dumps(entry["record"]["deck"]).encode()).hexdigest()[:16]
    return Puzzle(puzzle_id(f"mine:{key}", play), play, cards,
                  tuple(themes_of(position, best[0])), MINE_RATING, game=position)


def _match(puzzle: Puzzle, start: GameState) -> Match:
    """The puzzle's own match: its position, the solver the one person, masters elsewhere."""
    seat = start.to_move
    level = [HUMAN if s == seat else "master" for s in range(4)]
    seed = puzzle.seed or f"puzzle:{puzzle.id}"
    settings = Settings(seed, start.rules, (level[0], level[1], level[2], level[3]),
                        (Person(seat, ""),), 1, None)
    return Match(settings, state=start.clone())


def _shown(kind: str) -> _Open:
    if _puzzles.open is None:
        raise ProtocolError("no_puzzle", f"{kind}: no puzzle is open (send puzzle first)")
    return _puzzles.open


def _line_over(shown: _Open) -> bool:
    """Whether the puzzle's deal is over: the line stops there."""
    end = (shown.puzzle.play // DEAL_PLAYS + 1) * DEAL_PLAYS
    return shown.match.state.is_over or len(shown.match.state.plays) >= end


def _rating(value: Any) -> Rating:
    try:
        return Rating.from_json(value)
    except ValueError as exc:
        raise ProtocolError("bad_rating", str(exc)) from None

