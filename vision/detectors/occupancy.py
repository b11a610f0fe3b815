"""Is a card in this zone? The share of the zone that is not the bare mat decides."""

from __future__ import annotations

from collections.abc import Sequence

from companion.core import Observation, Zone
from companion.core.seen import Occupancy
from companion.core.zones import Watch
from vision.calibration import Calibration
from vision.detectors.common import RasterCache, covered_fraction, mat_difference, vision_observation
from vision.frame import Frame
from vision.settings import VisionSettings
from vision.zones import make_raster, warp_zone

class OccupancyDetector:
    """``{"occupied": bool}`` for each card zone (:attr:`Watch.CARD`) with a polygon.

    A card (face, back, any colour but the mat's) covers most of its zone; an empty zone shows
    mat. Judged inside the outline by ``zone_inset_mm`` so a card in the next zone does not count.
    """

    watches = Watch.CARD

    def __init__(self, settings: VisionSettings | None = None) -> None:
        self.settings = settings or VisionSettings()
        self._rasters = RasterCache()

    def fraction(self, frame: Frame, calibration: Calibration, zone: Zone) -> float:
        """Share of the zone (inset) that differs from the mat."""
        s = self.settings
        raster = self._rasters.get(zone, lambda: make_raster(zone, s.px_per_mm, inset_mm=s.zone_inset_mm))
        roi = warp_zone(frame.image, calibration.table_from_image, raster)
        differs = mat_difference(roi, calibration.mat_chroma, s.dark_level) > s.mat_distance
        return covered_fraction(differs, raster.mask)

    def __call__(self, frame: Frame, calibration: Calibration, zones: Sequence[Zone]) -> list[Observation]:
        out = []
        for zone in zones:
            if zone.kind.camera is self.watches and zone.polygon:
                occupied = self.fraction(frame, calibration, zone) > self.settings.occupied_fraction
                out.append(vision_observation(zone, Occupancy(occupied), frame.t))
        return out
