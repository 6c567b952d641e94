"""The table features in CPython: memory aids, the cut, the deal's log, replays, undo and
record import, both as pure functions and as protocol requests."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from protocol_calls import advance, all_said, error, ok, recipe, said, same_table

from calypso_core import Card, from_record, new_game, table, to_record
from calypso_core.game import GameState
from calypso_core.table.aids import memory_aids
from calypso_core.table.facts import EXAMPLES, examples
from calypso_core.table.story import (
    deal_log,
    deal_summary,
    play_seats,
    replay_position,
    the_cut,
    truncated,
    undo_length,
)

SOUTH = 2


# Each test starts from a fresh table session and leaves none behind.
pytestmark = pytest.mark.usefixtures("fresh_table")


def played(seed: int, plays: int) -> GameState:
    """A game after ``plays`` random legal cards."""
    state = new_game(seed)
    rng = random.Random(seed)
    for _ in range(plays):
        state.play(rng.choice(state.legal_moves()))
    return state


def first_playable(view: dict[str, Any]) -> str:
    return str(view["legal"][0])


# -- memory aids ----------------------------------------------------------------------------


def test_memory_aids_count_every_card_once_from_the_observation_alone() -> None:
    state = played(3, 70)
    aids = memory_aids(state.observation(SOUTH))
    assert aids is not None and aids["seat"] == SOUTH
    hand = [int(c) for c in state.hand(SOUTH)]
    seen = [int(c) for c in state.plays]
    for suit, counts in zip("SHDC", aids["unseen"], strict=True):
        for rank, count in zip("AKQJT98765432", counts, strict=True):
            code = int(Card.parse(rank + suit))
            assert count == 4 - hand.count(code) - seen.count(code)
    # Unseen cards are exactly those in the other hands and the stock.
    hidden = sum(state.hand_size(s) for s in range(4) if s != SOUTH) + state.stock_size
    assert sum(sum(counts) for counts in aids["unseen"]) == hidden


def test_voids_shown_are_marked_for_the_deal_in_play() -> None:
    state = new_game(11)
    rng = random.Random(2)
    while True:
        state.play(rng.choice(state.legal_moves()))
        trick = state.tricks[-1] if state.tricks and not state.trick else None
        if trick and any(c.suit != trick.cards[0].suit for c in trick.cards[1:]):
            break
    aids = memory_aids(state.observation(SOUTH))
    assert aids is not None
    trick = state.tricks[-1]
    led = trick.cards[0].suit
    for i, card in enumerate(trick.cards[1:], 1):
        seat = (trick.leader + i) % 4
        if card.suit != led:
            assert str(led) in aids["voids"][seat]


def test_calypso_needs_list_missing_ranks_with_live_copies() -> None:
    state = played(8, 120)
    aids = memory_aids(state.observation(SOUTH))
    assert aids is not None
    for seat, item in enumerate(aids["needs"]):
        have = {c.rank for c in state.calypso(seat)}
        assert len(item["missing"]) == len(item["live"]) == 13 - len(have)
        for rank, live in zip(item["missing"], item["live"], strict=True):
            code = int(Card.parse(rank + str(state.suits[seat])))
            unplayed = 4 - sum(1 for c in state.plays if int(c) == code)
            in_trick = sum(1 for c in state.trick if int(c) == code)
            assert live == unplayed + in_trick
        assert item["blocked"] == (state.completed(seat) >= 4 or not all(item["live"]))


# -- the cut, the log and replays -----------------------------------------------------------


@pytest.mark.parametrize("seed", ["1", "boot-101", "x/2"])
def test_the_cut_agrees_with_the_game_and_is_the_same_for_the_same_seed(seed: str) -> None:
    state = new_game(seed)
    suits = tuple(int(s) for s in state.suits)
    cut = the_cut(seed, suits, state.first_dealer)
    assert cut == the_cut(seed, suits, state.first_dealer)
    ranks = {seat: int(Card.parse(card)) % 13 for seat, card in enumerate(cut["cards"])}
    order = sorted(range(4), key=lambda s: -ranks[s])
    assert order == cut["order"]
    assert order[0] == state.first_dealer == cut["dealer"] == cut["chooser"]
    assert order[1] == state.first_dealer ^ 2  # the two highest cutters are partners
    assert cut["suit"] == str(state.suits[state.first_dealer])
    assert len(set(ranks.values())) == 4


def test_the_deal_log_lists_every_trick_of_the_deal_with_its_winner_and_reason() -> None:
    state = played(4, 60)  # the second deal, its third trick in play
    log = deal_log(state)
    assert log["deal"] == 1 and log["dealer"] == state.dealer
    assert len(log["tricks"]) == 2
    for item, trick in zip(log["tricks"], state.tricks[13:], strict=True):
        assert item["cards"] == [str(c) for c in trick.cards]
        assert item["leader"] == trick.leader
        assert item["winner"] == trick.winner and said(item["reason"]).endswith(".")
    assert len(deal_log(state, 0)["tricks"]) == 13


def test_the_deal_summaries_add_up_to_the_game_and_count_each_deals_tricks() -> None:
    state = played(5, 208)
    totals = {"tricks": [0, 0], "calypsos": [0, 0], "points": [0, 0]}
    for deal in range(4):
        summary = deal_summary(state, deal)
        assert sum(summary["tricks"]) == 13
        assert summary["tricks"][0] == sum(
            1 for t in state.tricks[13 * deal: 13 * deal + 13] if t.winner % 2 == 0)
        assert deal_log(state, deal)["summary"] == summary
        for key, pair in summary.items():
            totals[key] = [a + b for a, b in zip(totals[key], pair, strict=True)]
    assert totals["points"] == list(state.partnership_scores())
    assert totals["calypsos"] == [state.completed(0) + state.completed(2),
                                  state.completed(1) + state.completed(3)]
    assert sum(totals["tricks"]) == 52


def test_a_deal_not_over_has_no_summary() -> None:
    state = played(5, 51)
    assert deal_log(state)["summary"] is None
    with pytest.raises(ValueError, match="not a finished deal"):
        deal_summary(state, 0)
    with pytest.raises(ValueError, match="not a finished deal"):
        deal_summary(played(5, 52), 1)


def test_a_replay_shows_every_hand_of_a_finished_game_and_none_of_a_game_in_progress() -> None:
    state = played(6, 208)
    start = replay_position(state, 0)
    assert [len(s["hand"]) for s in start["seats"]] == [13, 13, 13, 13]
    assert start["trick"] is None
    middle = replay_position(state, 20)
    assert middle["trick"]["cards"][0] == str(state.tricks[19].cards[0])
    assert (middle["deal"], middle["trick"]["deal"], middle["trick"]["index"]) == (1, 1, 6)
    end = replay_position(state, 52)
    assert end["scores"] == list(state.partnership_scores())
    assert end["sheet"] is not None
    unfinished = replay_position(played(6, 50), 3)
    assert [s["hand"] for s in unfinished["seats"]] == [None] * 4
    assert [s["held"] for s in unfinished["seats"]] == [10, 10, 10, 10]


def test_undo_keeps_the_plays_before_the_persons_last_card() -> None:
    state = played(7, 23)
    seats = play_seats(state)
    keep = undo_length(state, SOUTH)
    assert seats[keep] == SOUTH and SOUTH not in seats[keep + 1:]
    before = truncated(state, keep)
    assert list(before.plays) == list(state.plays[:keep])
    with pytest.raises(ValueError):
        undo_length(new_game(7), SOUTH)


# -- the protocol ---------------------------------------------------------------------------


def test_the_view_carries_aids_log_cut_and_whether_undo_is_possible() -> None:
    view = ok("new_game", seed="aids-1", level="random")
    assert view["table"]["cut"]["dealer"] == view["dealer"]
    view = advance(view)
    assert set(view["aids"]) == {"seat", "voids", "unseen", "needs"}
    assert view["aids"] == ok("aids")
    assert view["log"]["deal"] == 0 and "table" not in view
    assert view["can_undo"] is False
    view = advance(ok("play", card=first_playable(view)))
    assert view["can_undo"] is True


def test_undo_restores_the_exact_position_view_and_record() -> None:
    view = advance(ok("new_game", seed="undo-1", level="club"))
    for _ in range(5):
        view = advance(ok("play", card=first_playable(view)))
    before_view, before_record = view, recipe()
    card = first_playable(view)
    after = advance(ok("play", card=card))
    assert after["plays"] > before_view["plays"]
    undone = ok("undo")
    assert recipe() == before_record
    assert same_table(undone) == same_table(before_view)
    # The computer players are deterministic: the same card brings the same replies.
    assert advance(ok("play", card=card))["plays"] == after["plays"]
    assert recipe()["record"]["plays"] == _record_after(before_record, card)


def _record_after(before: dict[str, Any], card: str) -> list[str]:
    table.reset()
    ok("load", **before)
    view = advance(ok("play", card=card))
    del view
    return list(recipe()["record"]["plays"])


def test_undo_can_go_back_to_the_start_and_then_refuses() -> None:
    view = advance(ok("new_game", seed="undo-2", level="random"))
    start = recipe()
    for _ in range(3):
        view = advance(ok("play", card=first_playable(view)))
    for _ in range(3):
        ok("undo")
    assert recipe() == start
    assert error("undo") == "nothing_to_undo"
    assert recipe() == start


def test_replay_refuses_the_game_in_play_and_shows_a_finished_one() -> None:
    view = advance(ok("new_game", seed="replay-1", level="random"))
    assert error("replay", tricks=0) == "game_not_over"
    record = recipe()["record"]
    # Its record, given back (as a file of it would be, or with the last two undealt cards
    # swapped), replays only what was public: no hand.
    swapped = {**record, "deck": [*record["deck"][:-2], record["deck"][-1], record["deck"][-2]]}
    for given in (record, swapped, ok("record")["record"]):
        shown = ok("replay", record=given, tricks=0)
        assert [s["hand"] for s in shown["seats"]] == [None] * 4
        assert [s["held"] for s in shown["seats"]] == [13] * 4
    while view["status"] != "game_over":
        view = advance(ok("play", card=first_playable(view)))
    shown = ok("replay", tricks=13)
    assert shown["tricks"] == 13 and shown["deal"] == 1
    assert sum(len(s["hand"]) for s in shown["seats"]) == 52
    assert all_said(shown["labels"]) == ["North", "East", "You", "West"]
    assert all_said(shown["sides"]) == ["You & North", "East & West"]
    assert shown["called"] == ["seat", "seat", "you", "seat"]
    assert error("replay", tricks=53) == "bad_request"


def test_optional_keys_given_as_null_count_as_left_out() -> None:
    # docs/protocol.md: an optional key given as null is the same as leaving it out.
    state = played(12, 208)
    record = to_record(state)
    assert ok("replay", record=record, tricks=None) == ok("replay", record=record)
    assert ok("replay", record=record, tricks=None)["tricks"] == 52
    view = ok("new_game", seed=5, level="random", games=None, rules=None, suit=None)
    assert view["match"]["games"] == 1
    saved = recipe()
    loaded = ok("load", record=saved["record"], settings=saved["settings"], history=None)
    assert loaded["plays"] == view["plays"] and loaded["match"]["game"] == 0


def test_import_accepts_a_record_and_refuses_bad_files_clearly() -> None:
    state = played(12, 208)
    text = json.dumps(to_record(state))
    result = ok("import", text=text)
    assert result["is_over"] is True and result["tricks"] == 52
    assert from_record(result["record"]) == state
    shown = ok("replay", record=result["record"], tricks=52)
    assert shown["scores"] == list(state.partnership_scores())
    assert error("import", text="{") == "bad_record"
    assert error("import", text="[" * 5000 + "]" * 5000) == "bad_record"
    assert error("import", text="x" * 70_000) == "bad_record"
    assert error("import", text=json.dumps({"format": "other-app"})) == "bad_record"
    assert error("import", text=3) == "bad_request"


def test_an_imported_unfinished_game_continues_with_load() -> None:
    state = played(13, 41)
    result = ok("import", text=json.dumps(to_record(state)))
    assert result["is_over"] is False
    view = ok("load", record=result["record"], settings=result["settings"])
    assert view["plays"] == 41
    assert recipe()["record"]["plays"] == [str(c) for c in state.plays]


def test_the_rules_examples_match_the_rules_table() -> None:
    shown = examples({})
    assert [e["winner"] for e in shown] == [0, 1, 2, 1, 2, 3, 0, 1]
    assert [e["cards"] for e in shown] == [list(cards) for cards in EXAMPLES]
    assert ok("examples") == shown
