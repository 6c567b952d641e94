"""Guests at a remote table (docs/remote.md): the engine's side. A guest's seat is a person
marked remote; this device waits for their card as for a computer's, ``seat_play`` plays it
with the same checks as ``play``, and ``seat_view`` is all a guest is ever sent."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from protocol_calls import error, ok, recipe

from calypso_core import from_record
from calypso_core.bots.hints import suggest
from calypso_core.messages import message, render
from calypso_core.table import players
from calypso_core.table.aids import memory_aids

CODE = re.compile(r'"([2-9TJQKA][SHDC])"')
HOST, GUEST = 2, 0  # South plays on this device, North is a guest
pytestmark = pytest.mark.usefixtures("fresh_table")


def hosted(seed: str = "remote-1", **more: Any) -> dict[str, Any]:
    people = [{"seat": HOST, "name": "Ana"}, {"seat": GUEST, "name": "Ben", "remote": True}]
    view: dict[str, Any] = ok("new_game", seed=seed, people=people, level="random", **more)
    return view


def check_guest_view(view: dict[str, Any]) -> None:
    """A guest's view holds its own hand and what all have seen: no other card, no seed."""
    record = recipe()["record"]  # its deck opened, as tests read it
    state = from_record(record)
    assert view["viewer"] == GUEST
    assert sorted(view["hand"]) == sorted(str(c) for c in state.hand(GUEST))
    allowed = set(record["plays"]) | set(view["hand"]) | set(view["table"]["cut"]["cards"])
    # The memory aids count the cards not yet seen from the guest's observation alone.
    assert view["aids"] == memory_aids(state.observation(GUEST))
    text = json.dumps({k: v for k, v in view.items() if k != "aids"})
    leaked = set(CODE.findall(text)) - allowed
    assert not leaked, f"a guest's view shows {sorted(leaked)}"
    assert "seed" not in view["table"]["settings"]
    assert ok("record")["settings"]["seed"] not in text
    expected = ("game_over" if state.is_over
                else "your_turn" if state.to_move == GUEST else "waiting")
    assert view["status"] == expected
    assert ("legal" in view) == (expected == "your_turn")


def test_a_whole_game_with_a_guest_sees_only_the_guests_cards() -> None:
    rng = random.Random(5)
    view = hosted()
    assert view["viewer"] == HOST  # the host's own hand stays shown: no hand-off
    guest_moves = 0
    while view["status"] != "game_over":
        assert view["status"] != "handoff"
        assert view["viewer"] == HOST and "hand" in view
        if view["status"] == "your_turn":
            view = ok("play", card=rng.choice(view["legal"]))
        elif view["to_move"] == GUEST:
            seen = ok("seat_view", seat=GUEST)
            check_guest_view(seen)
            assert error("step") == "not_bot_turn"
            view = ok("seat_play", seat=GUEST, card=rng.choice(seen["legal"]))
            assert view["event"]["seat"] == GUEST
            guest_moves += 1
        else:
            if guest_moves % 7 == 0:
                check_guest_view(ok("seat_view", seat=GUEST))
            view = ok("step")
    assert guest_moves == 52
    check_guest_view(ok("seat_view", seat=GUEST))


def test_a_guests_card_is_checked_like_any_card_and_a_refusal_changes_nothing() -> None:
    view = hosted("remote-2")
    while view["to_move"] != GUEST:
        view = ok("play", card=view["legal"][0]) if view["status"] == "your_turn" else ok("step")
    seen = ok("seat_view", seat=GUEST)
    before = ok("record")
    held = set(seen["hand"])
    not_held = next(f"{r}{s}" for s in "SHDC" for r in "AKQJT98765432" if f"{r}{s}" not in held)
    assert error("seat_play", seat=GUEST, card=not_held) == "illegal_move"
    assert error("seat_play", seat=GUEST, card="ZZ") == "bad_card"
    assert error("seat_play", seat=GUEST, card=["QH"]) == "bad_card"
    assert error("seat_play", seat=GUEST) == "bad_request"
    assert error("seat_play", seat=HOST, card=seen["legal"][0]) == "not_a_guest"
    assert error("seat_play", seat=1, card=seen["legal"][0]) == "not_a_guest"
    assert error("seat_play", seat="0", card=seen["legal"][0]) == "not_a_guest"
    assert error("seat_view", seat=HOST) == "not_a_guest"
    assert error("reveal", seat=GUEST) == "not_your_turn"
    assert ok("record") == before
    ok("seat_play", seat=GUEST, card=seen["legal"][0])
    # Now off the guest's turn: the same seat may not play again.
    after = ok("seat_view", seat=GUEST)
    assert after["status"] == "waiting"
    assert error("seat_play", seat=GUEST, card=after["hand"][0]) == "not_your_turn"


def test_a_guests_hint_is_the_hint_its_observation_gives(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The hint's search with a budget in iterations only (no clock: reproducible), and a
    # record of what it was given.
    given: list[dict[str, Any]] = []

    def suggest_from(observation: dict[str, Any], **settings: Any) -> Any:
        given.append(observation)
        return suggest(observation, **settings, iterations=60, time_limit=None)

    monkeypatch.setattr(players, "suggest_card", suggest_from)
    view = hosted("remote-4")
    hints = 0
    while hints < 3:
        if view["status"] == "your_turn":
            assert error("seat_hint", seat=GUEST) == "not_your_turn"
            view = ok("play", card=view["legal"][0])
        elif view["to_move"] == GUEST:
            state = from_record(recipe()["record"])
            seen = state.observation(GUEST)
            expected = suggest(seen, seed=len(state.plays), iterations=60, time_limit=None)
            assert ok("seat_hint", seat=GUEST) == {
                "card": str(expected.card),
                "reason": json.loads(json.dumps(list(expected.reason)))}
            assert given[-1] == seen  # the guest's observation, and nothing else
            assert error("seat_hint", seat=HOST) == "not_a_guest"
            hints += 1
            view = ok("seat_play", seat=GUEST, card=ok("seat_view", seat=GUEST)["legal"][-1])
        else:
            view = ok("step")


def test_each_device_calls_its_own_persons_seat_you() -> None:
    view = hosted("remote-5")
    called = [seat["called"] for seat in view["table"]["seats"]]
    assert called[HOST] == "you" and called[GUEST] == "name"
    guest = ok("seat_view", seat=GUEST)["table"]["seats"]
    assert guest[GUEST]["called"] == "you" and guest[GUEST]["label"]["id"] == "label.you"
    assert guest[HOST]["called"] == "name" and guest[HOST]["label"]["params"] == {"name": "Ana"}


def test_a_guest_sees_an_unnamed_host_as_the_host_and_other_unnamed_people_by_seat() -> None:
    people = [{"seat": HOST, "name": ""}, {"seat": 3, "name": ""},
              {"seat": GUEST, "name": "Ben", "remote": True}]
    view = ok("new_game", seed="remote-6", people=people, level="random")
    mine = view["table"]["seats"]  # this device: two people, no "You", no "Host"
    assert [mine[s]["called"] for s in (HOST, 3, GUEST)] == ["seat", "seat", "name"]
    table = ok("seat_view", seat=GUEST)["table"]
    seats = table["seats"]
    assert [seats[s]["called"] for s in (HOST, 3, GUEST, 1)] == ["host", "seat", "you", "seat"]
    assert seats[HOST]["label"] == message("label.host")
    assert [render(seats[HOST]["label"], lang) for lang in ("en", "ru")] == ["Host", "Хозяин стола"]
    assert render(table["sides"][0], "en") == "Host & You"


def test_only_a_person_after_the_first_can_be_remote() -> None:
    first_remote = [{"seat": 0, "name": "Ben", "remote": True}, {"seat": 2, "name": "Ana"}]
    assert error("new_game", people=first_remote) == "bad_people"
    bad_flag = [{"seat": 2, "name": "Ana"}, {"seat": 0, "name": "Ben", "remote": "yes"}]
    assert error("new_game", people=bad_flag) == "bad_people"


def test_a_saved_table_keeps_its_guests() -> None:
    hosted("remote-3")
    saved = ok("record")
    assert {"seat": GUEST, "name": "Ben", "remote": True} in saved["settings"]["people"]
    view = ok("load", **saved)
    assert view["viewer"] == HOST and view["status"] != "handoff"
    assert ok("seat_view", seat=GUEST)["viewer"] == GUEST


def test_a_computer_stands_in_for_an_absent_guest_and_gives_the_seat_back() -> None:
    view = hosted("remote-4")
    while view["to_move"] != GUEST:
        view = ok("play", card=view["legal"][0]) if view["status"] == "your_turn" else ok("step")
    assert error("step") == "not_bot_turn"  # the table waits for the guest
    before = ok("record")
    assert error("seat_stand_in", seat=GUEST, level="grandmaster") == "bad_level"
    assert error("seat_stand_in", seat=HOST, level="random") == "not_a_guest"
    assert error("seat_stand_in", seat=GUEST) == "bad_request"
    assert ok("record") == before
    ok("seat_stand_in", seat=GUEST, level="random")
    # The guest's own page now waits too; a card of theirs is refused, and nothing changes.
    seen = ok("seat_view", seat=GUEST)
    assert seen["status"] == "waiting" and "legal" not in seen
    assert error("seat_play", seat=GUEST, card=seen["hand"][0]) == "stand_in"
    assert ok("record") == before
    view = ok("step")
    assert view["event"]["seat"] == GUEST  # the computer played the guest's card
    while view["to_move"] != GUEST:
        view = ok("play", card=view["legal"][0]) if view["status"] == "your_turn" else ok("step")
    ok("seat_stand_in", seat=GUEST, level=None)  # the guest is back
    assert error("step") == "not_bot_turn"
    assert ok("seat_view", seat=GUEST)["status"] == "your_turn"
