"""Regenerate the golden game records and their replay summaries. Run only on purpose:

    PYTHONPATH=. python3 tests/golden/regen.py

Each case writes NAME.record.json (the record) and NAME.summary.json (what
``python -m calypso_core replay`` prints for it). Review the diff before committing: a
changed record means this script changed; a changed summary for an unchanged record means
the engine now scores or wins tricks differently, which is exactly what these files guard.

The decks and plays come from this script's own ``random.Random`` and from the documented
order of ``legal_moves()``, not from ``new_game``'s seed, so they do not move when the
engine's shuffling does.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from calypso_core import Rules, from_record, new_game, to_record
from calypso_core.__main__ import replay_summary
from calypso_core.cards import CARDS

HERE = Path(__file__).resolve().parent
SEATINGS = ["SCHD", "SDHC", "HCSD", "HDSC", "CSDH", "CHDS", "DSCH", "DHCS"]


def seeded_game(seed: int, rules: Rules, plays: int) -> dict[str, Any]:
    """A game from a seeded shuffle, played by choosing uniformly among the legal moves."""
    rng = random.Random(seed)
    deck = [str(card) for card in CARDS for _ in range(4)]
    rng.shuffle(deck)
    state = new_game(
        rules=rules,
        suits=list(rng.choice(SEATINGS)),
        first_dealer=rng.randrange(4),
        deck=deck,
    )
    for _ in range(plays):
        state.play(rng.choice(state.legal_moves()))
    return to_record(state)


def four_calypsos() -> dict[str, Any]:
    """North holds every spade in every deal and nobody else holds their own suit.

    North wins all 52 tricks; North and South each complete four calypsos (500 + 750 +
    1,000 + 1,000) and North's pile takes the 104 clubs and diamonds.
    """
    hands = {  # seat -> its 13 cards in every deal
        0: "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
        1: "2H 3H 4H 5H 6H 7H 8H 2D 3D 4D 5D 6D 7D",
        2: "8D 9D TD JD QD KD AD 9C TC JC QC KC AC",
        3: "9H TH JH QH KH AH 2C 3C 4C 5C 6C 7C 8C",
    }
    first_dealer = 3
    deck = []
    for deal in range(4):
        dealer = (first_dealer + deal) % 4
        # Card i of a deal goes to seat (dealer + 1 + i) % 4: card j of a hand is at 4j + offset.
        part = [""] * 52
        for seat, text in hands.items():
            for j, card in enumerate(text.split()):
                part[4 * j + (seat - dealer - 1) % 4] = card
        deck += part
    state = new_game(suits=list("SCHD"), first_dealer=first_dealer, deck=deck)
    while not state.is_over:
        state.play(state.legal_moves()[0])
    return to_record(state)


CASES = {
    "standard-seed-2024": lambda: seeded_game(2024, Rules(), 208),
    "all-options-seed-7": lambda: seeded_game(
        7,
        Rules(
            lead_trump_must_be_beaten=True,
            last_trump_in_wins=True,
            all_fours=True,
            leftovers_start_next_calypso=False,
        ),
        208,
    ),
    "must-beat-midgame-seed-99": lambda: seeded_game(99, Rules(lead_trump_must_be_beaten=True), 81),
    "last-trump-in-seed-5": lambda: seeded_game(5, Rules(last_trump_in_wins=True), 208),
    "north-south-four-calypsos": four_calypsos,
}


def record_text(record: dict[str, Any]) -> str:
    """The record as JSON, one deal of the deck and one trick of the plays per line."""
    lines = ["{"]
    for key, value in record.items():
        if key in ("deck", "plays"):
            size = 52 if key == "deck" else 4
            rows = [
                ", ".join(json.dumps(card) for card in value[i : i + size])
                for i in range(0, len(value), size)
            ]
            body = ",\n".join("    " + row for row in rows)
            lines.append(f'  "{key}": [\n{body}\n  ],' if rows else f'  "{key}": [],')
        else:
            lines.append(f'  "{key}": {json.dumps(value)},')
    lines[-1] = lines[-1].rstrip(",")
    return "\n".join([*lines, "}"]) + "\n"


def summary_text(summary: dict[str, Any]) -> str:
    """The replay summary as JSON, one trick, player or partnership per line."""
    lines = ["{", f'  "is_over": {json.dumps(summary["is_over"])},']
    for key in ("tricks", "players", "partnerships"):
        rows = [json.dumps(item) for item in summary[key]]
        body = ",\n".join("    " + row for row in rows)
        lines.append(f'  "{key}": [\n{body}\n  ],' if rows else f'  "{key}": [],')
    lines[-1] = lines[-1].rstrip(",")
    return "\n".join([*lines, "}"]) + "\n"


def main() -> int:
    for name, build in CASES.items():
        record = build()
        summary = replay_summary(from_record(record))
        for path, text in (
            (HERE / f"{name}.record.json", record_text(record)),
            (HERE / f"{name}.summary.json", summary_text(summary)),
        ):
            assert json.loads(text) == (record if path.name.endswith("record.json") else summary)
            old = path.read_text(encoding="utf-8") if path.exists() else None
            path.write_text(text, encoding="utf-8")
            print(f"{'unchanged' if old == text else 'written  '} {path.relative_to(HERE)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
