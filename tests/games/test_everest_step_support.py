"""Random Everest steps for the conflict property test (no tests here; named for the test folder).

A step is the yeti on the mountain (two to four, some dazed or off the board) and one action per
acting yeti. Yeti are dropped close together, often in a line, so that pushes, falls off cliffs,
runs off the edge and into notches, roars beside others and snowballs at moving targets all come up;
often one stands right behind another, moving its way, with the rest near where the pushed one
lands (issue #17's shape: three actions that conflict although no two do).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from companion.games.everest.board import DIRECTIONS, VECTORS, Board, Direction, Square, make_board, step
from companion.games.everest.conflicts import Kind, Unit, step_units
from companion.games.everest.movement import Scratch

NAMES = ("red", "blue", "green", "yellow")
BOARDS = (make_board("off_board"), make_board("table"))


@dataclass(frozen=True)
class Step:
    table: Scratch
    units: list[Unit]
    acting: tuple[int, ...]


def _squares(board: Board, rng: random.Random, n: int) -> list[Square]:
    """``n`` different squares of the board, near one another: a line, a cluster, or anywhere."""
    squares = sorted(board.heights)
    shape = rng.random()
    if shape < 0.4:  # a line, with gaps, so that moves and snowballs run into each other
        while True:
            start, v = rng.choice(squares), VECTORS[rng.choice(DIRECTIONS)]
            line = [start]
            while len(line) < 8 and step(line[-1], v) in board.heights:
                line.append(step(line[-1], v))
            if len(line) >= n:
                return rng.sample(line[: n + rng.randint(0, 2)], n)
    if shape < 0.85:  # a cluster inside a 4x4 window
        x0, y0 = rng.randint(1, 5), rng.randint(1, 3)
        window = [sq for sq in squares if x0 <= sq[0] < x0 + 4 and y0 <= sq[1] < y0 + 4]
        if len(window) >= n:
            return rng.sample(window, n)
    return rng.sample(squares, n)


def _push_setup(board: Board, rng: random.Random, n: int) -> tuple[list[Square], Direction] | None:
    """Issue #17's shape: a yeti right behind another in its direction of travel (so it may push it),
    and the others near the square the pushed one lands on (so its own action may meet them)."""
    direction = rng.choice(DIRECTIONS)
    v = VECTORS[direction]
    a = rng.choice(sorted(board.heights))
    b = step(a, v)
    if b not in board.heights:
        return None
    landing = step(b, v)
    near = [sq for sq in board.heights if abs(sq[0] - landing[0]) + abs(sq[1] - landing[1]) <= 3 and sq not in (a, b)]
    if len(near) < n - 2:
        return None
    return [a, b] + rng.sample(near, n - 2), direction


def _action(rng: random.Random) -> tuple[Kind, Direction, int]:
    roll = rng.random()
    kind: Kind = "move" if roll < 0.6 else "roar" if roll < 0.8 else "snowballs"
    return kind, rng.choice(DIRECTIONS), rng.randint(1, 5) if kind == "move" else 0


def random_step(rng: random.Random) -> Step:
    board = rng.choice(BOARDS)
    n = rng.randint(2, 4)
    setup = _push_setup(board, rng, n) if n >= 3 and rng.random() < 0.4 else None
    on_board = setup[0] if setup else _squares(board, rng, n)
    seats = rng.sample(range(4), 4)  # which seat stands where: on_board in this order, then the absent
    pos: list[Square | None] = [None] * 4
    for seat, square in zip(seats, on_board):
        pos[seat] = square
    off = {seat for seat in range(4) if pos[seat] is None and rng.random() < 0.5}
    present = [seat for seat in range(4) if pos[seat] is not None]
    dazed = {seat for seat in present if rng.random() < 0.1}
    actions: dict[int, tuple[Kind, Direction, int]] = {}
    for seat in present:
        if seat not in dazed:
            actions[seat] = _action(rng)
    if setup:  # the one behind pushes; the pushed one acts from where it lands; the others may leave
        for seat in seats[1:n]:
            if seat in actions and actions[seat][0] == "roar" and rng.random() < 0.7:
                actions[seat] = ("move", rng.choice(DIRECTIONS), rng.randint(1, 5))
        if seats[0] in actions:
            actions[seats[0]] = ("move", setup[1], rng.randint(2, 5))
    table = Scratch(board, NAMES, pos, [rng.randint(0, 1) for _ in range(4)], off, rng.random() < 0.8)
    return Step(table, step_units(actions), tuple(sorted(actions)))
