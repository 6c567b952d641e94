"""The terminal game: a person types cards against computer players, in English or Russian."""

import argparse
import itertools
import re

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
    assert out[-1].startswith(("You win", "You lose", "A draw"))
    assert any("you must follow suit" in line for line in out)
    assert any("You do not hold" in line for line in out)
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
        "Your partner is South, your opponents East and West; the computer players play at "
        "level Novice.",
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
    assert len(refusal) <= 302 and refusal.endswith("is not a card: type a rank and a suit, "
                                                    "such as QH or TD.")


def test_a_whole_game_in_russian_says_everything_in_russian() -> None:
    typed = itertools.cycle(str(card) for card in CARDS)
    out: list[str] = []
    args = argparse.Namespace(seed="42", level="novice", seat=2, lang="ru")
    assert play_in_terminal(args, read=lambda prompt: next(typed), write=out.append) == 0
    assert out[0] == "Калипсо, код партии 42. Вы — Юг, ваша масть — " + out[0].split("— ")[-1]
    assert out[-1].startswith(("Вы выиграли", "Вы проиграли", "Ничья"))
    assert any("нужно ответить в масть" in line for line in out)
    assert any(line.startswith("  У вас нет карты") for line in out)
    assert sum(line.startswith("  взятка: заход") for line in out) == 52
    # Nothing English is left: the only Latin letters are cards as the person types them
    # (the hand, and the examples QH and TD).
    words = {word for line in out for word in re.findall(r"[A-Za-z]{2,}", line)}
    assert all(re.fullmatch(r"[2-9TJQKA][SHDC]", word) for word in words), words


def test_the_terminal_prompt_is_in_the_chosen_language() -> None:
    prompts: list[str] = []
    args = argparse.Namespace(seed="1", level="random", seat=2, lang="ru")

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return "q"

    play_in_terminal(args, read=read, write=lambda line: None)
    assert prompts == ["Ваша карта (например, QH; ? — какие можно сыграть, q — выход): "]
