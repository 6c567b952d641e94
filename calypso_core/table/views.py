"""The table as one seat sees it, as JSON-ready data ready to draw: the page adds no rules.

``table_view`` is what the worker protocol sends to the page after every command: the whole
picture for one seat (never a diff), built only from what that seat may know.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..cards import CARDS, RANK_LETTERS, SEAT_NAMES, SUIT_LETTERS, SUIT_NAMES, SUIT_SYMBOLS
from ..explain import explain_trick
from ..game import CARD_POINTS, LADDER, PILE_POINTS, TRICKS_PER_DEAL

if TYPE_CHECKING:
    from ..game import GameState, Trick
    from ..rules import Rules

PARTNERSHIP_NAMES = ("North\u2013South", "East\u2013West")  # en dashes
# Suits after one's own and the partner's: the two others, ordered so colours alternate
# (black spades and clubs, red hearts and diamonds), keyed by the partner's suit.
_OTHERS_AFTER = {0: (2, 3), 1: (3, 2), 2: (0, 1), 3: (1, 0)}


def card_info(code: int) -> dict[str, str]:
    """A card for drawing: its code ("QH"), rank and suit letters, symbol and spoken name."""
    card = CARDS[code]
    rank = card % 13
    return {
        "card": str(card),
        "rank": RANK_LETTERS[rank],
        "rank_label": "10" if RANK_LETTERS[rank] == "T" else RANK_LETTERS[rank],
        "suit": SUIT_LETTERS[card // 13],
        "symbol": SUIT_SYMBOLS[card // 13],
        "pretty": card.pretty,
        "name": card.name,
    }


def suit_order(own: int) -> tuple[int, int, int, int]:
    """The order of suits in a hand: own suit, partner's suit, then the others."""
    partner = own ^ 1
    return (own, partner, *_OTHERS_AFTER[partner])


def sorted_hand(cards: list[int], own: int) -> list[int]:
    """A hand sorted by ``suit_order`` and, within a suit, high to low."""
    order = {suit: i for i, suit in enumerate(suit_order(own))}
    return sorted(cards, key=lambda c: (order[c // 13], -(c % 13)))


def trick_view(trick: Trick, suits: tuple[int, ...], rules: Rules) -> dict[str, Any]:
    """A completed trick with its winner and the reason, in words."""
    trumps = [suits[(trick.leader + i) % 4] for i in range(len(trick.cards))]
    return {
        "deal": trick.deal,
        "leader": trick.leader,
        "cards": [
            {"seat": (trick.leader + i) % 4, **card_info(c)} for i, c in enumerate(trick.cards)
        ],
        "winner": trick.winner,
        "reason": explain_trick(trick.cards, trumps, rules, trick.leader),
    }


def score_sheet(state: GameState) -> dict[str, Any]:
    """Each player's and partnership's score with its breakdown (docs/rules.md#scoring)."""
    counts = [(state.completed(s), len(state.calypso(s)), state.pile(s)) for s in range(4)]

    def line(completed: int, in_progress: int, pile: int) -> dict[str, int]:
        return {
            "completed": completed,
            "calypso_points": LADDER[completed],
            "in_progress": in_progress,
            "in_progress_points": CARD_POINTS * in_progress,
            "pile": pile,
            "pile_points": PILE_POINTS * pile,
            "total": LADDER[completed] + CARD_POINTS * in_progress + PILE_POINTS * pile,
        }

    players = [
        {"seat": s, "name": SEAT_NAMES[s], "suit": SUIT_LETTERS[state.suits[s]], **line(*counts[s])}
        for s in range(4)
    ]
    partnerships = []
    for side in (0, 1):
        mine, partner = counts[side], counts[side + 2]
        sums = line(mine[0], mine[1] + partner[1], mine[2] + partner[2])
        # The calypso ladder is per player, so a side's calypso points are the two players'.
        sums["completed"] = mine[0] + partner[0]
        sums["calypso_points"] = LADDER[mine[0]] + LADDER[partner[0]]
        sums["total"] = state.score(side) + state.score(side + 2)
        partnerships.append(
            {"side": side, "name": PARTNERSHIP_NAMES[side], "seats": [side, side + 2], **sums}
        )
    ns, ew = state.partnership_scores()
    return {
        "players": players,
        "partnerships": partnerships,
        "winner": None if ns == ew else (0 if ns > ew else 1),
    }


def table_view(state: GameState, seat: int) -> dict[str, Any]:
    """Everything ``seat`` may see of the table, ready to draw."""
    over = state.is_over
    to_move = None if over else state.to_move
    legal = set(state.legal_codes()) if to_move == seat else set()
    own = int(state.suits[seat])
    hand = sorted_hand([int(c) for c in state.hand(seat)], own)
    seats = []
    for s in range(4):
        suit = int(state.suits[s])
        have = {c % 13 for c in state.calypso(s)}
        seats.append({
            "seat": s,
            "name": SEAT_NAMES[s],
            "side": s & 1,
            "is_you": s == seat,
            "is_partner": s == seat ^ 2,
            "suit": SUIT_LETTERS[suit],
            "suit_name": SUIT_NAMES[suit],
            "symbol": SUIT_SYMBOLS[suit],
            "cards_left": state.hand_size(s),
            "calypso": [
                {"rank": RANK_LETTERS[r], "rank_label": "10" if r == 8 else RANK_LETTERS[r],
                 "filled": r in have}
                for r in range(13)
            ],
            "in_progress": len(have),
            "completed": state.completed(s),
            "pile": state.pile(s),
            "score": state.score(s),
            "is_dealer": s == state.dealer,
            "to_move": s == to_move,
        })
    tricks = state.tricks
    suits = tuple(int(s) for s in state.suits)
    last = trick_view(tricks[-1], suits, state.rules) if tricks else None
    if last is not None:
        last["number"] = (len(tricks) - 1) % TRICKS_PER_DEAL + 1
    ns, ew = state.partnership_scores()
    return {
        "you": seat,
        "status": "game_over" if over else ("your_turn" if to_move == seat else "waiting"),
        "is_over": over,
        "to_move": to_move,
        "dealer": state.dealer,
        "deal": min(state.deal, 3) + 1,
        "trick_number": state.trick_number + 1,
        "plays": len(state.plays),
        "stock": state.stock_size,
        "rules": state.rules.to_dict(),
        "seats": seats,
        "hand": [{**card_info(c), "playable": c in legal} for c in hand],
        "trick": {
            "leader": state.leader,
            "cards": [
                {"seat": (state.leader + i) % 4, **card_info(c)}
                for i, c in enumerate(state.trick)
            ],
        },
        "last_trick": last,
        "partnership_scores": [ns, ew],
        "score_sheet": score_sheet(state) if over else None,
    }
