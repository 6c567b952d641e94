"""A game in the terminal: one person against three computer players, in English or Russian.

Every line it prints is a message of ``calypso_core.messages`` rendered in the chosen
language, from the same catalogs as the page. Cards are shown in one notation, the page's
short form (``Q♥``, ``10♦``; ``Д♥`` in Russian), in the hand as in the tricks; a card is typed
either so or as its code (``QH``, ``TD``, ``10D``), which needs no suit symbol on the keyboard.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Sequence

from .bots import LEVELS
from .cards import CARDS, Card, CardParseError, brief_repr
from .cli_io import one_line
from .days import check_seed, machine_today
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
    """Play one game; the person types cards such as ``TD`` or ``10♦``, ``?`` for the legal
    ones, ``q`` to quit.

    ``args`` has ``seed`` (text, or None for a random deal), ``level``, ``seat`` and
    ``lang`` (``en`` when missing). Returns 0 when the game is played out, and when the
    person quits on purpose (``q``, or the end of input: Ctrl+D), after saying so.
    """
    lang = getattr(args, "lang", None) or "en"
    if args.level not in LEVELS:
        raise ValueError(f"unknown level {brief_repr(args.level)} (levels: {', '.join(LEVELS)})")

    def say(said: Message | list[Message]) -> None:
        write(render(said, lang))

    # Seeds are text, as in the web app, so "--seed 42" replays the deal a printed seed names.
    seed = str(args.seed if args.seed is not None else random.SystemRandom().randrange(10**9))
    check_seed(seed, machine_today())  # daily:YYYY-MM-DD of a later day: not before its day
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
            except EOFError:  # Ctrl+D: the line it ends is left open
                write("")
                text = "q"
            if text.lower() in ("q", "quit"):
                say(message("terminal.quit", cards=len(state.plays), seed=seed))
                return 0
            if text == "?":
                say(message("terminal.legal", cards=cards_text(state.legal_moves(), lang)))
                continue
            chosen = _playable(state, text, lang)
            if isinstance(chosen, Card):
                state.play(chosen)
                break
            write("  " + one_line(render(chosen, lang)))
    show_new_tricks()
    write(board(state, None, lang))
    ns, ew = state.partnership_scores()
    ours, theirs = (ns, ew) if person % 2 == 0 else (ew, ns)
    outcome = "win" if ours > theirs else "lose" if ours < theirs else "draw"
    say(message(f"terminal.{outcome}", ours=ours, theirs=theirs))
    return 0


def typed_card(text: str, lang: str) -> Card | None:
    """The card a person typed: as the terminal shows it (``10♦``, ``Д♥``; any case) or as its
    code (``TD``, ``10D``, ``td``); None when the text names no card."""
    shown = {cards_text([card], lang).casefold(): card for card in CARDS}
    card = shown.get(text.strip().casefold())
    if card is not None:
        return card
    try:
        return Card.parse(text)
    except CardParseError:
        return None


def _playable(state: GameState, text: str, lang: str) -> Card | Message:
    """The typed card if it can be played now, else why not (not a card, not held, must
    follow)."""
    card = typed_card(text, lang)
    if card is None:
        return message("terminal.not_a_card", text=brief_repr(text))
    if card not in state.hand(state.to_move):
        return message("error.not_held", card=str(card))
    if not state.is_legal(card):
        return message("error.must_follow", card=str(card), suit=str(state.trick[0].suit))
    return card


def cards_text(cards: Sequence[Card], lang: str) -> str:
    """Cards in their short forms, one after another: "Q♥ 10♦" (in Russian "Д♥ 10♦")."""
    return " ".join(render(message("card.short", card=str(card)), lang) for card in cards)


def board(state: GameState, viewer: int | None, lang: str) -> str:
    """The table in lines: deal and trick, each seat's suit, calypsos, pile, score and hand
    (the viewer's cards; only a count of the others), the trick in play and the partnerships'
    scores. Cards are in their short forms, as in the tricks."""
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
        hand = (message("board.hand", cards=cards_text(state.hand(seat), lang) or "-")
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
