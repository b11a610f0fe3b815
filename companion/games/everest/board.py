"""The mountain as data: heights, steps, cliffs, the peak tile and the notches (GAPS.md "Everest").

Squares are (x, y) with x = 1..8 west to east and y = 1..6 south to north. A square's height is
the number of tiles stacked on it. A step is a height difference of 1, a cliff one of 2 or more.

Inside the engine (movement, reaches, conflicts, roars) a square is an index on a grid one square
wider than the board on every side (``index``: y * 10 + x), so that a step is an addition
(``STEPS``), a set of squares is a bit mask (bit ``index``) and a yeti is found in a list of ints;
the (x, y) squares are kept for the state, the views, the notation and the event lines.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterable, Mapping
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

ROW = 10
"""Indices per row of the grid: x = 0..9, the board's x = 1..8 and the squares just off each side."""

SQUARES: tuple[Square, ...] = tuple((i % ROW, i // ROW) for i in range(ROW * (DEPTH + 2)))
"""The square of each index (rows y = 0..7: the board's y = 1..6 and the rows just off it)."""

INDEX: Mapping[Square, int] = {square: i for i, square in enumerate(SQUARES)}
"""The index of each square of the grid (see ``index``)."""

STEPS: Mapping[str, int] = {"N": ROW, "E": 1, "S": -ROW, "W": -1}
"""How far an index moves for a step in each direction."""

STEP_NAMES: Mapping[int, Direction] = {ROW: "N", 1: "E", -ROW: "S", -1: "W"}

TEXTS: tuple[str, ...] = tuple(f"({x},{y})" for x, y in SQUARES)
"""How an event line names the square at each index (``square_text``)."""

AROUND: tuple[tuple[tuple[Direction, int], ...], ...] = tuple(
    tuple((d, i + STEPS[d]) for d in ("N", "E", "S", "W")) if 0 < i % ROW < ROW - 1 and 0 < i // ROW < DEPTH + 1 else ()
    for i in range(ROW * (DEPTH + 2))
)
"""The four indices beside each index of the board, N, E, S, W, each with its direction."""

Line = tuple[tuple[int, int, int, int | None, int | None], ...]
"""``Board.ray`` with indices: each square, its rise, its MP, the square after it and its rise."""


def index(square: Square) -> int:
    """The grid index of a square of the board (or one just off its edge)."""
    return INDEX[square]


_INDEX_OR_NONE: dict[Square | None, int | None] = {square: i for i, square in enumerate(SQUARES)}
_INDEX_OR_NONE[None] = None  # (a yeti off the board)
_SQUARE_OR_NONE: dict[int | None, Square | None] = dict(enumerate(SQUARES))
_SQUARE_OR_NONE[None] = None


def indices(squares: Iterable[Square | None]) -> list[int | None]:
    """Squares as grid indices, None kept (a yeti off the board)."""
    return list(map(_INDEX_OR_NONE.__getitem__, squares))  # (in C: every scratch board starts here)


def squares_of(found: Iterable[int | None]) -> tuple[Square | None, ...]:
    """Grid indices back as squares, None kept."""
    return tuple(map(_SQUARE_OR_NONE.__getitem__, found))


@dataclass(frozen=True)
class Board:
    """Which squares exist and how high each one is. Squares not in ``heights`` are off the board."""

    heights: Mapping[Square, int]
    peak: frozenset[Square] = PEAK
    memo: dict[object, list[int]] = field(default_factory=dict, compare=False, hash=False, repr=False)
    """reaches.table by (kind, direction, movement points), or by a coin's label: the squares (a
    bit mask) a move, roar or snowball from each grid index could touch, which depend on the
    heights alone, so are worked out once per board (and read directly by resolve.py, where every
    coin of every step asks)."""
    rays: dict[tuple[Square, str], tuple[Ray, ...]] = field(default_factory=dict, compare=False, hash=False, repr=False)
    """``ray`` results, remembered."""
    levels: tuple[int | None, ...] = field(init=False, compare=False, hash=False, repr=False)
    """The height at each grid index (``index``), None off the board."""
    lines: Mapping[str, tuple[Line | None, ...]] = field(init=False, compare=False, hash=False, repr=False)
    """``ray`` by direction and grid index, with indices, worked out once: movement and snowballs
    walk these lines all the time (None at an index off the board)."""
    cells: int = field(init=False, compare=False, hash=False, repr=False)
    """The board's squares as a bit mask (bit ``index``)."""

    def __post_init__(self) -> None:
        levels = tuple([self.heights.get(square) for square in SQUARES])
        object.__setattr__(self, "levels", levels)  # frozen: worked out once from the heights
        lines: dict[str, tuple[Line | None, ...]] = {}
        for direction, shift in STEPS.items():
            lines[direction] = tuple([None if h is None else _line(levels, i, shift) for i, h in enumerate(levels)])
        object.__setattr__(self, "lines", lines)
        object.__setattr__(self, "cells", sum(1 << i for i, h in enumerate(levels) if h is not None))

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
            found = self.lines[direction][INDEX[square]] or ()
            line = self.rays[(square, direction)] = tuple(
                [(SQUARES[there], rise, cost, None if after is None else SQUARES[after], push) for there, rise, cost, after, push in found]
            )
        return line

    def grid(self) -> list[list[int | None]]:
        """Heights as rows y = 1..6 of columns x = 1..8 (``grid[y-1][x-1]``); None is off the board."""
        return [[self.heights.get((x, y)) for x in range(1, WIDTH + 1)] for y in range(1, DEPTH + 1)]


def _line(levels: tuple[int | None, ...], here: int, shift: int) -> Line:
    """Board.lines for one index and direction: the walk to the edge."""
    out = []
    there = here + shift
    while (h := levels[there]) is not None:
        after = there + shift
        h_after = levels[after]
        push_rise = None if h_after is None else h_after - h
        rise = h - levels[here]  # type: ignore[operator]  # (here is on the board)
        cost = 2 if rise == 1 else 1  # EV-MOVE: 1 MP flat or down, 2 MP up a step
        out.append((there, rise, cost, after if h_after is not None else None, push_rise))
        here, there = there, after
    return tuple(out)


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


_SQUARE_TEXT: dict[Square, str] = {}
"""``square_text`` results: the same few dozen squares are named in nearly every event line."""


def square_text(square: Square) -> str:
    text = _SQUARE_TEXT.get(square)
    if text is None:
        text = _SQUARE_TEXT[square] = f"({square[0]},{square[1]})"
    return text
