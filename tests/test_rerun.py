"""The master in your seat, and the Calypso of the day."""

from __future__ import annotations

import datetime
import random

import pytest

from calypso_core import Card, GameState, Rules, new_game, to_record
from calypso_core.days import daily_seed, parse_date, today
from calypso_core.table.daily import DAILY_LEVELS, daily_settings
from calypso_core.table.match import Match, computer_players
from calypso_core.table.rerun import Player, master_in_your_seat, rerun_game, rerun_steps
from calypso_core.table.settings import Person, Settings

YOU = 2  # the one person of these matches plays South, the default

LEVELS = ["club", "novice", "human", "random"]


def play_match(settings: Settings, seed: int) -> list[GameState]:
    """Every game of a match, the person playing random legal cards."""
    match = Match(settings)
    rng = random.Random(seed)
    while True:
        while not match.state.is_over:
            if match.state.to_move == YOU:
                match.play(str(rng.choice(match.state.legal_moves())))
            else:
                match.step()
        if match.is_over:
            return [*match.history, match.state]
        match.next_game()


def replaying(game: GameState) -> Player:
    """The person's own cards of ``game``, played again in the same order."""

    def play(state: GameState) -> Card:
        return game.plays[len(state.plays)]

    return play


def test_rerunning_a_game_with_the_persons_own_cards_gives_back_the_game() -> None:
    settings = Settings.from_request({"seed": "rerun-1", "levels": LEVELS, "games": 2})
    games = play_match(settings, 1)
    for index, game in enumerate(games):
        again = rerun_game(settings, game, index, replaying(game))
        assert to_record(again) == to_record(game)


def test_a_rerun_goes_one_card_at_a_time() -> None:
    settings = Settings.from_request({"seed": "rerun-7", "levels": LEVELS, "games": 1})
    (game,) = play_match(settings, 7)
    played = [len(state.plays) for state in rerun_steps(settings, game, 0, replaying(game))]
    assert played == list(range(1, 209))


def test_the_rerun_meets_the_computer_players_of_that_game_of_the_match() -> None:
    # Game 2 met by game 1's players (the wrong seeds) would have gone otherwise.
    settings = Settings.from_request({"seed": "rerun-2", "levels": LEVELS, "games": 2})
    second = play_match(settings, 2)[1]
    wrong_seeds = computer_players(settings, 0)
    state = new_game(rules=second.rules, suits=second.suits, first_dealer=second.first_dealer,
                     deck=second.deck)
    differs = False
    for card in second.plays:
        if state.to_move != YOU:
            differs |= wrong_seeds[state.to_move](state)[0] != card
        state.play(card)
    assert differs


def test_a_game_that_is_not_that_game_of_the_match_is_refused() -> None:
    settings = Settings.from_request({"seed": "rerun-3", "levels": LEVELS, "games": 2})
    first, second = play_match(settings, 3)
    with pytest.raises(ValueError, match="deck is not the one game 1 of this match deals"):
        rerun_game(settings, second, 0, replaying(second))
    other = Settings.from_request({"seed": "rerun-4", "levels": LEVELS, "games": 2})
    with pytest.raises(ValueError, match=r"differ|not the one"):
        rerun_game(other, first, 0, replaying(first))
    with pytest.raises(ValueError, match="game 2 is not in a match of 2 games"):
        rerun_game(settings, first, 2, replaying(first))
    variant = Settings.from_request(
        {"seed": "rerun-3", "levels": LEVELS, "games": 2, "rules": {"all_fours": True}}
    )
    with pytest.raises(ValueError, match="rules differ"):
        rerun_game(variant, first, 0, replaying(first))


def test_the_master_plays_the_same_deck_against_the_same_players() -> None:
    settings = Settings.from_request({"seed": "rerun-5", "levels": LEVELS, "games": 1})
    (game,) = play_match(settings, 5)
    result = master_in_your_seat(settings.to_dict(), game, iterations=30)
    rerun = result.rerun
    assert rerun.is_over and rerun.deck == game.deck
    assert (rerun.suits, rerun.first_dealer) == (game.suits, game.first_dealer)
    # Until South's first card, the same players in the same position play the same cards.
    first_south = next(i for i in range(8) if (game.leader + i) % 4 == YOU)
    assert rerun.plays[:first_south] == game.plays[:first_south]
    assert rerun.plays != game.plays
    assert result.your_score == game.partnership_scores()[0]
    assert result.master_score == rerun.partnership_scores()[0]
    data = result.to_json()
    assert data["you"] == list(game.partnership_scores())
    assert data["master"] == list(rerun.partnership_scores())
    ns, ew = game.partnership_scores()
    assert result.your_lead == data["your_lead"] == ns - ew
    assert result.master_lead == data["master_lead"] == data["master"][0] - data["master"][1]
    # The difference is in the partnership's lead, the review's unit, not in one side's score.
    assert data["difference"] == result.your_lead - result.master_lead
    assert data["side"] == 0
    assert master_in_your_seat(settings, game, iterations=30).to_json() == data


def test_the_master_replays_only_finished_games() -> None:
    settings = Settings.from_request({"seed": "rerun-6", "levels": LEVELS, "games": 1})
    match = Match(settings)
    with pytest.raises(ValueError, match="finished game"):
        master_in_your_seat(settings, match.state, iterations=10)


# -- the Calypso of the day -----------------------------------------------------------------


def test_the_daily_seed_is_the_date_in_iso_form() -> None:
    assert daily_seed("2025-01-31") == "daily:2025-01-31"
    assert daily_seed(datetime.date(2024, 2, 29)) == "daily:2024-02-29"


def test_the_daily_match_is_one_standard_game_against_masters_without_the_clock() -> None:
    settings = daily_settings("2025-01-31")
    assert settings == Settings(
        seed="daily:2025-01-31", rules=Rules(), levels=DAILY_LEVELS, games=1, suit=None,
        people=(Person(seat=2, name=""),), clock=False,
    )
    assert DAILY_LEVELS == ("master", "master", "human", "master")
    assert daily_settings(datetime.date(2025, 1, 31)) == settings


@pytest.mark.parametrize(
    ("date", "first_cards", "suits", "first_dealer"),
    [
        ("2025-01-01", "5D 9S 4H KD AS 2D", "DSCH", 0),
        ("2026-12-01", "8D 6D KC 5C 7C JS", "CHDS", 3),
        ("2030-06-15", "TD 5D 2D JD QS JD", "HCSD", 1),
    ],
)
def test_each_date_deals_the_same_cards_everywhere(
    date: str, first_cards: str, suits: str, first_dealer: int
) -> None:
    state = Match(daily_settings(date)).state
    assert " ".join(str(c) for c in state.deck[:6]) == first_cards
    assert "".join(str(s) for s in state.suits) == suits
    assert state.first_dealer == first_dealer


def test_the_day_is_the_utc_date() -> None:
    east_of_utc = datetime.timezone(datetime.timedelta(hours=2))
    assert today(datetime.datetime(2025, 3, 1, 0, 30, tzinfo=east_of_utc)) == datetime.date(
        2025, 2, 28
    )
    assert today(datetime.datetime(2025, 3, 1, 23, 30, tzinfo=datetime.UTC)) == datetime.date(
        2025, 3, 1
    )
    with pytest.raises(ValueError, match="time zone"):
        today(datetime.datetime(2025, 3, 1, 12, 0))


@pytest.mark.parametrize("text", ["2025-02-30", "2025-1-01", "25-01-01", "", "2025-01-01T00",
                                  "\uff12\uff10\uff12\uff15-01-01", None, 20250101])
def test_a_date_that_is_not_a_calendar_day_is_refused(text: object) -> None:
    with pytest.raises(ValueError, match=r"not a date|not a day"):
        parse_date(text)
    if isinstance(text, str):
        with pytest.raises(ValueError):
            daily_settings(text)


def test_a_moment_is_not_a_date() -> None:
    with pytest.raises(ValueError, match="not a moment"):
        daily_seed(datetime.datetime(2025, 1, 1, tzinfo=datetime.UTC))
