"""Story card effects, Beast Mode targets and leader changes across rounds (data from story.json)."""

from __future__ import annotations

from typing import Any

from companion.games.escape_master import GAME
from companion.games.escape_master import rules as R
from companion.games.escape_master.leaders import expected_size
from companion.games.escape_master.state import State
from tests.games.test_escape_master_support import A, B, C, bad, covers, mv, ok, started

SIZES = {"check_deal_size": True, "hand_size": 2}
TWO = {"hand_size": 2}  # sizes computed, not checked at the first Start!


def ben_draws_a_story(card: int, targets: list[str] | None = None, **kwargs: Any) -> State:
    """Round 1: anna gets out, ben keeps cards and draws Story card ``card``."""
    hands = {A: ["start-1", "teen-8"], B: ["robot-2", "doom-J"], C: ["joe-2", "joe-3"]}
    state = ok(started(hands, **kwargs), mv(A, "play", card="start-1", pile="new", t=1.0),
               mv(A, "play", card="teen-8", pile=1, t=2.0), mv(A, "out", t=3.0), mv(None, "end_round"))
    extra = {"targets": targets} if targets else {}
    return ok(state, mv(B, "story", card=card, **extra))


def seats(state: State) -> list[int]:
    return [expected_size(state, i) for i in range(len(state.table.players))]


@covers(R.STORY, "legal")
def test_story_cards_change_the_coming_deal() -> None:
    assert seats(ben_draws_a_story(1, options=TWO)) == [2, 4, 2]  # two extra cards
    assert seats(ben_draws_a_story(7, options=TWO)) == [2, 0, 2]  # two fewer
    assert seats(ben_draws_a_story(7, options={"hand_size": 10}, leaders={B: "ninja"})) == [10, 7, 10]  # only seven
    assert seats(ben_draws_a_story(4, options=TWO, leaders={A: "mouse", C: "joe"})) == [2, 1, 2]  # mouse: -1 +1


def test_story_one_makes_the_deal_check_want_more_cards() -> None:
    state = ben_draws_a_story(1, options=SIZES)
    state = ok(state, mv(B, "deal", hands={A: ["start-1", "teen-8"], B: ["robot-2", "robot-3"], C: ["joe-2", "joe-3"]}))
    assert bad(state, mv(B, "start"), R.DEAL).why == "ben holds 2 cards but starts this round with 4"
    state = ok(state, mv(B, "dealt", card="robot-4"), mv(B, "dealt", card="robot-5"), mv(B, "start"))


@covers(R.LEADER, "illegal")
def test_story_six_takes_a_leader_ability_for_a_round() -> None:
    state = ben_draws_a_story(6, [A], leaders={A: "teen"})
    assert GAME.scoreboard(state)["leaders"][A]["lost_this_round"] is True
    state = ok(state, mv(B, "deal", hands={A: ["start-1", "teen-8", "teen-2", "robot-5"], B: ["robot-9"], C: ["joe-9"]}),
               mv(B, "start"), mv(A, "play", card="start-1", pile="new", t=1.0), mv(A, "play", card="teen-8", pile=1, t=2.0))
    bad(state, mv(A, "play", cards=["teen-2", "robot-5"], pile=1, t=3.0), R.COMBO)  # no Teen combinations this round
    bad(ben_draws_a_story(1), mv(C, "story", card=6), R.STORY)


@covers(R.BEAST, "legal")
def test_story_twelve_is_beast_mode_without_xp() -> None:
    state = ben_draws_a_story(12, leaders={B: "joe"})
    assert GAME.scoreboard(state)["beast"][B] is True and GAME.scoreboard(state)["xp"][B] == 0


def test_story_eleven_gives_a_discard_with_every_wisdom() -> None:
    state = ben_draws_a_story(11)
    state = ok(state, mv(B, "deal", hands={A: ["start-1"], B: ["wisdom-1", "doom-Q", "joe-5"], C: ["joe-9"]}),
               mv(B, "start"), mv(B, "play", card="wisdom-1", pile="new", t=1.0))
    assert GAME.view(state, B)["discards"] == 1
    state = ok(state, mv(B, "discard", card="doom-Q", t=2.0))
    bad(state, mv(B, "discard", card="joe-5", t=3.0), R.DISCARD)


def test_story_ten_guesses_who_gets_out_first() -> None:
    right = ben_draws_a_story(10, [A])
    right = right._replace(faults=(0, 9, 1))
    right = ok(right, mv(B, "deal", hands={A: ["start-1"], B: ["robot-2"], C: ["joe-9"]}), mv(B, "start"),
               mv(A, "play", card="start-1", pile="new", t=1.0), mv(A, "out", t=2.0), mv(None, "end_round"))
    assert GAME.scoreboard(right)["faults"][B] == 7  # 9 + 1 - 3 players
    wrong = ben_draws_a_story(10, [C])
    wrong = ok(wrong, mv(B, "deal", hands={A: ["start-1"], B: ["robot-2"], C: ["joe-9"]}), mv(B, "start"),
               mv(A, "play", card="start-1", pile="new", t=1.0), mv(A, "out", t=2.0), mv(None, "end_round"))
    assert "leader" in [p.verb for p in GAME.prompts(wrong) if p.who == B]
    ok(wrong, mv(B, "leader", tribe="robot"))


def test_story_three_swaps_with_the_draw_pile_before_start() -> None:
    state = ben_draws_a_story(3)
    state = ok(state, mv(B, "deal", hands={A: ["start-1"], B: ["robot-2", "doom-Q"], C: ["joe-9"]}))
    bad(state, mv(B, "swap_draw", give=["doom-Q", "robot-2", "start-1"], take=["joe-1", "joe-3", "joe-4"]), R.STORY)
    bad(state, mv(B, "swap_draw", give=["doom-Q"], take=["joe-9"]), R.UNSEEN)
    state = ok(state, mv(B, "swap_draw", give=["doom-Q"], take=["joe-1"]))
    assert GAME.view(state, B)["hand"] == ["joe-1", "robot-2"] and "doom-Q" in GAME.view(state, None)["draw_pile_cards"]
    bad(state, mv(B, "swap_draw", give=["robot-2"], take=["joe-3"]), R.STORY)  # once


def test_story_five_passes_a_card_and_the_deal_check_follows() -> None:
    state = ben_draws_a_story(5, options=SIZES)
    state = ok(state, mv(B, "deal", hands={A: ["start-1", "teen-8"], B: ["robot-2", "doom-Q"], C: ["joe-9", "joe-8"]}))
    bad(state, mv(A, "pass_card", cards=["teen-8"], to=C), R.STORY)
    bad(state, mv(B, "pass_card", cards=["robot-2", "doom-Q"], to=A), R.STORY)  # one card (a Lumberjack: two)
    state = ok(state, mv(B, "pass_card", cards=["doom-Q"], to=A), mv(B, "start"))
    assert GAME.scoreboard(state)["hand_sizes"] == {A: 3, B: 1, C: 2}


def test_story_eight_gives_everyone_a_new_leader() -> None:
    state = ben_draws_a_story(8, leaders={A: "joe", B: "joe", C: "joe"})
    state = ok(state, mv(A, "leader", tribe="ninja"), mv(C, "leader", tribe="teen"))
    assert [GAME.scoreboard(state)["leaders"][p]["tribe"] for p in (A, B, C)] == ["ninja", "joe", "teen"]


def test_beast_mode_of_the_one_card_fewer_leader_names_another_player() -> None:
    state = ben_draws_a_story(1, options=TWO, leaders={B: "mouse"})
    state = state._replace(xp=(0, 2, 0))
    bad(state, mv(B, "beast"), R.BEAST)
    state = ok(state, mv(B, "beast", target=C))
    assert seats(state) == [2, 2, 0]  # ben: 2 + 2 (Story 1) - 2; carl: 2 - 2
