"""A challenge among friends (calypso_core/table/challenge.py, comparing.py, challenges.py):
links that carry the terms and the games, computer players that answer a position the same
on every device, scores recomputed from the cards, and every bad link refused with nothing
changed."""

from __future__ import annotations

import dataclasses
import datetime
import random
from typing import Any

import pytest
from protocol_calls import advance, call, ok

from calypso_core import days
from calypso_core.bots import finish
from calypso_core.messages import render
from calypso_core.table import challenge as challenge_module
from calypso_core.table import comparing
from calypso_core.table import daily as daily_module
from calypso_core.table.challenge import (
    Challenge,
    LinkError,
    Reply,
    ResultError,
    Terms,
    played_of,
    replay,
)
from calypso_core.table.match import Match
from calypso_core.table.packing import Packer, PackingError, Unpacker, from_text, seal, unseal
from calypso_core.table.players import ComputerPlayer
from calypso_core.table.rerun import rerun_slices
from calypso_core.table.settings import Settings

pytestmark = pytest.mark.usefixtures("fresh_table")

MOMENT = datetime.datetime(2025, 3, 10, 12, 0, tzinfo=datetime.UTC)


def finished_match(settings: Settings, seed: int = 1) -> list[Any]:
    """A match played to its end: the person picks a random legal card (seeded)."""
    rng = random.Random(seed)
    match = Match(settings)
    while True:
        while not match.state.is_over:
            if match.status == "waiting":
                match.step()
            else:
                match.play(str(rng.choice(match.state.legal_moves())))
        if match.is_over:
            return [*match.history, match.state]
        match.next_game()


def terms(**given: Any) -> Settings:
    """A challenge's settings (clock off), club players unless ``level`` or ``levels`` say."""
    level = {} if "levels" in given else {"level": given.pop("level", "club")}
    return Settings.from_request({"seed": "friends", "clock": False, **level, **given})


def play_out(view: dict[str, Any], pick: int = 0) -> dict[str, Any]:
    """Play the match in play to its end through the protocol, the person's ``pick``-th legal
    card each time (from the end when negative)."""
    while True:
        view = advance(view)
        while view["status"] != "game_over":
            if view["status"] == "handoff":
                view = ok("reveal", seat=view["handoff"]["seat"])
            view = advance(ok("play", card=view["legal"][pick % len(view["legal"])]))
        if view["match"]["is_over"]:
            return view
        view = ok("next_game")


def compared(**payload: Any) -> dict[str, Any]:
    """A comparison run to its end at small budgets; its result."""
    progress = ok("challenge_compare", budget=40, iterations=20, **payload)
    while not progress["finished"]:
        progress = ok("challenge_compare_next", job=progress["job"])
    result: dict[str, Any] = progress["result"]
    return result


# -- packing ---------------------------------------------------------------------------------


def test_packed_values_read_back_in_the_order_they_were_put() -> None:
    packer = Packer()
    values = [(3, 4), (0, 1), (12, 13), (65_535, 65_536), (1, 2)]
    for value, radix in values:
        packer.put(value, radix)
    packer.put_text("Аня 🂡", 40)
    unpacker = Unpacker.from_text(packer.text())
    assert [unpacker.take(radix) for _, radix in values] == [v for v, _ in values]
    assert unpacker.take_text(40) == "Аня 🂡"
    unpacker.end()


def test_a_forced_card_costs_no_room_in_a_link() -> None:
    packer = Packer()
    for _ in range(52):
        packer.put(0, 1)
    assert packer.text() == ""


@pytest.mark.parametrize("text", ["AB=", "A", "AAEC", "AB+C", "AB/C", "ÄB", "AB\n"])
def test_only_the_one_spelling_of_a_number_is_read(text: str) -> None:
    # Padding, a leading zero byte, stray low bits and the other base64 alphabet are refused:
    # a text and its values correspond one to one.
    with pytest.raises(PackingError):
        from_text(text)


def test_a_sealed_text_changed_in_any_one_character_is_refused() -> None:
    packer = Packer()
    packer.put_text("the terms of a challenge", 100)
    text = seal(5, packer)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    for i, char in enumerate(text):
        changed = text[:i] + alphabet[(alphabet.index(char) + 1) % 64] + text[i + 1:]
        with pytest.raises(PackingError):
            unseal(changed)
    with pytest.raises(PackingError):
        unseal(text[:-3])


# -- links ------------------------------------------------------------------------------------


@pytest.mark.parametrize("games", [1, 4])
def test_a_challenge_and_its_reply_read_back_as_made(games: int) -> None:
    settings = terms(games=games, suit="H", rules={"all_fours": True})
    played = played_of(settings, finished_match(settings), "Аня")
    challenge = Challenge(Terms.of(settings), "Аня", played)
    assert Challenge.read(challenge.link()) == challenge
    reply = Reply(challenge.id, played_of(settings, finished_match(settings, seed=2), "Ben"))
    assert Reply.read(reply.link()) == reply
    assert not played.every and played.name == "Аня"


def test_a_challenge_is_named_by_its_terms_and_sender_played_or_not() -> None:
    settings = terms()
    fresh = Challenge(Terms.of(settings), "Ann")
    played = Challenge(Terms.of(settings), "Ann", played_of(settings, finished_match(settings),
                                                            "Ann"))
    assert fresh.id == played.id
    assert fresh.id != Challenge(Terms.of(settings), "Anna").id
    assert fresh.id != Challenge(Terms.of(terms(seed="other")), "Ann").id


@pytest.mark.parametrize(("seed", "spelled"), [("123456789", "12345678x"),
                                                ("daily:2025-03-10", "daily-2025-03-10")])
def test_a_seed_takes_the_room_its_kind_needs(seed: str, spelled: str) -> None:
    # A random seed is a number, a day's is its date: neither is spelled out.
    settings = Settings.from_request({"seed": seed, "level": "club"}) if "daily" not in seed \
        else daily_module.daily_settings(seed.removeprefix("daily:"))
    as_text = dataclasses.replace(Terms.of(settings), seed=spelled)
    assert len(Challenge(Terms.of(settings), "").link()) + 4 <= len(Challenge(as_text, "").link())
    assert Challenge.read(Challenge(Terms.of(settings), "").link()).terms.seed == seed


def link_lengths() -> dict[str, int]:
    """The longest text after ``#challenge=`` and ``#reply=`` for 1 and 4 games: the longest
    seed (100 characters of 4 bytes each) and name (20 of them), every card carried (a game
    played with the clock), and a typical one (a random seed, a short name)."""
    lengths = {}
    long_seed, long_name = "🂡" * 100, "🂡" * 20
    for games in (1, 4):
        settings = Settings.from_request({"seed": long_seed, "games": games, "clock": True,
                                          "levels": ["master", "expert", "human", "club"]})
        games_played = finished_match(dataclasses.replace(settings, levels=(
            "club", "novice", "human", "random")))
        played = played_of(settings, games_played, long_name)
        assert played.every
        worst = Challenge(Terms.of(settings), long_name, played)
        lengths[f"worst challenge, {games}"] = len(worst.link())
        lengths[f"worst reply, {games}"] = len(Reply(worst.id, dataclasses.replace(
            played, every=False, plays=played_of(terms(games=games), games_played, "").plays)
        ).link())
        typical = terms(seed="482913057", games=games)
        mine = Challenge(Terms.of(typical), "Ann",
                         played_of(typical, finished_match(typical), "Ann"))
        lengths[f"typical challenge, {games}"] = len(mine.link())
        lengths[f"typical reply, {games}"] = len(Reply(mine.id, played_of(
            typical, finished_match(typical, seed=3), "Ben")).link())
    return lengths


def test_a_link_for_four_games_stays_far_within_two_thousand_characters() -> None:
    lengths = link_lengths()
    # With the page's address before it (a project page's is some 40 characters) and both
    # links in a reply's address (#challenge=…&reply=…), the longest is still far within.
    assert lengths["worst challenge, 4"] + lengths["worst reply, 4"] + 100 <= 2000, lengths
    assert lengths["typical challenge, 4"] <= 200 and lengths["typical reply, 4"] <= 200


def hand_made(seed: tuple[int, Any], rules: int = 0b1000, level: int = 2, name: str = "Ann"
              ) -> str:
    """A challenge link packed by hand, as Terms.pack would, with any values: ``seed`` is
    (kind, value), ``rules`` the options' bits, ``level`` every computer's index."""
    packer = Packer()
    packer.put(seed[0], 3)
    if seed[0] == 0:
        packer.put_text(seed[1], 400)
    else:
        packer.put(seed[1], 10**18 if seed[0] == 1 else 1 << 22)
    for bit in range(4):
        packer.put(rules >> bit & 1, 2)
    packer.put(2, 4)
    for _ in range(3):
        packer.put(level, 16)
    packer.put(0, 4)
    packer.put(0, 5)
    packer.put_text(name, 80)
    packer.put(0, 5)
    packer.put(0, 2)
    return seal(challenge_module.CHALLENGE, packer)


def test_a_hand_made_link_reads_as_the_engine_makes_it() -> None:
    made = Challenge(Terms.of(Settings.from_request({"seed": "x", "level": "club"})), "Ann")
    assert hand_made((0, "x")) == made.link()


DAY = datetime.date(2025, 3, 10).toordinal()


@pytest.mark.parametrize("link", [
    hand_made((0, "x"), level=5),  # past the levels on offer
    hand_made((0, "x"), level=15),
    hand_made((0, "daily:2025-03-10")),  # a day's seed spelled as text
    hand_made((0, "")),  # no seed
    hand_made((0, "x"), name="Ann\n"),  # a name no person could have
    hand_made((0, "x"), name=" Ann"),
    hand_made((0, "x"), name="A" * 21),
    hand_made((0, "x"), name="You"),  # a word the table labels players with
    hand_made((0, "x"), name="Ann\u202e"),  # a mark that turns the text around
    hand_made((2, 0)),  # no date
    hand_made((2, DAY), rules=0b1100, level=4),  # the day's masters, other rules
], ids=["level 5", "level 15", "day as text", "no seed", "control", "space", "long name",
        "label", "bidi", "no date", "not the day's rules"])
def test_a_value_out_of_range_in_a_link_is_refused(link: str) -> None:
    with pytest.raises(LinkError):
        Challenge.read(link)
    assert Challenge.read(hand_made((2, DAY), rules=0b1000, level=4)).terms.seed == \
        "daily:2025-03-10"


def test_a_name_in_a_link_or_a_request_follows_the_one_rule_for_names() -> None:
    family = "Ann \U0001f468\u200d\U0001f469\u200d\U0001f467"  # joined emoji: a name
    assert Challenge.read(hand_made((0, "x"), name=family)).sender == family
    ok("new_game", seed="x", level="random")
    refused = call("challenge_make", name="East", settings={"seed": "x"})["error"]
    assert refused["code"] == "bad_name"
    assert render(refused["text"]) == "“East” is a word the table uses for seats and " \
        "players: choose another name."
    assert render(refused["text"], "ru") == render({"id": "error.name_reserved",
                                                    "params": {"name": "East"}}, "ru")
    made = ok("challenge_make", name="  Ann   Lee ", settings={"seed": "x"})
    assert made["sender"] == "Ann Lee"


def test_a_reply_link_is_no_challenge_link_and_the_other_way_round() -> None:
    settings = terms()
    challenge = Challenge(Terms.of(settings), "Ann")
    reply = Reply(challenge.id, played_of(settings, finished_match(settings), "Ben"))
    with pytest.raises(LinkError):
        Challenge.read(reply.link())
    with pytest.raises(LinkError):
        Reply.read(challenge.link())


# -- the computer players answer a position the same everywhere ------------------------------


class JumpingClock:
    """A clock that jumps a second at every reading: a device slower than any."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def test_without_the_clock_a_computer_move_is_the_same_on_a_slow_device(
        monkeypatch: pytest.MonkeyPatch) -> None:
    settings = Settings.from_request({"seed": "slow device", "level": "expert"})
    state = Match(settings).state
    fast, slow_clocked, slow = [], [], []
    for _ in range(4):  # the first cards: the searches that take longest
        seat = state.to_move
        salt = f"bots:x:0:{seat}"
        fast.append(ComputerPlayer("expert", seat, salt, clock=False)(state)[0])
        with monkeypatch.context() as patch:
            patch.setattr("calypso_core.bots.search.time.perf_counter", JumpingClock())
            slow.append(ComputerPlayer("expert", seat, salt, clock=False)(state)[0])
            slow_clocked.append(ComputerPlayer("expert", seat, salt, clock=True)(state)[0])
        state.play(fast[-1])
    assert slow == fast
    assert slow_clocked != fast  # the clock does decide a move where it is on


def test_a_computer_player_keeps_nothing_from_one_move_to_the_next() -> None:
    settings = terms(level="expert")
    match = Match(settings)
    state = match.state
    first = match.bots[state.to_move](state)
    later = state.clone()
    for _ in range(5):
        later.play(later.legal_moves()[-1])
    seat = later.to_move
    if seat in match.bots:
        match.bots[seat](later)  # another position in between
    assert match.bots[state.to_move](state) == first
    assert Match(settings).bots[state.to_move](state) == first  # another device's player


def test_the_same_challenge_played_with_the_same_cards_gives_the_same_record() -> None:
    # Every level, clock off: the moves come from the position alone. The first tricks only:
    # a search level at its whole budget takes a while.
    settings = Settings.from_request({"seed": "same cards", "clock": False,
                                      "levels": ["novice", "master", "human", "club"]})
    records = []
    for _ in range(2):
        match = Match(settings)
        while len(match.state.plays) < 16:
            if match.status == "waiting":
                match.step()
            else:
                legal = match.state.legal_moves()
                match.play(str(legal[len(match.state.plays) % len(legal)]))
        records.append(match.save()["record"]["plays"])
    assert records[0] == records[1]


def test_a_card_without_a_choice_shows_as_late_as_a_search_past_the_cap(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The page holds a computer's card to its level's cap (1 s for a master) so that one legal
    # card and several look alike. Without the clock a search may take longer: here every
    # search takes 2.5 s and a card with one legal card 1 ms. Held to the cap, that card came
    # 1.5 s before any searched one and told a void; it now waits as long as the last search
    # at its trick of the deal (the cap before any).
    clock = JumpingClock()
    monkeypatch.setattr("calypso_core.table.match.time.perf_counter", lambda: clock.now)

    def quick(player: ComputerPlayer, state: Any) -> tuple[Any, None]:
        legal = state.legal_moves()
        clock.now += 2.5 if len(legal) > 1 else 0.001
        return legal[0], None

    monkeypatch.setattr(ComputerPlayer, "__call__", quick)
    shown: dict[bool, list[tuple[int, bool, int]]] = {True: [], False: []}
    for clocked in (False, True):
        match = Match(Settings.from_request({"seed": "voids", "level": "master",
                                             "clock": clocked}))
        searched: set[int] = set()  # the tricks of this deal a search was made in
        while not match.state.is_over:
            state = match.state
            if match.status != "waiting":
                match.play(str(state.legal_moves()[0]))
                continue
            trick, forced = len(state.plays) % 52 // 4, len(state.legal_moves()) == 1
            if len(state.plays) % 52 == 0:
                searched.clear()
            event = match.step()
            shown[clocked].append((round(event["think_ms"] + event["hold_ms"]),
                                   forced, trick in searched))
            if not forced:
                searched.add(trick)
    unclocked = shown[False]
    after_a_search = [ms for ms, forced, seen in unclocked if forced and seen]
    assert len(after_a_search) >= 10
    assert set(after_a_search) == {2500}  # as late as a search
    assert {ms for ms, forced, _ in unclocked if not forced} == {2500}
    assert {ms for ms, forced, seen in unclocked if forced and not seen} == {1000}  # the cap
    assert {ms for ms, forced, _ in shown[True] if forced} == {1000}  # a clocked one: its cap


# -- replays: the score is the reader's own ----------------------------------------------------


def test_a_link_played_again_gives_back_the_games_card_for_card() -> None:
    settings = terms(games=2, levels=["novice", "club", "human", "random"])
    games = finished_match(settings)
    played = played_of(settings, games, "Ann")
    again = finish(replay(Terms.of(settings), played))
    assert [game.plays for game in again] == [game.plays for game in games]


def test_known_games_spare_the_searches_and_change_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    settings = terms()
    mine = finished_match(settings, seed=1)
    theirs = finished_match(settings, seed=2)
    played = played_of(settings, theirs, "Ben")
    searched = []
    steps = ComputerPlayer.steps

    def counted(player: ComputerPlayer, state: Any) -> Any:
        searched.append(len(state.plays))
        return steps(player, state)

    monkeypatch.setattr(ComputerPlayer, "steps", counted)
    alone = finish(replay(Terms.of(settings), played))
    assert len(searched) == 156  # every computer card of the game
    searched.clear()
    twin = finish(replay(Terms.of(settings), played, mine))
    assert [g.plays for g in twin] == [g.plays for g in alone] == [g.plays for g in theirs]
    # Until the two games parted the computers' cards come from the known game.
    parted = next(n for n, (a, b) in enumerate(zip(mine[0].plays, theirs[0].plays,
                                                   strict=True)) if a != b)
    assert min(searched) > parted and len(searched) < 156


def test_a_claimed_score_the_cards_do_not_make_is_caught() -> None:
    settings = terms()
    played = played_of(settings, finished_match(settings), "Ben")
    north_south, east_west = played.scores[0]
    edited = dataclasses.replace(played, scores=((north_south + 500, east_west),))
    with pytest.raises(ResultError) as caught:
        finish(replay(Terms.of(settings), edited))
    assert caught.value.claimed == (north_south + 500, east_west)
    assert caught.value.played == (north_south, east_west)


def test_a_game_in_a_link_played_with_the_clock_carries_every_card() -> None:
    # A search level's move cut short by the clock could not be played again: the link
    # carries the computers' cards as they fell.
    clocked = Settings.from_request({"seed": "clocked", "levels": ["club", "expert", "human",
                                                                   "club"]})
    games = finished_match(dataclasses.replace(clocked, levels=(
        "club", "club", "human", "club")))
    played = played_of(clocked, games, "Ann")
    assert played.every
    again = finish(replay(Terms.of(clocked), played))
    assert [g.plays for g in again] == [g.plays for g in games]
    assert not played_of(dataclasses.replace(clocked, clock=False), games, "Ann").every


# -- the requests -------------------------------------------------------------------------------


def a_played_challenge(name: str = "Ann", **given: Any) -> str:
    """The link of a challenge made on a finished match against random players."""
    play_out(ok("new_game", **{"seed": "our cards", "level": "random", **given}))
    link: str = ok("challenge_make", name=name)["link"]
    return link


def test_a_friend_sees_who_challenged_them_and_the_terms_but_not_the_result() -> None:
    link = a_played_challenge(games=2, suit="D")
    seen = ok("challenge_read", challenge=link)
    assert seen["sender"] == "Ann" and seen["played"] and not seen["clocked"]
    assert seen["terms"] == {"seed": "our cards", "rules": seen["terms"]["rules"],
                             "levels": ["random", "random", "human", "random"], "seat": 2,
                             "games": 2, "suit": "D", "daily": None}
    assert "scores" not in str(seen) and "lines" not in seen


def test_a_challenge_deals_its_cards_to_the_friend_without_the_clock() -> None:
    link = a_played_challenge()
    sender = ok("record")["history"] or [ok("record")["record"]]
    view = ok("challenge_start", challenge=link, name="Ben")
    assert view["table"]["settings"]["clock"] is False
    assert view["table"]["settings"]["people"] == [{"seat": 2, "name": "Ben"}]
    play_out(view)
    assert ok("record")["record"]["deck"] == sender[0]["deck"]


def test_both_sides_see_the_same_comparison() -> None:
    link = a_played_challenge()
    play_out(ok("challenge_start", challenge=link, name="Ben"), pick=-1)
    reply = ok("challenge_reply", challenge=link, name="Ben")
    theirs = compared(challenge=link, name="Ben")  # the friend's, on the friend's device
    mine = compared(challenge=link, reply=reply["link"])  # the sender's, from the reply
    assert (theirs["you"], mine["you"]) == (1, 0)
    assert theirs["difference"] == -mine["difference"] != 0
    for key in ("lines", "parted", "master", "side", "challenge", "clocked"):
        assert theirs[key] == mine[key], key
    ann, ben = mine["lines"]
    assert (ann["name"], ann["sender"], ben["name"], ben["sender"]) == ("Ann", True, "Ben", False)
    assert mine["difference"] == ann["lead"] - ben["lead"]
    assert ann["games"][0]["deals"][-1] == ann["games"][0]["lead"] == ann["lead"]
    parted = mine["parted"][0]
    assert parted["seat"] == 2 and parted["cards"][0] != parted["cards"][1]
    assert ann["lost"]["total"] == sum(ann["lost"]["games"][0]["deals"])
    assert mine["master"]["lead"] == mine["master"]["games"][0]["lead"]


@pytest.mark.parametrize(("name", "whose", "russian"), [
    ("Ben", "Ben's", "Результат в ссылке (Ben) изменён"),
    ("", "your friend's", "Результат в ссылке вашего друга изменён"),  # a friend with no name
])
def test_a_reply_with_an_edited_score_is_caught_and_said(name: str, whose: str,
                                                          russian: str) -> None:
    link = a_played_challenge()
    play_out(ok("challenge_start", challenge=link, name=name), pick=-1)
    reply = Reply.read(ok("challenge_reply", challenge=link, name=name)["link"])
    north_south, east_west = reply.played.scores[0]
    edited = dataclasses.replace(reply, played=dataclasses.replace(
        reply.played, scores=((north_south + 200, east_west),)))
    progress = ok("challenge_compare", challenge=link, reply=edited.link(), budget=1,
                  iterations=1)
    while (answer := call("challenge_compare_next", job=progress["job"]))["ok"]:
        progress = answer["result"]
        assert not progress["finished"]
    error = answer["error"]
    assert error["code"] == "edited_result"
    assert render(error["text"]) == (f"The result in {whose} link was changed after the game: "
                                     f"it says a lead of {north_south + 200 - east_west:,}, its "
                                     f"cards make {north_south - east_west:,}.")
    assert render(error["text"], "ru").startswith(russian)
    assert call("challenge_compare_next", job=progress["job"])["error"]["code"] == "no_job"


def test_a_reply_to_another_challenge_is_refused() -> None:
    link = a_played_challenge()
    play_out(ok("challenge_start", challenge=link, name="Ben"))
    reply = ok("challenge_reply", challenge=link, name="Ben")["link"]
    other = a_played_challenge(seed="other cards")
    answer = call("challenge_compare", challenge=other, reply=reply)
    assert answer["error"]["code"] == "other_challenge"
    assert render(answer["error"]["text"], "ru") == "Этот ответ — на другой вызов, а не на этот."


def test_a_reply_needs_the_challenges_own_finished_match() -> None:
    link = a_played_challenge()
    play_out(ok("new_game", seed="our cards", level="random"))  # the same cards, the clock on
    # random players have no clock: the same terms are the challenge's match
    assert ok("challenge_reply", challenge=link, name="Ben")["name"] == "Ben"
    play_out(ok("new_game", seed="other cards", level="random"))
    assert call("challenge_reply", challenge=link, name="Ben")["error"]["code"] == \
        "not_this_challenge"
    ok("challenge_start", challenge=link)
    assert call("challenge_reply", challenge=link, name="Ben")["error"]["code"] == \
        "game_not_over"


def test_a_challenge_made_before_playing_carries_no_result() -> None:
    made = ok("challenge_make", name="Ann", settings={"level": "novice", "games": 2})
    assert not made["played"] and made["terms"]["games"] == 2
    assert made["terms"]["seed"].isdigit()  # a random seed: new cards
    play_out(ok("challenge_start", challenge=made["link"]))
    result = compared(challenge=made["link"], name="Ann")
    assert [line["name"] for line in result["lines"]] == ["Ann"]
    assert result["parted"] is None and result["difference"] is None
    # played now, the challenge carries its result under the same id
    again = ok("challenge_make", name="Ann")
    assert again["id"] == made["id"] and again["played"]


def test_a_challenge_is_refused_for_a_match_not_over_or_of_several_people() -> None:
    ok("new_game", seed="x", level="random", games=2)
    assert call("challenge_make", name="A")["error"]["code"] == "game_not_over"
    play_out(ok("new_game", seed="x", level="random", people=[{"seat": 2}, {"seat": 0}]))
    refused = call("challenge_make", name="A")["error"]
    assert refused["code"] == "unavailable"
    assert render(refused["text"]) == "A challenge is a game of one person against computer " \
        "players."
    refused = call("challenge_make", name="A", settings={"seed": "daily:2025-01-01"})["error"]
    assert refused["code"] == "bad_seed"


@pytest.mark.parametrize("kind", ["challenge_read", "challenge_start", "challenge_compare"])
def test_a_damaged_link_is_refused_in_both_languages_and_changes_nothing(kind: str) -> None:
    link = a_played_challenge()
    view = ok("view")
    saved = ok("record")
    for bad in (link[:-1], link[:5] + ("A" if link[5] != "A" else "B") + link[6:], "", 7,
                "!" * 30, link + "A" * 5000):
        refused = call(kind, challenge=bad)["error"]
        assert refused["code"] == "bad_challenge", bad
        assert render(refused["text"]).startswith("This challenge link is damaged")
        assert render(refused["text"], "ru").startswith("Ссылка-вызов повреждена")
    assert ok("view") == {**view, "table": view["table"]} and ok("record") == saved


def test_a_damaged_reply_is_refused_and_changes_nothing() -> None:
    link = a_played_challenge()
    play_out(ok("challenge_start", challenge=link, name="Ben"))
    reply = ok("challenge_reply", challenge=link, name="Ben")["link"]
    saved = ok("record")
    for bad in (reply[:-2], reply[:-1] + ("A" if reply[-1] != "A" else "B"), link):
        assert call("challenge_compare", challenge=link, reply=bad)["error"]["code"] == \
            "bad_reply"
    assert ok("record") == saved


@pytest.fixture
def stopped_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(days, "_clock", lambda: MOMENT)


@pytest.mark.usefixtures("stopped_clock")
def test_a_challenge_on_a_days_deal_is_refused_before_that_day() -> None:
    tomorrow = Challenge(Terms.of(daily_module.daily_settings("2025-03-11")), "Ann").link()
    for kind in ("challenge_read", "challenge_start", "challenge_compare"):
        refused = call(kind, challenge=tomorrow)["error"]
        assert refused["code"] == "not_dealt_yet", kind
        assert render(refused["text"]) == "The Calypso of 2025-03-11 is not dealt before its day."
    assert call("challenge_read", challenge=tomorrow, today="2025-03-11")["ok"]  # east of UTC


@pytest.mark.usefixtures("stopped_clock")
def test_a_days_deal_makes_a_challenge_played_as_the_day_is() -> None:
    view = ok("daily", date="2025-03-09")
    assert view["table"]["settings"]["clock"] is False  # the day's masters, clock off
    settings = Settings.from_request(view["table"]["settings"], saved=True)
    games = finished_match(dataclasses.replace(settings, levels=(
        "random", "random", "human", "random")))
    # the day's masters are slow to play out here; the link's terms are the day's
    link = Challenge(Terms.of(settings), "Ann", played_of(settings, games, "Ann")).link()
    seen = ok("challenge_read", challenge=link)
    assert seen["terms"]["daily"] == "2025-03-09" and not seen["clocked"]
    started = ok("challenge_start", challenge=link)
    assert started["table"]["daily"] == "2025-03-09"
    assert started["table"]["settings"]["straight"] is True  # the kept attempt, if first
    practice = ok("challenge_start", challenge=link, practice=True)
    assert "straight" not in practice["table"]["settings"]


def test_a_days_save_from_before_the_clock_went_still_loads_as_the_day() -> None:
    settings = daily_module.daily_settings("2025-01-31").to_dict()
    del settings["clock"]
    match = Match(Settings.from_request(settings, saved=True))
    assert ok("load", **match.save())["table"]["daily"] == "2025-01-31"


def test_the_masters_line_is_the_master_in_your_seat_played_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    link = a_played_challenge()
    play_out(ok("challenge_start", challenge=link, name="Ben"), pick=-1)
    rerun = ok("rerun", iterations=20)
    while not rerun["finished"]:
        rerun = ok("rerun_next", job=rerun["job"])
    played: list[int] = []
    real = rerun_slices

    def counted(*args: Any) -> Any:
        played.append(1)
        return real(*args)

    monkeypatch.setattr(comparing, "rerun_slices", counted)
    first = compared(challenge=link, name="Ben")
    assert played == []  # this device's own rerun of the game, taken as it is
    master = rerun["result"]["master"]
    assert first["master"]["games"][0]["scores"] == master
    reply = ok("challenge_reply", challenge=link, name="Ben")["link"]
    ok("new_game", seed="elsewhere", level="random")
    assert compared(challenge=link, reply=reply)["master"] == first["master"]
    assert played == []  # the same line for every comparison of the challenge
