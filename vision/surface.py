"""The bare table top as the camera learns it: its colour's own spread, and which piece colours it hides.

A table is not one colour. Oak has grain and planks of other shades, felt has a nap, and every
camera adds noise and JPEG blocks. How far the bare table strays from its own median colour
(chroma, brightness divided out) is measured on the same spots the mat's colour is learnt from
(just inside each marker, vision/lighting.py), and a piece is told from the table only where a
pixel departs from it by more than that measured spread: no distance tuned to one mat.

A piece colour whose shade (as its colour band was set from the pieces: ``camera colours``)
lies so near the table that the halfway line between them falls inside the table's own spread is
*hidden* there (green cubes on a table of their own green): a piece of it cannot be told from the
table, so the zones that might hold one are unseen, never read.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.colours import ColourRange
from vision.frame import FloatArray

SPREAD_SHARE = 0.9
"""The bare table's spread is this quantile of its spots' distances from its median colour: a
spot now and then on a card's edge or a crumb does not widen it."""
SPREAD_MARGIN = 2.6
"""A piece departs from the table beyond this many times its spread. Rendered oak's spread is
0.026-0.028 through the pipeline, so 0.07: over the 99.9th percentile (0.059) of a whole oak
table's grain; purple felt's 0.008, so the floor 0.02."""
NEAR = 0.175
"""Spots farther than this from the table's colour are something on it (as the mat's learning
leaves out, vision/lighting.py: 2.5 x the default ``mat_distance``)."""
NOISE_FLOOR = 0.02
"""The least limit: a JPEG camera's chroma noise on a plain, evenly lit mat."""
S_SHARE = 0.6
"""A colour band's least saturation is this share of its pieces' own: ``camera colours`` sets it
so from the pieces it measures (vision/colour_samples.py), and the default bands (140) fit pieces
of about 233."""


def surface_spread(chroma: FloatArray, mat: FloatArray, near: float = NEAR) -> float:
    """The bare table's spread: :data:`SPREAD_SHARE` of its samples' chroma lie this near ``mat``
    (samples farther than ``near``, a card by a marker, are not table)."""
    distance = np.linalg.norm(chroma - mat[None, :], axis=1)
    distance = distance[distance < near]
    return float(np.quantile(distance, SPREAD_SHARE)) if len(distance) else 0.0


def noise_limit(spread: float) -> float:
    """The chroma distance from the table beyond which a pixel is not bare table."""
    return max(NOISE_FLOOR, SPREAD_MARGIN * spread)


def piece_chroma(colour: ColourRange) -> FloatArray:
    """The piece ``colour`` describes, as chroma (b, g, r summing to 1): its band's middle hue at
    the saturation its band was set from (:data:`S_SHARE`)."""
    width = (colour.h_hi - colour.h_lo) % 180
    hue = round((colour.h_lo + width / 2) % 180)
    saturation = min(colour.s_max, round(colour.s_min / S_SHARE))
    pixel = cv2.cvtColor(np.array([[[hue, saturation, 200]]], np.uint8), cv2.COLOR_HSV2BGR)[0, 0].astype(np.float64)
    return np.asarray(pixel / pixel.sum(), np.float64)


def hidden_by_surface(mat_chroma: Sequence[float], colours: Sequence[ColourRange], limit: float) -> tuple[str, ...]:
    """The colours a piece of which cannot be told from this table: the halfway line between the
    table's colour and the piece's lies within ``limit`` (:func:`noise_limit`) of the table."""
    mat = np.asarray(mat_chroma, np.float64)
    return tuple(c.name for c in colours if 0.5 * float(np.linalg.norm(piece_chroma(c) - mat)) <= limit)
