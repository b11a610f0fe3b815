"""Which colour cubes sit on each Table Card slot and in the cube pile."""

from __future__ import annotations

from collections.abc import Sequence

from companion.core import Observation, Zone, ZoneKind
from vision.calibration import Calibration
from vision.detectors.blobs import colour_blobs
from vision.detectors.common import RasterCache, vision_observation
from vision.frame import Frame
from vision.settings import VisionSettings
from vision.zones import make_raster, warp_zone

CUBE_ZONES = frozenset({ZoneKind.TABLE_SLOT, ZoneKind.CUBE_PILE})
VISIBLE_AREA = 1.2
"""A cube seen from above shows its top and a sliver of its sides: about 1.2 of its top's area."""
MOST_PER_BLOB = 3
"""A patch of one colour bigger than this many cubes is not cubes (a hand, a picture on a card)."""


class CubeDetector:
    """``{"cubes": [colour, ...]}`` per Table Card slot and cube pile, in the settings' colour order.

    A cube belongs to the zone its centre lies in. Touching cubes of one colour are counted by area.
    """

    kinds = CUBE_ZONES

    def __init__(self, settings: VisionSettings | None = None) -> None:
        self.settings = settings or VisionSettings()
        self._rasters = RasterCache()
        self._order = {c.name: i for i, c in enumerate(self.settings.cube_colours)}

    def cubes(self, frame: Frame, calibration: Calibration, zone: Zone) -> list[str]:
        s = self.settings
        raster = self._rasters.get(zone, lambda: make_raster(zone, s.px_per_mm, pad_mm=s.cube_size_mm))
        roi = warp_zone(frame.image, calibration.table_from_image, raster)
        one = (s.cube_size_mm * s.px_per_mm) ** 2 * VISIBLE_AREA
        found: list[str] = []
        side_px = s.cube_size_mm * s.px_per_mm
        for blob in colour_blobs(roi, s.cube_colours, max(4, int(one * 0.35)), int(round(side_px * 0.4))):
            u, v = int(round(blob.centre[0])), int(round(blob.centre[1]))
            if not (0 <= v < raster.height and 0 <= u < raster.width) or raster.mask[v, u] == 0:
                continue
            n = max(1, int(round(blob.pixels / one)))
            if n <= MOST_PER_BLOB:
                found.extend([blob.colour] * n)
        return sorted(found, key=self._order.__getitem__)

    def __call__(self, frame: Frame, calibration: Calibration, zones: Sequence[Zone]) -> list[Observation]:
        return [
            vision_observation(zone, {"cubes": self.cubes(frame, calibration, zone)}, frame.t)
            for zone in zones
            if zone.kind in self.kinds and zone.polygon
        ]
