"""Drawing from the face-down pile: only with nothing to play, and the Draw! call."""

from __future__ import annotations

from companion.games.escape_master import GAME
from companion.games.escape_master import rules as R
from companion.games.escape_master.state import State
from tests.games.test_escape_master_support import A, B, C, bad, covers, hand, mv, ok, started

# After anna's start card pile 1 shows a 7; nobody else can play on it.
STUCK = {A: ["start-1", "joe-2"], B: ["robot-2", "robot-K"], C: ["teen-4", "teen-10"]}


def stuck(**kwargs: object) -> State:
    return ok(started(STUCK, **kwargs), mv(A, "play", card="start-1", pile="new", t=1.0))


@covers(R.DRAW, "legal", "illegal")
def test_draw_only_with_no_playable_card() -> None:
    state = ok(started({A: ["start-1", "teen-8"], B: ["robot-2"]}), mv(A, "play", card="start-1", pile="new", t=1.0))
    verdict = bad(state, mv(A, "draw", card="joe-5", t=2.0), R.DRAW)
    assert "joe-5" not in verdict.why and "teen-8" not in verdict.why  # the log never names a hidden card
    state = ok(state, mv(B, "draw", card="joe-5", t=2.0))
    assert hand(state, B) == ["joe-5", "robot-2"]
    assert GAME.public_move(mv(B, "draw", card="joe-5")) == {"by": B, "do": "draw"}


@covers(R.DRAW, "illegal")
def test_a_start_card_or_a_combination_counts_as_playable() -> None:
    state = started({A: ["start-1"], B: ["robot-2"]})
    bad(state, mv(A, "draw", card="joe-5", t=2.0), R.DRAW)
    loose = started({A: ["start-1"], B: ["robot-2"]}, options={"start_card_blocks_draw": False})
    ok(loose, mv(A, "draw", card="joe-5", t=2.0))
    combo = ok(started({A: ["start-1", "teen-3", "teen-5"], B: ["robot-2"]}), mv(A, "play", card="start-1", pile="new", t=1.0))
    bad(combo, mv(A, "draw", card="joe-5", t=2.0), R.DRAW)  # 3 + 5 = 8 goes on the 7


@covers(R.UNSEEN, "illegal", "legal")
def test_a_drawn_card_must_come_from_the_draw_pile() -> None:
    state = stuck()
    verdict = bad(state, mv(B, "draw", card="teen-4", t=2.0), R.UNSEEN)  # carl holds it
    assert "teen-4" not in verdict.why and "carl" not in verdict.why
    bad(state, mv(B, "draw", card="start-1", t=2.0), R.UNSEEN)  # on pile 1
    ok(state, mv(B, "draw", card="mouse-9", t=2.0))


@covers(R.WHO, "illegal", "legal")
def test_a_draw_names_its_player() -> None:
    state = stuck()
    assert bad(state, mv(None, "draw", card="mouse-9", t=2.0), R.WHO).why.startswith("a draw needs a player")
    bad(state, mv("zoe", "draw", card="mouse-9", t=2.0), R.WHO)
    ok(state, mv(B, "draw", card="mouse-9", t=2.0))


@covers(R.CALL_DRAW, "legal", "illegal")
def test_draw_call_everyone_draws_the_caller_last() -> None:
    state = stuck()
    state = ok(state, mv(B, "call_draw", t=2.0))
    assert GAME.scoreboard(state)["draw_call"] == {"caller": B, "to_draw": [C, A, B]}
    verdict = bad(state, mv(B, "draw", card="mouse-9", t=2.1), R.CALL_DRAW)
    assert "draws last" in verdict.why
    bad(state, mv(A, "play", card="joe-2", pile=1, t=2.1), R.CALL_DRAW)  # everyone finishes drawing first
    state = ok(state, mv(A, "draw", card="mouse-9", t=2.2), mv(C, "draw", card="mouse-8", t=2.3))
    bad(state, mv(A, "draw", card="mouse-3", t=2.35), R.CALL_DRAW)  # one card each
    state = ok(state, mv(B, "draw", card="mouse-7", t=2.4))
    assert GAME.scoreboard(state)["draw_call"] is None
    ok(state, mv(C, "play", card="mouse-8", pile=1, t=3.0))


@covers(R.CALL_DRAW, "illegal")
def test_draw_call_does_not_take_effect_while_someone_can_play() -> None:
    state = ok(started({A: ["start-1", "joe-2"], B: ["robot-8"], C: ["teen-4"]}), mv(A, "play", card="start-1", pile="new", t=1.0))
    verdict = bad(state, mv(C, "call_draw", t=2.0), R.CALL_DRAW)
    assert verdict.why == "someone can still play, so the Draw! call does not take effect"  # never who: hands are hidden
    bad(state, mv(None, "call_draw", t=2.0), R.WHO)


@covers(R.CALL_DRAW, "legal")
def test_short_pile_order_is_clockwise_from_the_left_of_the_caller() -> None:
    from companion.games.escape_master.drawing import draw_order

    state = stuck()
    small = state._replace(rnd=state.rnd._replace(draw_pile=frozenset({"mouse-9", "mouse-8"})))
    assert [small.name(i) for i in draw_order(small, 2)] == [A, B]  # carl called: anna, then ben; carl gets none
    small = ok(small, mv(C, "call_draw", t=2.0))
    bad(small, mv(C, "draw", card="mouse-9", t=2.1), R.CALL_DRAW)
    small = ok(small, mv(B, "draw", card="mouse-9", t=2.1), mv(A, "draw", card="mouse-8", t=2.2))
    assert GAME.scoreboard(small)["draw_pile"] == 0 and GAME.scoreboard(small)["draw_call"] is None
