"""A game's story for the table: the cut, the log of a deal, replays and taking back moves.

- ``the_cut`` tells the cut for partnerships, first dealer and choice of suit
  (docs/rules.md#the-deck-and-the-cut) that agrees with a game's suits and first dealer,
  drawn from the match seed, so the same seed always tells the same cut.
- ``deal_log`` lists the tricks of one deal with leader, cards, winner and why, as the
  players at the table saw them (everything in it was played face up), and once the deal
  is over what it brought each partnership (``deal_summary``).
- ``replay_position`` shows a game after its first *k* tricks (a finished one) with
  every hand face up; it is never for a game in progress.
- ``undo_length`` says how many plays to keep to take back a seat's last card.
"""

from __future__ import annotations

import random
from typing import Any

from ..cards import SEAT_NAMES, SUIT_LETTERS, Card
from ..game import GameState
from ..kernel import DEALS, TRICKS_PER_DEAL
from ..record import from_record, to_record
from . import words
from .views import codes, score_sheet, sorted_hand, trick_item

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
    return {
        "cards": [str(cards[seat]) for seat in range(4)],
        "order": order,
        "chooser": chooser,
        "partner": partner,
        "suit": SUIT_LETTERS[suit],
        "dealer": first_dealer,
        "text": words.cut_story(chooser, cards, suit, mate),
    }


def log_deal(state: GameState) -> int:
    """The deal the log shows: that of the last card played (so a finished deal stays in
    view, with its summary, until the next deal's first card: from then on the log is of the
    deal being played), else the first."""
    plays = len(state.plays)
    return (plays - 1) // PLAYS_PER_DEAL if plays else 0


def deal_log(state: GameState, deal: int | None = None) -> dict[str, Any]:
    """The completed tricks of one deal (0-based; default ``log_deal``), each with its
    leader, cards, winner and the reason (messages); once the deal is over, its summary."""
    last_deal = state.latest_deal
    deal = log_deal(state) if deal is None else deal
    if type(deal) is not int or not 0 <= deal <= last_deal:
        raise ValueError(f"{deal!r} is not a deal of this game so far (0-{last_deal})")
    suits = tuple(int(s) for s in state.suits)
    dealer = (state.first_dealer + deal) % 4
    tricks = state.tricks[TRICKS_PER_DEAL * deal: TRICKS_PER_DEAL * (deal + 1)]
    return {
        "deal": deal,
        "dealer": dealer,
        "opening": words.deal_opening(deal, dealer, DEALS, TRICKS_PER_DEAL),
        "tricks": [trick_item(t, suits, state.rules) for t in tricks],
        "summary": deal_summary(state, deal) if len(tricks) == TRICKS_PER_DEAL else None,
    }


def deal_summary(state: GameState, deal: int) -> dict[str, list[int]]:
    """What a finished deal (0-based) brought each partnership, North-South first: the
    tricks it won, the calypsos it completed and the points it gained in that deal.

    Raises ValueError for a deal that is not over.
    """
    end = PLAYS_PER_DEAL * (deal + 1)
    if type(deal) is not int or deal < 0 or len(state.plays) < end:
        raise ValueError(f"{deal!r} is not a finished deal of this game")
    won = [0, 0]
    for trick in state.tricks[TRICKS_PER_DEAL * deal: TRICKS_PER_DEAL * (deal + 1)]:
        won[trick.winner % 2] += 1
    # Cards of a trick not yet complete change no tally: the state stands for the deal's end
    # until the next trick is gathered.
    after = state if len(state.plays) < end + 4 else truncated(state, end)
    before = truncated(state, end - PLAYS_PER_DEAL)

    def calypsos(at: GameState) -> list[int]:
        return [at.completed(side) + at.completed(side + 2) for side in (0, 1)]

    return {
        "tricks": won,
        "calypsos": [a - b for a, b in zip(calypsos(after), calypsos(before), strict=True)],
        "points": [a - b for a, b in zip(after.partnership_scores(), before.partnership_scores(),
                                         strict=True)],
    }


def _face_up(state: GameState, seat: int, suit: int) -> list[str]:
    return codes([Card(c) for c in sorted_hand([int(c) for c in state.hand(seat)], suit)])


def replay_position(state: GameState, tricks: int) -> dict[str, Any]:
    """A game after its first ``tricks`` tricks (0-52): a finished game's with every hand
    face up; a game not over shows only what was public (each hand is ``null``, with the
    number of cards it ``held``), for its deck is a secret until its last card.

    Returns the hands, calypsos (low to high), piles and scores, the trick just completed
    with its reason, and the scores at that point.
    """
    total = len(state.tricks)
    if type(tricks) is not int or not 0 <= tricks <= total:
        raise ValueError(f"{tricks!r} is not a number of tricks from 0 to {total}")
    at = truncated(state, 4 * tricks)
    suits = tuple(int(s) for s in at.suits)
    last = None
    if tricks:
        last = {"deal": (tricks - 1) // TRICKS_PER_DEAL, "index": (tricks - 1) % TRICKS_PER_DEAL,
                **trick_item(at.tricks[-1], suits, at.rules)}
    over = at.is_over
    return {
        "tricks": tricks,
        "total": total,
        "deal": at.latest_deal,
        "dealer": at.dealer,
        "stock": at.stock_size,
        "trick": last,
        "seats": [
            {
                "suit": SUIT_LETTERS[suits[seat]],
                "hand": _face_up(at, seat, suits[seat]) if state.is_over else None,
                "held": len(at.hand(seat)),
                "calypso": codes(at.calypso(seat)),
                "completed": at.completed(seat),
                "pile": at.pile(seat),
                "score": at.score(seat),
            }
            for seat in range(4)
        ],
        "scores": list(at.partnership_scores()),
        "sheet": score_sheet(at) if over else None,
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
