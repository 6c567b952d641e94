"""Any seat a person or a computer: matches of 1-4 people sharing one device.

When the turn passes to a person other than the one whose hand is shown, every hand is
covered and the reply holds no card that person may not see; ``reveal`` shows the hand of
the person to move. Hints and aids are for that person, from their observation only; undo is
off with several people; saves and game files keep the seats and names.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from typing import Any

import pytest
from helpers import rehide
from protocol_calls import all_said, error, ok, recipe, said

from calypso_core import from_record, new_game, table, to_record
from calypso_core.cards import SEAT_NAMES
from calypso_core.table.aids import memory_aids

CODE = re.compile(r'"([2-9TJQKA][SHDC])"')
NAMES = {0: "Ben", 1: "Cleo", 2: "Ana", 3: "Dev"}


# Each test starts from a fresh table session and leaves none behind.
pytestmark = pytest.mark.usefixtures("fresh_table")


def people(*seats: int, named: bool = True) -> list[dict[str, Any]]:
    return [{"seat": s, "name": NAMES[s] if named else ""} for s in seats]


def public_cards(record: dict[str, Any], cut: list[str]) -> set[str]:
    """The cards everyone at the table has seen: every card played, and the cut."""
    return set(record["plays"]) | set(cut)


def check_reply(view: dict[str, Any], record: dict[str, Any], cut: list[str]) -> None:
    """The rules of a view for several people, checked against the game's own record."""
    state = from_record(record)
    persons = {p["seat"] for p in record_people(record)}
    to_move = None if state.is_over else state.to_move
    viewer = view["viewer"]
    if state.is_over:
        assert view["status"] == "game_over"
    elif to_move not in persons:
        assert view["status"] == "waiting"
    else:
        assert view["status"] == ("your_turn" if to_move == viewer else "handoff")
    if viewer is None:
        # Covered: no hand, no aids, and not one card code beyond what all have seen.
        assert "hand" not in view and "legal" not in view and "aids" not in view
        text = json.dumps(view)
        leaked = set(CODE.findall(text)) - public_cards(record, cut)
        assert not leaked, f"a covered reply shows {sorted(leaked)}"
    else:
        assert viewer in persons
        assert sorted(view["hand"]) == sorted(str(c) for c in state.hand(viewer))
        if "aids" in view:
            assert view["aids"]["seat"] == viewer
    if view["status"] == "handoff":
        seat = view["handoff"]["seat"]
        assert seat == to_move
        assert said(view["handoff"]["button"]) == f"Show {SEAT_NAMES[seat]}'s hand"
        assert said(view["handoff"]["text"]) == (
            f"Pass the device to {NAMES[seat]} ({SEAT_NAMES[seat]}).")
    else:
        assert "handoff" not in view


def record_people(record: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"seat": s} for s, p in enumerate(record["players"]) if "person" in p]


def play_match(seats: tuple[int, ...], seed: str, rng: random.Random) -> list[dict[str, Any]]:
    """A whole game as the page plays it: steps, hand-offs, reveals and cards; every reply
    checked. Returns the replies."""
    view = ok("new_game", seed=seed, level="random", people=people(*seats))
    cut = view["table"]["cut"]["cards"]
    replies = [view]
    shown: int | None = view["viewer"]  # the only person's, or None: covered at first
    while view["status"] != "game_over":
        record = recipe()["record"]
        check_reply(view, record, cut)
        if view["status"] == "waiting":
            view = ok("step")
        elif view["status"] == "handoff":
            seat = view["handoff"]["seat"]
            assert seat != shown  # a hand-off only when the turn passes to someone else
            # Nobody but the person to move may see their hand; the table stays as it was.
            for other in range(4):
                if other != seat:
                    assert error("reveal", seat=other) == "not_your_turn"
            assert error("hint") == "not_your_turn"
            assert error("aids") == "hand_covered"
            assert error("play", card=record["deck"][0]) in ("hand_covered", "illegal_move")
            view = ok("reveal", seat=seat)
            shown = seat
        else:
            assert view["viewer"] == shown == view["to_move"]
            view = ok("play", card=rng.choice(view["legal"]))
        replies.append(view)
    check_reply(view, recipe()["record"], cut)
    return replies


@pytest.mark.parametrize("seats", [
    (2,), (0,), (1,), (3,),
    *itertools.combinations(range(4), 2),
    (2, 1, 0), (3, 0, 1),
    (2, 3, 0, 1),
])
def test_a_whole_game_with_any_seats_for_people(seats: tuple[int, ...]) -> None:
    rng = random.Random(len(seats))
    replies = play_match(seats, f"people-{''.join(map(str, seats))}", rng)
    handoffs = sum(r["status"] == "handoff" for r in replies)
    if len(seats) == 1:
        assert handoffs == 0 and all(r["viewer"] == seats[0] for r in replies)
    else:
        assert handoffs >= 13  # the turn passes between people at least once a trick or so
    record = recipe()
    assert from_record(record["record"]).is_over
    assert [("person" in p) for p in record["record"]["players"]] == [s in seats
                                                                      for s in range(4)]


def test_the_turn_passing_to_a_person_covers_every_hand_at_once() -> None:
    # South and West are people: after South's card, West is next (South's hand must go).
    view = ok("new_game", seed="cover-1", level="random", people=people(2, 3))
    assert view["viewer"] is None
    while view["status"] != "game_over":
        if view["status"] == "waiting":
            view = ok("step")
        elif view["status"] == "handoff":
            view = ok("reveal", seat=view["handoff"]["seat"])
        else:
            mover = view["to_move"]
            view = ok("play", card=view["legal"][0])
            if view["to_move"] == (mover + 1) % 4 == 3 and view["status"] != "game_over":
                assert view["viewer"] is None and "hand" not in view
                assert view["status"] == "handoff" and view["event"]["seat"] == mover
                return
    pytest.fail("South never passed the turn straight to West")


def test_a_covered_view_is_the_same_whatever_the_hidden_cards_are() -> None:
    # Re-deal every card nobody has seen: the covered reply must not change at all.
    ok("new_game", seed="rehide-1", level="random", people=people(2, 0))
    rng = random.Random(9)
    view = ok("view")
    checked = 0
    while view["status"] != "game_over" and checked < 6:
        if view["status"] == "handoff":
            saved = recipe()
            state = from_record(saved["record"])
            for seat in (0, 1):  # between them, every hand and the stock move
                deck = rehide(state, seat, rng)
                other = new_game(rules=state.rules, suits=state.suits,
                                 first_dealer=state.first_dealer, deck=deck)
                for card in state.plays:
                    other.play(card)
                moved = {**saved, "record": to_record(other, saved["record"]["players"])}
                assert moved["record"]["deck"] != saved["record"]["deck"]
                table.reset()
                ok("load", **moved)
                covered_elsewhere = ok("view")
                table.reset()
                ok("load", **saved)
                assert covered_elsewhere == ok("view")
            checked += 1
            view = ok("reveal", seat=view["handoff"]["seat"])
        elif view["status"] == "waiting":
            view = ok("step")
        else:
            view = ok("play", card=rng.choice(view["legal"]))
    assert checked == 6


def test_reveal_is_only_for_the_person_to_move() -> None:
    view = ok("new_game", seed="reveal-1", level="random", people=people(2, 1))
    while view["status"] != "handoff":
        view = ok("step")
    seat = view["handoff"]["seat"]
    before = ok("view")
    assert error("reveal", seat=seat ^ 1) == "not_your_turn"  # the other person
    assert error("reveal", seat=(seat + 2) % 4) == "not_your_turn"  # a computer
    for bad in (4, -1, "2", None, 1.0, True):
        assert error("reveal", seat=bad) == "bad_request"
    assert error("reveal") == "bad_request"
    assert ok("view") == before
    shown = ok("reveal", seat=seat)
    assert shown["viewer"] == seat and shown["status"] == "your_turn"
    assert shown["aids"]["seat"] == seat and shown["legal"]
    assert ok("reveal", seat=seat) == shown  # showing it again changes nothing


def test_hints_and_aids_are_for_the_person_to_move_from_their_observation() -> None:
    ok("new_game", seed="hint-1", level="random", people=people(0, 2))
    view = ok("view")
    while view["status"] != "handoff":
        view = ok("step")
    assert error("hint") == "not_your_turn"
    view = ok("reveal", seat=view["handoff"]["seat"])
    assert ok("hint")["card"] in view["legal"]
    state = from_record(recipe()["record"])
    assert ok("aids") == memory_aids(state.observation(view["viewer"])) == view["aids"]


def test_undo_is_refused_when_several_people_play() -> None:
    ok("new_game", seed="undo-people", level="random", people=people(2, 1))
    view = ok("view")
    played = 0
    while played < 3:
        if view["status"] == "waiting":
            view = ok("step")
        elif view["status"] == "handoff":
            view = ok("reveal", seat=view["handoff"]["seat"])
        else:
            view = ok("play", card=view["legal"][0])
            played += 1
        assert view["can_undo"] is False
    before = recipe()
    assert error("undo") == "undo_off"
    assert recipe() == before


def test_labels_name_the_people_or_call_the_only_one_you() -> None:
    one = ok("new_game", seed=1, level="random")["table"]
    assert all_said([s["label"] for s in one["seats"]]) == ["North", "East", "You", "West"]
    assert all_said(one["sides"]) == ["You & North", "East & West"]
    two = ok("new_game", seed=1, level="random", people=people(2, 0))["table"]
    assert all_said([s["label"] for s in two["seats"]]) == ["Ben", "East", "Ana", "West"]
    assert all_said(two["sides"]) == ["Ana & Ben", "East & West"]
    assert [s["person"] for s in two["seats"]] == [True, False, True, False]
    opposed = ok("new_game", seed=1, level="random", people=people(1, 2))["table"]
    assert all_said(opposed["sides"]) == ["Ana & North", "Cleo & West"]
    unnamed = ok("new_game", seed=1, level="random", people=people(3, 2, named=False))["table"]
    assert all_said([s["label"] for s in unnamed["seats"]]) == ["North", "East", "South", "West"]
    assert all_said(unnamed["sides"]) == ["South & North", "West & East"]
    alone_in_east = ok("new_game", seed=1, level="random", people=people(1))["table"]
    assert all_said(alone_in_east["sides"]) == ["North & South", "You & West"]


def test_the_suit_is_the_first_persons_and_the_deal_stays_the_seeds() -> None:
    for first, second in [(0, 3), (1, 2), (3, 0)]:
        for suit in "SHDC":
            view = ok("new_game", seed=9, level="random", suit=suit,
                      people=people(first, second))
            suits = [s["suit"] for s in view["table"]["seats"]]
            assert suits[first] == suit
            assert sorted(suits) == sorted("SHDC")
            assert view["dealer"] == new_game("9").dealer


def test_a_save_keeps_names_and_resumes_covered() -> None:
    rng = random.Random(4)
    view = ok("new_game", seed="save-1", level="random", people=people(2, 0), games=2)
    while view["plays"] < 30 or view["status"] != "your_turn":
        if view["status"] == "waiting":
            view = ok("step")
        elif view["status"] == "handoff":
            view = ok("reveal", seat=view["handoff"]["seat"])
        else:
            view = ok("play", card=rng.choice(view["legal"]))
    saved = recipe()
    assert saved["settings"]["people"] == people(2, 0)
    assert saved["record"]["players"] == [{"person": "Ben"}, {"computer": "random"},
                                          {"person": "Ana"}, {"computer": "random"}]
    table.reset()
    loaded = ok("load", **json.loads(json.dumps(saved)))
    # A reload never shows a hand: the person to move gets the device first.
    assert loaded["viewer"] is None and "hand" not in loaded
    assert loaded["status"] == "handoff" and loaded["handoff"]["seat"] == view["to_move"]
    assert all_said(loaded["table"]["sides"]) == ["Ana & Ben", "East & West"]
    for key in ("plays", "deal", "dealer", "to_move", "trick", "seats", "scores", "log",
                "match"):
        assert loaded[key] == view[key], key
    assert recipe() == saved


def test_a_game_file_keeps_the_players_and_continues_with_them() -> None:
    ok("new_game", seed="file-1", level="club", people=people(2, 0))
    view = ok("view")
    while view["plays"] < 12:
        if view["status"] == "waiting":
            view = ok("step")
        elif view["status"] == "handoff":
            view = ok("reveal", seat=view["handoff"]["seat"])
        else:
            view = ok("play", card=view["legal"][0])
    text = json.dumps(recipe()["record"])
    table.reset()
    opened = ok("import", text=text)
    assert all_said(opened["labels"]) == ["Ben", "East", "Ana", "West"]
    assert opened["settings"]["people"] == people(2, 0)
    assert opened["settings"]["levels"] == ["human", "club", "human", "club"]
    shown = ok("replay", record=opened["record"], tricks=2)
    assert all_said(shown["labels"]) == ["Ben", "East", "Ana", "West"]
    assert shown["called"] == ["name", "seat", "name", "seat"]  # the page decides by these
    assert all_said(shown["sides"]) == ["Ana & Ben", "East & West"]
    resumed = ok("load", record=opened["record"], settings=opened["settings"])
    assert resumed["plays"] == 12 and resumed["viewer"] is None


def test_an_old_game_file_without_players_continues_in_the_seats_in_play() -> None:
    ok("new_game", seed="file-2", level="random", people=people(3, 1))
    state = new_game("elsewhere")
    for _ in range(9):
        state.play(state.legal_moves()[0])
    opened = ok("import", text=json.dumps(to_record(state)))
    assert opened["settings"]["people"] == people(3, 1)
    assert opened["record"]["players"][3] == {"person": "Dev"}
    table.reset()
    alone = ok("import", text=json.dumps(to_record(state)))
    assert alone["settings"]["people"] == [{"seat": 2, "name": ""}]
    assert all_said(alone["labels"]) == ["North", "East", "You", "West"]


def test_a_game_file_whose_people_this_table_cannot_seat_falls_back() -> None:
    state = new_game("file-3")
    players = [{"person": "Same"}, {"computer": "grandmaster"}, {"person": "same"},
               {"computer": "random"}]
    opened = ok("import", text=json.dumps(to_record(state, players)))
    assert opened["settings"]["people"] == [{"seat": 2, "name": ""}]
    long_name = [{"person": "x" * 30}, *players[1:]]
    assert ok("import", text=json.dumps(to_record(state, long_name)))["settings"]["people"] \
        == [{"seat": 2, "name": ""}]
    unknown_level = [{"person": "Ana"}, {"computer": "grandmaster"}, {"computer": "random"},
                     {"computer": "random"}]
    seated = ok("import", text=json.dumps(to_record(state, unknown_level)))["settings"]
    assert seated["people"] == [{"seat": 0, "name": "Ana"}]
    assert seated["levels"][1] == ok("hello")["default_level"]


def test_a_replaced_worker_loads_with_the_hand_that_was_shown() -> None:
    # The page's client reloads the game into a new worker with the viewer it had; anything
    # but a person's seat is refused, and the game in play is kept.
    view = ok("new_game", seed="crash-1", level="random", people=people(2, 0))
    while view["status"] != "your_turn":
        view = ok("step") if view["status"] == "waiting" else \
            ok("reveal", seat=view["handoff"]["seat"])
    saved = recipe()
    for bad in (1, 4, -1, "2", True, 2.0):
        assert error("load", **saved, viewer=bad) == "bad_request"
    table.reset()
    again = ok("load", **saved, viewer=view["viewer"])
    assert again["viewer"] == view["viewer"] and again["hand"] == view["hand"]
    assert again["status"] == "your_turn"
    # The other person's seat would not be shown on the wrong turn: the hands stay covered.
    other = 2 if view["viewer"] == 0 else 0
    assert ok("load", **saved, viewer=other)["status"] == "handoff"
