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
yeti stands and who is beside it). ``find_conflict`` gives the same answer faster, with two short
cuts that tests/games/test_everest_conflict_property.py checks against ``orders_differ`` on
generated steps (pushes, falls, edges, notches, roars, snowballs):

1. Reaches (reaches.py). A unit's reach is every square it could look at or change from where its
   yeti stands. A yeti standing in another unit's reach could be pushed or knocked on from there
   before its own action, so its unit's reach grows by its reach from each square it could be
   displaced to, until nothing grows (``reaches.grown``). Units whose grown reaches do not touch,
   directly or through others, cannot change each other: only the orders within each such group
   are tried. (Reaches from where the yeti stand, not grown, were the short cut that missed issue
   #17's conflicts: A pushes B into a line where B's own action meets C.)
2. Shared beginnings. Within a group, orders that share a beginning share its work: the boards
   after each set of units done (in any order so far) are kept once each, and a roar is read at
   every one of those boards instead of being tried at every place in every order.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import permutations

from .board import Direction
from .movement import Scratch, move, roar_footprint, snowballs, still_throwing
from .reaches import Kind, Part, Unit, apart, displaceable, groups, grown, unit_reaches

__all__ = ["Found", "Kind", "Part", "Unit", "find_conflict", "orders_differ", "outcome", "perform", "step_units", "units_conflict"]

log = logging.getLogger(__name__)


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
    snowballs(t, still_throwing(parts, t.off))
    return None


def outcome(t: Scratch, order: Sequence[Unit]) -> tuple[object, ...]:
    """What one order of the units leaves behind: the board configuration, and what every roar found
    when it happened (by seat). Two orders conflict exactly when their outcomes differ."""
    s = t.copy(False)
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


def find_conflict(t: Scratch, units: Sequence[Unit], reaches: list[int] | None = None) -> Found | None:
    """``units_conflict``, with the group in conflict and two orders that show it, or None.

    ``reaches``: each unit's reach (``unit_reaches``), if the caller has them already."""
    if len(units) < 2:
        return None
    if reaches is None:
        reaches = unit_reaches(t, units)
    if apart(reaches):
        return None  # nobody stands in another's reach, so nobody is displaced: nothing grows
    touching = groups(reaches)
    if len(touching) > 1 and displaceable(t, units, reaches):
        wider = grown(t, units, reaches)
        if wider != reaches:  # (mostly nothing grows: then the groups are those found)
            touching = groups(wider)  # growing only ever merges groups
    for members in touching:
        if len(members) < 2:
            continue
        group = tuple(map(units.__getitem__, members))
        found = _group_conflicts(t, group)
        if found is not None:
            rest = tuple([unit for i, unit in enumerate(units) if i not in members])
            return Found(group, found.first + rest, found.second + rest, found.differ)
    return None


def _group_conflicts(t: Scratch, units: Sequence[Unit]) -> Found | None:
    """Every order of one group's units (short cut 2): two orders that end differently, or None."""
    roars: list[Unit] = []
    others: list[Unit] = []
    for unit in units:  # (one loop, not two comprehensions: each is a function call in 3.11)
        (roars if unit[0] == "roar" else others).append(unit)
    if not roars and len(others) == 2:  # the most frequent group: two orders, two copies
        a, b = others
        ab, ba = t.copy(False), t.copy(False)
        if a[0] == "move" and b[0] == "move":  # (perform's move, without its call: the most frequent pair)
            (seat_a, direction_a, mp_a), (seat_b, direction_b, mp_b) = a[1][0], b[1][0]
            if seat_a not in ab.off:
                move(ab, seat_a, direction_a, mp_a)
            if seat_b not in ab.off:
                move(ab, seat_b, direction_b, mp_b)
            if seat_b not in ba.off:
                move(ba, seat_b, direction_b, mp_b)
            if seat_a not in ba.off:
                move(ba, seat_a, direction_a, mp_a)
        else:
            perform(ab, a)
            perform(ab, b)
            perform(ba, b)
            perform(ba, a)
        # (Scratch.signature compared field by field: the two boards agree, mostly)
        if ab.pos == ba.pos and ab.damage == ba.damage and ab.off == ba.off:
            return None
        return Found((a, b), (a, b), (b, a), (ab.signature(), ba.signature()))
    if not others:
        return None  # roars alone change nothing: every order ends on the same board
    if len(roars) == 1 and len(others) == 1:  # a roar and one other unit: two orders
        roared, acted = roars[0], others[0]
        seat, direction, _ = roared[1][0]
        before = roar_footprint(t, seat, direction)
        after = t.copy(False)
        perform(after, acted)
        now = roar_footprint(after, seat, direction)
        if now == before:
            return None
        moved = after.signature()
        return Found(tuple(units), (roared, acted), (acted, roared), (moved + (before,), moved + (now,)))
    heard = [roar_footprint(t, seat, direction) for _, ((seat, direction, _),) in roars]
    # Boards after each set of units done (a bit per unit), each distinct board kept once: two
    # orders of a set that end on the same board go on identically, so one stands for both. Boards
    # that grew from ``t`` are told apart by their positions and damage alone (a yeti leaves the
    # board exactly when its position becomes None, so who left follows), in one tuple.
    layer: dict[int, Iterable[tuple[Scratch, tuple[int, ...]]]] = {0: [(t, ())]}
    for _ in range(len(others)):
        nxt: dict[int, dict[tuple[int | None, ...], tuple[Scratch, tuple[int, ...]]]] = {}
        for done, boards in layer.items():
            todo = [i for i in range(len(others)) if not done & 1 << i]
            last = todo[-1]
            for board, order in boards:
                for i in todo:
                    # a board's last next unit may be done on the board itself (never on ``t``)
                    s = board if i == last and board is not t else board.copy(False)
                    perform(s, others[i])
                    path = order + (i,)
                    # A roar may happen at any point of any order: it must find the same there.
                    for roar, before in zip(roars, heard):
                        seat, direction, _ = roar[1][0]
                        now = roar_footprint(s, seat, direction)
                        if now != before:
                            done_units = tuple([others[k] for k in path])
                            rest = tuple([u for k, u in enumerate(others) if k not in path])
                            quiet = tuple([r for r in roars if r is not roar])
                            early = (roar,) + done_units + rest + quiet
                            late = done_units + (roar,) + rest + quiet
                            signature = s.signature()
                            return Found(tuple(units), early, late, (signature + (before,), signature + (now,)))
                    bucket = nxt.get(done | 1 << i)
                    if bucket is None:
                        bucket = nxt[done | 1 << i] = {}
                    key = (*s.pos, *s.damage)
                    if key not in bucket:
                        bucket[key] = (s, path)
                        if len(bucket) == 2 and not roars and len(path) == len(others):
                            # two orders of every unit already end apart, and no roar is left
                            # to be read on the boards still to come: the answer is these two
                            return _ends_apart(units, others, roars, bucket.values())
        layer = {done: bucket.values() for done, bucket in nxt.items()}
    ends = [board for boards in layer.values() for board in boards]
    return _ends_apart(units, others, roars, ends) if len(ends) > 1 else None


def _ends_apart(
    units: Sequence[Unit], others: Sequence[Unit], roars: Sequence[Unit], ends: Iterable[tuple[Scratch, tuple[int, ...]]]
) -> Found:
    """The conflict shown by the first two of ``ends``, boards after every unit but the roars done
    in two orders (indices into ``others``), that differ."""
    (one, one_path), (other, other_path), *_ = ends
    heard_first = tuple(roars)  # roars first in both: they find the same, the boards differ
    return Found(
        tuple(units),
        heard_first + tuple([others[k] for k in one_path]),
        heard_first + tuple([others[k] for k in other_path]),
        (one.signature(), other.signature()),
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
