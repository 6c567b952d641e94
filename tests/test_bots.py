"""Computer players: the contract, legality, determinism, no peeking, hints."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from helpers import rehide, replay, unseen_places

from calypso_core import Card, GameState, IllegalMoveError, Rules, new_game
from calypso_core.bots import (
    ALL_LEVELS,
    LEVELS,
    Bot,
    Suggestion,
    finish,
    make_bot,
    play_game,
    suggest,
)
from calypso_core.bots.knowledge import Knowledge
from calypso_core.bots.sampler import sample_layout
from calypso_core.bots.search import CheaterBot, MasterBot, SearchBot
from calypso_core.messages import LANGUAGES, message, render

RULE_VARIANTS = [
    Rules(),
    Rules(lead_trump_must_be_beaten=True),
    Rules(last_trump_in_wins=True),
    Rules(lead_trump_must_be_beaten=True, last_trump_in_wins=True),
    Rules(all_fours=True),
    Rules(leftovers_start_next_calypso=False),
]
TINY = {"iterations": 4, "time_limit": None}


def rules_id(rules: Rules) -> str:
    return "".join(k[0] if v else "-" for k, v in rules.to_dict().items())


def bot(level: str, seat: int, seed: int = 0) -> Bot:
    settings = TINY if level in ("expert", "master", "cheater") else {}
    return make_bot(level, seat, random.Random(seed), **settings)


class CheckingBot(Bot):
    """Wraps a bot and checks every card it returns is one of the legal cards offered."""

    level = "checking"

    def __init__(self, inner: Bot) -> None:
        super().__init__(inner.seat, random.Random(0))
        self.inner = inner
        self.moves = 0

    def peek(self, state: GameState) -> None:
        peek = getattr(self.inner, "peek", None)
        if peek is not None:
            peek(state)

    def choose(self, observation: dict[str, Any], legal: Sequence[Card]) -> Card:
        card = self.inner.choose(observation, legal)
        assert card in legal
        assert str(card) in observation["legal_moves"]
        self.moves += 1
        return card


# -- the contract ----------------------------------------------------------------------


def test_levels_offered_to_players() -> None:
    assert LEVELS == ("random", "novice", "club", "expert", "master")
    assert "cheater" in ALL_LEVELS and "cheater" not in LEVELS


def test_make_bot_refuses_unknown_levels_and_settings() -> None:
    with pytest.raises(ValueError, match="unknown bot level"):
        make_bot("grandmaster", 0, random.Random(0))
    with pytest.raises(ValueError, match="unknown setting"):
        make_bot("club", 0, random.Random(0), iterations=10)
    with pytest.raises(ValueError, match="bad value"):
        make_bot("expert", 0, random.Random(0), iterations=0)
    with pytest.raises(ValueError, match="bad value"):
        make_bot("master", 0, random.Random(0), time_limit=-1)
    with pytest.raises(ValueError, match="not a seat"):
        make_bot("random", 4, random.Random(0))
    with pytest.raises(ValueError, match=r"random\.Random"):
        make_bot("random", 0, 42)  # type: ignore[arg-type]


def test_a_bot_refuses_another_seats_view() -> None:
    state = new_game(1)
    other = (state.to_move + 1) % 4
    with pytest.raises(ValueError, match="view"):
        make_bot("club", other, random.Random(0)).choose(
            state.observation(state.to_move), state.legal_moves()
        )


def test_play_game_plays_to_the_end_and_leaves_the_start_alone() -> None:
    start = new_game(5)
    end = play_game(start, [bot(level, seat) for seat, level in enumerate(LEVELS[:4])])
    assert end.is_over and len(end.plays) == 208
    assert not start.plays


# -- legality, for every rule option -----------------------------------------------------


@pytest.mark.parametrize("rules", RULE_VARIANTS, ids=rules_id)
def test_cheap_bots_play_only_legal_cards(rules: Rules) -> None:
    for game in range(3):
        levels = ["random", "novice", "club"]
        seats = [CheckingBot(bot(levels[(s + game) % 3], s, game)) for s in range(4)]
        end = play_game(new_game(f"legal-{game}", rules), seats)
        assert end.is_over
        assert sum(b.moves for b in seats) == 208


@pytest.mark.parametrize("rules", RULE_VARIANTS, ids=rules_id)
def test_search_bots_play_only_legal_cards(rules: Rules) -> None:
    levels = ["expert", "master", "cheater", "club"]
    seats = [CheckingBot(bot(levels[s], s, 3)) for s in range(4)]
    end = play_game(new_game(f"search-{rules_id(rules)}", rules), seats)
    assert end.is_over


# -- determinism -------------------------------------------------------------------------


def play_moves(state: GameState, bots: list[Bot], moves: int) -> GameState:
    state = state.clone()
    for _ in range(moves):
        seat = state.to_move
        peek = getattr(bots[seat], "peek", None)
        if peek is not None:
            peek(state)
        state.play(bots[seat].choose(state.observation(seat), state.legal_moves()))
    return state


@pytest.mark.parametrize("level", ["random", "novice", "club", "expert", "master", "cheater"])
def test_same_seed_same_game(level: str) -> None:
    state = new_game(11)
    moves = 208 if level in ("random", "novice", "club") else 70
    first = play_moves(state, [bot(level, s, 7) for s in range(4)], moves)
    second = play_moves(state, [bot(level, s, 7) for s in range(4)], moves)
    assert first.plays == second.plays
    third = play_moves(state, [bot(level, s, 8) for s in range(4)], moves)
    if level != "club":  # the club player uses no randomness; the others do
        assert third.plays != first.plays


# -- no peeking ----------------------------------------------------------------------------


def redeal_anyhow(
    state: GameState, seat: int, rng: random.Random, tries: int = 300
) -> GameState | None:
    """The same game as ``seat`` saw it, with the hidden cards dealt again across suits.

    The cards ``seat`` has not seen (the others' hands and the stock) are shuffled among
    their places in the deck, whatever their suits; the result is kept only if every play
    so far is still legal and ``seat``'s observation is unchanged.
    """
    deck = [str(card) for card in state.deck]
    places = unseen_places(state, seat)
    want = state.observation(seat)
    for _ in range(tries):
        cards = [deck[p] for p in places]
        rng.shuffle(cards)
        trial = deck[:]
        for place, card in zip(places, cards, strict=True):
            trial[place] = card
        try:
            other_state = replay(state, trial)
        except IllegalMoveError:
            continue
        if other_state.observation(seat) == want:
            return other_state
    return None


def positions(seed: int, count: int, levels: tuple[str, ...] = ("club",) * 4) -> list[GameState]:
    """Positions from one game, spread over its four deals."""
    state = new_game(seed)
    bots = [bot(levels[s], s, seed) for s in range(4)]
    wanted = {int(i * 205 / (count - 1)) for i in range(count)} if count > 1 else {0}
    out = []
    for i in range(208):
        if i in wanted:
            out.append(state.clone())
        seat = state.to_move
        state.play(bots[seat].choose(state.observation(seat), state.legal_moves()))
    return out


@pytest.mark.parametrize("level", LEVELS)
def test_redealing_hidden_cards_never_changes_the_move(level: str) -> None:
    rng = random.Random(2024)
    checked = 0
    for state in positions(3, 9):
        seat = state.to_move
        obs = state.observation(seat)
        expected = bot(level, seat, 99).choose(obs, state.legal_moves())
        alternatives = [rehide(state, seat, rng) for _ in range(2)]
        redealt = [replay(state, deck) for deck in alternatives]
        anyhow = redeal_anyhow(state, seat, rng)
        if anyhow is not None:
            redealt.append(anyhow)
        for other in redealt:
            assert other.hand(seat) == state.hand(seat)
            assert other.observation(seat) == obs
            again = bot(level, seat, 99).choose(other.observation(seat), other.legal_moves())
            assert again == expected
            checked += 1
    assert checked >= 18


class CloseMaster(MasterBot):
    """The master that plays on past its budget while cards race (an option for issue 28)."""

    CLOSE_BUDGET = 3.0


def test_the_master_playing_on_where_cards_are_close_does_not_peek_either() -> None:
    # Enough budget for its drops to start (20 layouts), so that playing on past the budget
    # happens; a re-deal of the hidden cards must not change how long it plays on, either.
    rng = random.Random(2024)
    checked = played_on = 0
    for state in positions(3, 12):
        seat = state.to_move
        if len(state.legal_moves()) < 2:
            continue
        first = CloseMaster(seat, random.Random(99), iterations=60, time_limit=None)
        expected = first.choose(state.observation(seat), state.legal_moves())
        assert first.last_result is not None
        spent = first.last_result.iterations
        played_on += spent > 60 + len(state.legal_moves())
        for other in [replay(state, rehide(state, seat, rng)) for _ in range(2)]:
            again = CloseMaster(seat, random.Random(99), iterations=60, time_limit=None)
            assert again.choose(other.observation(seat), other.legal_moves()) == expected
            assert again.last_result is not None and again.last_result.iterations == spent
            checked += 1
    assert checked >= 10 and played_on >= 1


class DeepExactMaster(MasterBot):
    """The master whose exact search takes over four tricks from the end (issue 28)."""

    EXACT_TRICKS = 4


def four_tricks_left(seed: int, count: int) -> list[GameState]:
    """Decisions with a choice four tricks from the end of a deal, in one club game."""
    state = new_game(seed)
    bots = [bot("club", s, seed) for s in range(4)]
    out: list[GameState] = []
    while not state.is_over and len(out) < count:
        if state.trick_number == 9 and len(state.legal_moves()) > 1:
            out.append(state.clone())
        seat = state.to_move
        state.play(bots[seat].choose(state.observation(seat), state.legal_moves()))
    return out


def test_the_master_searching_exactly_from_four_tricks_does_not_peek_either() -> None:
    # Its exact search solves every sampled layout: a re-deal of the hidden cards must change
    # neither the card nor the nodes it counted (iterations).
    rng = random.Random(2024)
    checked = 0
    for state in four_tricks_left(3, 6):
        seat = state.to_move
        first = DeepExactMaster(seat, random.Random(99), iterations=300, time_limit=None)
        expected = first.choose(state.observation(seat), state.legal_moves())
        assert first.last_result is not None
        spent = first.last_result.iterations
        for other in [replay(state, rehide(state, seat, rng)) for _ in range(2)]:
            again = DeepExactMaster(seat, random.Random(99), iterations=300, time_limit=None)
            assert again.choose(other.observation(seat), other.legal_moves()) == expected
            assert again.last_result is not None and again.last_result.iterations == spent
            checked += 1
    assert checked >= 10


def test_the_redeal_test_would_catch_a_peeking_bot() -> None:
    """The cheater sees the true cards: on some re-deal its move changes."""
    rng = random.Random(5)
    changed = False
    for state in positions(8, 8):
        seat = state.to_move
        if len(state.legal_moves()) < 2:
            continue
        cheat = bot("cheater", seat, 1)
        cheat.peek(state)  # type: ignore[attr-defined]
        expected = cheat.choose(state.observation(seat), state.legal_moves())
        for _ in range(4):
            other = replay(state, rehide(state, seat, rng))
            cheat = bot("cheater", seat, 1)
            cheat.peek(other)  # type: ignore[attr-defined]
            if cheat.choose(other.observation(seat), other.legal_moves()) != expected:
                changed = True
    assert changed


@pytest.mark.parametrize(
    ("sight", "shown", "trumps_only"),
    [("hands", (1, 2, 3), False), ("partner", (2,), False), ("opponents", (1, 3), False),
     ("trumps", (1, 2, 3), True), ("opponent-trumps", (1, 3), True)],
)
def test_a_cheater_with_partial_sight_is_shown_those_cards_and_samples_the_rest(
    sight: str, shown: tuple[int, ...], trumps_only: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(CheaterBot, "SEES", sight)
    rng = random.Random(3)
    sampled = 0
    for state in positions(17, 10)[:-1]:
        seat = state.to_move
        true = [[0] * 52 for _ in range(4)]
        for other in range(4):
            for card in state.hand(other):
                true[other][int(card)] += 1
        cheat = CheaterBot(seat, rng)
        cheat.peek(state)
        k = Knowledge(state.observation(seat))
        for _ in range(4):
            layout = cheat._layout(k)
            for d in range(1, 4):
                other = (seat + d) & 3
                hand = layout.hands[other]
                assert sum(hand) == state.hand_size(other)
                for code in range(52):
                    if d in shown and (not trumps_only or code // 13 == k.suits[other]):
                        assert hand[code] == true[other][code]
                    elif k.is_void(other, code // 13):
                        assert not hand[code]
                sampled += hand != true[other]
            # every unseen card is somewhere: in a hand not the seat's, or in the stock
            placed = [sum(layout.hands[s][c] for s in range(4) if s != seat) for c in range(52)]
            for code in layout.stock:
                placed[code] += 1
            assert placed == k.unseen
    assert sampled > 0 or sight == "hands"


def test_a_cheater_refuses_an_unknown_sight(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(CheaterBot, "SEES", "stock")
    sights = r"\(sights: all, hands, partner, opponents, trumps, opponent-trumps\)"
    with pytest.raises(ValueError, match=r"unknown sight 'stock' " + sights):
        CheaterBot(0, random.Random(0))


def test_sampled_layouts_fit_the_observation() -> None:
    rng = random.Random(1)
    for state in positions(21, 12):
        seat = state.to_move
        k = Knowledge(state.observation(seat))
        for _ in range(5):
            layout = sample_layout(k, rng)
            assert layout.hands[seat] == k.hand
            for other in range(4):
                assert sum(layout.hands[other]) == state.hand_size(other)
                for code in range(52):
                    if layout.hands[other][code] and other != seat:
                        assert not k.is_void(other, code // 13)
            assert len(layout.stock) == state.stock_size
            total = [layout.hands[s][c] for s in range(4) for c in range(52)]
            assert sum(total) + len(layout.stock) + len(state.plays) == 208


def test_search_budget_is_counted_in_iterations() -> None:
    state = new_game(4)
    searcher = make_bot("expert", state.to_move, random.Random(0), iterations=30, time_limit=None)
    assert isinstance(searcher, SearchBot)
    searcher.choose(state.observation(state.to_move), state.legal_moves())
    result = searcher.last_result
    assert result is not None and 30 <= result.iterations < 30 + len(state.legal_moves())


# -- hints -----------------------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_every_suggestion_has_a_one_line_reason_that_names_the_card_first(level: str) -> None:
    settings = TINY if level in ("expert", "master") else {}
    for state in positions(17, 12, ("novice", "club", "random", "club")):
        hint = suggest(state, level=level, seed=3, **settings)
        assert isinstance(hint, Suggestion)
        assert hint.card in state.legal_moves()
        assert hint.reason and hint.reason[0]["params"]["card"] == str(hint.card)
        for lang in LANGUAGES:
            said = render(hint.reason, lang)
            card = render(message("card.short", card=str(hint.card)), lang)
            assert "\n" not in said and card in said
        assert suggest(state.observation(state.to_move), level=level, seed=3, **settings) == hint


def test_suggest_refuses_a_finished_game_and_a_bystanders_view() -> None:
    end = play_game(new_game(2), [bot("random", s) for s in range(4)])
    with pytest.raises(ValueError, match="over"):
        suggest(end)
    state = new_game(2)
    with pytest.raises(ValueError, match="seat to move"):
        suggest(state.observation((state.to_move + 1) % 4))


def test_every_rule_option_is_covered() -> None:
    default = Rules().to_dict()
    changed = {
        name for r in RULE_VARIANTS for name, on in r.to_dict().items() if on != default[name]
    }
    assert changed == set(default)


@pytest.mark.parametrize("level", ["expert", "master"])
def test_a_search_in_slices_chooses_the_card_of_one_search(level: str) -> None:
    state = new_game("slices")
    for i in range(30):
        state.play(state.legal_moves()[i % len(state.legal_moves())])
    seat = state.to_move

    def bot() -> Any:
        return make_bot(level, seat, random.Random(9), time_limit=None, iterations=300)

    whole = bot().choose(state.observation(seat), state.legal_moves())
    steps = bot().choose_steps(state.observation(seat), state.legal_moves())
    slices = 0
    while True:
        try:
            next(steps)
            slices += 1
        except StopIteration as done:
            assert done.value == whole
            break
    assert slices >= 20  # a layout a slice
    assert finish(bot().choose_steps(state.observation(seat), state.legal_moves())) == whole
