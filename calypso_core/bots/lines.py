"""The line of a costly card: what the better card does that the played one does not.

Two things show it. **Facts of the search's own layouts**: while the review's search values
every legal card, ``LineWatch`` keeps, for its first ``LINE_LAYOUTS`` layouts, the tricks each
card led to (the playout's, or the exact search's line in the last tricks) and the calypsos
each seat completed by the end of the deal; ``line_facts`` turns the differences between the
best card and the played one into sentences (message ids with their counts: "The Q♥ takes
this trick for your side in 18 of 20 layouts; the 3♥ in 4", "after the 3♥, West takes it
with the J♥ in 12 of 20 layouts, and the J♥ joins West's calypso"), each a fact of those
layouts that speaks for the better card (tests/test_message_truth.py checks both). When no
such fact differs by ``FACT_MARGIN`` layouts, a costly card still gets one: in how many of
those layouts the better card ends the deal better for the side, or, failing that, by how
much on average over all the layouts searched. **The
master's continuation**: ``continuation`` plays the card from the true position and lets the
master play every seat for a trick or two, to step through after a deal is over (every card
of it has been seen by then).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from ..cards import CARDS, SUIT_LETTERS, Card
from ..fastsim import Sim
from ..game import GameState
from ..messages import Message, message
from .knowledge import Knowledge
from .levels import make_bot
from .policy import Value
from .search import solve_line

LINE_LAYOUTS = 20  # the layouts whose lines are kept (the first of the search's)
LINE_TRICKS = 2  # the tricks kept of each line
# A fact is said when it holds in this many more of the layouts with one card than the other.
FACT_MARGIN = 5
MOST_FACTS = 2  # facts said at most, strongest first
CONTINUATION_TRICKS = 2  # tricks the master's continuation plays: this one and the next
CONTINUATION_ITERATIONS = 400  # the master's budget a move in it (the ladder's master; clock off)

Trick = tuple[int, tuple[int, ...], int]  # leader, cards in the order played, winner


@dataclass(frozen=True)
class Played:
    """What one card led to in one layout: the first tricks settled from then on, the
    calypsos each seat completed from then to the end of the deal, and how many of the
    deal's tricks from this one on the seat's side took."""

    tricks: tuple[Trick, ...]
    completed: tuple[int, int, int, int]
    ours: int


class LineWatch:
    """Keeps the lines of every candidate card in the search's first ``layouts`` layouts (a
    ``search.Watch``): ``lines[code][layout]``, and ``held[layout]``, the suits each seat holds
    in that layout before the card (bit s: suit s)."""

    def __init__(self, side: int, evaluate: Value, layouts: int = LINE_LAYOUTS) -> None:
        self.side, self.evaluate, self.layouts = side, evaluate, layouts
        self.first = 0  # the layouts seen by the searches before this one (a review's slices)
        self.lines: dict[int, dict[int, Played]] = {}
        self.held: dict[int, tuple[int, int, int, int]] = {}
        self._log: list[Trick] = []
        self._before: tuple[int, ...] = ()
        self._start: Sim | None = None

    def start(self, layout: int, code: int, child: Sim, exact: bool) -> None:
        layout += self.first
        if layout >= self.layouts:
            return
        if layout not in self.held:
            cards = child._cards
            self.held[layout] = (_suits_held(cards, 0), _suits_held(cards, 1),
                                 _suits_held(cards, 2), _suits_held(cards, 3))  # fmt: skip
        self._before = tuple(child.completed(seat) for seat in range(4))
        self._log = []
        if exact:  # the exact search copies the position: its line is replayed at the end
            self._start = child.clone()
        else:
            child.record_tricks(self._log)

    def end(self, layout: int, code: int, child: Sim, exact: bool) -> None:
        layout += self.first
        if layout >= self.layouts:
            return
        end = child
        if exact and self._start is not None:
            end = self._start
            end.record_tricks(self._log)
            end.play_unchecked(code)
            for card in solve_line(child, self.side, self.evaluate):
                end.play_unchecked(card)
        done = tuple(end.completed(seat) - self._before[seat] for seat in range(4))
        ours = sum(winner & 1 == self.side for _, _, winner in self._log)
        played = Played(tuple(self._log[:LINE_TRICKS]), (done[0], done[1], done[2], done[3]),
                        ours)
        self.lines.setdefault(code, {})[layout] = played


def _suits_held(cards: list[list[int]], seat: int) -> int:
    return sum(1 << suit for suit in range(4) if cards[seat * 4 + suit])


# -- facts ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fact:
    """A sentence about the layouts and how strongly it speaks for the better card (how many
    more layouts it holds in with one card than with the other)."""

    strength: int
    said: list[Message]


def line_facts(k: Knowledge, watch: LineWatch, best: int, played: int,
               values: list[tuple[float, float]], average: float, searched: int
               ) -> list[Message]:
    """What the best card does that the played one does not, in the layouts ``watch`` kept:
    at most ``MOST_FACTS`` facts, strongest first, each holding in at least ``FACT_MARGIN``
    more layouts with the card it speaks for. Failing those, the same of the deal's tricks
    the side takes from here on (``_more_tricks``); failing that, in how many of the kept
    layouts the best card ends the deal better and worse (``values``: each kept layout's
    value with the best card and with the played one), when better more often; failing
    that, the best card's lead over the played one on average (``average``) over all the
    ``searched`` layouts, when it has one. Empty when nothing speaks for the best card."""
    with_best, with_played = watch.lines.get(best, {}), watch.lines.get(played, {})
    layouts = sorted(with_best.keys() & with_played.keys())
    names = {"best_card": str(CARDS[best]), "card": str(CARDS[played])}
    if layouts:
        b = [with_best[i] for i in layouts]
        p = [with_played[i] for i in layouts]
        held = [watch.held[i] for i in layouts]
        kept = names | {"layouts": len(layouts)}
        facts = [_takes_trick(k, b, p, kept), _trumped(k, b, p, held, kept),
                 *_completions(k, b, p, kept)]
        found = sorted((f for f in facts if f is not None and f.strength >= FACT_MARGIN),
                       key=lambda f: -f.strength)
        if found:
            return [m for fact in found[:MOST_FACTS] for m in fact.said]
        tricks = _more_tricks(b, p, kept)
        if tricks.strength >= FACT_MARGIN:
            return tricks.said
    better = sum(with_b > with_p for with_b, with_p in values)
    worse = sum(with_b < with_p for with_b, with_p in values)
    if better > worse:
        return [message("review.line.ends_better", better=better, worse=worse,
                        same=len(values) - better - worse, layouts=len(values), **names)]
    if average > 0:
        return [message("review.line.on_average", points=round(average), searched=searched,
                        **names)]
    return []


def _ours(k: Knowledge, seat: int) -> bool:
    return seat & 1 == k.seat & 1


def _takes_trick(k: Knowledge, b: list[Played], p: list[Played], names: dict[str, Any]
                 ) -> Fact | None:
    """The better card takes this trick for the seat's side more often; said with the
    opponent who most often takes it after the played card, and with which card."""
    ours_b = sum(bool(x.tricks) and _ours(k, x.tricks[0][2]) for x in b)
    ours_p = sum(bool(x.tricks) and _ours(k, x.tricks[0][2]) for x in p)
    said = [message("review.line.takes_trick", best_count=ours_b, played_count=ours_p, **names)]
    takers = Counter(_winning(x.tricks[0]) for x in p if x.tricks and not _ours(k, x.tricks[0][2]))
    if takers:
        (seat, card), count = takers.most_common(1)[0]
        after_best = sum(bool(x.tricks) and x.tricks[0][2] == seat for x in b)
        if count >= FACT_MARGIN and count > after_best:
            joins = card // 13 == k.suits[seat] and not k.calypso[seat] >> (card % 13) & 1
            said.append(message("review.line.taken_by_calypso" if joins else "review.line.taken_by",
                                seat=seat, winner_card=str(CARDS[card]), count=count,
                                card=names["card"], layouts=names["layouts"]))
    return Fact(ours_b - ours_p, said)


def _winning(trick: Trick) -> tuple[int, int]:
    """The seat that took a trick and the card it took it with."""
    leader, cards, winner = trick
    return winner, cards[(winner - leader) & 3]


def _trumped(k: Knowledge, b: list[Played], p: list[Played],
             held: list[tuple[int, int, int, int]], names: dict[str, Any]) -> Fact | None:
    """An opponent with none of the suit led trumps in and takes this trick after the played
    card more often than after the better one."""
    def trumper(x: Played, suits_held: tuple[int, int, int, int]) -> int | None:
        if not x.tricks:
            return None
        leader, cards, winner = x.tricks[0]
        led = cards[0] // 13
        card = cards[(winner - leader) & 3]
        if (_ours(k, winner) or card // 13 != k.suits[winner] or led == k.suits[winner]
                or suits_held[winner] >> led & 1):
            return None
        return winner

    after_played = Counter(s for x, h in zip(p, held, strict=True)
                           if (s := trumper(x, h)) is not None)
    if not after_played:
        return None
    seat, count = after_played.most_common(1)[0]
    after_best = sum(trumper(x, h) == seat for x, h in zip(b, held, strict=True))
    led = p[0].tricks[0][1][0] // 13 if p[0].tricks else 0
    return Fact(count - after_best, [message(
        "review.line.trumped", seat=seat, suit=SUIT_LETTERS[led], count=count,
        best_count=after_best, **names)])


def _completions(k: Knowledge, b: list[Played], p: list[Played], names: dict[str, Any]
                 ) -> list[Fact | None]:
    """A seat completes a calypso by the end of the deal more often with the better card
    (the seat or its partner), or less often (an opponent)."""
    facts: list[Fact | None] = []
    for seat in range(4):
        with_b = sum(x.completed[seat] > 0 for x in b)
        with_p = sum(x.completed[seat] > 0 for x in p)
        if _ours(k, seat):
            key = "review.line.you_complete" if seat == k.seat else "review.line.seat_completes"
            params = {"seat": seat} if seat != k.seat else {}
            facts.append(Fact(with_b - with_p, [message(
                key, best_count=with_b, played_count=with_p, **params, **names)]))
        else:
            facts.append(Fact(with_p - with_b, [message(
                "review.line.they_complete", seat=seat, best_count=with_b,
                played_count=with_p, **names)]))
    return facts


def _more_tricks(b: list[Played], p: list[Played], names: dict[str, Any]) -> Fact:
    """The seat's side takes more of the deal's tricks from this one on with the better card
    than with the played one in more layouts than fewer."""
    more = sum(x.ours > y.ours for x, y in zip(b, p, strict=True))
    fewer = sum(x.ours < y.ours for x, y in zip(b, p, strict=True))
    return Fact(more - fewer, [message("review.line.more_tricks", more=more, fewer=fewer,
                                       **names)])


# -- the master's continuation ----------------------------------------------------------------


def continuation(position: GameState, card: Card, *, seed: int | str,
                 tricks: int = CONTINUATION_TRICKS,
                 iterations: int = CONTINUATION_ITERATIONS) -> list[Card]:
    """The cards played after ``card`` in ``position`` (the true position, every card of the
    deal known) by masters in every seat, each from its own view, until ``tricks`` tricks
    are complete (this one included) or the deal ends: the likely play after the card.
    Their randomness comes from ``seed`` and the cards played, so the same seed gives the
    same line, with the same masters after any card."""
    steps = continuation_steps(position, card, seed=seed, tricks=tricks, iterations=iterations)
    return [chosen for chosen in steps if chosen is not None]


def continuation_steps(position: GameState, card: Card, *, seed: int | str,
                       tricks: int = CONTINUATION_TRICKS,
                       iterations: int = CONTINUATION_ITERATIONS
                       ) -> Generator[Card | None, None, None]:
    """``continuation`` in slices: each card once its master has chosen it, and None between
    two layouts of a master's search, so that a worker can answer other requests within a
    card. The same cards however it is sliced (the masters' clock is off)."""
    state = position.clone()
    state.play(card)
    deal = position.deal
    target = len(position.tricks) + tricks
    while not state.is_over and state.deal == deal and len(state.tricks) < target:
        seat = state.to_move
        legal = state.legal_moves()
        rng = random.Random(f"line:{seed}:{len(state.plays)}")
        bot = make_bot("master", seat, rng, iterations=iterations, time_limit=None)
        chosen = yield from bot.choose_steps(state.observation(seat), legal)
        state.play(chosen)
        yield chosen
