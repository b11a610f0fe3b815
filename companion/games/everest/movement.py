"""Yeti movement, pushing, falling and snowballs, on a scratch copy of the mountain.

The engine copies the state's positions and damage into a :class:`Scratch`, carries the actions
out on it, and builds the next frozen state from it; nothing here touches a state in place.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from companion.games.everest.board import VECTORS, Board, Direction, Square, square_text, step

log = logging.getLogger(__name__)


class Scratch:
    """A working copy of the yeti on the mountain: positions, this round's damage, who left the board."""

    __slots__ = ("board", "names", "pos", "damage", "off", "events", "pushed_fall_damage")

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
        self.pos: list[Square | None] = list(pos)
        self.damage = list(damage)
        self.off = set(off)
        self.events: list[str] = []
        self.pushed_fall_damage = pushed_fall_damage

    def copy(self) -> "Scratch":
        return Scratch(self.board, self.names, self.pos, self.damage, self.off, self.pushed_fall_damage)

    def occupant(self, square: Square) -> int | None:
        for seat, here in enumerate(self.pos):
            if here == square:
                return seat
        return None

    def signature(self) -> tuple[object, ...]:
        """The board configuration, for telling whether two orders of actions end differently."""
        return (tuple(self.pos), tuple(self.damage), frozenset(self.off))

    def note(self, text: str) -> None:
        self.events.append(text)

    def _leave_board(self, seat: int, why: str) -> None:
        # EV-EDGE: off the edge ends the move and cancels the round's remaining actions.
        self.pos[seat] = None
        self.off.add(seat)
        self.note(f"EV-EDGE: {self.names[seat]}'s yeti {why} off the edge of the board; its remaining actions are cancelled")

    def _knocked(self, seat: int, frm: Square, to: Square | None, why: str, rule: str = "EV-PUSH") -> None:
        """Put a pushed yeti on ``to`` (None: off the edge); a drop of 2 or more is a fall."""
        if to is None:
            self._leave_board(seat, f"is {why}")
            return
        self.pos[seat] = to
        drop = self.board.heights[frm] - self.board.heights[to]
        if drop >= 2:
            if self.pushed_fall_damage:
                self.damage[seat] += 1
                self.note(f"EV-FALL: {self.names[seat]}'s yeti is {why} off a cliff to {square_text(to)} and takes 1 damage")
            else:
                self.note(f"EV-FALL: {self.names[seat]}'s yeti is {why} off a cliff to {square_text(to)}")
        else:
            self.note(f"{rule}: {self.names[seat]}'s yeti is {why} to {square_text(to)}")


def move(t: Scratch, seat: int, direction: Direction, mp: int, what: str = "moves", rule: str = "EV-MOVE") -> None:
    """Move a yeti up to ``mp`` movement points in a straight line (EV-MOVE and the rules it names)."""
    here = t.pos[seat]
    if here is None:
        return
    d = VECTORS[direction]
    name = t.names[seat]
    board = t.board
    start = here
    stop = ""
    while mp > 0:
        there = step(here, d)
        h_there = board.height(there)
        if h_there is None:
            if here != start:
                t.note(f"{rule}: {name}'s yeti {what} {direction} from {square_text(start)} to {square_text(here)}")
            t._leave_board(seat, f"{what} {direction}")
            return
        rise = h_there - board.heights[here]
        if rise >= 2:
            stop = f"EV-CLIFF-UP: {name}'s yeti runs into a cliff at {square_text(there)} and loses its last {mp} MP"
            break
        falling = rise <= -2
        cost = 2 if rise == 1 else 1  # EV-MOVE: 1 MP flat or down, 2 MP up a step
        pushed = t.occupant(there)
        beyond: Square | None = None
        if pushed is not None:
            beyond = step(there, d)
            h_beyond = board.height(beyond)
            other = t.names[pushed]
            if h_beyond is not None and h_beyond - h_there >= 2:
                stop = f"EV-PUSH-BLOCKED: {name}'s yeti cannot push {other}'s up a cliff and loses its last {mp} MP"
                break
            if h_beyond is not None and t.occupant(beyond) is not None:
                stop = f"EV-PUSH-BLOCKED: {name}'s yeti cannot push {other}'s into another yeti and loses its last {mp} MP"
                break
            if falling:
                cost += 0  # EV-PUSH-FALL: falling off a cliff gives a free push
            elif h_beyond is not None and h_beyond - h_there == 1:
                cost += 2
            else:
                cost += 1
            if h_beyond is None:
                beyond = None
        if cost > mp:
            short = "EV-PUSH" if pushed is not None else "EV-MOVE"
            stop = f"{short}: {name}'s yeti has {mp} MP left, not the {cost} it needs to go on"
            break
        mp -= cost
        if pushed is not None:
            t._knocked(pushed, there, beyond, f"pushed {direction} by {name}'s")
        t.pos[seat] = there
        if falling:
            t.damage[seat] += 1
            t.note(f"EV-FALL: {name}'s yeti falls off the cliff to {square_text(there)} and takes 1 damage")
        here = there
    if here != start:
        t.note(f"{rule}: {name}'s yeti {what} {direction} from {square_text(start)} to {square_text(here)}")
    if stop:
        t.note(stop)


def snowball_target(t: Scratch, seat: int, direction: Direction) -> tuple[int | None, str]:
    """Which yeti a snowball thrown now would hit (EV-SNOWBALL), or None and where it ended."""
    here = t.pos[seat]
    if here is None:
        return None, "nowhere"
    d = VECTORS[direction]
    board = t.board
    while True:
        there = step(here, d)
        h_there = board.height(there)
        if h_there is None:
            return None, "flies off the board"
        hit = t.occupant(there)
        if hit is not None:
            return hit, ""
        if h_there > board.heights[here]:
            # EV-SNOWBALL-SPLAT: an upward step or cliff with no yeti on its top square
            return None, f"goes splat on the slope up to {square_text(there)}"
        here = there


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
            rule = "EV-SNOWBALL-SPLAT" if "splat" in miss else "EV-SNOWBALL"
            t.note(f"{rule}: {t.names[seat]}'s snowball thrown {direction} {miss}")
            continue
        hits.setdefault(target, []).append(direction)
        t.note(f"EV-SNOWBALL: {t.names[seat]}'s snowball hits {t.names[target]}'s yeti, 1 damage")
    planned: dict[int, Square | None] = {}
    for target, directions in hits.items():
        t.damage[target] += len(directions)
        if len(set(directions)) != 1:
            continue
        frm = t.pos[target]
        assert frm is not None
        to = step(frm, VECTORS[directions[0]])
        h_to = t.board.height(to)
        if h_to is None:
            planned[target] = None
        elif h_to > t.board.heights[frm] or t.occupant(to) is not None:
            t.note(f"EV-SNOWBALL: {t.names[target]}'s yeti cannot be knocked up a step, a cliff or into a yeti and stays put")
        else:
            planned[target] = to
    landing = [sq for sq in planned.values() if sq is not None]
    for target, dest in planned.items():
        if dest is not None and landing.count(dest) > 1:
            t.note(f"EV-SNOWBALL: {t.names[target]}'s yeti stays put: another yeti is knocked to the same square")
            continue
        here = t.pos[target]
        assert here is not None
        t._knocked(target, here, dest, f"knocked {hits[target][0]} by a snowball", "EV-SNOWBALL")


def roar_footprint(t: Scratch, seat: int, direction: Direction) -> tuple[object, ...]:
    """Where a roar happens and who stands beside it: what a roar does depends on nothing else."""
    here = t.pos[seat]
    if here is None:
        return (seat, None)
    around = tuple((d, t.occupant(step(here, v))) for d, v in VECTORS.items())
    return (seat, here, direction, around)
