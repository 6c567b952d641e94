"""A game's story for the table: the cut, the log of a deal, replays and taking back moves.

- ``the_cut`` tells the cut for partnerships, first dealer and choice of suit
  (docs/rules.md#the-deck-and-the-cut) that agrees with a game's suits and first dealer,
  drawn from the match seed, so the same seed always tells the same cut.
- ``deal_log`` lists the tricks of one deal with leader, cards, winner and why, as the
  player at the table saw them (everything in it was played face up).
- ``replay_position`` shows a finished (or imported) game after its first *k* tricks with
  every hand face up; it is never for a game in progress.
- ``undo_length`` says how many plays to keep to take back a seat's last card.
"""

from __future__ import annotations

import random
from typing import Any

from ..cards import SEAT_NAMES, SUIT_LETTERS, SUIT_NAMES, SUIT_SYMBOLS, Card
from ..game import TRICKS_PER_DEAL, GameState
from ..record import from_record, to_record
from .views import card_info, score_sheet, sorted_hand, trick_view

PLAYS_PER_DEAL = 4 * TRICKS_PER_DEAL


def play_seats(state: GameState) -> list[int]:
    """The seat that played each card of ``state.plays``, in order."""
    seats = []
    for trick in state.tricks:
        seats += [(trick.leader + i) % 4 for i in range(len(trick.cards))]
    seats += [(state.leader + i) % 4 for i in range(len(state.trick))]
    return seats


def the_cut(seed: str, suits: tuple[int, ...], first_dealer: int) -> dict[str, Any]:
    """The cut before a match: one card per seat, the two highest cutters partners, the
    highest choosing a suit and dealing first; consistent with ``suits`` and ``first_dealer``.

    Ranks are distinct (a tie is cut again at the table; here it never arises).
    """
    rng = random.Random(f"cut:{seed}")
    ranks = sorted(rng.sample(range(13), 4), reverse=True)
    others = [s for s in range(4) if s % 2 != first_dealer % 2]
    rng.shuffle(others)
    order = [first_dealer, first_dealer ^ 2, *others]  # high to low
    cards = {
        seat: Card(rng.randrange(4) * 13 + rank)
        for seat, rank in zip(order, ranks, strict=True)
    }
    chooser, partner = first_dealer, first_dealer ^ 2
    suit, mate = int(suits[chooser]), int(suits[partner])
    text = (
        f"{SEAT_NAMES[chooser]} cuts highest ({cards[chooser].pretty}) and "
        f"{SEAT_NAMES[partner]} next ({cards[partner].pretty}): they are partners. "
        f"{SEAT_NAMES[chooser]} chooses {SUIT_NAMES[suit]} {SUIT_SYMBOLS[suit]}, "
        f"{SEAT_NAMES[partner]} takes {SUIT_NAMES[mate]} {SUIT_SYMBOLS[mate]}, "
        f"and {SEAT_NAMES[chooser]} deals first."
    )
    return {
        "cards": [{"seat": seat, **card_info(cards[seat])} for seat in range(4)],
        "order": order,
        "chooser": chooser,
        "partner": partner,
        "suit": SUIT_LETTERS[suit],
        "dealer": first_dealer,
        "text": text,
    }


def deal_log(state: GameState, deal: int | None = None) -> dict[str, Any]:
    """The completed tricks of one deal (0-based; default the deal in play), each with its
    leader, cards, winner and the reason in words."""
    last_deal = min(state.deal, 3)
    deal = last_deal if deal is None else deal
    if type(deal) is not int or not 0 <= deal <= last_deal:
        raise ValueError(f"{deal!r} is not a deal of this game so far (0-{last_deal})")
    suits = tuple(int(s) for s in state.suits)
    dealer = (state.first_dealer + deal) % 4
    tricks = []
    for index, trick in enumerate(state.tricks):
        if trick.deal != deal:
            continue
        item = trick_view(trick, suits, state.rules)
        item["number"] = index % TRICKS_PER_DEAL + 1
        tricks.append(item)
    return {
        "deal": deal + 1,
        "dealer": dealer,
        "first_leader": (dealer + 1) % 4,
        "opening": f"Deal {deal + 1} of 4: {SEAT_NAMES[dealer]} deals 13 cards to each "
                   f"player; {SEAT_NAMES[(dealer + 1) % 4]} leads.",
        "tricks": tricks,
    }


def replay_position(state: GameState, tricks: int, *, reveal: bool = False) -> dict[str, Any]:
    """A finished game after its first ``tricks`` tricks (0-52), every hand face up.

    Returns the hands, calypsos, piles and scores, the trick just completed with its reason,
    and the scores at that point. Refuses a game in progress (its hands are hidden) unless
    ``reveal`` says its hidden cards are no secret (an imported record).
    """
    if not state.is_over and not reveal:
        raise ValueError("only a finished game can be replayed with its hands shown")
    total = len(state.tricks)
    if type(tricks) is not int or not 0 <= tricks <= total:
        raise ValueError(f"{tricks!r} is not a number of tricks from 0 to {total}")
    record = to_record(state)
    record["plays"] = record["plays"][: 4 * tricks]
    at = from_record(record)
    suits = tuple(int(s) for s in at.suits)
    last = None
    if tricks:
        last = trick_view(at.tricks[-1], suits, at.rules)
        last["number"] = (tricks - 1) % TRICKS_PER_DEAL + 1
    seats = []
    for seat in range(4):
        own = suits[seat]
        seats.append({
            "seat": seat,
            "name": SEAT_NAMES[seat],
            "symbol": SUIT_SYMBOLS[own],
            "suit": str(at.suits[seat]),
            "hand": [card_info(c) for c in sorted_hand([int(c) for c in at.hand(seat)], own)],
            "calypso": [card_info(c) for c in at.calypso(seat)],
            "completed": at.completed(seat),
            "pile": at.pile(seat),
            "score": at.score(seat),
        })
    over = at.is_over
    return {
        "tricks": tricks,
        "total": total,
        "deal": min(at.deal, 3) + 1 if not over else 4,
        "dealer": at.dealer,
        "stock": at.stock_size,
        "trick": last,
        "seats": seats,
        "partnership_scores": list(at.partnership_scores()),
        "score_sheet": score_sheet(at) if over else None,
    }


def undo_length(state: GameState, seat: int) -> int:
    """How many plays to keep to take back ``seat``'s last card (and every card after it).

    Raises ValueError when the seat has played no card in this game.
    """
    seats = play_seats(state)
    for index in range(len(seats) - 1, -1, -1):
        if seats[index] == seat:
            return index
    raise ValueError(f"{SEAT_NAMES[seat]} has played no card in this game")


def truncated(state: GameState, length: int) -> GameState:
    """The same game rebuilt with only its first ``length`` plays."""
    record = to_record(state)
    record["plays"] = record["plays"][:length]
    return from_record(record)
