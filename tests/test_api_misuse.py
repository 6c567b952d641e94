"""Every misuse of the engine API is a ValueError with a precise message (a RecordError for
records, a CardParseError for cards, an IllegalMoveError for moves: all ValueErrors), never
a TypeError, AttributeError or IndexError; the state's recipe cannot be assigned; copies
are independent."""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from calypso_core import (
    Card,
    CardParseError,
    GameState,
    IllegalMoveError,
    Rank,
    RecordError,
    Rules,
    Suit,
    from_record,
    new_game,
    parse_cards,
    parse_record,
    seat_name,
    to_record,
    trick_winner,
)
from calypso_core.bots import make_bot, play_game, suggest
from calypso_core.trick_reasons import explain_trick

HUGE = 10**5000  # past Python's limit for turning an int into text (4,300 digits)
NOT_A_SEAT = r" is not a seat \(0-3: North, East, South, West\)$"


def state() -> GameState:
    return new_game(3)


def record_with(**changes: Any) -> dict[str, Any]:
    return {**to_record(new_game(3)), **changes}


MISUSES: list[tuple[str, Callable[[], object], type[ValueError], str]] = [
    # new_game and the constructor
    ("seed is a list", lambda: new_game(seed=[1]),  # type: ignore[arg-type]
     ValueError, r"^a seed is a whole number or a text, not \[1\]$"),
    ("seed is a float", lambda: new_game(seed=1.5),  # type: ignore[arg-type]
     ValueError, r"^a seed is a whole number or a text, not 1\.5$"),
    ("seed is a bool", lambda: new_game(seed=True),
     ValueError, r"^a seed is a whole number or a text, not True$"),
    ("rules is None", lambda: new_game(rules=None),  # type: ignore[arg-type]
     ValueError, r"^rules must be a Rules, not None$"),
    ("rules is a dict", lambda: new_game(rules={"all_fours": True}),  # type: ignore[arg-type]
     ValueError, r"^rules must be a Rules, not \{'all_fours': True\}$"),
    ("suits is a number", lambda: new_game(suits=5),  # type: ignore[arg-type]
     ValueError, r"^suits must be four suits, one per seat, not 5$"),
    ("suits is text", lambda: new_game(suits="SDHC"),
     ValueError, r"^suits must be four suits, one per seat, not 'SDHC'$"),
    ("a suit is a Rank", lambda: new_game(suits=[Rank.ACE, "D", "H", "C"]),  # type: ignore[list-item]
     ValueError, r"^suits\[0\]: <Rank.ACE: 12> is not a suit$"),
    ("deck is a number", lambda: new_game(deck=5),  # type: ignore[arg-type]
     ValueError, r"^deck must be a list of 208 cards, not 5$"),
    ("first dealer is True", lambda: new_game(first_dealer=True), ValueError, "^True" + NOT_A_SEAT),
    ("first dealer is huge", lambda: new_game(first_dealer=HUGE),
     ValueError, "^<an integer of 16610 bits>" + NOT_A_SEAT),
    ("constructor without rules", lambda: GameState(None, "SDHC", 0, []),  # type: ignore[arg-type]
     ValueError, r"^rules must be a Rules, not None$"),
    ("Rules option is 1", lambda: Rules(all_fours=1),  # type: ignore[arg-type]
     ValueError, r"^Rules\.all_fours must be True or False, not 1$"),
    ("Rules option is None", lambda: Rules(None),  # type: ignore[arg-type]
     ValueError, r"^Rules\.lead_trump_must_be_beaten must be True or False, not None$"),
    # seats
    *[(f"{name}(4)", (lambda name=name: getattr(state(), name)(4)), ValueError, "^4" + NOT_A_SEAT)
      for name in ("hand", "hand_size", "calypso", "completed", "pile", "score", "observation")],
    *[(f"{name}(True)", (lambda name=name: getattr(state(), name)(True)), ValueError,
       "^True" + NOT_A_SEAT)
      for name in ("hand", "hand_size", "calypso", "completed", "pile", "score", "observation")],
    ("hand(-1)", lambda: state().hand(-1), ValueError, "^-1" + NOT_A_SEAT),
    ("hand('0')", lambda: state().hand("0"), ValueError, "^'0'" + NOT_A_SEAT),  # type: ignore[arg-type]
    ("hand(HUGE)", lambda: state().hand(HUGE),
     ValueError, "^<an integer of 16610 bits>" + NOT_A_SEAT),
    ("seat_name(4)", lambda: seat_name(4), ValueError, "^4" + NOT_A_SEAT),
    ("explain_trick leader 4", lambda: explain_trick(["9H"], ["S"], leader=4),
     ValueError, "^4" + NOT_A_SEAT),
    # cards: a Suit or a Rank is not a card
    ("Card(Suit)", lambda: Card(Suit.HEARTS),
     CardParseError, r"^<Suit.HEARTS: 1> is not a card code \(0-51\)$"),
    ("Card(Rank)", lambda: Card(Rank.ACE),
     CardParseError, r"^<Rank.ACE: 12> is not a card code \(0-51\)$"),
    ("Card(HUGE)", lambda: Card(HUGE),
     CardParseError, r"^<an integer of 16610 bits> is not a card code \(0-51\)$"),
    ("Card.of(suit, rank)", lambda: Card.of(Suit.HEARTS, Rank.ACE),
     CardParseError, r"^<Suit.HEARTS: 1> is not a rank \(Rank or 0-12\)$"),
    ("Card.of(rank, 13)", lambda: Card.of(Rank.ACE, 13),
     CardParseError, r"^13 is not a suit \(Suit or 0-3\)$"),
    ("play(Rank)", lambda: state().play(Rank.ACE),
     IllegalMoveError, r"^<Rank.ACE: 12> is not a card \(move for \w+\)$"),
    ("play(Suit)", lambda: state().play(Suit.HEARTS),
     IllegalMoveError, r"^<Suit.HEARTS: 1> is not a card \(move for \w+\)$"),
    ("play(None)", lambda: state().play(None),  # type: ignore[arg-type]
     IllegalMoveError, r"^None is not a card \(move for \w+\)$"),
    ("parse_cards(None)", lambda: parse_cards(None),  # type: ignore[arg-type]
     CardParseError, r"^None is not a list of cards \(expected '6S 5S'\)$"),
    # the trick-winner rule
    ("trick_winner rules 'x'", lambda: trick_winner(["6S"], ["S"], rules="x"),  # type: ignore[arg-type]
     ValueError, r"^rules must be a Rules, not 'x'$"),
    ("trick_winner of None", lambda: trick_winner(None, None),  # type: ignore[arg-type]
     ValueError, r"^a trick is a list of 1-4 cards and a list of one personal suit for each, "
                 r"not None and None$"),
    ("trick_winner of text", lambda: trick_winner("6S", "S"),
     ValueError, r"^a trick is a list of 1-4 cards .*, not '6S' and 'S'$"),
    ("trick_winner card is a Suit", lambda: trick_winner([Suit.HEARTS], ["S"]),
     CardParseError, r"^<Suit.HEARTS: 1> is not a card code \(0-51\)$"),
    ("trick_winner suit is a Rank", lambda: trick_winner(["6S"], [Rank.TWO]),
     CardParseError, r"^<Rank.TWO: 0> is not a suit$"),
    ("trick_winner suit is a Card", lambda: trick_winner(["6S"], [Card.parse("2H")]),
     CardParseError, r"^Card.parse\('2H'\) is not a suit$"),
    # records
    ("parse_record(None)", lambda: parse_record(None),  # type: ignore[arg-type]
     RecordError, r"^a game record is JSON text \(str or bytes\), not None$"),
    ("parse_record(dict)", lambda: parse_record({}),  # type: ignore[arg-type]
     RecordError, r"^a game record is JSON text \(str or bytes\), not \{\}$"),
    ("version of 5,000 digits", lambda: from_record(record_with(version=HUGE)),
     RecordError,
     r"^unsupported record version <an integer of 16610 bits> \(this reads 1 and 2\)$"),
    ("version of 5,000 digits as text",
     lambda: parse_record('{"format": "calypso-record", "version": 1' + "0" * 5000 + "}"),
     RecordError, r"^game record is not valid JSON: Exceeds the limit"),
    ("first dealer of 5,000 digits", lambda: from_record(record_with(first_dealer=HUGE)),
     RecordError, "^<an integer of 16610 bits>" + NOT_A_SEAT),
    ("a play of 5,000 digits", lambda: from_record(record_with(plays=[HUGE])),
     RecordError, r"^plays\[0\] must be a string, not <an integer of 16610 bits>$"),
    ("to_record(None)", lambda: to_record(None),  # type: ignore[arg-type]
     ValueError, r"^a game record is made from a GameState, not None$"),
    # bots around the state
    ("suggest(None)", lambda: suggest(None),  # type: ignore[arg-type]
     ValueError, r"^a suggestion needs a GameState or the observation of the seat to move, "
                 r"not None$"),
    ("play_game(None)", lambda: play_game(None, []),  # type: ignore[arg-type]
     ValueError, r"^play_game needs a GameState, not None$"),
    ("make_bot seat 4", lambda: make_bot("random", 4, random.Random(0)),
     ValueError, r"^4 is not a seat \(0-3\)$"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "call", "error", "message"), MISUSES, ids=[m[0] for m in MISUSES])
def test_a_misuse_raises_a_precise_value_error(
    name: str, call: Callable[[], object], error: type[ValueError], message: str
) -> None:
    with pytest.raises(ValueError) as caught:
        call()
    assert type(caught.value) is error
    assert re.search(message, str(caught.value)), str(caught.value)


# Values that break assumptions, for every argument of the API.
WEIRD: list[Any] = [
    None, True, False, -1, 4, 52, 2**64, HUGE, 1.5, "", "x" * 10_000, "\ud800", b"TD",
    [], [1], {}, {"a": 1}, Suit.HEARTS, Rank.ACE, Card.parse("QH"), object(), Rules(),
    [[[[[[[[[[]]]]]]]]]],
]  # fmt: skip
SOME_STATE = new_game(3)
CALLS: list[tuple[str, Callable[[Any], object]]] = [
    ("new_game(seed)", lambda v: new_game(v)),
    ("new_game(rules)", lambda v: new_game(1, v)),
    ("new_game(suits)", lambda v: new_game(1, suits=v)),
    ("new_game(first_dealer)", lambda v: new_game(1, first_dealer=v)),
    ("new_game(deck)", lambda v: new_game(1, deck=v)),
    ("GameState(rules)", lambda v: GameState(v, "SDHC", 0, SOME_STATE.deck)),
    ("GameState(suits)", lambda v: GameState(Rules(), v, 0, SOME_STATE.deck)),
    ("GameState(first_dealer)", lambda v: GameState(Rules(), ["S", "D", "H", "C"], v, [])),
    ("GameState(deck)", lambda v: GameState(Rules(), ["S", "D", "H", "C"], 0, v)),
    ("Rules(option)", lambda v: Rules(all_fours=v)),
    ("Rules.from_dict", lambda v: Rules.from_dict(v)),
    ("Card", lambda v: Card(v)),
    ("Card.parse", lambda v: Card.parse(v)),
    ("Card.of(rank)", lambda v: Card.of(v, 0)),
    ("Card.of(suit)", lambda v: Card.of(0, v)),
    ("Suit.parse", lambda v: Suit.parse(v)),
    ("Rank.parse", lambda v: Rank.parse(v)),
    ("seat_name", lambda v: seat_name(v)),
    ("parse_cards", lambda v: parse_cards(v)),
    ("trick_winner(cards)", lambda v: trick_winner(v, ["S"])),
    ("trick_winner(card)", lambda v: trick_winner([v], ["S"])),
    ("trick_winner(trumps)", lambda v: trick_winner(["6S"], v)),
    ("trick_winner(suit)", lambda v: trick_winner(["6S"], [v])),
    ("trick_winner(rules)", lambda v: trick_winner(["6S"], ["S"], v)),
    ("explain_trick(leader)", lambda v: explain_trick(["6S"], ["S"], Rules(), v)),
    ("state.play", lambda v: SOME_STATE.clone().play(v)),
    ("state.is_legal", lambda v: SOME_STATE.is_legal(v)),
    *[(f"state.{name}", (lambda v, name=name: getattr(SOME_STATE, name)(v)))
      for name in ("hand", "hand_size", "calypso", "completed", "pile", "score", "observation")],
    ("to_record", lambda v: to_record(v)),
    ("from_record", lambda v: from_record(v)),
    ("from_record(version)", lambda v: from_record(record_with(version=v))),
    ("from_record(rules)", lambda v: from_record(record_with(rules=v))),
    ("from_record(suits)", lambda v: from_record(record_with(suits=v))),
    ("from_record(first_dealer)", lambda v: from_record(record_with(first_dealer=v))),
    ("from_record(deck)", lambda v: from_record(record_with(deck=v))),
    ("from_record(plays)", lambda v: from_record(record_with(plays=v))),
    ("parse_record", lambda v: parse_record(v)),
]  # fmt: skip


@pytest.mark.parametrize(("name", "call"), CALLS, ids=[c[0] for c in CALLS])
def test_weird_arguments_raise_value_error_or_work(
    name: str, call: Callable[[Any], object]
) -> None:
    before = to_record(SOME_STATE)
    for value in WEIRD:
        try:
            call(value)
        except ValueError as exc:
            assert len(str(exc)) < 300, (value, str(exc)[:100])  # never echoes a huge input
        except Exception as exc:  # the point of the test: no other kind of error
            pytest.fail(f"{name}({value!r:.40}) raised {type(exc).__name__}: {exc}")
    assert to_record(SOME_STATE) == before


# -- the state's recipe and position are read-only ----------------------------------------------

READ_ONLY = ["rules", "suits", "first_dealer", "deck", "deal", "is_over", "to_move", "dealer",
             "leader", "trick", "tricks", "plays", "trick_number", "stock_size"]  # fmt: skip


@pytest.mark.parametrize("name", READ_ONLY)
def test_public_attributes_cannot_be_assigned(name: str) -> None:
    game = new_game(3)
    game.play(game.legal_moves()[0])
    before = to_record(game)
    with pytest.raises(AttributeError, match=f"'{name}' of 'GameState' object has no setter"):
        setattr(game, name, getattr(game, name))
    with pytest.raises(AttributeError, match="'is_over' of 'GameState' object has no setter"):
        game.is_over = True  # type: ignore[misc]
    assert to_record(game) == before and not game.is_over


def test_new_attributes_cannot_be_added() -> None:
    game = new_game(3)
    with pytest.raises(AttributeError, match="'GameState' object has no attribute 'winner_seat'"):
        game.winner_seat = 2  # type: ignore[attr-defined]
    assert not hasattr(game, "winner_seat")


@pytest.mark.parametrize("copier", [copy.copy, copy.deepcopy], ids=["copy", "deepcopy"])
def test_copies_are_equal_and_independent(copier: Callable[[GameState], GameState]) -> None:
    game = new_game(3)
    for _ in range(30):
        game.play(game.legal_moves()[0])
    before = json.dumps(game.observation(0))
    other = copier(game)
    assert other == game and other is not game
    while not other.is_over:
        other.play(other.legal_moves()[-1])
    assert json.dumps(game.observation(0)) == before
    assert len(game.plays) == 30 and not game.is_over
