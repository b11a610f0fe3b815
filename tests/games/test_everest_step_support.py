"""Random Everest steps for the conflict property test (no tests here; named for the test folder).

A step is the yeti on the mountain (two to four, some dazed or off the board) and one action per
acting yeti. Yeti are dropped close together, often in a line, so that pushes, falls off cliffs,
runs off the edge and into notches, roars beside others and snowballs at moving targets all come up.
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


def random_step(rng: random.Random) -> Step:
    board = rng.choice(BOARDS)
    n = rng.randint(2, 4)
    on_board = _squares(board, rng, n)
    pos: list[Square | None] = list(on_board) + [None] * (4 - n)
    rng.shuffle(pos)
    off = {seat for seat in range(4) if pos[seat] is None and rng.random() < 0.5}
    present = [seat for seat in range(4) if pos[seat] is not None]
    dazed = {seat for seat in present if rng.random() < 0.1}
    actions: dict[int, tuple[Kind, Direction, int]] = {}
    for seat in present:
        if seat in dazed:
            continue
        roll = rng.random()
        kind: Kind = "move" if roll < 0.6 else "roar" if roll < 0.8 else "snowballs"
        actions[seat] = (kind, rng.choice(DIRECTIONS), rng.randint(1, 5) if kind == "move" else 0)
    table = Scratch(board, NAMES, pos, [rng.randint(0, 1) for _ in range(4)], off, rng.random() < 0.8)
    return Step(table, step_units(actions), tuple(sorted(actions)))
