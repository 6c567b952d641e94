"""A challenge among friends: the same cards, played apart, compared deal by deal.

A **challenge** is a link: the **terms** of a match against computer players (rules, the
computer levels, the person's seat and suit, the length and the deal's seed), the sender's
name and, once the sender has played it, the sender's games. A **reply** is the link a
friend sends back: the challenge's id, the friend's name and games. Nothing else is
involved: no server, no account (docs/challenge.md).

**A game in a link** is its result as claimed (the partnerships' scores) and its cards, each
as its index among the legal cards of its position (``GameState.legal_moves``' order),
packed in mixed radix (``packing``): a forced card costs nothing. Normally only the person's
cards are carried and the computer players' are played again by the engine that reads the
link: a challenge is played without the clock (``Settings.clock``), so every computer move
depends on the position alone, and the reader computes the score itself; a claimed score
that the cards do not make is caught (``ResultError``). A game the sender played with a
clock and a search level (a move cut short on a slow device cannot be played again) carries
every card instead (``Played.every``), its computer cards as they fell.

Links are sealed (``packing.seal``): one cut short or retyped is refused, as is any value out
of range; what a link cannot prove is in docs/challenge.md.
"""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import json
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from ..bots import LEVELS, think_time
from ..cards import Card, Suit
from ..days import seed_date
from ..game import GameState
from ..naming import MAX_NAME_CHARS, collapsed, name_problem
from ..rules import Rules
from .daily import daily_settings
from .match import Match
from .packing import Packer, PackingError, Unpacker, from_text, seal, to_text, unseal
from .settings import HUMAN, MAX_GAMES, MAX_SEED_CHARS, Person, Settings

CHALLENGE, REPLY = 1, 2  # the formats of a sealed link (packing.FORMATS)
MAX_NAME_BYTES = 4 * MAX_NAME_CHARS  # UTF-8 takes at most 4 bytes a character
MAX_SEED_BYTES = 4 * MAX_SEED_CHARS
MAX_PLAYS_BYTES = 128  # a game's every card fits in 97 bytes (208 choices among at most 13)
SCORE_RADIX = 1 << 16  # a partnership's score is below 6,700 (two players' four calypsos)
LEVEL_RADIX = 16  # room for more levels in the same format
ID_BYTES = 8
MAX_LINK_CHARS = 4_000  # the longest challenge of 4 games is under 900 (docs/challenge.md)
# Seeds: a text, a whole number written plainly (what a random seed is), or a day's.
_TEXT_SEED, _NUMBER_SEED, _DAY_SEED = range(3)
_NUMBER_DIGITS = 18
_DAY_RADIX = 1 << 22  # a date's ordinal (datetime.date.toordinal) is below 3,652,060
_RULES = tuple(field.name for field in dataclasses.fields(Rules))


class LinkError(ValueError):
    """A challenge or reply link that cannot be read (cut short, edited, out of range)."""


class ResultError(ValueError):
    """A game in a link whose claimed score is not what its cards make."""

    def __init__(self, english: str, claimed: tuple[int, int], played: tuple[int, int]) -> None:
        super().__init__(english)
        self.claimed, self.played = claimed, played


@dataclass(frozen=True)
class Terms:
    """What a challenge deals: seed, rules, levels (``HUMAN`` at the person's seat), the
    person's seat, the number of games and the person's suit (None: the seed's)."""

    seed: str
    rules: Rules
    levels: tuple[str, str, str, str]
    seat: int
    games: int
    suit: Suit | None

    @classmethod
    def of(cls, settings: Settings) -> Terms:
        """The terms of a match of one person against computer players; else ValueError."""
        if len(settings.people) != 1:
            raise ValueError("a challenge is a match of one person against computer players")
        return cls(settings.seed, settings.rules, settings.levels, settings.people[0].seat,
                   settings.games, settings.suit)

    def settings(self, name: str = "", *, straight: bool = False) -> Settings:
        """The settings of a match on these terms for ``name``, played without the clock."""
        day = seed_date(self.seed)
        if day is not None:  # the Calypso of the day, as daily deals it
            return daily_settings(day, straight=straight)
        return Settings(self.seed, self.rules, self.levels, (Person(self.seat, name),),
                        self.games, self.suit, straight=straight, clock=False)

    def to_json(self) -> dict[str, Any]:
        """The terms as the page shows them; ``daily`` is the date of a day's deal."""
        day = seed_date(self.seed)
        return {"seed": self.seed, "rules": self.rules.to_dict(), "levels": list(self.levels),
                "seat": self.seat, "games": self.games,
                "suit": None if self.suit is None else str(self.suit),
                "daily": None if day is None else day.isoformat()}

    def pack(self, packer: Packer) -> None:
        """Put the terms in a link."""
        day = seed_date(self.seed)
        if day is not None:
            packer.put(_DAY_SEED, 3)
            packer.put(day.toordinal(), _DAY_RADIX)
        elif self.seed.isascii() and self.seed.isdigit() and str(int(self.seed)) == self.seed \
                and len(self.seed) <= _NUMBER_DIGITS:
            packer.put(_NUMBER_SEED, 3)
            packer.put(len(self.seed) - 1, _NUMBER_DIGITS)
            packer.put(int(self.seed), 10 ** len(self.seed))
        else:
            packer.put(_TEXT_SEED, 3)
            packer.put_text(self.seed, MAX_SEED_BYTES)
        for name in _RULES:
            packer.put(int(getattr(self.rules, name)), 2)
        packer.put(self.seat, 4)
        for seat in self._computer_seats():
            packer.put(LEVELS.index(self.levels[seat]), LEVEL_RADIX)
        packer.put(self.games - 1, MAX_GAMES)
        packer.put(0 if self.suit is None else int(self.suit) + 1, 5)

    @classmethod
    def unpack(cls, unpacker: Unpacker) -> Terms:
        """Read the terms ``pack`` put; a value out of range raises ``LinkError``."""
        kind = unpacker.take(3)
        if kind == _DAY_SEED:
            ordinal = unpacker.take(_DAY_RADIX)
            if not 0 < ordinal <= datetime.date.max.toordinal():
                raise LinkError(f"day {ordinal} is no date")
            seed = f"daily:{datetime.date.fromordinal(ordinal).isoformat()}"
        elif kind == _NUMBER_SEED:
            digits = unpacker.take(_NUMBER_DIGITS) + 1
            seed = str(unpacker.take(10**digits))
            if len(seed) != digits:
                raise LinkError(f"a seed of {digits} digits written with {len(seed)}")
        else:
            seed = _text(unpacker, MAX_SEED_BYTES, MAX_SEED_CHARS, "seed")
            if seed_date(seed) is not None or not seed:
                raise LinkError("a day's seed or no seed written as text")
        rules = Rules(**{name: bool(unpacker.take(2)) for name in _RULES})
        seat = unpacker.take(4)
        levels = [HUMAN] * 4
        for other in (seat + 1, seat + 2, seat + 3):
            index = unpacker.take(LEVEL_RADIX)
            if index >= len(LEVELS):
                raise LinkError(f"level {index} is not one of the {len(LEVELS)} levels")
            levels[other % 4] = LEVELS[index]
        games = unpacker.take(MAX_GAMES) + 1
        suit_code = unpacker.take(5)
        suit = None if suit_code == 0 else Suit(suit_code - 1)
        terms = cls(seed, rules, (levels[0], levels[1], levels[2], levels[3]), seat, games, suit)
        if seed_date(seed) is not None and Terms.of(terms.settings()) != terms:
            raise LinkError("a day's seed with other terms than the day's")
        return terms

    def _computer_seats(self) -> tuple[int, int, int]:
        return ((self.seat + 1) % 4, (self.seat + 2) % 4, (self.seat + 3) % 4)

    @property
    def searches(self) -> bool:
        """Whether a computer player of these terms searches (and has a clock to turn off)."""
        return any(think_time(self.levels[seat]) is not None for seat in self._computer_seats())


@dataclass(frozen=True)
class Played:
    """One person's match in a link: their name, each game's claimed partnership scores and
    cards (packed: ``played_of``), and whether every card is carried (``every``) or only the
    person's."""

    name: str
    scores: tuple[tuple[int, int], ...]
    plays: tuple[int, ...]
    every: bool = False

    def pack(self, packer: Packer) -> None:
        """Put the games (their number first, 1-4) in a link."""
        packer.put(len(self.plays), MAX_GAMES + 1)
        packer.put(int(self.every), 2)
        for (north_south, east_west), plays in zip(self.scores, self.plays, strict=True):
            packer.put(north_south, SCORE_RADIX)
            packer.put(east_west, SCORE_RADIX)
            packer.put_bytes(plays.to_bytes((plays.bit_length() + 7) // 8, "big"),
                             MAX_PLAYS_BYTES)

    @classmethod
    def unpack(cls, unpacker: Unpacker, name: str, games: int | None) -> Played | None:
        """Read the games ``pack`` put (None when there are none); ``games`` is how many the
        terms deal, when known."""
        count = unpacker.take(MAX_GAMES + 1)
        every = bool(unpacker.take(2))
        if count == 0:
            if every:
                raise LinkError("no games, yet every card carried")
            return None
        if games is not None and count != games:
            raise LinkError(f"{count} games in a match of {games}")
        scores, plays = [], []
        for _ in range(count):
            scores.append((unpacker.take(SCORE_RADIX), unpacker.take(SCORE_RADIX)))
            data = unpacker.take_bytes(MAX_PLAYS_BYTES)
            if data[:1] == b"\0":
                raise LinkError("a game's cards are not written as this engine writes them")
            plays.append(int.from_bytes(data, "big"))
        return cls(name, tuple(scores), tuple(plays), every)


@dataclass(frozen=True)
class Challenge:
    """A challenge: its terms, the sender's name, and the sender's games (None before the
    sender has played)."""

    terms: Terms
    sender: str
    played: Played | None = None

    @property
    def id(self) -> str:
        """What names the challenge in a reply: the same terms from the same sender, played
        or not (base64url, 11 characters)."""
        return to_text(_id_number(self))

    def link(self) -> str:
        """The challenge as the text of a link (``#challenge=`` and this)."""
        packer = Packer()
        self.terms.pack(packer)
        packer.put_text(self.sender, MAX_NAME_BYTES)
        if self.played is None:
            packer.put(0, MAX_GAMES + 1)
            packer.put(0, 2)
        else:
            self.played.pack(packer)
        return seal(CHALLENGE, packer)

    @classmethod
    def read(cls, text: Any) -> Challenge:
        """The challenge a link's text holds; anything else raises ``LinkError``."""
        return _read(text, CHALLENGE, "challenge", cls._unpack)

    @classmethod
    def _unpack(cls, unpacker: Unpacker) -> Challenge:
        terms = Terms.unpack(unpacker)
        sender = _name(unpacker)
        return cls(terms, sender, Played.unpack(unpacker, sender, terms.games))


@dataclass(frozen=True)
class Reply:
    """A friend's answer to a challenge: the challenge's id, and the friend's games."""

    challenge: str
    played: Played

    @property
    def key(self) -> str:
        """What tells replies apart: the same reply opened twice has the same key."""
        return to_text(int.from_bytes(hashlib.sha256(self.link().encode()).digest()[:ID_BYTES],
                                      "big"))

    def link(self) -> str:
        """The reply as the text of a link (``#reply=`` and this)."""
        packer = Packer()
        packer.put(from_text(self.challenge), 1 << (8 * ID_BYTES))
        packer.put_text(self.played.name, MAX_NAME_BYTES)
        self.played.pack(packer)
        return seal(REPLY, packer)

    @classmethod
    def read(cls, text: Any) -> Reply:
        """The reply a link's text holds; anything else raises ``LinkError``."""
        return _read(text, REPLY, "reply", cls._unpack)

    @classmethod
    def _unpack(cls, unpacker: Unpacker) -> Reply:
        challenge = to_text(unpacker.take(1 << (8 * ID_BYTES)))
        name = _name(unpacker)
        played = Played.unpack(unpacker, name, None)
        if played is None or played.every:
            raise LinkError("a reply carries the friend's own cards of every game")
        return cls(challenge, played)


_Read = TypeVar("_Read")


def _read(text: Any, kind: int, what: str, unpack: Callable[[Unpacker], _Read]) -> _Read:
    """What ``unpack`` reads from a sealed link of format ``kind`` (a ``what``: "challenge" or
    "reply"), all of it; anything else raises ``LinkError``."""
    if not isinstance(text, str) or len(text) > MAX_LINK_CHARS:
        raise LinkError(f"a {what} link is a text of at most {MAX_LINK_CHARS:,} characters")
    try:
        found, unpacker = unseal(text)
        if found != kind:
            raise LinkError(f"this is not a {what} link (format {found})")
        value = unpack(unpacker)
        unpacker.end()
    except PackingError as exc:
        raise LinkError(f"the {what} link cannot be read: {exc}") from None
    return value


def _text(unpacker: Unpacker, max_bytes: int, max_chars: int, what: str) -> str:
    text = unpacker.take_text(max_bytes)
    if len(text) > max_chars or not text.isprintable() or text != " ".join(text.split()):
        raise LinkError(f"the {what} is not printable text of at most {max_chars} characters")
    return text


def _name(unpacker: Unpacker) -> str:
    """A person's name in a link, by the one rule for names (naming.py), as the table keeps it."""
    name = unpacker.take_text(MAX_NAME_BYTES)
    problem = name_problem(name)
    if problem is not None or name != collapsed(name):
        why = "spaces at its ends or in a row" if problem is None else problem["id"]
        raise LinkError(f"the name {name!r} is not a person's name: {why}")
    return name


def _id_number(challenge: Challenge) -> int:
    terms = challenge.terms.to_json()
    canonical = json.dumps([terms, challenge.sender], sort_keys=True, ensure_ascii=False)
    return int.from_bytes(hashlib.sha256(canonical.encode()).digest()[:ID_BYTES], "big")


# -- games in a link --------------------------------------------------------------------------


def played_of(settings: Settings, games: Sequence[GameState], name: str) -> Played:
    """The finished games of a match of one person, as a link carries them: every card when
    the match was played with the clock by a search level (it could not be played again),
    else the person's cards."""
    terms = Terms.of(settings)
    every = settings.clock and terms.searches
    scores, plays = [], []
    for game in games:
        if not game.is_over:
            raise ValueError("only finished games go in a challenge")
        packer = Packer()
        state = game.before(0)
        for card in game.plays:
            if every or state.to_move == terms.seat:
                legal = state.legal_moves()
                packer.put(legal.index(card), len(legal))
            state.play(card)
        scores.append(game.partnership_scores())
        plays.append(packer.number())
    return Played(name, tuple(scores), tuple(plays), every)


def replay(terms: Terms, played: Played, known: Sequence[GameState] = ()
           ) -> Generator[int | None, None, list[GameState]]:
    """Play a link's games again: the cards it carries, and the computer players' answers
    (none to compute when it carries every card). Yields None between two slices of a
    computer's search and the cards played so far after each card; returns the games.

    ``known`` are games of the same terms played without the clock (this device's own): a
    computer's card in a position they reached is taken from them, not searched again.
    A game whose claimed score its cards do not make raises ``ResultError``; cards left over
    raise ``LinkError``.
    """
    match = Match(terms.settings(played.name))
    games: list[GameState] = []
    done = 0
    for index, number in enumerate(played.plays):
        if index:
            match.next_game()
        state = match.state
        digits = Unpacker(number)
        twin = known[index].plays if index < len(known) else None
        while not state.is_over:
            seat = state.to_move
            n = len(state.plays)
            if played.every or seat == terms.seat:
                legal = state.legal_moves()
                card: Card = legal[digits.take(len(legal))]
            elif twin is not None and n < len(twin):
                card = twin[n]
            else:
                card, _ = yield from match.bots[seat].steps(state)
            state.play(card)
            if twin is not None and (n >= len(twin) or twin[n] != card):
                twin = None  # the games have parted: the computers answer this one's cards
            done += 1
            yield done
        if not digits.is_empty:
            raise LinkError(f"game {index + 1} holds more cards than it plays")
        scores = state.partnership_scores()
        if scores != played.scores[index]:
            raise ResultError(f"game {index + 1}: the link says {played.scores[index]}, its "
                              f"cards make {scores}", played.scores[index], scores)
        games.append(state)
    return games


