"""Why actions conflict (EV-CONFLICT), in words a table can check: two orders that end differently.

conflicts.find_conflict returns the group of actions that can change one another (the step's other
actions cannot touch them) and two orders of all the step's actions that end differently; this
module says what differs (as find_conflict saw it): a square, a hit, a yeti off the board, or who
stands beside a roar when it happens.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from .board import TEXTS
from .conflicts import Found, Unit
from .movement import Scratch
from .state import Witness

log = logging.getLogger(__name__)


def _seats(order: Sequence[Unit]) -> tuple[int, ...]:
    seats = []  # (a loop, not a comprehension: a function call fewer, for every conflict)
    for _, parts in order:
        for seat, _, _ in parts:
            seats.append(seat)
    return tuple(seats)


def _unit_name(names: Sequence[str], unit: Unit) -> str:
    kind, parts = unit
    if kind == "snowballs" and len(parts) == 1:
        return f"{names[parts[0][0]]}'s snowball"
    if kind == "snowballs":
        return "the snowballs of " + " and ".join([names[seat] for seat, _, _ in parts])
    return names[parts[0][0]]


def explain(t: Scratch, found: Found) -> Witness:
    """The conflict ``found`` in words: "anna, ben, cleo ≠ ben, anna, cleo: ben's yeti ends on (3,2)
    in the one order, on (4,2) in the other"."""
    names = t.names
    a, b = found.differ
    first = ", ".join([_unit_name(names, u) for u in found.first])
    second = ", ".join([_unit_name(names, u) for u in found.second])
    why = f"{first} ≠ {second}: {_difference(names, a, b)}"
    return Witness(_seats(found.first), _seats(found.second), tuple(sorted(_seats(found.group))), why)


def _where(square: object) -> str:
    """Where a yeti ends, from a grid index (Scratch.signature holds indices)."""
    if square is None:
        return "off the board"
    assert isinstance(square, int)
    return f"on {TEXTS[square]}"


def _difference(names: Sequence[str], a: tuple[object, ...], b: tuple[object, ...]) -> str:
    """What differs between two outcomes (conflicts.outcome), first thing first."""
    pos_a, dmg_a, _off_a = a[0], a[1], a[2]
    pos_b, dmg_b, _off_b = b[0], b[1], b[2]
    assert isinstance(pos_a, tuple) and isinstance(pos_b, tuple)
    assert isinstance(dmg_a, tuple) and isinstance(dmg_b, tuple)
    for seat, (here, there) in enumerate(zip(pos_a, pos_b)):
        if here != there:
            return f"{names[seat]}'s yeti ends {_where(here)} in the one order, {_where(there)} in the other"
    for seat, (hurt, other) in enumerate(zip(dmg_a, dmg_b)):
        if hurt != other:
            return f"{names[seat]}'s yeti takes {hurt} damage in the one order, {other} in the other"
    for heard_a, heard_b in zip(a[3:], b[3:]):
        if heard_a != heard_b:
            assert isinstance(heard_a, tuple) and isinstance(heard_b, tuple)
            seat = heard_a[0]
            assert isinstance(seat, int)
            return f"{names[seat]}'s roar finds {_around(names, heard_a)} in the one order, {_around(names, heard_b)} in the other"
    return "the yeti leave the board differently"


def _around(names: Sequence[str], heard: tuple[object, ...]) -> str:
    """What a roar finds (movement.roar_footprint): where it is roared from, and who is beside."""
    if len(heard) < 4:
        return "its yeti off the board"
    here, around = heard[1], heard[3]
    assert isinstance(around, tuple)
    near = [f"{names[who]} to the {d}" for d, who in around if who is not None]
    beside = ("beside it " + ", ".join(near)) if near else "nobody beside it"
    assert isinstance(here, int)  # (a grid index)
    return f"{beside} at {TEXTS[here]}"
