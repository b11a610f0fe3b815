"""The mountain as data: heights, steps, cliffs, the peak tile and the notches (GAPS.md "Everest").

Squares are (x, y) with x = 1..8 west to east and y = 1..6 south to north. A square's height is
the number of tiles stacked on it. A step is a height difference of 1, a cliff one of 2 or more.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

log = logging.getLogger(__name__)

Square = tuple[int, int]
Direction = Literal["N", "E", "S", "W"]

WIDTH = 8
DEPTH = 6

# GAPS.md "Everest": the ppgames layout, north row first. 0 marks an empty notch in the base layer.
LAYOUT: tuple[tuple[int, ...], ...] = (
    (1, 1, 1, 1, 1, 1, 1, 1),  # y = 6
    (1, 2, 3, 3, 3, 3, 2, 1),  # y = 5
    (0, 2, 4, 5, 5, 4, 2, 0),  # y = 4
    (0, 2, 4, 5, 5, 4, 2, 0),  # y = 3
    (1, 2, 3, 3, 3, 3, 2, 1),  # y = 2
    (1, 1, 1, 1, 1, 1, 1, 1),  # y = 1
)

PEAK: frozenset[Square] = frozenset({(4, 3), (5, 3), (4, 4), (5, 4)})
"""GAPS.md: the peak tile is the four squares x 4-5, y 3-4."""

DEFAULT_HOMES: tuple[Square, ...] = ((1, 5), (8, 5), (8, 2), (1, 2))
"""GAPS.md: the base squares beside the notches, given to the players in seating order."""

VECTORS: Mapping[str, Square] = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
DIRECTIONS: tuple[Direction, ...] = ("N", "E", "S", "W")
NAMES: Mapping[Square, Direction] = {(0, 1): "N", (1, 0): "E", (0, -1): "S", (-1, 0): "W"}

NotchSetting = Literal["off_board", "table"]

Ray = tuple[Square, int, int, Square | None, int | None]
"""One square of a line (see Board.ray): the square, its rise, its cost in MP, the square after it
and that one's rise."""


@dataclass(frozen=True)
class Board:
    """Which squares exist and how high each one is. Squares not in ``heights`` are off the board."""

    heights: Mapping[Square, int]
    peak: frozenset[Square] = PEAK
    memo: dict[tuple[str, Square, str, int], int] = field(default_factory=dict, compare=False, hash=False, repr=False)
    """reaches.reach by (kind, square, direction, movement points): the squares (a bit mask) a
    move, roar or snowball could touch, which depend on the heights alone, so are worked out once
    per board (and read directly by resolve.py, where every coin of every step asks); also the
    board's own squares as such a mask (reaches.on_board)."""
    rays: dict[tuple[Square, str], tuple[Ray, ...]] = field(default_factory=dict, compare=False, hash=False, repr=False)
    """``ray`` results, remembered: movement and snowballs walk these lines all the time."""

    def height(self, square: Square) -> int | None:
        """The square's height, or None when the square is off the board."""
        return self.heights.get(square)

    def on_board(self, square: Square) -> bool:
        return square in self.heights

    def ray(self, square: Square, direction: str) -> tuple[Ray, ...]:
        """The squares in a straight line from ``square`` (not included) towards ``direction``, up
        to the edge, as a yeti or a snowball meets them: each square, its rise from the square
        before it (+1 a step up, 2+ a cliff up, -2 or less a cliff down), the MP a yeti pays to
        step onto it (EV-MOVE), the square after it and that one's rise from it (None, None past
        the edge: where a yeti there would be pushed)."""
        line = self.rays.get((square, direction))
        if line is None:
            heights = self.heights
            dx, dy = VECTORS[direction]
            out = []
            here = square
            there = (here[0] + dx, here[1] + dy)
            while there in heights:
                after = (there[0] + dx, there[1] + dy)
                h_after = heights.get(after)
                push_rise = None if h_after is None else h_after - heights[there]
                rise = heights[there] - heights[here]
                cost = 2 if rise == 1 else 1  # EV-MOVE: 1 MP flat or down, 2 MP up a step
                out.append((there, rise, cost, after if h_after is not None else None, push_rise))
                here, there = there, after
            line = self.rays[(square, direction)] = tuple(out)
        return line

    def grid(self) -> list[list[int | None]]:
        """Heights as rows y = 1..6 of columns x = 1..8 (``grid[y-1][x-1]``); None is off the board."""
        return [[self.heights.get((x, y)) for x in range(1, WIDTH + 1)] for y in range(1, DEPTH + 1)]


@functools.cache
def make_board(notches: NotchSetting = "off_board") -> Board:
    """The Everest mountain. ``notches``: "off_board" (GAPS.md default) or "table" (height 0).

    One Board per setting, shared by every game: a Board never changes, and sharing it lets its
    ``memo`` (conflicts.py's reaches) be worked out once rather than once per game.
    """
    heights: dict[Square, int] = {}
    for row, values in enumerate(LAYOUT):
        y = DEPTH - row
        for col, h in enumerate(values):
            if h > 0:
                heights[(col + 1, y)] = h
            elif notches == "table":
                heights[(col + 1, y)] = 0
    return Board(heights)


def step(square: Square, direction: Square) -> Square:
    return (square[0] + direction[0], square[1] + direction[1])


def rise(board: Board, here: Square, there: Square) -> int | None:
    """Height of ``there`` minus height of ``here``; None when ``there`` is off the board."""
    h = board.height(there)
    if h is None:
        return None
    return h - board.heights[here]


def is_cliff(difference: int) -> bool:
    """GAPS.md: a cliff is a height difference of 2 or more (up or down)."""
    return abs(difference) >= 2


_NEIGHBOURS: dict[Square, tuple[tuple[Direction, Square], ...]] = {}


def neighbours(square: Square) -> tuple[tuple[Direction, Square], ...]:
    """The four squares beside ``square`` (on the board or not), N, E, S, W, each with its direction:
    remembered, as every roar looks at them."""
    around = _NEIGHBOURS.get(square)
    if around is None:
        around = _NEIGHBOURS[square] = tuple((d, step(square, VECTORS[d])) for d in DIRECTIONS)
    return around


_SQUARE_TEXT: dict[Square, str] = {}
"""``square_text`` results: the same few dozen squares are named in nearly every event line."""


def square_text(square: Square) -> str:
    text = _SQUARE_TEXT.get(square)
    if text is None:
        text = _SQUARE_TEXT[square] = f"({square[0]},{square[1]})"
    return text
