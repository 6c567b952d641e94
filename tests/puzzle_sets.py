"""Puzzle sets made for tests: real games of club players stopped at a position with a choice,
the first legal card called the solution and the others given made-up costs (the protocol's
tests judge answers from the set; whether the costs are true is the miner's and the shipped
set's test)."""

from __future__ import annotations

import json
import random
from typing import Any

from calypso_core.bots import make_bot
from calypso_core.bots.puzzles import SET_FORMAT, SET_VERSION, dealt, encode_choices, puzzle_id
from calypso_core.game import GameState


def club_game_until(seed: str, plays: int) -> GameState:
    """A game of club players from ``seed``, stopped at the first position from ``plays`` cards
    on where the seat to move has more than one legal card."""
    state = dealt(seed)
    bots = [make_bot("club", seat, random.Random(f"{seed}:{seat}")) for seat in range(4)]
    while len(state.plays) < plays or len(state.legal_moves()) < 2:
        seat = state.to_move
        state.play(bots[seat].choose(state.observation(seat), state.legal_moves()))
    return state


def made_set(count: int = 3) -> dict[str, Any]:
    """A set of ``count`` puzzles from as many games, rated 1400, 1500, ...; each's solution
    is its position's first legal card, the others cost 100, 110, ..."""
    games, puzzles = [], []
    for g in range(count):
        seed = f"test:{g}"
        state = club_game_until(seed, 60 + 7 * g)
        legal = state.legal_moves()
        play = len(state.plays)
        games.append([seed, encode_choices(state)])
        costs = [[str(card), 100 + 10 * i] for i, card in enumerate(legal[1:])]
        puzzles.append([puzzle_id(seed, play), g, play, str(legal[0]), costs, ["trump_in"],
                        1400 + 100 * g])
    return {"format": SET_FORMAT, "version": SET_VERSION, "games": games, "puzzles": puzzles}


def made_set_text(count: int = 3) -> str:
    return json.dumps(made_set(count))
