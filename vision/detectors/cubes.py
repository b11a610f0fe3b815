"""Which colour cubes sit on each Table Card slot and in the cube pile."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from companion.core import Observation, Zone
from companion.core.seen import Cubes, Unseen, ZoneView
from companion.core.zones import Watch
from vision.calibration import Calibration
from vision.detectors.blobs import Blob, colour_blobs
from vision.detectors.common import RasterCache, mat_difference, vision_observation
from vision.frame import Frame
from vision.surface import hidden_by_surface
from vision.settings import VisionSettings
from vision.zones import make_raster, warp_zone

VISIBLE_AREA = 1.2
"""A cube seen from above shows its top and a sliver of its sides: about 1.2 of its top's area."""
MOST_PER_BLOB = 4
"""A patch of colour bigger than this many cubes is not counted: the zone is unseen instead."""
PIECE_MAT_DISTANCE = 0.17
"""The most a piece's pixel must differ from the mat (chroma) to count as piece. A blurred cube's
edge is a blend of mat and piece whose true place is halfway between their colours, so a patch
counts its pixels from halfway between the table and the patch's own colour (a yellow cube 0.15
from oak: from 0.075), and at most from this (colours 0.35 or more away, as on purple felt)."""
PEAK_SHARE = 0.9
"""A patch's colour is where this share of its pixels lie (from the table): its peak."""
SURPLUS_CUBE = 0.8
"""A patch's area beyond its colours' own cubes counts as one more cube of its main colour only
when it is this much of a cube (its rim blends are less)."""
PIECE_BEYOND = 1.5
"""A patch is a piece when its peak lies this many times the table's limit from the table
(``Calibration.mat_limit``: the bare table's own pixels stay within it). A cube-sized patch of a
cube colour nearer than that is neither table nor a piece the detector can count: unseen."""


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
        limit = calibration.mat_limit
        least = max(4, int(one * 0.2))
        for blob in colour_blobs(roi, s.cube_colours, least, int(round(side_px * 0.4)), difference > limit, difference):
            assert blob.differences is not None
            peak = float(np.quantile(blob.differences, PEAK_SHARE))
            if peak <= PIECE_BEYOND * limit:
                if _inside(raster.mask, blob.centre):
                    return Unseen(f"a {blob.colour} patch too near the table's colour to count as a cube or not")
                continue
            # a blurred cube's edge blends into the table: halfway to the patch's colour is its true edge
            core = int(np.count_nonzero(blob.differences > max(limit, min(PIECE_MAT_DISTANCE, 0.5 * peak))))
            if core >= least:
                patches.setdefault(blob.patch, []).append(dataclasses.replace(blob, pixels=core))
        found: list[str] = []
        for blobs in patches.values():
            total = sum(b.pixels for b in blobs)
            if total < 0.35 * one:
                if any(_inside(raster.mask, b.centre) for b in blobs):
                    # a piece's colour, too little of it to count: a cube half the table's colour, not nothing
                    return Unseen(f"a {blobs[0].colour} patch too small or faint to count as a cube or not")
                continue
            # a cube's shaded side may read as a neighbouring colour: parts smaller than half a
            # cube belong to the patch's main colour, and the whole patch is counted by its area
            main = max(blobs, key=lambda b: b.pixels)
            parts = [b for b in blobs if b.pixels >= 0.5 * one] or [main]
            u = sum(b.centre[0] * b.pixels for b in blobs) / total
            v = sum(b.centre[1] * b.pixels for b in blobs) / total
            if not _inside(raster.mask, (u, v)):
                continue
            n_total = max(1, int(round(total / one)))
            if n_total > MOST_PER_BLOB:
                return Unseen("too many touching cubes to count")  # a hand, a picture, a heap: not guessed
            counts = {b.colour: max(1, int(round(b.pixels / one))) for b in parts}
            if n_total > sum(counts.values()) and total / one - sum(counts.values()) < SURPLUS_CUBE:
                # more area than its colours' cubes, but not a whole cube more: a blurred rim of
                # two colours (orange on green felt blends through yellow), or one cube more
                return Unseen("touching cubes whose number is not clear")
            counts[main.colour] += n_total - sum(counts.values()) if n_total > sum(counts.values()) else 0
            for colour, n in counts.items():
                found.extend([colour] * n)
        return sorted(found, key=self._order.__getitem__)

    def __call__(self, frame: Frame, calibration: Calibration, zones: Sequence[Zone]) -> list[Observation]:
        out = []
        hidden = hidden_by_surface(calibration.mat_chroma, self.settings.cube_colours, calibration.mat_limit)
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


def _inside(mask: np.ndarray, centre: tuple[float, float]) -> bool:
    """Whether raster pixel ``centre`` (u, v) lies in the zone's mask."""
    ui, vi = int(round(centre[0])), int(round(centre[1]))
    return 0 <= vi < mask.shape[0] and 0 <= ui < mask.shape[1] and bool(mask[vi, ui] > 0)
