"""What every detector shares: zone rasters cached per zone, the mat test, and the observation."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Protocol

import cv2
import numpy as np

from companion.core import Observation, Zone
from companion.core.seen import VisionSeen, ZoneView
from companion.core.zones import Watch
from vision.calibration import Calibration
from vision.frame import FloatArray, Frame, Image
from vision.zones import ZoneRaster

SOURCE = "camera"


class Detector(Protocol):
    """A function of (frame, calibration, zones) to one VISION observation per zone it watches:
    the zones whose kind's camera watches what this detector sees (:class:`Watch`)."""

    watches: Watch

    def __call__(self, frame: Frame, calibration: Calibration, zones: Sequence[Zone]) -> list[Observation]: ...


def vision_observation(zone: Zone, view: ZoneView, t: float, source: str = SOURCE) -> Observation:
    """The VISION observation of ``zone`` (payload: the zone's fields plus ``state``, the view)."""
    return VisionSeen(zone.ref(), view, t).observation(source)


class RasterCache:
    """Zone rasters depend only on the zone and settings, never on the camera: build each once."""

    def __init__(self) -> None:
        self._rasters: dict[Hashable, ZoneRaster] = {}

    def get(self, key: Hashable, build: Callable[[], ZoneRaster]) -> ZoneRaster:
        raster = self._rasters.get(key)
        if raster is None:
            raster = self._rasters[key] = build()
        return raster


def mat_difference(roi: Image, mat_chroma: tuple[float, float, float], dark_level: int) -> FloatArray:
    """Per pixel, how far its colour (chroma: brightness divided out) is from the bare mat's.

    Light gradients and shadows change brightness, not chroma, so this is steady under them.
    Pixels darker than ``dark_level`` carry no reliable colour and count as mat (distance 0).
    """
    b, g, r = cv2.split(cv2.blur(roi, (3, 3)).astype(np.float32))
    total = b + g + r
    inv = 1.0 / np.maximum(total, 1.0)
    db = b * inv - np.float32(mat_chroma[0])
    dg = g * inv - np.float32(mat_chroma[1])
    dr = r * inv - np.float32(mat_chroma[2])
    dist = np.sqrt(db * db + dg * dg + dr * dr)
    dist[total < 3 * dark_level] = 0.0
    return dist


def covered_fraction(foreground: Image | np.ndarray, mask: Image) -> float:
    """Share of the mask's pixels that are foreground."""
    inside = mask > 0
    n = int(np.count_nonzero(inside))
    return 0.0 if n == 0 else float(np.count_nonzero(foreground[inside])) / n
