"""The master in your seat: a finished game of a match played again, the master in the person's
place.

The rerun deals the same deck (the game's own seed within the match) to the same seats and
meets the same computer players with the same seeds (``match.computer_players``); only the
person's cards are the master's. The players reply to different cards differently, but
with the same randomness, so the difference in the partnership's lead (its score less the
other side's, the review's unit) measures how well the person played the cards, not the
luck of them. The master's own randomness comes from the match seed, the
game and the number of cards played, as the computer players' does, and its search budget
is counted in iterations with no clock: the same rerun gives the same score anywhere.

A computer player of the search levels (expert, master) stops at its clock cap when it runs
out of time; where that happened in the original game, the same player may choose another
card in the rerun. Random, novice and club players never use the clock.

**At a table of several people on their own devices** (docs/remote.md#the-master-in-your-seat)
nobody can say which cards another person would have played on the master's different
tricks, so the master plays every person's seat, and the computer players are the same. The
rerun is then one game for the whole table, whoever's seat it is asked for (the master's
randomness at a seat depends on that seat, not on whose rerun it is): each person's
partnership is measured against the same master game. With several people at one device
(pass and play) there is no "your seat", and no rerun.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..bots import finish, make_bot
from ..cards import Card
from ..game import GameState, new_game
from ..record import to_record
from .match import Match, computer_players
from .settings import Settings

# Plays the person's seat in a rerun: given the position, the card.
Player = Callable[[GameState], Card]
# The same in slices: yields between two slices of its search, returns the card.
SlicedPlayer = Callable[[GameState], Generator[None, None, Card]]


@dataclass(frozen=True)
class Rerun:
    """The original game and its rerun with another player in the person's seat."""

    original: GameState
    rerun: GameState

    side: int  # the person's partnership: 0 North-South, 1 East-West

    @property
    def your_score(self) -> int:
        """The person's partnership score in the original game."""
        return self.original.partnership_scores()[self.side]

    @property
    def master_score(self) -> int:
        """The same partnership's score with the master in the person's seat."""
        return self.rerun.partnership_scores()[self.side]

    @property
    def your_lead(self) -> int:
        """The person's partnership lead in the original game: its score less the other
        side's, the unit of the review's points lost."""
        return lead(self.original, self.side)

    @property
    def master_lead(self) -> int:
        """The same partnership's lead with the master in the person's seat."""
        return lead(self.rerun, self.side)

    def to_json(self) -> dict[str, Any]:
        """Both games' partnership scores, the person's side, both games' leads of that side
        and their difference (yours less the master's), and the rerun's record."""
        return {
            "you": list(self.original.partnership_scores()),
            "master": list(self.rerun.partnership_scores()),
            "side": self.side,
            "your_lead": self.your_lead,
            "master_lead": self.master_lead,
            "difference": self.your_lead - self.master_lead,
            "record": to_record(self.rerun),
        }


def lead(state: GameState, side: int) -> int:
    """A partnership's lead: its score less the other side's (negative when behind)."""
    scores = state.partnership_scores()
    return scores[side] - scores[side ^ 1]


def rerun_steps(
    settings: Settings, game: GameState, index: int, player: Player,
    played: Sequence[Card | str] = (),
) -> Iterator[GameState]:
    """Play game ``index`` (0-based) of a match again, ``player`` in the person's seat.

    Yields the position after every card, so that a worker can report progress and stop
    between cards. ``game`` must be that game of the match (its deck is the one the
    settings deal); ``player`` plays every person's seat (the one person's, or at a friends'
    table each of the people's); the other seats are the match's computer players for that
    game, with their seeds. ``played`` are the rerun's first cards from an earlier run of it
    (kept in a save): they are played again without thinking, and the rerun goes on from
    there.
    """
    def at_once(state: GameState) -> Generator[None, None, Card]:
        yield from ()
        return player(state)

    for state in rerun_slices(settings, game, index, at_once, played):
        if state is not None:
            yield state


def rerun_slices(
    settings: Settings, game: GameState, index: int, player: SlicedPlayer,
    played: Sequence[Card | str] = (),
) -> Iterator[GameState | None]:
    """``rerun_steps`` in slices: the position after every card, and None between two
    slices of a card's search (the person's seat's ``player`` and the computer players
    yield between the layouts they search), so that a worker can answer other requests
    within a card. The same rerun however it is sliced."""
    check_game(settings, game, index)
    state = game.before(0)
    for card in played:
        state.play(card)  # every player chooses from the position alone: nothing else to redo
    bots = computer_players(settings, index)
    people = settings.seats
    while not state.is_over:
        seat = state.to_move
        if seat in people:
            card = yield from player(state)
        else:
            card, _ = yield from bots[seat].steps(state)
        state.play(card)
        yield state


def rerun_game(settings: Settings, game: GameState, index: int, player: Player) -> GameState:
    """The finished rerun of ``rerun_steps``."""
    *_, state = rerun_steps(settings, game, index, player)
    return state


def master_player(settings: Settings, index: int, iterations: int | None = None) -> Player:
    """The master for the people's seats, its randomness drawn afresh for every move.

    ``iterations`` is its search budget a move (the master's default when None), clock off.
    """
    sliced = master_slices(settings, index, iterations)
    return lambda state: finish(sliced(state))


def master_slices(settings: Settings, index: int, iterations: int | None = None
                  ) -> SlicedPlayer:
    """``master_player`` in slices: yields between the layouts it searches (the same card)."""
    budget = {} if iterations is None else {"iterations": iterations}
    salt = f"master-in-your-seat:{settings.seed}:{index}"
    first = settings.people[0].seat  # the one person's seat keeps the salt it always had

    def play(state: GameState) -> Generator[None, None, Card]:
        seat = state.to_move
        at = salt if seat == first else f"{salt}:{seat}"
        rng = random.Random(f"{at}:{len(state.plays)}")
        bot = make_bot("master", seat, rng, time_limit=None, **budget)
        return (yield from bot.choose_steps(state.observation(seat), state.legal_moves()))

    return play


def master_in_your_seat(
    settings: Settings | dict[str, Any],
    game: GameState,
    index: int = 0,
    *,
    iterations: int | None = None,
    seat: int | None = None,
) -> Rerun:
    """Game ``index`` of a match played again with the master in the person's seat.

    ``settings`` are the match's (or their saved form); ``iterations`` is the master's
    budget a move (its default when None); ``seat`` the person's at a table of several
    people on their own devices (the one person's when None).
    """
    if isinstance(settings, dict):
        settings = Settings.from_request(settings, saved=True)
    if not game.is_over:
        raise ValueError("the master plays your seat again only in a finished game")
    seat = rerun_seat(settings, seat)
    rerun = rerun_game(settings, game, index, master_player(settings, index, iterations))
    return Rerun(game, rerun, seat & 1)


def the_person(settings: Settings) -> int:
    """The seat of a match's one person; the master takes no seat among several people."""
    if len(settings.people) != 1:
        raise ValueError("the master plays the person's seat again only when one person plays")
    return settings.people[0].seat


def rerun_seat(settings: Settings, seat: int | None) -> int:
    """The seat a rerun is asked for: the one person's (None), or a person's at a table of
    several people on their own devices (a guest's, or the host's with only guests beside)."""
    if seat is None:
        here = [p.seat for p in settings.people if not p.remote]
        if len(here) != 1:
            raise ValueError("the master plays the person's seat again only when one person "
                             "plays on this device")
        return here[0]
    if seat not in settings.seats:
        raise ValueError(f"seat {seat!r} is no person's")
    return seat


def check_game(settings: Settings, game: GameState, index: int) -> None:
    """Refuse (``ValueError``) a game that is not game ``index`` of the match these settings
    deal: its rules, suits, first dealer and deck must be the match's."""
    if type(index) is not int or not 0 <= index < settings.games:
        raise ValueError(f"game {index!r} is not in a match of {settings.games} games")
    if game.rules != settings.rules:
        raise ValueError("the game's rules differ from the match's settings")
    first = Match(settings)
    if game.suits != first.state.suits:
        raise ValueError("the game's suits differ from those the match's settings deal")
    deck = new_game(first.game_seed(index), settings.rules).deck
    if game.deck != deck:
        raise ValueError(f"the game's deck is not the one game {index + 1} of this match deals")
    if index == 0 and game.first_dealer != first.state.first_dealer:
        raise ValueError("the game's first dealer is not the one the match's settings deal")
