"""What each action of a step could touch (EV-CONFLICT's short cuts; conflicts.py uses them).

A unit's *reach* is every square it could look at or change, whatever happens first, as a bit mask
(one bit per square), so that overlap is one ``&``. Heights never change, so a reach from a square is
worked out once per board and remembered. Units whose reaches (grown for yeti that others could
displace first) do not touch cannot change one another: conflicts.find_conflict only tries the
orders within each group of touching units.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Literal

from .board import VECTORS, Board, Direction, Square, step
from .movement import Scratch

log = logging.getLogger(__name__)

Kind = Literal["move", "roar", "snowballs"]
Part = tuple[int, Direction, int]  # (seat, direction, movement points)
Unit = tuple[Kind, tuple[Part, ...]]
"""One thing that happens at a time: a move, a roar, or all of a step's snowballs together."""


_BITS: dict[Square, int] = {}
"""One bit per square ever named in a reach, so a set of squares is an int and overlap is one ``&``."""


def _bit(square: Square) -> int:
    bit = _BITS.get(square)
    if bit is None:
        bit = _BITS[square] = 1 << len(_BITS)
    return bit


def _mask(squares: set[Square]) -> int:
    out = 0
    for square in squares:
        out |= _bit(square)
    return out




def reach(board: Board, kind: Kind, here: Square, direction: Direction, mp: int) -> int:
    """Every square one part of a unit (``kind`` from ``here``) could look at or change, whatever
    happens first (a safe over-estimate), as a bit mask (see ``_BITS``). Heights never change, so
    it is worked out once per board and remembered."""
    key = (kind, here, direction, mp)
    known = board.memo.get(key)
    if known is None:
        known = board.memo[key] = _mask(_line(board, kind, here, direction, mp))
    return known


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
    memo = board.memo
    out = []
    for kind, parts in units:
        squares = 0
        for seat, direction, mp in parts:
            here = pos[seat]
            if here is not None:
                squares |= memo.get((kind, here, direction, mp)) or reach(board, kind, here, direction, mp)
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
    pos = t.pos
    for i, (_, parts) in enumerate(units):
        others = 0
        for j, squares in enumerate(reaches):
            if j != i:
                others |= squares
        for seat, _, _ in parts:
            here = pos[seat]
            if here is not None and _BITS.get(here, 0) & others:
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
    heights = board.heights
    parts = [(i, kind, seat, direction, mp) for i, (kind, unit_parts) in enumerate(units) for seat, direction, mp in unit_parts]
    where: dict[int, set[Square]] = {}
    for _, _, seat, _, _ in parts:
        here = pos[seat]
        if here is not None:
            where[seat] = {here}
    memo = board.memo
    masks = []
    for _, kind, seat, direction, mp in parts:
        here = pos[seat]
        masks.append(0 if here is None else memo.get((kind, here, direction, mp)) or reach(board, kind, here, direction, mp))
    pushers = [(k, i, VECTORS[direction]) for k, (i, kind, _, direction, _) in enumerate(parts) if kind != "roar"]
    bits = _BITS
    grew = True
    while grew:
        grew = False
        for k_self, (i, _, seat, _, _) in enumerate(parts):
            squares = where.get(seat)
            if squares is None:
                continue
            more = False
            for k, j, (dx, dy) in pushers:
                if j == i:
                    continue
                mask = masks[k]
                for here in list(squares):
                    while bits.get(here, 0) & mask:  # pushed on, square by square, while still in that reach
                        there = (here[0] + dx, here[1] + dy)  # (board.step, inline: the innermost loop)
                        if there not in heights or there in squares:
                            break
                        squares.add(there)
                        more = True
                        here = there
            if more:
                grew = True
                _, kind, _, direction, mp = parts[k_self]
                masks[k_self] = _reach_from(board, kind, squares, direction, mp)
    out = list(reaches)
    for (i, _, _, _, _), mask in zip(parts, masks):
        out[i] |= mask
    return out


def _reach_from(board: Board, kind: Kind, squares: set[Square] | tuple[()], direction: Direction, mp: int) -> int:
    out = 0
    for here in squares:
        out |= reach(board, kind, here, direction, mp)
    return out


def groups(reaches: list[int]) -> list[list[int]]:
    """Units whose reaches touch, directly or through others: only these can change each other."""
    if len(reaches) == 2:  # the most frequent case: one group or two
        return [[0, 1]] if reaches[0] & reaches[1] else [[0], [1]]
    groups: list[tuple[int, list[int]]] = []
    for i, squares in enumerate(reaches):
        merged_squares, merged = squares, [i]
        keep = []
        for other_squares, members in groups:
            if other_squares & merged_squares:
                merged_squares |= other_squares
                merged += members
            else:
                keep.append((other_squares, members))
        groups = keep + [(merged_squares, sorted(merged))]
    return [members for _, members in groups]


# -- the check ----------------------------------------------------------------------------------------
