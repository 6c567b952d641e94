"""A challenge plays and compares the same in CPython and in Pyodide (under Node, no browser):
the computer players without their clock choose the same cards, and a reply read on either
gives the same comparison."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

from pyodide_node import engine_wheel, run_in_pyodide

from calypso_core import table

# The first tricks of a challenge against search levels at their whole budgets (the person
# plays a fixed card), then a whole challenge against club players answered and compared.
CODE = """
import json, random
from calypso_core import table
from calypso_core.table.match import Match
from calypso_core.table.settings import Settings

def ask(kind, **payload):
    reply = json.loads(table.handle(json.dumps({"id": 1, "type": kind, **payload})))
    assert reply["ok"], reply
    return reply["result"]

def play_out(view, pick):
    while view["status"] != "game_over":
        view = ask("step") if view["status"] == "waiting" else ask(
            "play", card=view["legal"][pick % len(view["legal"])])
    return view

settings = Settings.from_request({"seed": "both engines", "clock": False,
                                  "levels": ["master", "novice", "human", "expert"]})
match = Match(settings)
while len(match.state.plays) < 12:
    if match.status == "waiting":
        match.step()
    else:
        legal = match.state.legal_moves()
        match.play(str(legal[len(match.state.plays) % len(legal)]))
first = [str(card) for card in match.state.plays]

play_out(ask("new_game", seed="both engines", level="club"), 0)
link = ask("challenge_make", name="Ann")["link"]
play_out(ask("challenge_start", challenge=link, name="Ben"), -1)
reply = ask("challenge_reply", challenge=link, name="Ben")["link"]
progress = ask("challenge_compare", challenge=link, reply=reply, budget=30, iterations=10)
while not progress["finished"]:
    progress = ask("challenge_compare_next", job=progress["job"])
print(json.dumps({"first": first, "link": link, "reply": reply, "result": progress["result"]}))
"""


def test_a_challenge_plays_and_compares_the_same_in_cpython_and_pyodide(
    build_module: ModuleType, dist_dir: Path, tmp_path: Path
) -> None:
    in_pyodide = json.loads(
        run_in_pyodide(CODE, build_module.fetch_pyodide(), engine_wheel(dist_dir), tmp_path,
                       timeout=600, files=True))
    table.reset()
    printed: list[str] = []
    exec(CODE, {"print": printed.append})
    table.reset()
    in_cpython = json.loads(printed[0])
    assert len(in_cpython["first"]) == 12
    assert in_cpython["result"]["parted"][0] is not None
    assert in_pyodide == in_cpython
