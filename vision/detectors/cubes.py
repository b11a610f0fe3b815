"""Which colour cubes sit on each Table Card slot and in the cube pile."""

from __future__ import annotations

from collections.abc import Sequence

from companion.core import Observation, Zone
from companion.core.seen import Cubes, Unseen, ZoneView
from companion.core.zones import Watch
from vision.calibration import Calibration
from vision.colours import hidden_by_surface
from vision.detectors.blobs import Blob, colour_blobs
from vision.detectors.common import RasterCache, mat_difference, vision_observation
from vision.frame import Frame
from vision.settings import VisionSettings
from vision.zones import make_raster, warp_zone

VISIBLE_AREA = 1.2
"""A cube seen from above shows its top and a sliver of its sides: about 1.2 of its top's area."""
MOST_PER_BLOB = 4
"""A patch of colour bigger than this many cubes is not counted: the zone is unseen instead."""
PIECE_MAT_DISTANCE = 0.17
"""Chroma distance from the mat below which a pixel is mat, or a blur of mat and piece that is
more mat than piece: the cube colours are 0.35 (blue) to 0.5 (green) from the purple felt, so
this is about halfway (a blurred edge's true place)."""
MAT_NOISE = 0.06
"""Chroma distance from the mat that a bare table's own texture (wood grain, felt, camera noise)
stays under. A cube-sized patch of a cube colour between this and ``PIECE_MAT_DISTANCE`` is
neither table nor a cube the detector can count (a yellow cube on oak is 0.13 from it): unseen."""


class CubeDetector:
    """``{"cubes": [colour, ...]}`` per zone of cubes (:attr:`Watch.CUBES`), in the settings' colour order.

    A cube belongs to the zone its centre lies in. Touching cubes of one colour are counted by area.
    """

    watches = Watch.CUBES

    def __init__(self, settings: VisionSettings | None = None) -> None:
        self.settings = settings or VisionSettings()
        self._rasters = RasterCache()
        self._order = {c.name: i for i, c in enumerate(self.settings.cube_colours)}

    def cubes(self, frame: Frame, calibration: Calibration, zone: Zone) -> list[str] | Unseen:
        """The cubes in ``zone``, or why they cannot be counted."""
        s = self.settings
        raster = self._rasters.get(zone, lambda: make_raster(zone, s.px_per_mm, pad_mm=s.cube_size_mm))
        roi = warp_zone(frame.image, calibration.table_from_image, raster)
        one = (s.cube_size_mm * s.px_per_mm) ** 2 * VISIBLE_AREA
        side_px = s.cube_size_mm * s.px_per_mm
        patches: dict[int, list[Blob]] = {}
        difference = mat_difference(roi, calibration.mat_chroma, s.dark_level)
        # a blurred cube's edge blends into the mat; halfway from the mat's colour is its true edge
        solid = difference > PIECE_MAT_DISTANCE
        unsure = (difference > MAT_NOISE) & ~solid
        for blob in colour_blobs(roi, s.cube_colours, max(4, int(one * 0.2)), int(round(side_px * 0.4)), unsure & (raster.mask > 0)):
            if blob.pixels >= 0.35 * one:
                return Unseen(f"a {blob.colour} patch too near the table's colour to count as a cube or not")
        for blob in colour_blobs(roi, s.cube_colours, max(4, int(one * 0.2)), int(round(side_px * 0.4)), solid):
            patches.setdefault(blob.patch, []).append(blob)
        found: list[str] = []
        for blobs in patches.values():
            total = sum(b.pixels for b in blobs)
            if total < 0.35 * one:
                continue
            # a cube's shaded side may read as a neighbouring colour: parts smaller than half a
            # cube belong to the patch's main colour, and the whole patch is counted by its area
            main = max(blobs, key=lambda b: b.pixels)
            parts = [b for b in blobs if b.pixels >= 0.5 * one] or [main]
            u = sum(b.centre[0] * b.pixels for b in blobs) / total
            v = sum(b.centre[1] * b.pixels for b in blobs) / total
            ui, vi = int(round(u)), int(round(v))
            if not (0 <= vi < raster.height and 0 <= ui < raster.width) or raster.mask[vi, ui] == 0:
                continue
            n_total = max(1, int(round(total / one)))
            if n_total > MOST_PER_BLOB:
                return Unseen("too many touching cubes to count")  # a hand, a picture, a heap: not guessed
            counts = {b.colour: max(1, int(round(b.pixels / one))) for b in parts}
            counts[main.colour] += n_total - sum(counts.values()) if n_total > sum(counts.values()) else 0
            for colour, n in counts.items():
                found.extend([colour] * n)
        return sorted(found, key=self._order.__getitem__)

    def __call__(self, frame: Frame, calibration: Calibration, zones: Sequence[Zone]) -> list[Observation]:
        out = []
        hidden = hidden_by_surface(calibration.mat_chroma, self.settings.cube_colours)
        for zone in zones:
            if zone.kind.camera is self.watches and zone.polygon:
                view: ZoneView
                if hidden:
                    # a cube of the table's own colour would be missed: no list is sure
                    view = Unseen(f"the table is the colour of {' and '.join(hidden)} cubes: lay a mat of another colour")
                else:
                    cubes = self.cubes(frame, calibration, zone)
                    view = cubes if isinstance(cubes, Unseen) else Cubes(tuple(cubes))
                out.append(vision_observation(zone, view, frame.t))
        return out
