"""The fast playout core for bots: a full (possibly determinized) position on plain ints.

A ``Sim`` holds every hidden card, so a bot builds one per sampled layout (``from_parts``)
or, to cheat in tests, from the true position (``from_state``). Cards are integer codes
0-51 (``suit * 13 + rank``, rank 0 the two, 12 the ace; suits S H D C = 0 1 2 3) as in
``cards.py``, and the rules are those of ``kernel.py``. Nothing here checks legality:
callers play (``play_unchecked``) only what ``legal`` lists.

Each seat's hand is kept as four lists of ranks, one per suit, with a rank repeated for
identical copies (``_cards[seat * 4 + suit]``): "must follow" is one lookup, and a uniformly
random card of a suit is one ``pop`` at a random index, with no copying and no per-card
objects. ``random_playout`` is the hot loop: one function on locals, a whole trick per
iteration, the winner tracked as the cards fall, the stock split into hands once per
``from_parts`` and shared by every clone.

Bots may read (never write) ``_cards``, ``_trick``, ``_leader``, ``_to_move``, ``_deal``,
``_suits``, ``_calypso``, ``_completed`` and ``_winner_fn`` between moves; everything else
may change.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import compress

from .game import GameState
from .kernel import (
    BIT_OF,
    DEALS,
    FULL_CALYPSO,
    RANK_OF,
    SUIT_OF,
    TRICKS_PER_DEAL,
    KeyTable,
    Settle,
    WinnerFn,
    key_table,
    score,
    settle_fn,
    trumps_by_position,
)
from .rules import Rules

_CODES = range(52)
# A chooser, for ``Sim.playout``: given the hand of the player to move (four lists of ranks, by
# suit), the seat, the cards of the trick so far, the index of the card winning it and the
# personal suits by position in the trick, the card to play; it must be legal.
Chooser = Callable[[list[list[int]], int, list[int], int, tuple[int, int, int, int]], int]
# _FOLLOWERS[leader]: (seat, seat * 4) for the three players after the leader, in order.
_FOLLOWERS = tuple(
    tuple(((leader + i) & 3, ((leader + i) & 3) * 4) for i in (1, 2, 3)) for leader in range(4)
)


class Sim:
    """A full position of one game, on integer cards, built for fast random playouts."""

    __slots__ = (
        "_all_fours", "_base", "_calypso", "_cards", "_completed", "_deal", "_first_dealer",
        "_future", "_keys", "_leader", "_left", "_leftovers", "_pending", "_pile", "_rules",
        "_settle", "_stock", "_suits", "_to_move", "_trick", "_trumps", "_winner_fn",
    )  # fmt: skip

    _rules: Rules
    _suits: tuple[int, int, int, int]
    _first_dealer: int
    _deal: int
    _leader: int
    _to_move: int
    _trick: list[int]
    # _cards[seat * 4 + suit]: the ranks of that suit in the seat's hand, one per copy.
    _cards: list[list[int]]
    # The stock as it was when the position was built, in dealing order, and the deal then
    # being played: block k of 52 cards is dealt in deal _base + 1 + k. _future[k] holds
    # that block split into the 16 hands, worked out once and shared by every clone.
    _stock: tuple[int, ...]
    _base: int
    _future: list[tuple[tuple[int, ...], ...] | None]
    # Tricks not yet completed in the current deal.
    _left: int
    _calypso: list[int]
    _completed: list[int]
    _pile: list[int]
    # True once a deal has ended and the next one is due but not yet dealt from the stock.
    _pending: bool
    _winner_fn: WinnerFn
    _settle: Settle
    _keys: KeyTable
    _trumps: tuple[tuple[int, int, int, int], ...]
    _all_fours: bool
    _leftovers: bool

    # -- building ------------------------------------------------------------------------

    @classmethod
    def from_state(cls, state: GameState) -> Sim:
        """The true position of a game state, every hidden card included."""
        hands = [[0] * 52 for _ in range(4)]
        calypso = [0, 0, 0, 0]
        for seat in range(4):
            for card in state.hand(seat):
                hands[seat][card] += 1
            for card in state.calypso(seat):
                calypso[seat] |= BIT_OF[card]
        return cls.from_parts(
            state.rules,
            state.suits,
            state.first_dealer,
            state.deal,
            state.leader,
            state.to_move,
            state.trick,
            hands,
            state.unseen_stock(),
            calypso,
            [state.completed(seat) for seat in range(4)],
            [state.pile(seat) for seat in range(4)],
        )

    @classmethod
    def from_parts(
        cls,
        rules: Rules,
        suits: Sequence[int],
        first_dealer: int,
        deal: int,
        leader: int,
        to_move: int,
        trick: Sequence[int],
        hands: Sequence[Sequence[int]],
        stock: Sequence[int],
        calypso: Sequence[int],
        completed: Sequence[int],
        pile: Sequence[int],
    ) -> Sim:
        """A position from its parts: ``hands`` are four 52-slot count arrays, ``stock`` the
        undealt cards in dealing order, ``calypso`` four rank bitmasks of the calypsos in
        progress (bit r for rank r of the seat's own suit).

        Hands must hold 13 - (tricks played in the deal) cards each, less one for the seats
        that have played to the current trick; nothing is checked.
        """
        sim = cls.__new__(cls)
        sim._rules = rules
        sim._suits = (int(suits[0]), int(suits[1]), int(suits[2]), int(suits[3]))
        sim._first_dealer = first_dealer
        sim._deal = deal
        sim._leader = leader
        sim._to_move = to_move
        sim._trick = [int(c) for c in trick]
        cards: list[list[int]] = [[] for _ in range(16)]
        for seat in range(4):
            counts = hands[seat]
            base = seat * 4
            for code in compress(_CODES, counts):  # the cards held, each once
                n = counts[code]
                if n == 1:
                    cards[base + SUIT_OF[code]].append(RANK_OF[code])
                else:
                    cards[base + SUIT_OF[code]] += [RANK_OF[code]] * n
        sim._cards = cards
        sim._stock = tuple(stock)
        sim._base = deal
        sim._future = [None] * (len(sim._stock) // 52)
        sim._left = sum(len(cards[to_move * 4 + suit]) for suit in range(4)) if deal < DEALS else 0
        sim._calypso = list(calypso)
        sim._completed = list(completed)
        sim._pile = list(pile)
        sim._pending = False
        sim._set_rules(rules)
        return sim

    def _set_rules(self, rules: Rules) -> None:
        self._winner_fn = rules.winner_fn
        self._settle = settle_fn(rules.must_beat, rules.last_trump_wins,
                                 rules.leftovers_start_next_calypso, self._suits)  # fmt: skip
        self._keys = key_table(rules.must_beat, rules.last_trump_wins)
        self._trumps = trumps_by_position(self._suits)
        self._all_fours = rules.all_fours
        self._leftovers = rules.leftovers_start_next_calypso

    def clone(self) -> Sim:
        """An independent copy of this position."""
        other = Sim.__new__(Sim)
        other._rules = self._rules
        other._suits = self._suits
        other._first_dealer = self._first_dealer
        other._deal = self._deal
        other._leader = self._leader
        other._to_move = self._to_move
        other._trick = self._trick[:]
        other._cards = list(map(list.copy, self._cards))
        other._stock = self._stock
        other._base = self._base
        other._future = self._future
        other._left = self._left
        other._calypso = self._calypso[:]
        other._completed = self._completed[:]
        other._pile = self._pile[:]
        other._pending = self._pending
        other._winner_fn = self._winner_fn
        other._settle = self._settle
        other._keys = self._keys
        other._trumps = self._trumps
        other._all_fours = self._all_fours
        other._leftovers = self._leftovers
        return other

    # -- the position --------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The rule options."""
        return self._rules

    @property
    def suits(self) -> tuple[int, int, int, int]:
        """Each seat's personal trump suit."""
        return self._suits

    @property
    def first_dealer(self) -> int:
        """The dealer of the game's first deal."""
        return self._first_dealer

    @property
    def deal(self) -> int:
        """The current deal, 0-3 (4 once the game is over)."""
        return self._deal

    @property
    def dealer(self) -> int:
        """The dealer of the current deal (of the last deal once the game is over)."""
        return (self._first_dealer + min(self._deal, DEALS - 1)) & 3

    @property
    def is_over(self) -> bool:
        """Whether all four deals have been played."""
        return self._deal >= DEALS

    @property
    def to_move(self) -> int:
        """The seat to play next (meaningless once the game is over)."""
        return self._to_move

    @property
    def leader(self) -> int:
        """The seat that led (or will lead) the current trick."""
        return self._leader

    @property
    def trick(self) -> list[int]:
        """The cards of the current, unfinished trick, in playing order."""
        return self._trick[:]

    @property
    def tricks_left(self) -> int:
        """Tricks not yet completed in the current deal (0 once the game is over)."""
        return self._left

    @property
    def stock(self) -> tuple[int, ...]:
        """The cards still undealt, in dealing order."""
        dealt = min(self._deal, DEALS) - self._base - self._pending
        return self._stock[52 * dealt :]

    def hand(self, seat: int) -> list[int]:
        """The cards of a seat's hand, one code per copy, sorted."""
        self._deal_if_due()
        cards = self._cards
        return sorted(suit * 13 + rank for suit in range(4) for rank in cards[seat * 4 + suit])

    def hands_by_suit(self) -> list[list[list[int]]]:
        """``[seat][suit]``: the ranks each seat holds, one per copy; the lists are the position's
        own, so they change as cards are played (and are replaced when the next deal comes)."""
        self._deal_if_due()
        c = self._cards
        return [c[0:4], c[4:8], c[8:12], c[12:16]]

    def hand_counts(self, seat: int) -> list[int]:
        """A seat's hand as a 52-slot count array."""
        counts = [0] * 52
        for code in self.hand(seat):
            counts[code] += 1
        return counts

    def hand_size(self, seat: int) -> int:
        """How many cards a seat holds."""
        self._deal_if_due()
        c = self._cards
        base = seat * 4
        return len(c[base]) + len(c[base + 1]) + len(c[base + 2]) + len(c[base + 3])

    def calypso(self, seat: int) -> int:
        """The rank bitmask of a seat's calypso in progress (bit r: rank r of its suit)."""
        return self._calypso[seat]

    def completed(self, seat: int) -> int:
        """How many calypsos a seat has completed."""
        return self._completed[seat]

    def pile(self, seat: int) -> int:
        """How many trick-pile cards came from tricks this seat won."""
        return self._pile[seat]

    # -- scores --------------------------------------------------------------------------

    def score(self, seat: int) -> int:
        """A player's score at this point (docs/rules.md#scoring)."""
        return score(self._completed[seat], self._calypso[seat], self._pile[seat])

    def scores(self) -> tuple[int, int, int, int]:
        """The four players' scores, by seat."""
        return (self.score(0), self.score(1), self.score(2), self.score(3))

    def partnership_scores(self) -> tuple[int, int]:
        """North-South's and East-West's totals."""
        s = self.scores()
        return (s[0] + s[2], s[1] + s[3])

    # -- moves ---------------------------------------------------------------------------

    def legal(self) -> list[int]:
        """The distinct cards the player to move may play, sorted."""
        if self._deal >= DEALS:
            return []
        if self._pending:
            self._deal_next()
        seat = self._to_move
        cards = self._cards
        base = seat * 4
        if self._trick:
            led = SUIT_OF[self._trick[0]]
            ranks = cards[base + led]
            if ranks:
                own = self._suits[seat]
                if self._all_fours and own != led and cards[base + own]:
                    mine = cards[base + own]
                    return sorted({led * 13 + r for r in ranks} | {own * 13 + r for r in mine})
                off = led * 13
                return sorted({off + r for r in ranks})
        return sorted({suit * 13 + r for suit in range(4) for r in cards[base + suit]})

    def play_unchecked(self, code: int) -> None:
        """Play a card for the player to move; nothing is checked, so it must be legal."""
        if self._pending:
            self._deal_next()
        seat = self._to_move
        self._cards[seat * 4 + SUIT_OF[code]].remove(RANK_OF[code])
        trick = self._trick
        trick.append(code)
        if len(trick) < 4:
            self._to_move = (seat + 1) & 3
            return
        winner = self._settle(trick, self._leader, self._calypso, self._completed, self._pile)
        self._trick = []
        self._leader = self._to_move = winner
        self._left -= 1
        if not self._left:
            self._end_deal()

    def record_tricks(self, log: list[tuple[int, tuple[int, ...], int]]) -> None:
        """From now on, append every trick this position settles to ``log``: its leader, its
        four cards in the order played, and its winner. For the review's lines of play (which
        layouts' tricks go which way); a clone made afterwards records into the same log."""
        settle = self._settle

        def recording(trick: Sequence[int], leader: int, calypso: list[int],
                      completed: list[int], pile: list[int]) -> int:  # fmt: skip
            winner = settle(trick, leader, calypso, completed, pile)
            log.append((leader, tuple(trick), winner))
            return winner

        self._settle = recording

    def _end_deal(self) -> None:
        """After the last trick of a deal: move to the next one, dealt when first needed."""
        self._deal += 1
        if self._deal < DEALS:
            self._pending = True
            self._left = TRICKS_PER_DEAL
            self._leader = self._to_move = (self._first_dealer + self._deal + 1) & 3

    def _deal_if_due(self) -> None:
        if self._pending:
            self._deal_next()

    def _deal_next(self) -> None:
        """Deal the next 52 cards of the stock (the deal and leader are already set)."""
        self._pending = False
        block = self._deal - self._base - 1
        hands = self._future[block]
        if hands is None:
            hands = self._future[block] = self._split_block(block)
        self._cards[:] = map(list, hands)

    def _split_block(self, block: int) -> tuple[tuple[int, ...], ...]:
        """The ranks each seat gets, by suit, from one 52-card block of the stock."""
        dealt = self._stock[52 * block : 52 * block + 52]
        first = (self._first_dealer + self._base + block + 2) & 3
        cards: list[list[int]] = [[] for _ in range(16)]
        for i in range(4):
            base = ((first + i) & 3) * 4
            for code in dealt[i::4]:
                cards[base + SUIT_OF[code]].append(RANK_OF[code])
        return tuple(map(tuple, cards))

    # -- playouts ------------------------------------------------------------------------

    def random_card(self, rnd: Callable[[], float]) -> int:
        """A uniformly random legal *physical* card for the player to move.

        Every copy in the hand counts, so a card held twice is twice as likely; under All
        Fours the cards of the suit led and of the player's own suit are pooled.
        """
        if self._pending:
            self._deal_next()
        seat = self._to_move
        base = seat * 4
        cards = self._cards
        if self._trick:
            led = SUIT_OF[self._trick[0]]
            ranks = cards[base + led]
            if ranks:
                own = self._suits[seat]
                mine = cards[base + own]
                if self._all_fours and own != led and mine:
                    i = (rnd() * (len(ranks) + len(mine))).__trunc__()
                    if i < len(ranks):
                        return led * 13 + ranks[i]
                    return own * 13 + mine[i - len(ranks)]
                return led * 13 + ranks[(rnd() * len(ranks)).__trunc__()]
        i = (rnd() * self.hand_size(seat)).__trunc__()
        for suit in range(4):
            ranks = cards[base + suit]
            if i < len(ranks):
                return suit * 13 + ranks[i]
            i -= len(ranks)
        raise AssertionError("random_card: empty hand")

    def playout(self, choose: Chooser, rnd: Callable[[], float], eps: float) -> None:
        """Play to the end of the current deal (the next one is then due), each card chosen by
        ``choose``, or, when ``rnd() < eps`` (drawn before every card), ``random_card(rnd)``;
        a card that is the only legal one is played without asking ``choose``.

        The loop of the bots' policy playouts: it plays the cards as ``play_unchecked`` does,
        and keeps who is winning each trick for the chooser from the kernel's keys.
        """
        if self._deal >= DEALS:
            return
        if self._pending:
            self._deal_next()
        cards = self._cards
        hands = [cards[0:4], cards[4:8], cards[8:12], cards[12:16]]
        keys = self._keys
        by_leader = self._trumps
        settle = self._settle
        calypso = self._calypso
        completed = self._completed
        pile = self._pile
        leader = self._leader
        seat = self._to_move
        trick = self._trick
        trumps = by_leader[leader]
        left = self._left
        # The trick's winning card so far, by the keys of kernel.winner_fn.
        best, rows = keys[trumps[0]][trick[0]] if trick else (0, ((), (), ()))
        winning = 0
        for i in range(1, len(trick)):
            key = rows[i - 1][trumps[i] * 52 + trick[i]]
            if key > best:
                best = key
                winning = i
        suits = self._suits
        all_fours = self._all_fours
        led = SUIT_OF[trick[0]] if trick else 0
        while True:
            n = len(trick)
            if rnd() < eps:
                self._to_move = seat
                code = self.random_card(rnd)
            elif left == 1:  # the deal's last trick: one card left in each hand
                base = seat * 4
                suit = 0 if cards[base] else 1 if cards[base + 1] else 2 if cards[base + 2] else 3
                code = suit * 13 + cards[base + suit][0]
            elif n and len(ranks := cards[seat * 4 + led]) == 1 and not (
                all_fours and (own := suits[seat]) != led and cards[seat * 4 + own]
            ):  # one card of the suit led, and it must be played: no need to ask
                code = led * 13 + ranks[0]
            else:
                code = choose(hands[seat], seat, trick, winning, trumps)
            cards[seat * 4 + SUIT_OF[code]].remove(RANK_OF[code])
            trick.append(code)
            if n == 3:
                leader = seat = settle(trick, leader, calypso, completed, pile)
                trick = self._trick = []
                left -= 1
                if not left:
                    self._leader = self._to_move = leader
                    self._left = 0
                    self._end_deal()
                    return
                trumps = by_leader[leader]
                continue
            if n:
                key = rows[n - 1][trumps[n] * 52 + code]
                if key > best:
                    best = key
                    winning = n
            else:
                best, rows = keys[trumps[0]][code]
                winning = 0
                led = SUIT_OF[code]
            seat = (seat + 1) & 3

    def random_playout(
        self,
        rng: random.Random,
        until_end_of_deal: bool = False,
        moves: list[int] | None = None,
    ) -> None:
        """Play on with uniformly random legal cards: the bots' fast path.

        Each card is drawn uniformly among the *physical* legal cards of the hand: a card
        held twice is twice as likely, and under All Fours the cards of the suit led and of
        the player's own suit are pooled. Stops at the end of the game, or with
        ``until_end_of_deal`` at the end of the current deal (the next deal is then due:
        ``deal`` has moved on, the stock is dealt when first needed). If ``moves`` is given,
        every card played is appended to it (for tests and analysis).

        The whole game loop is this one function, a trick per iteration, on locals. It holds
        the one inlined copy of the kernel's rules (``kernel.winner_fn`` and
        ``kernel.gather``), marked where they are; tests/test_fastsim.py replays its moves
        through ``GameState`` under every rule option.
        """
        rnd = rng.random
        start_deal = self._deal
        # Finish a trick in progress card by card; the loop below starts tricks afresh.
        while self._trick:
            code = self.random_card(rnd)
            if moves is not None:
                moves.append(code)
            self.play_unchecked(code)
        deal = self._deal
        if deal >= DEALS or (until_end_of_deal and deal != start_deal):
            return
        if self._pending:
            self._deal_next()
        hands = self._cards  # hands[seat * 4 + suit]: the ranks held, one per copy
        suits = self._suits
        calypso = self._calypso
        completed = self._completed
        pile = self._pile
        all_fours = self._all_fours
        rules = self._rules
        keep_rank = not rules.last_trump_wins  # whether a trump-in raises the bar for later ones
        must_beat = rules.must_beat
        leftovers = self._leftovers
        suit_of = SUIT_OF
        bit_of = BIT_OF
        followers = _FOLLOWERS
        leader = self._leader
        left = self._left
        while True:
            while left:
                # The lead: a uniformly random card of the whole hand (left cards).
                base = leader << 2
                k = (rnd() * left).__trunc__()
                led = 0
                ranks = hands[base]
                n = len(ranks)
                while k >= n:
                    k -= n
                    led += 1
                    ranks = hands[base + led]
                    n = len(ranks)
                rank = ranks.pop(k)
                # The trick is kept as the ranks of the suit led, in playing order, and the
                # other cards (trump-ins and discards) as seat << 6 | code, if any.
                follows = [rank]
                others: list[int] | None = None
                # INLINED COPY of kernel.winner_fn, tracked as the cards fall: the winner so
                # far is the highest card of the suit led (best, best_seat), unless someone
                # trumps in (trump_seat, beating trump_rank). Under All Fours (which implies
                # must_beat and keep_rank) the trump-ins come from the branch just below.
                best = rank
                best_seat = leader
                trump_seat = -1
                trump_rank = -1
                if led == suits[leader]:  # a trump lead
                    if must_beat:
                        trump_seat = leader
                        trump_rank = rank
                    else:
                        best = 13  # no follow can beat it
                for seat, base in followers[leader]:
                    ranks = hands[base + led]
                    n = len(ranks)
                    if n:
                        if all_fours:
                            own = suits[seat]
                            mine = hands[base + own]
                            if own != led and mine:
                                k = (rnd() * (n + len(mine))).__trunc__()
                                if k >= n:  # trumps in
                                    rank = mine.pop(k - n)
                                    if others is None:
                                        others = [seat << 6 | own * 13 + rank]
                                    else:
                                        others.append(seat << 6 | own * 13 + rank)
                                    if rank > trump_rank:
                                        trump_seat = seat
                                        trump_rank = rank
                                    continue
                                rank = ranks.pop(k)
                                follows.append(rank)
                                if rank > best:
                                    best = rank
                                    best_seat = seat
                                continue
                        rank = ranks.pop() if n == 1 else ranks.pop((rnd() * n).__trunc__())
                        follows.append(rank)
                        if rank > best:
                            best = rank
                            best_seat = seat
                    else:
                        # Void in the suit led: a uniformly random card of the whole hand.
                        k = (rnd() * left).__trunc__()
                        suit = 0
                        ranks = hands[base]
                        n = len(ranks)
                        while k >= n:
                            k -= n
                            suit += 1
                            ranks = hands[base + suit]
                            n = len(ranks)
                        rank = ranks.pop(k)
                        if others is None:
                            others = [seat << 6 | suit * 13 + rank]
                        else:
                            others.append(seat << 6 | suit * 13 + rank)
                        if suit == suits[seat] and rank > trump_rank:
                            trump_seat = seat
                            if keep_rank:
                                trump_rank = rank
                winner = trump_seat if trump_seat >= 0 else best_seat
                if moves is not None:
                    moves += _in_playing_order(leader, led, follows, others)
                # INLINED COPY of kernel.gather: the suit led first, then the other cards.
                own = suits[winner]
                partner = winner ^ 2
                mine_mask = calypso[winner]
                theirs_mask = calypso[partner]
                to_pile = 4
                my_dups = their_dups = 0
                if led == own:
                    for rank in follows:
                        bit = 1 << rank
                        if mine_mask & bit:
                            my_dups |= bit
                        else:
                            mine_mask |= bit
                            to_pile -= 1
                elif led == own ^ 1:
                    for rank in follows:
                        bit = 1 << rank
                        if theirs_mask & bit:
                            their_dups |= bit
                        else:
                            theirs_mask |= bit
                            to_pile -= 1
                if others is not None:
                    mate = own ^ 1
                    for card in others:
                        card &= 63
                        suit = suit_of[card]
                        if suit == own:
                            bit = bit_of[card]
                            if mine_mask & bit:
                                my_dups |= bit
                            else:
                                mine_mask |= bit
                                to_pile -= 1
                        elif suit == mate:
                            bit = bit_of[card]
                            if theirs_mask & bit:
                                their_dups |= bit
                            else:
                                theirs_mask |= bit
                                to_pile -= 1
                if mine_mask == FULL_CALYPSO:
                    completed[winner] += 1
                    mine_mask = my_dups if leftovers else 0
                    to_pile -= mine_mask.bit_count()
                if theirs_mask == FULL_CALYPSO:
                    completed[partner] += 1
                    theirs_mask = their_dups if leftovers else 0
                    to_pile -= theirs_mask.bit_count()
                calypso[winner] = mine_mask
                calypso[partner] = theirs_mask
                pile[winner] += to_pile
                leader = winner
                left -= 1
            # The deal is over.
            deal += 1
            if deal >= DEALS:
                self._deal = deal
                self._leader = self._to_move = leader
                self._left = 0
                return
            leader = (self._first_dealer + deal + 1) & 3
            if until_end_of_deal:
                self._deal = deal
                self._leader = self._to_move = leader
                self._left = TRICKS_PER_DEAL
                self._pending = True
                return
            block = deal - self._base - 1
            dealt = self._future[block]
            if dealt is None:
                dealt = self._future[block] = self._split_block(block)
            hands[:] = map(list, dealt)
            left = TRICKS_PER_DEAL

    def __repr__(self) -> str:
        return (
            f"<Sim deal {self._deal} leader {self._leader} to_move {self._to_move} "
            f"trick {self._trick}>"
        )


def _in_playing_order(
    leader: int, led: int, follows: list[int], others: list[int] | None
) -> list[int]:
    """The codes of a trick from random_playout's split form, in playing order."""
    by_seat = {entry >> 6: entry & 63 for entry in others or ()}
    ranks = iter(follows)
    return [
        by_seat[seat] if seat in by_seat else led * 13 + next(ranks)
        for seat in ((leader + i) & 3 for i in range(4))
    ]
