"""explain_trick says who wins a trick and why, in the words of docs/rules.md#who-wins-a-trick:
one sentence for the winner, then one for each card that might look as if it should have won.
tests/test_message_truth.py checks every message against the trick it describes."""

from __future__ import annotations

import random

import pytest

from calypso_core import Rules, trick_winner
from calypso_core.trick_reasons import explain_trick

# Seats in playing order N(♠) E(♣) S(♥) W(♦), North leads: the worked examples of the rules.
SUITS = ["S", "C", "H", "D"]
WORKED_EXAMPLES = [
    ("6S 5S TS KS", 0, "North's trump lead stands."),
    ("6S 3C TS KS", 1, "East trumps in with the 3♣: a trump-in beats a trump lead."),
    ("6S 3C 4H KS", 2, "South over-trumps with the 4♥."),
    ("6S 5C 5H QS", 1,
     "East trumps in with the 5♣: a trump-in beats a trump lead. "
     "South's 5♥ only ties, and the first played wins."),
    ("9H 2H AH KH", 2, "South's A♥ is the highest heart."),
    ("9H 2C AH 3D", 3, "West over-trumps with the 3♦."),
    ("QC QC 5C 8C", 0,
     "North's Q♣ is the highest club. East's identical Q♣ came later. "
     "East's Q♣ only follows suit, so it is no trump."),
    ("5C 7C AD 4C", 1, "East's 7♣ is the highest club."),
]


def trick(text: str) -> list[str]:
    """Cards from notation: "6S 3C TS KS"."""
    return text.split()


@pytest.mark.parametrize(("cards", "winner", "text"), WORKED_EXAMPLES)
def test_worked_examples_are_explained(cards: str, winner: int, text: str) -> None:
    assert trick_winner(trick(cards), SUITS) == winner
    assert explain_trick(trick(cards), SUITS) == text


def test_the_leader_seat_names_the_players() -> None:
    # The same trick led by South: the players are South, West, North, East.
    assert explain_trick(trick("9H 2C AH 3D"), SUITS, leader=2) == "East over-trumps with the 3♦."


def test_a_trump_lead_that_must_be_beaten_can_stand_against_a_lower_trump_in() -> None:
    rules = Rules(lead_trump_must_be_beaten=True)
    assert explain_trick(trick("6S 3C TS KS"), SUITS, rules) == (
        "North's trump lead stands. East's 3♣ is lower."
    )
    assert explain_trick(trick("6S 6C TS KS"), SUITS, rules) == (
        "North's trump lead stands. East's 6♣ only ties, and the first played wins."
    )
    assert explain_trick(trick("6S 7C 3H KS"), SUITS, rules) == (
        "East trumps in with the 7♣, above North's trump lead. South's 3♥ is lower."
    )


def test_last_trump_in_wins_says_so() -> None:
    rules = Rules(last_trump_in_wins=True)
    assert explain_trick(trick("6S 7C 3H KS"), SUITS, rules) == (
        "South trumps in last with the 3♥: the last trump-in wins."
    )


def test_last_trump_in_that_does_not_beat_a_trump_lead_is_named() -> None:
    rules = Rules(lead_trump_must_be_beaten=True, last_trump_in_wins=True)
    assert trick_winner(trick("6S 9C 3H KS"), SUITS, rules) == 1
    assert explain_trick(trick("6S 9C 3H KS"), SUITS, rules) == (
        "East trumps in with the 9♣: the last trump-in above North's trump lead wins. "
        "South's 3♥ is not above the trump lead."
    )


def test_regression_a_later_trump_in_below_the_lead_does_not_make_the_winner_last() -> None:
    # Must-beat and last-trump-in: South's 9♥ wins although West trumps in after it, with a
    # 2♦ that is not above the lead. "South trumps in last" would be false.
    rules = Rules(lead_trump_must_be_beaten=True, last_trump_in_wins=True)
    assert trick_winner(trick("6S 7C 9H 2D"), SUITS, rules) == 2
    assert explain_trick(trick("6S 7C 9H 2D"), SUITS, rules) == (
        "South trumps in with the 9♥: the last trump-in above North's trump lead wins. "
        "West's 2♦ is not above the trump lead."
    )


def test_regression_a_discard_by_the_owner_of_the_suit_led_is_not_said_to_follow_suit() -> None:
    # South leads diamonds; West owns diamonds but holds none and discards the 4♣. The old
    # explanation said West's 4♣ "only follows suit, so it is no trump" (12.6% of tricks).
    said = explain_trick(["4D", "4C", "8D", "9D"], ["S", "D", "H", "C"], leader=2)
    assert said == "East's 9♦ is the highest diamond."


def test_tricks_are_explained_in_russian() -> None:
    assert explain_trick(trick("9H 2C AH 3D"), SUITS, lang="ru") == "Запад перебивает козырем 3♦."
    assert explain_trick(trick("QC QC 5C 8C"), SUITS, lang="ru") == (
        "Д♣ Севера — старшая трефа. Такая же карта Востока (Д♣) сыграна позже. "
        "Д♣ Востока лишь отвечает в масть, поэтому это не козырь."
    )


def test_an_unfinished_trick_is_explained_so_far() -> None:
    assert explain_trick(["9H"], ["S"], leader=3) == "West's 9♥ is the highest heart."


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError):
        explain_trick([], [])
    with pytest.raises(ValueError):
        explain_trick(["XX"], ["S"])
    with pytest.raises(ValueError):
        explain_trick(["9H"], ["S"], leader=4)


@pytest.mark.parametrize("option", ["", "lead_trump_must_be_beaten", "last_trump_in_wins",
                                    "all_fours"])
def test_the_explanation_names_the_winner_of_random_tricks(option: str) -> None:
    rules = Rules(**({option: True} if option else {}))
    rng = random.Random(option)
    names = ["North", "East", "South", "West"]
    for _ in range(2000):
        suits = rng.choice([["S", "C", "H", "D"], ["D", "H", "C", "S"], ["H", "S", "D", "C"]])
        cards = [rng.randrange(52) for _ in range(4)]
        leader = rng.randrange(4)
        trumps = [suits[(leader + i) % 4] for i in range(4)]
        winner = (leader + trick_winner(cards, trumps, rules)) % 4
        assert explain_trick(cards, trumps, rules, leader).startswith(names[winner])
