"""Rules of thumb as one trick evaluator: the novice's and the club player's judgement.

Each legal card is scored by what the current trick is likely to be worth to each side
if it is played (the cards' value to whichever side takes them, times the chance that
side ends up winning), minus what the card would still be worth kept in hand. The novice
and the club player run the same evaluator; the club player feeds it a ``Knowledge``
with memory (cards counted, voids shown, copies still live), the novice one without.
"""

from __future__ import annotations

from ..kernel import WinnerFn
from .knowledge import Knowledge


class TrickEvaluator:
    """Scores candidate cards for the seat to move, from that seat's knowledge."""

    __slots__ = ("k", "last", "must_beat", "trumps", "us", "val", "winner")

    def __init__(self, k: Knowledge) -> None:
        self.k = k
        rules = k.rules
        self.must_beat = rules.must_beat
        self.last = rules.last_trump_wins
        self.winner: WinnerFn = rules.winner_fn
        self.trumps = [k.suits[(k.leader + i) & 3] for i in range(4)]
        self.us = k.seat & 1
        # Value of a needed calypso card to each seat.
        self.val = [k.calypso_value(s) for s in range(4)]

    # -- the trick ----------------------------------------------------------------------

    def side_gain(self, cards: list[int], side: int) -> float:
        """What these cards are worth to a side that takes them (calypso cards or pile)."""
        k = self.k
        masks = {side: k.calypso[side], side ^ 2: k.calypso[side ^ 2]}
        suit_of = {k.suits[side]: side, k.suits[side ^ 2]: side ^ 2}
        total = 0.0
        for c in cards:
            owner = suit_of.get(c // 13)
            if owner is not None:
                bit = 1 << (c % 13)
                if not masks[owner] & bit:
                    masks[owner] |= bit
                    total += self.val[owner]
                    continue
            total += 10.0
        return total

    def follower_value(self, seat: int, led: int, side: int) -> float:
        """Expected value to ``side`` of the card a later player adds to a trick of suit ``led``."""
        k = self.k
        owner = k.suits.index(led)
        if owner & 1 != side & 1 or k.is_void(seat, led):
            return 10.0
        in_suit = k.unseen_in_suit(led)
        if not in_suit:
            return 10.0
        base = 13 * led
        needed = sum(k.unseen[base + r] for r in range(13) if not k.calypso[owner] >> r & 1)
        p = k.p_holds_any(seat, in_suit)
        return 10.0 + p * needed / in_suit * (self.val[owner] - 10.0)

    def beat_prob(self, seat: int, cards: list[int]) -> float:
        """Chance that ``seat``, playing next, can take the trick from the card winning now."""
        k = self.k
        wi = self.winner(cards, self.trumps)
        win = cards[wi]
        led = cards[0] // 13
        rank = win % 13
        lead_trump = led == self.trumps[0]
        own = k.suits[seat]
        if wi and win // 13 != led:  # a trump-in is winning
            follow_hi = 0.0
            if self.last:
                threshold = cards[0] % 13 if (self.must_beat and lead_trump) else -1
            else:
                threshold = rank
        elif lead_trump:  # the trump lead is winning
            follow_hi = 0.0
            threshold = rank if self.must_beat else -1
        else:
            higher = k.unseen_in_suit(led, rank)
            follow_hi = 0.0 if k.is_void(seat, led) else k.p_holds_any(seat, higher)
            threshold = -1
        if own == led:
            return follow_hi
        trumps_hi = k.unseen_in_suit(own, threshold)
        if k.rules.all_fours:
            t = k.p_holds_any(seat, trumps_hi)
            return min(1.0, follow_hi + (1.0 - follow_hi) * t)
        in_led = k.unseen_in_suit(led)
        void = 1.0 if k.is_void(seat, led) else 1.0 - k.p_holds_any(seat, in_led)
        t = k.p_holds_any(seat, trumps_hi, max(1, k.unseen_total - in_led))
        return min(1.0, follow_hi + void * t)

    def win_chance(self, cards: list[int]) -> float:
        """Chance that our side takes the trick once these cards are down."""
        k = self.k
        leader = k.leader
        wi = self.winner(cards, self.trumps)
        p_us = 1.0 if ((leader + wi) & 1) == self.us else 0.0
        for i in range(len(cards), 4):
            seat = (leader + i) & 3
            b = self.beat_prob(seat, cards)
            if seat & 1 == self.us:
                p_us += (1.0 - p_us) * b
            else:
                p_us *= 1.0 - b
        return p_us

    # -- the card -------------------------------------------------------------------------

    def keep_value(self, code: int) -> float:
        """What the card is still worth in hand: trumping power, calypso hopes, a winner."""
        k = self.k
        seat = k.seat
        suit, rank = code // 13, code % 13
        if suit == k.suits[seat]:
            value = 3.0 + 1.2 * rank
            if k.needs(seat, code):
                value += 0.3 * self.val[seat]
            return value
        if suit == k.suits[seat ^ 2]:
            value = 0.5 * rank
            if k.needs(seat ^ 2, code):
                value += 0.3 * self.val[seat ^ 2]
            return value
        if rank >= 9 and not k.unseen_in_suit(suit, rank):
            return 12.0
        return 0.5 * rank

    def score(self, code: int) -> float:
        """The expected worth of playing this card now, in points for our side."""
        k = self.k
        cards = [*k.trick, code]
        led = cards[0] // 13
        p_us = self.win_chance(cards)
        ours = self.side_gain(cards, k.seat)
        theirs = self.side_gain(cards, k.seat ^ 1)
        for i in range(len(cards), 4):
            seat = (k.leader + i) & 3
            ours += self.follower_value(seat, led, k.seat)
            theirs += self.follower_value(seat, led, k.seat ^ 1)
        return p_us * ours - (1.0 - p_us) * theirs - self.keep_value(code)

    def choose(self, legal: list[int]) -> int:
        """The card to play: a lead by rules of thumb, otherwise the best-scoring card."""
        if not self.k.trick:
            return choose_lead(self.k, legal)
        best = legal[0]
        best_score = self.score(best)
        for code in legal[1:]:
            s = self.score(code)
            if s > best_score + 1e-9:
                best, best_score = code, s
        return best


def choose_lead(k: Knowledge, legal: list[int]) -> int:
    """A lead by rules of thumb.

    Lead the opponents' suits from the top first: their high cards pull the opponents'
    calypso cards into our pile. With counting, prefer a card nobody can beat by following
    (no higher copy unseen) in a suit the other opponent has not shown out of (so cannot
    trump in). Then lead the own suit, the ranks the calypso needs and low ones first (a
    trump lead wins unless someone trumps in); then the partner's suit, low.
    """
    me = k.seat
    own = k.suits[me]
    mate = own ^ 1

    def opponents_need(code: int) -> bool:
        return k.needs(me ^ 1, code) or k.needs(me ^ 3, code)

    theirs = [c for c in legal if c // 13 != own and c // 13 != mate]
    if theirs:
        if k.memory:

            def safety(code: int) -> tuple[bool, bool, int, bool]:
                suit, rank = code // 13, code % 13
                other = k.owner(suit) ^ 2
                master = not k.unseen_in_suit(suit, rank)
                return (master, not k.is_void(other, suit), rank, not opponents_need(code))

            return max(theirs, key=safety)
        return max(theirs, key=lambda c: (c % 13, not opponents_need(c)))
    mine = [c for c in legal if c // 13 == own]
    if mine:
        return min(mine, key=lambda c: (not k.needs(me, c), c % 13))
    return min(legal, key=lambda c: (c % 13, c))


def choose_by_rules(k: Knowledge, legal: list[int]) -> int:
    """The novice's card: a few rules of thumb on what is on the table now.

    Lead as ``choose_lead``. When partner is winning, feed the trick a card our side
    needs; otherwise win it with the cheapest card that wins now (keeping needed own-suit
    cards), else play the card least useful to the opponents, never our own needed ones.
    """
    if not k.trick:
        return choose_lead(k, legal)
    me = k.seat
    own = k.suits[me]
    trumps = [k.suits[(k.leader + i) & 3] for i in range(4)]
    winner = k.rules.winner_fn

    def ours(code: int) -> bool:
        return k.needs(me, code) or k.needs(me ^ 2, code)

    def theirs(code: int) -> bool:
        return k.needs(me ^ 1, code) or k.needs(me ^ 3, code)

    if ((k.leader + winner(k.trick, trumps)) & 1) == (me & 1):
        return max(
            legal,
            key=lambda c: (
                ours(c) and c // 13 != own,
                -(c % 13) if c // 13 == own else 0,
                not theirs(c),
                -(c % 13),
            ),
        )
    n = len(k.trick)
    winning = [c for c in legal if winner([*k.trick, c], trumps) == n]
    if winning:
        return min(winning, key=lambda c: (c // 13 == own and k.needs(me, c), c % 13))
    return min(legal, key=lambda c: (ours(c) and c // 13 >> 1 == own >> 1, theirs(c), c % 13))
