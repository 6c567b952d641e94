"""A game in the terminal: one person against three computer players."""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable

from .cards import SEAT_NAMES
from .cli_io import one_line
from .game import IllegalMoveError, describe, new_game
from .table.errors import brief
from .table.players import bot_levels, make_chooser
from .trick_reasons import explain_trick


def play_in_terminal(
    args: argparse.Namespace,
    read: Callable[[str], str] = input,
    write: Callable[[str], object] = print,
) -> int:
    """Play one game; the person types cards such as ``TD``, or ``?`` for the legal ones.

    ``args`` has ``seed`` (text, or None for a random deal), ``level`` and ``seat``. Returns
    0 when the game is played out, 1 when the person quits (``q`` or end of input).
    """
    levels, _ = bot_levels()
    if args.level not in levels:
        raise ValueError(f"unknown level {brief(args.level)} (levels: {', '.join(levels)})")
    # Seeds are text, as in the web app, so "--seed 42" replays the deal a printed seed names.
    seed = str(args.seed if args.seed is not None else random.SystemRandom().randrange(10**9))
    state = new_game(seed)
    person = args.seat
    # The same computer players, seeded the same way, as the first game of a match in the page.
    bots = {
        seat: make_chooser(args.level, seat, f"bots:{seed}:0:{seat}")
        for seat in range(4)
        if seat != person
    }
    suit = state.suits[person].name.lower()
    write(f"Calypso, seed {seed}. You are {SEAT_NAMES[person]}, playing {suit}.")
    partner = (person + 2) % 4
    others = [SEAT_NAMES[seat] + " (your partner)" * (seat == partner) for seat in bots]
    write(f"{', '.join(others[:-1])} and {others[-1]} play at level {args.level}.")
    shown_tricks = 0

    def show_new_tricks() -> None:
        nonlocal shown_tricks
        for trick in state.tricks[shown_tricks:]:
            cards = " ".join(c.pretty for c in trick.cards)
            trumps = [state.suits[(trick.leader + i) % 4] for i in range(4)]
            why = explain_trick(list(trick.cards), trumps, state.rules, trick.leader)
            write(f"  trick: {SEAT_NAMES[trick.leader]} led {cards}. {why}")
        shown_tricks = len(state.tricks)

    while not state.is_over:
        show_new_tricks()
        seat = state.to_move
        if seat != person:
            card, note = bots[seat](state)
            if note:
                write(f"  ({note})")
            state.play(card)
            continue
        write("")
        write(describe(state, viewer=person))
        while True:
            try:
                text = read("Your card (? for legal cards, q to quit): ").strip()
            except EOFError:
                write("")
                return 1
            if text in ("q", "quit"):
                return 1
            if text == "?":
                write("Legal: " + " ".join(str(c) for c in state.legal_moves()))
                continue
            try:
                state.play(text)
                break
            except IllegalMoveError as exc:
                write("  " + one_line(str(exc)))
    show_new_tricks()
    ns, ew = state.partnership_scores()
    write(str(state))
    ours = ns if person % 2 == 0 else ew
    theirs = ew if person % 2 == 0 else ns
    outcome = "win" if ours > theirs else "lose" if ours < theirs else "draw"
    write(f"You {outcome}: {ours} to {theirs}.")
    return 0
