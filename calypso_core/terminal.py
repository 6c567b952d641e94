"""A game in the terminal: one person against three computer players, in English or Russian.

Every line it prints is a message of ``calypso_core.messages`` rendered in the chosen
language, from the same catalogs as the page. Cards are typed as their codes (``QH``,
``TD``), whatever the language.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Sequence

from .bots import LEVELS
from .cards import Card, CardParseError, brief_repr
from .cli_io import one_line
from .game import GameState, new_game
from .kernel import DEALS, TRICKS_PER_DEAL
from .messages import Message, message, render
from .table.players import make_chooser
from .trick_reasons import trick_reason


def play_in_terminal(
    args: argparse.Namespace,
    read: Callable[[str], str] = input,
    write: Callable[[str], object] = print,
) -> int:
    """Play one game; the person types cards such as ``TD``, or ``?`` for the legal ones.

    ``args`` has ``seed`` (text, or None for a random deal), ``level``, ``seat`` and
    ``lang`` (``en`` when missing). Returns 0 when the game is played out, 1 when the person
    quits (``q`` or end of input).
    """
    lang = getattr(args, "lang", None) or "en"
    if args.level not in LEVELS:
        raise ValueError(f"unknown level {brief_repr(args.level)} (levels: {', '.join(LEVELS)})")

    def say(said: Message | list[Message]) -> None:
        write(render(said, lang))

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
    say(message("terminal.intro", seed=seed, seat=person, suit=str(state.suits[person])))
    say(message("terminal.table", partner_seat=person ^ 2, opponent_seat=person % 2 ^ 1,
                other_seat=person % 2 ^ 1 + 2, level=args.level))
    shown_tricks = 0

    def show_new_tricks() -> None:
        nonlocal shown_tricks
        for trick in state.tricks[shown_tricks:]:
            trumps = [state.suits[(trick.leader + i) % 4] for i in range(4)]
            reason = trick_reason(list(trick.cards), trumps, state.rules, trick.leader)
            say(message("terminal.trick", leader_seat=trick.leader,
                        cards=cards_text(trick.cards, lang), reason=reason))
        shown_tricks = len(state.tricks)

    while not state.is_over:
        show_new_tricks()
        seat = state.to_move
        if seat != person:
            card, note = bots[seat](state)
            if note:
                say(message("terminal.note", note=note))
            state.play(card)
            continue
        write("")
        write(board(state, person, lang))
        while True:
            try:
                text = read(render(message("terminal.prompt"), lang)).strip()
            except EOFError:
                write("")
                return 1
            if text in ("q", "quit"):
                return 1
            if text == "?":
                say(message("terminal.legal", cards=" ".join(str(c) for c in state.legal_moves())))
                continue
            refusal = _refusal(state, text)
            if refusal is None:
                state.play(text)
                break
            write("  " + one_line(render(refusal, lang)))
    show_new_tricks()
    write(board(state, None, lang))
    ns, ew = state.partnership_scores()
    ours, theirs = (ns, ew) if person % 2 == 0 else (ew, ns)
    outcome = "win" if ours > theirs else "lose" if ours < theirs else "draw"
    say(message(f"terminal.{outcome}", ours=ours, theirs=theirs))
    return 0


def _refusal(state: GameState, text: str) -> Message | None:
    """Why a typed card cannot be played now (not a card, not held, must follow), or None."""
    try:
        card = Card.parse(text)
    except CardParseError:
        return message("terminal.not_a_card", text=brief_repr(text))
    if card not in state.hand(state.to_move):
        return message("error.not_held", card=str(card))
    if not state.is_legal(card):
        return message("error.must_follow", card=str(card), suit=str(state.trick[0].suit))
    return None


def cards_text(cards: Sequence[Card], lang: str) -> str:
    """Cards in their short forms, one after another: "Q♥ 10♦" (in Russian "Д♥ 10♦")."""
    return " ".join(render(message("card.short", card=str(card)), lang) for card in cards)


def board(state: GameState, viewer: int | None, lang: str) -> str:
    """The table in lines: deal and trick, each seat's suit, calypsos, pile, score and hand
    (the viewer's cards as they are typed; only a count of the others), the trick in play and
    the partnerships' scores."""
    said: list[Message] = []
    if state.is_over:
        said.append(message("board.over"))
    else:
        said.append(message(
            "board.status", deal=state.deal + 1, deals=DEALS, dealer_seat=state.dealer,
            trick=state.trick_number + 1, tricks=TRICKS_PER_DEAL, stock=state.stock_size,
            mover_seat=state.to_move))
    for seat in range(4):
        made = " ".join(render(message("card.rank", rank=c.rank.letter), lang)
                        for c in state.calypso(seat)) or "-"
        hand = (message("board.hand", cards=" ".join(str(c) for c in state.hand(seat)) or "-")
                if viewer is None or viewer == seat
                else message("board.hidden_hand", count=state.hand_size(seat)))
        said.append(message(
            "board.seat", seat=seat, suit=str(state.suits[seat]), completed=state.completed(seat),
            calypso=made, pile=state.pile(seat), score=state.score(seat), hand=hand))
    if state.trick:
        said.append(message("board.trick", leader_seat=state.leader,
                            cards=cards_text(state.trick, lang)))
    ns, ew = state.partnership_scores()
    said.append(message("board.scores", ns=ns, ew=ew))
    return "\n".join(render(line, lang) for line in said)
