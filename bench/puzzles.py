"""The puzzles' miner: positions of real games where one card is clearly best (issue 44).

    nice -n 19 python3 bench/puzzles.py mine --games N --log FILE [--first G] [--jobs J]
                                             [--records FILE ...]
    python3 bench/puzzles.py confirm --log FILE --out FILE   # the check again, today's judge
    python3 bench/puzzles.py build --log FILE [--out web/puzzles.json]
    python3 bench/puzzles.py figures --log FILE

``mine`` plays game after game of the computer players (game ``g`` is dealt from the seed
``puzzles:g``; every eighth is master self-play, the others mixed levels, drawn from the
game number) or reads the game records it is given, and looks at the positions of their last
deal (of every deal in master self-play and in the records), from the mover's information
only, as the review judges a card (docs/puzzles.md):

1. a forced card is no puzzle;
2. **the judge**: the review's search (``CardReviewer``, the review's rule, at half its
   budget) values every legal card; the position is a candidate when one card's value beats
   every other legal card's so that each other card's review cost is at least ``LINE``
   points, by at least ``SE_LINE`` standard errors of the paired gap. The search is looked at
   after ``LOOKS`` iterations and stopped there when
   even ``EARLY_Z`` standard errors above the gap to the nearest other card would leave it
   below the line: most positions have two cards close together, and are let go cheaply;
3. **not obvious**: the club player, or else the expert, plays another card;
4. **the check**: a second search with another seed and ``CONFIRM_FACTOR`` times the budget
   must find the same card above the same line; a candidate that shrinks below it is
   dropped (counted as ``evaporated``).

Each game is one JSON line of the log (its counts, CPU seconds and candidates, confirmed or
not), written when the game is done: a run stopped at any moment resumes where it was, and
a game gives the same line whenever it is mined. ``confirm`` runs the check again over the
log's candidates (after the review's judge changes); ``build`` writes the shipped set from
the confirmed ones, the same bytes from the same log; ``figures`` prints puzzles per
CPU-hour and the share of candidates that survive the check.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import multiprocessing
import random
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import common
from calypso_core.bots.base import REVIEW_ITERATIONS, play_game
from calypso_core.bots.levels import make_bot
from calypso_core.bots.puzzles import (
    SET_FORMAT,
    SET_VERSION,
    dealt,
    encode_choices,
    puzzle_id,
    replay_choices,
    themes_of,
)
from calypso_core.bots.review import REVIEW_RULES, CardReviewer, points_lost
from calypso_core.bots.search import ExpertBot, MasterBot
from calypso_core.cards import Card
from calypso_core.cli_io import show_progress
from calypso_core.game import GameState
from calypso_core.kernel import DEALS, TRICKS_PER_DEAL
from calypso_core.record import from_record, to_record

# Points: every other card's review cost is at least this. The shipped set was mined when the
# review counted the playouts' whole gap, at a gap of 100 (the blunder line then); the
# calibrated review counts a gap less its bias (review.points_lost): that gap's cost.
LINE = points_lost(100)
SE_LINE = 3.0  # and by this many standard errors of the paired gap
CONFIRM_FACTOR = 4  # the check's budget, in judge budgets
# The judge's budget: half the review's (a card's review is the same search at 8,000); the
# check's is CONFIRM_FACTOR times it, twice the review's.
JUDGE_BUDGET = REVIEW_ITERATIONS // 2
LOOKS = (60, 200, 1000)  # iterations at which the judge may stop early
CONFIRM_LOOKS = (1000, 4000)  # and the check
EARLY_Z = 2.5  # stop when even this many standard errors more would not reach the line
LOWER_LEVELS = ("club", "expert")  # one of them must play another card
# Which levels miss the card set its starting rating: BASE_RATING, and MISS_RATING more for
# each level of RATING_LEVELS whose card is another.
RATING_LEVELS = ("novice", "club", "expert", "master")
BASE_RATING = 1200
MISS_RATING = 200
# The computer players of the mined games, clock off (reproducible), at the bot ladder's
# budgets (docs/bots.md); the expert and the master look at a position at their own budgets
# (difficulty, not obvious).
GAME_SETTINGS: dict[str, dict[str, Any]] = {
    "novice": {}, "club": {},
    "expert": {"iterations": 200, "time_limit": None},
    "master": {"iterations": 400, "time_limit": None},
}
MIXED_LEVELS = ("novice", "club", "club", "expert")
MASTER_EVERY = 8
DEFAULT_SET = common.ROOT / "web" / "puzzles.json"


# -- the judge --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Judgement:
    """What one search of a position says: each legal card's value, cost, gap and error
    (best first), and whether the best card is a puzzle's solution."""

    best: Card
    options: tuple[tuple[Card, float, int, float, float], ...]  # card, value, cost, gap, error
    verdict: str  # "puzzle", "early", "below_line" or "within_noise"
    iterations: int

    @property
    def is_puzzle(self) -> bool:
        return self.verdict == "puzzle"

    def to_json(self) -> dict[str, Any]:
        return {"best": str(self.best), "verdict": self.verdict, "iterations": self.iterations,
                "rules": REVIEW_RULES,
                "options": [[str(c), round(v, 1), cost, round(gap, 1),
                             round(err, 1) if math.isfinite(err) else None]
                            for c, v, cost, gap, err in self.options]}


def leader_of(gaps: list[tuple[float, float]]) -> int:
    """The index of the leading card among gaps behind it (its own is exactly 0, 0)."""
    return gaps.index((0.0, 0.0))


def out_of_reach(gaps: list[tuple[float, float]], z: float = EARLY_Z) -> bool:
    """Whether the leading card's lead over the nearest other card stays below the line even
    ``z`` standard errors up: then no card can be a puzzle's solution."""
    lead = leader_of(gaps)
    return any(math.isfinite(error) and points_lost(gap + z * error) < LINE
               for i, (gap, error) in enumerate(gaps) if i != lead)


def verdict(options: Iterable[tuple[Card, float, int, float, float]]) -> str:
    """``puzzle`` when every card but the best costs the line or more, by ``SE_LINE``
    standard errors; else why not."""
    others = list(options)[1:]
    if not others or any(cost < LINE for _, _, cost, _, _ in others):
        return "below_line"
    if any(gap < SE_LINE * error for _, _, _, gap, error in others):
        return "within_noise"
    return "puzzle"


def judge(state: GameState, play: int, *, budget: int, seed: str,
          looks: tuple[int, ...] = LOOKS, obvious: Card | None = None) -> Judgement:
    """The review's search of the position to move at play ``play``, as a puzzle's judge.

    At each of ``looks`` (iterations) the search stops when no card can reach the line
    (verdict ``early``), or when the card ``obvious`` (a lower level's) leads: then that
    level would find the solution if there is one (verdict ``obvious``)."""
    legal = state.legal_moves()
    reviewer = CardReviewer(state, legal[0], play, budget=budget, seed=seed)
    for look in looks:
        if look >= budget:
            break
        while reviewer.spent < look:
            reviewer.step(look - reviewer.spent)
        gaps = reviewer.gaps()
        leader = legal[leader_of(gaps)]
        stop = "early" if out_of_reach(gaps) else "obvious" if leader == obvious else None
        if stop is not None:
            return Judgement(leader, tuple((c, 0.0, 0, gap, error)
                                           for c, (gap, error) in zip(legal, gaps, strict=True)),
                             stop, reviewer.spent)
    review = reviewer.review
    while review is None:
        review = reviewer.step(budget)
    gap_of = dict(zip(reviewer.legal, reviewer.gaps(), strict=True))
    options = tuple((o.card, o.value, o.cost, *gap_of[o.card]) for o in review.options)
    return Judgement(review.best, options, verdict(options), reviewer.spent)


# -- the levels' cards, themes and rating ----------------------------------------------------

def level_card(level: str, state: GameState, key: str) -> Card:
    """The card ``level`` plays in the position, seeded from the position's key."""
    seat = state.to_move
    settings = {"time_limit": None} if level in ("expert", "master") else {}
    bot = make_bot(level, seat, random.Random(f"{key}:{level}"), **settings)
    return bot.choose(state.observation(seat), state.legal_moves())


def starting_rating(misses: Iterable[str]) -> int:
    """A puzzle's starting rating from the levels whose card is another."""
    return BASE_RATING + MISS_RATING * len(set(misses) & set(RATING_LEVELS))


# -- one game ------------------------------------------------------------------------------

def game_source(number: int) -> tuple[str, list[str]]:
    """The kind of game ``number`` is and its four levels: master self-play every
    ``MASTER_EVERY``-th game, else levels drawn for each seat from ``MIXED_LEVELS``."""
    if number % MASTER_EVERY == 0:
        return "master", ["master"] * 4
    rng = random.Random(f"puzzles:levels:{number}")
    return "mixed", [rng.choice(MIXED_LEVELS) for _ in range(4)]


def deals_mined(number: int) -> range:
    """The deals of game ``number`` whose positions are looked at: every deal of master
    self-play (the costliest games to play), the last deal of the others, where puzzles are
    four times as common as in the deals before (docs/puzzles.md has the counts)."""
    return range(DEALS) if game_source(number)[0] == "master" else range(DEALS - 1, DEALS)


def play_mined_game(number: int) -> tuple[str, list[str], GameState]:
    """Game ``number`` of the miner, played to its end: its seed, levels and final state."""
    levels = game_source(number)[1]
    seed = f"puzzles:{number}"
    bots = [make_bot(level, seat, random.Random(f"puzzles:bots:{number}:{seat}"),
                     **GAME_SETTINGS[level]) for seat, level in enumerate(levels)]
    return seed, levels, play_game(dealt(seed), bots)


def positions(final: GameState) -> Iterator[tuple[int, GameState]]:
    """Every position of a game with more than one legal card, with its play index."""
    position = dealt_like(final)
    for play, card in enumerate(final.plays):
        if len(position.legal_moves()) > 1:
            yield play, position.clone()
        position.play(card)


def dealt_like(state: GameState) -> GameState:
    """A new game with the deck, suits, first dealer and rules of ``state``."""
    return from_record({**to_record(state), "plays": []})


def examine(position: GameState, play: int, key: str, counts: Counter[str],
            spent: Counter[str]) -> dict[str, Any] | None:
    """Judge one position; a candidate (checked or not) as a log entry, else None."""
    cards = {"club": level_card("club", position, key)}
    first = judge(position, play, budget=JUDGE_BUDGET, seed=f"{key}:judge",
                  obvious=cards["club"])
    spent["judge"] += first.iterations
    spent[f"judge_deal{position.latest_deal}"] += first.iterations
    if not first.is_puzzle:
        counts[first.verdict] += 1
        if first.verdict in ("early", "obvious"):  # where the search stopped, to tune LOOKS
            counts[f"{first.verdict}@{max(x for x in LOOKS if x <= first.iterations)}"] += 1
        return None
    best = first.best
    if cards["club"] == best:
        cards["expert"] = level_card("expert", position, key)
        spent["levels"] += ExpertBot.ITERATIONS
        if cards["expert"] == best:
            counts["obvious"] += 1
            return None
    counts["candidates"] += 1
    check = judge(position, play, budget=CONFIRM_FACTOR * JUDGE_BUDGET,
                  seed=f"{key}:check", looks=CONFIRM_LOOKS)
    spent["check"] += check.iterations
    confirmed = check.is_puzzle and check.best == best
    counts["confirmed" if confirmed else "evaporated"] += 1
    entry: dict[str, Any] = {"play": play, "seat": position.to_move, "judge": first.to_json(),
                             "check": check.to_json(), "confirmed": confirmed}
    if confirmed:
        for level in RATING_LEVELS:
            if level not in cards:
                cards[level] = level_card(level, position, key)
        spent["levels"] += ExpertBot.ITERATIONS + MasterBot.ITERATIONS
        misses = [level for level in RATING_LEVELS if cards[level] != best]
        entry.update(levels={level: str(card) for level, card in cards.items()},
                     themes=themes_of(position, best), rating=starting_rating(misses))
    return entry


def mine_game(task: tuple[int, str | None]) -> dict[str, Any]:
    """One game's log line: game ``number`` of the miner, or the record in a file."""
    number, record_file = task
    start = time.process_time()
    if record_file is None:
        seed, levels, final = play_mined_game(number)
        line: dict[str, Any] = {"game": number, "seed": seed, "source": game_source(number)[0],
                                "levels": levels}
    else:
        final = from_record(json.loads(Path(record_file).read_text(encoding="utf-8")))
        seed = f"record:{Path(record_file).name}"
        line = {"game": number, "seed": seed, "source": "record", "record": to_record(final)}
    line["choices"] = encode_choices(final)
    line["play_cpu"] = round(time.process_time() - start, 2)
    counts: Counter[str] = Counter()
    spent: Counter[str] = Counter()
    candidates = []
    deals = deals_mined(number) if record_file is None else range(DEALS)
    for play, position in positions(final):
        if play // (4 * TRICKS_PER_DEAL) not in deals:
            continue
        counts["positions"] += 1
        entry = examine(position, play, f"{seed}#{play}", counts, spent)
        if entry is not None:
            candidates.append(entry)
    line.update(counts=dict(sorted(counts.items())), iterations=dict(sorted(spent.items())),
                cpu=round(time.process_time() - start, 2), candidates=candidates)
    return line


# -- the log ------------------------------------------------------------------------------

def read_log(log: Path) -> list[dict[str, Any]]:
    """The games a log holds, one dict each (a line cut short by a kill is dropped)."""
    lines, _ = common.finished_lines(log)
    return [json.loads(line) for line in lines]


def mine(args: argparse.Namespace) -> int:
    log: Path = args.log
    log.parent.mkdir(parents=True, exist_ok=True)
    done = {line["game"] for line in read_log(log)}
    tasks: list[tuple[int, str | None]] = [
        (n, None) for n in range(args.first, args.first + args.games) if n not in done]
    tasks += [(-1 - i, f) for i, f in enumerate(args.records) if -1 - i not in done]
    total = len(tasks)
    started = time.time()
    found = 0
    cpu = 0.0
    with multiprocessing.Pool(args.jobs) if args.jobs > 1 else _Serial() as pool:
        for count, line in enumerate(pool.imap_unordered(mine_game, tasks), 1):
            with log.open("a", encoding="utf-8") as handle:
                handle.write(json.dumps(line, separators=(",", ":")) + "\n")
            found += line["counts"].get("confirmed", 0)
            cpu += line["cpu"]
            rate = found / cpu * 3600 if cpu else 0.0
            show_progress(f"{count}/{total} games, {found} puzzles, {rate:.0f} per CPU-hour, "
                          f"{time.time() - started:.0f} s", count == total)
    return 0


class _Serial:
    """A pool of one: the games in this process, one after another."""

    def __enter__(self) -> _Serial:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def imap_unordered(self, function: Any, tasks: list[Any]) -> Iterator[Any]:
        return map(function, tasks)


# -- the check again, the set, the figures ---------------------------------------------------

def game_position(line: dict[str, Any], play: int) -> GameState:
    """The position at play ``play`` of a logged game."""
    start = from_record({**line["record"], "plays": []}) if "record" in line else dealt(
        line["seed"])
    return replay_choices(start, line["choices"], play)


def confirm(args: argparse.Namespace) -> int:
    """Run the check again over every candidate of the log; write the log with new checks."""
    lines = read_log(args.log)
    out: Path = args.out
    done = {line["game"] for line in read_log(out)} if out.exists() else set()
    for n, line in enumerate(lines, 1):
        if line["game"] in done:
            continue
        for entry in line["candidates"]:
            position = game_position(line, entry["play"])
            key = f"{line['seed']}#{entry['play']}"
            best = Card.parse(entry["judge"]["best"])
            check = judge(position, entry["play"], budget=CONFIRM_FACTOR * JUDGE_BUDGET,
                          seed=f"{key}:check", looks=CONFIRM_LOOKS)
            entry["check"] = check.to_json()
            entry["confirmed"] = check.is_puzzle and check.best == best
        with out.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(line, separators=(",", ":")) + "\n")
        show_progress(f"{n}/{len(lines)} games checked again", n == len(lines))
    return 0


def figures(lines: list[dict[str, Any]]) -> dict[str, Any]:
    """Puzzles per CPU-hour, the share of candidates that survive the check, and counts."""
    counts: Counter[str] = Counter()
    spent: Counter[str] = Counter()
    cpu = 0.0
    for line in lines:
        counts.update(line["counts"])
        spent.update(line["iterations"])
        cpu += line["cpu"]
    candidates = counts["candidates"]
    return {"games": len(lines), "cpu_hours": round(cpu / 3600, 2),
            "puzzles": counts["confirmed"],
            "puzzles_per_cpu_hour": round(counts["confirmed"] / cpu * 3600, 1) if cpu else None,
            "survive_check": round(counts["confirmed"] / candidates, 3) if candidates else None,
            "counts": dict(sorted(counts.items())), "iterations": dict(sorted(spent.items()))}


def puzzle_set(lines: list[dict[str, Any]]) -> dict[str, Any]:
    """The shipped set: every confirmed puzzle of the mined games, in game order (see
    docs/puzzles.md), its costs from the check's search, its themes and starting rating
    worked out again from the position and the levels' cards (so that a change to either
    rule needs no mining); each game's choices are cut after its last puzzle."""
    games: list[list[str]] = []
    puzzles: list[list[Any]] = []
    for line in sorted(lines, key=lambda line: line["game"]):
        confirmed = [e for e in line["candidates"] if e["confirmed"]]
        if not confirmed or "record" in line:
            continue
        last = max(e["play"] for e in confirmed)
        position = game_position(line, last)
        choices = encode_choices(position)
        index = len(games)
        games.append([line["seed"], choices])
        for entry in sorted(confirmed, key=lambda e: e["play"]):
            check = entry["check"]
            best = Card.parse(check["best"])
            costs = [[card, todays_cost(check, cost)]
                     for card, _, cost, _, _ in check["options"][1:]]
            misses = [level for level, card in entry["levels"].items() if card != str(best)]
            themes = themes_of(game_position(line, entry["play"]), best)
            puzzles.append([puzzle_id(line["seed"], entry["play"]), index, entry["play"],
                            str(best), costs, themes, starting_rating(misses)])
    return {"format": SET_FORMAT, "version": SET_VERSION, "games": games, "puzzles": puzzles}


def todays_cost(check: dict[str, Any], cost: int) -> int:
    """A card's cost in a check of the log, by today's rules of the review: a check made
    before the costs were calibrated (no ``rules``: the review's rules 1 and 2) kept the
    playouts' gap, rounded, as its cost; ``points_lost`` makes it today's."""
    rules = check.get("rules")
    if rules == REVIEW_RULES:
        return cost
    if rules is None:
        return points_lost(cost)
    raise ValueError(f"a check made by the review's rules {rules}, not {REVIEW_RULES}: "
                     "run confirm again")


def build(args: argparse.Namespace) -> int:
    data = puzzle_set(read_log(args.log))
    text = json.dumps(data, separators=(",", ":"))
    args.out.write_text(text + "\n", encoding="utf-8")
    size = len(gzip.compress(text.encode(), mtime=0))
    print(f"{args.out}: {len(data['puzzles'])} puzzles from {len(data['games'])} games, "
          f"{len(text):,} bytes, {size:,} gzipped")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    m = sub.add_parser("mine", help="mine games for puzzles, one log line a game")
    m.add_argument("--games", type=int, default=10)
    m.add_argument("--first", type=int, default=0, help="the first game's number")
    m.add_argument("--log", type=Path, required=True)
    m.add_argument("--jobs", type=int, default=1)
    m.add_argument("--records", nargs="*", default=[], help="game record files to mine too")
    c = sub.add_parser("confirm", help="run the check again over a log's candidates")
    c.add_argument("--log", type=Path, required=True)
    c.add_argument("--out", type=Path, required=True)
    b = sub.add_parser("build", help="write the shipped set from a log")
    b.add_argument("--log", type=Path, required=True)
    b.add_argument("--out", type=Path, default=DEFAULT_SET)
    f = sub.add_parser("figures", help="puzzles per CPU-hour and the check's survivors")
    f.add_argument("--log", type=Path, required=True)
    args = parser.parse_args()
    if args.command == "figures":
        print(json.dumps({**figures(read_log(args.log)), "load": common.load_average()}))
        return 0
    return {"mine": mine, "confirm": confirm, "build": build}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
