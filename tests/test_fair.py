"""A fair deal at a remote table (calypso_core/table/fair.py, docs/remote.md): the host
commits to its seed before the guests send theirs, the deal's seed mixes them all, and a
record is checked against the seeds revealed at the end."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from protocol_calls import call, finished_hosted_game, ok

from calypso_core import from_record, new_game
from calypso_core.table.fair import FairDealError, check_fair, commitment, fair_seed

HOST = "0123456789abcdef" * 2
BEN, CLEO = "f" * 32, "a1" * 16
pytestmark = pytest.mark.usefixtures("fresh_table")


def test_the_commitment_is_the_sha256_of_the_hosts_seed() -> None:
    assert commitment(HOST) == hashlib.sha256(HOST.encode()).hexdigest()


def test_the_deals_seed_depends_on_every_seed_and_on_the_seats() -> None:
    seed = fair_seed(HOST, {0: BEN, 1: CLEO})
    assert seed.startswith("fair:") and len(seed) == 5 + 64
    assert fair_seed(HOST, {1: CLEO, 0: BEN}) == seed  # the order they arrived in: none
    others = {fair_seed("e" * 32, {0: BEN, 1: CLEO}), fair_seed(HOST, {0: "e" * 32, 1: CLEO}),
              fair_seed(HOST, {0: BEN, 1: "e" * 32}), fair_seed(HOST, {0: CLEO, 1: BEN}),
              fair_seed(HOST, {0: BEN})}
    assert seed not in others and len(others) == 5
    # A table started before any guest was seated: the host's seed alone.
    assert fair_seed(HOST, {}) not in others | {seed}


@pytest.mark.parametrize(("host", "guests", "says"), [
    ("friends", {0: BEN}, "the host's seed must be 32 hexadecimal digits"),
    (HOST.upper(), {0: BEN}, "the host's seed must be"),
    (HOST, {0: BEN, 1: BEN, 2: BEN, 3: BEN}, "not 4"),
    (HOST, {4: BEN}, "a guest's seat is 0 to 3, not 4"),
    (HOST, {0: BEN[:-1]}, "the seed of seat 0 must be 32 hexadecimal digits"),
    (HOST, {0: None}, "the seed of seat 0 must be"),
])
def test_a_malformed_seed_is_refused_by_name(host: str, guests: Any, says: str) -> None:
    with pytest.raises(FairDealError, match=says):
        fair_seed(host, guests)


def test_a_game_dealt_from_the_mix_passes_and_a_host_that_lies_is_caught() -> None:
    seed = ok("fair_deal", host=HOST, guests={"0": BEN})["seed"]
    assert seed == fair_seed(HOST, {0: BEN})
    recipe = finished_hosted_game(seed)
    assert check_fair(recipe, HOST, {0: BEN}, commitment(HOST)) == seed
    assert ok("fair_check", recipe=recipe, host=HOST, guests={"0": BEN},
              commitment=commitment(HOST)) == {"seed": seed, "plays": 208}
    # A forged reveal: another seed than the one committed to (one that deals this game).
    with pytest.raises(FairDealError, match="does not match the commitment"):
        check_fair(recipe, "e" * 32, {0: BEN}, commitment(HOST))
    # The guest's seed swapped for another after the fact.
    with pytest.raises(FairDealError, match="not the mix of the seeds"):
        check_fair(recipe, HOST, {0: CLEO}, commitment(HOST))
    # The game's seed named right but its cards dealt otherwise (a stacked deck).
    stacked = {**recipe, "record": {**recipe["record"]}}
    deck = list(stacked["record"]["deck"])
    deck[0], deck[-1] = deck[-1], deck[0]
    stacked["record"]["deck"] = deck
    reply = call("fair_check", recipe=stacked, host=HOST, guests={"0": BEN},
                 commitment=commitment(HOST))
    assert reply["error"]["code"] == "unfair", reply


def test_fair_requests_refuse_bad_input_with_their_codes() -> None:
    assert call("fair_deal", host=HOST, guests=[BEN])["error"]["code"] == "bad_seed"
    assert call("fair_deal", host="x", guests={"0": BEN})["error"]["code"] == "bad_seed"
    assert call("fair_check", recipe="x", host=HOST, guests={"0": BEN},
                commitment="0")["error"]["code"] == "bad_request"


def test_a_match_is_checked_game_by_game_from_the_mix() -> None:
    seed = fair_seed(HOST, {0: BEN})
    recipe = finished_hosted_game(seed, games=2)
    assert len(recipe["history"]) == 1
    assert ok("fair_check", recipe=recipe, host=HOST, guests={"0": BEN},
              commitment=commitment(HOST)) == {"seed": seed, "plays": 2 * 208}
    # The first game swapped for one of another match: its cards are not the seed's.
    other = finished_hosted_game(fair_seed(HOST, {0: CLEO}), games=2)
    with pytest.raises(FairDealError, match="cards of game 1 are not"):
        check_fair({**recipe, "history": other["history"]}, HOST, {0: BEN}, commitment(HOST))


def hands_seen(recipe: dict[str, Any], seat: int) -> list[list[list[str] | None]]:
    """The hands ``seat`` was dealt at the start of each deal of each game of a recipe, as a
    guest's page saw them (the engine's own deal, read back)."""
    hands = []
    for record in [*recipe["history"], recipe["record"]]:
        game = from_record(record)
        again = new_game(rules=game.rules, suits=game.suits, first_dealer=game.first_dealer,
                         deck=game.deck)
        dealt: list[list[str] | None] = []
        for card in game.plays:
            if len(again.plays) % 52 == 0:
                dealt.append(sorted(str(c) for c in again.hand(seat)))
            again.play(card)
        hands.append(dealt)
    return hands


def test_a_guest_dealt_other_hands_than_the_seeds_deal_is_told_which_deal() -> None:
    # A host that deals from a seed of its choosing and reveals the fair seed's game: the
    # revealed record checks out, but not against the hands the guest's page was shown.
    seed = fair_seed(HOST, {0: BEN})
    recipe = finished_hosted_game(seed, games=2)
    seen = hands_seen(recipe, 0)
    assert ok("fair_check", recipe=recipe, host=HOST, guests={"0": BEN},
              commitment=commitment(HOST), seen={"seat": 0, "hands": seen})["plays"] == 416
    stacked = hands_seen(finished_hosted_game("the host's choice", games=2), 0)
    seen[1][2] = stacked[1][2]  # game 2, deal 3 was dealt from the host's own deck
    seen[0][0] = None  # a deal the guest did not see begin (away) is not checked
    refused = call("fair_check", recipe=recipe, host=HOST, guests={"0": BEN},
                   commitment=commitment(HOST), seen={"seat": 0, "hands": seen})["error"]
    assert (refused["code"], refused["text"]) == (
        "unfair", {"id": "error.unfair_hand", "params": {"game": 2, "deal": 3}})
    for bad in ({"seat": 4, "hands": []}, {"seat": 0}, {"seat": 0, "hands": [[["QH"] * 14]]},
                {"seat": 0, "hands": [[7]]}, [0, []]):
        assert call("fair_check", recipe=recipe, host=HOST, guests={"0": BEN},
                    commitment=commitment(HOST), seen=bad)["error"]["code"] == "bad_request"
