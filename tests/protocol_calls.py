"""Calling the worker protocol from tests: one request in, the checked reply out."""

from __future__ import annotations

import json
import random
from typing import Any

from calypso_core import table
from calypso_core.messages import render
from calypso_core.table.sealed import opened_record


def call(kind: str, **payload: Any) -> dict[str, Any]:
    """Send one request; return the whole reply, checking its shape and id."""
    reply = json.loads(table.handle(json.dumps({"id": 7, "type": kind, **payload})))
    assert reply["id"] == 7
    assert set(reply) == ({"id", "ok", "result"} if reply["ok"] else {"id", "ok", "error"})
    return dict(reply)


def ok(kind: str, **payload: Any) -> Any:
    """Send a request that must succeed; return its result."""
    reply = call(kind, **payload)
    assert reply["ok"], reply
    return reply["result"]


def error(kind: str, **payload: Any) -> str:
    """Send a request that must fail; return the error code (the message must say something)."""
    reply = call(kind, **payload)
    assert not reply["ok"], reply
    assert reply["error"]["message"]
    return str(reply["error"]["code"])


def same_table(view: dict[str, Any]) -> dict[str, Any]:
    """A view without what only the reply to one command carries (the move it made, the
    seats and cut of a match's first reply), for comparing the
    table before and after."""
    return {k: v for k, v in view.items() if k not in ("event", "table", "recipe")}


def advance(view: dict[str, Any]) -> dict[str, Any]:
    """Let the computer players move until a person is to move or the game is over."""
    while view["status"] == "waiting":
        view = ok("step")
    return view


def said(message: Any, lang: str = "en") -> str:
    """A message of a reply (or a list of them, such as a trick's reason) as people read it."""
    return render(message, lang)


def all_said(messages: list[Any], lang: str = "en") -> list[str]:
    """Each message of a list (say, the four seats' labels) as people read it."""
    return [render(message, lang) for message in messages]


def recipe() -> dict[str, Any]:
    """The recipe of the game in play ("record") with its deck opened, as tests read it (the
    engine hands it over sealed until the game is over: calypso_core/table/sealed.py)."""
    saved = ok("record")
    return {**saved, "record": opened_record(saved["record"])}


def finished_hosted_game(seed: str, guest: int = 0, games: int = 1) -> dict[str, Any]:
    """The recipe of a whole match of ``games`` dealt from ``seed`` with South on this device
    and a guest at ``guest`` (a remote table), every card random; the table's session is left
    reset."""
    rng = random.Random(3)
    table.reset()
    people = [{"seat": 2, "name": "Ana"}, {"seat": guest, "name": "Ben", "remote": True}]
    view = ok("new_game", seed=seed, people=people, level="random", games=games)
    while view["status"] != "game_over" or not view["match"]["is_over"]:
        if view["status"] == "game_over":
            view = ok("next_game")
        elif view["status"] == "your_turn":
            view = ok("play", card=rng.choice(view["legal"]))
        elif view["to_move"] == guest:
            legal = view["guests"][guest]["legal"]
            view = ok("play", guest=guest, card=rng.choice(legal))
        else:
            view = ok("step")
    saved: dict[str, Any] = ok("record")
    table.reset()
    return saved
