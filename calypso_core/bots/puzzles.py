"""Puzzles: positions of real games where one card is clearly best, and how a set holds them.

A puzzle is a position of a game, the seat to move in it, the card or cards that solve it
and what every other legal card costs, in points of the partnership's expected lead, as the
review's search judged them from that seat's information only. The shipped set comes from
the miner (bench/puzzles.py), which keeps a position only when one card beats every other by
the review's blunder line, confirmed by a second search; the person's own reviewed games
give their blunders as puzzles too ("practise your mistakes"). docs/puzzles.md has the rule
and the set's format. The page judges an answer from the costs the puzzle holds, with no
search.

The plays before a set's puzzle are written as **choices**: the index of each card played
among the legal cards (``legal_moves()``, in their fixed order), a forced play none, all of
them one number in a mixed radix, in base64url. The choices of a game up to its last puzzle
rebuild every earlier position of it, so a set writes them once for all its puzzles.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import Card, CardParseError
from ..game import GameState, new_game
from ..messages import Message
from ..rules import Rules
from .hints import reason_for
from .knowledge import Knowledge

SET_FORMAT = "calypso-puzzles"
SET_VERSION = 1
SET_KEYS = ("format", "version", "games", "puzzles")
CHOICE_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"  # base64url
MAX_CHOICES_CHARS = 160  # 208 plays of at most 13 cards: under 770 bits
ID_CHARS = "23456789abcdefghjkmnpqrstuvwxyz"  # no 0/o, 1/l/i: read aloud and typed from a link
ID_LENGTH = 6
MAX_SEED_CHARS = 100
RATING_RANGE = (100, 3500)
# The themes of a puzzle's solution, in the order a dashboard lists them (docs/puzzles.md):
# from the hint's reason for the solution (bots/hints.py), by message id, and two facts.
THEMES = ("calypso_won", "trump_in", "take_trick", "hold_back", "partner", "protect", "pull",
          "lead_trump", "top_card", "discard", "duplicate", "endgame")
THEME_OF_MESSAGE = {
    "hint.trump_in": "trump_in",
    "hint.win": "take_trick",
    "hint.note_gain_own": "calypso_won",
    "hint.note_gain_partner": "calypso_won",
    "hint.note_gain_both": "calypso_won",
    "hint.hold_back": "hold_back",
    "hint.partner_winning": "partner",
    "hint.note_out_of_reach": "protect",
    "hint.note_feeds_own": "protect",
    "hint.note_feeds_partner": "protect",
    "hint.note_all_needed": "protect",
    "hint.lead_high": "pull",
    "hint.lead_low": "pull",
    "hint.lead_own": "lead_trump",
    "hint.lead_own_higher": "lead_trump",
    "hint.lead_partners": "lead_trump",
    "hint.lead_top": "top_card",
    "hint.note_they_have": "discard",
    "hint.cannot_win": "discard",
}
ENDGAME_TRICK = 10  # the last three tricks of a deal, where the search is exact


class PuzzleError(ValueError):
    """A puzzle, a puzzle set or a puzzle's id that is malformed or does not fit its game."""


# -- choices ----------------------------------------------------------------------------------

def encode_choices(state: GameState) -> str:
    """The choices of every play of ``state`` so far, from its first lead, as one number in
    a mixed radix (each digit the index of the card played among the legal cards, in a base
    of their number; forced plays have none), written in base64url, least digit first."""
    position = state.before(0)
    digits: list[tuple[int, int]] = []
    for card in state.plays:
        legal = position.legal_moves()
        if len(legal) > 1:
            digits.append((legal.index(card), len(legal)))
        position.play(card)
    number = 0
    for index, base in reversed(digits):
        number = number * base + index
    raw = number.to_bytes((number.bit_length() + 7) // 8, "big")
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def replay_choices(state: GameState, choices: str, plays: int) -> GameState:
    """``state`` (a new game) after ``plays`` cards chosen by ``choices`` (as
    ``encode_choices`` writes them), forced cards played as they come; anything that is not
    such a text raises ``PuzzleError``."""
    if len(choices) > MAX_CHOICES_CHARS or not set(choices) <= set(CHOICE_CHARS):
        raise PuzzleError(f"choices are at most {MAX_CHOICES_CHARS} base64url characters")
    try:
        raw = base64.urlsafe_b64decode(choices + "=" * (-len(choices) % 4))
    except ValueError:
        raise PuzzleError(f"choices {choices[:20]!r}... are not base64url") from None
    number = int.from_bytes(raw, "big")
    position = state.clone()
    while len(position.plays) < plays:
        if position.is_over:
            raise PuzzleError(f"the game ends after {len(position.plays)} plays, not {plays}")
        legal = position.legal_moves()
        number, index = divmod(number, len(legal))
        position.play(legal[index])
    return position


def puzzle_id(seed: str, play: int) -> str:
    """The stable id of the puzzle at play ``play`` of the game dealt from ``seed``."""
    digest = int.from_bytes(hashlib.sha256(f"{seed}#{play}".encode()).digest()[:8], "big")
    chars = []
    for _ in range(ID_LENGTH):
        digest, digit = divmod(digest, len(ID_CHARS))
        chars.append(ID_CHARS[digit])
    return "".join(chars)


def dealt(seed: str) -> GameState:
    """The new game a set's seed deals: the standard rules; suits, first dealer and deck
    from the seed."""
    return new_game(seed, Rules())


# -- a puzzle ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Puzzle:
    """One puzzle: its id, how its position is rebuilt (a set's game and choices, or the game
    state itself for a person's own), the solutions, every legal card's cost (0 for a
    solution), the themes and the starting rating."""

    id: str
    play: int
    costs: dict[Card, int]
    themes: tuple[str, ...]
    rating: int
    seed: str | None = None  # a set's game: its seed and choices
    choices: str = ""
    game: GameState | None = None  # a person's own: the game, cut at the position

    @property
    def solutions(self) -> tuple[Card, ...]:
        """The cards that cost nothing, in the order of the costs."""
        return tuple(card for card, cost in self.costs.items() if cost == 0)

    def position(self) -> GameState:
        """The puzzle's position, checked: the solutions and costs are exactly its legal cards;
        anything else raises ``PuzzleError``."""
        if self.game is not None:
            state = self.game.clone()
        else:
            assert self.seed is not None
            state = replay_choices(dealt(self.seed), self.choices, self.play)
        if state.is_over or len(state.plays) != self.play:
            raise PuzzleError(f"puzzle {self.id}: the game has no play {self.play} to make")
        legal = set(state.legal_moves())
        if set(self.costs) != legal or not self.solutions:
            raise PuzzleError(f"puzzle {self.id}: its cards are not the legal cards at play "
                              f"{self.play} ({' '.join(str(c) for c in sorted(legal))})")
        return state


def solution_reason(state: GameState, card: Card) -> list[Message]:
    """Why ``card`` is the card to play: the hint's reason, from the mover's view."""
    k = Knowledge(state.observation(state.to_move))
    return reason_for(k, int(card), [int(c) for c in state.legal_moves()])


def themes_of(state: GameState, best: Card) -> list[str]:
    """The solution's themes: from the hint's reason for it, and two facts of the position:
    a spare trump (a card of the mover's own suit whose rank its calypso has, played where one
    it still needs was legal too: not wasting a trump its calypso needs), and the endgame (the
    last three tricks of a deal)."""
    seat = state.to_move
    k = Knowledge(state.observation(seat))
    legal = [int(c) for c in state.legal_moves()]
    found = {THEME_OF_MESSAGE[m["id"]] for m in reason_for(k, int(best), legal)
             if m["id"] in THEME_OF_MESSAGE}
    own = k.suits[seat]
    code = int(best)
    if code // 13 == own and not k.needs(seat, code) and any(
            c // 13 == own and k.needs(seat, c) for c in legal):
        found.add("duplicate")
    if k.trick_number >= ENDGAME_TRICK:
        found.add("endgame")
    if "calypso_won" in found:
        found.discard("take_trick")
    return [t for t in THEMES if t in found]


# -- the shipped set --------------------------------------------------------------------------

class PuzzleSet:
    """The puzzles of a set, by id, in the set's order; built by ``parse_set``."""

    def __init__(self, puzzles: Sequence[Puzzle]) -> None:
        self.puzzles = tuple(puzzles)
        self.by_id = {p.id: p for p in self.puzzles}

    def __len__(self) -> int:
        return len(self.puzzles)

    def get(self, puzzle: str) -> Puzzle:
        """The puzzle of an id; an id the set does not hold raises ``PuzzleError``."""
        found = self.by_id.get(puzzle) if isinstance(puzzle, str) else None
        if found is None:
            raise PuzzleError(f"no puzzle has the id {str(puzzle)[:20]!r}")
        return found

    def nearest(self, target: float, recent: Sequence[str], salt: str) -> Puzzle:
        """A puzzle rated near ``target``, not among ``recent`` (ids, the latest last) while
        others are left, else the one seen longest ago; among those as near, the order of a
        hash of their id with ``salt`` (so that a person's sequence varies)."""
        seen = {pid: i for i, pid in enumerate(recent)}
        fresh = [p for p in self.puzzles if p.id not in seen]
        if not fresh:
            return min(self.puzzles, key=lambda p: seen[p.id])
        return min(fresh, key=lambda p: (abs(p.rating - target), _mix(p.id, salt)))

    def of_the_day(self, day: str) -> Puzzle:
        """The puzzle of a date (``YYYY-MM-DD``): the same for everyone."""
        return min(self.puzzles, key=lambda p: _mix(p.id, f"day:{day}"))


def _mix(text: str, salt: str) -> bytes:
    return hashlib.sha256(f"{salt}:{text}".encode()).digest()[:8]


def parse_set(text: str) -> PuzzleSet:
    """A puzzle set from its JSON text (docs/puzzles.md), checked item by item: anything
    malformed raises ``PuzzleError`` naming the first bad item. Positions are rebuilt (and
    checked against their cards) only when a puzzle is opened."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise PuzzleError(f"the puzzle set is not JSON: {str(exc)[:80]}") from None
    if not isinstance(data, dict) or set(data) != set(SET_KEYS):
        raise PuzzleError(f"a puzzle set is an object with exactly {', '.join(SET_KEYS)}")
    if data["format"] != SET_FORMAT or data["version"] != SET_VERSION:
        raise PuzzleError(f"not a puzzle set of version {SET_VERSION}: "
                          f"{str(data['format'])[:30]} {str(data['version'])[:10]}")
    games = data["games"]
    if not isinstance(games, list):
        raise PuzzleError("games must be a list")
    for i, game in enumerate(games):
        if not (isinstance(game, list) and len(game) == 2 and isinstance(game[0], str)
                and 0 < len(game[0]) <= MAX_SEED_CHARS and isinstance(game[1], str)
                and len(game[1]) <= MAX_CHOICES_CHARS and set(game[1]) <= set(CHOICE_CHARS)):
            raise PuzzleError(f"game {i} is not [seed, choices]")
    items = data["puzzles"]
    if not isinstance(items, list) or not items:
        raise PuzzleError("puzzles must be a list of at least one puzzle")
    puzzles = []
    seen: set[str] = set()
    for i, item in enumerate(items):
        puzzle = _set_puzzle(item, games, i)
        if puzzle.id in seen:
            raise PuzzleError(f"puzzle {i}: the id {puzzle.id} is there twice")
        seen.add(puzzle.id)
        puzzles.append(puzzle)
    return PuzzleSet(puzzles)


def _set_puzzle(item: Any, games: list[list[str]], i: int) -> Puzzle:
    where = f"puzzle {i}"
    if not isinstance(item, list) or len(item) != 7:
        raise PuzzleError(f"{where} is not [id, game, play, solution, costs, themes, rating]")
    pid, game, play, solution, costs, themes, rating = item
    if type(game) is not int or not 0 <= game < len(games):
        raise PuzzleError(f"{where}: game {str(game)[:10]} is not one of the set's games")
    if type(play) is not int or not 0 <= play < 208:
        raise PuzzleError(f"{where}: play {str(play)[:10]} is not a play of a game (0-207)")
    seed, choices = games[game]
    if pid != puzzle_id(seed, play):
        raise PuzzleError(f"{where}: {str(pid)[:20]!r} is not its id")
    where = f"puzzle {pid}"
    cards = {_card(solution, where): 0}
    if not isinstance(costs, list) or not costs:
        raise PuzzleError(f"{where}: costs must list every other legal card")
    for entry in costs:
        if not (isinstance(entry, list) and len(entry) == 2 and type(entry[1]) is int
                and entry[1] > 0):
            raise PuzzleError(f"{where}: a cost is [card, points above 0]")
        card = _card(entry[0], where)
        if card in cards:
            raise PuzzleError(f"{where}: {card} is listed twice")
        cards[card] = entry[1]
    if not (isinstance(themes, list) and all(t in THEMES for t in themes)
            and len(set(themes)) == len(themes)):
        raise PuzzleError(f"{where}: themes must be distinct names of {', '.join(THEMES)}")
    low, high = RATING_RANGE
    if type(rating) is not int or not low <= rating <= high:
        raise PuzzleError(f"{where}: rating {str(rating)[:10]} is not a whole number "
                          f"from {low} to {high}")
    return Puzzle(pid, play, cards, tuple(themes), rating, seed=seed, choices=choices)


def _card(text: Any, where: str) -> Card:
    try:
        if not isinstance(text, str) or len(text) != 2:
            raise CardParseError(str(text)[:10])
        return Card.parse(text)
    except CardParseError:
        raise PuzzleError(f"{where}: {str(text)[:10]!r} is not a card") from None


