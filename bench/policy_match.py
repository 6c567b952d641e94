"""How often the playout policy picks the master's card, by situation, with its options.

    python3 bench/policy_match.py [--games 40] [--iterations 1000] [--log FILE]

The master's playouts model every later card, its own included, with the playout policy;
against masters, a policy that picks the cards masters pick models the game better. This
plays seeded master self-play games (clock off, ``--iterations`` a move) and notes every
decision with a choice: the observation and the master's card. ``--log`` keeps them, a
JSON line a game, and a later run plays only the games not in it. It then
prints, by situation (leads by trick of the deal, follows and discards by the card's place
in the trick and whether the partner is winning), how often the plain policy, each of its
sharper rules (``policy_card``'s options) and both together pick the master's card; and,
where the other side is winning the trick and a legal card would take it, how often the
master let it go (the inference's ``LET_GO_WEIGHT``), by its place in the trick.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import finished_lines
from calypso_core.bots import make_bot
from calypso_core.bots.knowledge import Knowledge, card_code
from calypso_core.bots.policy import policy_card
from calypso_core.game import new_game
from calypso_core.kernel import trumps_by_position

# Each variant's options of policy_card: (lead_own_from, overtake_below).
VARIANTS = {"plain": (0, -1), "lead own": (9, -1), "overtake": (0, 10), "both": (9, 10)}


def decisions(game: int, iterations: int) -> Iterator[dict[str, Any]]:
    """Every decision with a choice of one master self-play game."""
    state = new_game(f"imitate/{game}")
    bots = [make_bot("master", seat, random.Random(f"i{game}/{seat}"), iterations=iterations,
                     time_limit=None) for seat in range(4)]  # fmt: skip
    while not state.is_over:
        seat = state.to_move
        legal = state.legal_moves()
        observation = state.observation(seat)
        card = bots[seat].choose(observation, legal)
        if len(legal) > 1:
            yield {"obs": observation, "choice": str(card)}
        state.play(card)


def situation(k: Knowledge, hand: list[list[int]], winning: int) -> str:
    """Where a decision stands: a lead by trick, or the card's place in the trick."""
    if not k.trick:
        return f"lead, trick {k.trick_number + 1}" if k.trick_number < 3 else "lead, later"
    place = len(k.trick) + 1
    partner = "partner winning" if not (len(k.trick) - winning) & 1 else "opponent winning"
    move = "follow" if hand[k.trick[0] // 13] else "void"
    return f"{move} {place}, {partner}"


def matches(rows: list[dict[str, Any]]) -> tuple[Counter[str], Counter[tuple[str, str]]]:
    """How many decisions each situation has, and how many each variant matched in it."""
    seen: Counter[str] = Counter()
    hits: Counter[tuple[str, str]] = Counter()
    for row in rows:
        k = Knowledge(row["obs"])
        hand: list[list[int]] = [[] for _ in range(4)]
        for code in range(52):
            hand[code // 13] += [code % 13] * k.hand[code]
        trumps = trumps_by_position(k.suits)[k.leader]
        winning = k.rules.winner_fn(k.trick, trumps) if k.trick else 0
        choice = card_code(row["choice"])
        where = situation(k, hand, winning)
        seen[where] += 1
        seen["all"] += 1
        rules = k.rules
        for name, options in VARIANTS.items():
            card = policy_card(k.suits, rules.must_beat, rules.last_trump_wins, k.calypso,
                               *options, [ranks[:] for ranks in hand], k.seat, k.trick, winning,
                               trumps)  # fmt: skip
            hits[(name, where)] += card == choice
            hits[(name, "all")] += card == choice
    return seen, hits


def let_go(rows: list[dict[str, Any]]) -> tuple[Counter[str], Counter[str]]:
    """By place in the trick and whether the player could follow: the decisions where the
    other side is winning and a legal card would take the trick, and those in which the
    master played one that does not."""
    chances: Counter[str] = Counter()
    let: Counter[str] = Counter()
    for row in rows:
        k = Knowledge(row["obs"])
        n = len(k.trick)
        if not n:
            continue
        trumps = trumps_by_position(k.suits)[k.leader]
        winner_fn = k.rules.winner_fn
        if not (n - winner_fn(k.trick, trumps)) & 1:
            continue  # the partner is winning
        legal = [card_code(text) for text in row["obs"]["legal_moves"]]
        takes = [code for code in legal if winner_fn([*k.trick, code], trumps) == n]
        if takes:
            follows = any(code // 13 == k.trick[0] // 13 for code in legal)
            where = f"{'follow' if follows else 'void'} {n + 1}"
            chances[where] += 1
            let[where] += card_code(row["choice"]) not in takes
    return chances, let


def read_log(log: Path, iterations: int) -> dict[int, list[dict[str, Any]]]:
    """The games in ``log`` by number; a last line cut short by a kill is dropped."""
    games: dict[int, list[dict[str, Any]]] = {}
    for number, line in enumerate(finished_lines(log)[0], 1):
        try:
            row = json.loads(line)
            ok = row["iterations"] == iterations and isinstance(row["decisions"], list)
            games[int(row["game"])] = row["decisions"]
        except (ValueError, KeyError, TypeError) as error:
            raise SystemExit(f"{log}, line {number}: {error!r}") from None
        if not ok:
            raise SystemExit(f"{log}, line {number}: not a game at {iterations} iterations")
    return games


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--log", type=Path, help="decisions kept from earlier runs")
    args = parser.parse_args()
    if args.games < 1 or args.iterations < 1:
        parser.error("games and iterations are positive numbers")
    games = read_log(args.log, args.iterations) if args.log else {}
    rows: list[dict[str, Any]] = []
    for game in range(args.games):
        if game not in games:
            games[game] = list(decisions(game, args.iterations))
            if args.log:
                line = {"game": game, "iterations": args.iterations, "decisions": games[game]}
                with args.log.open("a", encoding="utf-8") as handle:
                    handle.write(json.dumps(line) + "\n")
            print(f"game {game}: {len(games[game])} decisions", file=sys.stderr, flush=True)
        rows += games[game]
    seen, hits = matches(rows)
    print(f"{'situation':32} {'decisions':>9} " + " ".join(f"{n:>9}" for n in VARIANTS))
    for where in sorted(seen, key=lambda w: (w != "all", w)):
        shares = " ".join(f"{hits[(name, where)] / seen[where]:>9.1%}" for name in VARIANTS)
        print(f"{where:32} {seen[where]:>9} {shares}")
    chances, let = let_go(rows)
    print(f"\n{'the other side winning':32} {'chances':>9} {'let go':>9}")
    for where in sorted(chances):
        print(f"{where:32} {chances[where]:>9} {let[where]:>9}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
