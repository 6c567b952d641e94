"""A plain reference model of docs/rules.md (deals, tricks, calypsos, scores), for the tests.

It is written from the rules page, not from the engine, and it is slow on purpose: cards are
two-character strings such as ``"TD"``, hands are ``Counter``s, calypsos are sets of rank
letters. The invariant tests play the engine and this model side by side and compare every
legal-move list, every trick winner and every calypso, pile and score.

Where the options leave a combination open, the model follows the engine's documented choice
(``Rules`` docstring): All Fours implies "must beat the lead" and overrides "last trump-in
wins"; "must beat" together with "last trump-in" means the last trump-in that beats the lead.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

RANKS = "23456789TJQKA"  # low to high
SUITS = "SHDC"  # spades+hearts are one pair, diamonds+clubs the other
PARTNER_SUIT = {"S": "H", "H": "S", "D": "C", "C": "D"}
CALYPSO_POINTS = (500, 750, 1000, 1000)  # first, second, third, fourth completed calypso


def rank_of(card: str) -> int:
    """0 for a two, 12 for an ace."""
    return RANKS.index(card[0])


def suit_of(card: str) -> str:
    return card[1]


# The engine's documented order for legal moves and hands: by suit S H D C, then rank.
ORDER = {rank + suit: i for i, (suit, rank) in enumerate((s, r) for s in SUITS for r in RANKS)}


def sort_key(card: str) -> int:
    return ORDER[card]


@dataclass(frozen=True)
class Options:
    """The four rule options, with the same names as ``calypso_core.Rules``."""

    lead_trump_must_be_beaten: bool = False
    last_trump_in_wins: bool = False
    all_fours: bool = False
    leftovers_start_next_calypso: bool = True


def winner_of_trick(cards: Sequence[str], personal: Sequence[str], options: Options) -> int:
    """The index of the winning card; ``personal[i]`` is the trump suit of whoever played card i.

    Follows docs/rules.md#who-wins-a-trick and its options.
    """
    led = suit_of(cards[0])
    trump_lead = led == personal[0]
    # A trump-in is a later card of the player's own suit, when that suit is not the suit led.
    trump_ins = [i for i in range(1, len(cards)) if suit_of(cards[i]) == personal[i] != led]

    def highest_first_played(indices: list[int]) -> int:
        best = indices[0]
        for i in indices[1:]:
            if rank_of(cards[i]) > rank_of(cards[best]):
                best = i
        return best

    if options.all_fours:
        # The trump lead counts as a trump; each later trump must beat the best so far.
        trumps = ([0] if trump_lead else []) + trump_ins
        if trumps:
            return highest_first_played(trumps)
    elif options.lead_trump_must_be_beaten and trump_lead:
        beating = [i for i in trump_ins if rank_of(cards[i]) > rank_of(cards[0])]
        if not beating:
            return 0
        if options.last_trump_in_wins:
            return beating[-1]
        return highest_first_played(beating)
    elif trump_ins:
        if options.last_trump_in_wins:
            return trump_ins[-1]
        return highest_first_played(trump_ins)
    elif trump_lead:
        return 0
    follows = [0] + [i for i in range(1, len(cards)) if suit_of(cards[i]) == led]
    return highest_first_played(follows)


@dataclass
class Player:
    suit: str
    hand: Counter[str] = field(default_factory=Counter)
    in_progress: set[str] = field(default_factory=set)  # rank letters
    completed: int = 0
    pile: int = 0  # trick-pile cards from tricks this player won

    def score(self) -> int:
        """Scoring: the calypso ladder, 20 per card in progress, 10 per pile card won."""
        return sum(CALYPSO_POINTS[: self.completed]) + 20 * len(self.in_progress) + 10 * self.pile


class ReferenceGame:
    """A whole game, one card at a time, with no shortcuts."""

    def __init__(
        self, deck: Sequence[str], suits: Sequence[str], first_dealer: int, options: Options
    ) -> None:
        assert len(deck) == 208
        self.deck = list(deck)
        self.players = [Player(suit) for suit in suits]
        self.first_dealer = first_dealer
        self.options = options
        self.deal = 0
        self.trick: list[str] = []
        self.tricks: list[tuple[int, int, tuple[str, ...], int]] = []
        self.stock = list(deck)
        self.events: Counter[str] = Counter()  # for tests that want to know what happened
        self._start_deal()

    def _start_deal(self) -> None:
        dealer = (self.first_dealer + self.deal) % 4
        # 13 cards each, one at a time, clockwise from the dealer's left-hand neighbour.
        for i in range(52):
            card = self.stock.pop(0)
            self.players[(dealer + 1 + i) % 4].hand[card] += 1
        self.leader = self.to_move = (dealer + 1) % 4

    @property
    def is_over(self) -> bool:
        return self.deal == 4

    def legal(self) -> list[str]:
        """What the player to move may play, sorted like the engine's list."""
        if self.is_over:
            return []
        player = self.players[self.to_move]
        held = [card for card, count in player.hand.items() if count > 0]
        if self.trick:
            led = suit_of(self.trick[0])
            following = [card for card in held if suit_of(card) == led]
            if following:
                if self.options.all_fours:
                    following += [card for card in held if suit_of(card) == player.suit != led]
                held = following
        return sorted(held, key=sort_key)

    def play(self, card: str) -> tuple[int, int, tuple[str, ...], int] | None:
        """Play a legal card; return (deal, leader, cards, winner) when it ends a trick."""
        assert self.players[self.to_move].hand[card] > 0, card  # the tests compare legal()
        self.players[self.to_move].hand[card] -= 1
        self.trick.append(card)
        if len(self.trick) < 4:
            self.to_move = (self.to_move + 1) % 4
            return None
        personal = [self.players[(self.leader + i) % 4].suit for i in range(4)]
        winner = (self.leader + winner_of_trick(self.trick, personal, self.options)) % 4
        done = (self.deal, self.leader, tuple(self.trick), winner)
        self.tricks.append(done)
        self._sort_won_cards(self.trick, winner)
        self.trick = []
        self.leader = self.to_move = winner
        if len(self.tricks) % 13 == 0:
            self.deal += 1
            if not self.is_over:
                self._start_deal()
        return done

    def _sort_won_cards(self, cards: list[str], winner: int) -> None:
        """Building calypsos: the winner's suit to the winner, the partner's to the partner."""
        to_pile = 0
        for seat in (winner, (winner + 2) % 4):
            player = self.players[seat]
            duplicates = []
            for card in cards:
                if suit_of(card) != player.suit:
                    continue
                if card[0] in player.in_progress:
                    duplicates.append(card[0])
                else:
                    player.in_progress.add(card[0])
            if len(player.in_progress) == 13:
                player.completed += 1
                player.in_progress = set()
                self.events["calypso completed"] += 1
                if duplicates:
                    self.events["calypso completed with duplicates"] += 1
                if self.options.leftovers_start_next_calypso:
                    for rank in duplicates:
                        if rank in player.in_progress:
                            to_pile += 1
                        else:
                            player.in_progress.add(rank)
                    duplicates = []
            to_pile += len(duplicates)
        side_suits = (self.players[winner].suit, self.players[(winner + 2) % 4].suit)
        to_pile += sum(1 for card in cards if suit_of(card) not in side_suits)
        self.players[winner].pile += to_pile

    def in_progress(self, seat: int) -> list[str]:
        """The seat's calypso in progress, low to high, as card strings."""
        player = self.players[seat]
        ranks = sorted(player.in_progress, key=RANKS.index)
        return [rank + player.suit for rank in ranks]
