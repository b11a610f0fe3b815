"""Yeti movement, pushing, falling and snowballs, on a scratch copy of the mountain.

The engine copies the state's positions and damage into a :class:`Scratch`, carries the actions
out on it, and builds the next frozen state from it; nothing here touches a state in place.

Conflict detection (conflicts.py) carries the same actions out on *quiet* copies, in every order,
and only compares where the yeti end up: a quiet copy writes no event lines, so every note below is
written only ``if t.loud`` (formatting the words was a third of the cost of a simulated move).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from .board import AROUND, STEPS, TEXTS, Board, Direction, Square, indices, squares_of

log = logging.getLogger(__name__)


class Scratch:
    """A working copy of the yeti on the mountain: positions, this round's damage, who left the board.

    ``pos`` holds grid indices (board.index), not squares: the engine's loops find a yeti and step
    along a line with int compares and additions. It is built from, and read back as, squares."""

    __slots__ = ("board", "names", "pos", "damage", "off", "events", "pushed_fall_damage", "loud")

    def __init__(
        self,
        board: Board,
        names: Sequence[str],
        pos: Sequence[Square | None],
        damage: Sequence[int],
        off: frozenset[int] | set[int],
        pushed_fall_damage: bool = True,
    ) -> None:
        self.board = board
        self.names = tuple(names)
        self.pos: list[int | None] = indices(pos)
        self.damage = list(damage)
        self.off = set(off)
        self.events: list[str] = []
        self.pushed_fall_damage = pushed_fall_damage
        self.loud = True  # False on conflict detection's copies: nothing reads their events

    def copy(self, loud: bool = True) -> "Scratch":
        """The same yeti, with no events yet (built slot by slot: conflict detection copies a lot)."""
        new = Scratch.__new__(Scratch)
        new.board = self.board
        new.names = self.names
        new.pos = self.pos[:]
        new.damage = self.damage[:]
        new.off = set(self.off)
        new.events = []
        new.pushed_fall_damage = self.pushed_fall_damage
        new.loud = loud
        return new

    def squares(self) -> list[Square | None]:
        """Where each yeti stands, as squares (None: off the board)."""
        return list(squares_of(self.pos))

    def occupant(self, square: int) -> int | None:
        pos = self.pos
        return pos.index(square) if square in pos else None  # the first seat there, found in C

    def signature(self) -> tuple[object, ...]:
        """The board configuration, for telling whether two orders of actions end differently
        (positions as grid indices)."""
        return (tuple(self.pos), tuple(self.damage), frozenset(self.off))

    def note(self, text: str) -> None:
        self.events.append(text)

    def _leave_board(self, seat: int, why: str) -> None:
        # EV-EDGE: off the edge ends the move and cancels the round's remaining actions.
        self.pos[seat] = None
        self.off.add(seat)
        if self.loud:
            self.events.append(f"EV-EDGE: {self.names[seat]}'s yeti {why} off the edge of the board; its remaining actions are cancelled")

    def _knocked(self, seat: int, frm: int, to: int | None, why: str, rule: str = "EV-PUSH") -> None:
        """Put a pushed yeti on ``to`` (None: off the edge); a drop of 2 or more is a fall."""
        if to is None:
            self._leave_board(seat, f"is {why}" if self.loud else "")
            return
        self.pos[seat] = to
        levels = self.board.levels
        drop = levels[frm] - levels[to]  # type: ignore[operator]  # (both on the board)
        if drop >= 2:
            if self.pushed_fall_damage:
                self.damage[seat] += 1
                if self.loud:
                    self.events.append(f"EV-FALL: {self.names[seat]}'s yeti is {why} off a cliff to {TEXTS[to]} and takes 1 damage")
            elif self.loud:
                self.events.append(f"EV-FALL: {self.names[seat]}'s yeti is {why} off a cliff to {TEXTS[to]}")
        elif self.loud:
            self.events.append(f"{rule}: {self.names[seat]}'s yeti is {why} to {TEXTS[to]}")


def move(t: Scratch, seat: int, direction: Direction, mp: int, what: str = "moves", rule: str = "EV-MOVE") -> None:
    """Move a yeti up to ``mp`` movement points in a straight line (EV-MOVE and the rules it names).

    The hottest loop of the engine (conflict detection runs it for every order tried), so it walks
    the board's line of grid indices (each square with its rise, and where a push would send a
    yeti) and finds an occupant with ``in`` and ``list.index`` on ints.
    """
    pos = t.pos
    here = pos[seat]
    if here is None or mp <= 0:
        return
    start = here
    loud = t.loud  # (the words only for a board whose events are read)
    stop = ""
    # pos[seat] is written once, at the end: the mover's old square lies behind it on the line,
    # so the squares ahead are found (and pushed from) the same with it still there.
    for there, rise, cost, beyond, push_rise in t.board.lines[direction][here] or ():
        if rise >= 2:
            if loud:
                stop = f"EV-CLIFF-UP: {t.names[seat]}'s yeti runs into a cliff at {TEXTS[there]} and loses its last {mp} MP"
            break
        pushed = None
        if there in pos:
            pushed = pos.index(there)
            if push_rise is not None and push_rise >= 2:
                if loud:
                    stop = f"EV-PUSH-BLOCKED: {t.names[seat]}'s yeti cannot push {t.names[pushed]}'s up a cliff and loses its last {mp} MP"
                break
            if push_rise is not None and beyond in pos:
                if loud:
                    stop = f"EV-PUSH-BLOCKED: {t.names[seat]}'s yeti cannot push {t.names[pushed]}'s into another yeti and loses its last {mp} MP"
                break
            if rise <= -2:
                cost += 0  # EV-PUSH-FALL: falling off a cliff gives a free push
            elif push_rise == 1:
                cost += 2
            else:
                cost += 1
        if cost > mp:
            if loud:
                short = "EV-PUSH" if pushed is not None else "EV-MOVE"
                stop = f"{short}: {t.names[seat]}'s yeti has {mp} MP left, not the {cost} it needs to go on"
            break
        mp -= cost
        if pushed is not None:
            t._knocked(pushed, there, beyond, f"pushed {direction} by {t.names[seat]}'s" if loud else "")  # beyond None: off the edge
        here = there
        if rise <= -2:
            t.damage[seat] += 1
            if loud:
                t.events.append(f"EV-FALL: {t.names[seat]}'s yeti falls off the cliff to {TEXTS[there]} and takes 1 damage")
        if mp <= 0:
            break
    else:  # MP left at the end of the ray: the next step is off the edge
        if here != start and loud:
            t.events.append(f"{rule}: {t.names[seat]}'s yeti {what} {direction} from {TEXTS[start]} to {TEXTS[here]}")
        t._leave_board(seat, f"{what} {direction}" if loud else "")
        return
    pos[seat] = here
    if loud:
        if here != start:
            t.events.append(f"{rule}: {t.names[seat]}'s yeti {what} {direction} from {TEXTS[start]} to {TEXTS[here]}")
        if stop:
            t.events.append(stop)


def snowball_target(t: Scratch, seat: int, direction: Direction) -> tuple[int | None, str]:
    """Which yeti a snowball thrown now would hit (EV-SNOWBALL), or None and where it ended."""
    pos = t.pos
    here = pos[seat]
    if here is None:
        return None, "nowhere"
    for there, rise, _, _, _ in t.board.lines[direction][here] or ():
        if there in pos:
            return pos.index(there), ""
        if rise > 0:
            # EV-SNOWBALL-SPLAT: an upward step or cliff with no yeti on its top square
            return None, f"goes splat on the slope up to {TEXTS[there]}"
    return None, "flies off the board"


def still_throwing(throws: Sequence[tuple[int, Direction, int]], off: set[int]) -> list[tuple[int, Direction]]:
    """The (seat, direction) of each of a step's snowball throws (seat, direction, 0) whose yeti is
    still on the board (EV-EDGE: a yeti pushed off the edge earlier in the step throws nothing).
    A loop, not a comprehension: each is a function call in CPython 3.11, and conflict detection
    throws on every board it tries."""
    flying = []
    for seat, direction, _ in throws:
        if seat not in off:
            flying.append((seat, direction))
    return flying


def snowballs(t: Scratch, throws: Sequence[tuple[int, Direction]]) -> None:
    """Throw every snowball at once (EV-SNOWBALL-TOGETHER): find all hits first, then apply them.

    A yeti hit by more than one snowball takes each hit; it is pushed only if they all came from one
    direction. Two yeti knocked towards the same square both stay put.
    """
    hits: dict[int, list[Direction]] = {}
    for seat, direction in throws:
        if t.pos[seat] is None:
            continue
        target, miss = snowball_target(t, seat, direction)
        if target is None:
            if t.loud:
                rule = "EV-SNOWBALL-SPLAT" if "splat" in miss else "EV-SNOWBALL"
                t.events.append(f"{rule}: {t.names[seat]}'s snowball thrown {direction} {miss}")
            continue
        hits.setdefault(target, []).append(direction)
        if t.loud:
            t.events.append(f"EV-SNOWBALL: {t.names[seat]}'s snowball hits {t.names[target]}'s yeti, 1 damage")
    planned: dict[int, int | None] = {}
    levels = t.board.levels
    for target, directions in hits.items():
        t.damage[target] += len(directions)
        if len(set(directions)) != 1:
            continue
        frm = t.pos[target]
        assert frm is not None
        to = frm + STEPS[directions[0]]
        h_to = levels[to]
        if h_to is None:
            planned[target] = None
        elif h_to > levels[frm] or to in t.pos:  # type: ignore[operator]  # (frm is on the board)
            if t.loud:
                t.events.append(f"EV-SNOWBALL: {t.names[target]}'s yeti cannot be knocked up a step, a cliff or into a yeti and stays put")
        else:
            planned[target] = to
    if not planned:
        return  # nobody is knocked anywhere (most throws)
    landing = [sq for sq in planned.values() if sq is not None]
    for target, dest in planned.items():
        if dest is not None and landing.count(dest) > 1:
            if t.loud:
                t.events.append(f"EV-SNOWBALL: {t.names[target]}'s yeti stays put: another yeti is knocked to the same square")
            continue
        here = t.pos[target]
        assert here is not None
        t._knocked(target, here, dest, f"knocked {hits[target][0]} by a snowball" if t.loud else "", "EV-SNOWBALL")


def roar_footprint(t: Scratch, seat: int, direction: Direction) -> tuple[object, ...]:
    """Where a roar happens (a grid index) and who stands beside it: what a roar does depends on
    nothing else."""
    here = t.pos[seat]
    if here is None:
        return (seat, None)
    pos = t.pos
    around = []  # (a loop, not a comprehension: conflict detection reads roars on many boards)
    for d, beside in AROUND[here]:
        around.append((d, pos.index(beside) if beside in pos else None))
    return (seat, here, direction, tuple(around))
