"""Why a trick was won, as messages a player can check against docs/rules.md#who-wins-a-trick.

``trick_reason`` says it as a list of messages (``calypso_core.messages``): first who wins
and how, then a note for each card that might look as if it should have won — a later
trump-in that is lower, only ties or is not above the trump lead, an identical card played
later, or a card of its player's own suit that only follows suit. Each message states facts
of the trick that tests/test_message_truth.py checks against the trick itself.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import CARDS, SUIT_LETTERS, Card, Suit, check_seat
from .messages import Message, message, render
from .rules import Rules, parse_trick, trick_winner

STANDARD = Rules()


def trick_reason(
    cards: Sequence[Card | str | int],
    trumps: Sequence[Suit | str | int],
    rules: Rules = STANDARD,
    leader: int = 0,
) -> list[Message]:
    """Who wins the trick so far and why, one message per sentence: for example
    ``[{"id": "trick.overtrump", "params": {"seat": 3, "card": "3D"}}]``.

    ``cards`` and ``trumps`` are as for ``trick_winner`` (playing order, and the personal
    suit of each card's player); ``leader`` is the seat of the first card.
    """
    check_seat(leader)
    win = trick_winner(cards, trumps, rules)  # also checks the cards, suits and rules
    codes, suits = parse_trick(cards, trumps)
    led = codes[0] // 13
    trump_lead = led == suits[0]

    def about(message_id: str, i: int, **more: str | int) -> Message:
        return message(message_id, seat=(leader + i) % 4, card=str(CARDS[codes[i]]), **more)

    def rank(i: int) -> int:
        return codes[i] % 13

    trump_ins = [i for i in range(1, len(codes)) if led != codes[i] // 13 == suits[i]]
    said: list[Message] = []
    if win in trump_ins:
        others = [i for i in trump_ins if i != win]
        if rules.last_trump_wins and others and trump_lead and rules.must_beat:
            said.append(about("trick.last_above_lead", win, leader_seat=leader))
        elif rules.last_trump_wins and others:
            said.append(about("trick.trump_in_last", win))
        elif any(i < win for i in trump_ins):
            said.append(about("trick.overtrump", win))
        elif trump_lead and rules.must_beat:
            said.append(about("trick.trump_in_above_lead", win, leader_seat=leader))
        elif trump_lead:
            said.append(about("trick.trump_in_beats_lead", win))
        else:
            said.append(about("trick.trump_in", win))
        for i in trump_ins:
            if i > win:  # only a trump-in after the winner might look as if it should win
                said.append(about(_losing_trump_in(rank(i), rank(win), rules, trump_lead), i))
    elif win == 0 and trump_lead:
        said.append(about("trick.trump_lead_stands", 0))
        for i in trump_ins:  # only with must-beat can a trump-in fail against a trump lead
            said.append(about(_losing_trump_in(rank(i), rank(0), rules, trump_lead), i))
    else:
        said.append(about("trick.highest_of_suit", win, suit=SUIT_LETTERS[led]))
        twins = [i for i in range(win + 1, len(codes)) if codes[i] == codes[win]]
        if twins:
            said.append(about("trick.note_identical_later", twins[0]))
        # A card of its player's own suit that follows that suit led by someone else.
        for i in range(1, len(codes)):
            if i != win and suits[i] == led == codes[i] // 13:
                said.append(about("trick.note_follows_own_suit", i))
    return said


def _losing_trump_in(rank: int, best: int, rules: Rules, trump_lead: bool) -> str:
    """The note on a trump-in that lost: lower than the winning card, equal to it (the first
    played wins), or — when the last trump-in above a trump lead wins — not above the lead."""
    if rules.last_trump_wins and rules.must_beat and trump_lead:
        return "trick.note_not_above_lead"
    return "trick.note_ties" if rank == best else "trick.note_lower"


def explain_trick(
    cards: Sequence[Card | str | int],
    trumps: Sequence[Suit | str | int],
    rules: Rules = STANDARD,
    leader: int = 0,
    lang: str = "en",
) -> str:
    """``trick_reason`` in words, such as ``"West over-trumps with the 3♦."``."""
    return render(trick_reason(cards, trumps, rules, leader), lang)

