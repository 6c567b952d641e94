"""Every sentence the game teaches is true: each trick reason and each hint reason, checked
against the position it describes, over many seeded games and all 16 combinations of the rule
options.

Each message id states facts (this card followed suit; this card was a trump-in; the
opponents' calypso already holds this rank; no higher card of the suit is left outside the
hand...). ``TRICK_CLAIMS`` and ``HINT_CLAIMS`` say, for each id, how to check those facts
from the trick or the whole position (hidden cards included); an id without a check fails.
A hint's reason must also speak for its card: ``arguing_against`` flags a note whose stated
fact favours another legal card (the card it gives up feeds the opponents' calypso while
another would not, and so on), and none may be said. The review's lines of play
(``LINE_CLAIMS``) are facts of the layouts its search kept, each speaking for the better card.
Every message is also rendered in every language.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from helpers import ALL_RULES

from calypso_core import Card, GameState, Rules, new_game, trick_winner
from calypso_core.bots import Knowledge, suggest
from calypso_core.bots.lines import LINE_LAYOUTS, LineWatch, Played, line_facts
from calypso_core.bots.review import CardReview, CardReviewer
from calypso_core.messages import LANGUAGES, Message, render
from calypso_core.trick_reasons import trick_reason

GAMES = 10  # random games per rule option: 520 tricks each
RANDOM_TRICKS = 1500  # random tricks of four cards per rule option, on top of the games' tricks
HINTS = 500  # per rule option
JACK = 9
AGAINST = Path(__file__).parent / "golden" / "hints-arguing-against-their-card.json"


def rank(card: int) -> int:
    return card % 13


def suit(card: int) -> int:
    return card // 13


# -- trick reasons ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Trick:
    """A trick as the reason sees it: cards in playing order, the personal suit of each card's
    player, the leader's seat and the rules."""

    cards: tuple[int, ...]
    trumps: tuple[int, ...]
    leader: int
    rules: Rules

    @property
    def winner(self) -> int:
        return trick_winner(list(self.cards), list(self.trumps), self.rules)

    @property
    def led(self) -> int:
        return suit(self.cards[0])

    @property
    def trump_lead(self) -> bool:
        return self.trumps[0] == self.led

    def index(self, seat: int) -> int:
        return (seat - self.leader) % 4

    def trump_in(self, i: int) -> bool:
        return i > 0 and suit(self.cards[i]) != self.led and suit(self.cards[i]) == self.trumps[i]


def about(trick: Trick, said: Message) -> int:
    """The index of the card a message is about, checked against its seat and card."""
    params = said["params"]
    i = trick.index(params["seat"])
    assert i < len(trick.cards) and str(Card(trick.cards[i])) == params["card"], (said, trick)
    return i


def _wins(t: Trick, i: int) -> bool:
    return i == t.winner


def _trump_in_over_earlier(t: Trick, i: int) -> bool:
    earlier = [j for j in range(1, i) if t.trump_in(j)]
    return bool(earlier) and all(rank(t.cards[j]) < rank(t.cards[i]) for j in earlier)


def _no_later_trump_in(t: Trick, i: int) -> bool:
    return not any(t.trump_in(j) for j in range(i + 1, len(t.cards)))


def _highest_of_led(t: Trick, i: int) -> bool:
    return suit(t.cards[i]) == t.led and all(
        rank(c) <= rank(t.cards[i]) for c in t.cards if suit(c) == t.led)


def _last_above_lead(t: Trick, i: int) -> bool:
    lead = rank(t.cards[0])
    return rank(t.cards[i]) > lead and not any(
        t.trump_in(j) and rank(t.cards[j]) > lead for j in range(i + 1, len(t.cards)))


TrickClaim = Callable[[Trick, int, dict[str, Any]], bool]
# For each trick message: what it claims of the card it is about (index i), in the trick t.
TRICK_CLAIMS: dict[str, TrickClaim] = {
    "trick.trump_lead_stands": lambda t, i, p: i == 0 and _wins(t, i) and t.trump_lead,
    "trick.trump_in": lambda t, i, p: _wins(t, i) and t.trump_in(i),
    "trick.trump_in_beats_lead": lambda t, i, p: (
        _wins(t, i) and t.trump_in(i) and t.trump_lead and not t.rules.must_beat),
    "trick.trump_in_above_lead": lambda t, i, p: (
        _wins(t, i) and t.trump_in(i) and t.trump_lead and p["leader_seat"] == t.leader
        and rank(t.cards[i]) > rank(t.cards[0])),
    "trick.overtrump": lambda t, i, p: (
        _wins(t, i) and t.trump_in(i) and _trump_in_over_earlier(t, i)),
    "trick.trump_in_last": lambda t, i, p: (
        _wins(t, i) and t.trump_in(i) and _no_later_trump_in(t, i)
        and any(t.trump_in(j) for j in range(1, i))
        and t.rules.last_trump_wins and not (t.rules.must_beat and t.trump_lead)),
    "trick.last_above_lead": lambda t, i, p: (
        _wins(t, i) and t.trump_in(i) and t.trump_lead and p["leader_seat"] == t.leader
        and t.rules.last_trump_wins and t.rules.must_beat and _last_above_lead(t, i)),
    "trick.highest_of_suit": lambda t, i, p: (
        _wins(t, i) and _highest_of_led(t, i) and p["suit"] == "SHDC"[t.led]),
    "trick.note_lower": lambda t, i, p: (
        t.trump_in(i) and rank(t.cards[i]) < rank(t.cards[t.winner])),
    "trick.note_ties": lambda t, i, p: (
        t.trump_in(i) and i > t.winner and rank(t.cards[i]) == rank(t.cards[t.winner])),
    "trick.note_not_above_lead": lambda t, i, p: (
        t.trump_in(i) and t.trump_lead and rank(t.cards[i]) <= rank(t.cards[0])),
    "trick.note_identical_later": lambda t, i, p: (
        i > t.winner and t.cards[i] == t.cards[t.winner]),
    "trick.note_follows_own_suit": lambda t, i, p: (
        i > 0 and not _wins(t, i) and suit(t.cards[i]) == t.led == t.trumps[i]),
}
WINNER_FIRST = {key for key in TRICK_CLAIMS if not key.startswith("trick.note_")}


def check_trick(trick: Trick) -> list[str]:
    """Check every message of a trick's reason; return their ids."""
    said = trick_reason(list(trick.cards), list(trick.trumps), trick.rules, trick.leader)
    ids = [m["id"] for m in said]
    assert ids[0] in WINNER_FIRST and not WINNER_FIRST & set(ids[1:]), (ids, trick)
    assert about(trick, said[0]) == trick.winner, (said, trick)
    for message in said:
        claim = TRICK_CLAIMS[message["id"]]
        assert claim(trick, about(trick, message), message["params"]), (message, trick)
    for lang in LANGUAGES:
        assert render(said, lang)
    return ids


def game_tricks(rules: Rules, seed: str) -> list[Trick]:
    """The tricks of a game of random legal plays."""
    rng = random.Random(seed)
    state = new_game(seed, rules)
    while not state.is_over:
        state.play(rng.choice(state.legal_moves()))
    return [Trick(tuple(int(c) for c in t.cards),
                  tuple(int(state.suits[(t.leader + i) % 4]) for i in range(4)), t.leader, rules)
            for t in state.tricks]


def random_tricks(rules: Rules, seed: str, count: int) -> list[Trick]:
    """Tricks of any four cards (as All Fours or a void can make them), with each pair of
    suits seated either way, some of them unfinished."""
    rng = random.Random(seed)
    found = []
    for _ in range(count):
        suits = rng.choice([(0, 3, 1, 2), (2, 1, 3, 0), (1, 2, 0, 3), (3, 0, 2, 1)])
        leader = rng.randrange(4)
        size = rng.choice((1, 2, 3, 4, 4, 4))
        # Cards drawn from few ranks and suits, so that ties, twins and trump-ins are common.
        cards = tuple(rng.randrange(4) * 13 + rng.choice((3, 4, 5, 9, 11)) for _ in range(size))
        found.append(Trick(cards, tuple(suits[(leader + i) % 4] for i in range(size)), leader,
                           rules))
    return found


@cache
def trick_ids(option: int) -> Counter[str]:
    """Check the reasons of every trick of the games and random tricks of one rule option;
    count the message ids said."""
    rules = ALL_RULES[option]
    counts: Counter[str] = Counter()
    tricks = [t for g in range(GAMES) for t in game_tricks(rules, f"truth-{option}-{g}")]
    tricks += random_tricks(rules, f"random-{option}", RANDOM_TRICKS)
    assert len(tricks) >= 2000
    for trick in tricks:
        counts.update(check_trick(trick))
    return counts


@pytest.mark.parametrize("option", range(len(ALL_RULES)), ids=lambda i: repr(ALL_RULES[i]))
def test_every_trick_reason_states_only_facts_of_its_trick(option: int) -> None:
    assert sum(trick_ids(option).values()) >= 2000


def test_every_trick_message_is_said_and_checked() -> None:
    said = set().union(*(trick_ids(option) for option in range(len(ALL_RULES))))
    assert said == set(TRICK_CLAIMS)


def test_regression_a_void_owner_who_discards_is_not_said_to_follow_suit() -> None:
    # West owns diamonds, holds none, and discards a club on South's diamond lead: in 12.6% of
    # the tricks of random games the old reason said such a card "only follows suit".
    trick = Trick((Card.parse("4D"), Card.parse("4C"), Card.parse("8D"), Card.parse("9D")),
                  (0, 2, 1, 3), 2, Rules())
    assert "trick.note_follows_own_suit" not in check_trick(trick)


# -- hint reasons ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Hint:
    """A position, the card suggested for the seat to move, and what is true there."""

    state: GameState
    card: int

    @property
    def me(self) -> int:
        return self.state.to_move

    @property
    def trick(self) -> list[int]:
        return [int(c) for c in self.state.trick]

    def trumps(self, size: int) -> list[int]:
        return [int(self.state.suits[(self.state.leader + i) % 4]) for i in range(size)]

    def wins(self, card: int) -> bool:
        cards = [*self.trick, card]
        return trick_winner(cards, self.trumps(len(cards)), self.state.rules) == len(self.trick)

    @property
    def legal(self) -> list[int]:
        return [int(c) for c in self.state.legal_moves()]

    def owner(self, suit_: int) -> int:
        return [int(s) for s in self.state.suits].index(suit_)

    def lacks(self, seat: int, card: int) -> bool:
        """Whether the card is of the seat's suit and its calypso in progress lacks the rank."""
        return (suit(card) == int(self.state.suits[seat])
                and all(rank(c) != rank(card) for c in self.state.calypso(seat)))

    @property
    def partner_winning(self) -> bool:
        trick = self.trick
        return bool(trick) and (
            self.state.leader + trick_winner(trick, self.trumps(len(trick)), self.state.rules)
        ) % 4 == self.me ^ 2

    def outside(self) -> list[int]:
        """Every card outside the mover's hand that may still be played: the other hands and
        the stock (the hidden cards, which the test may look at)."""
        state = self.state
        stock = [int(c) for c in state.deck[len(state.deck) - state.stock_size:]]
        others = [int(c) for s in range(4) if s != self.me for c in state.hand(s)]
        return stock + others

    def gains(self) -> tuple[int, int]:
        """Cards of the table and the card that would join my and my partner's calypsos."""
        cards = [*self.trick, self.card]
        counts = []
        for seat in (self.me, self.me ^ 2):
            ranks = {rank(c) for c in cards if self.lacks(seat, c)}
            counts.append(len(ranks))
        return counts[0], counts[1]


def _lowest_winner(h: Hint) -> bool:
    return h.wins(h.card) and not any(h.wins(c) and rank(c) < rank(h.card) for c in h.legal)


def _feeds(h: Hint, seat: int, p: dict[str, Any]) -> bool:
    return (p["card"] == str(Card(h.card)) and h.lacks(seat, h.card)
            and h.card not in h.trick)


def _theirs_needs(h: Hint, card: int) -> bool:
    return h.lacks(h.me ^ 1, card) or h.lacks(h.me ^ 3, card)


def _ours_needs(h: Hint, card: int) -> bool:
    return h.lacks(h.me, card) or h.lacks(h.me ^ 2, card)


def _given_up(h: Hint) -> list[int]:
    """The other legal cards that would not win the trick either."""
    return [c for c in h.legal if c != h.card and not h.wins(c)]


def _opponent_owner(h: Hint, p: dict[str, Any]) -> bool:
    owner = p["owner_seat"]
    return owner in (h.me ^ 1, h.me ^ 3) and owner == h.owner(suit(h.card))


HintClaim = Callable[[Hint, dict[str, Any]], bool]
# For each hint message: what it claims of the position and the card.
HINT_CLAIMS: dict[str, HintClaim] = {
    "hint.only_card": lambda h, p: h.legal == [h.card],
    "hint.lead_own": lambda h, p: (
        not h.trick and suit(h.card) == h.state.suits[h.me] and not h.state.rules.must_beat),
    "hint.lead_own_higher": lambda h, p: (
        not h.trick and suit(h.card) == h.state.suits[h.me] and h.state.rules.must_beat),
    "hint.lead_partners": lambda h, p: not h.trick and suit(h.card) == h.state.suits[h.me ^ 2],
    "hint.lead_top": lambda h, p: (
        not h.trick and h.owner(suit(h.card)) in (h.me ^ 1, h.me ^ 3)
        and p["suit"] == "SHDC"[suit(h.card)]
        and not any(suit(c) == suit(h.card) and rank(c) > rank(h.card) for c in h.outside())),
    "hint.lead_high": lambda h, p: (
        not h.trick and _opponent_owner(h, p) and rank(h.card) >= JACK
        and p["suit"] == "SHDC"[suit(h.card)]),
    "hint.lead_low": lambda h, p: (
        not h.trick and _opponent_owner(h, p) and rank(h.card) < JACK
        and p["suit"] == "SHDC"[suit(h.card)]),
    "hint.trump_in": lambda h, p: (
        bool(h.trick) and h.wins(h.card) and suit(h.card) != suit(h.trick[0])
        and suit(h.card) == h.state.suits[h.me]),
    "hint.win": lambda h, p: (
        bool(h.trick) and h.wins(h.card)
        and not (suit(h.card) != suit(h.trick[0]) and suit(h.card) == h.state.suits[h.me])),
    "hint.note_last_to_play": lambda h, p: h.wins(h.card) and len(h.trick) == 3,
    "hint.note_unless_beaten": lambda h, p: h.wins(h.card) and 0 < len(h.trick) < 3,
    "hint.note_gain_own": lambda h, p: h.gains() == (p["count"], 0) and p["count"] > 0,
    "hint.note_gain_partner": lambda h, p: h.gains() == (0, p["count"]) and p["count"] > 0,
    "hint.note_gain_both": lambda h, p: (
        h.gains() == (p["mine"], p["partners"]) and p["mine"] > 0 and p["partners"] > 0),
    "hint.note_lowest_winner": lambda h, p: _lowest_winner(h),
    "hint.note_higher_winner": lambda h, p: (
        h.wins(h.card) and not _lowest_winner(h) and len(h.trick) < 3),
    "hint.partner_winning": lambda h, p: h.partner_winning and not h.wins(h.card),
    "hint.hold_back": lambda h, p: (
        any(h.wins(c) for c in h.legal) and not h.wins(h.card) and not h.partner_winning),
    "hint.cannot_win": lambda h, p: bool(h.trick) and not any(h.wins(c) for c in h.legal),
    "hint.note_ours": lambda h, p: h.owner(suit(h.card)) in (h.me, h.me ^ 2),
    "hint.note_feeds_own": lambda h, p: _feeds(h, h.me, p),
    "hint.note_feeds_partner": lambda h, p: _feeds(h, h.me ^ 2, p),
    "hint.note_out_of_reach": lambda h, p: (
        h.partner_winning and not h.wins(h.card) and _opponent_owner(h, p)
        and h.lacks(p["owner_seat"], h.card)),
    "hint.note_all_needed": lambda h, p: (
        bool(h.trick) and not h.wins(h.card) and not h.partner_winning
        and _theirs_needs(h, h.card) and bool(_given_up(h))
        and all(_theirs_needs(h, c) for c in _given_up(h))),
    "hint.note_they_have": lambda h, p: (
        _opponent_owner(h, p) and not h.lacks(p["owner_seat"], h.card)),
}


def arguing_against(h: Hint, ids: list[str]) -> list[str]:
    """The notes of a reason whose stated facts favour another legal card: while the
    opponents may take the trick, that the card feeds their calypso (when another card given
    up would not) or would feed your side's (when another would cost your side nothing);
    and, last to play, that a higher winner is harder to beat (a lower one wins as surely)."""
    flagged = []
    others = _given_up(h)
    losing = bool(h.trick) and not h.wins(h.card) and not h.partner_winning
    feeds_them = {"hint.note_all_needed", "hint.note_they_need", "hint.note_out_of_reach"}
    if losing and feeds_them & set(ids) and any(not _theirs_needs(h, c) for c in others):
        flagged.append("feeds the opponents, another card would not")
    feeds_us = {"hint.note_feeds_own", "hint.note_feeds_partner"}
    if losing and feeds_us & set(ids) and any(not _ours_needs(h, c) for c in others):
        flagged.append("gives up a rank your side needs, another card would not")
    if "hint.note_higher_winner" in ids and len(h.trick) == 3:
        flagged.append("a higher winner, last to play")
    return flagged


def check_hint(state: GameState, level: str, seed: int) -> list[str]:
    """Ask for a hint and check every message of its reason, and that none argues against
    its card; return their ids."""
    hint = suggest(state, level=level, seed=seed)
    facts = Hint(state, int(hint.card))
    assert facts.card in facts.legal
    for message in hint.reason:
        if "card" in message.get("params", {}):
            assert message["params"]["card"] == str(hint.card), message
        claim = HINT_CLAIMS[message["id"]]
        assert claim(facts, message.get("params", {})), (message, hint, state.trick)
    ids = [m["id"] for m in hint.reason]
    assert not arguing_against(facts, ids), (arguing_against(facts, ids), hint, state.trick)
    for lang in LANGUAGES:
        assert render(hint.reason, lang)
    return ids


@cache
def hint_ids(option: int) -> Counter[str]:
    """Check the hints at many positions of random games of one rule option; count the ids.
    The random and novice levels choose the cards (cheap, and all kinds of cards); the
    reasons are the real ones, whatever level chose the card."""
    rules = ALL_RULES[option]
    rng = random.Random(f"hints-{option}")
    counts: Counter[str] = Counter()
    asked = 0
    game = 0
    while asked < HINTS:
        state = new_game(f"hints-{option}-{game}", rules)
        game += 1
        while not state.is_over:
            if rng.random() < 0.2:
                counts.update(check_hint(state, rng.choice(("random", "novice")), asked))
                asked += 1
            state.play(rng.choice(state.legal_moves()))
    return counts


@pytest.mark.parametrize("option", range(len(ALL_RULES)), ids=lambda i: repr(ALL_RULES[i]))
def test_every_hint_reason_states_only_facts_of_its_position(option: int) -> None:
    assert sum(hint_ids(option).values()) >= HINTS


def test_every_hint_message_is_said_and_checked() -> None:
    said = set().union(*(hint_ids(option) for option in range(len(ALL_RULES))))
    assert said == set(HINT_CLAIMS)


def test_regression_a_card_of_your_sides_suits_is_never_said_to_be_the_opponents_rank() -> None:
    # The old reason said "the opponents already have that rank, so it gives them little" of
    # cards of the player's own or partner's suit, which the opponents can never use.
    rng = random.Random("ours")
    seen = 0
    for game in range(6):
        state = new_game(f"ours-{game}")
        while not state.is_over:
            hint = suggest(state, level="random", seed=len(state.plays))
            facts = Hint(state, int(hint.card))
            ids = [m["id"] for m in hint.reason]
            if (facts.trick and facts.owner(suit(facts.card)) in (facts.me, facts.me ^ 2)
                    and not facts.wins(facts.card) and len(facts.legal) > 1):
                seen += 1
                assert "hint.note_ours" in ids and "hint.note_they_have" not in ids, ids
            state.play(rng.choice(state.legal_moves()))
    assert seen >= 50


@pytest.mark.parametrize("case", json.loads(AGAINST.read_text()),
                         ids=lambda c: f"{c['flag']}-{c['seed']}-{len(c['plays'].split())}")
def test_regression_a_hint_never_argues_against_its_own_card(case: dict[str, Any]) -> None:
    # Positions where the old reasons said, of the card they suggested, a fact that speaks
    # for another legal card: "Play the 10♠: none of your cards can win this trick. West's
    # calypso still needs that rank", when another card would have given West nothing.
    state = new_game(case["seed"])
    for card in case["plays"].split():
        state.play(card)
    facts = Hint(state, int(Card.parse(case["card"])))
    assert arguing_against(facts, case["said"])  # the old reason is flagged
    ids = check_hint(state, case["level"], case["hint_seed"])
    if str(suggest(state, level=case["level"], seed=case["hint_seed"]).card) == case["card"]:
        assert ids != case["said"]


# -- the review's lines of play ---------------------------------------------------------------

LINE_BUDGET = 240  # review iterations a card: enough layouts for the lines (LINE_LAYOUTS)
LINE_REVIEWS = 60  # costly cards whose lines are checked


@dataclass(frozen=True)
class Line:
    """A costly card's review, its position, and the lines its search kept: for each layout
    kept, what the best card and the played one led to (lines.Played), and the suits each
    seat held there."""

    state: GameState
    review: CardReview
    watch: LineWatch
    values: list[tuple[float, float]]  # each kept layout's value with the best card and the played

    @property
    def me(self) -> int:
        return self.state.to_move

    def ours(self, seat: int) -> bool:
        return seat & 1 == self.me & 1

    def kept(self, card: Card) -> list[Played]:
        lines = self.watch.lines[int(card)]
        return [lines[i] for i in sorted(lines)]

    def layouts(self) -> int:
        return len(self.watch.lines[int(self.review.card)])

    def first_tricks(self, card: Card) -> list[tuple[int, tuple[int, ...], int]]:
        return [played.tricks[0] for played in self.kept(card)]

    def took(self, card: Card, seat: int, with_card: int | None = None) -> int:
        """In how many layouts ``seat`` took this trick after ``card`` (with that card)."""
        return sum(winner == seat and (with_card is None or cards[(winner - leader) % 4]
                                       == with_card)
                   for leader, cards, winner in self.first_tricks(card))

    def ours_took(self, card: Card) -> int:
        return sum(self.ours(winner) for _, _, winner in self.first_tricks(card))

    def trumped_in(self, card: Card, seat: int) -> int:
        """In how many layouts ``seat`` held none of the suit led, trumped in and took the
        trick after ``card``."""
        layouts = sorted(self.watch.lines[int(card)])
        count = 0
        for i, (leader, cards, winner) in zip(layouts, self.first_tricks(card), strict=True):
            own = int(self.state.suits[seat])
            taken_with = cards[(winner - leader) % 4]
            count += (winner == seat and suit(cards[0]) != own and suit(taken_with) == own
                      and not self.watch.held[i][seat] >> suit(cards[0]) & 1)
        return count

    def completes(self, card: Card, seat: int) -> int:
        return sum(played.completed[seat] > 0 for played in self.kept(card))

    def more_tricks(self) -> tuple[int, int]:
        """In how many layouts the seat's side takes more of the deal's tricks from here on
        with the best card than with the played one, and in how many fewer."""
        pairs = list(zip(self.kept(self.review.best), self.kept(self.review.card), strict=True))
        return (sum(b.ours > p.ours for b, p in pairs), sum(b.ours < p.ours for b, p in pairs))

    def ends_better(self) -> tuple[int, int]:
        """In how many kept layouts the best card ends the deal better valued for the seat's
        side than the played one, and in how many worse."""
        return (sum(b > p for b, p in self.values), sum(b < p for b, p in self.values))


def _check_trick_fits(line: Line, card: Card, trick: tuple[int, tuple[int, ...], int]) -> None:
    """A kept trick is this position's trick played on: its leader and cards on the table,
    the card in its place, the winner the rules' winner, and no card from a player who has
    shown a void in its suit or of which no copy is left unseen."""
    state = line.state
    leader, cards, winner = trick
    table = [int(c) for c in state.trick]
    assert leader == state.leader and list(cards[: len(table)]) == table
    assert cards[len(table)] == int(card) and len(cards) == 4
    trumps = [int(state.suits[(leader + i) % 4]) for i in range(4)]
    assert (leader + trick_winner(list(cards), trumps, state.rules)) % 4 == winner
    k = Knowledge(state.observation(line.me))
    for i in range(len(table) + 1, 4):
        seat, code = (leader + i) % 4, cards[i]
        assert k.unseen[code] > 0, (seat, Card(code))
        assert not k.voids[seat] >> suit(code) & 1, (seat, Card(code))


LineClaim = Callable[[Line, dict[str, Any]], bool]
# For each line message: what it claims of the kept layouts, and that it speaks for the best
# card (more layouts go the better way with it than with the card played).
LINE_CLAIMS: dict[str, LineClaim] = {
    "review.line.takes_trick": lambda x, p: (
        p["best_count"] == x.ours_took(x.review.best) > p["played_count"]
        == x.ours_took(x.review.card)),
    "review.line.taken_by": lambda x, p: (
        not x.ours(p["seat"])
        and p["count"] == x.took(x.review.card, p["seat"], int(Card.parse(p["winner_card"])))
        > x.took(x.review.best, p["seat"])),
    "review.line.taken_by_calypso": lambda x, p: (
        LINE_CLAIMS["review.line.taken_by"](x, p)
        and x.state.suits[p["seat"]] == Card.parse(p["winner_card"]).suit
        and all(c.rank != Card.parse(p["winner_card"]).rank
                for c in x.state.calypso(p["seat"]))),
    "review.line.trumped": lambda x, p: (
        not x.ours(p["seat"]) and "SHDC"[suit(x.first_tricks(x.review.card)[0][1][0])] == p["suit"]
        and p["count"] == x.trumped_in(x.review.card, p["seat"])
        > p["best_count"] == x.trumped_in(x.review.best, p["seat"])),
    "review.line.you_complete": lambda x, p: (
        p["best_count"] == x.completes(x.review.best, x.me)
        > p["played_count"] == x.completes(x.review.card, x.me)),
    "review.line.seat_completes": lambda x, p: (
        p["seat"] == x.me ^ 2 and p["best_count"] == x.completes(x.review.best, p["seat"])
        > p["played_count"] == x.completes(x.review.card, p["seat"])),
    "review.line.they_complete": lambda x, p: (
        not x.ours(p["seat"])
        and p["played_count"] == x.completes(x.review.card, p["seat"])
        > p["best_count"] == x.completes(x.review.best, p["seat"])),
    "review.line.more_tricks": lambda x, p: (
        (p["more"], p["fewer"]) == x.more_tricks() and p["more"] > p["fewer"]),
    "review.line.ends_better": lambda x, p: (
        (p["better"], p["worse"]) == x.ends_better() and p["better"] > p["worse"]
        and p["layouts"] == len(x.values) == p["better"] + p["worse"] + p["same"]),
    "review.line.on_average": lambda x, p: (
        x.review.best_value > x.review.played_value and p["searched"] == x.review.layouts
        and p["points"] == round(x.review.best_value - x.review.played_value)),
}


def check_line(state: GameState, card: Card, play: int) -> list[str]:
    """Review a card and check every sentence of its line against the layouts it was drawn
    from, and every kept trick against the position; return the ids said."""
    reviewer = CardReviewer(state, card, play, budget=LINE_BUDGET, seed="truth")
    while reviewer.review is None:
        reviewer.step(LINE_BUDGET)
    review = reviewer.review
    assert reviewer.watch is not None and reviewer.judgement is not None
    legal = reviewer.judgement.legal
    best, mine = legal.index(review.best), legal.index(review.card)
    values = [(row[best], row[mine]) for _, row in reviewer.judgement.samples[:LINE_LAYOUTS]]
    line = Line(state, review, reviewer.watch, values)
    if review.cost == 0:
        assert review.line is None
        return []
    assert review.line, f"{review.card} cost {review.cost} and says no line"
    for kept in (review.card, review.best):
        assert len(line.kept(kept)) == min(LINE_LAYOUTS, review.layouts)
        for trick in line.first_tricks(kept):
            _check_trick_fits(line, kept, trick)
    said = review.line or []
    for message in said:
        params = message["params"]
        assert params["card"] == str(review.card)
        assert params.get("layouts", line.layouts()) == line.layouts()
        if "best_card" in params:
            assert params["best_card"] == str(review.best)
        assert LINE_CLAIMS[message["id"]](line, params), (message, review.card, review.best)
    for lang in LANGUAGES:
        assert render(said, lang) if said else True
    return [m["id"] for m in said]


@cache
def line_ids() -> Counter[str]:
    """Check the lines of costly cards over seeded games of random cards (slips of every
    kind), from every trick of a deal, the last deal's most (calypsos are completed there)."""
    rng = random.Random("lines")
    counts: Counter[str] = Counter()
    checked = 0
    game = 0
    while checked < LINE_REVIEWS:
        state = new_game(f"lines-{game}")
        game += 1
        while not state.is_over:
            card = rng.choice(state.legal_moves())
            if len(state.legal_moves()) > 1 and rng.random() < 0.05 + 0.1 * state.deal:
                ids = check_line(state, card, len(state.plays))
                checked += bool(ids)
                counts.update(ids)
            state.play(card)
    return counts


def test_every_line_of_the_review_states_facts_of_its_layouts_that_speak_for_the_better_card(
) -> None:
    assert sum(line_ids().values()) >= LINE_REVIEWS


def test_every_line_message_is_said_and_checked() -> None:
    assert set(line_ids()) == set(LINE_CLAIMS)


def test_a_costly_card_whose_layouts_differ_little_still_gets_a_line() -> None:
    state = new_game("fallback")
    k = Knowledge(state.observation(state.to_move))
    best, played = (int(card) for card in state.legal_moves()[:2])
    watch = LineWatch(k.seat & 1, lambda sim, side: 0.0)
    same = Played((), (0, 0, 0, 0), 5)
    watch.lines = {best: dict.fromkeys(range(3), same), played: dict.fromkeys(range(3), same)}
    watch.held = dict.fromkeys(range(3), (15, 15, 15, 15))

    def said(values: list[tuple[float, float]], average: float) -> list[tuple[str, Any]]:
        return [(m["id"], m["params"]) for m in
                line_facts(k, watch, best, played, values, average, 300)]

    assert said([(10.0, 0.0), (10.0, 0.0), (0.0, 5.0)], 4.6) == [(
        "review.line.ends_better", {"better": 2, "worse": 1, "same": 0, "layouts": 3,
                                    "best_card": str(Card(best)), "card": str(Card(played))})]
    assert said([(10.0, 0.0), (0.0, 5.0), (3.0, 3.0)], 4.6) == [(
        "review.line.on_average", {"points": 5, "searched": 300,
                                   "best_card": str(Card(best)), "card": str(Card(played))})]
    assert said([(0.0, 5.0)], 0.0) == []
