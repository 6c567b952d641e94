"""Views of a position: what one seat may know, and a readable text board."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import RANK_LETTERS, SEAT_NAMES, SUIT_LETTERS, SUIT_SYMBOLS

if TYPE_CHECKING:
    from .game import GameState


def observation(state: GameState, seat: int) -> dict[str, Any]:
    """What ``seat`` may know, as JSON-ready data.

    Public: suits, dealer, every played card (tricks), calypsos, pile counts, hand sizes,
    stock size, scores. Private to the seat: its own hand and, on its turn, its legal moves.
    Never another hand or the order of the stock.
    """
    if type(seat) is not int or not 0 <= seat < 4:
        raise ValueError(f"{seat!r} is not a seat (0-3)")
    over = state.is_over
    return {
        "seat": seat,
        "rules": state.rules.to_dict(),
        "suits": [SUIT_LETTERS[s] for s in state.suits],
        "first_dealer": state.first_dealer,
        "dealer": state.dealer,
        "deal": min(state.deal, 3),
        "trick_number": state.trick_number,
        "is_over": over,
        "to_move": None if over else state.to_move,
        "hand": [str(c) for c in state.hand(seat)],
        "legal_moves": [str(c) for c in state.legal_moves()]
        if not over and state.to_move == seat
        else [],
        "hand_sizes": [state.hand_size(s) for s in range(4)],
        "stock": state.stock_size,
        "trick": {"leader": state.leader, "cards": [str(c) for c in state.trick]},
        "tricks": tricks_json(state),
        "players": players_json(state),
        "partnership_scores": list(state.partnership_scores()),
    }


def tricks_json(state: GameState) -> list[dict[str, Any]]:
    """Every completed trick: deal, leader, cards and winner."""
    return [
        {"deal": t.deal, "leader": t.leader, "cards": [str(c) for c in t.cards], "winner": t.winner}
        for t in state.tricks
    ]


def players_json(state: GameState) -> list[dict[str, Any]]:
    """Each seat's public tally: suit, calypsos completed and in progress, pile, score."""
    return [
        {
            "seat": s,
            "suit": SUIT_LETTERS[state.suits[s]],
            "completed": state.completed(s),
            "in_progress": [str(c) for c in state.calypso(s)],
            "pile": state.pile(s),
            "score": state.score(s),
        }
        for s in range(4)
    ]


def describe(state: GameState, viewer: int | None = None) -> str:
    """A readable board: deal and trick, each seat's suit, hand, calypso and pile, scores.

    With a ``viewer``, only that seat's hand is shown; the others show their size.
    """
    lines = []
    if state.is_over:
        lines.append("Game over")
    else:
        lines.append(
            f"Deal {state.deal + 1} of 4, dealer {SEAT_NAMES[state.dealer]}, "
            f"trick {state.trick_number + 1} of 13, stock {state.stock_size}, "
            f"{SEAT_NAMES[state.to_move]} to play"
        )
    for seat in range(4):
        suit = state.suits[seat]
        made = "".join(RANK_LETTERS[c % 13] for c in state.calypso(seat)) or "-"
        if viewer is None or viewer == seat:
            hand = " ".join(str(c) for c in state.hand(seat)) or "-"
        else:
            hand = f"({state.hand_size(seat)} cards)"
        lines.append(
            f"{SEAT_NAMES[seat]:<5} {SUIT_SYMBOLS[suit]}  calypsos {state.completed(seat)} "
            f"+ [{made}]  pile {state.pile(seat):>3}  score {state.score(seat):>5}  hand {hand}"
        )
    if state.trick:
        cards = " ".join(str(c) for c in state.trick)
        lines.append(f"Trick led by {SEAT_NAMES[state.leader]}: {cards}")
    ns, ew = state.partnership_scores()
    lines.append(f"North-South {ns}, East-West {ew}")
    return "\n".join(lines)
