"""A match at one table: 1-4 games, 1-4 people and computer players in the other seats.

A match is 1-4 games (docs/rules.md#a-match): each game is reshuffled from its own seed,
suits stay with the seats, and the first dealer of a game is the last dealer of the one
before.

**Whose hand is shown.** One device serves every person at the table. ``viewer`` is the
seat whose hand is face up, or None when every hand is covered. A single person's hand is
always shown. With several people, the table starts covered; when the turn passes to a
person other than the viewer, every hand is covered until ``reveal`` shows that person's
(the page's hand-off screen). A load resumes covered. Undo is refused when several people
play: a card once seen by the others cannot be unseen.

**Guests.** A person marked remote plays on another device (a remote table, web/remote/):
this device never shows their hand, and waits for their card as for a computer's
(``waiting``); ``play_remote`` plays it, and each guest is sent only its own seat's view.
While a guest is away the host may let a computer player stand in for them (``stand_in``)
and take the seat back for them later; the record does not change, only who chooses the
seat's cards.
"""

from __future__ import annotations

import time
from collections.abc import Generator
from typing import Any

from ..cards import SEAT_NAMES, Card, CardParseError, brief_repr
from ..game import GameState, IllegalMoveError, new_game
from ..messages import Message, message
from ..record import RecordError, from_record, to_record
from .errors import ProtocolError
from .players import ComputerPlayer, Pace, hint_steps, hold_ms, make_chooser, suggest
from .sealed import opened_record, sealed_record
from .settings import Settings
from .story import truncated, undo_length


def computer_players(settings: Settings, game: int) -> dict[int, ComputerPlayer]:
    """The computer players of game ``game`` (0-based) of a match, by seat.

    Each is seeded from the match seed, the game and its seat, so that replaying a game
    (the master in your seat, ``table.rerun``) meets the same players; without the
    settings' ``clock`` they search their whole budgets, and replay the same anywhere.
    """
    salt = f"bots:{settings.seed}:{game}"
    return {
        seat: make_chooser(level, seat, f"{salt}:{seat}", clock=settings.clock)
        for seat, level in enumerate(settings.levels)
        if settings.name_of(seat) is None
    }



def game_seed(match_seed: str, index: int) -> str:
    """The shuffle seed of game ``index`` (0-based) of a match dealt from ``match_seed``."""
    return match_seed if index == 0 else f"{match_seed}/{index + 1}"


# The longest a guest's work takes the host's worker in one request (a slice of its hint's,
# review's or rerun's search), so that the table's own requests wait for one slice at most.
GUEST_SLICE_MS = 50
_Position = tuple[int, tuple[Card, ...]]  # a game's number in its match, and its cards played
_Hint = tuple[Card, list[Message]]


class Match:
    """The games of one match, the game in play, its computer players and whose hand
    is shown."""

    def __init__(self, settings: Settings, history: list[GameState] | None = None,
                 state: GameState | None = None) -> None:
        self.settings = settings
        self.history = history or []
        self.state = state if state is not None else self._deal(len(self.history))
        self.bots = self._make_bots()
        self.pace = Pace()  # how long the players without the clock searched here
        self.stand_ins: dict[int, str] = {}  # a guest's seat -> the level playing for them
        # A guest's seat -> its hint's search in progress, and the position it began in: the
        # game's number in the match and the cards played.
        self.hints: dict[int, tuple[_Position, Generator[None, None, _Hint]]] = {}
        self.viewer: int | None = self._first_viewer()

    def game_seed(self, index: int) -> str:
        """The shuffle seed of game ``index`` (0-based) of the match."""
        return game_seed(self.settings.seed, index)

    def _deal(self, index: int) -> GameState:
        s = self.settings
        if index:
            previous = self.history[-1]
            return new_game(self.game_seed(index), s.rules, suits=previous.suits,
                            first_dealer=previous.dealer)
        state = new_game(s.seed, s.rules)
        first = s.people[0].seat
        if s.suit is None or state.suits[first] == s.suit:
            return state
        # The first person gets the suit; the rest of the deal stays the seed's.
        drawn = state.suits
        suits = list(drawn)
        if drawn[first ^ 2] == s.suit:  # the partners swap suits
            suits[first], suits[first ^ 2] = drawn[first ^ 2], drawn[first]
        else:  # the pairs swap sides
            suits[first], suits[first ^ 2] = s.suit, s.suit.mate
            suits[(first + 1) % 4], suits[(first + 3) % 4] = drawn[first], drawn[first ^ 2]
        return new_game(s.seed, s.rules, suits=suits)

    def _make_bots(self) -> dict[int, ComputerPlayer]:
        return computer_players(self.settings, len(self.history))

    def _first_viewer(self) -> int | None:
        here = [p.seat for p in self.settings.people if not p.remote]
        return here[0] if len(here) == 1 else None

    @property
    def several(self) -> bool:
        """Whether more than one person plays (pass and play)."""
        return len(self.settings.people) > 1

    @property
    def is_over(self) -> bool:
        """Whether the last game of the match is finished."""
        return self.state.is_over and len(self.history) + 1 >= self.settings.games

    @property
    def status(self) -> str:
        """``your_turn`` (the viewer moves), ``waiting`` (a computer moves), ``handoff`` (a
        person whose hand is covered moves) or ``game_over``."""
        state = self.state
        if state.is_over:
            return "game_over"
        if self.settings.name_of(state.to_move) is None or state.to_move in self.remote_seats:
            return "waiting"
        return "your_turn" if state.to_move == self.viewer else "handoff"

    @property
    def remote_seats(self) -> tuple[int, ...]:
        """The seats of the guests, who play on other devices."""
        return self.settings.remote_seats

    def guest_seat(self, seat: Any) -> int:
        """``seat`` when a guest sits there; refuses any other seat (``not_a_guest``)."""
        if type(seat) is not int or seat not in self.remote_seats:
            raise ProtocolError("not_a_guest", f"seat must be a guest's seat "
                                f"({', '.join(str(s) for s in self.remote_seats) or 'none'}), "
                                f"not {brief_repr(seat)}")
        return seat

    def seat_status(self, seat: int) -> str:
        """The status as a guest at ``seat`` sees it: ``your_turn``, ``waiting`` or
        ``game_over``."""
        if self.state.is_over:
            return "game_over"
        return ("your_turn" if self.state.to_move == seat and seat not in self.stand_ins
                else "waiting")

    # -- commands ---------------------------------------------------------------------------

    def play(self, card: Any) -> dict[str, Any]:
        """The person whose hand is shown plays a card, on their turn; returns the move."""
        state = self.state
        code = parse_card(card)
        status = self.status
        if status == "game_over":
            raise ProtocolError("game_over", f"{code} cannot be played: the game is over")
        who = SEAT_NAMES[state.to_move]
        if status == "waiting":
            raise ProtocolError("not_your_turn", f"{code} cannot be played: it is {who}'s turn")
        if status == "handoff":
            raise ProtocolError(
                "hand_covered", f"{code} cannot be played: {who}'s hand is covered (reveal it)"
            )
        return self._play_checked(code)

    def play_remote(self, seat: Any, card: Any) -> dict[str, Any]:
        """The guest at ``seat`` plays a card, on their turn; returns the move."""
        seat = self.guest_seat(seat)
        code = parse_card(card)
        state = self.state
        if state.is_over:
            raise ProtocolError("game_over", f"{code} cannot be played: the game is over")
        if state.to_move != seat:
            raise ProtocolError("not_your_turn", f"{code} cannot be played: it is "
                                f"{SEAT_NAMES[state.to_move]}'s turn, not {SEAT_NAMES[seat]}'s")
        if seat in self.stand_ins:
            raise ProtocolError("stood_in", f"{code} cannot be played: a computer player "
                                f"plays for {SEAT_NAMES[seat]} until the host gives the seat back")
        return self._play_checked(code)

    def stand_in(self, seat: Any, level: Any) -> None:
        """A computer player of ``level`` plays for the guest at ``seat`` (who is away), or,
        with level None, the guest plays their seat again."""
        seat = self.guest_seat(seat)
        if level is None:
            self.stand_ins.pop(seat, None)
            self.bots.pop(seat, None)
            return
        if not isinstance(level, str):
            raise ProtocolError("bad_level", f"level must be a level's key or null, "
                                f"not {brief_repr(level)}")
        salt = f"bots:{self.settings.seed}:{len(self.history)}:{seat}:stand-in"
        self.bots[seat] = make_chooser(level, seat, salt)  # refuses an unknown level
        self.stand_ins[seat] = level

    def _play_checked(self, code: Card) -> dict[str, Any]:
        """The person to move plays ``code`` once whose turn it is was checked."""
        state = self.state
        seat = state.to_move
        try:
            state.play(code)
        except IllegalMoveError as exc:
            raise ProtocolError("illegal_move", str(exc), self._illegal(code)) from None
        return self._moved(seat, code, None, 0.0)

    def _illegal(self, code: Card) -> Message:
        """Why the person to move may not play a card: they do not hold it, or they must
        follow the suit led."""
        state = self.state
        if code not in state.hand(state.to_move):
            return message("error.not_held", card=str(code))
        return message("error.must_follow", card=str(code), suit=str(state.trick[0].suit))

    def step(self) -> dict[str, Any]:
        """One computer player moves; returns the move."""
        state = self.state
        if state.is_over:
            raise ProtocolError("game_over", "no computer move: the game is over")
        seat = state.to_move
        if seat not in self.bots:
            raise ProtocolError(
                "not_bot_turn", f"no computer move: it is {SEAT_NAMES[seat]}'s turn, a person's"
            )
        start = time.perf_counter()
        bot = self.bots[seat]
        forced, trick = len(state.legal_moves()) == 1, len(state.plays) % 52 // 4
        card, note = bot(state)
        elapsed = time.perf_counter() - start
        state.play(card)
        hold = hold_ms(bot.level, elapsed) if bot.clock else \
            self.pace.hold_ms(bot.level, trick, elapsed, forced)
        return self._moved(seat, card, note, elapsed, hold)

    def _moved(self, seat: int, card: Card, note: Message | None, elapsed: float,
               hold: int = 0) -> dict[str, Any]:
        """What a move did (the seat, the card, whether it ended a trick, a deal or the
        game, how long it was thought over and how long to hold it before showing it), after
        covering the hands if it passed the turn to another person."""
        state = self.state
        plays = len(state.plays)
        event = {
            "seat": seat,
            "card": str(card),
            "trick_over": plays % 4 == 0,
            "deal_over": plays % 52 == 0,
            "game_over": state.is_over,
            "think_ms": round(elapsed * 1000, 1),
            "hold_ms": hold,
            "note": note,
        }
        self._cover_on_handoff()
        return event

    def _cover_on_handoff(self) -> None:
        state = self.state
        if (self.several and not state.is_over and state.to_move != self.viewer
                and self.settings.name_of(state.to_move) is not None
                and state.to_move not in self.remote_seats):
            self.viewer = None

    def reveal(self, seat: Any) -> None:
        """Show the hand of the person to move (after the device was passed to them)."""
        if type(seat) is not int or not 0 <= seat < 4:
            raise ProtocolError("bad_request", f"seat must be 0-3, not {brief_repr(seat)}")
        state = self.state
        if state.is_over:
            raise ProtocolError("game_over", "no hand to show: the game is over")
        if (seat != state.to_move or self.settings.name_of(seat) is None
                or seat in self.remote_seats):
            raise ProtocolError(
                "not_your_turn",
                f"{SEAT_NAMES[seat]}'s hand stays covered: it is {SEAT_NAMES[state.to_move]}'s "
                "turn, and only the person to move may see their hand",
            )
        self.viewer = seat

    def show(self, seat: Any) -> None:
        """Show the hand that was shown before (a worker replaced mid-game), whoever is to
        move; None leaves the hands as they are."""
        if seat is None:
            return
        if (type(seat) is not int or self.settings.name_of(seat) is None
                or seat in self.remote_seats):
            raise ProtocolError("bad_request",
                                f"viewer must be a person's seat, not {brief_repr(seat)}")
        if self.several:
            self.viewer = seat
        self._cover_on_handoff()

    def next_game(self) -> None:
        """Start the next game of the match."""
        if not self.state.is_over:
            raise ProtocolError("game_not_over", "the game in play is not over yet")
        if self.is_over:
            raise ProtocolError("match_over", f"the match of {self.settings.games} games is over")
        history = [*self.history, self.state]
        nxt = Match(self.settings, history)
        self.history, self.state, self.bots = history, nxt.state, nxt.bots
        for seat, level in list(self.stand_ins.items()):  # who is away stays away
            self.stand_in(seat, level)
        self.viewer = nxt.viewer

    def undo(self) -> None:
        """Take back the person's last card of this game and every computer move after it."""
        if self.several:
            raise ProtocolError(
                "undo_off", "undo is off when several people play: a card once seen by the "
                "others cannot be unseen"
            )
        self._check_not_straight("undo")
        try:
            keep = undo_length(self.state, self.settings.seats[0])
        except ValueError:
            raise ProtocolError("nothing_to_undo", "you have played no card in this game yet") \
                from None
        self.state = truncated(self.state, keep)

    @property
    def can_undo(self) -> bool:
        """Whether ``undo`` has a card to take back."""
        if self.several or self.settings.straight or self.state.is_over:
            return False
        try:
            undo_length(self.state, self.settings.seats[0])
        except ValueError:
            return False
        return True

    def hint(self) -> tuple[Card, list[Message]]:
        """A suggested card for the person whose turn it is, with the reason (messages)."""
        self._check_not_straight("hint")
        if self.status != "your_turn":
            raise ProtocolError("not_your_turn", "a hint is for the person to move, hand shown")
        return suggest(self.state)

    def guest_hint(self, seat: int) -> _Hint | None:
        """A suggested card for the guest at ``seat`` on their turn, from their observation:
        its search goes on for ``GUEST_SLICE_MS`` at most, from where the last ask left it
        (the same card however it is sliced); None while it is not done."""
        self._check_not_straight("hint")
        if self.seat_status(seat) != "your_turn":
            raise ProtocolError("not_your_turn", f"a hint is for the seat to move, "
                                f"{SEAT_NAMES[self.state.to_move]}, not {SEAT_NAMES[seat]}")
        # The search goes on only in the very position it began in: this game (not the one
        # before, at the same count of cards) and these cards.
        position = (len(self.history), tuple(self.state.plays))
        begun = self.hints.get(seat)
        if begun is None or begun[0] != position:
            begun = self.hints[seat] = (position, hint_steps(self.state.clone()))
        end = time.perf_counter() + GUEST_SLICE_MS / 1000
        try:
            while True:
                next(begun[1])
                if time.perf_counter() >= end:
                    return None
        except StopIteration as done:
            del self.hints[seat]
            found: _Hint = done.value
            return found

    def _check_not_straight(self, kind: str) -> None:
        if self.settings.straight:
            raise ProtocolError(
                "straight", f"{kind} is off: the kept attempt at the Calypso of the day is "
                "played straight, with no hints and no undo", message("error.straight"))

    # -- saving -----------------------------------------------------------------------------

    def save(self) -> dict[str, Any]:
        """The recipe of the match: settings, the game in play (its deck sealed until it is
        over: ``sealed``), and the games before it. Each record names its players
        (docs/game-record.md#players)."""
        players = self.settings.players()
        return {
            "record": sealed_record(to_record(self.state, players), is_over=self.state.is_over),
            "settings": self.settings.to_dict(),
            "history": [to_record(game, players) for game in self.history],
        }

    @classmethod
    def load(cls, record: Any, settings: Any, history: Any) -> Match:
        """Rebuild a match from ``save()``; anything inconsistent is refused. With several
        people, every hand is covered: the page shows the hand-off first."""
        if not isinstance(settings, dict):
            raise ProtocolError("bad_settings", "settings must be an object")
        checked = Settings.from_request(settings, saved=True)
        if not isinstance(history, list):
            raise ProtocolError("bad_record", "history must be a list of game records")
        if len(history) >= checked.games:
            raise ProtocolError(
                "bad_record", f"{len(history)} earlier games in a match of {checked.games}"
            )
        games: list[GameState] = []
        for i, item in enumerate([*history, record]):
            name = "record" if i == len(history) else f"history[{i}]"
            item = opened_record(item)
            try:
                game = from_record(item)
            except RecordError as exc:
                raise ProtocolError("bad_record", f"{name}: {exc}") from None
            if "players" in item and item["players"] != checked.players():
                raise ProtocolError("bad_record", f"{name}: its players differ from the settings")
            if game.rules != checked.rules:
                raise ProtocolError("bad_record", f"{name}: its rules differ from the settings")
            if i < len(history) and not game.is_over:
                raise ProtocolError("bad_record", f"{name}: an earlier game is not finished")
            if games and game.suits != games[0].suits:
                raise ProtocolError("bad_record", f"{name}: the suits changed between games")
            if games and game.first_dealer != games[-1].dealer:
                raise ProtocolError(
                    "bad_record", f"{name}: the first dealer is not the last dealer before"
                )
            games.append(game)
        first = checked.people[0].seat
        if checked.suit is not None and games[0].suits[first] != checked.suit:
            raise ProtocolError("bad_record", "the record's suits differ from the settings")
        return cls(checked, games[:-1], games[-1])

    # -- what the match adds to the view ------------------------------------------------------

    def match_view(self) -> dict[str, Any]:
        """The games so far: which game this is (0-based), the finished ones and the totals."""
        finished = [
            {"scores": list(g.partnership_scores()), "winner": g.winner()} for g in self.history
        ]
        totals = [sum(g.partnership_scores()[side] for g in [*self.history, self.state])
                  for side in (0, 1)]
        over = self.is_over
        return {
            "game": len(self.history),
            "games": self.settings.games,
            "finished": finished,
            "totals": totals,
            "is_over": over,
            "winner": (None if totals[0] == totals[1] else int(totals[1] > totals[0]))
            if over else None,
        }


def parse_card(card: Any) -> Card:
    """A card's code as a person sent it, checked."""
    if not isinstance(card, str) or len(card) > 4:
        raise ProtocolError("bad_card", f"card must be text such as \"QH\", not {brief_repr(card)}")
    try:
        return Card.parse(card)
    except CardParseError as exc:
        raise ProtocolError("bad_card", str(exc)) from None
