"""Colour constancy: every frame is corrected against a white reference that is always in view.

The markers' white paper is the reference. Per frame, the paper round each visible marker is
sampled (its brighter half: the marker's black squares are left out), as are the marker's black
squares, and each colour channel is stretched so that the black and the paper land where a clean,
evenly lit camera puts them (``INK_OUT``, ``PAPER_OUT``): neutral, and with the contrast a hazy or
washed-out picture lost given back. Light that turns warmer or
cooler after calibration (a lamp switched on at dusk) then changes nothing the detectors see.

The bare mat's colour is re-learnt on every frame from the same places the calibration measured
it (just inside each marker), so a mat that looks different under the evening's light is still
the mat. Samples far from the mat's current colour (a card laid by a marker) do not vote.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.calibration import Calibration, MarkerLayout
from vision.frame import FloatArray, Image
from vision.surface import noise_limit, surface_spread

log = logging.getLogger(__name__)

PAPER_RING = (0.57, 0.66)
INK_RING = (0.1, 0.2, 0.3, 0.4)
"""Inside the marker: its black squares are the darker samples there."""
"""The paper is sampled on squares this many marker sides from the marker's centre (its white
margin runs from 0.5 to 0.75)."""
GAIN_LIMITS = (0.3, 3.0)
LEARN_RATE = 0.3
"""How far the mat's colour moves towards a frame's measurement (per frame)."""
SETUP_FRAMES = 3
"""The bare table's spread (vision/surface.py) is learnt over this many frames after calibration
(the most any of them measures), then kept until the next calibration."""


PAPER_OUT = 235.0
INK_OUT = 25.0
"""Where the paper and the markers' black land after correction (what a clean, evenly lit
camera gives, and what the detectors' colour ranges were set on)."""


@dataclass(frozen=True)
class WhiteReading:
    """The white (and black) reference in one frame."""

    white_bgr: tuple[float, float, float]
    """The paper's colour as taken."""
    black_bgr: tuple[float, float, float]
    """The markers' black as taken (haze or a washed-out picture lifts it)."""
    paper_level: float
    """The paper's brightness (mean of b, g, r, 0..255) in the picture as taken."""
    paper_clipped: float
    """Share of paper samples with a channel at 250 or more (over-exposed)."""
    markers: int
    """Markers whose paper was measured."""


    @property
    def gains_bgr(self) -> tuple[float, float, float]:
        """What each channel is multiplied by (about its black) so the paper is neutral."""
        w, b = self.white_bgr, self.black_bgr
        g = [min(GAIN_LIMITS[1], max(GAIN_LIMITS[0], (PAPER_OUT - INK_OUT) / max(8.0, w[i] - b[i]))) for i in range(3)]
        return (g[0], g[1], g[2])


def _ring(layout: MarkerLayout, marker_id: int, ring: tuple[float, ...] = PAPER_RING) -> list[tuple[float, float]]:
    x, y = layout.centre(marker_id)
    pts = []
    for k in ring:
        h = k * layout.size_mm
        for t in np.linspace(-h, h, 12, endpoint=False):
            pts += [(x + t, y - h), (x + h, y + t), (x - t, y + h), (x - h, y - t)]
    return pts


def _mat_spots(layout: MarkerLayout) -> list[tuple[float, float]]:
    """Just inside each marker towards the table's middle (as :func:`vision.calibration.mat_samples`)."""
    xs = [c[1] for c in layout.centres]
    ys = [c[2] for c in layout.centres]
    mid = (sum(xs) / 4, sum(ys) / 4)
    points = []
    for _, x, y in layout.centres:
        base = math.atan2(mid[1] - y, mid[0] - x)
        for r in np.linspace(1.0, 1.8, 5) * layout.size_mm:
            for a in np.linspace(-0.7, 0.7, 11):
                points.append((x + r * math.cos(base + a), y + r * math.sin(base + a)))
    return points


def _pixels(calibration: Calibration, points: list[tuple[float, float]]) -> np.ndarray:
    pix = calibration.to_image(points)
    w, h = calibration.image_size
    out = np.round(pix).astype(np.int64)
    out[:, 0] = np.clip(out[:, 0], 0, w - 1)
    out[:, 1] = np.clip(out[:, 1], 0, h - 1)
    return out


class TableLight:
    """Corrects frames to neutral light and keeps the mat's colour current; see the module doc."""

    def __init__(self, layout: MarkerLayout, fixed_mat_bgr: tuple[float, float, float] | None = None, mat_distance: float = 0.07) -> None:
        self.layout = layout
        self.fixed_mat = None if fixed_mat_bgr is None else _chroma(np.array([fixed_mat_bgr], np.float32))
        self.mat_distance = mat_distance
        self._key: int | None = None
        self._rings: dict[int, np.ndarray] = {}
        self._inks: dict[int, np.ndarray] = {}
        self._mat_pix = np.zeros((0, 2), np.int64)
        self._mat: FloatArray | None = None
        self._spread = 0.0
        self._frames = 0
        self.white: WhiteReading | None = None

    def reset(self) -> None:
        self._key, self._mat, self.white = None, None, None
        self._spread, self._frames = 0.0, 0

    def _prepare(self, calibration: Calibration) -> None:
        key = calibration.serial * 1_000_003 + hash(calibration.image_from_table.tobytes())
        if key == self._key:
            return
        self._key = key
        self._rings = {i: _pixels(calibration, _ring(self.layout, i)) for i in self.layout.ids}
        self._inks = {i: _pixels(calibration, _ring(self.layout, i, INK_RING)) for i in self.layout.ids}
        self._mat_pix = _pixels(calibration, _mat_spots(self.layout))

    def measure_white(self, image: Image, calibration: Calibration, hidden: tuple[int, ...] = ()) -> WhiteReading | None:
        """The paper's colour, from the markers not hidden; None when no paper can be seen."""
        self._prepare(calibration)
        whites, blacks, clipped = [], [], []
        for marker_id, pix in self._rings.items():
            if marker_id in hidden:
                continue
            samples = image[pix[:, 1], pix[:, 0]].astype(np.float32)
            total = samples.sum(axis=1)
            bright = samples[total >= np.median(total)]
            ink = image[self._inks[marker_id][:, 1], self._inks[marker_id][:, 0]].astype(np.float32)
            dark = ink[ink.sum(axis=1) <= np.quantile(ink.sum(axis=1), 0.25)]
            if len(bright) < 8 or len(dark) < 4 or float(bright.mean()) < 40:
                continue
            whites.append(np.median(bright, axis=0))
            blacks.append(np.median(dark, axis=0))
            clipped.append(float(np.mean(bright.max(axis=1) >= 250)))
        if not whites:
            return None
        white = np.median(np.array(whites), axis=0)
        black = np.minimum(np.median(np.array(blacks), axis=0), white - 8.0)
        return WhiteReading(
            (float(white[0]), float(white[1]), float(white[2])),
            (float(black[0]), float(black[1]), float(black[2])),
            float(np.median(white.mean())),
            float(np.median(clipped)),
            len(whites),
        )

    def correct(self, image: Image, calibration: Calibration, hidden: tuple[int, ...] = ()) -> tuple[Image, Calibration]:
        """(the frame in neutral light, the calibration with the mat's current colour)."""
        reading = self.measure_white(image, calibration, hidden)
        if reading is not None:
            self.white = reading
        elif self.white is None:
            log.debug("no marker paper visible yet: frame left uncorrected")
        corrected = image if self.white is None else apply_levels(image, self.white)
        mat, limit = self._learn_mat(corrected, calibration)
        return corrected, replace(calibration, mat_chroma=mat, mat_limit=limit)

    def _learn_mat(self, image: Image, calibration: Calibration) -> tuple[tuple[float, float, float], float]:
        """(the mat's colour now, how far the bare table strays from it: :mod:`vision.surface`)."""
        samples = image[self._mat_pix[:, 1], self._mat_pix[:, 0]].astype(np.float32)
        samples = samples[samples.sum(axis=1) > 60]
        chroma = _chroma(samples) if len(samples) >= 16 else None
        near = 2.5 * self.mat_distance
        current: FloatArray
        if self.fixed_mat is not None:
            current = np.asarray(self.fixed_mat[0], np.float64)
        else:
            current = self._mat if self._mat is not None else np.array(calibration.mat_chroma, np.float64)
            if chroma is not None:
                close = chroma[np.linalg.norm(chroma - current[None, :], axis=1) < near]
                if self._mat is None:
                    close = chroma  # the first frame: the calibration's mat was measured uncorrected
                if len(close) >= 0.3 * len(chroma):
                    seen = np.median(close, axis=0)
                    current = np.asarray(seen if self._mat is None else (1 - LEARN_RATE) * current + LEARN_RATE * seen, np.float64)
            self._mat = np.asarray(current, np.float64)
        if self._frames < SETUP_FRAMES and chroma is not None:
            # the table's spread is learnt while it is set up, as its colour is; later a shadow
            # half over the spots, or a card by a marker, would pass for a table of two colours
            close = np.linalg.norm(chroma - current[None, :], axis=1) < near
            if np.count_nonzero(close) >= 0.3 * len(chroma):
                self._spread = max(self._spread, surface_spread(chroma, current, near))
        self._frames += 1
        limit = noise_limit(self._spread) if self._spread > 0 else calibration.mat_limit
        return (float(current[0]), float(current[1]), float(current[2])), limit


def _chroma(samples: FloatArray) -> FloatArray:
    return np.asarray(samples / np.maximum(samples.sum(axis=1, keepdims=True), 1.0), np.float64)


def apply_levels(image: Image, reading: WhiteReading) -> Image:
    """``image`` with each channel stretched so the markers' black and paper land on
    ``INK_OUT`` and ``PAPER_OUT`` (one table lookup per pixel).

    A pixel the stretch would take past white in some channel is scaled down whole instead of
    clipped there, so it keeps its colour: when the markers lie in a shadow the rest of the table
    is lifted past white, and clipping its red channel would turn an orange cube yellow."""
    ramp = np.arange(256, dtype=np.float32)
    gains = reading.gains_bgr
    levels = np.stack([INK_OUT + (ramp - reading.black_bgr[i]) * gains[i] for i in range(3)], axis=1)
    lut = np.clip(levels, 0, 255).astype(np.uint8).reshape(256, 1, 3)
    out = np.asarray(cv2.LUT(image, lut), np.uint8)
    # per channel, the highest value the stretch keeps at or under white
    keep = tuple(int(np.count_nonzero(levels[:, i] <= 255.0)) - 1 for i in range(3))
    if min(keep) >= 255:
        return out
    under = cv2.inRange(image, (0, 0, 0), keep)
    if cv2.countNonZero(under) == under.size:
        return out
    ys, xs = np.nonzero(under == 0)
    pix = image[ys, xs].astype(np.intp)
    stretched = levels[pix, np.arange(3)]
    top = stretched.max(axis=1, keepdims=True)
    out[ys, xs] = np.clip(stretched * (255.0 / np.maximum(top, 255.0)), 0, 255).astype(np.uint8)
    return out
