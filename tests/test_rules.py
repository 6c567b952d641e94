"""Who wins a trick (docs/rules.md#who-wins-a-trick) and the options (docs/rules.md#options)."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest
from helpers import (
    ALL_RULES,
    EXAMPLE_SUITS,
    NORTH_RUNS_SPADES,
    NORTH_RUNS_SPADES_TRICKS,
    deck_from_hands,
    play_cards,
    play_tricks,
    position,
)
from hypothesis import given
from hypothesis import strategies as st
from refmodel import Options, winner_of_trick

from calypso_core import (
    Card,
    CardParseError,
    GameState,
    IllegalMoveError,
    Rules,
    Suit,
    trick_winner,
)
from calypso_core.cards import CARDS

STANDARD = Rules()
MUST_BEAT = Rules(lead_trump_must_be_beaten=True)
LAST_IN = Rules(last_trump_in_wins=True)
MUST_BEAT_LAST_IN = Rules(lead_trump_must_be_beaten=True, last_trump_in_wins=True)
ALL_FOURS = Rules(all_fours=True)
ALL_FOURS_LAST_IN = Rules(all_fours=True, last_trump_in_wins=True)
SEATS = "NESW"


def winner(trick: str, rules: Rules = STANDARD) -> str:
    """The winning seat of a trick that North leads, seated as in the rules' examples."""
    return SEATS[trick_winner(trick.split(), list(EXAMPLE_SUITS), rules)]


# -- worked examples: N ♠, E ♣, S ♥, W ♦; North leads; North-South hold the majors ----------

WORKED_EXAMPLES = [
    #  N ♠  E ♣  S ♥  W ♦   winner  why
    ("6S 5S TS KS", "N", "trump lead, all follow"),
    ("6S 3C TS KS", "E", "a trump-in beats a trump lead"),
    ("6S 3C 4H KS", "S", "higher trump-in (4 > 3), across suits"),
    ("6S 5C 5H QS", "E", "equal trump-ins: the first played"),
    ("9H 2H AH KH", "S", "N led his partner's suit: a plain lead; S only follows, top heart"),
    ("9H 2C AH 3D", "W", "E trumps in, W over-trumps"),
    ("QC QC 5C 8C", "N", "plain lead; E's club only follows; identical cards: the first"),
    ("5C 7C AD 4C", "E", "S's diamond is W's suit, not S's: a discard"),
]


@pytest.mark.parametrize(
    ("trick", "expected", "why"),
    WORKED_EXAMPLES,
    ids=[f"{i}-{why}" for i, (_, _, why) in enumerate(WORKED_EXAMPLES, 1)],
)
def test_worked_example(trick: str, expected: str, why: str) -> None:
    assert winner(trick) == expected, why


def example_position(trick: str, rules: Rules = STANDARD) -> GameState:
    """Deal 0 of a game where North leads and each seat holds its card of ``trick``.

    The other 12 cards of each hand avoid the suit led, so every card of the trick is legal.
    """
    cards = trick.split()
    led = cards[0][1]
    used = Counter(cards)
    hands = {}
    for seat, card in zip(SEATS, cards, strict=True):
        hand = [card]
        for filler in (str(c) for c in CARDS):
            if len(hand) == 13:
                break
            if filler[1] != led and used[filler] < 4:
                used[filler] += 1
                hand.append(filler)
        hands[seat] = " ".join(hand)
    return position(3, hands, rules=rules)


@pytest.mark.parametrize(
    ("trick", "expected", "why"),
    WORKED_EXAMPLES,
    ids=[f"{i}-{why}" for i, (_, _, why) in enumerate(WORKED_EXAMPLES, 1)],
)
def test_worked_example_in_a_real_game(trick: str, expected: str, why: str) -> None:
    state = example_position(trick)
    assert state.to_move == 0
    play_tricks(state, trick)
    [done] = state.tricks
    assert [str(card) for card in done.cards] == trick.split()
    assert (done.leader, SEATS[done.winner]) == (0, expected), why
    assert state.to_move == done.winner == state.leader


# -- options: the same tricks under every trick-winning option ------------------------------

OPTION_COLUMNS = [STANDARD, MUST_BEAT, LAST_IN, MUST_BEAT_LAST_IN, ALL_FOURS, ALL_FOURS_LAST_IN]
OPTION_TABLE = [
    #  N ♠  E ♣  S ♥  W ♦    std must last both  AF  AF+last  why
    ("6S 5S TS KS", "N    N    N    N    N    N", "example 1: nobody trumps in"),
    ("6S 3C TS KS", "E    N    E    N    N    N", "example 2: 3♣ does not beat 6♠"),
    ("6S 3C 4H KS", "S    N    S    N    N    N", "example 3: neither beats 6♠"),
    ("6S 5C 5H QS", "E    N    S    N    N    N", "example 4"),
    ("9H 2H AH KH", "S    S    S    S    S    S", "example 5: no trump-in at all"),
    ("9H 2C AH 3D", "W    W    W    W    W    W", "example 6: W is both higher and last"),
    ("QC QC 5C 8C", "N    N    N    N    N    N", "example 7"),
    ("5C 7C AD 4C", "E    E    E    E    E    E", "example 8"),
    ("6S 7C TS KS", "E    E    E    E    E    E", "7♣ beats the 6♠ lead"),
    ("6S 6C TS KS", "E    N    E    N    N    N", "must beat: a tie goes to the lead"),
    ("6S 8C 7H KS", "E    E    S    S    E    E", "two trump-ins over the lead"),
    ("6S 9C 7H 2D", "E    E    W    S    E    E", "last: 2♦; both: last that beats 6♠"),
    ("9H 5C AH 3D", "E    E    W    W    E    E", "plain lead: last trump-in, or highest"),
    ("9H 5C AH 5D", "E    E    W    W    E    E", "equal trump-ins: first, unless last"),
    ("AC 2D 2H KC", "S    S    S    S    S    S", "2♦ is West's suit: East only discards"),
]


@pytest.mark.parametrize(
    ("trick", "winners", "why"), OPTION_TABLE, ids=[trick for trick, _, _ in OPTION_TABLE]
)
def test_trick_under_each_option(trick: str, winners: str, why: str) -> None:
    expected = winners.split()
    got = [winner(trick, rules) for rules in OPTION_COLUMNS]
    assert got == expected, why


def test_leftovers_option_does_not_change_who_wins() -> None:
    for trick, _, _ in OPTION_TABLE:
        for rules in OPTION_COLUMNS:
            other = dataclasses.replace(rules, leftovers_start_next_calypso=False)
            assert winner(trick, rules) == winner(trick, other)


def test_all_fours_implies_must_beat() -> None:
    both = Rules(all_fours=True, lead_trump_must_be_beaten=True)
    for trick, _, _ in OPTION_TABLE:
        assert winner(trick, both) == winner(trick, ALL_FOURS)


# -- All Fours legality ----------------------------------------------------------------------

ALL_FOURS_DEAL = {
    # North leads 9♥. East (♣) and West (♦) hold hearts and their own suit; South (♥) holds
    # hearts, his own suit, and clubs.
    "N": "9H 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS",
    "E": "2H 2C 5C 2D 3D 4D 5D 6D 7D 8D 9D TD JD",
    "S": "AH 3H 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC",
    "W": "KH 3D 5D QS 2S 3S 4S 5S 6S 7S 8S 9S TS",
}


def legal_after_lead(rules: Rules) -> list[str]:
    state = position(3, ALL_FOURS_DEAL, rules=rules)
    state.play("9H")
    return [str(card) for card in state.legal_moves()]


def test_standard_rules_make_you_follow_suit() -> None:
    assert legal_after_lead(STANDARD) == ["2H"]
    for rules in (MUST_BEAT, LAST_IN, MUST_BEAT_LAST_IN):
        assert legal_after_lead(rules) == ["2H"]


def test_all_fours_lets_you_trump_in_although_you_can_follow() -> None:
    assert legal_after_lead(ALL_FOURS) == ["2H", "2C", "5C"]
    state = position(3, ALL_FOURS_DEAL, rules=ALL_FOURS)
    state.play("9H")
    with pytest.raises(IllegalMoveError, match="2D is not legal for East, who must follow H"):
        state.play("2D")
    state.play("5C")
    # South's own suit is the suit led: following it is all he may do
    # (docs/rules.md#following-suit).
    assert [str(card) for card in state.legal_moves()] == ["3H", "AH"]
    with pytest.raises(IllegalMoveError, match="2C is not legal for South, who must follow H"):
        state.play("2C")
    state.play("AH")
    assert [str(card) for card in state.legal_moves()] == ["KH", "3D", "5D"]
    state.play("5D")
    # 5♦ only ties East's 5♣: under All Fours a later trump must beat the best so far.
    assert state.tricks[0].winner == 1


def test_all_fours_over_trump_in_play() -> None:
    state = position(3, ALL_FOURS_DEAL, rules=ALL_FOURS)
    play_tricks(state, "9H 2C AH 3D")
    assert state.tricks[0].winner == 3
    state = position(3, ALL_FOURS_DEAL, rules=STANDARD)
    with pytest.raises(IllegalMoveError, match="2C is not legal for East, who must follow H"):
        play_tricks(state, "9H 2C AH 3D")


def test_all_fours_trump_lead_must_be_beaten_in_play() -> None:
    deal = {
        "N": "6S 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
        "E": "5C 7C 2S 3S 4S 5S 7S 8S 9S TS JS QS KS",
        "S": "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        "W": "AS 2C 3C 4C 6C 8C 9C TC JC QC KC AC 2D",
    }
    state = position(3, deal, rules=ALL_FOURS)
    state.play("6S")
    assert [str(card) for card in state.legal_moves()] == [
        "2S", "3S", "4S", "5S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "5C", "7C",
    ]  # fmt: skip
    play_cards(state, "5C 2D AS")
    assert state.tricks[0].winner == 0  # 5♣ does not beat the 6♠ lead
    standard = position(3, deal)
    standard.play("6S")
    with pytest.raises(IllegalMoveError, match="5C is not legal for East, who must follow S"):
        standard.play("5C")


# -- leftovers on and off: a constructed calypso-completing trick ------------------------------

LEFTOVERS_DEAL_1 = {
    # North dealt; East leads. After deal 0 North's calypso lacks only the 2♠.
    "E": "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS 8H",
    "S": "AS 8H 9H TH JH QH KH AH 2S 3S 4S 5S 6S",
    "W": "AS 7C 8C 9C TC JC QC KC AC 8D 9D TD JD",
    "N": "KS 2D 3D 4D 5D 6D 7D 8D 9D 2H 3H 4H 5H",
}


def completing_trick(rules: Rules) -> GameState:
    state = position(3, NORTH_RUNS_SPADES, LEFTOVERS_DEAL_1, rules=rules)
    play_tricks(state, *NORTH_RUNS_SPADES_TRICKS)
    assert [str(card) for card in state.calypso(0)] == [f"{r}S" for r in "3456789TJQKA"]
    assert (state.completed(0), state.pile(2), state.to_move) == (0, 0, 1)
    #  E    S    W    N: South wins with the first of two identical aces; the 2♠ completes
    # North's calypso; the ace, ace and king of spades are duplicates from that trick.
    play_tricks(state, "2S AS AS KS")
    assert state.tricks[-1].winner == 2
    return state


@pytest.mark.parametrize("rules", [r for r in ALL_RULES if r.leftovers_start_next_calypso])
def test_leftovers_start_the_next_calypso(rules: Rules) -> None:
    state = completing_trick(rules)
    assert state.completed(0) == 1
    # One ace and the king start the new calypso; the second ace is a duplicate again.
    assert [str(card) for card in state.calypso(0)] == ["KS", "AS"]
    assert state.pile(2) == 1
    assert state.pile(0) == 34


@pytest.mark.parametrize("rules", [r for r in ALL_RULES if not r.leftovers_start_next_calypso])
def test_without_leftovers_duplicates_go_to_the_pile(rules: Rules) -> None:
    state = completing_trick(rules)
    assert state.completed(0) == 1
    assert state.calypso(0) == []
    assert state.pile(2) == 3
    assert state.pile(0) == 34


# -- trick_winner's interface -----------------------------------------------------------------


def test_trick_winner_takes_cards_and_suits_in_any_form() -> None:
    cards: list[Card | str | int] = [Card.parse("9H"), "2c", int(Card.parse("AH")), "3D"]
    suits: list[Suit | str | int] = [Suit.SPADES, "c", int(Suit.HEARTS), "D"]
    assert trick_winner(cards, suits) == 3


def test_trick_winner_of_an_unfinished_trick_is_the_card_winning_so_far() -> None:
    suits = list(EXAMPLE_SUITS)
    assert trick_winner(["9H"], suits[:1]) == 0
    assert trick_winner(["9H", "2C"], suits[:2]) == 1
    assert trick_winner(["9H", "2C", "AH"], suits[:3]) == 1


@pytest.mark.parametrize(
    ("cards", "suits"),
    [([], []), (["2S"] * 5, ["S"] * 5), (["2S", "3S"], ["S"]), (["2S"], ["S", "H"])],
)
def test_trick_winner_refuses_a_malformed_trick(cards: list[str], suits: list[str]) -> None:
    with pytest.raises(ValueError, match="a trick has 1-4 cards"):
        trick_winner(cards, suits)


@pytest.mark.parametrize(
    ("cards", "suits"),
    [(["2S", "1X"], ["S", "C"]), (["2S", 52], ["S", "C"]), (["2S", True], ["S", "C"]),
     (["2S", "3S"], ["S", "X"]), (["2S", "3S"], ["S", 4])],
)  # fmt: skip
def test_trick_winner_refuses_what_is_not_a_card_or_suit(
    cards: list[object], suits: list[object]
) -> None:
    with pytest.raises(CardParseError):
        trick_winner(cards, suits)  # type: ignore[arg-type]


# -- the Rules object -------------------------------------------------------------------------


def test_rules_default_to_the_standard_game() -> None:
    assert Rules().to_dict() == {
        "lead_trump_must_be_beaten": False,
        "last_trump_in_wins": False,
        "all_fours": False,
        "leftovers_start_next_calypso": True,
    }
    assert Rules() == STANDARD


def test_rules_are_immutable_and_hashable() -> None:
    rules = Rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.all_fours = True  # type: ignore[misc]
    assert len({Rules(), Rules(), ALL_FOURS}) == 2


@pytest.mark.parametrize("rules", ALL_RULES)
def test_rules_round_trip_through_a_dict(rules: Rules) -> None:
    assert Rules.from_dict(rules.to_dict()) == rules


def test_rules_refuse_non_bool_options() -> None:
    with pytest.raises(ValueError, match=r"^Rules.all_fours must be True or False, not 1$"):
        Rules(all_fours=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="rules: all_fours must be true or false, not 1"):
        Rules.from_dict({"all_fours": 1})
    with pytest.raises(ValueError, match="rules: unknown option 'trumps'"):
        Rules.from_dict({"trumps": True})
    with pytest.raises(ValueError, match="rules must be an object of options, not list"):
        Rules.from_dict([])


# -- properties: trick_winner agrees with the reference model ---------------------------------

SEATINGS = ["SCHD", "SDHC", "HCSD", "HDSC", "CSDH", "CHDS", "DSCH", "DHCS"]


@st.composite
def tricks(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    """1-4 cards played from a random leader under one of the eight seatings.

    Returns the cards and the personal suits of all four players in playing order (the
    trick uses the first ``len(cards)`` of them).
    """
    seating = draw(st.sampled_from(SEATINGS))
    leader = draw(st.integers(0, 3))
    size = draw(st.integers(1, 4))
    suits = [seating[(leader + i) % 4] for i in range(4)]
    # Bias the cards towards the suits in play so that trump-ins and follows are common.
    cards = [
        draw(st.sampled_from("23456789TJQKA")) + draw(st.sampled_from([suits[0], *suits, "S"]))
        for _ in range(size)
    ]
    return cards, suits


RULES = st.builds(Rules, st.booleans(), st.booleans(), st.booleans(), st.booleans())


@given(tricks(), RULES)
def test_trick_winner_matches_the_reference_model(
    trick: tuple[list[str], list[str]], rules: Rules
) -> None:
    cards, suits = trick
    options = Options(**rules.to_dict())
    expected = winner_of_trick(cards, suits[: len(cards)], options)
    assert trick_winner(cards, suits[: len(cards)], rules) == expected


@given(tricks(), RULES)
def test_a_discard_never_wins_nor_changes_the_winner(
    trick: tuple[list[str], list[str]], rules: Rules
) -> None:
    cards, suits = trick
    won = trick_winner(cards, suits[: len(cards)], rules)
    led = cards[0][1]
    assert 0 <= won < len(cards)
    assert cards[won][1] in (led, suits[won])  # a follow, a trump-in or the lead
    if len(cards) < 4:
        own = suits[len(cards)]
        discard = next(suit for suit in "SHDC" if suit not in (led, own))
        more = [*cards, "A" + discard]
        assert trick_winner(more, suits[: len(more)], rules) == won


@given(tricks(), RULES)
def test_the_winner_so_far_is_the_winner_of_a_prefix(
    trick: tuple[list[str], list[str]], rules: Rules
) -> None:
    # Playing one more card either keeps the winner or makes the new card the winner.
    cards, suits = trick
    for size in range(1, len(cards)):
        before = trick_winner(cards[:size], suits[:size], rules)
        after = trick_winner(cards[: size + 1], suits[: size + 1], rules)
        assert after in (before, size)


def test_deck_from_hands_follows_the_dealing_convention() -> None:
    deck = deck_from_hands(3, NORTH_RUNS_SPADES)
    # West deals, so card 0 goes to North, card 1 to East, and so on clockwise.
    assert deck[0:4] == ["AS", "2H", "QC", "5H"]
    assert sorted(deck) == sorted(str(c) for c in CARDS for _ in range(4))
