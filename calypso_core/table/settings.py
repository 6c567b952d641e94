"""What a match is started with: seed, rules, who sits where, length and a suit.

Each seat holds a person or a computer player. ``people`` lists the people (1-4) in the
order given, each with a seat and a name (which may be empty); the other seats get a level.
A single person in South, unnamed, is the default. ``suit`` is the first person's suit.
A person marked ``remote`` plays on another device, a guest at this device's table
(web/remote/); the first person is always this device's.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..bots import LEVELS
from ..cards import SEAT_NAMES, CardParseError, Suit, brief_repr
from ..messages import Message, message
from ..naming import collapsed, name_problem
from ..rules import Rules
from . import words
from .errors import ProtocolError
from .players import default_level

HUMAN = "human"  # the level of a person's seat
MAX_GAMES = 4
MAX_SEED_CHARS = 100
DEFAULT_PEOPLE: tuple[dict[str, Any], ...] = ({"seat": 2, "name": ""},)
PERSON_KEYS = frozenset({"seat", "name", "remote"})
SETTINGS_KEYS = ("seed", "rules", "levels", "people", "games", "suit", "straight", "clock")


@dataclass(frozen=True)
class Person:
    """A person at the table: a seat, a name (empty when not given), and whether they play
    on another device (a guest at a remote table)."""

    seat: int
    name: str
    remote: bool = False


@dataclass(frozen=True)
class Settings:
    """What a match was started with: enough, with the game records, to rebuild it."""

    seed: str
    rules: Rules
    levels: tuple[str, str, str, str]  # per seat; HUMAN at the people's seats
    people: tuple[Person, ...]  # 1-4, in the order given
    games: int
    suit: Suit | None  # the first person's suit, or None for the seed's choice
    # Played straight (the kept attempt at the Calypso of the day): no hints, no undo.
    straight: bool = False
    # The search levels stop at their clock caps; False: each computer move is searched at
    # its level's whole budget, so that it depends on the position alone, on every device
    # (a challenge, the Calypso of the day: table.challenge).
    clock: bool = True

    def to_dict(self) -> dict[str, Any]:
        """The settings as JSON-ready data, as ``from_request`` reads them."""
        return {
            "seed": self.seed,
            "rules": self.rules.to_dict(),
            "levels": list(self.levels),
            "people": [{"seat": p.seat, "name": p.name, **({"remote": True} if p.remote else {})}
                       for p in self.people],
            "games": self.games,
            "suit": None if self.suit is None else str(self.suit),
            **({"straight": True} if self.straight else {}),
            **({} if self.clock else {"clock": False}),
        }

    @classmethod
    def from_request(cls, data: dict[str, Any], *, saved: bool = False) -> Settings:
        """Check new-game settings (or saved ones, where the seed is required).

        A save from before several people could play has no ``people``: its one person sat
        in South.
        """
        if saved:
            unknown = sorted(set(data) - set(SETTINGS_KEYS))
            if unknown:
                raise ProtocolError("bad_settings", f"settings: unknown {', '.join(unknown)}")
        people = _check_people(data.get("people"), saved=saved)
        return cls(
            seed=_check_seed(data.get("seed"), required=saved),
            rules=_check_rules(data.get("rules")),
            levels=_check_levels(data.get("level"), data.get("levels"), people),
            people=people,
            games=_check_games(1 if data.get("games") is None else data["games"]),
            suit=_check_suit(data.get("suit")),
            straight=_check_flag("straight", data.get("straight"), False),
            clock=_check_flag("clock", data.get("clock"), True),
        )

    @property
    def seats(self) -> tuple[int, ...]:
        """The people's seats, in the order given."""
        return tuple(p.seat for p in self.people)

    @property
    def remote_seats(self) -> tuple[int, ...]:
        """The seats of the people who play on another device (guests)."""
        return tuple(p.seat for p in self.people if p.remote)

    def name_of(self, seat: int) -> str | None:
        """A person's name ("" when not given), or None for a computer's seat."""
        return next((p.name for p in self.people if p.seat == seat), None)

    def labels(self, viewer: int | None = None) -> list[Message]:
        """What to call each seat ("You" for the only person on this device, or for the
        guest at ``viewer``; else names or seat names)."""
        return seat_labels(self.people, viewer)

    def called(self, viewer: int | None = None) -> list[str]:
        """How each seat's label is made: ``you``, ``name``, ``host`` or ``seat``
        (words.seat_called)."""
        return seat_calls(self.people, viewer)

    def side_labels(self, viewer: int | None = None) -> list[Message]:
        """What to call each partnership: its people first, in the order given."""
        return side_labels(self.labels(viewer), self.seats)

    def players(self) -> list[dict[str, str]]:
        """Who sits where, as a game record keeps it (docs/game-record.md#players)."""
        return [
            {"person": name} if (name := self.name_of(s)) is not None
            else {"computer": self.levels[s]}
            for s in range(4)
        ]


def you_seat(people: tuple[Person, ...], viewer: int | None = None) -> int | None:
    """The seat called "You": ``viewer`` when given (a guest's own view), else the only
    person on this device (at a remote table the guests play on others), else none."""
    if viewer is not None:
        return viewer
    here = [p.seat for p in people if not p.remote]
    return here[0] if len(here) == 1 else None


def host_seat(people: tuple[Person, ...], viewer: int | None = None) -> int | None:
    """The seat called "Host" when its person gave no name: in a guest's view (``viewer``
    given), the first person's, who plays on the host's device; else none."""
    if viewer is None or people[0].seat == viewer:
        return None
    return people[0].seat


def seat_labels(people: tuple[Person, ...], viewer: int | None = None) -> list[Message]:
    """What to call each seat: "You" for ``you_seat``, else a person's name (the seat's
    name when none was given, "Host" for an unnamed ``host_seat``); a computer's seat by its
    name. Messages (``words``)."""
    names = {p.seat: p.name for p in people}
    you, host = you_seat(people, viewer), host_seat(people, viewer)
    return [words.seat_label(s, names.get(s), s == you, s == host) for s in range(4)]


def seat_calls(people: tuple[Person, ...], viewer: int | None = None) -> list[str]:
    """How each seat's label (``seat_labels``) is made: ``you``, ``name``, ``host`` or
    ``seat``."""
    names = {p.seat: p.name for p in people}
    you, host = you_seat(people, viewer), host_seat(people, viewer)
    return [words.seat_called(names.get(s), s == you, s == host) for s in range(4)]


def people_of(players: list[dict[str, str]]) -> tuple[Person, ...]:
    """The people of a game record's ``players``, South first and then clockwise."""
    return tuple(Person(s, players[s]["person"]) for s in (2, 3, 0, 1) if "person" in players[s])


def side_labels(labels: list[Message], people: tuple[int, ...]) -> list[Message]:
    """Each partnership's name from its players' labels, people first (in ``people``'s
    order), then computer seats."""
    result = []
    for side in (0, 1):
        pair = [s for s in people if s % 2 == side]
        pair += [s for s in (side, side + 2) if s not in pair]
        result.append(words.side_label(labels[pair[0]], labels[pair[1]]))
    return result


# The settings a page keeps for new games (web/storage.js), each at the value new_game takes
# when it is left out.
KEPT_DEFAULTS: dict[str, Any] = {"level": None, "levels": None, "people": None, "rules": {},
                                 "games": 1, "suit": "random"}


def check_kept(kept: Any) -> tuple[dict[str, Any], list[tuple[str, ProtocolError]]]:
    """The settings a page kept for new games (``KEPT_DEFAULTS``' keys, each optional), each
    checked as ``new_game`` checks it: every accepted value as given, every refused one at its
    default, and the refusals by key. Levels are checked against the people kept (the
    default people when those are refused)."""
    if not isinstance(kept, dict) or set(kept) - set(KEPT_DEFAULTS):
        raise ProtocolError("bad_settings", f"settings must be an object with keys among "
                            f"{', '.join(KEPT_DEFAULTS)}, not {brief_repr(kept)}")
    checked = {**KEPT_DEFAULTS, **{key: value for key, value in kept.items() if value is not None}}
    refused: list[tuple[str, ProtocolError]] = []

    def take(key: str, check: Callable[[Any], Any]) -> Any:
        """The checked value of ``key`` (None when it is left out or refused)."""
        if checked[key] is None:
            return None
        try:
            return check(checked[key])
        except ProtocolError as error:
            refused.append((key, error))
            checked[key] = KEPT_DEFAULTS[key]
            return None

    people = take("people", _check_people) or _check_people(None)
    take("level", lambda level: _check_levels(level, None, people))
    take("levels", lambda levels: _check_levels(None, levels, people))
    take("rules", _check_rules)
    take("games", _check_games)
    take("suit", _check_suit)
    return checked, refused


def _check_people(people: Any, *, saved: bool = False) -> tuple[Person, ...]:
    if people is None:
        people = list(DEFAULT_PEOPLE)
    if not isinstance(people, list) or not 1 <= len(people) <= 4:
        raise ProtocolError(
            "bad_people", f"people must be a list of 1 to 4 people, not {brief_repr(people)}"
        )
    checked: list[Person] = []
    for item in people:
        if not isinstance(item, dict) or "seat" not in item or set(item) - PERSON_KEYS:
            raise ProtocolError(
                "bad_people",
                f'each person is {{"seat": 0-3, "name": text, "remote": true|false}}, '
                f"not {brief_repr(item)}",
            )
        remote = item.get("remote", False)
        if type(remote) is not bool:
            raise ProtocolError("bad_people", f"remote is true or false, not {brief_repr(remote)}")
        if remote and not checked:
            raise ProtocolError("bad_people", "the first person plays on this device: "
                                "only the others can be remote")
        seat, name = item["seat"], item.get("name", "")
        if type(seat) is not int or not 0 <= seat < 4:
            raise ProtocolError("bad_people", f"{brief_repr(seat)} is not a seat (0-3)")
        if any(p.seat == seat for p in checked):
            raise ProtocolError("bad_people", f"two people in {SEAT_NAMES[seat]}'s seat")
        if not isinstance(name, str):
            raise ProtocolError("bad_people", f"a name is text, not {brief_repr(name)}")
        name = collapsed(name)
        # The one rule for names (naming.py); a saved match from before it may keep a name
        # that is one of the table's labels.
        problem = name_problem(name, reserved=not saved)
        if problem is not None:
            raise ProtocolError("bad_people", f"{SEAT_NAMES[seat]}'s name {brief_repr(name)} "
                                f"is refused: {problem['id']}", problem)
        if name and any(p.name.casefold() == name.casefold() for p in checked):
            raise ProtocolError("bad_people", f"two people are called {name}: give each "
                                "a different name", message("error.same_name", name=name))
        checked.append(Person(seat, name, remote))
    return tuple(checked)


def _check_seed(seed: Any, *, required: bool) -> str:
    # Seeds are text so that 42, "42" and ?seed=42 all give the same deal as the terminal.
    if seed is None or seed == "":
        if required:
            raise ProtocolError("bad_settings", "settings: seed is missing")
        return str(random.SystemRandom().randrange(10**9))
    if type(seed) is int:
        seed = str(seed)
    if not isinstance(seed, str) or len(seed) > MAX_SEED_CHARS or not _is_utf8(seed):
        raise ProtocolError(
            "bad_seed", f"seed must be a number or a text of at most {MAX_SEED_CHARS} characters",
            message("error.seed_too_long", count=MAX_SEED_CHARS),
        )
    return seed


def _is_utf8(text: str) -> bool:
    try:
        text.encode()
    except UnicodeEncodeError:  # a lone surrogate, which JSON allows and seeding does not
        return False
    return True


def _check_rules(rules: Any) -> Rules:
    if rules is None:
        return Rules()
    try:
        return Rules.from_dict(rules)
    except (ValueError, TypeError) as exc:
        raise ProtocolError("bad_rules", str(exc)) from None


def _check_levels(
    level: Any, levels: Any, people: tuple[Person, ...]
) -> tuple[str, str, str, str]:
    seats = {p.seat for p in people}
    if level is not None and levels is not None:
        raise ProtocolError("bad_level", "give level (all seats) or levels (per seat), not both")
    if levels is None:
        levels = [default_level() if level is None else level] * 4
    if not isinstance(levels, list) or len(levels) != 4:
        raise ProtocolError("bad_level", "levels must be a list of four levels, one per seat")
    checked = []
    for seat, item in enumerate(levels):
        if seat in seats:
            checked.append(HUMAN)  # a person's seat: its entry is not a level, and ignored
        elif isinstance(item, str) and item in LEVELS:
            checked.append(item)
        else:
            raise ProtocolError(
                "bad_level",
                f"{SEAT_NAMES[seat]}: {brief_repr(item)} is not a level "
                f"(known: {', '.join(LEVELS)})",
            )
    return (checked[0], checked[1], checked[2], checked[3])


def _check_games(games: Any) -> int:
    if type(games) is not int or not 1 <= games <= MAX_GAMES:
        raise ProtocolError("bad_games", f"games must be a number from 1 to {MAX_GAMES}")
    return games


def _check_flag(key: str, value: Any, default: bool) -> bool:
    if value is None:
        return default
    if type(value) is not bool:
        raise ProtocolError("bad_settings", f"{key} must be true or false, not "
                            f"{brief_repr(value)}")
    return value


def _check_suit(suit: Any) -> Suit | None:
    if suit is None or suit == "random":
        return None
    try:
        return Suit.parse(suit)
    except CardParseError:
        message = f"{brief_repr(suit)} is not a suit (S, H, D, C or random)"
        raise ProtocolError("bad_suit", message) from None
