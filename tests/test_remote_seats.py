"""Guests at a remote table (docs/remote.md): the engine's side. A guest's seat is a person
marked remote; this device waits for their card as for a computer's, ``play`` made for the
guest's seat (``guest``) plays it with the same checks as this device's, and the view beside
this device's in ``guests`` (``session.view_for`` for that seat) is all a guest is ever sent."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from protocol_calls import call, error, ok, recipe

from calypso_core import Card, from_record, new_game
from calypso_core.bots import (
    MASTER_ITERATIONS,
    REVIEW_ITERATIONS,
    continuation,
    review_position,
    seat_plays,
)
from calypso_core.bots.hints import suggest, suggest_steps
from calypso_core.messages import message, render
from calypso_core.table import match, players, seat_reviews
from calypso_core.table.aids import memory_aids
from calypso_core.table.rerun import master_in_your_seat

CODE = re.compile(r'"([2-9TJQKA][SHDC])"')
HOST, GUEST = 2, 0  # South plays on this device, North is a guest
pytestmark = pytest.mark.usefixtures("fresh_table")


def hosted(seed: str = "remote-1", **more: Any) -> dict[str, Any]:
    people = [{"seat": HOST, "name": "Ana"}, {"seat": GUEST, "name": "Ben", "remote": True}]
    view: dict[str, Any] = ok("new_game", seed=seed, people=people, level="random", **more)
    return view


def guest_view(seat: int = GUEST) -> dict[str, Any]:
    """The guest's view at ``seat``, with the table, as the host's page sends it on."""
    seen: dict[str, Any] = ok("view")["guests"][seat]
    return seen


def check_guest_view(view: dict[str, Any]) -> None:
    """A guest's view holds its own hand and what all have seen: no other card, no seed."""
    record = recipe()["record"]  # its deck opened, as tests read it
    state = from_record(record)
    assert view["viewer"] == GUEST and not view["can_undo"]
    assert sorted(view["hand"]) == sorted(str(c) for c in state.hand(GUEST))
    cut = ok("view")["table"]["cut"]["cards"]
    allowed = set(record["plays"]) | set(view["hand"]) | set(cut)
    # The memory aids count the cards not yet seen from the guest's observation alone.
    assert view["aids"] == memory_aids(state.observation(GUEST))
    text = json.dumps({k: v for k, v in view.items() if k != "aids"})
    leaked = set(CODE.findall(text)) - allowed
    assert not leaked, f"a guest's view shows {sorted(leaked)}"
    assert "seed" not in view.get("table", {"settings": {}})["settings"]
    assert ok("record")["settings"]["seed"] not in text
    expected = ("game_over" if state.is_over
                else "your_turn" if state.to_move == GUEST else "waiting")
    assert view["status"] == expected
    assert ("legal" in view) == (expected == "your_turn")


def test_a_whole_game_with_a_guest_sees_only_the_guests_cards() -> None:
    rng = random.Random(5)
    view = hosted()
    assert view["viewer"] == HOST  # the host's own hand stays shown: no hand-off
    assert "table" in view["guests"][GUEST]  # a new match: the guest's seats and cut too
    guest_moves = 0
    while view["status"] != "game_over":
        assert view["status"] != "handoff"
        assert view["viewer"] == HOST and "hand" in view
        # Every move's reply carries the guest's view of it: one request a move.
        seen = view["guests"][GUEST]
        check_guest_view(seen)
        # The same move, less how long a computer thought over it (and how long its card is
        # held): that would tell whether it had one legal card or several.
        device_only = {"think_ms", "hold_ms"}
        assert (None if view["event"] is None else view["event"].keys() - seen["event"].keys()
                ) in (None, device_only)
        assert seen["event"] == (view["event"] and {
            key: value for key, value in view["event"].items() if key not in device_only})
        assert ("table" in seen) == ("table" in view)
        if view["status"] == "your_turn":
            view = ok("play", card=rng.choice(view["legal"]))
        elif view["to_move"] == GUEST:
            assert error("step") == "not_bot_turn"
            view = ok("play", guest=GUEST, card=rng.choice(seen["legal"]))
            assert view["event"]["seat"] == GUEST
            guest_moves += 1
        else:
            view = ok("step")
    assert guest_moves == 52
    check_guest_view(view["guests"][GUEST])
    check_guest_view(guest_view())


def test_one_view_function_makes_every_seats_view() -> None:
    # A guest's view is the view this device would show were that seat its own person's
    # (session.view_for): the same table, the guest's hand, labels and seed aside.
    rng = random.Random(6)
    played_to(hosted("remote-one-view"), 30, rng)
    seen = guest_view()
    mine = ok("view")
    assert seen.keys() == mine.keys() - {"guests"}
    for key in ("trick", "log", "seats", "scores", "plays", "stock", "match", "to_move"):
        assert seen[key] == mine[key], key
    assert seen["table"]["cut"] == mine["table"]["cut"]
    assert seen["table"]["seats"][GUEST]["called"] == "you"
    assert mine["table"]["seats"][HOST]["called"] == "you"
    assert {**seen["table"]["settings"], "seed": None} == {**mine["table"]["settings"],
                                                          "seed": None}


def test_a_guests_card_is_checked_like_any_card_and_a_refusal_changes_nothing() -> None:
    view = hosted("remote-2")
    while view["to_move"] != GUEST:
        view = ok("play", card=view["legal"][0]) if view["status"] == "your_turn" else ok("step")
    seen = guest_view()
    before = ok("record")
    held = set(seen["hand"])
    not_held = next(f"{r}{s}" for s in "SHDC" for r in "AKQJT98765432" if f"{r}{s}" not in held)
    assert error("play", guest=GUEST, card=not_held) == "illegal_move"
    assert error("play", guest=GUEST, card="ZZ") == "bad_card"
    assert error("play", guest=GUEST, card=["QH"]) == "bad_card"
    assert error("play", guest=GUEST) == "bad_request"
    assert error("play", guest=HOST, card=seen["legal"][0]) == "not_a_guest"
    assert error("play", guest=1, card=seen["legal"][0]) == "not_a_guest"
    assert error("play", guest="0", card=seen["legal"][0]) == "not_a_guest"
    assert ok("view")["guests"][HOST] is None  # the host's hand goes to no guest
    assert error("reveal", seat=GUEST) == "not_your_turn"
    assert ok("record") == before
    ok("play", guest=GUEST, card=seen["legal"][0])
    # Now off the guest's turn: the same seat may not play again.
    after = guest_view()
    assert after["status"] == "waiting"
    assert error("play", guest=GUEST, card=after["hand"][0]) == "not_your_turn"


def test_a_guests_hint_is_the_hint_its_observation_gives_searched_in_slices(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The hint's search with a budget in iterations only (no clock: reproducible), and a
    # record of what it was given.
    given: list[dict[str, Any]] = []

    def suggest_from(observation: dict[str, Any], **settings: Any) -> Any:
        given.append(observation)
        return suggest_steps(observation, **settings, iterations=400, time_limit=None)

    monkeypatch.setattr(players, "suggest_steps", suggest_from)
    monkeypatch.setattr(match, "GUEST_SLICE_MS", 0)  # one layout of the search a request
    view = hosted("remote-4")
    hints = 0
    while hints < 3:
        if view["status"] == "your_turn":
            assert error("hint", guest=GUEST) == "not_your_turn"
            view = ok("play", card=view["legal"][0])
        elif view["to_move"] == GUEST:
            state = from_record(recipe()["record"])
            seen = state.observation(GUEST)
            expected = suggest(seen, seed=len(state.plays), iterations=400, time_limit=None)
            asks = 1
            while (answer := ok("hint", guest=GUEST)) == {"thinking": True}:
                asks += 1
            assert answer == {"card": str(expected.card),
                              "reason": json.loads(json.dumps(list(expected.reason)))}
            # Sliced when there was a choice: the host's requests went between the slices.
            assert (asks > 1) == (len(seen["legal_moves"]) > 1)
            assert given[-1] == seen  # the guest's observation, and nothing else
            assert error("hint", guest=HOST) == "not_a_guest"
            hints += 1
            view = ok("play", guest=GUEST, card=guest_view()["legal"][-1])
        else:
            view = ok("step")


def test_a_guests_hint_begun_then_left_starts_afresh_once_the_game_moves_on() -> None:
    view = hosted("remote-hint-left")
    while view["to_move"] != GUEST:
        view = ok("play", card=view["legal"][0]) if view["status"] == "your_turn" else ok("step")
    ok("hint", guest=GUEST)  # begun (maybe done) ...
    view = ok("play", guest=GUEST, card=guest_view()["legal"][0])  # ... and the game moves on
    while view["to_move"] != GUEST:
        view = ok("play", card=view["legal"][0]) if view["status"] == "your_turn" else ok("step")
    while (answer := ok("hint", guest=GUEST)) == {"thinking": True}:
        pass
    assert answer["card"] in guest_view()["legal"]  # the hint of this position, not the last


def test_a_guests_hint_begun_in_one_game_is_never_finished_in_the_next(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(players, "suggest_steps", lambda observation, **settings: suggest_steps(
        observation, **settings, iterations=400, time_limit=None))
    monkeypatch.setattr(match, "GUEST_SLICE_MS", 0)  # one layout of the search a request

    def two_games(ask_at: set[int]) -> tuple[list[int], list[tuple[int, str, str]]]:
        """A match of two games, the first legal card always played. In the first game a
        hint is begun and left at each of the guest's turns with a choice whose count of
        cards played is in ``ask_at``; in the second, asked to its end at the last such
        count. The counts at the guest's turns in the second game, and each hint asked to
        its end: the count, its card and the card the guest's own view gives there."""
        view, game, turns, begun, hints = hosted("remote-hint-games", games=2), 0, [], None, []
        while not (view["status"] == "game_over" and game == 1):
            if view["status"] == "game_over":
                view, game = ok("next_game"), 1
            elif view["to_move"] == GUEST:
                legal = guest_view()["legal"]
                if game == 0 and view["plays"] in ask_at and len(legal) > 1:
                    assert ok("hint", guest=GUEST) == {"thinking": True}
                    begun = view["plays"]
                if game == 1:
                    turns.append(view["plays"])
                    if view["plays"] == begun:
                        while (answer := ok("hint", guest=GUEST)) == {"thinking": True}:
                            pass
                        state = from_record(recipe()["record"])
                        expected = suggest(state.observation(GUEST), seed=len(state.plays),
                                           iterations=400, time_limit=None)
                        hints.append((begun, answer["card"], str(expected.card)))
                view = ok("play", guest=GUEST, card=legal[0])
            else:
                view = ok("play", card=view["legal"][0]) if view["status"] == "your_turn" else ok(
                    "step")
        return turns, hints

    second, _ = two_games(set())
    _, hints = two_games(set(second))
    # Asked at the same count of cards as one left in the first game: this game's hint.
    assert len(hints) == 1 and hints[0][1] == hints[0][2], hints


def test_each_device_calls_its_own_persons_seat_you() -> None:
    view = hosted("remote-5")
    called = [seat["called"] for seat in view["table"]["seats"]]
    assert called[HOST] == "you" and called[GUEST] == "name"
    guest = guest_view()["table"]["seats"]
    assert guest[GUEST]["called"] == "you" and guest[GUEST]["label"]["id"] == "label.you"
    assert guest[HOST]["called"] == "name" and guest[HOST]["label"]["params"] == {"name": "Ana"}


def test_a_guest_sees_an_unnamed_host_as_the_host_and_other_unnamed_people_by_seat() -> None:
    people = [{"seat": HOST, "name": ""}, {"seat": 3, "name": ""},
              {"seat": GUEST, "name": "Ben", "remote": True}]
    view = ok("new_game", seed="remote-6", people=people, level="random")
    mine = view["table"]["seats"]  # this device: two people, no "You", no "Host"
    assert [mine[s]["called"] for s in (HOST, 3, GUEST)] == ["seat", "seat", "name"]
    table = guest_view()["table"]
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
    assert guest_view()["viewer"] == GUEST


def test_a_computer_stands_in_for_an_absent_guest_and_gives_the_seat_back() -> None:
    view = hosted("remote-4")
    while view["to_move"] != GUEST:
        view = ok("play", card=view["legal"][0]) if view["status"] == "your_turn" else ok("step")
    assert error("step") == "not_bot_turn"  # the table waits for the guest
    before = ok("record")
    assert error("stand_in", seat=GUEST, level="grandmaster") == "bad_level"
    assert error("stand_in", seat=HOST, level="random") == "not_a_guest"
    assert error("stand_in", seat=GUEST) == "bad_request"
    assert ok("record") == before
    ok("stand_in", seat=GUEST, level="random")
    # The guest's own page now waits too; a card of theirs is refused, and nothing changes.
    seen = guest_view()
    assert seen["status"] == "waiting" and "legal" not in seen
    assert error("play", guest=GUEST, card=seen["hand"][0]) == "stood_in"
    assert ok("record") == before
    view = ok("step")
    assert view["event"]["seat"] == GUEST  # the computer played the guest's card
    while view["to_move"] != GUEST:
        view = ok("play", card=view["legal"][0]) if view["status"] == "your_turn" else ok("step")
    ok("stand_in", seat=GUEST, level=None)  # the guest is back
    assert error("step") == "not_bot_turn"
    assert guest_view()["status"] == "your_turn"


# -- a guest's review (calypso_core/table/seat_reviews.py) ----------------------------------

BUDGET = 300  # iterations a card: three slices of a guest's review at least


def played_to(view: dict[str, Any], plays: int, rng: random.Random) -> dict[str, Any]:
    """The hosted game played on (random cards for everyone) until ``plays`` cards or its end."""
    while view["plays"] < plays and view["status"] != "game_over":
        if view["status"] == "your_turn":
            view = ok("play", card=rng.choice(view["legal"]))
        elif view["to_move"] == GUEST:
            view = ok("play", guest=GUEST,
                      card=rng.choice(guest_view()["legal"]))
        else:
            view = ok("step")
    return view


TRIO = [{"seat": HOST, "name": "Ana"}, {"seat": GUEST, "name": "Ben", "remote": True},
        {"seat": 1, "name": "Cat", "remote": True}]


def played_out(people: list[dict[str, Any]], seed: str, rng: random.Random,
               plays: int = 208) -> dict[str, Any]:
    """A game at a table of these people (the guests' seats marked remote) played to its end,
    or to ``plays`` cards, random cards for everyone; the last view."""
    view: dict[str, Any] = ok("new_game", seed=seed, people=people, level="random")
    guests = {p["seat"] for p in people if p.get("remote")}
    while view["status"] != "game_over" and view["plays"] < plays:
        if view["status"] == "your_turn":
            view = ok("play", card=rng.choice(view["legal"]))
        elif view["to_move"] in guests:
            seat = view["to_move"]
            view = ok("play", guest=seat, card=rng.choice(guest_view(seat)["legal"]))
        else:
            view = ok("step")
    return view


def reviewed(job: int, seat: int = GUEST) -> tuple[list[dict[str, Any]], int]:
    """A guest's review asked card by card to its end: the replies that carry a card, and how
    many replies carried none (a slice of a card's search)."""
    cards, slices = [], 0
    while True:
        reply = ok("review_next", guest=seat, job=job)
        if "move" in reply:
            cards.append(reply)
        else:
            slices += 1
        if reply["finished"]:
            return cards, slices


def test_a_guests_review_is_the_review_of_its_seat_from_its_own_view(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(seat_reviews, "SLICE_MS", 0)  # one slice of iterations a request
    view = played_to(hosted("remote-review"), 10**6, random.Random(8))
    assert view["status"] == "game_over"
    state = from_record(recipe()["record"])
    started = ok("review", guest=GUEST, budget=BUDGET)
    assert started["seat"] == GUEST and started["deals"] == [0, 1, 2, 3]
    assert started["total"] == 52 and started["budget"] == BUDGET and started["seed"] == "0"
    assert started["labels"][GUEST] == message("label.you")  # the guest's own words
    assert started["labels"][HOST]["params"] == {"name": "Ana"}
    cards, slices = reviewed(started["job"])
    assert slices > 0  # sliced: the host's requests waited for one slice at a time
    plays = seat_plays(state, GUEST)
    assert [c["move"]["play"] for c in cards] == plays
    for reply, play in zip(cards, plays, strict=True):
        # The card a review on this device gives that seat, at that budget and seed.
        alone = review_position(replayed(state, play), state.plays[play], play,
                                budget=BUDGET, seed="0")
        assert reply["move"] == json.loads(json.dumps(alone.to_json()))
        # The position as the guest saw it: its own hand, no other.
        before = replayed(state, play)
        assert sorted(reply["position"]["hand"]) == sorted(str(c) for c in before.hand(GUEST))
    assert cards[-1]["summary"]["total_cost"] == sum(c["move"]["cost"] for c in cards)
    # Costs in the lead of the guest's side, with the lines in words this device's review gives
    # (equal above), which the guest's page draws.
    assert any(c["move"]["line"] for c in cards if c["move"]["cost"] > 0)
    assert error("review_next", guest=GUEST, job=started["job"]) == "no_job"  # finished


def replayed(state: Any, plays: int) -> Any:
    """The game's position before play ``plays``."""
    position = new_game(rules=state.rules, suits=state.suits, first_dealer=state.first_dealer,
                        deck=state.deck)
    for card in state.plays[:plays]:
        position.play(card)
    return position


def test_a_guest_reviews_a_deal_once_it_is_over_and_sees_no_card_not_yet_public() -> None:
    view = hosted("remote-deal")
    rng = random.Random(9)
    view = played_to(view, 20, rng)
    assert error("review", guest=GUEST, deal=0, budget=BUDGET) == "deal_not_over"
    view = played_to(view, 56, rng)  # the first deal over, four cards of the second
    assert error("review", guest=GUEST, budget=BUDGET) == "game_not_over"
    assert error("review", guest=GUEST, deal=1, budget=BUDGET) == "deal_not_over"
    started = ok("review", guest=GUEST, deal=0, budget=BUDGET)
    assert started["deals"] == [0] and started["total"] == 13
    cards, _ = reviewed(started["job"])
    record = recipe()["record"]
    public = set(record["plays"][:52])  # the first deal's cards: every one played
    text = json.dumps([started, *cards])
    leaked = set(CODE.findall(text)) - public
    assert not leaked, f"a guest's review of a deal shows {sorted(leaked)}"


def test_a_guests_review_is_its_own_job_beside_the_hosts_and_other_guests() -> None:
    played_out(TRIO, "remote-jobs", random.Random(10))
    host = ok("review", seat=HOST, deal=0, budget=40)["job"]
    ben = ok("review", guest=GUEST, deal=0, budget=40)["job"]
    cat = ok("review", guest=1, deal=0, budget=40)["job"]
    # Nobody steps another's review: not the host's, not another guest's.
    assert error("review_next", guest=GUEST, job=host) == "no_job"
    assert error("review_next", guest=GUEST, job=cat) == "no_job"
    assert error("review_next", guest=1, job=ben) == "no_job"
    assert error("review_next", job=ben) == "no_job"
    # Each goes on beside the others.
    assert ok("review_next", job=host)["done"] == 1
    assert reviewed(ben)[0] and reviewed(cat, seat=1)[0]
    assert not ok("review_next", job=host)["finished"]
    # A new game ends every review.
    ok("new_game", seed="remote-jobs-2", people=TRIO, level="random")
    assert error("review_next", guest=GUEST, job=ben) == "no_job"


def test_a_guests_review_asked_wrongly_is_refused_and_changes_nothing() -> None:
    view = played_to(hosted("remote-refused"), 10**6, random.Random(11))
    assert view["status"] == "game_over"
    before = ok("record")
    job = ok("review", guest=GUEST, deal=1, budget=BUDGET)["job"]
    assert error("review", guest=HOST) == "not_a_guest"
    assert error("review", guest=3) == "not_a_guest"
    assert error("review", guest="0") == "not_a_guest"
    assert error("review", guest=GUEST, seat=HOST) == "bad_request"
    assert error("review", guest=GUEST, deal=4) == "bad_request"
    assert error("review", guest=GUEST, deal="0") == "bad_request"
    assert error("review", guest=GUEST, budget=REVIEW_ITERATIONS + 1) == "bad_request"
    assert error("review", guest=GUEST, budget=0) == "bad_request"
    assert error("review", guest=GUEST, record=before["record"]) == "bad_request"
    assert error("review_next", guest=GUEST, job="1") == "bad_request"
    assert error("review_next", guest=GUEST) == "bad_request"
    assert error("review_next", guest=HOST, job=job) == "not_a_guest"
    assert ok("record") == before
    # The refusals ended nothing: the job goes on.
    assert ok("review_next", guest=GUEST, job=job)["job"] == job


def lined(job: int, play: int, seat: int = GUEST) -> tuple[dict[str, Any], int]:
    """A guest's "Play it out" asked until it is done: the lines, and how many replies said
    it was still thinking (a slice of the masters' searches each)."""
    slices = 0
    while (reply := ok("review_line", guest=seat, job=job, play=play)).get("thinking"):
        assert reply == {"job": job, "play": play, "thinking": True}
        slices += 1
    return reply, slices


@pytest.mark.parametrize("slice_ms", [0, 50])
def test_a_guests_line_is_the_line_this_device_plays_for_that_seats_review_however_sliced(
        monkeypatch: pytest.MonkeyPatch, slice_ms: int) -> None:
    monkeypatch.setattr(seat_reviews, "SLICE_MS", slice_ms)  # 0: one layout of a search a reply
    view = played_to(hosted("remote-line"), 56, random.Random(12))  # the first deal over
    started = ok("review", guest=GUEST, deal=0, budget=BUDGET)
    cards, _ = reviewed(started["job"])
    moves = [c["move"] for c in cards if c["move"]["cost"] > 0]
    assert len(moves) >= 2
    # The same seat's review on this device (of the game's record, the same seed and budget).
    record = recipe()["record"]
    mine = ok("review", record=record, seat=GUEST, deal=0, budget=BUDGET)
    for _ in range(mine["total"]):
        ok("review_next", job=mine["job"])
    state = from_record(record)
    first, second = moves[0]["play"], moves[1]["play"]
    ok("review_line", guest=GUEST, job=started["job"], play=second)  # begun, then left
    for play in (first, second):
        line, slices = lined(started["job"], play)
        here = ok("review_line", job=mine["job"], play=play)
        assert line == {**here, "job": started["job"]}  # the same cards, trick by trick
        assert slices > 0 or slice_ms > 0  # sliced: the host's requests waited one slice
        move = next(m for m in moves if m["play"] == play)
        position = replayed(state, play)
        for branch, card in zip(line["lines"], dict.fromkeys((move["card"], move["best"])),
                                strict=True):
            played = continuation(position, Card.parse(card), seed=started["seed"])
            shown = [c for t in branch["tricks"] for c in t["cards"]][len(position.trick):]
            assert branch["card"] == card and shown == [card, *map(str, played)]
        # Asked again, the same lines at once.
        assert ok("review_line", guest=GUEST, job=started["job"], play=play) == line
    assert view["plays"] == 56 and ok("record")["record"]["plays"] == record["plays"]


def test_a_guests_line_asked_wrongly_is_refused_and_the_line_begun_goes_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(seat_reviews, "SLICE_MS", 0)
    played_out(TRIO, "remote-line-refused", random.Random(13), plays=52)  # the first deal over
    ben = ok("review", guest=GUEST, deal=0, budget=40)["job"]
    cat = ok("review", guest=1, deal=0, budget=40)["job"]
    host = ok("review", seat=HOST, deal=0, budget=40)["job"]
    play = ok("review_next", job=host)["move"]["play"]
    mine = reviewed(ben)[0][0]["move"]["play"]
    theirs = reviewed(cat, seat=1)[0][0]["move"]["play"]
    before = ok("record")
    assert ok("review_line", guest=GUEST, job=ben, play=mine)["thinking"]  # begun
    # Another's review, this device's or another guest's: not the guest's to play out.
    assert error_text("review_line", guest=GUEST, job=host, play=play) == (
        "no_job", f"review job {host} is not the review of the guest at North (the review of "
        f"the guest at North is job {ben})")
    assert error("review_line", guest=GUEST, job=cat, play=theirs) == "no_job"
    assert error("review_line", guest=1, job=ben, play=mine) == "no_job"
    assert error_text("review_line", job=ben, play=mine) == (
        "no_job", f"review job {ben} is not the review (the review is job {host})")
    # A card not reviewed, or not a card's index; not a job's number; not a guest.
    assert error_text("review_line", guest=GUEST, job=ben, play=mine + 1) == (
        "bad_request", f"play {mine + 1} is not a card reviewed in review job {ben}")
    for wrong in (str(mine), True, None, 1.5):
        assert error("review_line", guest=GUEST, job=ben, play=wrong) == "bad_request"
    assert error_text("review_line", guest=GUEST, job=str(ben), play=mine) == (
        "bad_request", f"review_line needs the review's job number, not '{ben}'")
    assert error("review_line", guest=HOST, job=ben, play=mine) == "not_a_guest"
    assert error("review_line", guest="0", job=ben, play=mine) == "not_a_guest"
    assert ok("record") == before
    # None of it replaced the line begun: it goes on, and ends as it would have.
    line, slices = lined(ben, mine)
    assert slices > 0 and [x["card"] for x in line["lines"]]
    # A new review ends the lines of the one before.
    again = ok("review", guest=GUEST, deal=0, budget=40)["job"]
    assert error("review_line", guest=GUEST, job=ben, play=mine) == "no_job"
    assert error("review_line", guest=GUEST, job=again, play=mine) == "bad_request"  # not yet


def error_text(kind: str, **payload: Any) -> tuple[str, str]:
    """A refused request's code and its words."""
    reply = call(kind, **payload)
    assert not reply["ok"], reply
    return reply["error"]["code"], reply["error"]["message"]


# -- the master in a guest's seat (docs/remote.md#the-master-in-your-seat) -----------------------

MASTER = 12  # the master's iterations a move in these reruns: quick, and still a search
def rerun_to_end(first: dict[str, Any], seat: int | None = None
                 ) -> tuple[list[int], dict[str, Any]]:
    """A rerun stepped to its end (``seat``: a guest's, by rerun_next for its seat; None: this
    device's): how many cards each reply had played, and the result."""
    done, reply = [], first
    while not reply["finished"]:
        reply = (ok("rerun_next", job=first["job"]) if seat is None
                 else ok("rerun_next", guest=seat, job=first["job"]))
        done.append(reply["done"])
    return done, reply["result"]


def test_a_guests_master_plays_every_persons_seat_the_same_game_as_the_hosts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(seat_reviews, "SLICE_MS", 0)  # one slice (or one card) a request
    played_out(TRIO[:2], "remote-master", random.Random(12))
    saved = recipe()
    state = from_record(saved["record"])
    started = ok("rerun", guest=GUEST, iterations=MASTER)
    assert (started["game"], started["done"], started["total"]) == (0, 0, 208)
    assert started["side"] == GUEST % 2 and not started["finished"]
    done, guests = rerun_to_end(started, GUEST)
    # Sliced: no request played more than one card, and some played none (a slice of a
    # master's search), so the table's requests waited for one slice at most.
    assert all(b - a <= 1 for a, b in zip([0, *done], done, strict=False))
    assert len(done) > 208 and done[-1] == 208
    # The master in both people's seats, the same computer players: the rerun of the game
    # played again by the library with the master in the guest's seat.
    again = master_in_your_seat(saved["settings"], state, seat=GUEST, iterations=MASTER)
    expected = json.loads(json.dumps(again.to_json()))
    for key in ("you", "master", "your_lead", "master_lead", "difference"):
        assert guests[key] == expected[key], key
    assert guests["side"] == 0 and guests["record"]["plays"] == expected["record"]["plays"]
    assert guests["record"]["plays"] != saved["record"]["plays"]  # the people's cards changed
    players_of = guests["record"]["players"]
    assert players_of[HOST] == players_of[GUEST] == {"computer": "master"}
    assert players_of[1] == players_of[3] == {"computer": "random"}
    assert saved["settings"]["seed"] not in json.dumps([started, guests])
    # The host's own rerun at this table is the same game: one game for the whole table.
    hosts = rerun_to_end(ok("rerun", iterations=MASTER))[1]
    assert hosts == guests


def test_a_guests_master_is_its_own_job_beside_the_hosts_and_other_guests() -> None:
    played_out(TRIO, "remote-masters", random.Random(13))
    host = ok("rerun", iterations=MASTER)
    ben = ok("rerun", guest=GUEST, iterations=MASTER)
    cat = ok("rerun", guest=1, iterations=MASTER)
    assert (host["side"], ben["side"], cat["side"]) == (0, 0, 1)
    # Nobody steps another's rerun: not the host's, not another guest's.
    assert error("rerun_next", guest=GUEST, job=host["job"]) == "no_job"
    assert error("rerun_next", guest=GUEST, job=cat["job"]) == "no_job"
    assert error("rerun_next", guest=1, job=ben["job"]) == "no_job"
    assert error("rerun_next", job=ben["job"]) == "no_job"
    assert error("review_next", guest=GUEST, job=ben["job"]) == "no_job"  # not a review
    # Each goes on beside the others, to the same game; Cat's is the other side's.
    results = [rerun_to_end(host)[1], rerun_to_end(ben, GUEST)[1], rerun_to_end(cat, 1)[1]]
    assert results[0] == results[1]
    for key in ("you", "master", "record"):  # both sides' scores, each side its own difference
        assert results[2][key] == results[0][key], key
    assert results[2]["side"] == 1 and results[0]["side"] == 0
    # Each side's lead is the other's, negated.
    assert results[2]["your_lead"] == -results[0]["your_lead"]
    assert results[2]["master_lead"] == -results[0]["master_lead"]
    assert results[2]["difference"] == -results[0]["difference"]
    # A new game ends every rerun.
    again = ok("rerun", guest=GUEST, iterations=MASTER)
    ok("new_game", seed="remote-masters-2", people=TRIO, level="random")
    assert error("rerun_next", guest=GUEST, job=again["job"]) == "no_job"


def test_a_guests_master_asked_wrongly_is_refused_and_changes_nothing() -> None:
    view = played_to(hosted("remote-master-refused"), 100, random.Random(14))
    assert error("rerun", guest=GUEST) == "game_not_over"
    view = played_to(view, 10**6, random.Random(14))
    assert view["status"] == "game_over"
    before = ok("record")
    job = ok("rerun", guest=GUEST, iterations=MASTER)["job"]
    assert error("rerun", guest=HOST) == "not_a_guest"
    assert error("rerun", guest=3) == "not_a_guest"
    assert error("rerun", guest="0") == "not_a_guest"
    assert error("rerun", guest=GUEST, iterations=MASTER_ITERATIONS + 1) == "bad_request"
    assert error("rerun", guest=GUEST, iterations=0) == "bad_request"
    assert error("rerun", guest=GUEST, iterations="12") == "bad_request"
    assert error("rerun", guest=GUEST, job=job) == "bad_request"
    assert error("rerun_next", guest=GUEST, job="1") == "bad_request"
    assert error("rerun_next", guest=GUEST) == "bad_request"
    assert error("rerun_next", guest=HOST, job=job) == "not_a_guest"
    assert error("rerun_next", guest=GUEST, job=job + 1) == "no_job"
    assert ok("record") == before
    # The refusals ended nothing: the job goes on, and once finished is no more.
    first = ok("rerun_next", guest=GUEST, job=job)
    assert first["job"] == job
    rerun_to_end(first, GUEST)
    assert error("rerun_next", guest=GUEST, job=job) == "no_job"
