"""Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2013), as the puzzles
keep one for the person on their device.

A rating is a value (1500 to start), its deviation (how unsure it is: 350 to start) and a
volatility (how erratic the results are: 0.06). ``rate`` takes one rating period's results
against opponents of known ratings and returns the new rating; a solved puzzle is a win
against the puzzle's rating, a missed one a loss. The paper's worked example is a test
(tests/test_puzzles.py).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

SCALE = 173.7178  # Glicko-2's scale: (rating - 1500) / SCALE
START = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
TAU = 0.5  # how fast the volatility may change (the paper suggests 0.3 to 1.2)
EPSILON = 0.000001  # the volatility's iteration stops within this
# A deviation never drops below this, so that a rating keeps moving with every puzzle (a
# person's play changes; with no floor, hundreds of puzzles would freeze it), nor rises over
# the start's.
MIN_DEVIATION = 80.0
# Ratings a person's device may hold; anything else is not a rating this engine gave.
LIMITS = {"rating": (0.0, 4000.0), "deviation": (0.0, START_DEVIATION),
          "volatility": (0.0, 1.0)}


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating on the Glicko scale: value, deviation and volatility."""

    rating: float = START
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY

    def to_json(self) -> dict[str, float]:
        """JSON-ready: the three numbers, rounded as a device keeps them."""
        return {"rating": round(self.rating, 2), "deviation": round(self.deviation, 2),
                "volatility": round(self.volatility, 6)}

    @classmethod
    def from_json(cls, data: Any) -> Rating:
        """A rating as ``to_json`` gives it; anything else raises ``ValueError``."""
        if not isinstance(data, dict) or set(data) != set(LIMITS):
            raise ValueError(f"a rating is {{{', '.join(LIMITS)}}}, not {str(data)[:60]}")
        for key, (low, high) in LIMITS.items():
            value = data[key]
            if type(value) not in (int, float) or not low <= value <= high or (
                    key != "rating" and value == 0):
                raise ValueError(f"a rating's {key} is a number in ({low:g}, {high:g}], "
                                 f"not {str(value)[:20]}")
        return cls(float(data["rating"]), float(data["deviation"]), float(data["volatility"]))


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / math.pi**2)


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The player's expected score (0 to 1) against the opponent."""
    return _expected((player.rating - START) / SCALE, (opponent.rating - START) / SCALE,
                     opponent.deviation / SCALE)


def rate(player: Rating, results: Sequence[tuple[Rating, float]], *, tau: float = TAU,
         floor: float = 0.0) -> Rating:
    """The player's rating after one rating period: ``results`` are (opponent, score) pairs,
    a score being 1 (won), 0.5 (drawn) or 0 (lost). No results: only the deviation grows.
    ``floor`` is the least deviation to keep (``MIN_DEVIATION`` for the puzzles)."""
    mu = (player.rating - START) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not results:
        grown = min(math.sqrt(phi * phi + sigma * sigma) * SCALE, START_DEVIATION)
        return Rating(player.rating, max(grown, floor), sigma)
    games = [((o.rating - START) / SCALE, o.deviation / SCALE, s) for o, s in results]
    v_inverse = 0.0
    total = 0.0
    for mu_j, phi_j, score in games:
        g = _g(phi_j)
        e = _expected(mu, mu_j, phi_j)
        v_inverse += g * g * e * (1 - e)
        total += g * (score - e)
    v = 1 / v_inverse
    delta = v * total
    sigma = _volatility(delta, phi, v, sigma, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    mu = mu + phi * phi * total
    deviation = min(max(phi * SCALE, floor), START_DEVIATION)
    return Rating(SCALE * mu + START, deviation, sigma)


def _volatility(delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    """Step 5 of the paper: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        d = phi * phi + v + ex
        return ex * (delta * delta - d) / (2 * d * d) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)
