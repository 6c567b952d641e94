"""One game of Calypso: four deals from one shuffled 208-card deck.

``GameState`` keeps integer card codes in per-seat count arrays so that legality is one
lookup and a clone is a handful of list copies; the public methods take and give ``Card``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from .cards import CARDS, SEAT_NAMES, SUIT_LETTERS, Card, CardParseError, Suit
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
        "_calypso", "_completed", "_hands", "_leader", "_masks", "_pile", "_plays",
        "_to_move", "_trick", "_tricks", "_trumps_from", "_winner_fn", "deal",
        "deck", "first_dealer", "rules", "suits",
    )  # fmt: skip

    rules: Rules
    suits: tuple[Suit, ...]
    first_dealer: int
    deck: tuple[Card, ...]
    deal: int

    def __init__(
        self, rules: Rules, suits: Sequence[Suit], first_dealer: int, deck: Sequence[Card]
    ) -> None:
        """Start a game; the arguments must already be valid (``new_game`` checks them)."""
        self.rules = rules
        self.suits = tuple(suits)
        self.first_dealer = first_dealer
        self.deck = tuple(deck)
        self._winner_fn = rules.winner_fn
        self._trumps_from = tuple(
            tuple(int(self.suits[(leader + i) % 4]) for i in range(4)) for leader in range(4)
        )
        self._plays: list[int] = []
        self._trick: list[int] = []
        self._tricks: list[Trick] = []
        self._calypso = [0, 0, 0, 0]
        self._completed = [0, 0, 0, 0]
        self._pile = [0, 0, 0, 0]
        self._hands = [[0] * 52 for _ in range(4)]
        # _masks[seat][suit]: bit r set while the seat holds a card of rank r of that suit.
        self._masks = [[0] * 4 for _ in range(4)]
        self.deal = 0
        self._leader = 0
        self._to_move = 0
        self._deal_cards()

    # -- the position ---------------------------------------------------------------------

    @property
    def to_move(self) -> int:
        """The seat to play next (meaningless once the game is over)."""
        return self._to_move

    @property
    def is_over(self) -> bool:
        """Whether all four deals have been played."""
        return self.deal >= DEALS

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
        return [CARDS[c] for c in self._trick]

    @property
    def tricks(self) -> list[Trick]:
        """Every completed trick, in order."""
        return list(self._tricks)

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
        return self.legal_codes()

    def legal_codes(self) -> list[Card]:
        """``legal_moves`` for callers that need speed: the same list, built from masks."""
        if self.deal >= DEALS:
            return []
        seat = self._to_move
        masks = self._masks[seat]
        if self._trick:
            led = self._trick[0] // 13
            if masks[led]:
                if self.rules.all_fours:
                    own = self.suits[seat]
                    if own != led and masks[own]:
                        first, second = (led, own) if led < own else (own, led)
                        return [*_suit_cards(first, masks[first]), *_suit_cards(second, masks[second])]
                return list(_suit_cards(led, masks[led]))
        return [
            *_suit_cards(0, masks[0]),
            *_suit_cards(1, masks[1]),
            *_suit_cards(2, masks[2]),
            *_suit_cards(3, masks[3]),
        ]

    def is_legal(self, card: Card | str) -> bool:
        """Whether the player to move may play this card."""
        try:
            self._check(card)
        except IllegalMoveError:
            return False
        return True

    def play(self, card: Card | str) -> None:
        """Play a card for the player to move; an illegal move raises and changes nothing."""
        self._play_unchecked(self._check(card))

    def _check(self, card: Card | str) -> int:
        seat = self._to_move
        who = SEAT_NAMES[seat]
        try:
            code = int(Card.parse(card)) if isinstance(card, str) else int(Card(card))
        except (CardParseError, TypeError):
            raise IllegalMoveError(f"{card!r} is not a card (move for {who})") from None
        if self.deal >= DEALS:
            raise IllegalMoveError(f"{CARDS[code]} cannot be played: the game is over")
        if not self._hands[seat][code]:
            raise IllegalMoveError(f"{CARDS[code]} is not legal for {who}, who does not hold it")
        if self._trick:
            led = self._trick[0] // 13
            suit = code // 13
            if (
                suit != led
                and self._masks[seat][led]
                and not (self.rules.all_fours and suit == self.suits[seat])
            ):
                raise IllegalMoveError(
                    f"{CARDS[code]} is not legal for {who}, who must follow {SUIT_LETTERS[led]}"
                )
        return code

    def _play_unchecked(self, code: int) -> None:
        """Apply a move known to be legal (no checks: callers must be sure)."""
        seat = self._to_move
        hand = self._hands[seat]
        hand[code] -= 1
        if not hand[code]:
            self._masks[seat][code // 13] ^= 1 << (code % 13)
        self._plays.append(code)
        trick = self._trick
        trick.append(code)
        if len(trick) < 4:
            self._to_move = (seat + 1) & 3
            return
        leader = self._leader
        winner = (leader + self._winner_fn(trick, self._trumps_from[leader])) & 3
        self._gather(trick, winner)
        self._tricks.append(Trick(self.deal, leader, tuple(CARDS[c] for c in trick), winner))
        self._trick = []
        self._leader = self._to_move = winner
        if len(self._plays) % 52 == 0:
            self.deal += 1
            if self.deal < DEALS:
                self._deal_cards()

    def _gather(self, trick: list[int], winner: int) -> None:
        """Sort a won trick into calypsos and the winner's pile (calypso-rules.md §4)."""
        own = self.suits[winner]
        partner = winner ^ 2
        to_pile = 0
        for seat, suit in ((winner, own), (partner, own ^ 1)):
            mask = self._calypso[seat]
            duplicates = []
            for card in trick:
                if card // 13 == suit:
                    bit = 1 << (card % 13)
                    if mask & bit:
                        duplicates.append(bit)
                    else:
                        mask |= bit
            if mask == FULL_CALYPSO:
                self._completed[seat] += 1
                mask = 0
                if self.rules.leftovers_start_next_calypso:
                    for bit in duplicates:
                        if mask & bit:
                            to_pile += 1
                        else:
                            mask |= bit
                    duplicates = []
            to_pile += len(duplicates)
            self._calypso[seat] = mask
        for card in trick:
            if card // 13 != own and card // 13 != own ^ 1:
                to_pile += 1
        self._pile[winner] += to_pile

    def _deal_cards(self) -> None:
        dealer = (self.first_dealer + self.deal) % 4
        start = 52 * self.deal
        for i in range(52):
            seat = (dealer + 1 + i) & 3
            code = self.deck[start + i]
            self._hands[seat][code] += 1
            self._masks[seat][code // 13] |= 1 << (code % 13)
        self._leader = self._to_move = (dealer + 1) & 3

    # -- scores ---------------------------------------------------------------------------

    def score(self, seat: int) -> int:
        """A player's score at this point (calypso-rules.md §5)."""
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
        other._winner_fn = self._winner_fn
        other._trumps_from = self._trumps_from
        other._plays = self._plays[:]
        other._trick = self._trick[:]
        other._tricks = self._tricks[:]
        other._calypso = self._calypso[:]
        other._completed = self._completed[:]
        other._pile = self._pile[:]
        other._hands = [h[:] for h in self._hands]
        other._masks = [m[:] for m in self._masks]
        other.deal = self.deal
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
        """What one seat may know, as JSON-ready data: never another hand or the stock."""
        from .observe import observation

        return observation(self, seat)

    def __str__(self) -> str:
        from .observe import describe

        return describe(self)

    def __repr__(self) -> str:
        return (
            f"<GameState deal {self.deal} trick {self.trick_number} "
            f"{len(self._plays)} plays, {SEAT_NAMES[self._to_move]} to move>"
        )


def new_game(
    seed: int | str | None = None,
    rules: Rules = Rules(),
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
    drawn_deck = [CARDS[c] for c in range(52) for _ in range(4)]
    rng.shuffle(drawn_deck)
    return GameState(
        rules,
        check_suits(suits) if suits is not None else drawn_suits,
        check_seat(first_dealer) if first_dealer is not None else drawn_dealer,
        check_deck(deck) if deck is not None else drawn_deck,
    )


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


# _MASK_CARDS[suit * 8192 + mask]: the cards of that suit whose rank bits are set, filled
# on first use so that importing the package does no work.
_MASK_CARDS: list[tuple[Card, ...] | None] = [None] * (4 * 8192)


def _suit_cards(suit: int, mask: int) -> tuple[Card, ...]:
    cards = _MASK_CARDS[suit * 8192 + mask]
    if cards is None:
        base = 13 * suit
        cards = tuple(CARDS[base + r] for r in range(13) if mask >> r & 1)
        _MASK_CARDS[suit * 8192 + mask] = cards
    return cards
