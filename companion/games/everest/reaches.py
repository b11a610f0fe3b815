"""What each action of a step could touch (EV-CONFLICT's short cuts; conflicts.py uses them).

A unit's *reach* is every square it could look at or change, whatever happens first, as a bit mask
(one bit per square), so that overlap is one ``&``. Heights never change, so a reach from a square is
worked out once per board and remembered. Units whose reaches (grown for yeti that others could
displace first) do not touch cannot change one another: conflicts.find_conflict only tries the
orders within each group of touching units.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from operator import itemgetter
from typing import Literal

from .board import INDEX, VECTORS, Board, Direction, Square, step
from .movement import Scratch

log = logging.getLogger(__name__)

Kind = Literal["move", "roar", "snowballs"]
Part = tuple[int, Direction, int]  # (seat, direction, movement points)
Unit = tuple[Kind, tuple[Part, ...]]
"""One thing that happens at a time: a move, a roar, or all of a step's snowballs together."""

_SHIFTS: dict[str, int] = {"N": 10, "E": 1, "S": -10, "W": -1}
"""How far a square's bit moves for a step in each direction (board.STEPS; negative: to the right).

A set of squares is an int with bit ``board.index(square)`` set for each: the grid is one square
wider than the board on every side, so overlap is one ``&`` and a step in a direction one shift."""


def _mask(squares: Iterable[Square]) -> int:
    out = 0
    for square in squares:
        out |= 1 << INDEX[square]
    return out


def table(board: Board, kind: Kind, direction: Direction, mp: int) -> list[int]:
    """``reach`` from every grid index (0 off the board), worked out once per board and kept in
    ``board.memo`` under (kind, direction, mp): the engine reads ``memo[...][index]`` directly."""
    key = (kind, direction, mp)
    known = board.memo.get(key)
    if known is None:
        known = board.memo[key] = [
            0 if h is None else _mask(_line(board, kind, square, direction, mp)) for square, h in zip(_GRID, board.levels)
        ]
    return known


def reach(board: Board, kind: Kind, here: int, direction: Direction, mp: int) -> int:
    """Every square one part of a unit (``kind`` from the grid index ``here``) could look at or
    change, whatever happens first (a safe over-estimate), as a bit mask. Heights never change, so
    it is worked out once per board and remembered (``table``)."""
    known = board.memo.get((kind, direction, mp))
    return (known or table(board, kind, direction, mp))[here]


_GRID: tuple[Square, ...] = tuple(INDEX)
"""Every square of the grid, in index order (board.SQUARES)."""


def _line(board: Board, kind: Kind, here: Square, direction: Direction, mp: int) -> set[Square]:
    """Heights never change, so a move is cut short where even an empty line would stop it (a cliff
    up, the MP spent on squares and steps), plus one square for a push; a snowball flies until the
    first upward slope, plus one square for its push; a roar reaches its four neighbours."""
    out = {here}
    if kind == "roar":
        out.update(step(here, v) for v in VECTORS.values())
        return out
    v = VECTORS[direction]
    budget = mp if kind == "move" else 99
    while True:
        there = step(here, v)
        out.add(there)
        h = board.height(there)
        if h is None:
            break
        rise = h - board.heights[here]
        if kind == "snowballs":
            if rise > 0:
                out.add(step(there, v))  # the yeti on top may be knocked on
                break
        else:
            budget -= 2 if rise == 1 else 1
            if rise >= 2 or budget < 0:
                break
            if budget == 0:
                out.add(step(there, v))  # a yeti standing there could have been pushed on
                break
        here = there
    return out


def unit_reaches(t: Scratch, units: Sequence[Unit]) -> list[int]:
    """Each unit's reach from where its yeti stand now."""
    board, pos = t.board, t.pos
    out = []
    for kind, parts in units:
        squares = 0
        for seat, direction, mp in parts:
            here = pos[seat]
            if here is not None:
                squares |= reach(board, kind, here, direction, mp)
        out.append(squares)
    return out


def apart(reaches: Sequence[int]) -> bool:
    """No two reaches share a square (short cut 1: then no order can matter)."""
    seen = 0
    for squares in reaches:
        if seen & squares:
            return False
        seen |= squares
    return True


def displaceable(t: Scratch, units: Sequence[Unit], reaches: list[int]) -> bool:
    """Whether some acting yeti stands in another unit's reach (else no reach can grow)."""
    every = twice = 0  # the squares in some reach, and those in two or more
    for squares in reaches:
        twice |= every & squares
        every |= squares
    pos = t.pos
    for (_, parts), own in zip(units, reaches):
        others = (every & ~own) | (own & twice)  # the other units' reaches, without a second loop
        for seat, _, _ in parts:
            here = pos[seat]
            if here is not None and 1 << here & others:
                return True
    return False


def grown(t: Scratch, units: Sequence[Unit], reaches: list[int]) -> list[int]:
    """Each unit's reach grown from every square its yeti could be displaced to before it acts
    (short cut 1), until nothing grows.

    A push or a snowball moves a yeti one square in the pusher's or thrower's direction from a
    square in that part's reach; a mover may push it on, square by square. So a yeti that could
    stand in another unit's part's reach could also stand further on that way, as long as it is
    still in that reach, and its unit reaches from there too. Roars displace nobody (runaways are
    their own action turn).
    """
    board, pos = t.board, t.pos
    memo = board.memo
    parts: list[tuple[int, Kind, int]] = []  # (unit, kind, seat) of each part
    where: dict[int, int] = {}  # seat -> the squares (a mask) its yeti could stand on
    tables: list[list[int]] = []  # each part's reach from every grid index (``table``)
    masks: list[int] = []
    pushers: list[tuple[int, int, int]] = []  # (part, unit, shift) of each part that can push
    for i, (kind, unit_parts) in enumerate(units):
        for seat, direction, mp in unit_parts:
            found = memo.get((kind, direction, mp)) or table(board, kind, direction, mp)
            if kind != "roar":
                pushers.append((len(parts), i, _SHIFTS[direction]))
            parts.append((i, kind, seat))
            tables.append(found)
            here = pos[seat]
            if here is None:
                masks.append(0)
            else:
                where[seat] = 1 << here
                masks.append(found[here])
    cells = board.cells
    # A worklist rather than rounds over every part until none grows (the same least fixed point,
    # every step only grows): a part is looked at first only if its yeti stands in another unit's
    # pushing part's reach (no other can move), and again only when what it depends on grew, its
    # own squares or a reach of another unit's pushing part that holds its yeti.
    todo = []
    for k_self, (i, _, seat) in enumerate(parts):
        stands = where.get(seat, 0)
        for k, j, _ in pushers:
            if j != i and stands & masks[k]:
                todo.append(k_self)
                break
    while todo:
        k_self = todo.pop()
        i, kind, seat = parts[k_self]
        squares = where.get(seat)
        if squares is None:
            continue
        before = squares
        for k, j, shift in pushers:
            pusher = masks[k]
            if j != i and squares & pusher:  # (mostly not: then that part displaces it nowhere)
                squares = _pushed_on(squares, pusher, shift, cells)
        if squares != before:
            where[seat] = squares
            from_each, mask = tables[k_self], 0
            while squares:  # (the part's reach from each square it could stand on)
                low = squares & -squares
                mask |= from_each[low.bit_length() - 1]
                squares ^= low
            masks[k_self] = mask
            if k_self not in todo:
                todo.append(k_self)  # another pusher may take it further from its new squares
            if kind != "roar":  # its reach grew: the other units' yeti in it may be displaced further
                for k, (j, _, other) in enumerate(parts):
                    if j != i and where.get(other, 0) & mask and k not in todo:
                        todo.append(k)
    out = list(reaches)
    for (i, _, _), mask in zip(parts, masks):
        out[i] |= mask
    return out


def _pushed_on(squares: int, pusher: int, shift: int, cells: int) -> int:
    """``squares``, and every square of the board a yeti on one of them could be pushed or knocked
    on to, a square at a time ``shift`` bits on (a direction's step), while it still stands in the
    pusher's reach."""
    while True:
        ahead = squares & pusher
        more = (ahead << shift if shift > 0 else ahead >> -shift) & cells & ~squares
        if not more:
            return squares
        squares |= more


def groups(reaches: list[int]) -> list[list[int]]:
    """Units whose reaches touch, directly or through others: only these can change each other."""
    if len(reaches) == 2:  # the most frequent case: one group or two
        return [[0, 1]] if reaches[0] & reaches[1] else [[0], [1]]
    groups: list[tuple[int, list[int]]] = []
    for i, squares in enumerate(reaches):
        for other_squares, _ in groups:
            if other_squares & squares:
                break
        else:  # touching none so far (mostly): a group of its own, at the end as below
            groups.append((squares, [i]))
            continue
        merged_squares, merged = squares, [i]
        keep = []
        for other_squares, members in groups:
            if other_squares & merged_squares:
                merged_squares |= other_squares
                merged += members
            else:
                keep.append((other_squares, members))
        groups = keep + [(merged_squares, sorted(merged))]
    return list(map(itemgetter(1), groups))


# -- the check ----------------------------------------------------------------------------------------
