"""One game of Calypso: four deals from one shuffled 208-card deck.

``GameState`` keeps per-seat card counts and per-suit rank masks, so that legality is one
lookup, ``legal_moves`` hands out a table's tuple of one suit's cards (or joins four) and a
clone is a handful of list copies; the public methods take and give ``Card``. A full trick
goes to the rules kernel (``kernel.py``) for its winner and its cards; bench/engine.py
measures the whole.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from functools import cache
from operator import attrgetter
from typing import TYPE_CHECKING, Any, NamedTuple

from .cards import (
    CARDS,
    RANK_LETTERS,
    SEAT_NAMES,
    SUIT_LETTERS,
    SUIT_SYMBOLS,
    Card,
    CardParseError,
    Suit,
    brief_repr,
    check_seat,
)
from .kernel import (
    BIT_OF,
    DEALS,
    DECK_SIZE,
    SUIT_OF,
    TRICKS_PER_DEAL,
    Settle,
    score,
    settle_fn,
    trumps_by_position,
)
from .rules import Rules


class IllegalMoveError(ValueError):
    """A move that is malformed or not legal in the position; the state is unchanged."""


class Trick(NamedTuple):
    """A completed trick: the deal (0-3), the leader's seat, the cards, the winner's seat."""

    deal: int
    leader: int
    cards: tuple[Card, ...]
    winner: int


class GameState:
    """One position of a game. Build one with ``new_game`` or ``from_record``."""

    __slots__ = (
        "_all_fours", "_calypso", "_completed", "_deal", "_deck", "_first_dealer", "_hands",
        "_held", "_leader", "_led", "_over", "_pile", "_plays", "_rules", "_settle", "_suits",
        "_to_move", "_trumps", "_winners",
    )  # fmt: skip

    _rules: Rules
    _suits: tuple[Suit, ...]
    _first_dealer: int
    _deck: tuple[int, ...]  # codes, in dealing order
    _deal: int  # 0-3, 4 once the game is over
    _over: bool
    _leader: int
    _to_move: int
    _settle: Settle
    _all_fours: bool
    _trumps: tuple[tuple[int, int, int, int], ...]

    def __init__(
        self, rules: Rules, suits: Iterable[Suit | str], first_dealer: int,
        deck: Iterable[Card | str],
    ) -> None:  # fmt: skip
        """Start a game from its recipe; each part is checked (``new_game`` draws them)."""
        self._start(check_rules(rules), check_suits(suits), check_seat(first_dealer),
                    _codes(check_deck(deck)))  # fmt: skip

    def _start(
        self, rules: Rules, suits: tuple[Suit, ...], first_dealer: int, deck: tuple[int, ...]
    ) -> None:
        """Set up the first deal of a game whose parts are known to be valid."""
        if not _MASK_CARDS:
            _MASK_CARDS.extend(_build_mask_cards())
        self._rules = rules
        self._suits = suits
        self._first_dealer = first_dealer
        self._deck = deck
        # What the hot path reads: the kernel's settle for these rules and suits, the suits by
        # trick position (for All Fours' legal moves).
        self._settle = settle_fn(rules.must_beat, rules.last_trump_wins,
                                 rules.leftovers_start_next_calypso, suits)  # fmt: skip
        self._all_fours = rules.all_fours
        self._trumps = trumps_by_position(suits)
        # The code of every card played; the current trick is the last len(_plays) % 4.
        self._plays: list[int] = []
        self._led = -1  # the suit led to the current trick, -1 between tricks
        self._winners: list[int] = []  # the winner of each completed trick
        self._calypso = [0, 0, 0, 0]  # rank masks of the calypsos in progress
        self._completed = [0, 0, 0, 0]
        self._pile = [0, 0, 0, 0]
        self._hands = [[0] * 52, [0] * 52, [0] * 52, [0] * 52]  # copies held of each card
        # _held[seat][suit]: suit << 13 | bit r for each rank r of the suit the seat holds,
        # which is also the index of those cards in _MASK_CARDS; & 8191 is empty when void.
        self._held: list[list[int]] = [[], [], [], []]
        self._deal = 0
        self._over = False
        self._deal_cards()

    # -- the recipe and the position ------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The rule options."""
        return self._rules

    @property
    def suits(self) -> tuple[Suit, ...]:
        """Each seat's personal trump suit, by seat."""
        return self._suits

    @property
    def first_dealer(self) -> int:
        """The seat that dealt the first deal."""
        return self._first_dealer

    @property
    def deck(self) -> tuple[Card, ...]:
        """The 208 cards in dealing order (hidden information)."""
        return tuple(map(CARDS.__getitem__, self._deck))

    @property
    def deal(self) -> int:
        """The current deal, 0-3 (4 once the game is over)."""
        return self._deal

    @property
    def latest_deal(self) -> int:
        """The deal in play, or the last one once the game is over: 0-3 (the deal to show)."""
        return min(self._deal, DEALS - 1)

    if TYPE_CHECKING:

        @property
        def is_over(self) -> bool:
            """Whether all four deals have been played."""
            return self._over

    else:  # the same, with a getter written in C: loops over moves read it every move
        is_over = property(attrgetter("_over"), doc="Whether all four deals have been played.")

    @property
    def to_move(self) -> int:
        """The seat to play next (meaningless once the game is over)."""
        return self._to_move

    @property
    def dealer(self) -> int:
        """The dealer of the current deal (of the last deal once the game is over)."""
        return (self._first_dealer + self.latest_deal) % 4

    @property
    def leader(self) -> int:
        """The seat that led (or will lead) the current trick."""
        return self._leader

    @property
    def trick(self) -> list[Card]:
        """The cards of the current, unfinished trick, in playing order."""
        plays = self._plays
        return [CARDS[c] for c in plays[len(plays) - (len(plays) & 3) :]]

    @property
    def tricks(self) -> list[Trick]:
        """Every completed trick, in order."""
        plays = self._plays
        tricks = []
        leader = 0
        for k, winner in enumerate(self._winners):
            deal = k // TRICKS_PER_DEAL
            if k % TRICKS_PER_DEAL == 0:
                leader = (self._first_dealer + deal + 1) & 3
            cards = tuple(CARDS[c] for c in plays[4 * k : 4 * k + 4])
            tricks.append(Trick(deal, leader, cards, winner))
            leader = winner
        return tricks

    @property
    def plays(self) -> list[Card]:
        """Every card played so far, in order."""
        return [CARDS[c] for c in self._plays]

    @property
    def trick_number(self) -> int:
        """The current trick of the deal, 0-12."""
        if self.is_over:
            return TRICKS_PER_DEAL - 1
        return (len(self._plays) - 52 * self._deal) // 4

    @property
    def stock_size(self) -> int:
        """Cards still undealt in the stock."""
        return DECK_SIZE - 52 * min(self._deal + 1, DEALS)

    def hand(self, seat: int) -> list[Card]:
        """The cards in a seat's hand, sorted by suit then rank (hidden information)."""
        counts = self._hands[check_seat(seat)]
        return [CARDS[c] for c in range(52) for _ in range(counts[c])]

    def hand_size(self, seat: int) -> int:
        """How many cards a seat holds."""
        return sum(self._hands[check_seat(seat)])

    def calypso(self, seat: int) -> list[Card]:
        """The cards of a seat's calypso in progress, low to high."""
        mask = self._calypso[check_seat(seat)]
        base = 13 * self._suits[seat]
        return [CARDS[base + r] for r in range(13) if mask >> r & 1]

    def completed(self, seat: int) -> int:
        """How many calypsos a seat has completed."""
        return self._completed[check_seat(seat)]

    def pile(self, seat: int) -> int:
        """How many trick-pile cards came from tricks this seat won."""
        return self._pile[check_seat(seat)]

    def unseen_stock(self) -> list[Card]:
        """The cards still in the stock, in dealing order (hidden information)."""
        return [CARDS[c] for c in self._deck[52 * min(self._deal + 1, DEALS) :]]

    # -- moves ---------------------------------------------------------------------------

    def legal_moves(self) -> tuple[Card, ...]:
        """The distinct cards the player to move may play, sorted by suit then rank.

        A tuple: the same immutable tuple may be handed out again, so nothing a caller does
        with it can touch the position (and no copy is made on the way out).
        """
        # Once the game is over every hand is empty, so this returns () with no check.
        held = self._held[self._to_move]
        led = self._led
        if led >= 0:
            cards = _MASK_CARDS[held[led]]
            if cards:
                if self._all_fours:
                    return self._all_fours_moves(led, held)
                return cards
        table = _MASK_CARDS
        return table[held[0]] + table[held[1]] + table[held[2]] + table[held[3]]

    def _all_fours_moves(self, led: int, held: list[int]) -> tuple[Card, ...]:
        own = self._trumps[self._to_move][0]
        if own == led or not held[own] & 8191:
            return _MASK_CARDS[held[led]]
        first, second = (led, own) if led < own else (own, led)
        return _MASK_CARDS[held[first]] + _MASK_CARDS[held[second]]

    def is_legal(self, card: Card | str | int) -> bool:
        """Whether the player to move may play this card."""
        try:
            self._check(card)
        except IllegalMoveError:
            return False
        return True

    def play(self, card: Card | str | int) -> None:
        """Play a card for the player to move; an illegal move raises and changes nothing."""
        seat = self._to_move
        hand = self._hands[seat]
        held = self._held[seat]
        led = self._led
        # The usual move, a Card held, is checked here; anything else goes through _check,
        # which reads the other forms of a card (and allows All Fours' trump-in while
        # holding the suit led) or raises the precise error.
        # (card + 0 is the card's plain int: lists index faster with one than with a Card.)
        if type(card) is Card and (count := hand[code := card + 0]):
            suit = SUIT_OF[code]
            if suit != led >= 0 and held[led] & 8191:  # not following suit
                self._check(card)
        else:
            code = self._check(card)
            suit = SUIT_OF[code]
            count = hand[code]
        hand[code] = count - 1
        if count == 1:
            held[suit] ^= BIT_OF[code]
        plays = self._plays
        plays.append(code)
        if led < 0:
            self._led = suit
        seat = (seat + 1) & 3
        if seat != self._leader:
            self._to_move = seat
            return
        # Back to the leader: the trick is full, and the kernel settles it.
        winner = self._settle(plays[-4:], seat, self._calypso, self._completed, self._pile)
        self._winners.append(winner)
        self._led = -1
        self._leader = self._to_move = winner
        if not len(plays) % 52:
            self._end_deal()

    def _check(self, card: Card | str | int) -> int:
        """The code of a legal move, or IllegalMoveError saying why it is not one."""
        seat = self._to_move
        who = SEAT_NAMES[seat]
        try:
            code = int(Card.parse(card) if isinstance(card, str) else Card(card))
        except CardParseError:
            raise IllegalMoveError(f"{brief_repr(card)} is not a card (move for {who})") from None
        if self.is_over:
            raise IllegalMoveError(f"{CARDS[code]} cannot be played: the game is over")
        if not self._hands[seat][code]:
            raise IllegalMoveError(f"{CARDS[code]} is not legal for {who}, who does not hold it")
        led = self._led
        suit = SUIT_OF[code]
        if (
            led >= 0
            and suit != led
            and self._held[seat][led] & 8191
            and not (self._all_fours and suit == self._trumps[seat][0])
        ):
            raise IllegalMoveError(
                f"{CARDS[code]} is not legal for {who}, who must follow {SUIT_LETTERS[led]}"
            )
        return code

    def _end_deal(self) -> None:
        """After a deal's last trick: deal the next one, or end the game."""
        self._deal += 1
        if self._deal < DEALS:
            self._deal_cards()
        else:
            self._over = True

    def _deal_cards(self) -> None:
        """Deal the current deal's 52 cards, one at a time from the dealer's left."""
        dealer = (self._first_dealer + self._deal) & 3
        start = 52 * self._deal
        deck = self._deck
        bit_of = _BIT52
        for i in range(4):
            seat = (dealer + 1 + i) & 3
            hand = self._hands[seat]
            held = 0  # bit code set for each card held; hands are empty between deals
            for code in deck[start + i : start + 52 : 4]:
                hand[code] += 1
                held |= bit_of[code]
            self._held[seat] = [
                held & 8191,
                held >> 13 & 8191 | 8192,
                held >> 26 & 8191 | 16384,
                held >> 39 | 24576,
            ]
        self._leader = self._to_move = (dealer + 1) & 3

    # -- scores ---------------------------------------------------------------------------

    def score(self, seat: int) -> int:
        """A player's score at this point (docs/rules.md#scoring)."""
        seat = check_seat(seat)
        return score(self._completed[seat], self._calypso[seat], self._pile[seat])

    def scores(self) -> tuple[int, int, int, int]:
        """The four players' scores, by seat."""
        return (self.score(0), self.score(1), self.score(2), self.score(3))

    def partnership_scores(self) -> tuple[int, int]:
        """North-South's and East-West's totals."""
        s = self.scores()
        return (s[0] + s[2], s[1] + s[3])

    def winner(self) -> int | None:
        """The winning partnership (0 North-South, 1 East-West) once over; None for a draw."""
        if not self.is_over:
            raise ValueError("the game is not over")
        ns, ew = self.partnership_scores()
        return None if ns == ew else (0 if ns > ew else 1)

    # -- copies and views ----------------------------------------------------------------

    def before(self, play: int = 0) -> GameState:
        """This game as it stood before its card ``play`` (an index in ``plays``; 0, before
        its first card): the same deck, rules, suits and first dealer, and the cards played
        before that one. ``play`` may be ``len(plays)``, the position now."""
        if type(play) is not int or not 0 <= play <= len(self._plays):
            raise ValueError(f"play must be a card's index in the game, 0-{len(self._plays)}, "
                             f"not {play!r}")
        other = GameState.__new__(GameState)
        other._start(self._rules, self._suits, self._first_dealer, self._deck)
        for code in self._plays[:play]:
            other.play(code)
        return other

    def clone(self) -> GameState:
        """An independent copy of this position."""
        other = GameState.__new__(GameState)
        other._rules = self._rules
        other._suits = self._suits
        other._first_dealer = self._first_dealer
        other._deck = self._deck
        other._settle = self._settle
        other._all_fours = self._all_fours
        other._trumps = self._trumps
        other._plays = self._plays[:]
        other._led = self._led
        other._winners = self._winners[:]
        other._calypso = self._calypso[:]
        other._completed = self._completed[:]
        other._pile = self._pile[:]
        other._hands = [h[:] for h in self._hands]
        other._held = [m[:] for m in self._held]
        other._deal = self._deal
        other._over = self._over
        other._leader = self._leader
        other._to_move = self._to_move
        return other

    def __copy__(self) -> GameState:
        return self.clone()

    def __deepcopy__(self, _memo: dict[int, Any]) -> GameState:
        return self.clone()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return (
            self._rules == other._rules
            and self._suits == other._suits
            and self._first_dealer == other._first_dealer
            and self._deck == other._deck
            and self._plays == other._plays
        )

    __hash__ = None  # type: ignore[assignment]

    def observation(self, seat: int) -> dict[str, Any]:
        """What one seat may know, as JSON-ready data: never another hand or the stock.

        Public: suits, dealer, every played card (tricks), calypsos, pile counts, hand
        sizes, stock size, scores. Private to the seat: its own hand and, on its turn, its
        legal moves.
        """
        seat = check_seat(seat)
        over = self.is_over
        return {
            "seat": seat,
            "rules": self._rules.to_dict(),
            "suits": [SUIT_LETTERS[s] for s in self._suits],
            "first_dealer": self._first_dealer,
            "dealer": self.dealer,
            "deal": self.latest_deal,
            "trick_number": self.trick_number,
            "is_over": over,
            "to_move": None if over else self._to_move,
            "hand": [str(c) for c in self.hand(seat)],
            "legal_moves": [str(c) for c in self.legal_moves()]
            if not over and self._to_move == seat
            else [],
            "hand_sizes": [self.hand_size(s) for s in range(4)],
            "stock": self.stock_size,
            "trick": {"leader": self._leader, "cards": [str(c) for c in self.trick]},
            "tricks": tricks_json(self),
            "players": players_json(self),
            "partnership_scores": list(self.partnership_scores()),
        }

    def __str__(self) -> str:
        return describe(self)

    def __repr__(self) -> str:
        return (
            f"<GameState deal {self._deal} trick {self.trick_number} "
            f"{len(self._plays)} plays, {SEAT_NAMES[self._to_move]} to move>"
        )


def tricks_json(state: GameState) -> list[dict[str, Any]]:
    """Every completed trick: deal, leader, cards and winner."""
    return [
        {"deal": t.deal, "leader": t.leader, "cards": [str(c) for c in t.cards], "winner": t.winner}
        for t in state.tricks
    ]


def players_json(state: GameState) -> list[dict[str, Any]]:
    """Each seat's public tally: suit, calypsos completed and in progress, pile, score."""
    return [
        {
            "seat": s,
            "suit": SUIT_LETTERS[state.suits[s]],
            "completed": state.completed(s),
            "in_progress": [str(c) for c in state.calypso(s)],
            "pile": state.pile(s),
            "score": state.score(s),
        }
        for s in range(4)
    ]


def describe(state: GameState, viewer: int | None = None) -> str:
    """A readable board: deal and trick, each seat's suit, hand, calypso and pile, scores.

    With a ``viewer``, only that seat's hand is shown; the others show their size.
    """
    lines = []
    if state.is_over:
        lines.append("Game over")
    else:
        lines.append(
            f"Deal {state.deal + 1} of 4, dealer {SEAT_NAMES[state.dealer]}, "
            f"trick {state.trick_number + 1} of 13, stock {state.stock_size}, "
            f"{SEAT_NAMES[state.to_move]} to play"
        )
    for seat in range(4):
        suit = state.suits[seat]
        made = "".join(RANK_LETTERS[c % 13] for c in state.calypso(seat)) or "-"
        if viewer is None or viewer == seat:
            hand = " ".join(str(c) for c in state.hand(seat)) or "-"
        else:
            hand = f"({state.hand_size(seat)} cards)"
        lines.append(
            f"{SEAT_NAMES[seat]:<5} {SUIT_SYMBOLS[suit]}  calypsos {state.completed(seat)} "
            f"+ [{made}]  pile {state.pile(seat):>3}  score {state.score(seat):>5}  hand {hand}"
        )
    if state.trick:
        cards = " ".join(str(c) for c in state.trick)
        lines.append(f"Trick led by {SEAT_NAMES[state.leader]}: {cards}")
    ns, ew = state.partnership_scores()
    lines.append(f"North-South {ns}, East-West {ew}")
    return "\n".join(lines)


# -- new games --------------------------------------------------------------------------------


def new_game(
    seed: int | str | None = None,
    rules: Rules = Rules(),  # noqa: B008 (Rules is frozen: one shared default is fine)
    *,
    suits: Iterable[Suit | str] | None = None,
    first_dealer: int | None = None,
    deck: Iterable[Card | str] | None = None,
) -> GameState:
    """A new game with suits, first dealer and deck order drawn from the seed.

    Any of ``suits``, ``first_dealer`` and ``deck`` may be given instead; the seed still
    decides the rest exactly as if none were given.
    """
    if not (seed is None or type(seed) is int or isinstance(seed, str)):
        raise ValueError(f"a seed is a whole number or a text, not {brief_repr(seed)}")
    rules = check_rules(rules)
    rng = random.Random(seed)
    choice = rng.randrange(8)
    drawn_suits = _suits_from_choice(choice)
    drawn_dealer = rng.randrange(4)
    drawn_deck = _shuffled_deck(rng)
    state = GameState.__new__(GameState)
    state._start(
        rules,
        check_suits(suits) if suits is not None else drawn_suits,
        check_seat(first_dealer) if first_dealer is not None else drawn_dealer,
        _codes(check_deck(deck)) if deck is not None else drawn_deck,
    )
    return state


def _shuffled_deck(rng: random.Random) -> tuple[int, ...]:
    """The 208 codes in order, shuffled by ``rng.shuffle``'s algorithm, inlined for speed.

    The same draws as ``random.Random.shuffle`` (Fisher-Yates from the top, each index drawn
    by rejection from ``getrandbits``), so a seed gives the same deck as it always has; a test
    checks the two agree.
    """
    deck = [*_SORTED_CODES]
    getrandbits = rng.getrandbits
    for bits, steps in _SHUFFLE_STEPS:
        for i in steps:
            j = getrandbits(bits)
            while j > i:
                j = getrandbits(bits)
            deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


@cache
def _suits_from_choice(choice: int) -> tuple[Suit, ...]:
    """One of the 8 seatings: which pair North-South own, and who holds which suit."""
    ns_pair = 0 if choice & 1 else 2
    north = ns_pair + (choice >> 1 & 1)
    east = (ns_pair ^ 2) + (choice >> 2 & 1)
    return (Suit(north), Suit(east), Suit(north ^ 1), Suit(east ^ 1))


def check_rules(rules: Any) -> Rules:
    """Validate the rule options: a ``Rules``."""
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a Rules, not {brief_repr(rules)}")
    return rules


def check_suits(suits: Any) -> tuple[Suit, ...]:
    """Validate the four personal suits: all different, partners holding pair-mates."""
    items = _items(suits)
    if items is None or len(items) != 4:
        raise ValueError(f"suits must be four suits, one per seat, not {brief_repr(suits)}")
    parsed = []
    for seat, item in enumerate(items):
        if isinstance(item, Suit):
            parsed.append(item)
        elif isinstance(item, str):
            try:
                parsed.append(Suit.parse(item))
            except CardParseError:
                raise ValueError(f"suits[{seat}]: {brief_repr(item)} is not a suit") from None
        else:
            raise ValueError(f"suits[{seat}]: {brief_repr(item)} is not a suit")
    if parsed[0] ^ 1 != parsed[2] or parsed[1] ^ 1 != parsed[3] or parsed[0] >> 1 == parsed[1] >> 1:
        letters = "".join(SUIT_LETTERS[s] for s in parsed)
        raise ValueError(
            f"suits {letters}: partners (seats 0-2 and 1-3) must hold spades+hearts "
            "against diamonds+clubs"
        )
    return tuple(parsed)


def check_deck(deck: Any) -> tuple[Card, ...]:
    """Validate a 208-card deck: exactly four copies of each of the 52 cards."""
    items = _items(deck)
    if items is None:
        raise ValueError(f"deck must be a list of 208 cards, not {brief_repr(deck)}")
    cards = []
    for i, item in enumerate(items):
        if isinstance(item, str):
            try:
                cards.append(Card.parse(item))
            except CardParseError:
                raise ValueError(f"deck card {i}: {brief_repr(item)} is not a card") from None
        elif type(item) is Card:
            cards.append(item)
        else:
            raise ValueError(f"deck card {i}: {brief_repr(item)} is not a card")
    counts = [0] * 52
    for i, card in enumerate(cards):
        counts[card] += 1
        if counts[card] > 4:
            raise ValueError(f"deck card {i}: a fifth {card} (a deck has four copies of each)")
    if len(cards) != DECK_SIZE:
        missing = next(CARDS[c] for c in range(52) if counts[c] < 4)
        raise ValueError(f"deck has {len(cards)} cards, not 208 (too few of {missing})")
    return tuple(cards)


def _codes(cards: tuple[Card, ...]) -> tuple[int, ...]:
    """The plain ints of checked cards: the hot paths index lists faster with them."""
    return tuple(map(int, cards))


def _items(values: Any) -> list[Any] | None:
    """The items of a list, tuple or other iterable that is not text; None for anything else."""
    if isinstance(values, (str, bytes, bytearray, dict)):
        return None
    try:
        return list(values)
    except TypeError:  # not iterable
        return None


# Small tables for the hot paths (a few hundred entries, cheap to build at import).
_BIT52 = tuple(1 << code for code in range(52))
_SORTED_CODES = tuple(code for code in range(52) for _ in range(4))
# The swaps of a 208-card Fisher-Yates shuffle, i from 207 down to 1, grouped by the bit
# length of i + 1 (the bits drawn for each): (8, range(207, 126, -1)), ..., (2, range(2, 0, -1)).
_SHUFFLE_STEPS = tuple(
    (bits, range(min(DECK_SIZE - 1, (1 << bits) - 2), (1 << (bits - 1)) - 2, -1))
    for bits in range(8, 1, -1)
)


def _build_mask_cards() -> list[tuple[Card, ...]]:
    """_MASK_CARDS[suit << 13 | mask]: the cards of that suit whose rank bits are set, low
    to high; built on the first game (a few milliseconds) so importing does no work."""
    table: list[tuple[Card, ...]] = []
    for suit in range(4):
        table.append(())
        for mask in range(1, 8192):
            top = mask.bit_length() - 1
            table.append(table[suit << 13 | mask ^ (1 << top)] + (CARDS[13 * suit + top],))
    return table


_MASK_CARDS: list[tuple[Card, ...]] = []
