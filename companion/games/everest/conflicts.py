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


def _result(t: Scratch, order: Sequence[Unit]) -> tuple[object, ...]:
    roars: list[tuple[int, tuple[object, ...]]] = []
    for unit in order:
        footprint = perform(t, unit)
        if footprint is not None:
            roars.append((unit[1][0][0], footprint))
    roars.sort(key=lambda r: r[0])
    return t.signature() + tuple(roars)


def _reach(board: Board, pos: Sequence[Square | None], unit: Unit) -> frozenset[Square]:
    """Every square a unit could look at or change, whatever happens first (a safe over-estimate)."""
    kind, parts = unit
    out: frozenset[Square] = frozenset()
    for seat, direction, mp in parts:
        here = pos[seat]
        if here is not None:
            key = (kind, here, direction, mp)
            line = board.memo.get(key)
            if line is None:
                line = board.memo[key] = _line(board, kind, here, direction, mp)
            out = out | line
    return out


def _line(board: Board, kind: Kind, here: Square, direction: Direction, mp: int) -> frozenset[Square]:
    """Heights never change, so a move is cut short where even an empty line would stop it (a cliff
    up, the MP spent on squares and steps), plus one square for a push; a snowball flies until the
    first upward slope, plus one square for its push; a roar reaches its four neighbours."""
    out = {here}
    if kind == "roar":
        out.update(step(here, v) for v in VECTORS.values())
        return frozenset(out)
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
    return frozenset(out)


def _groups(reaches: list[frozenset[Square]]) -> list[list[int]]:
    """Units whose reaches touch, directly or through others: only these can change each other."""
    groups: list[tuple[set[Square], list[int]]] = []
    for i, reach in enumerate(reaches):
        merged_squares, merged = set(reach), [i]
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
    """True if performing ``units`` in two different orders can give two different boards."""
    if len(units) < 2:
        return False
    reaches = [_reach(t.board, t.pos, u) for u in units]
    for members in _groups(reaches):
        if len(members) < 2:
            continue  # nobody else can touch its squares: every order ends the same for it
        group = [units[i] for i in members]
        first: tuple[object, ...] | None = None
        for order in permutations(group):
            result = _result(t.copy(), order)
            if first is None:
                first = result
            elif result != first:
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
