"""The terminal game: a person types cards against computer players, in English or Russian."""

import argparse
import itertools
import re
from collections.abc import Iterator

import pytest

from calypso_core import new_game
from calypso_core.cards import CARDS, Card
from calypso_core.messages import message, render
from calypso_core.terminal import play_in_terminal, typed_card


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


def test_quitting_on_purpose_says_so_and_exits_0() -> None:
    # Regression: q (and Ctrl+D) ended the game with status 1, saying nothing.
    for typed in (["TS", "q"], ["Q"]):
        out: list[str] = []
        args = argparse.Namespace(seed="1", level="random", seat=2)
        answers = iter(typed)

        def read(prompt: str, answers: Iterator[str] = answers) -> str:
            return next(answers)

        assert play_in_terminal(args, read=read, write=out.append) == 0
        assert out[-1].startswith("You left the game after ")
        assert out[-1].endswith(" cards; --seed 1 deals it again.")


def test_the_end_of_input_quits_as_q_does() -> None:
    def read(prompt: str) -> str:
        raise EOFError

    out: list[str] = []
    args = argparse.Namespace(seed="1", level="random", seat=0, lang="ru")
    assert play_in_terminal(args, read=read, write=out.append) == 0
    assert out[-2:] == ["", "Вы вышли из игры после 0 карт; --seed 1 сдаст её снова."]


def test_the_hand_and_the_tricks_show_cards_in_one_notation() -> None:
    # Regression: the hand read "TS", the tricks "10♠".
    out: list[str] = []
    typed = itertools.chain(["?"], [str(card) for card in CARDS] * 2, ["q"])
    args = argparse.Namespace(seed="3", level="random", seat=2)
    play_in_terminal(args, read=lambda prompt: next(typed), write=out.append)
    text = "\n".join(out)
    state = new_game("3")
    south = " ".join(render(message("card.short", card=str(c))) for c in state.hand(2))
    assert f"hand {south}" in text
    assert re.search(r"trick: \w+ led (10|[2-9JQKA])[♠♥♦♣]", text)
    legal = next(line for line in out if line.startswith("Legal: "))
    assert re.fullmatch(r"Legal: ((10|[2-9JQKA])[♠♥♦♣] ?)+", legal)
    assert not re.search(r"\b[2-9TJQKA][SHDC]\b", text.replace("QH", "").replace("TD", ""))


@pytest.mark.parametrize(("lang", "shown"), [("en", "10♦"), ("en", "q♥"), ("ru", "Д♥"),
                                             ("ru", "10♦")])
def test_a_card_is_typed_as_shown_or_as_its_code(lang: str, shown: str) -> None:
    code = {"10♦": "TD", "q♥": "QH", "Д♥": "QH"}[shown]
    assert typed_card(shown, lang) == typed_card(code, lang) == Card.parse(code)
    assert typed_card(code.lower(), lang) == Card.parse(code)
    assert typed_card("10D", lang) == Card.parse("TD")
    assert typed_card("QX", lang) is None and typed_card("Д", lang) is None


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
    # Nothing English is left: the only Latin letters are the typing examples QH and TD.
    words = {word for line in out for word in re.findall(r"[A-Za-z]{2,}", line)}
    assert words <= {"QH", "TD"}, words
    assert any("Д♥" in line or "Д♠" in line or "Д♦" in line or "Д♣" in line for line in out)


def test_the_terminal_prompt_is_in_the_chosen_language() -> None:
    prompts: list[str] = []
    args = argparse.Namespace(seed="1", level="random", seat=2, lang="ru")

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return "q"

    play_in_terminal(args, read=read, write=lambda line: None)
    assert prompts == ["Ваша карта (Д♥ набирается QH, 10♦ — TD; ? — какие можно сыграть, "
                       "q — выход): "]
