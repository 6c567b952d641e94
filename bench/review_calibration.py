"""Is the review calibrated? Its points lost against what the master actually gains.

    nice -n 19 python3 bench/review_calibration.py games --level club --games 200 --every 4 \\
        --log bench/results/calib-games-club.log [--first 0] [--budget 8000]
    nice -n 19 python3 bench/review_calibration.py games --level novice --games 400 \\
        --no-rerun --log bench/results/calib-games-novice.log
    nice -n 19 python3 bench/review_calibration.py cards --follow \\
        --from bench/results/calib-games-*.log --log bench/results/calib-cards.log
    nice -n 19 python3 bench/review_calibration.py again --epsilon 0.0 \\
        --from bench/results/calib-*.log --log bench/results/calib-again-0.0.log
    python3 bench/review_calibration.py summary bench/results/calib-*.log

**Per game** (``games``): game *g* is the match seeded ``calib-g``, club players at North,
East and West and a computer player of ``--level`` standing in for the person at South (its
randomness drawn afresh for every move from the game and the cards played, clock off). The
same deck is played again with the master in South's seat through the page's own rerun
(``table.rerun``: the same club players with the same seeds, so the master adds no noise
but its own), and South's cards are reviewed at the review's budget and seed. To save CPU,
``--every K`` reviews one of South's cards in K (which ones depends on the game) and the
summary counts each K times: an unbiased estimate of the game's total, its spread still
well below that of the master's gain. For every card searched the row keeps each legal
card's value over all the layouts and over each half of them (even and odd) and the standard
error of its paired gap to the played card: what any rule for turning the search into a
cost needs, so the summary judges the review's rule and the rules before it from the same
searches. ``--no-rerun`` plays no master: games only for the cards' measure.

**Per card** (``cards``): each card of those games with a cost by some rule is played on
from the TRUE position (the hidden cards as they were): the played card and every card a
rule calls best, then masters in every seat (``--master`` iterations a move, clock off) to
the end of the deal, ``--reps`` times with the same random numbers after every card (the
masters' seeds depend on the repetition, the seat and the cards played, never on the card),
valued at the deal's end as the review's search values it (the partnership's lead, with the
calypsos in progress counted by their chance of completion). The same is done with the
search's own playout policy (``--policy-reps`` playouts): what separates the playouts' error
from what sampling the hidden cards does; and with the table as it was, the master in
South's seat and the club players in the others: the continuation the master's gain in
South's seat is made of, card by card. ``--only RULE`` plays on only the cards that rule
charges (``--least N``: N points or more), by masters alone, at more ``--reps``: the summary
takes such a card's values, where they have more repetitions, for that rule and those it
covers (``COVERS``); cards played on by masters of other ``--master`` iterations are set
beside the same cards at the usual 300 (do stronger masters make more of a cost?).

**Searched again** (``again``): the review's costly cards that masters played on, searched
again as the review searched them (its budget, seed and layouts' randomness) but with the
playouts' random card at another rate (``--epsilon``; ``--sharp``: with the policy's sharper
rules): would other playouts give a gap that follows the masters' loss more closely? With
``--games``, every searched card of the games with a master's rerun is reviewed again by the
review's own rules with those playouts, each game logged as a game of its own ("club,
playouts at 0.75"): the summary's totals a game and its fitting bias for those playouts.

Every row is one JSON line; the same command skips what its log holds (a line cut short by a
kill is dropped) and refuses a log of other settings. ``summary`` reports, with 95% intervals:
per level, the mean of the review's total a game and of the master's gain in South's seat,
and their paired difference; per card, the slope of the measured loss on the review's cost
(least squares, its interval by resampling whole games).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import append_line, finished_lines, load_average, mean_interval
from calypso_core.bots import make_bot
from calypso_core.bots.policy import COMPLETION, make_rollout
from calypso_core.bots.review import (
    COST_BIAS,
    NOISE_SE,
    REVIEW_ITERATIONS,
    CardReviewer,
    Samples,
    cost_of,
    crossed,
    grade,
    paired_gap,
)
from calypso_core.bots.search import MasterBot
from calypso_core.cards import Card
from calypso_core.fastsim import Sim
from calypso_core.game import GameState, new_game
from calypso_core.table.match import Match, computer_players
from calypso_core.table.rerun import lead, master_player, rerun_game
from calypso_core.table.settings import Settings

SOUTH = 2
SEARCH_LEVELS = ("expert", "master")
VALUE = COMPLETION[MasterBot.COMPLETION]
BOOTSTRAP = 2000  # resamples of whole games for a slope's interval
BIAS_RESAMPLES = 400  # and for the fitting bias's (each a search of its own)


def settings_of(game: int) -> Settings:
    """Game ``game``'s match: club players, a person (the level under test) at South."""
    return Settings.from_request({"seed": f"calib-{game}", "level": "club",
                                  "people": [{"seat": SOUTH, "name": ""}]})


def level_player(level: str, game: int) -> Callable[[GameState], Card]:
    """A computer player of ``level`` in the person's seat, clock off."""

    def play(state: GameState) -> Card:
        rng = random.Random(f"calib-player:{game}:{len(state.plays)}")
        options = {"time_limit": None} if level in SEARCH_LEVELS else {}
        bot = make_bot(level, state.to_move, rng, **options)
        return bot.choose(state.observation(state.to_move), state.legal_moves())

    return play


def card_row(reviewer: CardReviewer, samples: Samples) -> dict[str, Any]:
    """What the rules need of one card's search: values over all layouts and each half, and
    every card's paired gap to the played one with its standard error."""
    review = reviewer.review
    assert review is not None
    legal = [str(c) for c in reviewer.legal]
    mine = legal.index(str(review.card))

    def means(rows: Samples) -> list[float]:
        total = sum(w for w, _ in rows)
        return [round(sum(w * r[i] for w, r in rows) / total, 2) for i in range(len(legal))]

    errors = [round(paired_gap(samples, i, mine)[1], 2) for i in range(len(legal))]
    return {"play": review.play, "trick": review.trick, "deal": review.deal,
            "card": str(review.card), "best": str(review.best), "cost": review.cost,
            "legal": legal, "v": means(samples), "a": means(samples[0::2]),
            "b": means(samples[1::2]), "se": errors, "n": len(samples)}


def master_table_game(start: GameState, game: int, south: Callable[[GameState], Card],
                      iterations: int) -> GameState:
    """A game at a table of masters (``iterations`` a move, clock off, their randomness from
    the game, the seat and the cards played: the same in a rerun) with ``south`` at South."""
    state = start.clone()
    while not state.is_over:
        seat = state.to_move
        state.play(south(state) if seat == SOUTH else table_master(state, game, iterations))
    return state


def table_master(state: GameState, game: int, iterations: int) -> Card:
    """A master of a table of masters: its randomness from the game, its seat and the cards
    played, the same in the game, its rerun and the cards played on from it."""
    seat = state.to_move
    rng = random.Random(f"calib-table:{game}:{seat}:{len(state.plays)}")
    bot = make_bot("master", seat, rng, iterations=iterations, time_limit=None)
    return bot.choose(state.observation(seat), state.legal_moves())


def game_row(level: str, game: int, budget: int, master: int | None, every: int,
             rerun_it: bool, table: str = "club", table_iterations: int = 0) -> dict[str, Any]:
    """Play game ``game`` with ``level`` at South, rerun it with the master there, review
    one of South's cards in ``every``: at the match's table of club players, or (``table``
    "master") among masters of ``table_iterations``."""
    settings = settings_of(game)
    start = Match(settings).state
    clock = time.process_time()
    if table == "master":
        original = master_table_game(start, game, level_player(level, game), table_iterations)
    else:
        original = rerun_game(settings, start, 0, level_player(level, game))
    played_s = time.process_time() - clock
    clock = time.process_time()
    rerun = None
    if rerun_it and table == "master":
        rerun = master_table_game(start, game, master_player(settings, 0, master),
                                  table_iterations)
    elif rerun_it:
        rerun = rerun_game(settings, start, 0, master_player(settings, 0, master))
    rerun_s = time.process_time() - clock
    clock = time.process_time()
    cards = []
    forced = 0
    position = new_game(rules=original.rules, suits=original.suits,
                        first_dealer=original.first_dealer, deck=original.deck)
    south = 0  # South's cards so far
    for play, card in enumerate(original.plays):
        if position.to_move == SOUTH:
            south += 1
            if south % every == game % every:
                reviewer = CardReviewer(position, card, play, budget=budget, seed="0",
                                        lines=False)
                if reviewer.review is not None:
                    forced += 1
                else:
                    while reviewer.step(budget) is None:
                        pass
                    assert reviewer.judgement is not None
                    cards.append(card_row(reviewer, reviewer.judgement.samples))
        position.play(card)
    review_s = time.process_time() - clock
    return {"kind": "game", "level": level, "game": game, "budget": budget,
            "master": master, "every": every, "table": table,
            "table_iterations": table_iterations, "you": lead(original, 0),
            "rerun": None if rerun is None else lead(rerun, 0),
            "total": sum(c["cost"] for c in cards), "forced": forced, "cards": cards,
            "plays": [str(c) for c in original.plays],
            "cpu": {"played": round(played_s, 1), "rerun": round(rerun_s, 1),
                    "review": round(review_s, 1)}, "load": load_average()}


# -- the rules: from a card's search to its cost ---------------------------------------------


def rules(card: dict[str, Any]) -> dict[str, tuple[float, str]]:
    """Each rule for turning a card's search into a cost: (cost, the card it calls best).
    ``review`` is the review's own (review.judgement: the crossed gap beyond the noise, less
    the playouts' bias), ``whole`` the same gap not less the bias (the review's rules 2,
    before the calibration), ``before`` the one before issue 45: the gap to the best card of
    all the layouts, counted beyond two standard errors."""
    legal, v, a, b, se = card["legal"], card["v"], card["a"], card["b"], card["se"]
    codes = [int(Card.parse(c)) for c in legal]
    mine = legal.index(card["card"])
    best = min(range(len(legal)), key=lambda i: (-v[i], codes[i]))
    gap = v[best] - v[mine]
    gaps = crossed(a, b, codes)
    beyond = best != mine and gaps[mine] > NOISE_SE * se[best]
    review = float(cost_of(gaps[mine], se[best])) if best != mine else 0.0
    return {
        "review": (review, legal[best]),
        "whole": (float(round(gaps[mine])) if beyond else 0.0, legal[best]),
        # the whole gap, but only beyond the bias: a threshold, not an offset
        "threshold": (float(round(gaps[mine])) if beyond and review else 0.0, legal[best]),
        "before": (float(round(gap) if gap > NOISE_SE * se[best] else 0), legal[best]),
        "gap": (gap, legal[best]),
        "crossed": (gaps[mine] if best != mine else 0.0, legal[best]),
    }


RULES = ("review", "whole", "threshold", "before", "gap", "crossed")
# The rules whose every costly card a rule's own costly cards include, each with the same best
# card: a card played on for that rule alone (``--only``) serves them too, unbiased.
COVERS = {"whole": ("whole", "review", "threshold"), "review": ("review", "threshold")}


# -- playing on from a card ------------------------------------------------------------------


PLAY_ON_ITERATIONS = 300  # the masters' iterations a move in the cards' measure
Mover = Callable[[GameState, int], Card]  # a seat's card in a position, in a repetition


def play_on(position: GameState, card: Card, reps: int, mover: Mover) -> list[float]:
    """The lead at the end of the deal (valued as the search values it) after ``card``, the
    deal played on by ``mover`` in every seat (a forced card played at once), once per
    repetition."""
    side = position.to_move & 1
    deal = position.deal
    values = []
    for rep in range(reps):
        state = position.clone()
        state.play(card)
        while not state.is_over and state.deal == deal:
            legal = state.legal_moves()
            state.play(legal[0] if len(legal) == 1 else mover(state, rep))
        values.append(VALUE(Sim.from_state(state), side))
    return values


def master_mover(iterations: int, salt: str) -> Mover:
    """Masters of ``iterations`` a move, clock off, seeded by ``salt``, the repetition, the
    seat and the cards played (never by the card played on from)."""

    def move(state: GameState, rep: int) -> Card:
        seat = state.to_move
        rng = random.Random(f"{salt}:{rep}:{seat}:{len(state.plays)}")
        bot = make_bot("master", seat, rng, iterations=iterations, time_limit=None)
        return bot.choose(state.observation(seat), state.legal_moves())

    return move


def table_mover(game: dict[str, Any], iterations: int, salt: str) -> Mover:
    """The table as it was: the master in South's seat (as ``master_mover``) and the game's
    other players in the others, the match's club players or the masters of a table of
    masters (the seats the master in your seat meets: what its gain is made of)."""
    south = master_mover(iterations, salt)
    if game.get("table") == "master":
        # The table's masters, seeded as in the game (master_table_game), whatever the rep.
        def others(state: GameState, rep: int) -> Card:
            return table_master(state, game["game"], game["table_iterations"])
    else:
        players = computer_players(settings_of(game["game"]), 0)

        def others(state: GameState, rep: int) -> Card:
            return players[state.to_move](state)[0]
    return lambda state, rep: (south if state.to_move == SOUTH else others)(state, rep)


def play_on_policy(position: GameState, card: Card, reps: int, salt: str) -> list[float]:
    """The same with the search's playout policy in every seat (its rate of random cards)."""
    side = position.to_move & 1
    rollout = make_rollout(MasterBot.EPSILON)
    start = Sim.from_state(position)
    values = []
    for rep in range(reps):
        sim = start.clone()
        sim.play_unchecked(int(card))
        rollout(sim, random.Random(f"{salt}:{rep}"), position.deal)
        values.append(VALUE(sim, side))
    return values


def master_pick(position: GameState, salt: str) -> Card:
    """The card the master (its own budget, clock off) plays for the seat to move."""
    seat = position.to_move
    bot = make_bot("master", seat, random.Random(salt), time_limit=None)
    return bot.choose(position.observation(seat), position.legal_moves())


def cards_row(game: dict[str, Any], reps: int, policy_reps: int, iterations: int,
              masters: bool = True, only: str | None = None, least: int = 0
              ) -> dict[str, Any]:
    """For every card of ``game`` searched by the review: in a game with a master's rerun,
    the card the master would have played there (``pick``); the true-position playout values
    of the played card, of every card a rule with a cost calls best and of the master's; and
    where one of those differs from the played card, their values played on by masters in
    every seat and at the table as it was (the master's gain in South's seat is, card by
    card, its pick's value less the played card's: the sum over a game estimates it without
    the chance of the later deals). With ``only`` a rule's name, only the cards that rule
    charges (``least`` points or more) are played on, by masters in every seat, against that
    rule's best card alone: the cheap way to more of that rule's cards (no pick, no table)."""
    position = Match(settings_of(game["game"])).state.clone()
    by_play = {c["play"]: c for c in game["cards"]}
    found = []
    clock = time.process_time()
    for play, text in enumerate(game["plays"]):
        card = by_play.get(play)
        if card is not None:
            costs = rules(card)
            salt = f"calib-on:{game['game']}:{play}"
            others = {b for cost, b in (costs.values() if only is None else [costs[only]])
                      if cost > 0 and cost >= least}
            row: dict[str, Any] = {"play": play}
            # a master's gain to sum card by card
            if masters and game["rerun"] is not None and only is None:
                row["pick"] = str(master_pick(position, f"calib-pick:{game['game']}:{play}"))
                others.add(row["pick"])
            if only is not None and not others:
                position.play(Card.parse(text))
                continue  # a card the rule does not charge: nothing to play on for it
            wanted = [card["card"], *sorted(others - {card["card"]})]
            row |= {"policy": {
                c: round(statistics.fmean(play_on_policy(position, Card.parse(c), policy_reps,
                                                         salt)), 2) for c in wanted}}
            if masters and len(wanted) > 1:
                ways = [("master", master_mover(iterations, salt))]
                if only is None:
                    ways.append(("table", table_mover(game, iterations, salt)))
                for way, mover in ways:
                    row[way] = {c: [round(x, 1) for x in play_on(
                        position, Card.parse(c), reps, mover)] for c in wanted}
            found.append(row)
        position.play(Card.parse(text))
    return {"kind": "cards", "level": game["level"], "table": game.get("table", "club"),
            "budget": game["budget"], "game": game["game"], "reps": reps if masters else 0,
            "iterations": iterations, "policy_reps": policy_reps, "only": only, "least": least,
            "cards": found,
            "cpu": round(time.process_time() - clock, 1), "load": load_average()}


# -- logs and the summary --------------------------------------------------------------------


def read_rows(log: Path, mend: bool) -> list[dict[str, Any]]:
    """The rows a run finished writing to ``log`` (with ``mend``, a cut last line dropped)."""
    lines, cut = finished_lines(log, mend)
    if cut and mend:
        print(f"{log}: dropped an unfinished last line", file=sys.stderr, flush=True)
    rows = []
    for number, line in enumerate(lines, 1):
        try:
            rows.append(json.loads(line))
        except ValueError as error:
            raise SystemExit(f"{log}, line {number}: {error}") from None
    return rows


def _level_of(row: dict[str, Any]) -> str:
    """A row's level, with its table when that is not the club players' ("club at masters")
    and the review's budget when that is not its own ("novice, 2000 iterations")."""
    table = row.get("table", "club")
    name = row["level"] if table == "club" else f"{row['level']} at {table}s"
    budget = row.get("budget", REVIEW_ITERATIONS)
    if budget != REVIEW_ITERATIONS:
        name = f"{name}, {budget} iterations"
    if "playouts" in row:  # a game's cards searched again (``again --games``)
        epsilon, sharp, seed = playouts_of(row)
        name += (f", playouts at {epsilon}{' with the sharper rules' if sharp else ''}"
                 f"{f' (seed {seed})' if seed != '0' else ''}")
    return name


def playouts_of(row: dict[str, Any]) -> tuple[float, bool, str]:
    """The playouts a row of ``again`` searched with: (random rate, sharper rules, layouts'
    seed), from a game row's ``playouts`` or a card row's own fields."""
    if "playouts" in row:
        epsilon, sharp, seed = row["playouts"]
        return epsilon, sharp, seed
    return row["epsilon"], row["sharp"], row.get("seed", "0")


def base_level(row: dict[str, Any]) -> str:
    """The level of the games a row of ``again --games`` reviewed again (``_level_of``
    without its playouts): where their cards' masters' values are kept."""
    return _level_of({k: v for k, v in row.items() if k != "playouts"})


def searched_cards(games: dict[tuple[str, int], dict[str, Any]]
                   ) -> dict[tuple[str, int, int], dict[str, Any]]:
    """Every searched card of ``games`` by (level, game, play)."""
    return {(lv, g, c["play"]): c for (lv, g), row in games.items() for c in row["cards"]}


def loss(values: dict[str, list[float]], best: str, played: str) -> float:
    """The mean value played on after ``best`` less that after ``played``: the loss."""
    return statistics.fmean(values[best]) - statistics.fmean(values[played])


def slope_of(points: list[tuple[int, float, float]], seed: str = "slope"
             ) -> tuple[float, float, float, float]:
    """Least squares of y on x over ``points`` (game, x, y): the slope, the bounds of its 95%
    interval from resampling whole games (cards of one game are not independent), and the
    intercept."""

    def fit(rows: list[tuple[int, float, float]]) -> tuple[float, float]:
        mx = statistics.fmean(x for _, x, _ in rows)
        my = statistics.fmean(y for _, _, y in rows)
        sxx = sum((x - mx) ** 2 for _, x, _ in rows)
        b = sum((x - mx) * (y - my) for _, x, y in rows) / sxx if sxx else 0.0
        return b, my - b * mx

    slope, intercept = fit(points)
    games: dict[int, list[tuple[int, float, float]]] = {}
    for point in points:
        games.setdefault(point[0], []).append(point)
    keys = sorted(games)
    rng = random.Random(seed)
    slopes = sorted(fit([p for _ in keys for p in games[rng.choice(keys)]])[0]
                    for _ in range(BOOTSTRAP))
    return slope, slopes[int(0.025 * BOOTSTRAP)], slopes[int(0.975 * BOOTSTRAP) - 1], intercept


def ratio_of(pairs: list[tuple[float, float]], seed: str = "ratio") -> str:
    """The ratio of the mean of the first to the mean of the second over ``pairs`` (a game's
    review total and the master's gain), with its 95% interval from resampling whole games;
    where a resample's mean gain is not above 0 the ratio has no bound, and says so."""
    def ratio(rows: list[tuple[float, float]]) -> float:
        gain = statistics.fmean(g for _, g in rows)
        return statistics.fmean(t for t, _ in rows) / gain if gain > 0 else math.inf

    rng = random.Random(seed)
    ratios = sorted(ratio([rng.choice(pairs) for _ in pairs]) for _ in range(BOOTSTRAP))
    low, high = ratios[int(0.025 * BOOTSTRAP)], ratios[int(0.975 * BOOTSTRAP) - 1]
    bounds = f"{low:.2f} to {high:.2f}" if math.isfinite(high) else f"{low:.2f} to no bound"
    return f"{ratio(pairs):.2f}x the gain ({bounds})"


def fitting_bias(games: list[tuple[int, list[float], float]], seed: str = "bias") -> str:
    """The bias the review's rule would take for its mean total to equal the master's mean
    gain, over ``games`` (each: how many cards a reviewed one counts for, its cards' costs
    by the rule ``whole``, the master's gain), with its 95% interval from
    resampling whole games; the review's own bias (``COST_BIAS``) beside it."""
    def bias(rows: list[tuple[int, list[float], float]]) -> float:
        gain = statistics.fmean(g for _, _, g in rows)

        def total(k: float) -> float:
            return statistics.fmean(
                every * sum(max(0, cost - k) for cost in costs) for every, costs, _ in rows)

        low, high = 0.0, 200.0
        if total(low) <= gain:
            return low
        for _ in range(30):  # the total falls as the bias grows
            middle = (low + high) / 2
            low, high = (middle, high) if total(middle) > gain else (low, middle)
        return (low + high) / 2

    rng = random.Random(seed)
    resamples = sorted(bias([rng.choice(games) for _ in games]) for _ in range(BIAS_RESAMPLES))
    return (f"the bias that makes the total the gain {bias(games):.0f} "
            f"({resamples[int(0.025 * BIAS_RESAMPLES)]:.0f} to "
            f"{resamples[int(0.975 * BIAS_RESAMPLES) - 1]:.0f}); the review's {COST_BIAS}")


Cards = dict[tuple[str, int, int], dict[str, Any]]  # a log's cards by (level, game, play)


@dataclass
class Logs:
    """What the logs hold: the games by (level, game); their cards played on for every rule,
    for one rule (``--only``) and by masters of other iterations (by those); the cards
    searched again with other playouts (``again``, by their playouts' settings); the loads."""

    games: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)
    played_on: Cards = field(default_factory=dict)
    deeper: Cards = field(default_factory=dict)
    stronger: dict[int, Cards] = field(default_factory=dict)
    again: dict[tuple[float, bool, str], Cards] = field(default_factory=dict)
    loads: list[float] = field(default_factory=list)


def load(logs: list[Path], mend: bool = False) -> Logs:
    """Every row of ``logs``, each card under its key (of several rows of a card, the one with
    the most repetitions)."""
    found = Logs()
    for log in logs:
        for row in read_rows(log, mend):
            found.loads.append(row["load"][0])
            if row["kind"] == "game":
                found.games[(_level_of(row), row["game"])] = row
            elif row["kind"] == "again":
                by_play = found.again.setdefault(playouts_of(row), {})
                for card in row["cards"]:
                    by_play[(row["of"], row["game"], card["play"])] = card
            else:
                for card in row["cards"]:
                    key = (_level_of(row), row["game"], card["play"])
                    kept = {**card, "iterations": row["iterations"], "reps": row["reps"],
                            "only": row.get("only")}
                    if kept["only"] is not None:
                        by = (found.deeper if kept["iterations"] == PLAY_ON_ITERATIONS
                              else found.stronger.setdefault(kept["iterations"], {}))
                        if kept["reps"] > by.get(key, {}).get("reps", 0):
                            by[key] = kept  # the most repetitions of it
                        continue
                    if "master" in found.played_on.get(key, {}) and "master" not in card:
                        continue  # a card played on by masters keeps those values
                    found.played_on[key] = kept
    return found


def summary(paths: list[Path]) -> str:
    """The report of every game and card in ``paths``."""
    logs = load(paths)
    games, played_on, deeper = logs.games, logs.played_on, logs.deeper
    out = []
    for level in sorted({level for level, _ in games}):
        rows = [g for (lv, _), g in sorted(games.items()) if lv == level and g["rerun"] is not None]
        if not rows:
            continue
        gains = [g["rerun"] - g["you"] for g in rows]
        gain, gain_half = mean_interval(gains)
        lines = [f"{level}: {len(rows)} games, the master's gain in South's seat "
                 f"{gain:+.0f} (±{gain_half:.0f}) a game in North-South's lead"]
        for name in RULES:
            totals = [g.get("every", 1) * sum(rules(c)[name][0] for c in g["cards"])
                      for g in rows]
            total, half = mean_interval(totals)
            less, less_half = mean_interval([t - d for t, d in zip(totals, gains, strict=True)])
            ratio = f", {ratio_of(list(zip(totals, gains, strict=True)))}" if gain > 0 else ""
            lines.append(f"  rule {name:8}: review's total {total:.0f} (±{half:.0f}) a game"
                         f"{ratio}; less the gain {less:+.0f} (±{less_half:.0f})")
        if gain > 0:
            lines.append("  " + fitting_bias([
                (g.get("every", 1), [c for c in (rules(card)["whole"][0] for card in g["cards"])
                                     if c > 0], g["rerun"] - g["you"]) for g in rows]))
        cpu = {k: statistics.fmean(g["cpu"][k] for g in rows) for k in rows[0]["cpu"]}
        lines.append("  CPU s a game: " + ", ".join(f"{k} {v:.1f}" for k, v in cpu.items())
                     + " (" + ", ".join(f"{n} games with one card in {k} reviewed" for k, n
                                        in sorted(Counter(g.get("every", 1) for g in rows).items()))
                     + ")")
        out.append("\n".join(lines))
    if played_on:
        out.append(picks_summary(games, played_on))
    if played_on or deeper:
        out.append(cards_summary(games, played_on, deeper))
    for iterations, cards in sorted(logs.stronger.items()):
        out.append(stronger_summary(games, played_on, deeper, iterations, cards))
    for playouts, cards in sorted(logs.again.items()):
        out.append(again_summary(logs, playouts, cards))
    for level in sorted({_level_of(g) for g in games.values() if "playouts" in g}):
        out.append(own_cards_summary(logs, level))
        again = {game: row for (name, game), row in games.items() if name == level}
        out.append(own_cards_summary(logs, base_level(next(iter(again.values()))), set(again),
                                     " (the review), over the same games"))
    if logs.loads:
        out.append(f"load average (1 min) over the rows: {min(logs.loads):.1f} to "
                   f"{max(logs.loads):.1f}")
    return "\n".join(out)


def picks_summary(games: dict[tuple[str, int], dict[str, Any]],
                  played_on: dict[tuple[str, int, int], dict[str, Any]]) -> str:
    """Per level, over the games whose every reviewed card was played on with the master's
    pick: the review's total a game against the master's gain in South's seat summed card
    by card (its pick's value less the played card's, played on by masters in every seat,
    or at the table as it was), the same identity the gain of a rerun rests on, without the
    chance of the cards of later deals; and how far the master's picks fall short of the
    review's best cards."""
    lines = ["card by card (each reviewed card's value played on from the true position):"]
    for level in sorted({level for level, _ in games}):
        rows = []
        for (lv, number), game in sorted(games.items()):
            keys = [(lv, number, c["play"]) for c in game["cards"]]
            if lv != level or not keys or not all(
                    k in played_on and "pick" in played_on[k] for k in keys):
                continue
            every = game.get("every", 1)
            sums = {"master": 0.0, "table": 0.0, "short": 0.0}
            for key, card in zip(keys, game["cards"], strict=True):
                row = played_on[key]
                mine, pick, best = card["card"], row["pick"], rules(card)["review"][1]
                for way in ("master", "table"):
                    if pick != mine:
                        sums[way] += loss(row[way], pick, mine)
                if best != pick:
                    sums["short"] += loss(row["master"], best, pick)
            total = sum(rules(c)["review"][0] for c in game["cards"])
            rows.append({k: every * v for k, v in sums.items()} | {"total": every * total})
        if len(rows) < 2:
            continue
        parts = [f"  {level}: {len(rows)} games; the review's total "
                 f"{mean_interval([r['total'] for r in rows])[0]:.0f}"]
        for way, words in (("master", "masters in every seat"),
                           ("table", "the master among the table's players")):
            gain, half = mean_interval([r[way] for r in rows])
            less, less_half = mean_interval([r["total"] - r[way] for r in rows])
            parts.append(f"the master's gain, {words}, {gain:+.0f} (±{half:.0f}): the review "
                         f"less it {less:+.0f} (±{less_half:.0f})")
        short, half = mean_interval([r["short"] for r in rows])
        parts.append(f"the master's picks short of the best cards by {short:.0f} (±{half:.0f})")
        lines.append("; ".join(parts))
        lines.append(_picks_in_review_values(level, games, played_on))
    return "\n".join(lines)


def _picks_in_review_values(level: str, games: dict[tuple[str, int], dict[str, Any]],
                            played_on: dict[tuple[str, int, int], dict[str, Any]]) -> str:
    """The same identity in the review's own values (no playing on): a game's review total
    against the master's pick's value less the played card's, summed, and the master's picks'
    crossed gaps behind the review's best (what the master itself would be charged)."""
    totals, picks, shorts = [], [], []
    cards = differ = 0
    for (lv, number), game in sorted(games.items()):
        keyed = [(c, played_on.get((lv, number, c["play"]))) for c in game["cards"]]
        if lv != level or not keyed or not all(row and "pick" in row for _, row in keyed):
            continue
        every = game.get("every", 1)
        total = pick_sum = short = 0.0
        for card, row in keyed:
            assert row is not None
            legal, values = card["legal"], card["v"]
            mine, pick = legal.index(card["card"]), legal.index(row["pick"])
            gaps = crossed(card["a"], card["b"], [int(Card.parse(c)) for c in legal])
            total += rules(card)["review"][0]
            pick_sum += values[pick] - values[mine]
            short += max(0.0, gaps[pick])
            cards += 1
            differ += row["pick"] != rules(card)["review"][1]
        totals.append(every * total)
        picks.append(every * pick_sum)
        shorts.append(every * short)
    if len(totals) < 2:
        return f"  {level}: fewer than two games with the master's picks"
    (t, th), (p, ph), (s, sh) = (mean_interval(x) for x in (totals, picks, shorts))
    return (f"  in the review's own values, {len(totals)} games: the review's total {t:.0f} "
            f"(±{th:.0f}); the master's pick less the played card, summed, {p:+.0f} (±{ph:.0f}); "
            f"the master's picks behind the review's best {s:.0f} (±{sh:.0f}) a game, another "
            f"card than the review's best at {differ} of {cards} cards")


def charged(games: dict[tuple[str, int], dict[str, Any]], played_on: Cards, deeper: Cards,
            name: str) -> list[tuple[tuple[str, int, int], dict[str, Any], float, str,
                                     dict[str, Any]]]:
    """The cards rule ``name`` charges that were played on from the true position, each as
    (key, its search, its cost, the card the rule calls best, its values played on). A card
    played on for one rule alone (``deeper``, ``--only``) counts for that rule and those it
    covers (``COVERS``) only, in place of the card's values played on for every rule where it
    has more repetitions."""
    searched = searched_cards(games)
    found = []
    for key in sorted(played_on.keys() | deeper.keys()):
        card = searched.get(key)
        base, deep = played_on.get(key), deeper.get(key)
        if deep is not None and name in COVERS.get(deep["only"], (deep["only"],)) and (
                base is None or "master" not in base or deep["reps"] > base["reps"]):
            row = deep
        elif base is not None:
            row = base
        else:
            continue
        if card is None:
            continue
        cost, best = rules(card)[name]
        if cost > 0 and best != card["card"] and best in row["policy"]:
            found.append((key, card, cost, best, row))
    return found


def cards_summary(games: dict[tuple[str, int], dict[str, Any]],
                  played_on: dict[tuple[str, int, int], dict[str, Any]],
                  deeper: dict[tuple[str, int, int], dict[str, Any]]) -> str:
    """Per rule: the slope of the masters' loss on the rule's cost over the cards it charges
    (``charged``); and where a gap goes wrong: the playouts on the true cards against the
    masters there, and the search's gap against the playouts on the true cards."""
    keys = sorted(played_on.keys() | deeper.keys())
    budgets = sorted({(c["iterations"], c["reps"], c["only"] or "every rule")
                      for c in [*played_on.values(), *deeper.values()] if c["reps"]})
    lines = [f"cards: {len(keys)} searched cards played on from the true position (masters at "
             f"{', '.join(f'{i} iterations x{r} for {o}' for i, r, o in budgets)})"]
    for name in RULES:
        masters, policy, gap_points, tables = [], [], [], []
        spreads: list[float] = []  # each card's loss's variance from its repetitions alone
        for key, card, cost, best, row in charged(games, played_on, deeper, name):
            playout = row["policy"][best] - row["policy"][card["card"]]
            gap_points.append((key[1], cost, playout))
            if "master" not in row:
                continue
            master = loss(row["master"], best, card["card"])
            masters.append((key[1], cost, master))
            spreads.append(repetitions_spread(row["master"], best, card["card"]))
            policy.append((key[1], playout, master))
            at_table = row if "table" in row else played_on.get(key)  # a deeper card's: its first
            if at_table is not None and best in at_table.get("table", {}):
                tables.append((key[1], cost, loss(at_table["table"], best, card["card"])))
        if len(masters) < 3:
            continue
        b, low, high, a = slope_of(masters)
        pb, plow, phigh, _ = slope_of(policy)
        gb, glow, ghigh, _ = slope_of(gap_points)
        table = "no table continuations"
        if len(tables) > 2:
            tb, tlow, thigh, ta = slope_of(tables)
            table = (f"at the table as it was (the master at South, club players): loss "
                     f"{statistics.fmean(y for _, _, y in tables):.1f}, slope {tb:.2f} "
                     f"({tlow:.2f} to {thigh:.2f}), intercept {ta:+.1f}")
        lines.append(
            f"  rule {name:8}: {len(masters)} cards with a cost, mean cost "
            f"{statistics.fmean(x for _, x, _ in masters):.1f}, the masters' loss "
            f"{statistics.fmean(y for _, _, y in masters):.1f}; slope {b:.2f} ({low:.2f} to "
            f"{high:.2f}), intercept {a:+.1f}. Masters' loss on the playouts' on the true "
            f"cards: slope {pb:.2f} ({plow:.2f} to {phigh:.2f}); playouts' on the true cards "
            f"on the cost, over {len(gap_points)} cards: slope {gb:.2f} ({glow:.2f} to "
            f"{ghigh:.2f}), so through them {pb * gb:.2f}; {table}")
        if name == "review":
            lines.extend(by_grade(masters))
            costliest = max(masters, key=lambda point: point[1])
            b, low, high, a = slope_of([point for point in masters if point is not costliest])
            lines.append(f"    without the costliest card ({costliest[1]:.0f} points, a loss of "
                         f"{costliest[2]:.0f}): slope {b:.2f} ({low:.2f} to {high:.2f}), "
                         f"intercept {a:+.1f}")
            lines.append(measure_reliability(masters, spreads))
    return "\n".join(lines)


def repetitions_spread(values: dict[str, list[float]], best: str, played: str) -> float:
    """The variance of a card's loss (``loss``) that its repetitions alone make: of the
    paired differences (the same random numbers after both cards), over their number; nan
    with one repetition."""
    paired = [b - p for b, p in zip(values[best], values[played], strict=True)]
    return statistics.variance(paired) / len(paired) if len(paired) > 1 else math.nan


def measure_reliability(points: list[tuple[int, float, float]], spreads: list[float]) -> str:
    """How much of the spread of the cards' losses (``points``: game, cost, loss) is the
    cards' own, in their true positions, and not their repetitions' (``spreads``)."""
    known = [v for v in spreads if not math.isnan(v)]
    if len(points) < 2 or not known:
        return "    the loss's repetitions: too few to say how much of its spread they make"
    total = statistics.variance([y for _, _, y in points])
    noise = statistics.fmean(known)
    share = max(0.0, 1 - noise / total) if total else 0.0
    return (f"    the loss spreads by {math.sqrt(total):.1f} from card to card, by "
            f"{math.sqrt(noise):.1f} from its repetitions alone (over {len(known)} cards): "
            f"{share:.2f} of its variance is the cards' own, in their true positions")


def stronger_summary(games: dict[tuple[str, int], dict[str, Any]],
                     played_on: dict[tuple[str, int, int], dict[str, Any]],
                     deeper: dict[tuple[str, int, int], dict[str, Any]], iterations: int,
                     rows: dict[tuple[str, int, int], dict[str, Any]]) -> str:
    """Do stronger masters make more of the cards' costs? The cards played on by masters of
    ``iterations`` (``rows``, for one rule each): their loss beside the same cards' at the
    usual iterations (``PLAY_ON_ITERATIONS``), paired, with the slope on the cost."""
    searched = searched_cards(games)
    pairs, points = [], []
    for key, row in rows.items():
        card, usual = searched.get(key), deeper.get(key) or played_on.get(key)
        if card is None or "master" not in row:
            continue
        cost, best = rules(card)[row["only"]]
        if cost <= 0 or best not in row["master"]:
            continue
        strong = loss(row["master"], best, card["card"])
        points.append((key[1], cost, strong))
        if usual is not None and best in usual.get("master", {}):
            pairs.append((strong, loss(usual["master"], best, card["card"])))
    if len(points) < 3 or not pairs:
        return f"masters at {iterations} iterations: fewer than three cards, or none at both"
    b, low, high, a = slope_of(points)
    strong, strong_half = mean_interval([x for x, _ in pairs])
    usual_loss, usual_half = mean_interval([y for _, y in pairs])
    more, more_half = mean_interval([x - y for x, y in pairs])
    least = min(cost for _, cost, _ in points)
    return (f"masters at {iterations} iterations a move: {len(points)} cards costing {least:.0f} "
            f"or more, mean cost {statistics.fmean(x for _, x, _ in points):.1f}; over the "
            f"{len(pairs)} also played on at {PLAY_ON_ITERATIONS}, the loss {strong:.1f} "
            f"(±{strong_half:.1f}) against {usual_loss:.1f} (±{usual_half:.1f}), "
            f"{more:+.1f} (±{more_half:.1f}); slope on the cost {b:.2f} ({low:.2f} to "
            f"{high:.2f}), intercept {a:+.1f}")


def reviewer_with(epsilon: float, sharp: bool) -> type[CardReviewer]:
    """The review's card reviewer, its search's playouts at another random rate, and with the
    policy's sharper rules (``SearchBot.LEAD_OWN_FROM``, ``OVERTAKE_BELOW``) or not."""
    sharper = {"LEAD_OWN_FROM": 9, "OVERTAKE_BELOW": 10} if sharp else {}
    search = type("Playouts", (MasterBot,), {"EPSILON": epsilon, **sharper})
    return type("Reviewer", (CardReviewer,), {"SEARCHER": search})


def reviewed_again(game: dict[str, Any], plays: set[int], epsilon: float, sharp: bool,
                   seed: str) -> Iterator[CardReviewer]:
    """Cards ``plays`` of ``game`` reviewed again as the review reviewed them (its budget and
    seed; another ``seed``: other layouts) with other playouts (``reviewer_with``), each
    reviewer once its review is done."""
    position = Match(settings_of(game["game"])).state.clone()
    reviewer_class = reviewer_with(epsilon, sharp)
    budget = game["budget"]
    for play, text in enumerate(game["plays"]):
        if play in plays:
            reviewer = reviewer_class(position, Card.parse(text), play, budget=budget,
                                      seed=seed, lines=False)
            while reviewer.step(budget) is None:
                pass
            yield reviewer
        position.play(Card.parse(text))


def again_row(game: dict[str, Any], plays: list[int], epsilon: float, sharp: bool,
              seed: str = "0") -> dict[str, Any]:
    """Cards ``plays`` of ``game`` searched again with other playouts (``reviewed_again``;
    another ``seed``: the control for the cards having been chosen by the review's own
    search): each card's gap, the review's best card's value less the played card's over all
    the layouts."""
    by_play = {c["play"]: c for c in game["cards"]}
    found = []
    clock = time.process_time()
    for reviewer in reviewed_again(game, set(plays), epsilon, sharp, seed):
        judged = reviewer.judgement
        assert judged is not None
        card = by_play[reviewer.play]
        best = judged.index(rules(card)["review"][1])
        mine = judged.index(card["card"])
        found.append({"play": reviewer.play,
                      "gap": round(judged.values[best] - judged.values[mine], 2),
                      "n": judged.layouts})
    return {"kind": "again", "of": _level_of(game), "game": game["game"],
            "epsilon": epsilon, "sharp": sharp, "seed": seed, "budget": game["budget"],
            "cards": found,
            "cpu": round(time.process_time() - clock, 1), "load": load_average()}


def again_game(game: dict[str, Any], epsilon: float, sharp: bool, seed: str = "0"
               ) -> dict[str, Any]:
    """Every searched card of ``game`` reviewed again, by the review's own rules, with other
    playouts (``reviewed_again``): a game row of its own (``_level_of``: "club, playouts at
    0.75"), the same game, the master's same gain, for the summary's totals a game and its
    fitting bias with those playouts."""
    clock = time.process_time()
    cards = []
    for reviewer in reviewed_again(game, {c["play"] for c in game["cards"]}, epsilon, sharp,
                                   seed):
        assert reviewer.judgement is not None
        cards.append(card_row(reviewer, reviewer.judgement.samples))
    return {**game, "playouts": [epsilon, sharp, seed], "cards": cards,
            "total": sum(c["cost"] for c in cards),
            "cpu": {**game["cpu"], "review": round(time.process_time() - clock, 1)},
            "load": load_average()}


def own_cards_summary(logs: Logs, level: str, only: set[int] | None = None, label: str = ""
                      ) -> str:
    """The cards a review with other playouts (``again --games``: the games of ``level``)
    charges itself, where masters played on from the true position after the card and after
    that review's best card (for any rule): the masters' loss on that review's cost, slope
    and correlation, with and without the costliest card. Its own cards, not the review's:
    on the review's, another search gains from not sharing the misjudgements they were
    chosen by. ``only``: those games alone; ``label`` follows the level's name."""
    points, unmeasured = [], 0
    for (name, game), row in sorted(logs.games.items()):
        if name != level or (only is not None and game not in only):
            continue
        base = base_level(row)
        for card in row["cards"]:
            cost, best = rules(card)["review"]
            if cost <= 0 or best == card["card"]:
                continue
            key = (base, game, card["play"])
            measured = [r["master"] for r in (logs.deeper.get(key), logs.played_on.get(key))
                        if r is not None and best in r.get("master", {})]
            if not measured:
                unmeasured += 1
                continue
            values = max(measured, key=lambda m: len(m[best]))  # the most repetitions
            points.append((game, cost, loss(values, best, card["card"])))
    head = (f"{level}{label}: its own costly cards, {len(points) + unmeasured}, of which "
            f"{len(points)} played on by masters after its best card")
    if len(points) < 3:
        return head
    costliest = max(range(len(points)), key=lambda i: points[i][1])
    lines = [head + f": mean cost {statistics.fmean(x for _, x, _ in points):.1f}, the "
             f"masters' loss {statistics.fmean(y for _, _, y in points):.1f}"]
    return "\n".join(lines + follows("its cost", points, costliest))


def correlation(points: list[tuple[int, float, float]]) -> float:
    """The correlation of x and y over ``points`` (game, x, y); nan when either is constant."""
    try:
        return statistics.correlation([x for _, x, _ in points], [y for _, _, y in points])
    except statistics.StatisticsError:
        return math.nan


def again_summary(logs: Logs, playouts: tuple[float, bool, str], cards: Cards) -> str:
    """Would other playouts make a cost that follows the masters' loss? Over the review's
    costly cards searched again with ``playouts`` (``cards``): the masters' loss on that
    search's gap, on the review's own cost and on the gap of the review's playouts knowing
    every hidden card (the true position), slope and correlation, over all of them and
    without the costliest (by the review)."""
    epsilon, sharp, seed = playouts
    mine, review, true = [], [], []
    for key, card, cost, best, row in charged(logs.games, logs.played_on, logs.deeper,
                                              "review"):
        if key in cards and "master" in row:
            lost = loss(row["master"], best, card["card"])
            mine.append((key[1], cards[key]["gap"], lost))
            review.append((key[1], cost, lost))
            true.append((key[1], row["policy"][best] - row["policy"][card["card"]], lost))
    if len(mine) < 3:
        return f"playouts at {epsilon}: fewer than three of the review's costly cards"
    costliest = max(range(len(review)), key=lambda i: review[i][1])
    lines = [f"the review's costly cards searched again with playouts at a random rate of "
             f"{epsilon}{' and the sharper rules' if sharp else ''}"
             f"{f', layouts of seed {seed}' if seed != '0' else ''}: {len(mine)} cards"]
    for name, points in (("that search's gap", mine), ("the review's cost", review),
                         ("the master's playouts' gap on the true cards", true)):
        lines.extend(follows(name, points, costliest))
    return "\n".join(lines)


def follows(name: str, points: list[tuple[int, float, float]], costliest: int) -> list[str]:
    """How the masters' loss follows ``name`` over ``points`` (game, x, the loss): slope and
    correlation over all of them, and without point ``costliest``."""
    lines = []
    for which, some in (("", points), (", without the costliest", [
            point for i, point in enumerate(points) if i != costliest])):
        b, low, high, a = slope_of(some)
        lines.append(f"  the masters' loss on {name}{which}: slope {b:.2f} ({low:.2f} to "
                     f"{high:.2f}), intercept {a:+.1f}, correlation {correlation(some):.3f}")
    return lines


def by_grade(points: list[tuple[int, float, float]]) -> list[str]:
    """The review's costly cards (game, cost, the masters' loss) by the grade of their cost
    (none below the inaccuracy's points): the mean cost beside the mean loss, with its 95%
    interval (the cards taken as independent)."""
    lines = []
    for name in ("no grade", "inaccuracy", "mistake", "blunder"):
        rows = [(x, y) for _, x, y in points if (grade(round(x)) or "no grade") == name]
        if not rows:
            continue
        loss, half = mean_interval([y for _, y in rows])
        lines.append(f"    {name:10}: {len(rows)} cards, mean cost "
                     f"{statistics.fmean(x for x, _ in rows):.1f}, the masters' loss "
                     f"{loss:.1f} (±{half:.1f})")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    g = sub.add_parser("games", help="play, rerun and review games")
    g.add_argument("--level", required=True, choices=("random", "novice", "club", "expert",
                                                      "master"))
    g.add_argument("--games", type=int, default=200)
    g.add_argument("--first", type=int, default=0)
    g.add_argument("--budget", type=int, default=REVIEW_ITERATIONS)
    g.add_argument("--master", type=int, default=None, help="the rerun master's iterations")
    g.add_argument("--no-rerun", action="store_true",
                   help="no master in South's seat: games only for the cards' measure")
    g.add_argument("--table", choices=("club", "master"), default="club",
                   help="the other seats: the match's club players, or masters")
    g.add_argument("--table-iterations", type=int, default=300,
                   help="the masters' iterations a move at a table of masters")
    g.add_argument("--every", type=int, default=1,
                   help="review one of South's cards in EVERY (the total counts each EVERY "
                        "times)")
    g.add_argument("--log", type=Path, required=True)
    c = sub.add_parser("cards", help="play the games' costly cards on from the true position")
    c.add_argument("--from", dest="source", type=Path, nargs="+", required=True)
    c.add_argument("--log", type=Path, required=True)
    c.add_argument("--reps", type=int, default=2)
    c.add_argument("--policy-reps", type=int, default=200)
    c.add_argument("--master", type=int, default=PLAY_ON_ITERATIONS,
                   help="the masters' iterations a move (another than the usual 300: the summary "
                        "compares them on the same cards)")
    c.add_argument("--games", type=int, default=10_000, help="only games numbered below this")
    c.add_argument("--first", type=int, default=0, help="only games numbered from this")
    c.add_argument("--only", choices=RULES, default=None,
                   help="play on only the cards this rule charges, by masters alone (no pick, "
                        "no table): the cheap way to more of one rule's cards")
    c.add_argument("--least", type=int, default=0,
                   help="with --only, only the cards that rule charges this many points or more")
    c.add_argument("--policy-only", action="store_true",
                   help="only the playout policy's values on the true cards (cheap: every card "
                        "of every game, for the playouts' slope on the cost)")
    c.add_argument("--follow", action="store_true",
                   help="wait for more games in the --from logs (a run still playing them)")
    a = sub.add_parser("again", help="search the review's costly cards played on by masters "
                                     "again, with other playouts")
    a.add_argument("--from", dest="source", type=Path, nargs="+", required=True,
                   help="the logs of the games and of their cards played on")
    a.add_argument("--epsilon", type=float, required=True,
                   help=f"the playouts' random rate (the master's: {MasterBot.EPSILON})")
    a.add_argument("--sharp", action="store_true", help="with the policy's sharper rules")
    a.add_argument("--seed", default="0",
                   help="the layouts' seed (the review's: 0; another: a control for the cards "
                        "having been chosen by the review's own search)")
    a.add_argument("--games", action="store_true",
                   help="every searched card of the games with a master's rerun, not only the "
                        "costly ones played on: games of their own, for the totals and the bias")
    for one in (c, a):
        one.add_argument("--part", default="0/1", metavar="K/N",
                         help="only games whose number is K modulo N (processes in parallel, "
                              "one log each)")
    a.add_argument("--log", type=Path, required=True)
    s = sub.add_parser("summary", help="report what the logs hold")
    s.add_argument("logs", type=Path, nargs="+")
    args = parser.parse_args()
    if args.mode == "summary":
        print(summary(args.logs))
        return 0
    args.log.parent.mkdir(parents=True, exist_ok=True)
    rows = read_rows(args.log, mend=True)
    if args.mode == "games":
        return play_games(args, rows)
    if args.mode == "again":
        return search_again(args, rows)
    return play_cards(args, rows)


def play_games(args: argparse.Namespace, rows: list[dict[str, Any]]) -> int:
    mine = [r for r in rows if r["level"] == args.level]
    if any(r["budget"] != args.budget or r["master"] != args.master
           or r.get("table", "club") != args.table for r in mine):
        raise SystemExit(f"{args.log} holds games of other budgets: use another log")
    done = {r["game"] for r in mine}
    for game in range(args.first, args.first + args.games):
        if game in done:
            continue
        row = game_row(args.level, game, args.budget, args.master, args.every,
                       not args.no_rerun, args.table, args.table_iterations)
        append_line(args.log, row)
        print(f"{args.level} game {game}: you {row['you']:+}, master {row['rerun']}, "
              f"review {row['total']}; CPU {row['cpu']}; load {row['load']}",
              file=sys.stderr, flush=True)
    return 0


def play_cards(args: argparse.Namespace, rows: list[dict[str, Any]]) -> int:
    reps = 0 if args.policy_only else args.reps
    if args.least and args.only is None:
        raise SystemExit("--least goes with --only")
    if any(r["iterations"] != args.master or r["reps"] != reps
           or r.get("only") != args.only or r.get("least", 0) != args.least for r in rows):
        raise SystemExit(f"{args.log} holds cards of other budgets: use another log")
    done = {(_level_of(r), r["game"]) for r in rows}
    part, parts = (int(x) for x in args.part.split("/"))
    while True:
        todo = [g for source in args.source for g in read_rows(source, mend=False)
                if (_level_of(g), g["game"]) not in done and args.first <= g["game"] < args.games
                and g["game"] % parts == part]
        for game in todo:
            row = cards_row(game, args.reps, args.policy_reps, args.master,
                            not args.policy_only, args.only, args.least)
            append_line(args.log, row)
            done.add((_level_of(game), game["game"]))
            print(f"cards of {game['level']} game {game['game']}: "
                  f"{sum('master' in c for c in row['cards'])} played on, CPU {row['cpu']} s, "
                  f"load {row['load']}", file=sys.stderr, flush=True)
        if not args.follow:
            return 0
        if not todo:
            time.sleep(60)


def search_again(args: argparse.Namespace, rows: list[dict[str, Any]]) -> int:
    playouts = (args.epsilon, args.sharp, args.seed)
    kind = "game" if args.games else "again"
    searched = [r for r in rows if r["kind"] == kind and ("playouts" in r or "epsilon" in r)]
    if len(searched) < len(rows) or any(playouts_of(r) != playouts for r in searched):
        raise SystemExit(f"{args.log} holds searches of other playouts: use another log")
    logs = load(args.source)
    part, parts = (int(x) for x in args.part.split("/"))
    if args.games:
        done_games = {r["game"] for r in rows}
        for game in sorted(logs.games.values(), key=lambda g: (_level_of(g), g["game"])):
            if ("playouts" in game or game["rerun"] is None or game["game"] in done_games
                    or game["game"] % parts != part):
                continue
            row = again_game(game, args.epsilon, args.sharp, args.seed)
            append_line(args.log, row)
            print(f"{_level_of(row)} game {row['game']}: review {row['total']} (was "
                  f"{game['total']}), CPU {row['cpu']['review']} s, load {row['load']}",
                  file=sys.stderr, flush=True)
        return 0
    done = {(r["of"], r["game"]) for r in rows}
    todo: dict[tuple[str, int], list[int]] = {}
    for key, _, _, _, row in charged(logs.games, logs.played_on, logs.deeper, "review"):
        if "master" in row and key[:2] not in done and key[1] % parts == part:
            todo.setdefault(key[:2], []).append(key[2])
    for which, plays in sorted(todo.items()):
        row = again_row(logs.games[which], plays, args.epsilon, args.sharp, args.seed)
        append_line(args.log, row)
        print(f"{which[0]} game {which[1]}: {len(plays)} cards searched again, CPU {row['cpu']} s, "
              f"load {row['load']}", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
