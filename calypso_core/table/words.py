"""Every sentence and label the table sends to people, each kind made in one function.

Trick reasons come from ``calypso_core.trick_reasons`` and hint reasons from the bots; everything
else the page shows in the engine's words is made here, from parameters only (seats, names,
cards, levels), so that each function can become one translated message with the same
parameters.
"""

from __future__ import annotations

from ..cards import SEAT_NAMES, SUIT_NAMES, SUIT_SYMBOLS, Card

YOU = "You"

# What each computer level is like, for the new-game dialog (docs/bots.md#the-levels).
LEVEL_HELP = {
    "random": "Plays any legal card.",
    "novice": "Rules of thumb on what is on the table; remembers nothing.",
    "club": "Counts cards: voids shown, copies still live, ranks each calypso needs.",
    "expert": "Searches many possible layouts of the hidden cards.",
    "master": "Searches deeper and reads the others' plays; the strongest.",
}

# The rule options of docs/rules.md#options: label and help, in Rules' order.
OPTIONS = {
    "lead_trump_must_be_beaten": (
        "Trump lead must be beaten",
        "A led own-suit card counts as a trump: a trump-in must be higher to win.",
    ),
    "last_trump_in_wins": (
        "Last trump-in wins (early rules)",
        "When several players trump in, the last one wins, not the highest.",
    ),
    "all_fours": (
        "All Fours Calypso",
        "You may play your own suit even when you can follow; each trump must beat the best "
        "so far.",
    ),
    "leftovers_start_next_calypso": (
        "Leftovers start the next calypso",
        "Duplicates from the trick that completes a calypso start the next one (off: they go "
        "to the pile).",
    ),
}


def level_label(level: str) -> str:
    """A level's name for people: ``"Master"``."""
    return level.replace("_", " ").capitalize()


def level_help(level: str) -> str:
    """What a level is like, in one sentence (empty for a level this table does not know)."""
    return LEVEL_HELP.get(level, "")


def seat_label(seat: int, name: str | None, alone: bool) -> str:
    """What to call a seat: "You" for the only person, a person's name, else the seat."""
    if name is not None and alone:
        return YOU
    return name or SEAT_NAMES[seat]


def side_label(first: str, second: str) -> str:
    """A partnership's name from its two players' labels: "You & North", "Ana & Ben"."""
    return f"{first} & {second}"


def handoff(seat: int, label: str) -> dict[str, str]:
    """The hand-off screen's words: whom to pass the device to, and the button's name."""
    who = label if label == SEAT_NAMES[seat] else f"{label} ({SEAT_NAMES[seat]})"
    return {
        "text": f"Pass the device to {who}.",
        "button": f"Show {SEAT_NAMES[seat]}'s hand",
    }


def cut_story(chooser: int, cards: dict[int, Card], suit: int, mate: int) -> str:
    """The cut in one paragraph: who cut highest, the partners, the suits, the dealer."""
    partner = chooser ^ 2
    return (
        f"{SEAT_NAMES[chooser]} cuts highest ({cards[chooser].pretty}) and "
        f"{SEAT_NAMES[partner]} next ({cards[partner].pretty}): they are partners. "
        f"{SEAT_NAMES[chooser]} chooses {SUIT_NAMES[suit]} {SUIT_SYMBOLS[suit]}, "
        f"{SEAT_NAMES[partner]} takes {SUIT_NAMES[mate]} {SUIT_SYMBOLS[mate]}, "
        f"and {SEAT_NAMES[chooser]} deals first."
    )


def deal_opening(deal: int, dealer: int) -> str:
    """How a deal starts (``deal`` 0-based): who deals and who leads."""
    return (
        f"Deal {deal + 1} of 4: {SEAT_NAMES[dealer]} deals 13 cards to each player; "
        f"{SEAT_NAMES[(dealer + 1) % 4]} leads."
    )


def bot_failed(level: str, problem: str) -> str:
    """The note when a computer player failed and a random legal card was played for it."""
    return f"the {level} bot failed ({problem}); played at random"
