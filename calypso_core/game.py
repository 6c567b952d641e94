"""One game of Calypso: four deals from one shuffled 208-card deck.

``GameState`` keeps per-seat card counts and per-suit rank masks, so that legality is one
lookup, ``legal_moves`` is a table lookup per suit and a clone is a handful of list copies;
the public methods take and give ``Card``. ``play`` checks and applies the usual move
inline and finishes a trick with the winner rule unrolled (bench/engine.py measures it).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any, NamedTuple

from .cards import (
    CARDS,
    RANK_LETTERS,
    SEAT_NAMES,
    SUIT_LETTERS,
    SUIT_SYMBOLS,
    Card,
    CardParseError,
    Suit,
)
from .rules import Rules

FULL_CALYPSO = (1 << 13) - 1
CALYPSO_POINTS = (500, 750, 1000, 1000)
# Points for 0-4 completed calypsos.
LADDER = (0, 500, 1250, 2250, 3250)
CARD_POINTS = 20
PILE_POINTS = 10
DEALS = 4
TRICKS_PER_DEAL = 13
DECK_SIZE = 208


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
        "_all_fours", "_calypso", "_completed", "_hands", "_held", "_last", "_leader", "_led",
        "_leftovers", "_mixed", "_must_beat", "_pile", "_plays", "_to_move", "_trumps_from",
        "_winners", "deal", "deck", "first_dealer", "is_over", "rules", "suits",
    )  # fmt: skip

    rules: Rules
    suits: tuple[Suit, ...]
    first_dealer: int
    deck: tuple[Card, ...]
    deal: int
    # Whether all four deals have been played (a plain attribute: the hot loops read it).
    is_over: bool

    def __init__(
        self, rules: Rules, suits: Sequence[Suit], first_dealer: int, deck: Sequence[Card]
    ) -> None:
        """Start a game; the arguments must already be valid (``new_game`` checks them)."""
        if not _MASK_CARDS:
            _MASK_CARDS.extend(_build_mask_cards())
        self.rules = rules
        self.suits = tuple(suits)
        self.first_dealer = first_dealer
        self.deck = tuple(deck)
        self._set_rules()
        # Every card played; the current trick is the last len(_plays) % 4 of them.
        self._plays: list[int] = []
        # The suit led to the current trick, -1 between tricks, and whether a card of
        # another suit has been played to it.
        self._led = -1
        self._mixed = False
        # The winner of each completed trick (``tricks`` rebuilds the rest).
        self._winners: list[int] = []
        self._calypso = [0, 0, 0, 0]
        self._completed = [0, 0, 0, 0]
        self._pile = [0, 0, 0, 0]
        self._hands = [[0] * 52, [0] * 52, [0] * 52, [0] * 52]
        # _held[seat][suit]: suit << 13 | bit r for each rank r of the suit the seat holds,
        # which is also the index of those cards in _MASK_CARDS; & 8191 is empty when void.
        self._held: list[list[int]] = [[], [], [], []]  # set by _deal_cards
        self.deal = 0
        self.is_over = False
        self._leader = 0
        self._to_move = 0
        self._deal_cards()

    def _set_rules(self) -> None:
        """Cache what the hot path reads: the options as flags, the suits by trick position."""
        rules = self.rules
        self._must_beat = rules.lead_trump_must_be_beaten or rules.all_fours
        self._last = rules.last_trump_in_wins and not rules.all_fours
        self._all_fours = rules.all_fours
        self._leftovers = rules.leftovers_start_next_calypso
        trumps_from = _TRUMPS_FROM.get(self.suits)
        if trumps_from is None:
            s = [int(suit) for suit in self.suits]
            trumps_from = tuple(tuple(s[(leader + i) & 3] for i in range(4)) for leader in range(4))
            _TRUMPS_FROM[self.suits] = trumps_from
        # _trumps_from[leader][i]: the personal suit of the i-th player of a trick.
        self._trumps_from = trumps_from

    # -- the position ---------------------------------------------------------------------

    @property
    def to_move(self) -> int:
        """The seat to play next (meaningless once the game is over)."""
        return self._to_move

    @property
    def dealer(self) -> int:
        """The dealer of the current deal (of the last deal once the game is over)."""
        return (self.first_dealer + min(self.deal, DEALS - 1)) % 4

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
                leader = (self.first_dealer + deal + 1) & 3
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
        return (len(self._plays) - 52 * min(self.deal, DEALS - 1)) // 4 if not self.is_over else 12

    @property
    def stock_size(self) -> int:
        """Cards still undealt in the stock."""
        return DECK_SIZE - 52 * min(self.deal + 1, DEALS)

    def hand(self, seat: int) -> list[Card]:
        """The cards in a seat's hand, sorted by suit then rank (hidden information)."""
        counts = self._hands[seat]
        return [CARDS[c] for c in range(52) for _ in range(counts[c])]

    def hand_size(self, seat: int) -> int:
        """How many cards a seat holds."""
        return sum(self._hands[seat])

    def calypso(self, seat: int) -> list[Card]:
        """The cards of a seat's calypso in progress, low to high."""
        mask = self._calypso[seat]
        base = 13 * self.suits[seat]
        return [CARDS[base + r] for r in range(13) if mask >> r & 1]

    def completed(self, seat: int) -> int:
        """How many calypsos a seat has completed."""
        return self._completed[seat]

    def pile(self, seat: int) -> int:
        """How many trick-pile cards came from tricks this seat won."""
        return self._pile[seat]

    def unseen_stock(self) -> list[Card]:
        """The cards still in the stock, in dealing order (hidden information)."""
        start = 52 * min(self.deal + 1, DEALS)
        return list(self.deck[start:])

    # -- moves ---------------------------------------------------------------------------

    def legal_moves(self) -> list[Card]:
        """The distinct cards the player to move may play, sorted by suit then rank."""
        # Once the game is over every hand is empty, so this returns [] with no check.
        held = self._held[self._to_move]
        led = self._led
        if led >= 0:
            cards = _MASK_CARDS[held[led]]
            if cards:
                if self._all_fours:
                    return self._all_fours_moves(led, held)
                return [*cards]
        table = _MASK_CARDS
        return [*table[held[0]], *table[held[1]], *table[held[2]], *table[held[3]]]

    legal_codes = legal_moves  # the older name, kept for callers that use it

    def _all_fours_moves(self, led: int, held: list[int]) -> list[Card]:
        own = self._trumps_from[self._to_move][0]
        if own == led or not held[own] & 8191:
            return [*_MASK_CARDS[held[led]]]
        first, second = (led, own) if led < own else (own, led)
        return [*_MASK_CARDS[held[first]], *_MASK_CARDS[held[second]]]

    def is_legal(self, card: Card | str) -> bool:
        """Whether the player to move may play this card."""
        try:
            self._check(card)
        except IllegalMoveError:
            return False
        return True

    def play(self, card: Card | str) -> None:
        """Play a card for the player to move; an illegal move raises and changes nothing."""
        # The usual case, a Card the player holds that follows suit, is checked and applied
        # here; anything else goes through _check, which accepts the other forms of a card
        # or raises the precise error. (Once the game is over every hand is empty.)
        seat = self._to_move
        hand = self._hands[seat]
        if type(card) is not Card or not (count := hand[card]):
            self._play_unchecked(self._check(card))
            return
        suit = _SUIT[card]
        led = self._led
        if suit != led:
            if led < 0:  # the lead
                self._led = suit
            elif self._held[seat][led] & 8191:  # a discard while holding the suit led
                self._play_unchecked(self._check(card))
                return
            else:
                self._mixed = True
        # From here on, the same as _play_unchecked.
        hand[card] = count - 1
        if count == 1:
            self._held[seat][suit] ^= _BIT[card]
        self._plays.append(card)
        seat = (seat + 1) & 3
        if seat != self._leader:
            self._to_move = seat
        else:  # back to the leader: the trick is full
            self._finish_trick()

    def _check(self, card: Card | str) -> int:
        seat = self._to_move
        who = SEAT_NAMES[seat]
        try:
            code = int(Card.parse(card)) if isinstance(card, str) else int(Card(card))
        except (CardParseError, TypeError):
            raise IllegalMoveError(f"{card!r} is not a card (move for {who})") from None
        if self.is_over:
            raise IllegalMoveError(f"{CARDS[code]} cannot be played: the game is over")
        if not self._hands[seat][code]:
            raise IllegalMoveError(f"{CARDS[code]} is not legal for {who}, who does not hold it")
        led = self._led
        if led >= 0:
            suit = _SUIT[code]
            if (
                suit != led
                and self._held[seat][led] & 8191
                and not (self._all_fours and suit == self._trumps_from[seat][0])
            ):
                raise IllegalMoveError(
                    f"{CARDS[code]} is not legal for {who}, who must follow {SUIT_LETTERS[led]}"
                )
        return code

    def _play_unchecked(self, code: int) -> None:
        """Apply a move known to be legal (no checks: callers must be sure)."""
        card = CARDS[code]  # the history keeps Card values
        seat = self._to_move
        hand = self._hands[seat]
        hand[card] -= 1
        suit = _SUIT[card]
        if not hand[card]:
            self._held[seat][suit] ^= _BIT[card]
        if self._led < 0:
            self._led = suit
        elif suit != self._led:
            self._mixed = True
        self._plays.append(card)
        seat = (seat + 1) & 3
        if seat != self._leader:
            self._to_move = seat
        else:
            self._finish_trick()

    def _finish_trick(self) -> None:
        """Find the winner of the full trick, gather it, and deal on at the end of a deal."""
        plays = self._plays
        leader = self._leader
        trick = plays[-4:]
        lead, c1, c2, c3 = trick
        led = self._led
        if not self._mixed:
            # All four of the suit led (about half the tricks): a trump lead wins, otherwise
            # the highest card, the first of equal ones (one suit: codes order ranks). The
            # cards join a calypso only if the winning side owns the suit.
            if led == self._trumps_from[leader][0]:
                winner = leader
            else:
                best_i = 0
                best = lead
                if c1 > best:
                    best_i, best = 1, c1
                if c2 > best:
                    best_i, best = 2, c2
                if c3 > best:
                    best_i = 3
                winner = (leader + best_i) & 3
            own = self._trumps_from[winner][0]
            if led == own:
                self._gather_one_suit(trick, winner, winner)
            elif led == own ^ 1:
                self._gather_one_suit(trick, winner ^ 2, winner)
            else:
                self._pile[winner] += 4
        else:
            self._mixed = False
            winner = (leader + self._winner_of_mixed(trick)) & 3
            self._gather(trick, winner)
        self._winners.append(winner)
        self._led = -1
        self._leader = self._to_move = winner
        if len(plays) % 52 == 0:
            self.deal += 1
            if self.deal < DEALS:
                self._deal_cards()
            else:
                self.is_over = True

    def _winner_of_mixed(self, trick: list[int]) -> int:
        """The winning position in a full trick with cards off the suit led: rules.winner_fn
        inlined and unrolled for four cards (a test checks the two agree)."""
        lead, c1, c2, c3 = trick
        t0, t1, t2, t3 = self._trumps_from[self._leader]
        led = self._led
        best_i = 0
        best = lead  # the highest card of the suit led so far (one suit: codes order ranks)
        trump_i = -1
        trump_rank = -1  # the rank a trump-in must beat
        if led == t0 and self._must_beat:
            trump_i = 0
            trump_rank = lead % 13
        suit = _SUIT[c1]
        if suit == led:
            if c1 > best:
                best_i, best = 1, c1
        elif suit == t1 and c1 % 13 > trump_rank:
            trump_i = 1
            if not self._last:
                trump_rank = c1 % 13
        suit = _SUIT[c2]
        if suit == led:
            if c2 > best:
                best_i, best = 2, c2
        elif suit == t2 and c2 % 13 > trump_rank:
            trump_i = 2
            if not self._last:
                trump_rank = c2 % 13
        suit = _SUIT[c3]
        if suit == led:
            if c3 > best:
                best_i = 3
        elif suit == t3 and c3 % 13 > trump_rank:
            trump_i = 3
        if trump_i >= 0:
            return trump_i
        return 0 if led == t0 else best_i

    def _gather_one_suit(self, trick: list[int], holder: int, winner: int) -> None:
        """_gather for a trick all of one suit, the suit of ``holder``'s calypso."""
        mask = self._calypso[holder]
        dups = 0
        to_pile = 4
        for card in trick:
            bit = _BIT[card]
            if mask & bit:
                dups |= bit
            else:
                mask |= bit
                to_pile -= 1
        if mask == FULL_CALYPSO:
            self._completed[holder] += 1
            mask, to_pile = self._leftovers_of(dups, to_pile)
        self._calypso[holder] = mask
        self._pile[winner] += to_pile

    def _gather(self, trick: list[int], winner: int) -> None:
        """Sort a won trick into calypsos and the winner's pile (rules: #building-calypsos)."""
        own = self._trumps_from[winner][0]
        mate = own ^ 1
        partner = winner ^ 2
        calypso = self._calypso
        mine = calypso[winner]
        theirs = calypso[partner]
        suit_of = _SUIT
        bit_of = _BIT
        # Every card goes to the pile but those that join a calypso. Duplicates stay in the
        # pile unless they start a new calypso, so keep their ranks for that case.
        to_pile = 4
        my_dups = their_dups = 0
        for card in trick:
            suit = suit_of[card]
            if suit == own:
                bit = bit_of[card]
                if mine & bit:
                    my_dups |= bit
                else:
                    mine |= bit
                    to_pile -= 1
            elif suit == mate:
                bit = bit_of[card]
                if theirs & bit:
                    their_dups |= bit
                else:
                    theirs |= bit
                    to_pile -= 1
        if mine == FULL_CALYPSO:
            self._completed[winner] += 1
            mine, to_pile = self._leftovers_of(my_dups, to_pile)
        if theirs == FULL_CALYPSO:
            self._completed[partner] += 1
            theirs, to_pile = self._leftovers_of(their_dups, to_pile)
        calypso[winner] = mine
        calypso[partner] = theirs
        self._pile[winner] += to_pile

    def _leftovers_of(self, dups: int, to_pile: int) -> tuple[int, int]:
        """The new calypso and pile count once a calypso completes with these duplicates."""
        if not self._leftovers:
            return 0, to_pile
        # One copy of each duplicated rank starts the new calypso; it leaves the pile.
        return dups, to_pile - dups.bit_count()

    def _deal_cards(self) -> None:
        dealer = (self.first_dealer + self.deal) & 3
        start = 52 * self.deal
        deck = self.deck
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
        return (
            LADDER[self._completed[seat]]
            + CARD_POINTS * bin(self._calypso[seat]).count("1")
            + PILE_POINTS * self._pile[seat]
        )

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

    def clone(self) -> GameState:
        """An independent copy of this position."""
        other = GameState.__new__(GameState)
        other.rules = self.rules
        other.suits = self.suits
        other.first_dealer = self.first_dealer
        other.deck = self.deck
        other._trumps_from = self._trumps_from
        other._must_beat = self._must_beat
        other._last = self._last
        other._all_fours = self._all_fours
        other._leftovers = self._leftovers
        other._plays = self._plays[:]
        other._led = self._led
        other._mixed = self._mixed
        other._winners = self._winners[:]
        other._calypso = self._calypso[:]
        other._completed = self._completed[:]
        other._pile = self._pile[:]
        other._hands = [h[:] for h in self._hands]
        other._held = [m[:] for m in self._held]
        other.deal = self.deal
        other.is_over = self.is_over
        other._leader = self._leader
        other._to_move = self._to_move
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return (
            self.rules == other.rules
            and self.suits == other.suits
            and self.first_dealer == other.first_dealer
            and self.deck == other.deck
            and self._plays == other._plays
        )

    __hash__ = None  # type: ignore[assignment]

    def observation(self, seat: int) -> dict[str, Any]:
        """What one seat may know, as JSON-ready data: never another hand or the stock.

        Public: suits, dealer, every played card (tricks), calypsos, pile counts, hand
        sizes, stock size, scores. Private to the seat: its own hand and, on its turn, its
        legal moves.
        """
        if type(seat) is not int or not 0 <= seat < 4:
            raise ValueError(f"{seat!r} is not a seat (0-3)")
        over = self.is_over
        return {
            "seat": seat,
            "rules": self.rules.to_dict(),
            "suits": [SUIT_LETTERS[s] for s in self.suits],
            "first_dealer": self.first_dealer,
            "dealer": self.dealer,
            "deal": min(self.deal, 3),
            "trick_number": self.trick_number,
            "is_over": over,
            "to_move": None if over else self.to_move,
            "hand": [str(c) for c in self.hand(seat)],
            "legal_moves": [str(c) for c in self.legal_moves()]
            if not over and self.to_move == seat
            else [],
            "hand_sizes": [self.hand_size(s) for s in range(4)],
            "stock": self.stock_size,
            "trick": {"leader": self.leader, "cards": [str(c) for c in self.trick]},
            "tricks": tricks_json(self),
            "players": players_json(self),
            "partnership_scores": list(self.partnership_scores()),
        }

    def __str__(self) -> str:
        return describe(self)

    def __repr__(self) -> str:
        return (
            f"<GameState deal {self.deal} trick {self.trick_number} "
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
    rng = random.Random(seed)
    choice = rng.randrange(8)
    drawn_suits = _suits_from_choice(choice)
    drawn_dealer = rng.randrange(4)
    drawn_deck = _shuffled_deck(rng)
    return GameState(
        rules,
        check_suits(suits) if suits is not None else drawn_suits,
        check_seat(first_dealer) if first_dealer is not None else drawn_dealer,
        check_deck(deck) if deck is not None else drawn_deck,
    )


def _shuffled_deck(rng: random.Random) -> list[Card]:
    """The 208 cards in order, shuffled by ``rng.shuffle``'s algorithm, inlined for speed.

    The same draws as ``random.Random.shuffle`` (Fisher-Yates from the top, each index drawn
    by rejection from ``getrandbits``), so a seed gives the same deck as it always has; a test
    checks the two agree.
    """
    deck = [*_SORTED_DECK]
    getrandbits = rng.getrandbits
    for i, bits in _SHUFFLE_STEPS:
        j = getrandbits(bits)
        while j > i:
            j = getrandbits(bits)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@cache
def _suits_from_choice(choice: int) -> tuple[Suit, ...]:
    """One of the 8 seatings: which pair North-South own, and who holds which suit."""
    ns_pair = 0 if choice & 1 else 2
    north = ns_pair + (choice >> 1 & 1)
    east = (ns_pair ^ 2) + (choice >> 2 & 1)
    return (Suit(north), Suit(east), Suit(north ^ 1), Suit(east ^ 1))


def check_suits(suits: Iterable[Any]) -> tuple[Suit, ...]:
    """Validate the four personal suits: all different, partners holding pair-mates."""
    items = list(suits) if not isinstance(suits, (str, bytes)) else None
    if items is None or len(items) != 4:
        raise ValueError(f"suits must be four suits, one per seat, not {suits!r}")
    parsed = []
    for seat, item in enumerate(items):
        if isinstance(item, Suit):
            parsed.append(item)
        elif isinstance(item, str):
            try:
                parsed.append(Suit.parse(item))
            except CardParseError:
                raise ValueError(f"suits[{seat}]: {item!r} is not a suit") from None
        else:
            raise ValueError(f"suits[{seat}]: {item!r} is not a suit")
    if parsed[0] ^ 1 != parsed[2] or parsed[1] ^ 1 != parsed[3] or parsed[0] >> 1 == parsed[1] >> 1:
        letters = "".join(SUIT_LETTERS[s] for s in parsed)
        raise ValueError(
            f"suits {letters}: partners (seats 0-2 and 1-3) must hold spades+hearts "
            "against diamonds+clubs"
        )
    return tuple(parsed)


def check_seat(seat: Any) -> int:
    """Validate a seat number 0-3."""
    if type(seat) is not int or not 0 <= seat < 4:
        raise ValueError(f"{seat!r} is not a seat (0-3: North, East, South, West)")
    return seat


def check_deck(deck: Iterable[Any]) -> tuple[Card, ...]:
    """Validate a 208-card deck: exactly four copies of each of the 52 cards."""
    if isinstance(deck, (str, bytes)):
        raise ValueError("deck must be a list of 208 cards")
    cards = []
    for i, item in enumerate(deck):
        if isinstance(item, str):
            try:
                cards.append(Card.parse(item))
            except CardParseError:
                raise ValueError(f"deck card {i}: {item!r} is not a card") from None
        elif type(item) is Card:
            cards.append(item)
        else:
            raise ValueError(f"deck card {i}: {item!r} is not a card")
    counts = [0] * 52
    for i, card in enumerate(cards):
        counts[card] += 1
        if counts[card] > 4:
            raise ValueError(f"deck card {i}: a fifth {card} (a deck has four copies of each)")
    if len(cards) != DECK_SIZE:
        missing = next(CARDS[c] for c in range(52) if counts[c] < 4)
        raise ValueError(f"deck has {len(cards)} cards, not 208 (too few of {missing})")
    return tuple(cards)


# Small tables for the hot paths (a few hundred entries, cheap to build at import).
_SUIT = tuple(code // 13 for code in range(52))
_BIT = tuple(1 << (code % 13) for code in range(52))
_BIT52 = tuple(1 << code for code in range(52))
_SORTED_DECK = tuple(CARDS[code] for code in range(52) for _ in range(4))
# (i, bit length of i + 1) for each swap of a 208-card Fisher-Yates shuffle, top down.
_SHUFFLE_STEPS = tuple((i, (i + 1).bit_length()) for i in range(DECK_SIZE - 1, 0, -1))
# _TRUMPS_FROM[suits][leader][i]: the personal suit of the i-th player of a trick.
_TRUMPS_FROM: dict[tuple[Suit, ...], tuple[tuple[int, ...], ...]] = {}


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
