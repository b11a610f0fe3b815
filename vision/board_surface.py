"""The surface the Everest pawns stand on: the board's own tiles, measured where the pawns are read.

An Everest pawn stands on piecepack tiles, not on the mat: the 8 x 6 grid is covered by tiles
(four notches and the margin round the grid show the mat). So the pawns are judged against the
board, not against the mat the cubes are judged against (vision/surface.py). Each time the board is
measured (the pawn detector does so once a second), every
square of the grid is measured on its own: its colour (median chroma, brightness divided out: the
tiles' layers differ in shade, not in colour) and its spread, as vision/surface.py measures the
mat's. The board's tolerance comes from the median square's spread, so a hand, a pawn or a notch
on a few squares does not widen it; a board printed in several colours gives several.

A pawn colour whose shade lies so near the colour of at least :data:`MIN_SQUARES` squares that the
halfway line between them falls inside that tolerance is *hidden* there (yellow pawns on yellow
tiles): the detector reports it unseen, never "no pawn" nor a square.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.colours import ColourRange
from vision.frame import FloatArray, Image
from vision.surface import hidden_by_surface, noise_limit, surface_spread

DARK = 40
"""Pixels whose brightest channel is below this have no colour left to measure (a deep shadow)."""
CLIPPED = 250
"""Pixels with every channel at or above this are glare: white, whatever the board's colour."""
EDGE_STEP = 12
"""A brightness step (3 x 3 morphological gradient, 0..255) this big is an edge: a printed line,
a tile's border, a pawn's rim. A pixel there is a blend of two things (and JPEG smears colour
across every edge), so it says nothing of a face's own spread; a flat face's noise stays below it."""
MIN_PIXELS = 12
"""A square with fewer face pixels than this (a hand's fingers, glare) is not measured."""
MIN_SQUARES = 3
"""A colour is hidden by the board where at least this many squares are of its shade: one square
nearly filled by a pawn has the pawn's own colour, and no colour pawn stands on three squares."""


@dataclass(frozen=True)
class BoardSurface:
    """Each measured square's colour (chroma b, g, r summing to 1), and the chroma distance from
    its square's colour beyond which a pixel is not bare board (:func:`vision.surface.noise_limit`
    of the median square's spread)."""

    squares: tuple[tuple[float, float, float], ...]
    limit: float

    def hides(self, colours: Sequence[ColourRange]) -> tuple[str, ...]:
        """The colours a pawn of which cannot be told from the board on :data:`MIN_SQUARES` squares."""
        hidden = []
        for colour in colours:
            if sum(1 for square in self.squares if hidden_by_surface(square, (colour,), self.limit)) >= MIN_SQUARES:
                hidden.append(colour.name)
        return tuple(hidden)


def _square(pixels: FloatArray) -> tuple[tuple[float, float, float], float] | None:
    """(colour, spread) of one square's face pixels, or None when too few are usable."""
    usable = (pixels.max(axis=1) >= DARK) & (pixels.min(axis=1) < CLIPPED)
    pixels = pixels[usable]
    if len(pixels) < MIN_PIXELS:
        return None
    chroma = pixels / pixels.sum(axis=1, keepdims=True)
    median = np.median(chroma, axis=0)
    median = median / median.sum()
    return (float(median[0]), float(median[1]), float(median[2])), surface_spread(chroma, median)


def measure_board(board: Image, columns: int, rows: int) -> BoardSurface | None:
    """The surface in ``board`` (BGR pixels of the grid alone, no margin, ``columns`` x ``rows``
    squares), or None when no square can be measured (a grid in the dark or under glare)."""
    gray = cv2.cvtColor(board, cv2.COLOR_BGR2GRAY)
    kernel = np.ones((3, 3), np.uint8)
    step = cv2.morphologyEx(gray, cv2.MORPH_GRADIENT, kernel)
    face = cv2.erode((step < EDGE_STEP).astype(np.uint8), kernel) > 0
    pixels = np.asarray(board, np.float64)
    h, w = face.shape
    found = []
    for r in range(rows):
        for c in range(columns):
            rows_, cols_ = slice(r * h // rows, (r + 1) * h // rows), slice(c * w // columns, (c + 1) * w // columns)
            got = _square(pixels[rows_, cols_][face[rows_, cols_]])
            if got is not None:
                found.append(got)
    if not found:
        return None
    return BoardSurface(tuple(colour for colour, _ in found), noise_limit(float(np.median([s for _, s in found]))))
