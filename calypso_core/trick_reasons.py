"""Why a trick was won, in words a player can check against docs/rules.md#who-wins-a-trick."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import CARDS, SEAT_NAMES, SUIT_NAMES, Card, Suit, check_seat
from .rules import Rules, parse_trick, trick_winner

STANDARD = Rules()


def explain_trick(
    cards: Sequence[Card | str | int],
    trumps: Sequence[Suit | str | int],
    rules: Rules = STANDARD,
    leader: int = 0,
) -> str:
    """One sentence saying who wins the trick so far and why, such as
    ``"West over-trumps with the 3♦."``

    ``cards`` and ``trumps`` are as for ``trick_winner`` (playing order, and the personal
    suit of each card's player); ``leader`` is the seat of the first card, used for names.
    """
    check_seat(leader)
    win = trick_winner(cards, trumps, rules)  # also checks the cards, suits and rules
    codes, suits = parse_trick(cards, trumps)
    led = codes[0] // 13
    trump_lead = led == suits[0]
    must_beat = rules.must_beat
    last_wins = rules.last_trump_wins

    def who(i: int) -> str:
        return SEAT_NAMES[(leader + i) % 4]

    def card(i: int) -> str:
        return CARDS[codes[i]].pretty

    def rank(i: int) -> int:
        return codes[i] % 13

    trump_ins = [i for i in range(1, len(codes)) if led != codes[i] // 13 == suits[i]]
    notes: list[str] = []
    if win in trump_ins:
        earlier = [i for i in trump_ins if i < win]
        later = [i for i in trump_ins if i > win]
        if earlier and last_wins:
            text = f"{who(win)} trumps in last with the {card(win)}: the last trump-in wins"
        elif earlier:
            text = f"{who(win)} over-trumps with the {card(win)}"
        elif trump_lead and must_beat:
            text = f"{who(win)} trumps in with the {card(win)}, above {who(0)}'s trump lead"
        elif trump_lead:
            text = f"{who(win)} trumps in with the {card(win)}: a trump-in beats a trump lead"
        else:
            text = f"{who(win)} trumps in with the {card(win)}"
        for i in later:
            if last_wins:  # only a later trump-in that failed to beat the trump lead loses
                notes.append(f"{who(i)}'s {card(i)} is not above the trump lead")
            elif rank(i) == rank(win):
                notes.append(f"{who(i)}'s {card(i)} only ties, and the first played wins")
            else:
                notes.append(f"{who(i)}'s {card(i)} is lower")
    elif win == 0 and trump_lead:
        text = f"{who(0)}'s trump lead stands"
        for i in trump_ins:  # only with must_beat can a trump-in fail against a trump lead
            tie = rank(i) == rank(0)
            notes.append(f"{who(i)}'s {card(i)} {'only ties' if tie else 'is lower'}")
    else:
        suit_name = SUIT_NAMES[led][:-1]
        text = f"{who(win)}'s {card(win)} is the highest {suit_name}"
        twins = [i for i in range(win + 1, len(codes)) if codes[i] == codes[win]]
        if twins:
            notes.append(f"{who(twins[0])}'s identical {card(win)} came later")
        own = [i for i in range(1, len(codes)) if i != win and suits[i] == led]
        if own:
            notes.append(f"{who(own[0])}'s {card(own[0])} only follows suit, so it is no trump")
    return "; ".join([text, *notes]) + "."

