"""Hints: the card a bot would play for the seat to move, and why.

The reason is built from the seat's own knowledge (what the card does to the trick on the
table, whose calypso it feeds, whether it is the top card left), so it reads the same
whatever level chose the card. It is a list of messages (``calypso_core.messages``), one per
sentence: "Trump in with the 3♦. It wins the trick unless someone after you beats it. Your
calypso gains 2 cards from it."
"""

from __future__ import annotations

import random
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from ..cards import CARDS, SUIT_LETTERS, Card, brief_repr
from ..game import GameState
from ..messages import Message, message
from .base import finish
from .knowledge import Knowledge, card_code
from .levels import ALL_LEVELS, make_bot

HIGH_RANK = 9  # a lead from the jack up is "high" in its suit


@dataclass(frozen=True)
class Suggestion:
    """A suggested card and why: messages, one per sentence (``messages.render`` says them)."""

    card: Card
    reason: list[Message]
    level: str


def suggest(
    state_or_observation: GameState | dict[str, Any],
    level: str = "master",
    seed: int = 0,
    **settings: Any,
) -> Suggestion:
    """The card the given level would play for the seat to move, and the reason.

    A ``GameState`` is seen through its mover's observation (the bot never sees more);
    an observation must be that of the seat to move. ``settings`` go to the bot (a
    search budget such as ``iterations=200, time_limit=None`` makes hints reproducible).
    """
    return finish(suggest_steps(state_or_observation, level, seed, **settings))


def suggest_steps(
    state_or_observation: GameState | dict[str, Any],
    level: str = "master",
    seed: int = 0,
    **settings: Any,
) -> Generator[None, None, Suggestion]:
    """``suggest`` in slices (the bot's ``choose_steps``: None between two slices of its
    search, the same card however it is sliced), so that a worker can answer other requests
    meanwhile (a guest's hint at a friends' table)."""
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
    card = yield from bot.choose_steps(obs, legal)
    codes = [int(c) for c in legal]
    return Suggestion(card, reason_for(Knowledge(obs), int(card), codes), level)


def reason_for(k: Knowledge, code: int, legal: list[int]) -> list[Message]:
    """What playing this card does, from the seat's point of view: one message per
    sentence, each stating facts of the position that speak for this card rather than
    another legal one (tests/test_message_truth.py checks both)."""
    card = str(CARDS[code])
    me = k.seat
    suit = code // 13
    if len(legal) == 1:
        return [message("hint.only_card", card=card)]
    if not k.trick:
        return _lead_reason(k, code, card)
    trumps = [k.suits[(k.leader + i) & 3] for i in range(4)]
    winner = k.rules.winner_fn
    cards = [*k.trick, code]
    n = len(k.trick)
    led = cards[0] // 13
    partner_winning = (k.leader + winner(k.trick, trumps)) & 3 == me ^ 2
    winners = [c for c in legal if winner([*k.trick, c], trumps) == n]
    if code in winners:
        trump_in = suit != led and suit == k.suits[me]
        said = [message("hint.trump_in" if trump_in else "hint.win", card=card),
                message("hint.note_last_to_play" if n == 3 else "hint.note_unless_beaten")]
        mine, partners = _our_calypso_cards(k, cards)
        if mine and partners:
            said.append(message("hint.note_gain_both", mine=mine, partners=partners))
        elif mine or partners:
            said.append(message("hint.note_gain_own" if mine else "hint.note_gain_partner",
                                count=mine or partners))
        elif code % 13 == min(c % 13 for c in winners):
            said.append(message("hint.note_lowest_winner"))
        elif n < 3:  # last to play, a higher winner is no harder to beat than a lower one
            said.append(message("hint.note_higher_winner"))
        return said
    others = [c for c in legal if c != code and c not in winners]
    if partner_winning:
        return [message("hint.partner_winning", card=card),
                *_whose_card(k, code, others, partner_winning=True)]
    if winners:
        return [message("hint.hold_back", card=card), *_whose_card(k, code, others)]
    return [message("hint.cannot_win", card=card), *_whose_card(k, code, others)]


def _whose_card(k: Knowledge, code: int, others: list[int], *, partner_winning: bool = False
                ) -> list[Message]:
    """What a card given up means for the calypsos, said only when it speaks for this card
    rather than one of the ``others`` it could give up instead. Of your side's suits: it goes
    into your side's calypso if your side wins the trick (said while your partner is winning,
    or when every other card is one your side's calypsos need as well), and the opponents can
    never use it. Of an opponent's suit: the owner's calypso has that rank already; or it
    still needs it, which is said when your partner is winning (the card would go to your
    side's pile) or when every other card would give the opponents a rank they need too."""
    owner = k.owner(code // 13)
    if owner in (k.seat, k.seat ^ 2):
        feeds = _feeds(k, code)
        if not partner_winning and any(not _ours_needs(k, c) for c in others):
            feeds = []  # losing the trick gives up a rank another card would not
        return [*feeds, message("hint.note_ours")]
    if not k.needs(owner, code):
        return [message("hint.note_they_have", owner_seat=owner)]
    if partner_winning:
        return [message("hint.note_out_of_reach", owner_seat=owner)]
    if others and all(_theirs_needs(k, c) for c in others):
        return [message("hint.note_all_needed")]
    return []  # another card would give the opponents nothing their calypsos need


def _ours_needs(k: Knowledge, code: int) -> bool:
    """Whether the seat's or its partner's calypso lacks this card's rank (of their suits)."""
    return k.needs(k.seat, code) or k.needs(k.seat ^ 2, code)


def _theirs_needs(k: Knowledge, code: int) -> bool:
    """Whether an opponent's calypso lacks this card's rank (of their suits)."""
    return k.needs(k.seat ^ 1, code) or k.needs(k.seat ^ 3, code)


def _feeds(k: Knowledge, code: int) -> list[Message]:
    """The note that a card goes into the seat's or its partner's calypso if their side wins
    the trick: that calypso lacks its rank, and no copy of it is in the trick already."""
    for seat, note in ((k.seat, "hint.note_feeds_own"), (k.seat ^ 2, "hint.note_feeds_partner")):
        if k.needs(seat, code) and code not in k.trick:
            return [message(note, card=str(CARDS[code]))]
    return []


def _lead_reason(k: Knowledge, code: int, card: str) -> list[Message]:
    me = k.seat
    suit, rank = code // 13, code % 13
    if suit == k.suits[me]:
        lead = "hint.lead_own_higher" if k.rules.must_beat else "hint.lead_own"
        return [message(lead, card=card), *_feeds(k, code)]
    if suit == k.suits[me ^ 2]:
        return [message("hint.lead_partners", card=card), *_feeds(k, code)]
    if not k.unseen_in_suit(suit, rank):
        return [message("hint.lead_top", card=card, suit=SUIT_LETTERS[suit])]
    return [message("hint.lead_high" if rank >= HIGH_RANK else "hint.lead_low", card=card,
                    suit=SUIT_LETTERS[suit], owner_seat=k.owner(suit))]


def _our_calypso_cards(k: Knowledge, cards: list[int]) -> tuple[int, int]:
    """How many cards of the trick would join the seat's and its partner's calypsos."""
    me = k.seat
    counts = {me: 0, me ^ 2: 0}
    masks = {me: k.calypso[me], me ^ 2: k.calypso[me ^ 2]}
    for c in cards:
        for seat in counts:
            if c // 13 == k.suits[seat] and not masks[seat] >> (c % 13) & 1:
                masks[seat] |= 1 << (c % 13)
                counts[seat] += 1
    return counts[me], counts[me ^ 2]
