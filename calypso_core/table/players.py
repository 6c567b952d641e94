"""The computer players at the table, through the bots' public contract only.

``calypso_core.bots`` gives ``LEVELS`` (weakest first), ``make_bot`` and ``suggest``. When
it does not import, or a bot fails, the table still plays: the level ``"random"`` (a random
legal card) always works, and a failing bot's move falls back to one, with a note.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any

from ..cards import Card, brief_repr
from ..game import GameState, IllegalMoveError
from ..messages import Message
from . import words
from .errors import ProtocolError

# A computer player: given the position, the card to play and a note if it fell back.
Chooser = Callable[[GameState], tuple[Card, Message | None]]


def _bots() -> tuple[Any, str | None]:
    """The bots package, or None and why not (it may be missing, or broken)."""
    try:
        return importlib.import_module("calypso_core.bots"), None
    except Exception as exc:  # a broken bots package must not break the game
        return None, f"{type(exc).__name__}: {exc}"


def bots_module() -> Any:
    """The bots package, or None when it is unavailable."""
    return _bots()[0]


def bot_levels() -> tuple[list[str], str | None]:
    """The levels on offer, weakest first ("random" always among them), and why bots are
    missing, if they are."""
    bots, problem = _bots()
    levels: list[str] = []
    if bots is not None:
        try:
            levels = [str(level) for level in bots.LEVELS]
        except Exception as exc:
            problem = f"calypso_core.bots.LEVELS: {type(exc).__name__}: {exc}"
    if "random" not in levels:
        levels.insert(0, "random")
    return levels, problem


def default_level() -> str:
    """The second weakest level on offer (random play when no bots are)."""
    levels, _ = bot_levels()
    return levels[1] if len(levels) > 1 else levels[0]


def has_hints() -> bool:
    """Whether the bots can suggest a card (``bots.suggest``)."""
    bots, _ = _bots()
    return callable(getattr(bots, "suggest", None))


def level_facts() -> list[dict[str, Any]]:
    """Each level on offer: key, label, one-line help, strength (1 = weakest) and the
    longest a move takes in milliseconds (a search level's clock cap; 0 for levels that
    answer at once)."""
    bots, _ = _bots()
    facts = []
    for strength, level in enumerate(bot_levels()[0], 1):
        think = None
        if bots is not None:
            try:
                think = getattr(bots.make_bot(level, 0, random.Random(0)), "time_limit", None)
            except Exception:
                think = None
        facts.append({
            "key": level,
            "label": words.level_label(level),
            "help": words.level_help(level),
            "strength": strength,
            "think_ms": round(think * 1000) if isinstance(think, int | float) else 0,
        })
    return facts


def make_chooser(level: str, seat: int, salt: str) -> Chooser:
    """A computer player; any failure of a bot falls back to a random legal card, noted.

    Its randomness is drawn afresh for every move from ``salt`` and the number of cards
    played, so a move depends only on the position: after an undo, or a reload, the same
    play brings the same replies.
    """
    bots, _ = _bots()
    use_bot = bots is not None and level in bot_levels()[0]
    if use_bot:
        try:
            bots.make_bot(level, seat, random.Random(salt))
        except Exception as exc:
            use_bot = False
            if level != "random":
                problem = f"{type(exc).__name__}: {exc}"
                raise ProtocolError("bad_level", f"level {brief_repr(level)}: {problem}") from None

    def choose(state: GameState) -> tuple[Card, Message | None]:
        legal = state.legal_moves()
        rng = random.Random(f"{salt}:{len(state.plays)}")
        if not use_bot:
            return rng.choice(legal), None
        try:
            bot = bots.make_bot(level, seat, rng)
            chosen = bot.choose(state.observation(seat), legal)
            card = Card.parse(chosen) if isinstance(chosen, str) else Card(chosen)
            if card not in legal:
                raise IllegalMoveError(f"{card} is not legal")
            return card, None
        except Exception as exc:
            return rng.choice(legal), words.bot_failed(level, f"{type(exc).__name__}: {exc}")

    return choose


def suggest(state: GameState) -> tuple[Card, list[Message]]:
    """A card for the seat to move, from its observation only, and the reason (messages)."""
    bots, problem = _bots()
    suggest_card = getattr(bots, "suggest", None)
    if suggest_card is None:
        raise ProtocolError("unavailable", f"no hints without computer players ({problem})")
    suggestion = suggest_card(state.observation(state.to_move), seed=len(state.plays))
    return Card.parse(str(suggestion.card)), list(suggestion.reason)
