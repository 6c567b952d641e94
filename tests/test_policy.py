"""The playout policy of the search bots: a few fast rules of good play, on integer cards.

Seats play clockwise N(♠) E(♦) S(♥) W(♣): North and South hold the majors.
"""

from __future__ import annotations

from calypso_core import Rules
from calypso_core.bots.knowledge import card_code
from calypso_core.bots.policy import light_card
from calypso_core.cards import RANK_LETTERS, SUIT_LETTERS

SUITS = (0, 2, 1, 3)  # N spades, E diamonds, S hearts, W clubs
N, E, S, W = range(4)
RULES = Rules()


def hand(text: str) -> list[list[int]]:
    """Four lists of ranks by suit, from cards written as in observations ("AS 5S 3H")."""
    by_suit: list[list[int]] = [[], [], [], []]
    for word in text.split():
        code = card_code(word)
        by_suit[code // 13].append(code % 13)
    return by_suit


def cards(text: str) -> list[int]:
    return [card_code(word) for word in text.split()]


def mask(text: str) -> int:
    """A calypso in progress as a mask of ranks ("2 5 K")."""
    return sum(1 << RANK_LETTERS.index(r) for r in text.split())


def play(
    seat: int,
    held: str,
    trick: str = "",
    leader: int | None = None,
    calypso: list[int] | None = None,
    rules: Rules = RULES,
    lead_own_from: int = 0,
    overtake_below: int = -1,
) -> str:
    code = light_card(
        hand(held),
        seat,
        cards(trick),
        seat if leader is None else leader,
        SUITS,
        rules.winner_fn,
        rules.lead_trump_must_be_beaten or rules.all_fours,
        rules.last_trump_in_wins and not rules.all_fours,
        [0, 0, 0, 0] if calypso is None else calypso,
        lead_own_from,
        overtake_below,
    )
    return RANK_LETTERS[code % 13] + SUIT_LETTERS[code // 13]


def test_leads_the_top_card_of_an_opponents_suit() -> None:
    # North's opponents own diamonds (East) and clubs (West): the ace beats the queen.
    assert play(N, "2S 7S KS AD 3D QC") == "AD"


def test_without_an_opponents_suit_leads_the_own_suit_low_then_the_partners() -> None:
    assert play(N, "7S 2S 5H") == "2S"
    assert play(N, "9H 5H") == "5H"


def test_follows_low_under_the_partners_winning_card() -> None:
    # South led a plain club 9, West followed low: North plays its lowest club.
    assert play(N, "4C KC 2S", trick="9C 3C", leader=S) == "4C"


def test_feeds_the_partners_calypso_when_the_partner_is_winning() -> None:
    # East leads diamonds, South (North's partner) trumps in with a heart; North, void
    # in diamonds, gives South a heart South's calypso still needs.
    fed = play(N, "5H 9H 2C", trick="4D 6H 7D", leader=E, calypso=[0, 0, mask("5"), 0])
    assert fed == "9H"


def test_wins_cheaply_and_trumps_in_cheaply() -> None:
    # East leads a plain spade jack; South beats it with the cheapest card that does.
    assert play(S, "QS AS 3C", trick="JS", leader=E) == "QS"
    # West leads a plain spade and East trumps in with the 6 of diamonds: South, void in
    # spades, trumps in with the lowest heart above it.
    assert play(S, "4H 8H KH 3C", trick="9S 3S 6D", leader=W) == "8H"


# The sharper rules (issue 28), each turned on by its option.


def test_early_in_a_deal_a_sharper_leader_leads_the_lowest_own_card_its_calypso_needs() -> None:
    # North holds nine cards and its calypso has the 2 of spades: it leads the 5, a trump
    # lead that hardly anyone can trump in so early, and the others' spades come with it.
    held = "2S 5S KS AD 3D QC 4H 6H 8H"
    assert play(N, held, calypso=[mask("2"), 0, 0, 0], lead_own_from=9) == "5S"
    # Later in the deal (eight cards) it leads as the plain policy does: the opponents' top.
    assert play(N, held[3:], calypso=[mask("2"), 0, 0, 0], lead_own_from=9) == "AD"
    # With every spade it holds in its calypso already, it leads as the plain policy too.
    assert play(N, held, calypso=[mask("2 5 K"), 0, 0, 0], lead_own_from=9) == "AD"
    assert play(N, held, calypso=[mask("2"), 0, 0, 0]) == "AD"  # the option off


def test_a_sharper_third_hand_overtakes_its_partners_low_plain_card_with_its_top() -> None:
    # South led a plain club 9 and West followed low: North overtakes with its king, so
    # that East, last to play, needs more than a ten to take the trick.
    assert play(N, "4C KC 2S", trick="9C 3C", leader=S, overtake_below=10) == "KC"
    # A partner's queen or better stands on its own; and a top card that does not beat the
    # partner's is no overtaking.
    assert play(N, "4C KC 2S", trick="QC 3C", leader=S, overtake_below=10) == "4C"
    assert play(N, "4C 8C 2S", trick="9C 3C", leader=S, overtake_below=10) == "4C"
    assert play(N, "4C KC 2S", trick="9C 3C", leader=S) == "4C"  # the option off
