"""Invariants over 2,000 seeded random games, 125 under each of the 16 rule-option sets.

Every game is played by the engine and by the plain reference model of ``refmodel.py`` side
by side. At every step: the legal moves are non-empty and equal the model's (same cards,
same order), all 208 cards are accounted for, and the right seat is to move. After every
trick: its winner, and every player's calypso in progress, completed calypsos, pile and
score, equal the model's; after every deal, its 13 tricks (deal, leader, cards, winner).

At one random step of every game, at the end of every fifth game, and at every step of the
first game of two option sets, the expensive checks run too: every legal move applies and
every other card is refused with the state unchanged; a clone is equal and independent;
each observation is JSON-ready and does not change when the cards its seat cannot see are
moved; the record replays, through JSON text, to the identical state.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Sequence

import pytest
from helpers import ALL_RULES, rehide, replay, snapshot
from refmodel import Options, ReferenceGame

from calypso_core import (
    SEAT_NAMES,
    Card,
    GameState,
    IllegalMoveError,
    Rules,
    new_game,
    parse_record,
    to_record,
)
from calypso_core.cards import CARDS

GAMES_PER_OPTION_SET = 125  # x 16 option sets = 2,000 games
SAMPLED_STEPS = 1  # thorough checks at this many random steps of every game
THOROUGH_ENDS = 5  # and at the end of every 5th game
# The first game of these two option sets is checked thoroughly at every step. They are
# complements, last_in+all_fours and must_beat+leftovers: each option is on in one of them.
FULLY_CHECKED_OPTION_SETS = (6, 9)


def option_id(rules: Rules) -> str:
    names = ["must_beat", "last_in", "all_fours", "leftovers"]
    on = [name for name, value in zip(names, rules.to_dict().values(), strict=True) if value]
    return "+".join(on) or "none"


# -- how the random players choose -------------------------------------------------------------

Policy = Callable[[Sequence[Card], GameState, random.Random], Card]


def uniform(legal: Sequence[Card], state: GameState, rng: random.Random) -> Card:
    return rng.choice(legal)


def eager(legal: Sequence[Card], state: GameState, rng: random.Random) -> Card:
    """Mostly plays its own suit, high: many trump leads, trump-ins and finished calypsos."""
    own = state.suits[state.to_move]
    mine = [card for card in legal if card.suit == own]
    if mine and rng.random() < 0.8:
        return max(mine, key=lambda card: card.rank)
    return rng.choice(legal)


def extremes(legal: Sequence[Card], state: GameState, rng: random.Random) -> Card:
    """The lowest or the highest legal card: many identical cards and exact ties."""
    return legal[0] if rng.random() < 0.5 else legal[-1]


POLICIES: list[Policy] = [uniform, eager, extremes, eager]


def spelled(card: Card, rng: random.Random) -> Card | str | int:
    """The move in one of the forms play() accepts."""
    form = rng.randrange(8)
    if form == 0 and card.rank == 8:  # the ten
        return "10" + str(card.suit).lower()
    if form <= 1:
        return str(card).lower()
    if form == 2:
        return str(card)
    return int(card) if form == 3 else card


# -- the checks ---------------------------------------------------------------------------------


def cards_in_play(state: GameState) -> int:
    """Cards in hands, on the table and in the stock."""
    return sum(state.hand_size(seat) for seat in range(4)) + len(state.trick) + state.stock_size


def cards_won(state: GameState) -> int:
    """Cards in calypsos (complete and in progress) and in trick piles."""
    return sum(
        len(state.calypso(seat)) + 13 * state.completed(seat) + state.pile(seat)
        for seat in range(4)
    )


def check_step(state: GameState, model: ReferenceGame, step: int) -> tuple[Card, ...]:
    """The cheap checks, at every step (0-207); returns the legal moves."""
    assert not state.is_over
    legal = state.legal_moves()
    assert legal, "no legal move before the end"
    assert [str(card) for card in legal] == model.legal()
    assert state.to_move == model.to_move
    # The 208 cards: the won ones are 4 per finished trick, as checked after every trick.
    assert len(state.trick) == step % 4
    assert cards_in_play(state) + 4 * (step // 4) == 208
    return legal


def check_against_model(state: GameState, model: ReferenceGame) -> None:
    """After a trick: its winner, then every player's calypso, pile and score."""
    _, _, _, winner = model.tricks[-1]
    if len(model.tricks) % 13:
        assert state.leader == state.to_move == winner  # the winner leads the next trick
    else:
        check_tricks_of_the_deal(state, model)
    won = 0
    for seat, player in enumerate(model.players):
        in_progress = [str(card) for card in state.calypso(seat)]
        assert in_progress == model.in_progress(seat)
        assert state.completed(seat) == player.completed
        assert state.pile(seat) == player.pile
        won += len(in_progress) + 13 * player.completed + player.pile
    scores = tuple(player.score() for player in model.players)
    assert state.scores() == scores
    assert state.partnership_scores() == (scores[0] + scores[2], scores[1] + scores[3])
    assert state.deal == model.deal
    # The 208 cards: those won (4 per trick) and those in hands, on the table, in the stock.
    assert won == 4 * len(model.tricks)
    assert cards_in_play(state) + won == 208


def check_tricks_of_the_deal(state: GameState, model: ReferenceGame) -> None:
    """At the end of a deal: its 13 tricks, each with its deal, leader, cards and winner."""
    tricks = state.tricks
    assert len(tricks) == len(model.tricks)
    for trick, expected in zip(tricks[-13:], model.tricks[-13:], strict=True):
        deal, leader, cards, winner = expected
        assert (trick.deal, trick.leader, trick.winner) == (deal, leader, winner)
        assert tuple(str(card) for card in trick.cards) == cards


def check_hands(state: GameState, model: ReferenceGame) -> None:
    for seat, player in enumerate(model.players):
        assert Counter(str(card) for card in state.hand(seat)) == +player.hand
    assert [str(card) for card in state.unseen_stock()] == model.stock


def fingerprint(state: GameState) -> tuple[object, ...]:
    """The changing part of a position, cheaper than a full snapshot."""
    return (
        len(state.plays), state.to_move, state.leader, state.deal, tuple(state.trick),
        tuple(tuple(state.hand(seat)) for seat in range(4)),
        tuple((tuple(state.calypso(s)), state.completed(s), state.pile(s)) for s in range(4)),
    )  # fmt: skip


def check_thoroughly(
    state: GameState, model: ReferenceGame, rng: random.Random, stats: Counter[str]
) -> GameState:
    """The expensive checks; returns a clone to compare after the next real move."""
    stats["thorough"] += 1
    before = snapshot(state)
    unchanged = fingerprint(state)
    check_hands(state, model)

    # Every legal move applies; every other card is refused, naming card, player and reason.
    legal = set(state.legal_moves())
    who = SEAT_NAMES[state.to_move]
    for card in CARDS:
        if card in legal:
            assert state.is_legal(card)
            trial = state.clone()
            trial.play(card)
            assert len(trial.plays) == len(state.plays) + 1
            continue
        assert not state.is_legal(card)
        try:
            state.play(card)
        except IllegalMoveError as error:
            message = str(error)
        else:
            raise AssertionError(f"{card} was accepted but is not legal")
        if state.is_over:
            assert message == f"{card} cannot be played: the game is over"
        else:
            assert message.startswith(f"{card} is not legal for {who}, who ")
    for malformed in ("ZZ", "", None, 52):
        with pytest.raises(IllegalMoveError):
            state.play(malformed)  # type: ignore[arg-type]

    # A clone is equal, and moves on it leave the original alone.
    copy = state.clone()
    assert copy == state
    assert fingerprint(copy) == fingerprint(state)
    for _ in range(rng.randrange(1, 9)):
        if copy.is_over:
            break
        copy.play(rng.choice(copy.legal_moves()))

    # Observations: JSON-ready, the seat's own hand, legal moves only on its turn, and
    # unchanged when the cards this seat cannot see are moved.
    for seat, seen in enumerate(before["observations"]):
        assert json.loads(json.dumps(seen)) == seen
        assert seen["hand"] == [str(card) for card in state.hand(seat)]
        if seat == state.to_move and not state.is_over:
            assert seen["legal_moves"] == [str(card) for card in state.legal_moves()]
        else:
            assert seen["legal_moves"] == []
    if not state.is_over:  # at the end nothing is hidden
        seat = rng.randrange(4)
        deck = rehide(state, seat, rng)
        if deck != [str(card) for card in state.deck]:
            stats["rehidden"] += 1
        assert replay(state, deck).observation(seat) == before["observations"][seat]

    # The record replays to the identical state.
    record = to_record(state)
    again = parse_record(json.dumps(record))
    assert again == state
    assert snapshot(again) == before
    assert to_record(again) == record

    # Nothing above changed the state: not the refused moves, not the clone's moves.
    assert fingerprint(state) == unchanged
    assert to_record(state) == record
    return state.clone()


def check_end(state: GameState, model: ReferenceGame) -> None:
    assert state.is_over and model.is_over
    assert state.legal_moves() == ()
    assert len(state.plays) == 208 and len(state.tricks) == 52
    assert all(state.hand_size(seat) == 0 for seat in range(4))
    assert state.stock_size == 0 and state.trick == []
    assert cards_won(state) == 208
    ns, ew = state.partnership_scores()
    assert state.winner() == (None if ns == ew else 0 if ns > ew else 1)
    # Bounds: four calypsos at most; every pile card was won by someone.
    assert all(0 <= state.completed(seat) <= 4 for seat in range(4))
    assert sum(state.pile(seat) for seat in range(4)) <= 208


def play_and_check(seed: int, rules: Rules, thorough_everywhere: bool, stats: Counter[str]) -> None:
    rng = random.Random(seed)
    state = new_game(seed, rules)
    model = ReferenceGame(
        [str(card) for card in state.deck],
        [str(suit) for suit in state.suits],
        state.first_dealer,
        Options(**rules.to_dict()),
    )
    policy = POLICIES[seed % len(POLICIES)]
    sampled = set(rng.sample(range(208), SAMPLED_STEPS))
    check_hands(state, model)
    for step in range(208):
        legal = check_step(state, model, step)
        watched = None
        if thorough_everywhere or step in sampled:
            watched = check_thoroughly(state, model, rng, stats)
            watched_before = fingerprint(watched)
        card = policy(legal, state, rng)
        state.play(spelled(card, rng))
        if watched is not None:
            assert fingerprint(watched) == watched_before  # the clone ignored the real move
        done = model.play(str(card))
        if done is not None:
            check_against_model(state, model)
            stats["tricks"] += 1
            if len(model.tricks) % 13 == 0 and not state.is_over:
                check_hands(state, model)
    check_end(state, model)
    if thorough_everywhere or seed % THOROUGH_ENDS == 0:
        check_thoroughly(state, model, rng, stats)
    stats.update(model.events)
    stats["games"] += 1
    for seat in range(4):
        stats["completed"] += state.completed(seat)
    for trick in state.tricks:
        personal = [state.suits[(trick.leader + i) % 4] for i in range(4)]
        led = trick.cards[0].suit
        if any(card.suit == personal[i] != led for i, card in enumerate(trick.cards)):
            stats["tricks with a trump-in"] += 1


@pytest.mark.parametrize("rules", ALL_RULES, ids=option_id)
def test_random_games_keep_every_invariant(rules: Rules) -> None:
    stats: Counter[str] = Counter()
    index = ALL_RULES.index(rules)
    for game in range(GAMES_PER_OPTION_SET):
        everywhere = game == 0 and index in FULLY_CHECKED_OPTION_SETS
        play_and_check(10_000 * index + game, rules, everywhere, stats)
    # The games really exercised what they claim to check.
    assert stats["games"] == GAMES_PER_OPTION_SET
    assert stats["tricks"] == 52 * GAMES_PER_OPTION_SET
    assert stats["thorough"] >= GAMES_PER_OPTION_SET * SAMPLED_STEPS
    assert stats["rehidden"] >= GAMES_PER_OPTION_SET * 9 // 10  # late in a game, few move
    assert stats["completed"] == stats["calypso completed"] >= GAMES_PER_OPTION_SET // 4
    assert stats["calypso completed with duplicates"] > 0  # leftovers were decided
    assert stats["tricks with a trump-in"] >= 5 * GAMES_PER_OPTION_SET
