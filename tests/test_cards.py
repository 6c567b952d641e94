"""The vocabulary: cards, suits, ranks and seats, and their text round trips."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calypso_core import (
    EAST,
    NORTH,
    SEAT_NAMES,
    SOUTH,
    WEST,
    Card,
    CardParseError,
    Rank,
    Suit,
    parse_cards,
    seat_name,
)
from calypso_core.cards import CARDS

ALL_CARDS = [Card(code) for code in range(52)]
RANK_SPELLINGS = {
    "A": ["A", "a"], "K": ["K", "k"], "Q": ["Q", "q"], "J": ["J", "j"],
    "T": ["T", "t", "10"], "9": ["9"], "8": ["8"], "7": ["7"], "6": ["6"],
    "5": ["5"], "4": ["4"], "3": ["3"], "2": ["2"],
}  # fmt: skip
SUIT_SPELLINGS = {"S": ["S", "s"], "H": ["H", "h"], "D": ["D", "d"], "C": ["C", "c"]}


# -- cards ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("TD", "TD"),
        ("td", "TD"),
        ("10d", "TD"),
        ("10D", "TD"),
        ("tD", "TD"),
        ("AS", "AS"),
        ("as", "AS"),
        ("2c", "2C"),
        ("qh", "QH"),
        (" KH ", "KH"),
    ],
)
def test_card_parse_accepts_rank_then_suit_in_any_case(text: str, expected: str) -> None:
    assert str(Card.parse(text)) == expected


@pytest.mark.parametrize(
    "text",
    ["", "T", "D", "1D", "11D", "0D", "TX", "XD", "TDD", "DT", "10", "1 0D", "AS KS", "♦"],
)
def test_card_parse_refuses_what_is_not_a_card(text: str) -> None:
    with pytest.raises(CardParseError) as caught:
        Card.parse(text)
    assert repr(text) in str(caught.value)


@pytest.mark.parametrize("value", [None, 5, 3.0, b"TD", ["TD"]])
def test_card_parse_refuses_non_text(value: object) -> None:
    with pytest.raises(CardParseError):
        Card.parse(value)  # type: ignore[arg-type]


def test_card_parse_error_is_a_value_error() -> None:
    assert issubclass(CardParseError, ValueError)


def test_str_is_the_two_character_form_for_every_card() -> None:
    texts = [str(card) for card in ALL_CARDS]
    assert all(len(text) == 2 for text in texts)
    assert len(set(texts)) == 52
    assert [Card.parse(text) for text in texts] == ALL_CARDS


def test_repr_rebuilds_the_same_card() -> None:
    for card in ALL_CARDS:
        assert eval(repr(card)) is card


def test_parsed_cards_are_the_cached_instances() -> None:
    assert Card.parse("TD") is Card.parse("10d") is Card.of(Rank.TEN, Suit.DIAMONDS)
    assert Card(int(Card.parse("TD"))) is Card.parse("TD")
    assert list(CARDS) == ALL_CARDS


def test_card_knows_its_suit_and_rank() -> None:
    card = Card.parse("QH")
    assert card.suit is Suit.HEARTS
    assert card.rank is Rank.QUEEN
    assert Card.of(Rank.QUEEN, Suit.HEARTS) is card
    for card in ALL_CARDS:
        assert Card.of(card.rank, card.suit) is card


def test_card_names_for_people() -> None:
    assert Card.parse("TD").pretty == "10♦"
    assert Card.parse("AS").pretty == "A♠"
    assert Card.parse("QH").name == "Queen of hearts"
    assert f"{Card.parse('2c'):>4}" == "  2C"


@pytest.mark.parametrize("code", [-1, 52, 3.0, "5", None])
def test_card_code_out_of_range_is_refused(code: object) -> None:
    with pytest.raises(CardParseError):
        Card(code)  # type: ignore[arg-type]


def test_bool_is_not_a_card() -> None:
    # Regression: Card(True) used to be the three of spades (code 1), so state.play(True)
    # played a card instead of refusing the malformed move.
    with pytest.raises(CardParseError):
        Card(True)


def test_parse_cards_reads_space_or_comma_separated_lists() -> None:
    assert [str(card) for card in parse_cards("6S 5s, 10s,KS")] == ["6S", "5S", "TS", "KS"]
    assert parse_cards("") == []
    with pytest.raises(CardParseError):
        parse_cards("6S 1S")


@st.composite
def spelled_cards(draw: st.DrawFn) -> tuple[str, str]:
    """A card in any accepted spelling, with its canonical two-character form."""
    rank = draw(st.sampled_from(sorted(RANK_SPELLINGS)))
    suit = draw(st.sampled_from(sorted(SUIT_SPELLINGS)))
    text = draw(st.sampled_from(RANK_SPELLINGS[rank])) + draw(st.sampled_from(SUIT_SPELLINGS[suit]))
    padding = draw(st.sampled_from(["", " ", "\t"]))
    return padding + text + padding, rank + suit


@given(spelled_cards())
def test_every_spelling_round_trips_to_the_canonical_form(spelled: tuple[str, str]) -> None:
    text, canonical = spelled
    card = Card.parse(text)
    assert str(card) == canonical
    assert Card.parse(str(card)) is card
    assert eval(repr(card)) is card


@given(st.text(max_size=6))
def test_any_text_parses_to_a_card_or_raises_card_parse_error(text: str) -> None:
    try:
        card = Card.parse(text)
    except CardParseError:
        return
    assert Card.parse(str(card)) is card


# -- suits and ranks --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "suit"),
    [("S", Suit.SPADES), ("h", Suit.HEARTS), ("D", Suit.DIAMONDS), ("c", Suit.CLUBS),
     ("♠", Suit.SPADES), ("♥", Suit.HEARTS), ("♦", Suit.DIAMONDS), ("♣", Suit.CLUBS)],
)  # fmt: skip
def test_suit_parse_accepts_letters_and_symbols(text: str, suit: Suit) -> None:
    assert Suit.parse(text) is suit
    assert Suit.parse(str(suit)) is suit
    assert Suit.parse(suit.symbol) is suit


@pytest.mark.parametrize("text", ["", "X", "SH", "spades", "1"])
def test_suit_parse_refuses_other_text(text: str) -> None:
    with pytest.raises(CardParseError, match="is not a suit"):
        Suit.parse(text)


def test_suits_pair_majors_against_minors() -> None:
    assert Suit.SPADES.mate is Suit.HEARTS
    assert Suit.HEARTS.mate is Suit.SPADES
    assert Suit.DIAMONDS.mate is Suit.CLUBS
    assert Suit.CLUBS.mate is Suit.DIAMONDS
    assert [suit.letter for suit in Suit] == ["S", "H", "D", "C"]


def test_ranks_run_from_two_to_ace() -> None:
    assert [str(rank) for rank in Rank] == list("23456789TJQKA")
    assert Rank.ACE > Rank.KING > Rank.QUEEN > Rank.JACK > Rank.TEN > Rank.NINE > Rank.TWO
    assert Rank.parse("10") is Rank.TEN
    assert Rank.parse("t") is Rank.TEN
    assert Rank.parse("a") is Rank.ACE
    with pytest.raises(CardParseError, match="is not a rank"):
        Rank.parse("1")


# -- seats ------------------------------------------------------------------------------------


def test_seats_are_numbered_clockwise_from_north() -> None:
    assert (NORTH, EAST, SOUTH, WEST) == (0, 1, 2, 3)
    assert SEAT_NAMES == ("North", "East", "South", "West")
    assert [seat_name(seat) for seat in range(4)] == list(SEAT_NAMES)


# Letters outside ASCII whose case mapping is an ASCII suit or rank letter (the long s, the
# Kelvin sign, the dotless i ...): none of them names a suit or a rank.
CASE_LOOKALIKES = sorted(
    char
    for char in map(chr, range(0x80, 0x30000))
    if not 0xD800 <= ord(char) < 0xE000
    and any(len(mapped) == 1 and mapped.isascii() for mapped in (char.upper(), char.lower()))
)


def test_there_are_case_lookalikes_to_refuse() -> None:
    assert "\u017f" in CASE_LOOKALIKES and "\u212a" in CASE_LOOKALIKES  # long s, Kelvin K


@pytest.mark.parametrize("char", CASE_LOOKALIKES, ids=lambda c: f"U+{ord(c):04X}")
def test_a_letter_that_only_case_maps_to_a_suit_or_rank_is_neither(char: str) -> None:
    for parse in (Suit.parse, Rank.parse):
        with pytest.raises(CardParseError):
            parse(char)
    with pytest.raises(CardParseError):
        Card.parse("A" + char)
    with pytest.raises(CardParseError):
        Card.parse(char + "S")


@pytest.mark.parametrize("text", ["\uff33", "\u2664", "\u2661", "S\u0307", "\u00a0S"])
def test_full_width_outlined_or_decorated_suits_are_refused(text: str) -> None:
    with pytest.raises(CardParseError, match="is not a suit"):
        Suit.parse(text)
