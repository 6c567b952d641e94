"""Every request keeps its declared effect on the game's recipe (calypso_core/table/transport.py):
a request that ``reads`` leaves the record as it was, one that ``changes`` the game hands the
page the change it made, and one that ``starts`` a game hands it the whole new recipe. The
page's client follows these declarations (hello's ``requests``) and nothing else, so a wrong one
loses games on reload, as the Calypso of the day once was."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from protocol_calls import advance, call, finished_hosted_game, ok
from puzzle_sets import made_set, made_set_text

from calypso_core import table
from calypso_core.table.fair import commitment, fair_seed
from calypso_core.table.session import current_match
from calypso_core.table.transport import EFFECTS, REQUESTS

pytestmark = pytest.mark.usefixtures("fresh_table")

Payload = dict[str, Any]


def a_game(**settings: Any) -> dict[str, Any]:
    """A game against random players, on the person's turn."""
    return advance(ok("new_game", **{"seed": "effects", "level": "random", **settings}))


def a_finished_game(games: int = 1) -> dict[str, Any]:
    view = a_game(games=games)
    while view["status"] != "game_over":
        view = advance(ok("play", card=view["legal"][0]))
    return view


def on_move(**settings: Any) -> Payload:
    view = a_game(**settings)
    return {"card": view["legal"][0]}


def at_step() -> Payload:
    view = a_game()
    view = ok("play", card=view["legal"][0])
    assert view["status"] == "waiting"
    return {}


def at_handoff() -> Payload:
    view = ok("new_game", seed="effects", level="random", people=[{"seat": 0}, {"seat": 2}])
    while view["status"] != "handoff":
        view = ok("play", card=view["legal"][0]) if view["status"] == "your_turn" else ok("step")
    return {"seat": view["to_move"]}


def at_a_guests_turn() -> Payload:
    """A remote table: a guest in North, on their turn; the payload of their card."""
    view = ok("new_game", seed="effects", level="random",
              people=[{"seat": 2}, {"seat": 0, "remote": True}])
    while not (view["status"] == "waiting" and view["to_move"] == 0):
        view = ok("play", card=view["legal"][0]) if view["status"] == "your_turn" else ok("step")
    return {"guest": 0, "card": view["guests"][0]["legal"][0]}


def a_guests_finished_game() -> Payload:
    """A remote table (a guest in North) whose game is over; the guest's seat."""
    view = ok("new_game", seed="effects", level="random",
              people=[{"seat": 2}, {"seat": 0, "remote": True}])
    while view["status"] != "game_over":
        if view["status"] == "your_turn":
            view = ok("play", card=view["legal"][0])
        elif view["to_move"] == 0:
            view = ok("play", guest=0, card=view["guests"][0]["legal"][0])
        else:
            view = ok("step")
    return {"guest": 0}


def a_guests_review() -> Payload:
    guest = a_guests_finished_game()["guest"]
    return {"guest": guest, "job": ok("review", guest=guest, deal=0, budget=1)["job"]}


def a_guests_reviewed_card() -> Payload:
    payload = a_guests_review()
    while "move" not in (reply := ok("review_next", **payload)):
        pass
    return {**payload, "play": reply["move"]["play"]}


def a_guests_rerun() -> Payload:
    guest = a_guests_finished_game()["guest"]
    return {"guest": guest, "job": ok("rerun", guest=guest, iterations=1)["job"]}


def after_a_card() -> Payload:
    view = a_game()
    ok("play", card=view["legal"][0])
    return {}


def a_saved_game() -> Payload:
    a_game(seed="another")
    saved = ok("record")
    a_game()
    return dict(saved)


def a_review() -> Payload:
    a_finished_game()
    return {"job": ok("review", deal=0, budget=1)["job"]}


def a_reviewed_card() -> Payload:
    job = a_review()["job"]
    move = ok("review_next", job=job)["move"]
    return {"job": job, "play": move["play"]}


def a_rerun() -> Payload:
    a_finished_game()
    return {"job": ok("rerun", iterations=1)["job"]}


def a_game_file() -> Payload:
    a_finished_game()
    text = json.dumps(ok("record")["record"])
    a_game()
    return {"text": text}


def a_fair_check() -> Payload:
    """A finished game dealt fair, then a game in play: the check changes neither."""
    host, guests = "a" * 32, {0: "b" * 32}
    recipe = finished_hosted_game(fair_seed(host, guests))
    a_game()
    return {"recipe": recipe, "host": host, "guests": {"0": "b" * 32},
            "commitment": commitment(host)}


def a_challenge() -> str:
    """A challenge nobody has played yet, on random players' terms; a game in play beside."""
    a_game()
    link: str = ok("challenge_make", settings={"seed": "dare", "level": "random"},
                   name="Ann")["link"]
    return link


def a_challenge_played() -> Payload:
    """A challenge's match dealt and played to its end: the payload that names it."""
    link = a_challenge()
    view = advance(ok("challenge_start", challenge=link))
    while view["status"] != "game_over":
        view = advance(ok("play", card=view["legal"][0]))
    return {"challenge": link, "name": "Ben"}


def a_comparison() -> Payload:
    payload = a_challenge_played()
    return {"job": ok("challenge_compare", **payload, budget=1, iterations=1)["job"]}


def a_puzzle(card: str = "") -> Payload:
    """A game in play, and beside it a puzzle of a made set, open (and its solution played
    out when ``card`` says so); the payload to answer it with its solution."""
    a_game()
    data = made_set(1)
    ok("puzzles", text=json.dumps(data))
    ok("puzzle", puzzle=data["puzzles"][0][0])
    if card:
        ok("puzzle_play", card=data["puzzles"][0][3])
    return {"card": data["puzzles"][0][3]}


# Each request type: how to reach a table where it succeeds; returns its payload.
SCENARIOS: dict[str, Callable[[], Payload]] = {
    "hello": lambda: a_game() and {},
    "new_game": lambda: a_game() and {"seed": "next", "level": "random"},
    "check_settings": lambda: a_game() and {"settings": {"games": 9, "suit": "S"}},
    "check_name": lambda: a_game() and {"name": " Ben 👨\u200d👩\u200d👧", "taken": ["Ana"]},
    "view": lambda: a_game() and {},
    "play": on_move,
    "step": at_step,
    "reveal": at_handoff,
    "stand_in": lambda: {"seat": at_a_guests_turn()["guest"], "level": "random"},
    "next_game": lambda: a_finished_game(games=2) and {},
    "hint": lambda: a_game() and {},
    "aids": lambda: a_game() and {},
    "record": lambda: a_game() and {},
    "load": a_saved_game,
    "undo": after_a_card,
    "replay": lambda: a_finished_game() and {"tricks": 3},
    "import": a_game_file,
    "examples": lambda: a_game() and {},
    "daily": lambda: a_game() and {"date": "2025-01-31"},
    "review": lambda: a_finished_game() and {"deal": 0, "budget": 1},
    "review_next": a_review,
    "review_line": a_reviewed_card,
    "rerun": lambda: a_finished_game() and {"iterations": 1},
    "rerun_next": a_rerun,
    "work": lambda: {**after_a_card(), "ms": 50, "budget": 1},
    "fair_deal": lambda: a_game() and {"host": "a" * 32, "guests": {"0": "b" * 32}},
    "fair_check": a_fair_check,
    "challenge_make": lambda: a_finished_game() and {"name": "Ann"},
    "challenge_read": lambda: {"challenge": a_challenge()},
    "challenge_start": lambda: {"challenge": a_challenge(), "name": "Ben"},
    "challenge_reply": a_challenge_played,
    "challenge_compare": lambda: {**a_challenge_played(), "budget": 1, "iterations": 1},
    "challenge_compare_next": a_comparison,
    "puzzles": lambda: a_game() and {"text": made_set_text(1)},
    "puzzle": lambda: a_puzzle() and {"puzzle": made_set(1)["puzzles"][0][0]},
    "puzzle_answer": lambda: {**a_puzzle(), "rate": True},
    "puzzle_play": a_puzzle,
    "puzzle_step": lambda: a_puzzle("played") and {},
}


# The requests a guest at a remote table makes for itself: the ordinary ones, for its seat.
GUEST_SCENARIOS: dict[str, Callable[[], Payload]] = {
    "play": at_a_guests_turn,
    "hint": lambda: {"guest": at_a_guests_turn()["guest"]},
    "review": lambda: {**a_guests_finished_game(), "deal": 0, "budget": 1},
    "review_next": a_guests_review,
    "review_line": a_guests_reviewed_card,
    "rerun": lambda: {**a_guests_finished_game(), "iterations": 1},
    "rerun_next": a_guests_rerun,
}


def the_recipe() -> dict[str, Any] | None:
    """The recipe as ``record`` gives it, less ``ahead``: the work done ahead on the game,
    which ``work`` replies hand over as their ``keep`` and ``load`` takes back."""
    reply = call("record")
    if not reply["ok"]:
        return None
    return {key: value for key, value in reply["result"].items() if key != "ahead"}


def check_effect(kind: str, effect: str, scenarios: dict[str, Callable[[], Payload]] = SCENARIOS
                 ) -> None:
    """Send ``kind`` where it succeeds; the recipe before and after must bear out ``effect``,
    and the recipe the reply hands over must be the one the engine now keeps."""
    payload = scenarios[kind]()
    before = the_recipe()
    result = ok(kind, **payload)
    after = the_recipe()
    handed = result.get("recipe") if isinstance(result, dict) else None
    if effect == "reads":
        assert after == before, f"{kind} changed the game"
        assert handed is None
        return
    assert after is not None and handed is not None, f"{kind} hands over no recipe"
    if effect == "starts":
        assert handed == after and after != before
        return
    assert before is not None and after != before, f"{kind} changed nothing"
    assert set(handed) <= {"keep", "add", "deck"}, f"{kind} hands over more than a change"
    assert len(before["record"]["plays"]) >= handed["keep"]
    assert apply(before, handed) == after


def apply(recipe: dict[str, Any], change: dict[str, Any]) -> dict[str, Any]:
    """A recipe with a change applied, as the page's client applies it."""
    record = recipe["record"]
    changed = {**record, "plays": record["plays"][: change["keep"]] + change["add"]}
    if "deck" in change:
        changed["deck"] = change["deck"]
    return {**recipe, "record": changed}


def test_every_request_type_has_a_scenario_and_one_of_the_effects() -> None:
    assert set(SCENARIOS) == set(REQUESTS)
    assert {request.effect for request in REQUESTS.values()} <= set(EFFECTS)


@pytest.mark.parametrize("kind", sorted(REQUESTS))
def test_each_request_does_what_it_declares_to_the_recipe(kind: str) -> None:
    check_effect(kind, REQUESTS[kind].effect)


@pytest.mark.parametrize("kind", sorted(GUEST_SCENARIOS))
def test_each_request_made_for_a_guest_does_what_it_declares(kind: str) -> None:
    assert "guest" in REQUESTS[kind].accepts
    check_effect(kind, REQUESTS[kind].effect, GUEST_SCENARIOS)
    check_view(kind, REQUESTS[kind].view, GUEST_SCENARIOS)


def test_every_request_that_takes_a_guest_has_a_guests_scenario() -> None:
    assert {kind for kind, r in REQUESTS.items() if "guest" in r.accepts} == set(GUEST_SCENARIOS)


def test_the_last_card_hands_over_the_deck_it_unseals() -> None:
    view = a_game()
    while view["plays"] < 207:
        view = ok("play", card=view["legal"][0]) if view["status"] == "your_turn" else ok("step")
    before = the_recipe()
    assert before is not None and isinstance(before["record"]["deck"], str)  # sealed
    last = ok("play", card=view["legal"][0]) if view["status"] == "your_turn" else ok("step")
    assert last["status"] == "game_over"
    after = the_recipe()
    assert after is not None and isinstance(after["record"]["deck"], list)
    assert apply(before, last["recipe"]) == after


@pytest.mark.parametrize(("kind", "false"), [("daily", "reads"), ("next_game", "changes"),
                                              ("play", "reads"), ("view", "changes")])
def test_a_false_declaration_is_caught(kind: str, false: str) -> None:
    # The daily deal once counted as a read on the page's side, and its games were lost.
    with pytest.raises(AssertionError):
        check_effect(kind, false)


def test_hello_announces_every_request_and_its_effect() -> None:
    assert ok("hello")["requests"] == {kind: {"effect": r.effect, "view": r.view}
                                       for kind, r in REQUESTS.items()}


def is_a_view(result: Any) -> bool:
    """Whether a reply is a view of the table (calypso_core/table/views.py)."""
    return isinstance(result, dict) and {"status", "viewer", "to_move", "trick"} <= set(result)


def check_view(kind: str, view: bool, scenarios: dict[str, Callable[[], Payload]] = SCENARIOS
               ) -> None:
    """Send ``kind`` where it succeeds; its reply must be a view exactly when it says so, and
    at a table with guests a view carries each guest's beside it."""
    result = ok(kind, **scenarios[kind]())
    assert is_a_view(result) == view, f"{kind} says view={view}"
    match = current_match()
    seats = sorted(match.remote_seats) if match is not None else []
    if view and seats:
        assert [seat for seat, seen in enumerate(result["guests"]) if seen is not None] == seats
        assert all(result["guests"][seat]["viewer"] == seat for seat in seats)
    elif isinstance(result, dict):
        assert "guests" not in result


@pytest.mark.parametrize("kind", sorted(REQUESTS))
def test_each_request_says_whether_its_reply_is_a_view(kind: str) -> None:
    # A friends' table sends its guests their views after each reply that is one (host.js).
    check_view(kind, REQUESTS[kind].view)


@pytest.mark.parametrize(("kind", "false"), [("view", False), ("reveal", False),
                                              ("hint", True), ("record", True)])
def test_a_false_view_declaration_is_caught(kind: str, false: bool) -> None:
    with pytest.raises(AssertionError):
        check_view(kind, false)


def test_a_whole_match_is_kept_from_the_replies_alone() -> None:
    # What the page's client does: take a start's recipe whole, apply each change.
    view = ok("new_game", seed=78, level="random", games=2)
    kept = view["recipe"]

    def follow(reply: dict[str, Any]) -> dict[str, Any]:
        nonlocal kept
        recipe = reply["recipe"]
        kept = recipe if "record" in recipe else apply(kept, recipe)
        return reply

    undone = False
    while not (view["status"] == "game_over" and view["match"]["is_over"]):
        if view["status"] == "game_over":
            view = follow(ok("next_game"))
        elif view["status"] == "your_turn":
            view = follow(ok("play", card=view["legal"][-1]))
            if view["plays"] > 20 and not undone:
                view, undone = follow(ok("undo")), True
        else:
            view = follow(ok("step"))
        assert len(kept["record"]["plays"]) == view["plays"]
    assert kept == ok("record")
    table.reset()
    assert ok("load", **kept)["match"] == view["match"]


def test_the_protocol_doc_lists_every_request_with_its_declared_effect() -> None:
    # Its result column starts with "view" (or "the view") exactly for the replies that are one.
    text = (Path(__file__).resolve().parents[1] / "docs" / "protocol.md").read_text()
    section = text[text.index("| type | effect |"):]
    section = section[: section.index("\n\n")]
    rows = re.findall(r"^\| `([a-z_]+)` \| `([a-z]+)` \| .*? \| (.*) \|$", section, flags=re.M)
    assert {kind: (effect, re.match(r"(?:the )?view\b", result) is not None)
            for kind, effect, result in rows} == {kind: (r.effect, r.view)
                                                  for kind, r in REQUESTS.items()}
    assert len(rows) == len(REQUESTS)


# -- engine facts the page once worked out itself ------------------------------------------


def test_an_error_says_whether_what_the_request_carried_is_refused() -> None:
    # The page once tested codes against /^bad_/ to decide whether to set its settings aside.
    refused = call("new_game", games=9)["error"]
    assert (refused["code"], refused["input"]) == ("bad_games", True)
    assert call("step")["error"]["input"] is False  # no game yet: the moment, not the input
    ok("new_game", seed="x")
    assert call("play", card="ZZ")["error"]["input"] is True


def test_kept_settings_are_judged_by_the_engine_each_refused_one_at_its_default() -> None:
    # The page once checked its stored settings against limits of its own (games 1-4, the
    # suits, seats 0-3), written again in JavaScript.
    kept = {"level": "random", "levels": None, "people": [{"seat": 2, "name": "Ana"}],
            "rules": {"x": True}, "games": 9, "suit": "Q"}
    result = ok("check_settings", settings=kept)
    assert result["settings"] == {**kept, "rules": {}, "games": 1, "suit": "random"}
    assert [(r["key"], r["text"]["id"]) for r in result["refused"]] == [
        ("rules", "error.bad_rules"), ("games", "error.bad_games"), ("suit", "error.bad_suit")]
    fine: dict[str, Any] = {"level": None, "levels": ["random", None, None, "random"],
            "people": [{"seat": 2}, {"seat": 1}], "rules": {}, "games": 4, "suit": "S"}
    assert ok("check_settings", settings=fine) == {"settings": fine, "refused": []}


def test_kept_levels_are_judged_against_the_people_kept() -> None:
    # A person's seat has no level; once the people are refused, South is the person.
    levels = [None, "random", "random", "random"]
    seated = ok("check_settings", settings={"people": [{"seat": 0}], "levels": levels})
    assert seated["refused"] == []
    unseated = ok("check_settings", settings={"people": [{"seat": 7}], "levels": levels})
    assert [r["key"] for r in unseated["refused"]] == ["people", "levels"]
    assert (unseated["settings"]["people"], unseated["settings"]["levels"]) == (None, None)


def test_kept_settings_that_are_not_an_object_of_known_keys_are_refused() -> None:
    for settings in ([1], "x", {"speed": 5}, None):
        error = call("check_settings", settings=settings)["error"]
        assert (error["code"], error["input"]) == ("bad_settings", True), settings


def test_an_error_says_whether_the_engine_holds_no_game() -> None:
    # The page's client once tested the code "no_game" to forget the recipe it kept.
    for kind in ("record", "view", "step", "hint", "replay"):
        assert call(kind)["error"]["no_game"] is True, kind
    ok("new_game", seed="x")
    assert call("undo")["error"]["no_game"] is False  # a game, and nothing to take back
    assert call("replay")["error"]["no_game"] is False  # a game, not over yet


def test_the_master_says_in_its_own_words_why_it_cannot_play_a_game_again() -> None:
    # The page once chose its sentence by the code "unavailable".
    view = ok("new_game", seed="x", level="random", people=[{"seat": 0}, {"seat": 2}])
    while view["status"] != "game_over":  # two people at this device: whose seat is yours?
        view = (ok("reveal", seat=view["to_move"]) if view["status"] == "handoff"
                else ok("play", card=view["legal"][0]) if view["status"] == "your_turn"
                else ok("step"))
    refused = call("rerun")["error"]
    assert refused["text"] == {"id": "master.one_person"}
    assert (refused["input"], refused["no_game"]) == (False, False)


def test_each_seat_says_how_its_label_is_made() -> None:
    # The page once read the label's message id to know whether a seat is "You".
    alone = ok("new_game", seed="x")["table"]["seats"]
    assert [s["called"] for s in alone] == ["seat", "seat", "you", "seat"]
    people = [{"seat": 0, "name": "Ana"}, {"seat": 2}]
    two = ok("new_game", seed="x", people=people)["table"]["seats"]
    assert [s["called"] for s in two] == ["name", "seat", "seat", "seat"]
    assert [s["label"]["id"] for s in two] == ["label.person", *["label.seat"] * 3]


# -- a game in play never opens face up ------------------------------------------------------


def test_a_file_of_a_game_in_play_shows_no_hidden_card_and_continues_covered() -> None:
    at_handoff()
    cut = ok("view")["table"]["cut"]["cards"]
    saved = ok("record")
    text = json.dumps(saved["record"])
    public = {*saved["record"]["plays"], *cut}
    assert set(re.findall(r'"([2-9TJQKA][SHDC])"', text)) <= public
    opened = ok("import", text=text)
    assert not opened["is_over"] and opened["record"] == saved["record"]  # still sealed
    table.reset()
    view = ok("load", record=opened["record"], settings=opened["settings"])
    assert (view["status"], view["viewer"]) == ("handoff", None)  # the hand-off screen first
    assert view["plays"] == len(saved["record"]["plays"])
    shown = ok("replay", record=opened["record"])
    assert {seat["hand"] for seat in shown["seats"]} == {None}


def test_a_changed_seal_is_refused() -> None:
    a_game()
    record = ok("record")["record"]
    deck = record["deck"]
    changed = deck[:-1] + ("0" if deck[-1] != "0" else "1")
    reply = call("load", record={**record, "deck": changed}, settings=ok("record")["settings"])
    assert reply["error"]["code"] == "bad_record" and "sealed deck" in reply["error"]["message"]
