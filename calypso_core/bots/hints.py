"""Hints: the card a bot would play for the seat to move, with a one-line reason.

The reason is built from the seat's own knowledge (what the card does to the trick on the
table, whose calypso it feeds, whether it is the top card left), so it reads the same
whatever level chose the card: "trumps in with the 3♦: wins 2 cards for your calypso".
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..cards import CARDS, SEAT_NAMES, SUIT_NAMES, Card, brief_repr
from ..game import GameState
from .knowledge import Knowledge, card_code
from .levels import ALL_LEVELS, make_bot


@dataclass(frozen=True)
class Suggestion:
    """A suggested card and why, in one line."""

    card: Card
    reason: str
    level: str


def suggest(
    state_or_observation: GameState | dict[str, Any],
    level: str = "master",
    seed: int = 0,
    **settings: Any,
) -> Suggestion:
    """The card the given level would play for the seat to move, and a one-line reason.

    A ``GameState`` is seen through its mover's observation (the bot never sees more);
    an observation must be that of the seat to move. ``settings`` go to the bot (a
    search budget such as ``iterations=200, time_limit=None`` makes hints reproducible).
    """
    if level not in ALL_LEVELS or level == "cheater":
        raise ValueError(f"unknown hint level {level!r} (levels: random ... master)")
    if isinstance(state_or_observation, GameState):
        state = state_or_observation
        if state.is_over:
            raise ValueError("the game is over: there is no card to suggest")
        obs = state.observation(state.to_move)
    elif isinstance(state_or_observation, dict):
        obs = state_or_observation
    else:
        raise ValueError(
            "a suggestion needs a GameState or the observation of the seat to move, "
            f"not {brief_repr(state_or_observation)}"
        )
    if obs.get("is_over") or obs.get("to_move") != obs.get("seat") or not obs.get("legal_moves"):
        raise ValueError("a suggestion needs the observation of the seat to move")
    legal = [CARDS[card_code(text)] for text in obs["legal_moves"]]
    bot = make_bot(level, obs["seat"], random.Random(seed), **settings)
    card = bot.choose(obs, legal)
    codes = [int(c) for c in legal]
    return Suggestion(card, reason_for(Knowledge(obs), int(card), codes), level)


def reason_for(k: Knowledge, code: int, legal: list[int]) -> str:
    """One line saying what playing this card does, from the seat's point of view."""
    card = CARDS[code].pretty
    me = k.seat
    own = k.suits[me]
    suit = code // 13
    if len(legal) == 1:
        return f"plays the {card}: the only legal card"
    if not k.trick:
        return _lead_reason(k, code, card)
    rules = k.rules
    trumps = [k.suits[(k.leader + i) & 3] for i in range(4)]
    cards = [*k.trick, code]
    before = rules.winner_fn(k.trick, trumps)
    after = rules.winner_fn(cards, trumps)
    partner_was_winning = (k.leader + before) & 3 == me ^ 2
    led = cards[0] // 13
    gain = _our_calypso_cards(k, cards)
    gain_text = _gain_text(gain)
    n = len(k.trick)
    winners = [c for c in legal if rules.winner_fn([*k.trick, c], trumps) == n]
    if after == n:
        verb = "trumps in with" if suit != led and suit == own else "wins the trick with"
        risk = "" if len(cards) == 4 else " (if nobody after beats it)"
        if gain_text:
            return f"{verb} the {card}: takes {gain_text}{risk}"
        if code == min(winners, key=lambda c: (c % 13, c)):
            return f"{verb} the {card}: the cheapest card that wins the trick now{risk}"
        return f"{verb} the {card}: high enough to keep the trick{risk}"
    if winners and not partner_was_winning:
        return f"holds back with the {card}: winning this trick would cost more than it brings"
    if partner_was_winning:
        if k.needs(me ^ 2, code) or k.needs(me, code):
            whose = "your" if suit == own else "partner's"
            return f"partner is winning: feeds the {card} into {whose} calypso"
        return f"partner is winning: keeps the good cards and plays the {card}"
    if suit != led:
        if suit == own:
            return f"plays the {card}, your own suit: it cannot win here, but saves a better card"
        if k.needs(me ^ 1, code) or k.needs(me ^ 3, code):
            return f"discards the {card}: it cannot win the trick, and everything else costs more"
        return f"discards the {card}: the opponents already have that rank, so it gives them little"
    if k.needs(me ^ 1, code) or k.needs(me ^ 3, code):
        return f"plays the {card}: cannot win this trick, and it is the cheapest card to give away"
    return f"plays the {card}: cannot win this trick, and the opponents already have that rank"


def _lead_reason(k: Knowledge, code: int, card: str) -> str:
    me = k.seat
    suit, rank = code // 13, code % 13
    if suit == k.suits[me]:
        need = " your calypso needs it, and" if k.needs(me, code) else ""
        return f"leads the {card}, your own suit:{need} a trump lead wins unless someone trumps in"
    if suit == k.suits[me ^ 2]:
        return f"leads the {card} in partner's suit: partner can take it for the calypso"
    owner = SEAT_NAMES[k.owner(suit)]
    if not k.unseen_in_suit(suit, rank):
        return (
            f"leads the {card}: no higher {SUIT_NAMES[suit][:-1]} is left, so it should win and "
            f"pull {owner}'s {SUIT_NAMES[suit]} into your pile"
        )
    where = "high in" if rank >= 9 else "in"
    return f"leads the {card} {where} {owner}'s {SUIT_NAMES[suit]}, to draw out their calypso cards"


def _our_calypso_cards(k: Knowledge, cards: list[int]) -> dict[str, int]:
    me = k.seat
    counts = {"your": 0, "partner's": 0}
    masks = {me: k.calypso[me], me ^ 2: k.calypso[me ^ 2]}
    for c in cards:
        for seat, label in ((me, "your"), (me ^ 2, "partner's")):
            if c // 13 == k.suits[seat] and not masks[seat] >> (c % 13) & 1:
                masks[seat] |= 1 << (c % 13)
                counts[label] += 1
    return counts


def _gain_text(gain: dict[str, int]) -> str:
    parts = []
    for label, n in gain.items():
        if n:
            parts.append(f"{n} card{'s' if n > 1 else ''} for {label} calypso")
    return " and ".join(parts)
