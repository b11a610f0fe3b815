"""Cube and pawn colours learnt from samples on the table, in its light, at setup.

The default colour ranges (vision/colours.py) fit common cubes. A set whose orange is nearly red,
or whose blue is nearly purple, needs its own: put one piece of each colour, apart, in one zone
(the cube pile), and :func:`learn_colours` measures each patch on the corrected frame (neutral
light), names it by the default range nearest in hue, and returns ranges centred on what it
measured: each band reaches halfway to its neighbours' hues, and saturation and value may drop
to a share of the sample's (a shaded side, a dimmer corner). ``companion camera colours``
prints them as the config's ``cube_colours`` / ``pawn_colours``.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.core import Zone
from companion.core.errors import ConfigError
from vision.calibration import MarkerLayout, calibrate
from vision.colours import ColourRange
from vision.detectors.common import mat_difference
from vision.frame import Image
from vision.lighting import TableLight
from vision.surface import S_SHARE
from vision.zones import make_raster, warp_zone

log = logging.getLogger(__name__)

MAX_HALF_BAND = 12
"""A learnt band reaches at most this far (hue units) from its sample, however far the next
colour is: the mat and whatever else lies about keep out of it."""
LOOSE_S_MIN = 90
"""Saturation a sample patch needs to be found at all (the mat and the paper have less)."""
V_SHARE = 0.35


@dataclass(frozen=True)
class ColourSample:
    name: str
    hue: float
    """Median hue (OpenCV units, 0..179)."""
    saturation: float
    value: float
    pixels: int


def _hue_centre(c: ColourRange) -> float:
    hi = c.h_hi + 180 if c.h_lo > c.h_hi else c.h_hi
    return ((c.h_lo + hi) / 2) % 180


def _hue_gap(a: float, b: float) -> float:
    d = abs(a - b) % 180
    return min(d, 180 - d)


def sample_patches(roi: Image, min_pixels: int, not_mat: np.ndarray | None = None) -> list[tuple[float, float, float, int]]:
    """(hue, saturation, value, pixels) of each saturated patch of ``roi`` (corrected colours)."""
    hsv = np.asarray(cv2.cvtColor(cv2.blur(roi, (3, 3)), cv2.COLOR_BGR2HSV), np.uint8)
    saturated = (hsv[:, :, 1] >= LOOSE_S_MIN) & (hsv[:, :, 2] >= 40)
    if not_mat is not None:
        saturated &= not_mat
    mask = cv2.morphologyEx(saturated.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    out = []
    for k in range(1, count):
        if stats[k, cv2.CC_STAT_AREA] < min_pixels:
            continue
        px = hsv[labels == k]
        # the top face is the brightest part of a piece: measure on the brighter half
        bright = px[px[:, 2] >= np.median(px[:, 2])]
        angles = bright[:, 0].astype(np.float64) * (2 * np.pi / 180)
        hue = (np.degrees(np.arctan2(np.sin(angles).mean(), np.cos(angles).mean())) / 2) % 180
        out.append((float(hue), float(np.median(bright[:, 1])), float(np.median(bright[:, 2])), int(stats[k, cv2.CC_STAT_AREA])))
    return out


def learn_colours(patches: Sequence[tuple[float, float, float, int]], defaults: Sequence[ColourRange]) -> tuple[tuple[ColourRange, ...], list[ColourSample]]:
    """Ranges centred on the sampled patches, one per default colour; :class:`ConfigError` when
    there are not exactly as many patches as colours (put one piece of each colour, apart)."""
    if len(patches) != len(defaults):
        names = ", ".join(c.name for c in defaults)
        raise ConfigError(f"camera colours: {len(patches)} coloured patches seen, {len(defaults)} wanted ({names}); put one piece of each colour in the zone, apart")
    # one piece of each colour: the patches, in hue order round the circle, take the colours in
    # the defaults' hue order, turned the way that fits best (an orange nearer red than orange is
    # still the orange when the red is redder)
    by_hue = sorted(patches, key=lambda p: p[0])
    colours = sorted(defaults, key=_hue_centre)
    n = len(colours)
    turn = min(range(n), key=lambda r: sum(_hue_gap(by_hue[(i + r) % n][0], _hue_centre(colours[i])) for i in range(n)))
    named: dict[str, ColourSample] = {}
    for i, colour in enumerate(colours):
        hue, sat, val, pixels = by_hue[(i + turn) % n]
        named[colour.name] = ColourSample(colour.name, hue, sat, val, pixels)
    ordered = sorted(named.values(), key=lambda s: s.hue)
    ranges = {}
    for i, sample in enumerate(ordered):
        prev, nxt = ordered[i - 1], ordered[(i + 1) % len(ordered)]
        lo = sample.hue - min(MAX_HALF_BAND, _hue_gap(sample.hue, prev.hue) / 2)
        hi = sample.hue + min(MAX_HALF_BAND, _hue_gap(sample.hue, nxt.hue) / 2)
        ranges[sample.name] = ColourRange(
            sample.name,
            int(np.ceil(lo)) % 180,
            int(np.floor(hi)) % 180,
            s_min=max(LOOSE_S_MIN, int(sample.saturation * S_SHARE)),
            v_min=max(30, int(sample.value * V_SHARE)),
        )
    return tuple(ranges[c.name] for c in defaults), [named[c.name] for c in defaults]


def to_toml(key: str, ranges: Sequence[ColourRange]) -> str:
    """The ranges as the config's ``[camera]`` entry, e.g. ``cube_colours = { red = {...}, ... }``."""
    parts = [f"{r.name} = {{ h = [{r.h_lo}, {r.h_hi}], s_min = {r.s_min}, v_min = {r.v_min} }}" for r in ranges]
    return f"{key} = {{ {', '.join(parts)} }}"


def measure_zone(image: Image, layout: MarkerLayout, zone: Zone, piece_mm: float, px_per_mm: float = 2.0) -> list[tuple[float, float, float, int]]:
    """The saturated patches in ``zone`` of ``image``, in neutral light (the white reference
    applied as the pipeline applies it), each at least a third of a piece's top."""
    cal = calibrate(image, layout)
    corrected, cal = TableLight(layout).correct(image, cal)
    raster = make_raster(zone, px_per_mm)
    roi = warp_zone(corrected, cal.table_from_image, raster)
    # more than halfway from the mat, as the cube detector judges (vision/detectors/cubes.py)
    solid = (mat_difference(roi, cal.mat_chroma, 30) > 0.17) & (raster.mask > 0)
    return sample_patches(roi, int((piece_mm * px_per_mm) ** 2 / 3), solid)
