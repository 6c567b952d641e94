"""The table as data ready to draw: what one seat sees, the seats, and the score sheet.

Cards cross as their two-letter codes ("QH"); the page draws rank and suit from the code.
Deals and tricks are numbered from 0, as in game records. Everything here is built from
what the viewer may know: the public position, and the viewer's own hand when one is shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..cards import CARDS, RANK_LETTERS, SUIT_LETTERS
from ..kernel import TRICKS_PER_DEAL, score_parts
from ..trick_reasons import trick_reason

if TYPE_CHECKING:
    from ..game import GameState, Trick
    from ..messages import Message
    from ..rules import Rules

# Suits after one's own and the partner's: the two others, ordered so colours alternate
# (black spades and clubs, red hearts and diamonds), keyed by the partner's suit.
_OTHERS_AFTER = {0: (2, 3), 1: (3, 2), 2: (0, 1), 3: (1, 0)}


def suit_order(own: int) -> tuple[int, int, int, int]:
    """The order of suits in a hand: own suit, partner's suit, then the others."""
    partner = own ^ 1
    return (own, partner, *_OTHERS_AFTER[partner])


def sorted_hand(cards: list[int], own: int) -> list[int]:
    """A hand sorted by ``suit_order`` and, within a suit, high to low."""
    order = {suit: i for i, suit in enumerate(suit_order(own))}
    return sorted(cards, key=lambda c: (order[c // 13], -(c % 13)))


def codes(cards: Sequence[Any]) -> list[str]:
    """Cards as their codes: ``["QH", "TD"]``."""
    return [str(card) for card in cards]


def trick_item(trick: Trick, suits: tuple[int, ...], rules: Rules) -> dict[str, Any]:
    """A completed trick: its leader, cards in playing order, winner and the reason (a list
    of messages, one per sentence)."""
    trumps = [suits[(trick.leader + i) % 4] for i in range(len(trick.cards))]
    return {
        "leader": trick.leader,
        "cards": codes(trick.cards),
        "winner": trick.winner,
        "reason": trick_reason(trick.cards, trumps, rules, trick.leader),
    }


def seat_tallies(state: GameState) -> list[dict[str, Any]]:
    """What changes at each seat: cards held, the calypso in progress (its ranks, low to
    high), calypsos completed, pile and score."""
    return [
        {
            "cards": state.hand_size(s),
            "calypso": "".join(RANK_LETTERS[c % 13] for c in state.calypso(s)),
            "completed": state.completed(s),
            "pile": state.pile(s),
            "score": state.score(s),
        }
        for s in range(4)
    ]


def deal_scores(state: GameState) -> list[list[int]]:
    """The partnerships' scores ([north_south, east_west]) at the end of each deal played to
    its end, as the game went: the score sheet's deal-by-deal line."""
    again = state.before(0)
    scores = []
    for played, card in enumerate(state.plays, 1):
        again.play(card)
        if played % (4 * TRICKS_PER_DEAL) == 0:
            scores.append(list(again.partnership_scores()))
    return scores


def score_sheet(state: GameState) -> dict[str, Any]:
    """Each player's and partnership's score with its breakdown (docs/rules.md#scoring), and
    the partnerships' scores deal by deal."""
    counts = [(state.completed(s), len(state.calypso(s)), state.pile(s)) for s in range(4)]

    def line(completed: int, in_progress: int, pile: int) -> dict[str, int]:
        points = score_parts(completed, in_progress, pile)
        return {
            "completed": completed,
            "calypso_points": points[0],
            "in_progress": in_progress,
            "in_progress_points": points[1],
            "pile": pile,
            "pile_points": points[2],
            "total": sum(points),
        }

    lines = [line(*counts[s]) for s in range(4)]
    # A side's line is its two players' lines added up (the ladder is per player).
    sides = [{key: lines[side][key] + lines[side + 2][key] for key in lines[side]}
             for side in (0, 1)]
    return {
        "players": lines,
        "sides": sides,
        "winner": state.winner(),
        "deals": deal_scores(state),
    }


def table_view(state: GameState, viewer: int | None, status: str) -> dict[str, Any]:
    """The position as ``viewer`` sees it (None: every hand covered), ready to draw.

    The viewer's hand, in display order, and on their turn the cards they may play; no
    other hand, and no hand at all when covered.
    """
    over = state.is_over
    view: dict[str, Any] = {
        "status": status,
        "viewer": viewer,
        "to_move": None if over else state.to_move,
        "dealer": state.dealer,
        "deal": state.latest_deal,
        "trick": {
            "index": state.trick_number,
            "leader": state.leader,
            "cards": codes(state.trick),
        },
        "plays": len(state.plays),
        "stock": state.stock_size,
        "seats": seat_tallies(state),
        "scores": list(state.partnership_scores()),
        "sheet": score_sheet(state) if over else None,
    }
    if viewer is not None:
        own = int(state.suits[viewer])
        hand = sorted_hand([int(c) for c in state.hand(viewer)], own)
        view["hand"] = [str(CARDS[c]) for c in hand]
        if status == "your_turn":
            legal = set(state.legal_moves())
            view["legal"] = list(dict.fromkeys(str(CARDS[c]) for c in hand if c in legal))
    return view


def seen_by(state: GameState, seat: int) -> dict[str, Any]:
    """A position as ``seat`` saw it (a reviewed card's "try again"): its hand in display
    order, the trick in play, what changes at each seat, the scores; no other hand."""
    own = int(state.suits[seat])
    return {
        "deal": state.latest_deal,
        "dealer": state.dealer,
        "hand": [str(CARDS[c]) for c in sorted_hand([int(c) for c in state.hand(seat)], own)],
        "trick": {
            "index": state.trick_number,
            "leader": state.leader,
            "cards": codes(state.trick),
        },
        "stock": state.stock_size,
        "seats": seat_tallies(state),
        "scores": list(state.partnership_scores()),
    }


def seat_setup(state: GameState, labels: list[Message], levels: tuple[str, ...],
               people: tuple[int, ...], called: list[str]) -> list[dict[str, Any]]:
    """What stays the same at each seat through a match: its label and how it is made
    (``called``: you, name, host or seat), whether a person plays it (else its level), its suit
    and its side."""
    return [
        {
            "label": labels[s],
            "called": called[s],
            "person": s in people,
            "level": levels[s],
            "suit": SUIT_LETTERS[state.suits[s]],
            "side": s % 2,
        }
        for s in range(4)
    ]
