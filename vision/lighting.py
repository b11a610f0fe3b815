"""Colour constancy: every frame is corrected against a white reference that is always in view.

The markers' white paper is the reference. Per frame, the paper round each visible marker is
sampled (its brighter half: the marker's black squares are left out), and each colour channel is
scaled so that paper comes out neutral grey at the same brightness. Light that turns warmer or
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

log = logging.getLogger(__name__)

PAPER_RING = (0.57, 0.66)
"""The paper is sampled on squares this many marker sides from the marker's centre (its white
margin runs from 0.5 to 0.75)."""
GAIN_LIMITS = (0.3, 3.0)
LEARN_RATE = 0.3
"""How far the mat's colour moves towards a frame's measurement (per frame)."""


@dataclass(frozen=True)
class WhiteReading:
    """The white reference in one frame."""

    gains_bgr: tuple[float, float, float]
    """What each channel is multiplied by so the paper is neutral."""
    paper_level: float
    """The paper's brightness (mean of b, g, r, 0..255) in the picture as taken."""
    paper_clipped: float
    """Share of paper samples with a channel at 250 or more (over-exposed)."""
    markers: int
    """Markers whose paper was measured."""


def _ring(layout: MarkerLayout, marker_id: int) -> list[tuple[float, float]]:
    x, y = layout.centre(marker_id)
    pts = []
    for k in PAPER_RING:
        h = k * layout.size_mm
        for t in np.linspace(-h, h, 12, endpoint=False):
            pts += [(x + t, y - h), (x + h, y + t), (x - t, y + h), (x - h, y - t)]
    return pts


def _mat_spots(layout: MarkerLayout) -> list[tuple[float, float]]:
    """Just inside each marker towards the table's middle (as :func:`estimate_mat_chroma`)."""
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
        self._mat_pix = np.zeros((0, 2), np.int64)
        self._mat: FloatArray | None = None
        self.white: WhiteReading | None = None

    def reset(self) -> None:
        self._key, self._mat, self.white = None, None, None

    def _prepare(self, calibration: Calibration) -> None:
        key = calibration.serial * 1_000_003 + hash(calibration.image_from_table.tobytes())
        if key == self._key:
            return
        self._key = key
        self._rings = {i: _pixels(calibration, _ring(self.layout, i)) for i in self.layout.ids}
        self._mat_pix = _pixels(calibration, _mat_spots(self.layout))

    def measure_white(self, image: Image, calibration: Calibration, hidden: tuple[int, ...] = ()) -> WhiteReading | None:
        """The paper's colour, from the markers not hidden; None when no paper can be seen."""
        self._prepare(calibration)
        chromas, levels, clipped = [], [], []
        for marker_id, pix in self._rings.items():
            if marker_id in hidden:
                continue
            samples = image[pix[:, 1], pix[:, 0]].astype(np.float32)
            total = samples.sum(axis=1)
            bright = samples[total >= np.median(total)]
            if len(bright) < 8 or float(bright.sum(axis=1).mean()) < 3 * 40:
                continue
            chromas.append(np.median(_chroma(bright), axis=0))
            levels.append(float(bright.mean()))
            clipped.append(float(np.mean(bright.max(axis=1) >= 250)))
        if not chromas:
            return None
        paper = np.median(np.array(chromas), axis=0)
        gains = np.clip((1.0 / 3.0) / np.maximum(paper, 1e-3), *GAIN_LIMITS)
        return WhiteReading((float(gains[0]), float(gains[1]), float(gains[2])), float(np.median(levels)), float(np.median(clipped)), len(chromas))

    def correct(self, image: Image, calibration: Calibration, hidden: tuple[int, ...] = ()) -> tuple[Image, Calibration]:
        """(the frame in neutral light, the calibration with the mat's current colour)."""
        reading = self.measure_white(image, calibration, hidden)
        if reading is not None:
            self.white = reading
        elif self.white is None:
            log.debug("no marker paper visible yet: frame left uncorrected")
        corrected = image if self.white is None else apply_gains(image, self.white.gains_bgr)
        return corrected, replace(calibration, mat_chroma=self._learn_mat(corrected, calibration))

    def _learn_mat(self, image: Image, calibration: Calibration) -> tuple[float, float, float]:
        if self.fixed_mat is not None:
            m = self.fixed_mat[0]
            return float(m[0]), float(m[1]), float(m[2])
        samples = image[self._mat_pix[:, 1], self._mat_pix[:, 0]].astype(np.float32)
        samples = samples[samples.sum(axis=1) > 60]
        current = self._mat if self._mat is not None else np.array(calibration.mat_chroma, np.float64)
        if len(samples) >= 16:
            chroma = _chroma(samples)
            near = chroma[np.linalg.norm(chroma - current[None, :], axis=1) < 2.5 * self.mat_distance]
            if self._mat is None:
                near = chroma  # the first frame: the calibration's mat was measured uncorrected
            if len(near) >= 0.3 * len(chroma):
                seen = np.median(near, axis=0)
                current = seen if self._mat is None else (1 - LEARN_RATE) * current + LEARN_RATE * seen
        self._mat = np.asarray(current, np.float64)
        return float(current[0]), float(current[1]), float(current[2])


def _chroma(samples: FloatArray) -> FloatArray:
    return np.asarray(samples / np.maximum(samples.sum(axis=1, keepdims=True), 1.0), np.float64)


def apply_gains(image: Image, gains_bgr: tuple[float, float, float]) -> Image:
    """``image`` with each channel multiplied by its gain (one table lookup per pixel)."""
    ramp = np.arange(256, dtype=np.float32)
    lut = np.stack([np.clip(ramp * g, 0, 255) for g in gains_bgr], axis=1).astype(np.uint8).reshape(256, 1, 3)
    return np.asarray(cv2.LUT(image, lut), np.uint8)
