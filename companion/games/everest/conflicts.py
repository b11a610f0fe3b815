"""Conflict detection (EV-CONFLICT), exactly as the rulebook defines it.

"Actions by different yeti are considered to be in conflict if a different board configuration
would result when the actions are performed sequentially in two different orders." So the question
is asked of *all* the step's actions together (every snowball of the step as one unit, because they
always fly together), never pair by pair: three actions can end differently in two orders although
no two of them do on their own (A pushes B somewhere from which B's own move is blocked only while
C is still there).

``orders_differ`` is that definition done literally: every order of every unit, on scratch copies,
comparing where every yeti ends, its damage, who left the board, and what each roar finds around it
when it happens (a roar changes nothing by itself; what it will do depends on where the roaring
yeti stands and who is beside it). ``units_conflict`` gives the same answer faster, with two short
cuts that tests/games/test_everest_conflict_property.py checks against ``orders_differ`` on
generated steps (pushes, falls, edges, notches, roars, snowballs):

1. Reaches. ``reach`` is every square a unit could look at or change from where its yeti stands.
   A yeti standing in another unit's reach could be pushed or knocked on from there before its
   own action, so its unit's reach grows by its reach from each square it could be displaced to,
   until nothing grows (``_grown``). Units whose grown reaches do not touch, directly or through others, cannot
   change each other: only the orders within each such group are tried. (The reaches from where
   the yeti stand, without growing, were the short cut that missed issue #17's conflicts: A
   pushes B into a line where B's own action meets C.)
2. Shared beginnings. Within a group, orders that share a beginning share its work: the boards
   after each set of units done (in any order so far) are kept once each, and a roar is read at
   every one of those boards instead of being tried at every place in every order.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
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


def outcome(t: Scratch, order: Sequence[Unit]) -> tuple[object, ...]:
    """What one order of the units leaves behind: the board configuration, and what every roar found
    when it happened (by seat). Two orders conflict exactly when their outcomes differ."""
    s = t.copy(loud=False)
    heard: dict[int, tuple[object, ...]] = {}
    for unit in order:
        found = perform(s, unit)
        if found is not None:
            heard[unit[1][0][0]] = found
    return s.signature() + tuple([heard[seat] for seat in sorted(heard)])


def orders_differ(t: Scratch, units: Sequence[Unit]) -> bool:
    """The rulebook's definition, literally: perform the units in every order and compare."""
    first: tuple[object, ...] | None = None
    for order in permutations(units):
        end = outcome(t, order)
        if first is None:
            first = end
        elif end != first:
            return True
    return False


# -- reaches: what a unit could touch ------------------------------------------------------------

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


def _displaceable(t: Scratch, units: Sequence[Unit], reaches: list[int]) -> bool:
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


def _grown(t: Scratch, units: Sequence[Unit], reaches: list[int]) -> list[int]:
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
    part_reach = [_reach_from(board, kind, where.get(seat, ()), direction, mp) for _, kind, seat, direction, mp in parts]
    moved = True
    while moved:
        moved = False
        for i, _, seat, _, _ in parts:
            squares = where.get(seat)
            if squares is None:
                continue
            for (j, kind, _, direction, _), mask in zip(parts, part_reach):
                if j == i or kind == "roar":
                    continue
                v = VECTORS[direction]
                for here in list(squares):
                    while _BITS.get(here, 0) & mask:  # pushed on, square by square, while still in that reach
                        there = step(here, v)
                        if there not in heights or there in squares:
                            break
                        squares.add(there)
                        moved = True
                        here = there
        if moved:
            part_reach = [_reach_from(board, kind, where.get(seat, ()), direction, mp) for _, kind, seat, direction, mp in parts]
    grown = list(reaches)
    for (i, _, _, _, _), mask in zip(parts, part_reach):
        grown[i] |= mask
    return grown


def _reach_from(board: Board, kind: Kind, squares: set[Square] | tuple[()], direction: Direction, mp: int) -> int:
    out = 0
    for here in squares:
        out |= reach(board, kind, here, direction, mp)
    return out


def _groups(reaches: list[int]) -> list[list[int]]:
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


@dataclass(frozen=True)
class Found:
    """A conflict: ``group``, the units that can change one another (the others cannot touch
    them), and two orders of all the units that end differently (``outcome``)."""

    group: tuple[Unit, ...]
    first: tuple[Unit, ...]
    second: tuple[Unit, ...]
    differ: tuple[tuple[object, ...], tuple[object, ...]]
    """What differs between the two: the boards at the end (``Scratch.signature``) and, if it is
    a roar that finds different things, what it finds (``roar_footprint``) in each order."""


def units_conflict(t: Scratch, units: Sequence[Unit]) -> bool:
    """True if performing all ``units`` in two different orders can give two different outcomes
    (``orders_differ``), with the short cuts of the module docstring."""
    return find_conflict(t, units) is not None


def find_conflict(t: Scratch, units: Sequence[Unit]) -> Found | None:
    """``units_conflict``, with the group in conflict and two orders that show it, or None."""
    if len(units) < 2:
        return None
    reaches = unit_reaches(t, units)
    if apart(reaches):
        return None  # nobody stands in another's reach, so nobody is displaced: nothing grows
    groups = _groups(reaches)
    if len(groups) > 1 and _displaceable(t, units, reaches):
        groups = _groups(_grown(t, units, reaches))  # growing only ever merges groups
    for members in groups:
        if len(members) < 2:
            continue
        group = tuple([units[i] for i in members])
        found = _group_conflicts(t, group)
        if found is not None:
            rest = tuple([unit for i, unit in enumerate(units) if i not in members])
            return Found(group, found.first + rest, found.second + rest, found.differ)
    return None

Reached = tuple[tuple[object, ...], Scratch, tuple[int, ...]]  # signature, the board, an order that got there


def _group_conflicts(t: Scratch, units: Sequence[Unit]) -> Found | None:
    """Every order of one group's units (short cut 2): two orders that end differently, or None."""
    roars = [unit for unit in units if unit[0] == "roar"]
    others = [unit for unit in units if unit[0] != "roar"]
    if not roars and len(others) == 2:  # the most frequent group: two orders, two copies
        a, b = others
        ab, ba = t.copy(loud=False), t.copy(loud=False)
        perform(ab, a)
        perform(ab, b)
        perform(ba, b)
        perform(ba, a)
        one, other = ab.signature(), ba.signature()
        return None if one == other else Found((a, b), (a, b), (b, a), (one, other))
    heard = [roar_footprint(t, seat, direction) for _, ((seat, direction, _),) in roars]
    # Boards after each set of units done (a bit per unit), each distinct board kept once: two
    # orders of a set that end on the same board go on identically, so one stands for both.
    layer: dict[int, list[Reached]] = {0: [(t.signature(), t, ())]}
    for _ in range(len(others)):
        nxt: dict[int, list[Reached]] = {}
        for done, boards in layer.items():
            todo = [i for i in range(len(others)) if not done & 1 << i]
            last = todo[-1]
            for _, board, order in boards:
                for i in todo:
                    # a board's last next unit may be done on the board itself (never on ``t``)
                    s = board if i == last and board is not t else board.copy(loud=False)
                    perform(s, others[i])
                    bucket = nxt.setdefault(done | 1 << i, [])
                    path = order + (i,)
                    # A roar may happen at any point of any order: it must find the same there.
                    signature = s.signature()
                    for roar, before in zip(roars, heard):
                        seat, direction, _ = roar[1][0]
                        now = roar_footprint(s, seat, direction)
                        if now != before:
                            done_units = tuple([others[k] for k in path])
                            rest = tuple([u for k, u in enumerate(others) if k not in path])
                            quiet = tuple([r for r in roars if r is not roar])
                            early = (roar,) + done_units + rest + quiet
                            late = done_units + (roar,) + rest + quiet
                            return Found(tuple(units), early, late, (signature + (before,), signature + (now,)))
                    if all(signature != known for known, _, _ in bucket):
                        bucket.append((signature, s, path))
        layer = nxt
    ends = [board for boards in layer.values() for board in boards]
    if len(ends) < 2:
        return None
    (one, _, one_path), (other, _, other_path) = ends[0], ends[1]
    heard_first = tuple(roars)  # roars first in both: they find the same, the boards differ
    return Found(
        tuple(units),
        heard_first + tuple([others[k] for k in one_path]),
        heard_first + tuple([others[k] for k in other_path]),
        (one, other),
    )


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
