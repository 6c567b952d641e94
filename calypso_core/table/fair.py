"""A fair deal at a remote table (docs/remote.md): commit, reveal, mix.

The host's page draws a secret seed and sends every guest its ``commitment`` (a SHA-256)
before any guest sends a seed of its own; the deal's seed is ``fair_seed`` of all of them, so
that nobody — the host included — can choose the cards. When the match ends the host sends
every guest its records and the seeds, and ``check_fair`` proves the record was dealt from
the mix of the seed the host committed to and the guests' seeds; ``check_hands`` that a
guest was dealt in it the hands its page was shown (a host that dealt from another deck).

What this does not do: the host's device holds every hand while the game is played (it runs
the engine), as the dealer at a kitchen table could see them; a host that colludes with a
guest, or leaves before the end, is caught by nothing here.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..game import new_game
from ..record import from_record
from .match import game_seed
from .story import PLAYS_PER_DEAL

PREFIX = "fair:"
# Every seed of a fair deal is 128 random bits in hex: the host's is secret until the end (a
# guessable one would let a guest compute every hand from its commitment).
SEED = re.compile(r"[0-9a-f]{32}")


class FairDealError(ValueError):
    """A seed of a fair deal that is malformed, or a record the seeds did not deal."""


def commitment(host_seed: Any) -> str:
    """The commitment the host sends before the guests' seeds: SHA-256 of its seed, in hex."""
    _check_seed("the host's seed", host_seed)
    return hashlib.sha256(host_seed.encode()).hexdigest()


def fair_seed(host_seed: Any, guest_seeds: Mapping[int, Any]) -> str:
    """The deal's seed: SHA-256 of the host's seed and each guest's, by seat, in hex."""
    _check_seed("the host's seed", host_seed)
    # No guest's seed: a table started before any guest was seated (computers in every
    # guest's seat); the host's secret seed alone, still revealed at the end.
    if len(guest_seeds) > 3:
        raise FairDealError(f"a fair deal mixes 0 to 3 guests' seeds, not {len(guest_seeds)}")
    for seat, seed in guest_seeds.items():
        if type(seat) is not int or not 0 <= seat <= 3:
            raise FairDealError(f"a guest's seat is 0 to 3, not {seat!r}")
        _check_seed(f"the seed of seat {seat}", seed)
    mixed = json.dumps([host_seed, sorted(guest_seeds.items())], separators=(",", ":"))
    return PREFIX + hashlib.sha256(mixed.encode()).hexdigest()


def check_fair(recipe: Mapping[str, Any], host_seed: Any, guest_seeds: Mapping[int, Any],
               committed: Any) -> str:
    """Check that a match's recipe (``{record, settings}``) was dealt from the seed the host
    committed to mixed with the guests'; returns the deal's seed, else raises FairDealError
    naming the first thing that does not hold (a RecordError for an impossible record)."""
    if commitment(host_seed) != committed:
        raise FairDealError("the host's seed does not match the commitment it sent first")
    seed = fair_seed(host_seed, guest_seeds)
    settings, record = recipe.get("settings"), recipe.get("record")
    if not isinstance(settings, dict) or settings.get("seed") != seed:
        raise FairDealError(f"the game's seed is not the mix of the seeds ({seed})")
    history = recipe.get("history", [])
    if not isinstance(history, list):
        raise FairDealError("the match's earlier games are not a list")
    # Each game of the match, the earlier ones first: every play legal (else a RecordError),
    # and its cards the ones its game's seed deals.
    for index, each in enumerate([*history, record]):
        game = from_record(each)
        dealt = new_game(game_seed(seed, index))
        if game.deck != dealt.deck or (index == 0 and game.first_dealer != dealt.first_dealer):
            raise FairDealError(f"the cards of game {index + 1} are not the ones its seed deals")
    return seed


class HandsDiffer(FairDealError):
    """The hand a seat was dealt in a game's deal of the recipe is not the one its guest saw:
    ``game`` and ``deal`` name it (1-based)."""

    def __init__(self, game: int, deal: int) -> None:
        super().__init__(f"the hand of deal {deal} of game {game} is not the one the guest saw")
        self.game, self.deal = game, deal


def check_hands(recipe: Mapping[str, Any], seat: int,
                hands: Sequence[Sequence[Sequence[str] | None]]) -> None:
    """Check that in each game of a recipe (already checked: ``check_fair``) ``seat`` was dealt,
    at the start of each deal, the cards its guest saw (``hands``: by game, by deal, a list of
    codes or None where the guest saw none); raises HandsDiffer naming the first that is not."""
    games = [*recipe.get("history", []), recipe["record"]]
    for index, (record, seen) in enumerate(zip(games, hands, strict=False)):
        game = from_record(record)
        again = game.before(0)
        for deal, hand in enumerate(seen):
            plays = deal * PLAYS_PER_DEAL
            if hand is None or plays > len(game.plays):
                continue
            while len(again.plays) < plays:
                again.play(game.plays[len(again.plays)])
            if sorted(str(card) for card in again.hand(seat)) != sorted(hand):
                raise HandsDiffer(index + 1, deal + 1)


def _check_seed(what: str, seed: Any) -> None:
    if not isinstance(seed, str) or not SEED.fullmatch(seed):
        raise FairDealError(f"{what} must be 32 hexadecimal digits, not {str(seed)[:40]!r}")
