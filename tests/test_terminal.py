"""The terminal game: a person types cards against computer players."""

import argparse
import itertools

import pytest

from calypso_core.cards import CARDS
from calypso_core.terminal import play_in_terminal


def test_a_whole_game_can_be_played_by_typing_cards() -> None:
    # The "person" types every card name in turn; illegal ones are refused with a reason.
    typed = itertools.cycle(str(card) for card in CARDS)
    out: list[str] = []
    args = argparse.Namespace(seed="42", level="novice", seat=2)
    status = play_in_terminal(args, read=lambda prompt: next(typed), write=out.append)
    assert status == 0
    assert out[-1].startswith(("You win", "You lose", "You draw"))
    assert any("is not legal for South" in line for line in out)
    assert sum("trick:" in line for line in out) == 52


def test_the_same_seed_gives_the_same_game() -> None:
    def transcript() -> list[str]:
        typed = itertools.cycle(str(card) for card in CARDS)
        out: list[str] = []
        args = argparse.Namespace(seed="7", level="club", seat=0)
        play_in_terminal(args, read=lambda prompt: next(typed), write=out.append)
        return out

    assert transcript() == transcript()


def test_quitting_stops_the_game() -> None:
    out: list[str] = []
    args = argparse.Namespace(seed="1", level="random", seat=2)
    assert play_in_terminal(args, read=lambda prompt: "q", write=out.append) == 1


def test_the_game_says_which_level_each_computer_seat_plays() -> None:
    out: list[str] = []
    args = argparse.Namespace(seed="1", level="novice", seat=0)
    play_in_terminal(args, read=lambda prompt: "q", write=out.append)
    assert out[:2] == [
        "Calypso, seed 1. You are North, playing hearts.",
        "East, South (your partner) and West play at level novice.",
    ]


def test_an_unknown_level_is_refused_rather_than_played_at_random() -> None:
    # Regression: an unknown level silently gave random computer players.
    args = argparse.Namespace(seed="1", level="grandmaster", seat=2)
    with pytest.raises(ValueError, match=r"unknown level 'grandmaster' \(levels: random, novice"):
        play_in_terminal(args, read=lambda prompt: "q", write=print)


def test_a_huge_typed_line_is_refused_in_one_short_line() -> None:
    out: list[str] = []
    typed = iter(["x" * 50_000, "q"])
    args = argparse.Namespace(seed="1", level="random", seat=2)
    play_in_terminal(args, read=lambda prompt: next(typed), write=out.append)
    refusal = next(line for line in out if "is not a card" in line)
    assert len(refusal) <= 302 and refusal.endswith("is not a card (move for South)")
