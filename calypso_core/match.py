"""A match for one person (South) against three computer players: the protocol's session.

A match is 1-4 games (docs/rules.md#a-match): each game is reshuffled from its own seed,
suits stay with the seats, and the first dealer of a game is the last dealer of the one
before. Computer players come from ``calypso_core.bots`` when it imports; the level
``"random"`` (a random legal card) always works, so the page plays before any bot exists.
"""

from __future__ import annotations

import importlib
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .cards import SEAT_NAMES, Card, CardParseError, Suit
from .game import GameState, IllegalMoveError, new_game
from .record import RecordError, from_record, to_record
from .rules import Rules
from .tableview import card_info, table_view, trick_view

YOU = 2  # the person plays South; North is the computer partner
MAX_GAMES = 4
MAX_SEED_CHARS = 100
SETTINGS_KEYS = ("seed", "rules", "levels", "games", "suit")

# A computer player: given the position, the card to play and a note if it fell back.
Chooser = Callable[[GameState], tuple[Card, str | None]]


class ProtocolError(ValueError):
    """A request the protocol refuses; ``code`` is the machine-readable reason."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def brief(value: Any, limit: int = 40) -> str:
    """A value's repr for an error message, cut short: messages never echo a huge input."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


# -- computer players -----------------------------------------------------------------------


def _bots() -> tuple[Any, str | None]:
    """The bots module, or None and why not (it may not exist yet, or may be broken)."""
    try:
        return importlib.import_module("calypso_core.bots"), None
    except Exception as exc:  # a broken bots package must not break the game
        return None, f"{type(exc).__name__}: {exc}"


def bot_levels() -> tuple[list[str], str | None]:
    """The levels on offer ("random" always among them) and why bots are missing, if so."""
    bots, problem = _bots()
    levels: list[str] = []
    if bots is not None:
        try:
            levels = [str(level) for level in bots.LEVELS]
        except Exception as exc:
            problem = f"calypso_core.bots.LEVELS: {type(exc).__name__}: {exc}"
    if "random" not in levels:
        levels.insert(0, "random")
    return levels, problem


def default_level() -> str:
    """The bots' own default level if they name one, else the second easiest."""
    bots, _ = _bots()
    levels, _ = bot_levels()
    named = getattr(bots, "DEFAULT_LEVEL", None)
    if isinstance(named, str) and named in levels:
        return named
    return levels[1] if len(levels) > 1 else levels[0]


def has_hints() -> bool:
    """Whether the bots can suggest a card to the person (``bots.suggest``)."""
    bots, _ = _bots()
    return callable(getattr(bots, "suggest", None))


def make_chooser(level: str, seat: int, salt: str) -> Chooser:
    """A computer player; any failure of a bot falls back to a random legal card, noted.

    Its randomness is drawn afresh for every move from ``salt`` and the number of cards
    played, so a move depends only on the position: after an undo, or a reload, the same
    play brings the same replies.
    """
    bots, _ = _bots()
    use_bot = bots is not None and level in bot_levels()[0]
    if use_bot:
        try:
            bots.make_bot(level, seat, random.Random(salt))
        except Exception as exc:
            use_bot = False
            if level != "random":
                problem = f"{type(exc).__name__}: {exc}"
                raise ProtocolError("bad_level", f"level {brief(level)}: {problem}") from None

    def choose(state: GameState) -> tuple[Card, str | None]:
        legal = state.legal_moves()
        rng = random.Random(f"{salt}:{len(state.plays)}")
        if not use_bot:
            return rng.choice(legal), None
        try:
            bot = bots.make_bot(level, seat, rng)
            chosen = bot.choose(state.observation(seat), legal)
            card = Card.parse(chosen) if isinstance(chosen, str) else Card(chosen)
            if card not in legal:
                raise IllegalMoveError(f"{card} is not legal")
            return card, None
        except Exception as exc:
            note = f"the {level} bot failed ({type(exc).__name__}: {exc}); played at random"
            return rng.choice(legal), note

    return choose


def computer_players(settings: Settings, game: int) -> dict[int, Chooser]:
    """The computer players of game ``game`` (0-based) of a match, by seat.

    Each is seeded from the match seed, the game and its seat, so that replaying a game
    (the master in your seat, calypso_core/rerun.py) meets the same players.
    """
    salt = f"bots:{settings.seed}:{game}"
    return {
        seat: make_chooser(level, seat, f"{salt}:{seat}")
        for seat, level in enumerate(settings.levels)
        if seat != YOU
    }


# -- settings -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Settings:
    """What a match was started with: enough, with the game records, to rebuild it."""

    seed: str
    rules: Rules
    levels: tuple[str, str, str, str]  # per seat; South's is unused (the person plays)
    games: int
    suit: Suit | None  # the person's suit, or None for the seed's choice

    def to_dict(self) -> dict[str, Any]:
        """The settings as JSON-ready data, as ``from_request`` reads them."""
        return {
            "seed": self.seed,
            "rules": self.rules.to_dict(),
            "levels": list(self.levels),
            "games": self.games,
            "suit": None if self.suit is None else str(self.suit),
        }

    @classmethod
    def from_request(cls, data: dict[str, Any], *, saved: bool = False) -> Settings:
        """Check new-game settings (or saved ones, where the seed is required)."""
        if saved:
            unknown = sorted(set(data) - set(SETTINGS_KEYS))
            if unknown:
                raise ProtocolError("bad_settings", f"settings: unknown {', '.join(unknown)}")
        return cls(
            seed=_check_seed(data.get("seed"), required=saved),
            rules=_check_rules(data.get("rules")),
            levels=_check_levels(data.get("level"), data.get("levels")),
            games=_check_games(data.get("games", 1)),
            suit=_check_suit(data.get("suit")),
        )


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
            "bad_seed", f"seed must be a number or a text of at most {MAX_SEED_CHARS} characters"
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


def _check_levels(level: Any, levels: Any) -> tuple[str, str, str, str]:
    known, _ = bot_levels()
    if level is not None and levels is not None:
        raise ProtocolError("bad_level", "give level (all seats) or levels (per seat), not both")
    if levels is None:
        one = default_level() if level is None else level
        levels = [one, one, "human", one]
    if not isinstance(levels, list) or len(levels) != 4:
        raise ProtocolError("bad_level", "levels must be a list of four levels, one per seat")
    checked = []
    for seat, item in enumerate(levels):
        if seat == YOU:
            checked.append("human")
        elif item in known:
            checked.append(item)
        else:
            raise ProtocolError(
                "bad_level",
                f"{SEAT_NAMES[seat]}: {brief(item)} is not a level (known: {', '.join(known)})",
            )
    return (checked[0], checked[1], checked[2], checked[3])


def _check_games(games: Any) -> int:
    if type(games) is not int or not 1 <= games <= MAX_GAMES:
        raise ProtocolError("bad_games", f"games must be a number from 1 to {MAX_GAMES}")
    return games


def _check_suit(suit: Any) -> Suit | None:
    if suit is None or suit == "random":
        return None
    try:
        return Suit.parse(suit)
    except CardParseError:
        message = f"{brief(suit)} is not a suit (S, H, D, C or random)"
        raise ProtocolError("bad_suit", message) from None


# -- the match ------------------------------------------------------------------------------


class Match:
    """The games of one match, the game in play and its computer players."""

    def __init__(self, settings: Settings, history: list[GameState] | None = None,
                 state: GameState | None = None) -> None:
        self.settings = settings
        self.history = history or []
        self.state = state if state is not None else self._deal(len(self.history))
        self.bots = self._make_bots()
        self.last_event: dict[str, Any] | None = None

    def game_seed(self, index: int) -> str:
        """The shuffle seed of game ``index`` (0-based) of the match."""
        return self.settings.seed if index == 0 else f"{self.settings.seed}/{index + 1}"

    def _deal(self, index: int) -> GameState:
        s = self.settings
        if index:
            previous = self.history[-1]
            return new_game(self.game_seed(index), s.rules, suits=previous.suits,
                            first_dealer=previous.dealer)
        state = new_game(s.seed, s.rules)
        if s.suit is None or state.suits[YOU] == s.suit:
            return state
        drawn = state.suits
        if drawn[YOU ^ 2] == s.suit:  # the partners swap suits
            suits = (drawn[2], drawn[1], drawn[0], drawn[3])
        else:  # the pairs swap sides
            suits = (s.suit.mate, drawn[0], s.suit, drawn[2])
        return new_game(s.seed, s.rules, suits=suits)

    def _make_bots(self) -> dict[int, Chooser]:
        return computer_players(self.settings, len(self.history))

    @property
    def is_over(self) -> bool:
        """Whether the last game of the match is finished."""
        return self.state.is_over and len(self.history) + 1 >= self.settings.games

    # -- commands ---------------------------------------------------------------------------

    def play(self, card: Any) -> None:
        """The person plays a card."""
        state = self.state
        if not isinstance(card, str) or len(card) > 4:
            raise ProtocolError("bad_card", f"card must be text such as \"QH\", not {brief(card)}")
        try:
            code = Card.parse(card)
        except CardParseError as exc:
            raise ProtocolError("bad_card", str(exc)) from None
        if state.is_over:
            raise ProtocolError("game_over", f"{code} cannot be played: the game is over")
        if state.to_move != YOU:
            who = SEAT_NAMES[state.to_move]
            raise ProtocolError("not_your_turn", f"{code} cannot be played: it is {who}'s turn")
        try:
            state.play(code)
        except IllegalMoveError as exc:
            raise ProtocolError("illegal_move", str(exc)) from None
        self._record_event(YOU, code, None, 0.0)

    def step(self) -> None:
        """One computer player moves."""
        state = self.state
        if state.is_over:
            raise ProtocolError("game_over", "no computer move: the game is over")
        seat = state.to_move
        if seat == YOU:
            raise ProtocolError("not_bot_turn", "no computer move: it is your turn")
        start = time.perf_counter()
        card, note = self.bots[seat](state)
        elapsed = time.perf_counter() - start
        state.play(card)
        self._record_event(seat, card, note, elapsed)

    def _record_event(self, seat: int, card: Card, note: str | None, elapsed: float) -> None:
        state = self.state
        trick = None
        completed = len(state.plays) % 4 == 0
        if completed:
            trick = trick_view(state.tricks[-1], tuple(int(s) for s in state.suits), state.rules)
        self.last_event = {
            "seat": seat,
            "card": card_info(card),
            "trick": trick,
            "deal_over": completed and len(state.plays) % 52 == 0,
            "game_over": state.is_over,
            "think_ms": round(elapsed * 1000, 1),
            "note": note,
        }

    def next_game(self) -> None:
        """Start the next game of the match."""
        if not self.state.is_over:
            raise ProtocolError("game_not_over", "the game in play is not over yet")
        if self.is_over:
            raise ProtocolError("match_over", f"the match of {self.settings.games} games is over")
        history = [*self.history, self.state]
        nxt = Match(self.settings, history)
        self.history, self.state, self.bots, self.last_event = history, nxt.state, nxt.bots, None

    def hint(self) -> dict[str, Any]:
        """A suggested card for the person, with the reason in words."""
        state = self.state
        if state.is_over or state.to_move != YOU:
            raise ProtocolError("not_your_turn", "a hint is for your turn")
        bots, problem = _bots()
        suggest = getattr(bots, "suggest", None)
        if suggest is None:
            raise ProtocolError("unavailable", f"no hints without computer players ({problem})")
        suggestion = suggest(state.clone(), seed=len(state.plays))
        card = Card.parse(str(suggestion.card))
        return {"card": card_info(card), "reason": str(suggestion.reason)}

    # -- saving -----------------------------------------------------------------------------

    def save(self) -> dict[str, Any]:
        """The recipe of the match: settings, the game in play, and the games before it."""
        return {
            "record": to_record(self.state),
            "settings": self.settings.to_dict(),
            "history": [to_record(game) for game in self.history],
        }

    @classmethod
    def load(cls, record: Any, settings: Any, history: Any) -> Match:
        """Rebuild a match from ``save()``; anything inconsistent is refused."""
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
            try:
                game = from_record(item)
            except RecordError as exc:
                raise ProtocolError("bad_record", f"{name}: {exc}") from None
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
        if checked.suit is not None and games[0].suits[YOU] != checked.suit:
            raise ProtocolError("bad_record", "the record's suits differ from the settings")
        return cls(checked, games[:-1], games[-1])

    # -- the view ---------------------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        """The whole table for the person, with match totals, settings and the last event."""
        view = table_view(self.state, YOU)
        for seat in view["seats"]:
            seat["level"] = self.settings.levels[seat["seat"]]
        finished = [
            {"game": i + 1, "scores": list(g.partnership_scores()), "winner": g.winner()}
            for i, g in enumerate(self.history)
        ]
        before = [sum(g.partnership_scores()[side] for g in self.history) for side in (0, 1)]
        now = self.state.partnership_scores()
        totals = [before[0] + now[0], before[1] + now[1]]
        over = self.is_over
        view["match"] = {
            "games": self.settings.games,
            "game_number": len(self.history) + 1,
            "finished": finished,
            "totals_before": before,
            "totals": totals,
            "is_over": over,
            "winner": (None if totals[0] == totals[1] else int(totals[1] > totals[0]))
            if over else None,
        }
        view["settings"] = self.settings.to_dict()
        view["last_event"] = self.last_event
        return view

