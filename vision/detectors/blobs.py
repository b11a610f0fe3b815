"""Coloured blobs in a zone raster: the shared step of the cube and pawn detectors."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.colours import ColourRange, label_image
from vision.frame import FloatArray, Image

@dataclass(frozen=True)
class Blob:
    """Pixels of one colour within one connected patch of colour."""

    colour: str
    pixels: int
    centre: tuple[float, float]
    """Raster pixel (u, v) of the patch's centroid."""
    patch: int = 0
    """Which connected patch of colour this is part of (blobs of one patch touch)."""
    differences: FloatArray | None = field(default=None, compare=False, repr=False)
    """Its pixels' values in the ``difference`` array :func:`colour_blobs` was given, if any."""


def colour_blobs(
    roi: Image,
    colours: Sequence[ColourRange],
    min_pixels: int,
    open_px: int = 3,
    within: np.ndarray | None = None,
    difference: FloatArray | None = None,
) -> list[Blob]:
    """Connected patches of any listed colour, split by colour (two touching cubes of different
    colours give two blobs); parts smaller than ``min_pixels`` are dropped as noise.

    An opening by a disc ``open_px`` across first strips strokes thinner than that (card print
    touching a cube, the rim of a hand). ``within`` (a boolean mask), when given, limits the
    colours to its pixels. ``difference`` (a value per pixel, as the mat test's), when given, is
    kept per blob for its pixels (:attr:`Blob.differences`)."""
    hsv = cv2.cvtColor(cv2.blur(roi, (3, 3)), cv2.COLOR_BGR2HSV)
    labels = label_image(np.asarray(hsv, np.uint8), colours)
    if within is not None:
        labels[~within] = 0
    k = max(3, open_px | 1)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    coloured = cv2.morphologyEx((labels > 0).astype(np.uint8), cv2.MORPH_OPEN, disc)
    count, comp, _, _ = cv2.connectedComponentsWithStats(coloured, connectivity=8)
    if count <= 1:
        return []
    comp = np.asarray(comp)
    on = coloured > 0
    key = comp[on].astype(np.int64) * (len(colours) + 1) + labels[on]
    sizes = np.bincount(key, minlength=count * (len(colours) + 1)).reshape(count, len(colours) + 1)
    vs, us = np.nonzero(on)
    sum_u = np.bincount(key, weights=us, minlength=sizes.size).reshape(sizes.shape)
    sum_v = np.bincount(key, weights=vs, minlength=sizes.size).reshape(sizes.shape)
    blobs = []
    for c, lab in zip(*np.nonzero(sizes >= min_pixels)):
        if c == 0 or lab == 0:
            continue
        n = int(sizes[c, lab])
        values = None if difference is None else np.asarray(difference[on][key == c * (len(colours) + 1) + lab], np.float64)
        blobs.append(Blob(colours[lab - 1].name, n, (float(sum_u[c, lab] / n), float(sum_v[c, lab] / n)), int(c), values))
    return blobs
