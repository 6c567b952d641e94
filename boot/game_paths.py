"""Every path the page can take through the engine, as requests: the trace of what the
standard library must hold (build.py's ``stdlib-trace``) runs this in Pyodide.

Every request type of the protocol, every computer level, one person and several, a whole
match to its end, saves, game files, replays, the review and the master in your seat, and
refusals. Requests only, as the worker sends them: the page reaches the engine no other way.
Seeds are fixed, so every run takes the same paths.
"""

from __future__ import annotations

import binascii
import json
from typing import Any

from calypso_core import from_record, table
from calypso_core.bots.puzzles import SET_FORMAT, SET_VERSION, dealt, puzzle_id

LEVELS = ("random", "novice", "club", "expert", "master")


def call(kind: str, **payload: Any) -> dict[str, Any]:
    reply: dict[str, Any] = json.loads(table.handle(json.dumps({"id": 1, "type": kind, **payload})))
    return reply


def ok(kind: str, **payload: Any) -> Any:
    reply = call(kind, **payload)
    if not reply["ok"]:
        raise RuntimeError(f"{kind} {payload}: {reply['error']}")
    return reply["result"]


def move(view: dict[str, Any]) -> dict[str, Any]:
    """One move of whoever is to move: the computer's, or the person's first legal card."""
    if view["status"] == "waiting":
        return dict(ok("step"))
    if view["status"] == "handoff":
        return dict(ok("reveal", seat=view["to_move"]))
    return dict(ok("play", card=view["legal"][0]))


def to_turn(view: dict[str, Any]) -> dict[str, Any]:
    """Moves until the person whose hand is shown is to play."""
    while view["status"] != "your_turn":
        view = move(view)
    return view


def play_out(view: dict[str, Any]) -> dict[str, Any]:
    while view["status"] != "game_over":
        view = move(view)
    return view


def run() -> None:
    ok("hello")
    ok("examples")
    # A match of two games against random players, to its end: every reply a view gives.
    view = ok("new_game", seed="paths", level="random", games=2, suit="H")
    view = to_turn(move(to_turn(view)))
    ok("hint")
    ok("aids")
    ok("undo")
    saved = ok("record")
    ok("load", record=saved["record"], settings=saved["settings"], history=saved["history"],
       viewer=2)
    view = play_out(ok("view"))
    ok("replay", tricks=5)
    finished = ok("record")
    job = ok("review", budget=20, seed="paths")["job"]
    for _ in range(3):
        ok("review_next", job=job)
    job = ok("rerun", iterations=20)["job"]
    for _ in range(3):
        ok("rerun_next", job=job)
    view = play_out(ok("next_game"))
    text = json.dumps(finished["record"])
    ok("import", text=text)
    # A game file as the page sends it, its bytes, in each encoding a byte-order mark names.
    for encoding in ("utf-8", "utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"):
        data = ("\ufeff" + text).encode(encoding)
        ok("import", base64=binascii.b2a_base64(data, newline=False).decode())
    ok("replay", record=finished["record"], tricks=13)
    # Each level makes its moves; several people on one device.
    for level in LEVELS:
        view = ok("new_game", seed=f"paths-{level}", level=level)
        for _ in range(3):
            view = move(view)
    view = ok("new_game", seed="people", people=[{"seat": 0, "name": "Ana"}, {"seat": 2}],
              levels=["random"] * 4)
    for _ in range(12):
        view = move(view)
    # A guest on another device plays West; the work ahead on the review meanwhile.
    view = to_turn(ok("new_game", seed="guest", level="random",
                      people=[{"seat": 2}, {"seat": 3, "name": "Guest", "remote": True}]))
    view = move(view)
    for _ in range(8):
        if view["to_move"] == 3:
            view = ok("play", guest=3, card=view["guests"][3]["legal"][0])
        else:
            view = move(view)
        ok("work", ms=50, budget=20, iterations=20)
    ok("daily")
    ok("daily", date="2026-01-01")
    # Puzzles: a set of one (the first lead of a game), opened every way, answered, played on.
    legal = [str(card) for card in dealt("paths").legal_moves()]
    puzzle = [puzzle_id("paths", 0), 0, 0, legal[0], [[c, 150] for c in legal[1:]], ["pull"], 1500]
    ok("puzzles", text=json.dumps({"format": SET_FORMAT, "version": SET_VERSION,
                                   "games": [["paths", ""]], "puzzles": [puzzle]}))
    ok("puzzle", day="2026-01-01")
    ok("puzzle", near={"offset": 300, "recent": [], "salt": "paths"})
    ok("puzzle_answer", card=legal[1], rate=True)
    ok("puzzle_play", card=legal[0])
    ok("puzzle_step")
    mine = {**finished["record"], "plays": []}
    own = [str(card) for card in from_record(mine).legal_moves()]
    ok("puzzle", mine={"record": mine, "play": 0,
                       "costs": [[c, 0 if c == own[0] else 150] for c in own]})
    ok("puzzle_answer", card=own[0])
    # Refusals, each a different way.
    for request in ("{not json", json.dumps({"id": 2, "type": "no_such"}), "[]",
                    json.dumps({"id": 3, "type": "play", "card": "ZZ"})):
        json.loads(table.handle(request))


if __name__ == "__main__":
    run()
