"""Every sentence and label the table sends to people, each kind made in one function.

Nothing here is English or Russian: each function makes a message (``calypso_core.messages``:
an id and its parameters) that the page renders in the reader's language from the catalogs.
Trick reasons come from ``calypso_core.trick_reasons`` and hint reasons from the bots.
"""

from __future__ import annotations

from ..cards import SUIT_LETTERS, Card
from ..messages import Message, message
from ..rules import Rules

# The rule options of docs/rules.md#options, in Rules' order; each has a label and a help
# message, "option.<key>" and "option_help.<key>".
OPTIONS = tuple(Rules().to_dict())


# The review's grades (docs/review.md#grades), mildest first: each a message "grade.<key>".


def grade_label(grade: str) -> Message:
    """A review grade's name for people: "Mistake"."""
    return message(f"grade.{grade}")


def level_label(level: str) -> Message:
    """A level's name for people: "Master"."""
    return message(f"level.{level}")


def level_help(level: str) -> Message:
    """What a level is like, in one sentence."""
    return message(f"level_help.{level}")


def option_label(key: str) -> Message:
    """A rule option's name: "All Fours Calypso"."""
    return message(f"option.{key}")


def option_help(key: str) -> Message:
    """What a rule option does, in one sentence."""
    return message(f"option_help.{key}")


def seat_called(name: str | None, you: bool, host: bool = False) -> str:
    """How a seat is called: ``you`` (the person of the device that shows it), ``name`` (a
    person's name), ``host`` (the unnamed host, on a guest's device), else ``seat`` (its
    seat's name: a computer, or a person who gave no name)."""
    if name is not None and you:
        return "you"
    if name == "" and host:
        return "host"
    return "name" if name else "seat"


def seat_label(seat: int, name: str | None, you: bool, host: bool = False) -> Message:
    """What to call a seat: "You", "Host" (see seat_called), a person's name, else the
    seat."""
    called = seat_called(name, you, host)
    if called == "you":
        return message("label.you")
    if called == "host":
        return message("label.host")
    if called == "name":
        return message("label.person", name=name)
    return message("label.seat", seat=seat)


def side_label(first: Message, second: Message) -> Message:
    """A partnership's name from its two players' labels: "You & North", "Ana & Ben"."""
    return message("label.side", first=first, second=second)


def handoff(seat: int, label: Message) -> dict[str, Message]:
    """The hand-off screen's words: whom to pass the device to, and the button's name."""
    if label["id"] == "label.person":
        text = message("handoff.pass_to_person", name=label["params"]["name"], seat=seat)
    else:
        text = message("handoff.pass_to_seat", seat=seat)
    return {"text": text, "button": message("handoff.show", seat=seat)}


def cut_story(chooser: int, cards: dict[int, Card], suit: int, mate: int) -> Message:
    """The cut in one paragraph: who cut highest, the partners, the suits, the dealer."""
    partner = chooser ^ 2
    return message(
        "cut.story",
        chooser_seat=chooser, chooser_card=str(cards[chooser]),
        partner_seat=partner, partner_card=str(cards[partner]),
        suit=SUIT_LETTERS[suit], mate_suit=SUIT_LETTERS[mate],
    )


def deal_opening(deal: int, dealer: int, deals: int, cards: int) -> Message:
    """How a deal starts (``deal`` 0-based): who deals how many cards, and who leads."""
    return message("deal.opening", number=deal + 1, count=deals, dealer_seat=dealer,
                   cards=cards, leader_seat=(dealer + 1) % 4)


def bot_failed(level: str, problem: str) -> Message:
    """The note when a computer player failed and a random legal card was played for it
    (``problem`` is the error, for a developer: it stays as Python wrote it)."""
    return message("note.bot_failed", level=level, problem=problem)
