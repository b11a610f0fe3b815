"""Conflict detection (EV-CONFLICT), exactly as the rulebook defines it.

"Actions by different yeti are considered to be in conflict if a different board configuration
would result when the actions are performed sequentially in two different orders." So the engine
performs the actions in every order (snowballs always together, as one unit) on scratch copies and
compares the results. A roar changes nothing by itself; what it will do depends on where the roaring
yeti stands and who is beside it, so that is what a roar contributes to the comparison.

The rulebook's examples all follow from this: two yeti ending on one square, a yeti moving through
a stationary (roaring or throwing) one, overlapping paths in the same or opposite directions, a
snowball whose target moves, and 90-degree paths that only conflict when one ends on the crossing.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from itertools import permutations
from typing import Literal

from companion.games.everest.board import VECTORS, Board, Direction, Square, step
from companion.games.everest.movement import Scratch, move, roar_footprint, snowballs

log = logging.getLogger(__name__)

Kind = Literal["move", "roar", "snowballs"]
Part = tuple[int, Direction, int]  # (seat, direction, movement points)
Unit = tuple[Kind, tuple[Part, ...]]
"""One thing that happens at a time: a move, a roar, or all of a step's snowballs together."""


def perform(t: Scratch, unit: Unit) -> tuple[object, ...] | None:
    """Carry out one unit on ``t``; a roar returns its footprint, the others None."""
    kind, parts = unit
    if kind == "move":
        seat, direction, mp = parts[0]
        if seat not in t.off:
            move(t, seat, direction, mp)
        return None
    if kind == "roar":
        seat, direction, _ = parts[0]
        return roar_footprint(t, seat, direction)
    snowballs(t, [(seat, direction) for seat, direction, _ in parts if seat not in t.off])
    return None


_BITS: dict[Square, int] = {}
"""One bit per square ever named in a reach, so a set of squares is an int and overlap is one ``&``."""


def _mask(squares: set[Square]) -> int:
    out = 0
    for square in squares:
        bit = _BITS.get(square)
        if bit is None:
            bit = _BITS[square] = 1 << len(_BITS)
        out |= bit
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


def _groups(reaches: list[int]) -> list[list[int]]:
    """Units whose reaches touch, directly or through others: only these can change each other."""
    if len(reaches) == 2:  # no need to merge: one group or two
        return [[0, 1]] if reaches[0] & reaches[1] else [[0], [1]]
    groups: list[tuple[int, list[int]]] = []
    for i, reach in enumerate(reaches):
        merged_squares, merged = reach, [i]
        keep = []
        for squares, members in groups:
            if squares & merged_squares:
                merged_squares |= squares
                merged += members
            else:
                keep.append((squares, members))
        groups = keep + [(merged_squares, sorted(merged))]
    return [members for _, members in groups]


def units_conflict(t: Scratch, units: Sequence[Unit]) -> bool:
    """True if performing ``units`` in two different orders can give two different boards.

    Units whose reaches (see ``reach``) do not touch, directly or through others, cannot change
    each other, so only the orders within each group of touching units are tried. (resolve.py
    asks this only when two reaches touch; with none touching the answer is False.)
    """
    if len(units) < 2:
        return False
    board, pos = t.board, t.pos
    memo = board.memo
    reaches = []
    for kind, parts in units:
        squares = 0
        for seat, direction, mp in parts:
            here = pos[seat]
            if here is not None:
                squares |= memo.get((kind, here, direction, mp)) or reach(board, kind, here, direction, mp)
        reaches.append(squares)
    for members in _groups(reaches):
        if len(members) < 2:
            continue  # nobody else can touch its squares: every order ends the same for it
        if _group_conflicts(t, [units[i] for i in members]):
            return True
    return False


def _group_conflicts(t: Scratch, group: list[Unit]) -> bool:
    """True if the units of one group end differently in two of their orders.

    The rulebook's test performs the group in every order and compares the results: where every
    yeti ends up, and each roar's footprint. A roar changes nothing, so only the orders of the
    other units are tried, and each roar's footprint is read at every point of those orders
    instead. The results all agree exactly when those orders all end alike and no roar's footprint
    ever differs from the one before anything happened, since a roar may come first or after any
    part of any order. (Two units and a roar: one copy, not six.)
    """
    roars = [parts[0] for kind, parts in group if kind == "roar"]
    others = [unit for unit in group if unit[0] != "roar"]
    before = [roar_footprint(t, seat, direction) for seat, direction, _ in roars]
    first: tuple[object, ...] | None = None
    for order in permutations(others):
        s = t.copy(loud=False)
        for unit in order:
            perform(s, unit)
            if roars and _roar_changed(s, roars, before):
                return True
        end = s.signature()
        if first is None:
            first = end
        elif end != first:
            return True
    return False


def _roar_changed(s: Scratch, roars: list[Part], before: list[tuple[object, ...]]) -> bool:
    """Whether any roar would now see something other than it did before anything happened."""
    for (seat, direction, _), footprint in zip(roars, before):
        if roar_footprint(s, seat, direction) != footprint:
            return True
    return False


def step_units(actions: Mapping[int, tuple[Kind, Direction, int]]) -> list[Unit]:
    """The units of a step: each move and each roar alone, all snowballs as one."""
    units: list[Unit] = []
    throws: list[Part] = []
    for seat in sorted(actions):
        kind, direction, mp = actions[seat]
        if kind == "snowballs":
            throws.append((seat, direction, 0))
        else:
            units.append((kind, ((seat, direction, mp),)))
    if throws:
        units.append(("snowballs", tuple(throws)))
    return units
