"""Test helpers: decks from hand diagrams, tricks from notation, snapshots of a position."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from calypso_core import Card, GameState, Rules, new_game, parse_cards, to_record
from calypso_core.cards import CARDS

# The seating of the worked examples in docs/rules.md#worked-examples: N spades, E clubs, S hearts,
# W diamonds (North-South hold the majors).
EXAMPLE_SUITS = "SCHD"
SEAT_LETTERS = "NESW"
# Every variant of the game: the 16 combinations of the four rule options.
ALL_RULES = [Rules(*options) for options in itertools.product((False, True), repeat=4)]


def deck_from_hands(first_dealer: int, *deals: Mapping[str, str] | None) -> list[str]:
    """A 208-card deck in which deal k gives each seat the hand written for it.

    Each deal is a mapping of seat letter (N E S W) to its 13 cards, such as
    ``{"N": "AS KS ...", ...}``, or None. Deals left out or None get the cards nobody was
    given, in suit-then-rank order. The dealing convention of docs/rules.md#dealing-and-the-stock is
    applied here, independently of the engine: card i of deal k is at ``deck[52k + i]`` and
    goes to seat ``(dealer_k + 1 + i) % 4``.
    """
    pool = Counter({str(card): 4 for card in CARDS})
    hands_by_deal: list[list[list[str]] | None] = []
    for deal in deals:
        if deal is None:
            hands_by_deal.append(None)
            continue
        assert sorted(deal) == sorted(SEAT_LETTERS), f"a deal names all four seats: {deal}"
        hands = []
        for seat in SEAT_LETTERS:
            cards = [str(card) for card in parse_cards(deal[seat])]
            assert len(cards) == 13, f"{seat} has {len(cards)} cards: {deal[seat]}"
            for card in cards:
                pool[card] -= 1
                assert pool[card] >= 0, f"a fifth {card}"
            hands.append(cards)
        hands_by_deal.append(hands)
    leftovers = sorted(pool.elements(), key=lambda text: int(Card.parse(text)))
    deck: list[str] = []
    for k in range(4):
        given = hands_by_deal[k] if k < len(hands_by_deal) else None
        if given is None:
            deck += leftovers[:52]
            del leftovers[:52]
            continue
        dealer = (first_dealer + k) % 4
        part = [""] * 52
        for index, cards in enumerate(given):
            offset = (index - dealer - 1) % 4
            for j, card in enumerate(cards):
                part[4 * j + offset] = card
        deck += part
    assert not leftovers and len(deck) == 208
    return deck


def position(
    first_dealer: int,
    *deals: Mapping[str, str] | None,
    suits: str = EXAMPLE_SUITS,
    rules: Rules | None = None,
) -> GameState:
    """A new game from hand diagrams (see ``deck_from_hands``); standard rules by default."""
    return new_game(
        rules=rules or Rules(),
        suits=list(suits),
        first_dealer=first_dealer,
        deck=deck_from_hands(first_dealer, *deals),
    )


def play_tricks(state: GameState, *tricks: str) -> None:
    """Play whole tricks written in playing order, such as ``"AS 2D QC 2C"``."""
    for trick in tricks:
        cards = trick.split()
        assert len(cards) == 4, trick
        for card in cards:
            state.play(card)


def play_cards(state: GameState, cards: str) -> None:
    """Play cards written in playing order, such as ``"5C 2D"``, even part of a trick."""
    for card in cards.split():
        state.play(card)


def hand_text(state: GameState, seat: int) -> str:
    return " ".join(str(card) for card in state.hand(seat))


def snapshot(state: GameState) -> dict[str, Any]:
    """Everything observable about a position through the public API, as plain data."""
    return {
        "record": to_record(state),
        "is_over": state.is_over,
        "to_move": state.to_move,
        "deal": state.deal,
        "dealer": state.dealer,
        "leader": state.leader,
        "trick_number": state.trick_number,
        "stock": [str(card) for card in state.unseen_stock()],
        "legal": [str(card) for card in state.legal_moves()],
        "trick": [str(card) for card in state.trick],
        "tricks": [
            (t.deal, t.leader, [str(card) for card in t.cards], t.winner) for t in state.tricks
        ],
        "hands": [[str(card) for card in state.hand(seat)] for seat in range(4)],
        "calypsos": [[str(card) for card in state.calypso(seat)] for seat in range(4)],
        "completed": [state.completed(seat) for seat in range(4)],
        "piles": [state.pile(seat) for seat in range(4)],
        "scores": state.scores(),
        "partnerships": state.partnership_scores(),
        "observations": [state.observation(seat) for seat in range(4)],
        "text": str(state),
    }


def unseen_places(state: GameState, seat: int) -> list[int]:
    """The deck places of the cards ``seat`` has not seen: the stock, then the cards the
    other three seats still hold in this deal."""
    deck = [str(card) for card in state.deck]
    deal = state.deal
    dealer = (state.first_dealer + deal) % 4
    places = list(range(52 * (deal + 1), 208))  # the stock
    for other in range(4):
        if other == seat:
            continue
        still_held = Counter(str(card) for card in state.hand(other))
        for i in range(52):
            place = 52 * deal + i
            if (dealer + 1 + i) % 4 == other and still_held[deck[place]] > 0:
                still_held[deck[place]] -= 1
                places.append(place)
    return places


def rehide(state: GameState, seat: int, rng: random.Random) -> list[str]:
    """A deck that deals the same game as far as ``seat`` can tell, with hidden cards moved.

    Within each suit, the cards still held by the other three seats and the cards of the
    stock are shuffled among their places. Every seat keeps its count of each suit at every
    moment of the game so far, so every past play stays legal and wins the same way; only
    cards ``seat`` has never seen move.
    """
    deck = [str(card) for card in state.deck]
    if state.is_over:
        return deck
    hidden_places = unseen_places(state, seat)
    for suit in "SHDC":
        places = [p for p in hidden_places if deck[p][1] == suit]
        cards = [deck[p] for p in places]
        rng.shuffle(cards)
        for place, card in zip(places, cards, strict=True):
            deck[place] = card
    return deck


def replay(state: GameState, deck: Sequence[str]) -> GameState:
    """The same rules, suits, first dealer and plays as ``state``, on another deck."""
    other = new_game(
        rules=state.rules, suits=state.suits, first_dealer=state.first_dealer, deck=deck
    )
    for card in state.plays:
        other.play(card)
    return other


# North runs his spades (docs/rules.md#building-calypsos, #scoring). West deals, so North
# leads deal 0. North holds twelve different spades and the ace of clubs and wins all 13
# tricks: nobody else plays a card of their own suit. East and West discard six hearts, which
# go to South's calypso although North won; everything else goes to North's pile (34 cards).
NORTH_RUNS_SPADES = {
    "N": "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S AC",
    "E": "2H 3H 4H 2D 3D 4D 5D 6D 7D 8D 9D TD JD",
    "S": "QC KC QD KD AD 2D 3D 4D 2C 3C 4C 5C 6C",
    "W": "5H 6H 7H 2C 3C 4C 5C 6C 7C 8C 9C TC JC",
}
NORTH_RUNS_SPADES_TRICKS = (
    # N    E    S    W
    "AS 2D QC 2C",
    "KS 3D KC 3C",
    "QS 4D QD 4C",
    "JS 5D KD 5C",
    "TS 6D AD 6C",
    "9S 7D 2D 7C",
    "8S 8D 3D 8C",
    "7S 9D 4D 9C",
    "6S TD 2C TC",
    "5S JD 3C JC",
    "4S 2H 4C 5H",
    "3S 3H 5C 6H",
    "AC 4H 6C 7H",
)
# Deal 1 after NORTH_RUNS_SPADES: North deals and East leads the 2♠, which North's calypso
# lacks. North and West hold no spades; South holds the A♠.
NORTH_COMPLETES_DEAL_1 = {
    "E": "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS 8H",
    "S": "AS 8H 9H TH JH QH KH AH 2S 3S 4S 5S 6S",
    "W": "7C 8C 9C TC JC QC KC AC 8D 9D TD JD QD",
    "N": "2D 3D 4D 5D 6D 7D 8D 9D 2H 3H 4H 5H 6H",
}
