"""Is a card in this zone? The share of the zone that is not the bare mat decides."""

from __future__ import annotations

from collections.abc import Sequence

from companion.core import Observation, Zone
from companion.core.seen import Occupancy, Unseen, ZoneView
from companion.core.zones import Watch
from vision.calibration import Calibration
from vision.detectors.common import RasterCache, covered_fraction, mat_difference, vision_observation
from vision.frame import Frame
from vision.settings import VisionSettings
from vision.zones import make_raster, warp_zone

EMPTY_FRACTION = 0.05
"""Share of a card zone that may differ from the mat with no card there (the table's own grain,
noise). Between this and ``occupied_fraction``, spread over all four quarters of the zone, it is
neither: a card whose back is nearly the mat's colour (only its pattern differs, about 0.18 of
it). That is unseen, not guessed. A patch on one side only (the edge of a hand or its shadow,
which the pipeline's visibility map judges) leaves the zone empty, as before."""
EVEN_SHARE = 0.5
"""Each quarter of the zone differs by at least this share of the whole zone's fraction: even."""


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
        return self.fractions(frame, calibration, zone)[0]

    def fractions(self, frame: Frame, calibration: Calibration, zone: Zone) -> tuple[float, float]:
        """(share of the zone, inset, that differs from the mat; the least such share of its four quarters)."""
        s = self.settings
        raster = self._rasters.get(zone, lambda: make_raster(zone, s.px_per_mm, inset_mm=s.zone_inset_mm))
        roi = warp_zone(frame.image, calibration.table_from_image, raster)
        differs = mat_difference(roi, calibration.mat_chroma, s.dark_level) > s.mat_distance
        h, w = differs.shape[:2]
        quarters = [
            covered_fraction(differs[rows, cols], raster.mask[rows, cols])
            for rows in (slice(0, h // 2), slice(h // 2, h))
            for cols in (slice(0, w // 2), slice(w // 2, w))
        ]
        return covered_fraction(differs, raster.mask), min(quarters)

    def __call__(self, frame: Frame, calibration: Calibration, zones: Sequence[Zone]) -> list[Observation]:
        out = []
        for zone in zones:
            if zone.kind.camera is self.watches and zone.polygon:
                share, least = self.fractions(frame, calibration, zone)
                view: ZoneView = Occupancy(share > self.settings.occupied_fraction)
                if EMPTY_FRACTION < share <= self.settings.occupied_fraction and least >= EVEN_SHARE * share:
                    view = Unseen("something there, but not enough unlike the mat to be sure it is a card")
                out.append(vision_observation(zone, view, frame.t))
        return out
