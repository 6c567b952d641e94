"""The Calypso of the day is fair: which day is today is the person's local date, no path
deals a day's cards before that day, and the kept attempt is played straight."""

from __future__ import annotations

import binascii
import datetime
import io
import json
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from protocol_calls import advance, call, error, ok

from calypso_core import days, to_record
from calypso_core.__main__ import main
from calypso_core.game import new_game
from calypso_core.table import daily as daily_module

UTC = datetime.UTC
# 00:50 UTC on 2 December: the date is 1 December from UTC-12:00 to UTC-01:00 and
# 2 December from UTC-00:45 to UTC+14:00 (14:50 there).
MOMENT = datetime.datetime(2026, 12, 2, 0, 50, tzinfo=UTC)
OFFSETS = [datetime.timedelta(minutes=m) for m in range(-12 * 60, 14 * 60 + 1, 15)]


@pytest.fixture(autouse=True)
def stopped_clock(fresh_table: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The engine's clock stands at MOMENT."""
    monkeypatch.setattr(days, "_clock", lambda: MOMENT)
    yield


def local(offset: datetime.timedelta, moment: datetime.datetime = MOMENT) -> str:
    return moment.astimezone(datetime.timezone(offset)).date().isoformat()


# -- which day is today -----------------------------------------------------------------------


@pytest.mark.parametrize("offset", OFFSETS, ids=lambda o: f"{o.total_seconds() / 3600:+g}h")
def test_today_is_the_local_date_in_every_time_zone(offset: datetime.timedelta) -> None:
    date = local(offset)
    assert days.local_today(date, MOMENT).isoformat() == date
    view = ok("daily", today=date)
    assert view["table"]["daily"] == date


def test_a_date_no_time_zone_has_now_is_refused() -> None:
    assert days.local_today(None, MOMENT) == datetime.date(2026, 12, 2)  # UTC's
    for date in ("2026-11-30", "2026-12-03"):
        with pytest.raises(ValueError, match="dates of the time zones run from 2026-12-01 to "
                           "2026-12-02"):
            days.local_today(date, MOMENT)
        assert error("daily", today=date) == "bad_date"
        assert error("view", today=date) == "bad_date"  # every request's today is checked
    assert error("daily", today="2/12/2026") == "bad_date"


def test_everyone_whose_date_is_the_same_gets_the_same_deal(monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    # 2 December begins at 10:00 UTC on 1 December at UTC+14 and ends at 12:00 UTC on
    # 3 December at UTC-12: the first and the last visitor of that date get one deal.
    first = datetime.datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
    last = datetime.datetime(2026, 12, 3, 11, 59, tzinfo=UTC)
    hands = []
    for moment, offset in ((first, 14), (MOMENT, 0), (last, -12)):
        monkeypatch.setattr(days, "_clock", lambda m=moment: m)
        assert local(datetime.timedelta(hours=offset), moment) == "2026-12-02"
        view = ok("daily", today="2026-12-02")
        assert view["table"]["daily"] == "2026-12-02"
        hands.append(view["hand"])
    assert hands[0] == hands[1] == hands[2]
    just_before = first - datetime.timedelta(minutes=1)
    monkeypatch.setattr(days, "_clock", lambda: just_before)
    assert error("daily", today="2026-12-02") == "bad_date"


# -- no day before its date -------------------------------------------------------------------


def test_a_later_days_deal_is_refused_by_every_request(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    late = "2026-12-03"  # tomorrow everywhere but east of UTC+12, and refused even there
    assert error("daily", date=late, today="2026-12-02") == "not_dealt_yet"
    assert error("daily", date="2026-12-02", today="2026-12-01") == "not_dealt_yet"
    assert error("new_game", seed=f"daily:{late}", level="master", games=1,
                 today="2026-12-02") == "not_dealt_yet"
    assert error("new_game", seed=f"daily:{late}", level="master", games=1) == "not_dealt_yet"
    settings = daily_module.daily_settings(late).to_dict()
    record = to_record(new_game(f"daily:{late}"))
    assert error("load", record=record, settings=settings, today="2026-12-02") == "not_dealt_yet"
    # The same cards under another seed: a file holding them.
    other = {**settings, "seed": "import-1", "levels": ["master", "master", "human", "master"]}
    assert error("load", record=record, settings=other, today="2026-12-02") == "not_dealt_yet"
    assert error("import", text=json.dumps(record), today="2026-12-02") == "not_dealt_yet"
    # Once the day has come, the file opens.
    monkeypatch.setattr(days, "_clock", lambda: MOMENT + datetime.timedelta(days=1))
    assert ok("import", text=json.dumps(record), today=late)["plays"] == 0


def later_days_game(date: str, change: Callable[[list[str]], None] = lambda deck: None,
                    first_dealer: int | None = None) -> dict[str, Any]:
    """A record of the deal of ``date`` with its deck changed by ``change``."""
    record = to_record(new_game(f"daily:{date}"))
    change(record["deck"])
    if first_dealer is not None:
        record["first_dealer"] = first_dealer
    return record


def swap(i: int, j: int) -> Callable[[list[str]], None]:
    def change(deck: list[str]) -> None:
        deck[i], deck[j] = deck[j], deck[i]
    return change


def swap_in_every_hand(deck: list[str]) -> None:
    # Card k of a deal goes to the seat k % 4 after the dealer's left: swapping cards k and
    # k + 1 for k = 0, 2 changes all four hands of a deal, in every deal.
    for start in range(0, 208, 52):
        for k in (start, start + 2):
            deck[k], deck[k + 1] = deck[k + 1], deck[k]


LATER_DAYS_GAMES = {
    # The file: the deck of a later day with its last two cards swapped.
    "last two cards swapped": later_days_game("2026-12-20", swap(206, 207)),
    # Every card of the first three deals moved: only the last deal's hands are the day's.
    "only the last deal the day's": later_days_game(
        "2026-12-20", lambda deck: deck.__setitem__(slice(0, 156), deck[155::-1])),
    # The same hands at other seats: another first dealer.
    "another first dealer": later_days_game("2026-12-20", first_dealer=(
        new_game("daily:2026-12-20").first_dealer + 1) % 4),
    # Deals in another order: the day's third deal dealt first.
    "deals reordered": later_days_game("2026-12-20", lambda deck: deck.__setitem__(
        slice(0, 208), deck[104:156] + deck[52:104] + deck[:52] + deck[156:])),
    "a year ahead": later_days_game("2027-12-02", swap(0, 4)),
}


@pytest.mark.parametrize("record", LATER_DAYS_GAMES.values(), ids=LATER_DAYS_GAMES)
def test_a_game_holding_any_hand_of_a_later_days_deal_is_refused_by_every_request(
        record: dict[str, Any]) -> None:
    text = json.dumps(record)
    assert error("import", text=text, today="2026-12-02") == "not_dealt_yet"
    base64 = binascii.b2a_base64(text.encode(), newline=False).decode()
    reply = call("import", base64=base64, today="2026-12-02")
    assert reply["error"]["text"]["id"] == "error.later_hand"
    assert reply["error"]["text"]["params"]["date"] == record_day(record)
    assert error("replay", record=record) == "not_dealt_yet"
    assert error("review", record=record, seat=2) == "not_dealt_yet"
    settings = {"seed": "import-1", "levels": ["master", "master", "human", "master"],
                "games": 1}
    assert error("load", record=record, settings=settings) == "not_dealt_yet"


def record_day(record: dict[str, Any]) -> str:
    for name, game in LATER_DAYS_GAMES.items():
        if game is record:
            return "2027-12-02" if name == "a year ahead" else "2026-12-20"
    raise AssertionError("not one of LATER_DAYS_GAMES")


def test_a_match_whose_earlier_game_holds_a_later_days_hand_is_refused() -> None:
    # The game in play is the seed's own; the earlier one was edited in the save.
    settings = {"seed": "edited", "levels": ["random", "random", "human", "random"], "games": 2}
    first = new_game("daily:2026-12-20", suits=list("SDHC"), first_dealer=0)
    while not first.is_over:
        first.play(first.legal_moves()[0])
    second = new_game("edited/2", suits=first.suits, first_dealer=first.dealer)
    assert error("load", record=to_record(second), settings=settings,
                 history=[to_record(first)]) == "not_dealt_yet"


def test_a_game_with_a_card_of_every_hand_changed_holds_no_days_hand() -> None:
    # The rule is a whole hand: 13 cards of one seat in one deal.
    record = later_days_game("2026-12-20", swap_in_every_hand)
    assert ok("import", text=json.dumps(record), today="2026-12-02")["plays"] == 0
    # Today's deal and an earlier day's are no secret.
    for date in ("2026-12-02", "2026-11-02"):
        assert ok("import", text=json.dumps(later_days_game(date, swap(206, 207))))


def test_the_command_line_deals_no_later_day(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    # At MOMENT the date is 2 December in UTC, the test machine's zone (TZ=UTC below).
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    try:
        assert main(["play", "--seed", "daily:2026-12-03"]) == 2
        assert capsys.readouterr().err == (
            "error: the Calypso of 2026-12-03 is not dealt yet: today is 2026-12-02\n")
        assert main(["play", "--seed", "daily:2026-12-02"]) == 0  # today's: played, then q
        capsys.readouterr()
        path = tmp_path / "later.json"
        path.write_text(json.dumps(LATER_DAYS_GAMES["last two cards swapped"]))
        for command in (["replay", str(path)], ["suggest", str(path), "--level", "random"],
                        ["review", str(path), "--seat", "S", "--budget", "1"]):
            assert main(command) == 2, command
            assert capsys.readouterr().err == (
                "error: these cards hold a hand of the Calypso of 2026-12-20, which is not "
                "dealt yet: today is 2026-12-02\n")
        # A match deals boards from a number, which no day's seed is.
        assert main(["match", "--a", "random", "--b", "random", "--seed",
                     "daily:2026-12-20"]) == 2
        assert "is not a whole number" in capsys.readouterr().err
    finally:
        monkeypatch.undo()
        time.tzset()


def test_a_days_seed_deals_only_as_the_calypso_of_the_day() -> None:
    # A link ?seed=daily:DATE would deal the day's cards with hints and undo.
    assert error("new_game", seed="daily:2026-11-30", level="master", games=1) == "bad_seed"
    reply = call("new_game", seed="daily:2026-11-30", level="random")
    assert reply["error"]["text"]["id"] == "error.daily_seed"
    settings = daily_module.daily_settings("2026-11-30").to_dict()
    edited = {**settings, "levels": ["random", "random", "human", "random"]}
    record = to_record(new_game("daily:2026-11-30"))
    assert error("load", record=record, settings=edited) == "bad_settings"
    assert ok("new_game", seed="daily-2026-11-30", level="random")["table"]["daily"] is None


# -- the kept attempt is played straight ------------------------------------------------------


def test_the_kept_attempt_refuses_hint_and_undo_even_after_a_reload() -> None:
    dealt = ok("daily", date="2026-12-01")
    assert dealt["table"]["settings"]["straight"] is True
    view = advance(dealt)
    assert error("hint") == "straight"
    view = advance(ok("play", card=view["legal"][0]))
    assert view["can_undo"] is False
    reply = call("undo")
    assert reply["error"]["code"] == "straight"
    assert reply["error"]["text"]["id"] == "error.straight"
    saved = ok("record")
    assert ok("load", **saved)["table"]["daily"] == "2026-12-01"
    assert error("hint") == "straight" and error("undo") == "straight"


def test_a_practice_attempt_keeps_hint_and_undo() -> None:
    dealt = ok("daily", date="2026-12-01", practice=True)
    assert "straight" not in dealt["table"]["settings"]
    assert dealt["table"]["daily"] == "2026-12-01"
    view = advance(dealt)
    assert ok("hint")["card"] in view["legal"]
    view = advance(ok("play", card=view["legal"][0]))
    assert view["can_undo"] is True
    assert ok("undo")["plays"] < view["plays"]
    assert error("daily", practice="yes") == "bad_request"


def test_a_file_of_a_deal_whose_kept_attempt_is_open_is_refused_and_opens_once_it_is_not(
) -> None:
    # The page's game file of the kept attempt, saved mid-game: its deck sealed.
    dealt = advance(ok("daily", date="2026-12-01"))
    advance(ok("play", card=dealt["legal"][0]))
    text = json.dumps(ok("record")["record"])
    reply = call("import", text=text, kept_open=["2026-11-30", "2026-12-01"], today="2026-12-02")
    assert reply["error"]["code"] == "kept_open"
    assert reply["error"]["text"] == {"id": "error.kept_open", "params": {"date": "2026-12-01"}}
    # Another date's attempt open, or none: the file opens.
    assert ok("import", text=text, kept_open=["2026-11-30"], today="2026-12-02")["plays"] > 0
    assert ok("import", text=text, today="2026-12-02")["plays"] > 0
    for bad in ("2026-12-01", ["1 December"], ["2026-12-01"] * 32, [None]):
        assert error("import", text=text, kept_open=bad, today="2026-12-02") == "bad_request"
    # The day's cards with the last two swapped still deal its hands: refused all the same.
    deck = list(new_game("daily:2026-12-01").deck)
    deck[-2:] = deck[:-3:-1]
    swapped = json.dumps(to_record(new_game("x", deck=deck)))
    assert error("import", text=swapped, kept_open=["2026-12-01"], today="2026-12-02") \
        == "kept_open"
