"""The terminal game: a person types cards against computer players."""

import argparse
import itertools

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
