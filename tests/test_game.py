"""A game: dealing, play, calypsos and scores, as docs/rules.md gives them."""

from __future__ import annotations

import json
import random

import pytest
from helpers import (
    ALL_RULES,
    NORTH_COMPLETES_DEAL_1,
    NORTH_RUNS_SPADES,
    NORTH_RUNS_SPADES_TRICKS,
    deck_from_hands,
    hand_text,
    play_cards,
    play_tricks,
    position,
    rehide,
    replay,
    snapshot,
)

from calypso_core import (
    Card,
    GameState,
    IllegalMoveError,
    Rules,
    Suit,
    new_game,
)
from calypso_core.cards import CARDS

NORTH, EAST, SOUTH, WEST = range(4)
SPADES_THREE_TO_ACE = [f"{rank}S" for rank in "3456789TJQKA"]


def shuffled_deck(seed: int) -> list[str]:
    deck = [str(card) for card in CARDS for _ in range(4)]
    random.Random(seed).shuffle(deck)
    return deck


def play_first_legal(state: GameState, plays: int) -> None:
    for _ in range(plays):
        state.play(state.legal_moves()[0])


# -- dealing ------------------------------------------------------------------------------


@pytest.mark.parametrize("first_dealer", range(4))
def test_deal_gives_card_i_to_the_seat_i_places_left_of_the_dealer(first_dealer: int) -> None:
    deck = shuffled_deck(first_dealer)
    state = new_game(deck=deck, first_dealer=first_dealer, suits=list("SDHC"))
    for seat in range(4):
        expected = [deck[i] for i in range(52) if (first_dealer + 1 + i) % 4 == seat]
        assert sorted(hand_text(state, seat).split()) == sorted(expected)
        assert state.hand_size(seat) == 13
    assert state.dealer == first_dealer
    assert state.to_move == state.leader == (first_dealer + 1) % 4
    assert state.stock_size == 156
    assert [str(card) for card in state.unseen_stock()] == deck[52:]


def test_hands_are_sorted_by_suit_then_rank() -> None:
    state = position(3, NORTH_RUNS_SPADES)
    assert hand_text(state, NORTH) == "3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS AC"
    assert hand_text(state, SOUTH) == "2D 3D 4D QD KD AD 2C 3C 4C 5C 6C QC KC"


@pytest.mark.parametrize("first_dealer", range(4))
def test_the_deal_passes_clockwise_and_the_stock_is_dealt_in_order(first_dealer: int) -> None:
    deck = shuffled_deck(10 + first_dealer)
    state = new_game(deck=deck, first_dealer=first_dealer, suits=list("HCSD"))
    for deal in range(4):
        dealer = (first_dealer + deal) % 4
        assert (state.deal, state.dealer) == (deal, dealer)
        assert state.to_move == state.leader == (dealer + 1) % 4
        assert state.trick_number == 0
        assert state.stock_size == 156 - 52 * deal
        assert [str(card) for card in state.unseen_stock()] == deck[52 * (deal + 1) :]
        for seat in range(4):
            dealt = [deck[52 * deal + i] for i in range(52) if (dealer + 1 + i) % 4 == seat]
            assert sorted(hand_text(state, seat).split()) == sorted(dealt)
        play_first_legal(state, 52)
        assert len(state.tricks) == 13 * (deal + 1)
        assert {trick.deal for trick in state.tricks[13 * deal :]} == {deal}
    assert state.is_over
    assert state.stock_size == 0
    assert state.legal_moves() == ()
    assert all(state.hand_size(seat) == 0 for seat in range(4))


def test_the_winner_leads_the_next_trick_but_not_the_next_deal() -> None:
    state = position(3, NORTH_RUNS_SPADES)
    play_tricks(state, *NORTH_RUNS_SPADES_TRICKS[:12])
    assert state.to_move == state.leader == NORTH
    play_tricks(state, NORTH_RUNS_SPADES_TRICKS[12])
    assert state.tricks[-1].winner == NORTH
    # Deal 1: North deals, so East leads although North won the last trick.
    assert (state.deal, state.dealer, state.to_move, state.leader) == (1, NORTH, EAST, EAST)


def test_each_trick_records_its_deal_leader_cards_and_winner() -> None:
    state = position(3, NORTH_RUNS_SPADES)
    play_tricks(state, *NORTH_RUNS_SPADES_TRICKS[:2])
    first, second = state.tricks
    assert (first.deal, first.leader, [str(c) for c in first.cards], first.winner) == (
        0, NORTH, ["AS", "2D", "QC", "2C"], NORTH,
    )  # fmt: skip
    assert second.leader == NORTH
    play_cards(state, "QS 4D")
    assert [str(card) for card in state.trick] == ["QS", "4D"]
    assert state.to_move == SOUTH
    assert len(state.plays) == 10
    assert state.trick_number == 2


# -- calypsos -----------------------------------------------------------------------------


def test_won_cards_go_to_the_winner_and_the_partner_and_the_rest_to_the_pile() -> None:
    state = position(3, NORTH_RUNS_SPADES)
    play_tricks(state, NORTH_RUNS_SPADES_TRICKS[0])
    # AS to North's calypso; 2D, QC, 2C are the opponents' suits: North's pile.
    assert [str(card) for card in state.calypso(NORTH)] == ["AS"]
    assert [state.pile(seat) for seat in range(4)] == [3, 0, 0, 0]
    play_tricks(state, *NORTH_RUNS_SPADES_TRICKS[1:10])
    assert state.pile(NORTH) == 30
    play_tricks(state, NORTH_RUNS_SPADES_TRICKS[10])  # 4S 2H 4C 5H
    # The hearts go to South's calypso although North won the trick.
    assert [str(card) for card in state.calypso(SOUTH)] == ["2H", "5H"]
    assert state.pile(NORTH) == 31
    assert state.pile(SOUTH) == 0


def test_after_north_runs_his_spades() -> None:
    state = position(3, NORTH_RUNS_SPADES)
    play_tricks(state, *NORTH_RUNS_SPADES_TRICKS)
    assert [str(card) for card in state.calypso(NORTH)] == SPADES_THREE_TO_ACE
    assert [str(card) for card in state.calypso(SOUTH)] == ["2H", "3H", "4H", "5H", "6H", "7H"]
    assert state.calypso(EAST) == state.calypso(WEST) == []
    assert [state.pile(seat) for seat in range(4)] == [34, 0, 0, 0]
    assert [state.completed(seat) for seat in range(4)] == [0, 0, 0, 0]
    # Calypsos in progress carry over into the next deal.
    assert state.deal == 1
    assert state.scores() == (12 * 20 + 34 * 10, 0, 6 * 20, 0)


# The rules' first scoring example: 1 complete calypso, 1 card in progress, 34 pile cards.
def example_one(rules: Rules) -> GameState:
    state = position(3, NORTH_RUNS_SPADES, NORTH_COMPLETES_DEAL_1, rules=rules)
    play_tricks(state, *NORTH_RUNS_SPADES_TRICKS)
    #  E    S    W    N: South's A♠ wins; the 2♠ completes North's calypso; the A♠ is a
    # duplicate from the completing trick; 7♣ and 2♦ go to the pile of South, who won.
    play_tricks(state, "2S AS 7C 2D")
    return state


@pytest.mark.parametrize("rules", [r for r in ALL_RULES if r.leftovers_start_next_calypso])
def test_scoring_example_one_complete_one_in_progress_34_in_the_pile(rules: Rules) -> None:
    state = example_one(rules)
    assert state.tricks[-1].winner == SOUTH
    assert state.completed(NORTH) == 1
    assert [str(card) for card in state.calypso(NORTH)] == ["AS"]
    assert state.pile(NORTH) == 34
    assert state.score(NORTH) == 500 + 20 + 340 == 860
    assert state.pile(SOUTH) == 2
    assert state.score(SOUTH) == 6 * 20 + 2 * 10
    assert state.partnership_scores() == (860 + 140, 0)


@pytest.mark.parametrize("rules", [r for r in ALL_RULES if not r.leftovers_start_next_calypso])
def test_scoring_example_one_without_leftovers(rules: Rules) -> None:
    state = example_one(rules)
    assert state.completed(NORTH) == 1
    assert state.calypso(NORTH) == []
    assert state.score(NORTH) == 500 + 340
    assert state.pile(SOUTH) == 3  # the duplicate A♠ went to the winner's pile
    assert state.score(SOUTH) == 6 * 20 + 3 * 10


# The rules' second scoring example: nothing complete, 12 cards in progress, 42 in the pile.
EXAMPLE_TWO_DEAL_0 = {
    # As NORTH_RUNS_SPADES, but East and West hold no hearts.
    "N": "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S AC",
    "E": "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "S": "QC KC QD KD AD 2D 3D 4D 2C 3C 4C 5C 6C",
    "W": "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC 2C",
}
EXAMPLE_TWO_TRICKS = (
    "AS 2D QC 2C", "KS 3D KC 3C", "QS 4D QD 4C", "JS 5D KD 5C", "TS 6D AD 6C",
    "9S 7D 2D 7C", "8S 8D 3D 8C", "7S 9D 4D 9C", "6S TD 2C TC", "5S JD 3C JC",
    "4S QD 4C QC", "3S KD 5C KC", "AC AD 6C 2C",
)  # fmt: skip
EXAMPLE_TWO_DEAL_1 = {
    # North and West hold no hearts.
    "E": "2H 3S 4S 5S 6S 7S 8S 9S TS JS QS KS 8H",
    "S": "3H 8H 9H TH JH QH KH AH 2S 3S 4S 5S 6S",
    "W": "7C 8C 9C TC JC QC KC AC 8D 9D TD JD QD",
    "N": "AS 2D 3D 4D 5D 6D 7D 8D 9D 2S 3S 4S 5S",
}


@pytest.mark.parametrize("rules", ALL_RULES)
def test_scoring_example_twelve_in_progress_42_in_the_pile(rules: Rules) -> None:
    state = position(3, EXAMPLE_TWO_DEAL_0, EXAMPLE_TWO_DEAL_1, rules=rules)
    play_tricks(state, *EXAMPLE_TWO_TRICKS)
    assert (len(state.calypso(NORTH)), state.pile(NORTH)) == (12, 40)
    #  E    S    W    N: East leads a heart; North trumps in with a second A♠. The A♠ and
    # the 7♣ go to North's pile; the hearts go to South's calypso though North won.
    play_tricks(state, "2H 3H 7C AS")
    assert state.tricks[-1].winner == NORTH
    assert state.completed(NORTH) == 0
    assert [str(card) for card in state.calypso(NORTH)] == SPADES_THREE_TO_ACE
    assert state.pile(NORTH) == 42
    assert state.score(NORTH) == 240 + 420 == 660
    assert [str(card) for card in state.calypso(SOUTH)] == ["2H", "3H"]
    assert state.score(SOUTH) == 40


def four_calypsos_deal() -> dict[str, str]:
    """One full pack: North every spade; nobody else holds their own suit or any spade."""
    return {
        "N": "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
        "E": "2H 3H 4H 5H 6H 7H 8H 2D 3D 4D 5D 6D 7D",
        "S": "8D 9D TD JD QD KD AD 9C TC JC QC KC AC",
        "W": "9H TH JH QH KH AH 2C 3C 4C 5C 6C 7C 8C",
    }


@pytest.mark.parametrize("rules", ALL_RULES)
def test_the_calypso_ladder_500_750_1000_1000(rules: Rules) -> None:
    # Every trick holds exactly one spade, North's, and North wins it: as a trump lead nobody
    # trumps over, or as the only trump-in. Each deal North collects 13 different spades
    # and South 13 different hearts, so each completes one calypso per deal.
    deal = four_calypsos_deal()
    state = position(3, deal, deal, deal, deal, rules=rules)
    north_after = [760, 1770, 3030, 4290]  # ladder + 10 per pile card (26 a deal)
    south_after = [500, 1250, 2250, 3250]
    for k in range(4):
        play_first_legal(state, 52)
        assert all(trick.winner == NORTH for trick in state.tricks)
        assert [state.completed(seat) for seat in range(4)] == [k + 1, 0, k + 1, 0]
        assert state.calypso(NORTH) == state.calypso(SOUTH) == []
        assert state.pile(NORTH) == 26 * (k + 1)
        assert state.scores() == (north_after[k], 0, south_after[k], 0)
    assert state.is_over
    assert state.partnership_scores() == (4290 + 3250, 0)
    assert state.winner() == 0


def test_winner_is_asked_only_at_the_end() -> None:
    state = new_game(3)
    with pytest.raises(ValueError, match="not over"):
        state.winner()
    while not state.is_over:
        state.play(state.legal_moves()[-1])
    ns, ew = state.partnership_scores()
    assert state.winner() == (None if ns == ew else 0 if ns > ew else 1)
    assert sum(state.scores()) == ns + ew


# -- moves: legal and illegal --------------------------------------------------------------


def example_two_after_the_lead() -> GameState:
    state = position(3, EXAMPLE_TWO_DEAL_0, EXAMPLE_TWO_DEAL_1)
    play_tricks(state, *EXAMPLE_TWO_TRICKS)
    state.play("2H")
    return state


def test_you_must_follow_suit_if_you_can() -> None:
    state = example_two_after_the_lead()
    hearts = ["3H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"]
    assert [str(card) for card in state.legal_moves()] == hearts
    assert state.is_legal("AH")
    assert not state.is_legal("2S")


def test_the_legal_moves_handed_out_stay_as_they_were_while_play_goes_on() -> None:
    state = new_game(5)
    handed_out = []
    while not state.is_over:
        moves = state.legal_moves()
        handed_out.append((moves, [str(card) for card in moves]))
        state.play(moves[-1])
    for moves, as_they_were in handed_out:
        assert [str(card) for card in moves] == as_they_were
    with pytest.raises(TypeError):
        handed_out[0][0][0] = handed_out[0][0][-1]  # type: ignore[index]


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ("2S", "2S is not legal for South, who must follow H"),
        ("7C", "7C is not legal for South, who does not hold it"),
        ("ZZ", "'ZZ' is not a card (move for South)"),
        ("", "'' is not a card (move for South)"),
        (52, "52 is not a card (move for South)"),
        (None, "None is not a card (move for South)"),
        (3.0, "3.0 is not a card (move for South)"),
        (True, "True is not a card (move for South)"),
    ],
)
def test_an_illegal_move_raises_and_changes_nothing(move: object, message: str) -> None:
    state = example_two_after_the_lead()
    before = snapshot(state)
    with pytest.raises(IllegalMoveError) as caught:
        state.play(move)  # type: ignore[arg-type]
    assert str(caught.value) == message
    assert isinstance(caught.value, ValueError)
    assert snapshot(state) == before
    assert not state.is_legal(move)  # type: ignore[arg-type]


def test_bool_is_not_a_card_move() -> None:
    # Regression: play(True) used to play the three of spades (Card(True) was code 1).
    state = new_game(deck=deck_from_hands(3, {
        "N": "3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS 2S",
        "E": "2H 3H 4H 5H 6H 7H 8H 2D 3D 4D 5D 6D 7D",
        "S": "8D 9D TD JD QD KD AD 9C TC JC QC KC AC",
        "W": "9H TH JH QH KH AH 2C 3C 4C 5C 6C 7C 8C",
    }), first_dealer=3, suits=list("SCHD"))  # fmt: skip
    assert state.is_legal("3S")
    with pytest.raises(IllegalMoveError, match="True is not a card"):
        state.play(True)
    assert state.plays == []


def test_a_move_may_be_a_card_a_code_or_any_spelling() -> None:
    state = example_two_after_the_lead()
    state.play("th")
    state.play(Card.parse("7C"))
    state.play(int(Card.parse("AS")))
    assert [str(card) for card in state.tricks[-1].cards] == ["2H", "TH", "7C", "AS"]


def test_following_your_own_suit_led_by_someone_else_is_not_trumping() -> None:
    state = example_two_after_the_lead()
    play_cards(state, "AH 7C")  # South follows with his own suit; West discards
    state.play("2S")  # North trumps in
    assert state.tricks[-1].winner == NORTH


def test_no_move_after_the_end() -> None:
    deal = four_calypsos_deal()
    state = position(3, deal, deal, deal, deal)
    play_first_legal(state, 208)
    assert state.is_over
    assert state.legal_moves() == ()
    assert state.trick_number == 12
    with pytest.raises(IllegalMoveError, match="2S cannot be played: the game is over"):
        state.play("2S")


# -- clone, views -----------------------------------------------------------------------------


def test_clone_is_equal_but_independent() -> None:
    state = example_two_after_the_lead()
    before = snapshot(state)
    copy = state.clone()
    assert copy == state
    assert snapshot(copy) == before
    play_cards(copy, "AH 7C 2S")
    play_first_legal(copy, 60)
    assert snapshot(state) == before
    assert copy != state
    state.play("3H")
    assert snapshot(copy) != before
    assert len(copy.plays) == 52 + 1 + 63


def test_a_game_before_a_card_is_its_recipe_with_the_cards_before_that_one() -> None:
    state = new_game(7, Rules(all_fours=True))
    play_first_legal(state, 70)
    for play in (0, 1, 52, 69, 70):
        position = state.before(play)
        replayed = new_game(rules=state.rules, suits=state.suits,
                            first_dealer=state.first_dealer, deck=state.deck)
        for card in state.plays[:play]:
            replayed.play(card)
        assert position == replayed and snapshot(position) == snapshot(replayed)
    assert state.before(70) is not state and len(state.plays) == 70  # a copy, the game as it was
    for wrong in (-1, 71, "3", 2.0, True):
        with pytest.raises(ValueError, match=r"play must be a card's index in the game, 0-70"):
            state.before(wrong)  # type: ignore[arg-type]


def test_equal_states_are_the_same_recipe() -> None:
    assert new_game(7) == new_game(7)
    assert new_game(7) != new_game(8)
    assert new_game(7, Rules(all_fours=True)) != new_game(7)
    assert new_game(7) != "a game"


def test_observation_is_json_ready_and_names_what_a_seat_knows() -> None:
    state = example_two_after_the_lead()
    for seat in range(4):
        seen = state.observation(seat)
        assert json.loads(json.dumps(seen)) == seen
        assert seen["seat"] == seat
        assert seen["hand"] == hand_text(state, seat).split()
        assert seen["legal_moves"] == (
            [str(c) for c in state.legal_moves()] if seat == SOUTH else []
        )
    seen = state.observation(SOUTH)
    assert seen["suits"] == ["S", "C", "H", "D"]
    assert (seen["first_dealer"], seen["dealer"], seen["deal"]) == (3, 0, 1)
    assert (seen["to_move"], seen["trick_number"], seen["is_over"]) == (SOUTH, 0, False)
    assert seen["trick"] == {"leader": EAST, "cards": ["2H"]}
    assert seen["hand_sizes"] == [13, 12, 13, 13]
    assert seen["stock"] == 104
    assert len(seen["tricks"]) == 13
    assert seen["tricks"][0] == {
        "deal": 0, "leader": 0, "cards": ["AS", "2D", "QC", "2C"], "winner": 0,
    }  # fmt: skip
    assert seen["players"][NORTH] == {
        "seat": 0, "suit": "S", "completed": 0, "in_progress": SPADES_THREE_TO_ACE,
        "pile": 40, "score": 640,
    }  # fmt: skip
    assert seen["partnership_scores"] == [640, 0]
    assert seen["rules"] == Rules().to_dict()


@pytest.mark.parametrize("seat", [4, -1, True, "0", None])
def test_observation_refuses_what_is_not_a_seat(seat: object) -> None:
    with pytest.raises(ValueError, match="is not a seat"):
        new_game(1).observation(seat)  # type: ignore[arg-type]


@pytest.mark.parametrize("plays", [0, 1, 30, 52, 77, 150, 207])
def test_observation_does_not_change_when_hidden_cards_move(plays: int) -> None:
    rng = random.Random(plays)
    state = new_game(plays + 100)
    for _ in range(plays):
        state.play(rng.choice(state.legal_moves()))
    for seat in range(4):
        deck = rehide(state, seat, rng)
        other = replay(state, deck)
        assert other.observation(seat) == state.observation(seat)
        if plays < 200:  # enough hidden cards left that a shuffle moves some of them
            assert deck != [str(card) for card in state.deck]
            others = [s for s in range(4) if s != seat]
            assert any(other.hand(s) != state.hand(s) for s in others) or (
                other.unseen_stock() != state.unseen_stock()
            )


def test_str_shows_the_board() -> None:
    state = position(3, NORTH_RUNS_SPADES)
    text = str(state)
    assert text.splitlines()[0] == (
        "Deal 1 of 4, dealer West, trick 1 of 13, stock 156, North to play"
    )
    assert "3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS AC" in text
    assert text.splitlines()[-1] == "North-South 0, East-West 0"
    assert repr(state) == "<GameState deal 0 trick 0 0 plays, North to move>"
    deal = four_calypsos_deal()
    done = position(3, deal, deal, deal, deal)
    play_first_legal(done, 208)
    assert str(done).startswith("Game over")


# -- new_game ---------------------------------------------------------------------------------


def test_new_game_is_decided_by_its_seed() -> None:
    first, second = new_game(42), new_game(42)
    assert first.deck == second.deck
    assert (first.suits, first.first_dealer) == (second.suits, second.first_dealer)
    assert new_game("some text").deck == new_game("some text").deck
    assert new_game(1).deck != new_game(2).deck
    assert sorted(new_game(1).deck) == sorted(CARDS[c] for c in range(52) for _ in range(4))


def test_given_parts_replace_only_themselves() -> None:
    seeded = new_game(42)
    deck = shuffled_deck(0)
    with_suits = new_game(42, suits=["D", "S", "C", "H"])
    assert with_suits.suits == (Suit.DIAMONDS, Suit.SPADES, Suit.CLUBS, Suit.HEARTS)
    assert (with_suits.deck, with_suits.first_dealer) == (seeded.deck, seeded.first_dealer)
    with_dealer = new_game(42, first_dealer=(seeded.first_dealer + 1) % 4)
    assert (with_dealer.deck, with_dealer.suits) == (seeded.deck, seeded.suits)
    with_deck = new_game(42, deck=deck)
    assert [str(c) for c in with_deck.deck] == deck
    assert (with_deck.suits, with_deck.first_dealer) == (seeded.suits, seeded.first_dealer)
    assert new_game(42, Rules(all_fours=True)).rules == Rules(all_fours=True)


def test_seeds_give_every_seating_and_dealer() -> None:
    seatings, dealers = set(), set()
    for seed in range(200):
        state = new_game(seed)
        suits = state.suits
        assert suits[0].mate == suits[2] and suits[1].mate == suits[3]
        assert suits[0] // 2 != suits[1] // 2
        seatings.add("".join(str(suit) for suit in suits))
        dealers.add(state.first_dealer)
    assert len(seatings) == 8
    assert dealers == {0, 1, 2, 3}


@pytest.mark.parametrize(
    ("suits", "message"),
    [
        (list("SHDC"), "suits SHDC: partners (seats 0-2 and 1-3) must hold spades+hearts against"),
        (list("SSHH"), "suits SSHH: partners"),
        (list("SDHS"), "suits SDHS: partners"),
        ("SDHC", "suits must be four suits, one per seat, not 'SDHC'"),
        (["S", "D", "H"], "suits must be four suits, one per seat"),
        (["S", "X", "H", "C"], "suits[1]: 'X' is not a suit"),
        ([0, 2, 1, 3], "suits[0]: 0 is not a suit"),
    ],
)
def test_new_game_refuses_impossible_suits(suits: object, message: str) -> None:
    with pytest.raises(ValueError) as caught:
        new_game(1, suits=suits)  # type: ignore[arg-type]
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize("seat", [4, -1, True, "1", 1.0])
def test_new_game_refuses_a_dealer_who_is_not_a_seat(seat: object) -> None:
    with pytest.raises(ValueError, match=r"is not a seat \(0-3: North, East, South, West\)"):
        new_game(1, first_dealer=seat)  # type: ignore[arg-type]


def test_new_game_refuses_a_wrong_deck() -> None:
    deck = [str(card) for card in CARDS for _ in range(4)]  # 2S 2S 2S 2S 3S ... AC
    with pytest.raises(ValueError) as caught:
        new_game(1, deck=deck[:-1])
    assert str(caught.value) == "deck has 207 cards, not 208 (too few of AC)"
    with pytest.raises(ValueError) as caught:
        new_game(1, deck=["2S", *deck])
    assert str(caught.value) == "deck card 4: a fifth 2S (a deck has four copies of each)"
    with pytest.raises(ValueError, match="deck card 3: 'ZZ' is not a card"):
        new_game(1, deck=[*deck[:3], "ZZ", *deck[4:]])
    with pytest.raises(ValueError, match="deck card 0: 5 is not a card"):
        new_game(1, deck=[5, *deck[1:]])  # type: ignore[list-item]  # a code is refused
    with pytest.raises(ValueError, match="deck must be a list of 208 cards"):
        new_game(1, deck="AS" * 208)
