"""Movement, pushing, falling and snowballs, tested directly on a scratch mountain.

Heights (GAPS.md), x 1..8 west to east, y 6 at the top:
    y=6   1 1 1 1 1 1 1 1
    y=5   1 2 3 3 3 3 2 1
    y=4   . 2 4 5 5 4 2 .
    y=3   . 2 4 5 5 4 2 .
    y=2   1 2 3 3 3 3 2 1
    y=1   1 1 1 1 1 1 1 1
"""

from __future__ import annotations

from companion.games.everest.board import Board, Square, make_board
from companion.games.everest.movement import Scratch, move, snowball_target, snowballs
from tests.games.test_everest_support import covers

NAMES = ("anna", "ben", "cleo", "dev")


def table(*pos: Square | None, notches: str = "off_board", board: Board | None = None) -> Scratch:
    squares = list(pos) + [None] * (4 - len(pos))
    return Scratch(board or make_board(notches), NAMES[: len(squares)], squares, [0] * len(squares), set())  # type: ignore[arg-type]


@covers("EV-BOARD", "legal", "illegal")
def test_board_heights_peak_and_notches() -> None:
    board = make_board()
    assert board.height((4, 3)) == 5 and board.height((1, 1)) == 1 and board.height((3, 4)) == 4
    assert board.peak == {(4, 3), (5, 3), (4, 4), (5, 4)}
    assert not board.on_board((1, 3)) and not board.on_board((8, 4)) and not board.on_board((0, 1))
    assert len(board.heights) == 44
    assert sum(board.heights.values()) == 24 * 4  # all 24 tiles of 2x2 squares
    table_board = make_board("table")
    assert table_board.height((1, 3)) == 0 and table_board.height((8, 4)) == 0
    grid = board.grid()
    assert grid[0] == [1] * 8 and grid[2][0] is None and grid[2][3] == 5  # row y=3: notch, ..., peak


@covers("EV-MOVE", "legal")
def test_one_mp_flat_or_down_two_up_a_step() -> None:
    t = table((1, 1))
    move(t, 0, "E", 3)
    assert t.squares()[0] == (4, 1)
    t = table((1, 2))
    move(t, 0, "E", 4)  # two steps up, 2 MP each
    assert t.squares()[0] == (3, 2)
    t = table((2, 2))
    move(t, 0, "S", 1)  # a step down costs 1
    assert t.squares()[0] == (2, 1)
    assert t.damage == [0, 0, 0, 0]


@covers("EV-MOVE", "illegal")
def test_not_enough_mp_for_a_step_stops_the_move() -> None:
    t = table((1, 2))
    move(t, 0, "E", 3)  # 2 MP up to (2,2), the 1 left cannot climb to (3,2)
    assert t.squares()[0] == (2, 2)
    assert any("not the 2 it needs" in e for e in t.events)


@covers("EV-CLIFF-UP", "legal", "illegal")
def test_a_cliff_from_below_stops_and_loses_the_rest() -> None:
    t = table((2, 3))
    move(t, 0, "E", 5)  # (3,3) is 2 higher: a cliff
    assert t.squares()[0] == (2, 3)
    assert any(e.startswith("EV-CLIFF-UP") for e in t.events)
    t = table((3, 2))
    move(t, 0, "N", 2)  # (3,3) is one higher: a step, climbable
    assert t.squares()[0] == (3, 3)


@covers("EV-FALL", "legal", "illegal")
def test_off_a_cliff_falls_takes_damage_and_keeps_going() -> None:
    t = table((4, 4))
    move(t, 0, "N", 2)  # 5 -> 3 -> 1: two falls
    assert t.squares()[0] == (4, 6)
    assert t.damage[0] == 2
    t = table((4, 4))
    move(t, 0, "E", 1)  # flat across the peak: no fall
    assert t.squares()[0] == (5, 4) and t.damage[0] == 0
    t = table((2, 2))
    move(t, 0, "S", 1)  # a one-level step down is no fall
    assert t.damage[0] == 0


@covers("EV-EDGE", "legal")
def test_off_the_edge_ends_the_move() -> None:
    t = table((2, 1))
    move(t, 0, "W", 4)
    assert t.squares()[0] is None and 0 in t.off
    assert any(e.startswith("EV-EDGE") for e in t.events)


@covers("EV-BOARD", "legal")
@covers("EV-EDGE", "illegal")
def test_notches_are_off_the_board_unless_the_table_setting() -> None:
    t = table((6, 3))
    move(t, 0, "E", 2)  # falls to (7,3), then into the notch: off the edge
    assert t.squares()[0] is None and t.damage[0] == 1
    t = table((6, 3), notches="table")
    move(t, 0, "E", 2)  # the notch is a table-level square: a second fall, still on the board
    assert t.squares()[0] == (8, 3) and t.damage[0] == 2 and not t.off


@covers("EV-PUSH", "legal")
def test_pushing_costs_one_more_and_two_more_up_a_step() -> None:
    t = table((1, 1), (2, 1))
    move(t, 0, "E", 2)  # 1 to move + 1 to push
    assert t.squares()[:2] == [(2, 1), (3, 1)]
    t = table((1, 2), (2, 2))
    move(t, 0, "E", 4)  # 2 up a step + 2 to push up a step
    assert t.squares()[:2] == [(2, 2), (3, 2)]


@covers("EV-PUSH", "illegal")
def test_not_enough_mp_to_push_stops() -> None:
    t = table((1, 1), (2, 1))
    move(t, 0, "E", 1)
    assert t.squares()[:2] == [(1, 1), (2, 1)]
    t = table((1, 2), (2, 2))
    move(t, 0, "E", 3)
    assert t.squares()[:2] == [(1, 2), (2, 2)]


def test_pushed_off_the_edge_and_off_a_cliff() -> None:
    t = table((2, 1), (1, 1))
    move(t, 0, "W", 2)
    assert t.squares()[:2] == [(1, 1), None] and 1 in t.off
    t = table((4, 4), (4, 3))
    move(t, 0, "S", 2)  # push across the peak, then ben is pushed down the cliff to (4,2)
    assert t.squares()[:2] == [(4, 3), (4, 2)]
    assert t.damage[1] == 1


@covers("EV-PUSH-BLOCKED", "illegal")
def test_no_push_into_a_yeti_or_up_a_cliff() -> None:
    t = table((1, 1), (2, 1), (3, 1))
    move(t, 0, "E", 5)
    assert t.squares()[:3] == [(1, 1), (2, 1), (3, 1)]
    # No walk on the Everest board can push a yeti up a cliff, so a small board of data shows it.
    board = Board({(1, 1): 1, (2, 1): 1, (3, 1): 3})
    t = table((1, 1), (2, 1), board=board)
    move(t, 0, "E", 5)
    assert t.squares()[:2] == [(1, 1), (2, 1)]
    assert any(e.startswith("EV-PUSH-BLOCKED") for e in t.events)


@covers("EV-PUSH-BLOCKED", "legal")
def test_a_free_square_behind_lets_the_push_through() -> None:
    t = table((1, 1), (2, 1), (4, 1))
    move(t, 0, "E", 2)
    assert t.squares()[:3] == [(2, 1), (3, 1), (4, 1)]


@covers("EV-PUSH-FALL", "legal", "illegal")
def test_falling_gives_a_free_push() -> None:
    t = table((4, 4), (4, 5))
    move(t, 0, "N", 1)  # falls into (4,5): the push costs nothing, 1 MP is enough
    assert t.squares()[:2] == [(4, 5), (4, 6)]
    assert t.damage[:2] == [1, 1]  # both fell off a cliff
    t = table((3, 6), (4, 6))  # a flat push with 1 MP is not free
    move(t, 0, "E", 1)
    assert t.squares()[:2] == [(3, 6), (4, 6)]


def test_pushed_fall_damage_option() -> None:
    t = table((4, 4), (4, 3))
    t.pushed_fall_damage = False
    move(t, 0, "S", 2)
    assert t.squares()[1] == (4, 2) and t.damage[1] == 0


@covers("EV-SNOWBALL", "legal")
def test_snowball_hits_damages_and_knocks_one_square() -> None:
    t = table((1, 1), (4, 1))
    snowballs(t, [(0, "E")])
    assert t.squares()[1] == (5, 1) and t.damage[1] == 1
    t = table((5, 3), (5, 1))
    snowballs(t, [(0, "S")])  # downhill freely, then knocked off the edge
    assert t.squares()[1] is None and t.damage[1] == 1 and 1 in t.off


@covers("EV-SNOWBALL", "illegal")
def test_snowball_cannot_knock_up_a_step_or_into_a_yeti() -> None:
    t = table((1, 1), (4, 1), (5, 1))
    snowballs(t, [(0, "E")])
    assert t.squares()[1] == (4, 1) and t.damage[1] == 1
    t = table((1, 2), (2, 2))
    snowballs(t, [(0, "E")])  # ben stands on top of the step: hit, but (3,2) is up a step
    assert t.squares()[1] == (2, 2) and t.damage[1] == 1


@covers("EV-SNOWBALL-SPLAT", "legal", "illegal")
def test_snowball_splats_on_an_upward_step_unless_a_yeti_is_on_top() -> None:
    t = table((1, 2), (3, 2))
    assert snowball_target(t, 0, "E")[0] is None  # splat against (2,2); ben never sees it
    snowballs(t, [(0, "E")])
    assert t.damage == [0, 0, 0, 0]
    assert any(e.startswith("EV-SNOWBALL-SPLAT") for e in t.events)
    t = table((1, 2), (2, 2))
    assert snowball_target(t, 0, "E")[0] == 1


@covers("EV-SNOWBALL-TOGETHER", "legal", "illegal")
def test_snowballs_fly_together() -> None:
    # anna knocks ben east; ben's own snowball still flies from where he stood, up to cleo on (2,2).
    t = table((1, 1), (2, 1), (2, 2))
    snowballs(t, [(0, "E"), (1, "N")])
    assert t.squares()[:3] == [(1, 1), (3, 1), (2, 3)]
    assert t.damage[:3] == [0, 1, 1]
    # One at a time, ben's would have flown from (3,1) into the cliff at (3,2) and splatted.
    t = table((1, 1), (2, 1), (2, 2))
    snowballs(t, [(0, "E")])
    snowballs(t, [(1, "N")])
    assert t.damage[:3] == [0, 1, 0]


def test_two_snowballs_from_opposite_sides_hit_twice_and_knock_nowhere() -> None:
    t = table((1, 1), (3, 1), (5, 1))
    snowballs(t, [(0, "E"), (2, "W")])
    assert t.squares()[1] == (3, 1) and t.damage[1] == 2


def test_two_yeti_knocked_to_one_square_both_stay() -> None:
    t = table((1, 1), (2, 1), (4, 1), (6, 1))
    snowballs(t, [(0, "E"), (3, "W")])  # ben knocked east and cleo knocked west, both towards (3,1)
    assert t.squares() == [(1, 1), (2, 1), (4, 1), (6, 1)]
    assert t.damage == [0, 1, 1, 0]
