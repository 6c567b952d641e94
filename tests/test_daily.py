"""The Calypso of the day is fair: which day is today is the person's local date, no path
deals a day's cards before that day, and the kept attempt is played straight."""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterator

import pytest
from protocol_calls import advance, call, error, ok

from calypso_core import to_record
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
    monkeypatch.setattr(daily_module, "_clock", lambda: MOMENT)
    yield


def local(offset: datetime.timedelta, moment: datetime.datetime = MOMENT) -> str:
    return moment.astimezone(datetime.timezone(offset)).date().isoformat()


# -- which day is today -----------------------------------------------------------------------


@pytest.mark.parametrize("offset", OFFSETS, ids=lambda o: f"{o.total_seconds() / 3600:+g}h")
def test_today_is_the_local_date_in_every_time_zone(offset: datetime.timedelta) -> None:
    date = local(offset)
    assert daily_module.local_today(date, MOMENT).isoformat() == date
    view = ok("daily", today=date)
    assert view["table"]["daily"] == date


def test_a_date_no_time_zone_has_now_is_refused() -> None:
    assert daily_module.local_today(None, MOMENT) == datetime.date(2026, 12, 2)  # UTC's
    for date in ("2026-11-30", "2026-12-03"):
        with pytest.raises(ValueError, match="dates of the time zones run from 2026-12-01 to "
                           "2026-12-02"):
            daily_module.local_today(date, MOMENT)
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
        monkeypatch.setattr(daily_module, "_clock", lambda m=moment: m)
        assert local(datetime.timedelta(hours=offset), moment) == "2026-12-02"
        view = ok("daily", today="2026-12-02")
        assert view["table"]["daily"] == "2026-12-02"
        hands.append(view["hand"])
    assert hands[0] == hands[1] == hands[2]
    just_before = first - datetime.timedelta(minutes=1)
    monkeypatch.setattr(daily_module, "_clock", lambda: just_before)
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
    monkeypatch.setattr(daily_module, "_clock", lambda: MOMENT + datetime.timedelta(days=1))
    assert ok("import", text=json.dumps(record), today=late)["plays"] == 0


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
