"""The computer players at the table, through the bots' public package (``calypso_core.bots``).

The levels on offer are the bots' ``LEVELS`` (weakest first). A bot that fails during a game
does not stop it: its move falls back to a random legal card, with a note.
"""

from __future__ import annotations

import random
from collections.abc import Generator
from typing import Any

from ..bots import LEVELS, finish, make_bot, suggest_steps, think_time
from ..cards import Card, brief_repr
from ..game import GameState, IllegalMoveError
from ..messages import Message
from . import words
from .errors import ProtocolError


def default_level() -> str:
    """The second weakest level on offer."""
    return LEVELS[1]


def level_facts() -> list[dict[str, Any]]:
    """Each level on offer: key, label, one-line help, strength (1 = weakest) and the
    longest a move takes in milliseconds (a search level's clock cap; 0 for levels that
    answer at once)."""
    facts = []
    for strength, level in enumerate(LEVELS, 1):
        think = think_time(level)
        facts.append({
            "key": level,
            "label": words.level_label(level),
            "help": words.level_help(level),
            "strength": strength,
            "think_ms": 0 if think is None else round(think * 1000),
        })
    return facts


def make_chooser(level: str, seat: int, salt: str, *, clock: bool = True) -> ComputerPlayer:
    """A computer player; any failure of a bot falls back to a random legal card, noted.

    Its randomness is drawn afresh for every move from ``salt`` and the number of cards
    played, and no bot is kept from one move to the next, so a move depends only on the
    position: after an undo, or a reload, the same play brings the same replies. Without
    ``clock`` a search level searches its whole budget however long that takes, so that the
    move is the same on every device (a challenge); with it, a slow device may stop sooner.
    """
    return ComputerPlayer(level, seat, salt, clock=clock)


class ComputerPlayer:
    """``make_chooser``'s player: called with the position, the card and a note; ``steps``
    gives the same in slices (the bot's ``choose_steps``)."""

    def __init__(self, level: str, seat: int, salt: str, *, clock: bool = True) -> None:
        if level not in LEVELS:
            raise ProtocolError("bad_level", f"level {brief_repr(level)}: not one of "
                                f"{', '.join(LEVELS)}")
        self.level, self.seat, self.salt, self.clock = level, seat, salt, clock
        # Only the search levels have a clock to turn off.
        self.settings = {} if clock or think_time(level) is None else {"time_limit": None}

    def __call__(self, state: GameState) -> tuple[Card, Message | None]:
        return finish(self.steps(state))

    def steps(self, state: GameState) -> Generator[None, None, tuple[Card, Message | None]]:
        """The move in slices: None between two slices of a search."""
        legal = state.legal_moves()
        rng = random.Random(f"{self.salt}:{len(state.plays)}")
        try:
            bot = make_bot(self.level, self.seat, rng, **self.settings)
            card = yield from bot.choose_steps(state.observation(self.seat), legal)
            if card not in legal:
                raise IllegalMoveError(f"{card} is not legal")
            return card, None
        except Exception as exc:  # a failing bot must not stop the game
            return rng.choice(legal), words.bot_failed(self.level, f"{type(exc).__name__}: {exc}")


def suggest(state: GameState) -> tuple[Card, list[Message]]:
    """A card for the seat to move, from its observation only, and the reason (messages)."""
    return finish(hint_steps(state))


def hint_steps(state: GameState) -> Generator[None, None, tuple[Card, list[Message]]]:
    """``suggest`` in slices: None between two slices of the hint's search (the same card
    however it is sliced)."""
    suggestion = yield from suggest_steps(state.observation(state.to_move), seed=len(state.plays))
    return suggestion.card, list(suggestion.reason)


def hold_ms(level: str, thought: float, searched: float = 0.0) -> int:
    """How long a card a computer player of ``level`` chose in ``thought`` seconds is held
    before it is shown: to the level's clock cap (hello's ``think_ms``), so that every card of
    that player shows after the same time, whether it held one legal card or several. A
    player without the clock may search past its cap: a card it did not search (one legal
    card) is then held as long as a search it made took, ``searched`` (``Pace``)."""
    cap = think_time(level)
    return 0 if cap is None else max(0, round((max(cap, searched) - thought) * 1000))


class Pace:
    """How long the computer players without the clock searched, so that a card they did not
    search shows no sooner than one they did (``hold_ms``). A search takes its whole budget,
    which may pass the level's cap (docs/challenge.md), and less as a deal's hands empty: a
    card with one legal card is held as long as the last search of its level at the same trick
    of a deal took on this device (the cap, before any). Kept for the device only: it is no part
    of a game's record or replay."""

    def __init__(self) -> None:
        self._searched: dict[tuple[str, int], float] = {}

    def hold_ms(self, level: str, trick: int, thought: float, forced: bool) -> int:
        """The hold of a clockless player's card at ``trick`` (0-12) of a deal; a card it
        searched (not ``forced``) is kept as that trick's pace."""
        key = (level, trick)
        if forced:
            return hold_ms(level, thought, self._searched.get(key, 0.0))
        self._searched[key] = thought
        return hold_ms(level, thought)
