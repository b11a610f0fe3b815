"""Where each player's pawn stands on the Everest 8 x 6 grid."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import cv2
import numpy as np

from companion.core import Observation, Zone
from companion.core.seen import Pawns
from companion.core.zones import Watch
from companion.core.errors import ConfigError
from vision.calibration import Calibration
from vision.detectors.blobs import Blob, colour_blobs
from vision.detectors.common import vision_observation
from vision.frame import FloatArray, Frame
from vision.settings import VisionSettings

COLUMNS, ROWS = 8, 6
OFF_GRID_PX_PER_MM = 0.5
"""Resolution the whole table is looked at when a pawn is missing from the grid."""
MOST_AREA = 2.2
"""A patch of a pawn's colour bigger than this many pawns (seen from above) is not a pawn."""
PAD = 0.5
"""Squares of margin round the grid, so a pawn leaning over the edge is still seen whole."""


class PawnDetector:
    """``{"pawns": {player: [x, y]}}`` for a grid zone (:attr:`Watch.PAWNS`): x 1..8 west to east, y 1..6 south to north.

    The grid polygon is its corners south-west, south-east, north-east, north-west; the board is
    resampled square-true, each pawn colour's largest patch is the pawn, and its centre names the
    square. A pawn off the grid (or unseen) is left out.
    """

    watches = Watch.PAWNS

    def __init__(self, settings: VisionSettings | None = None, players_by_colour: Mapping[str, str] | None = None) -> None:
        self.settings = settings or VisionSettings()
        known = {c.name: c for c in self.settings.pawn_colours}
        mapping = dict(players_by_colour) if players_by_colour else {name: name for name in known}
        for colour in mapping:
            if colour not in known:
                raise ConfigError(f"camera.players_by_colour: {colour!r} is not a pawn colour ({', '.join(known)})")
        self.players_by_colour = mapping
        self._colours = tuple(known[c] for c in mapping)
        self._maps: dict[Zone, tuple[FloatArray, int, int, float]] = {}

    def _raster(self, zone: Zone) -> tuple[FloatArray, int, int, float]:
        """(raster_from_table, width, height, pixels per square) for the grid zone."""
        got = self._maps.get(zone)
        if got is None:
            sw, se, ne, nw = (np.array(p, np.float64) for p in zone.polygon)
            side = (float(np.linalg.norm(se - sw)) / COLUMNS + float(np.linalg.norm(nw - sw)) / ROWS) / 2
            per_square = max(8.0, side * self.settings.px_per_mm)
            w, h = int(math.ceil((COLUMNS + 2 * PAD) * per_square)), int(math.ceil((ROWS + 2 * PAD) * per_square))
            # raster corners of the grid (north up): south-west is bottom-left
            dst = np.array(
                [(PAD, ROWS + PAD), (COLUMNS + PAD, ROWS + PAD), (COLUMNS + PAD, PAD), (PAD, PAD)], np.float32
            ) * np.float32(per_square)
            src = np.array(zone.polygon, np.float32)
            made = (np.asarray(cv2.getPerspectiveTransform(src, dst), np.float64), w, h, per_square)
            self._maps[zone] = made
            return made
        return got

    def squares(self, frame: Frame, calibration: Calibration, zone: Zone) -> dict[str, tuple[int, int]]:
        """Colour -> (x, y) of each pawn seen on the grid."""
        raster_from_table, w, h, per_square = self._raster(zone)
        roi = cv2.warpPerspective(frame.image, raster_from_table @ calibration.table_from_image, (w, h), flags=cv2.INTER_LINEAR)
        mm_per_square = per_square / self.settings.px_per_mm
        pawn_px = self.settings.pawn_size_mm / mm_per_square * per_square
        area = math.pi * (pawn_px / 2) ** 2
        best: dict[str, Blob] = {}
        for blob in colour_blobs(np.asarray(roi, np.uint8), self._colours, max(6, int(area * 0.3)), int(round(pawn_px * 0.4))):
            if blob.pixels > MOST_AREA * area:
                continue  # a mug, a book: bigger than any pawn
            if blob.colour not in best or blob.pixels > best[blob.colour].pixels:
                best[blob.colour] = blob
        out = {}
        for colour, blob in best.items():
            x = math.floor(blob.centre[0] / per_square - PAD) + 1
            y = ROWS - math.floor(blob.centre[1] / per_square - PAD)
            if 1 <= x <= COLUMNS and 1 <= y <= ROWS:
                out[colour] = (x, y)
        return out

    def __call__(self, frame: Frame, calibration: Calibration, zones: Sequence[Zone]) -> list[Observation]:
        out = []
        for zone in zones:
            if zone.kind.camera is self.watches and len(zone.polygon) == 4:
                seen = self.squares(frame, calibration, zone)
                pawns = {self.players_by_colour[c]: square for c, square in sorted(seen.items())}
                out.append(vision_observation(zone, Pawns(pawns), frame.t))
        return out

    def seen_off_the_grid(self, frame: Frame, calibration: Calibration, zone: Zone, table: tuple[float, float, float, float]) -> set[str]:
        """Players whose pawn is seen on the table but off the grid (``table``: x0, x1, y0, y1 in
        mm): a pawn missing from the grid that lies in plain view beside it is not hidden."""
        x0, x1, y0, y1 = table
        s = OFF_GRID_PX_PER_MM
        w, h = int((x1 - x0) * s) + 1, int((y1 - y0) * s) + 1
        raster_from_table = np.array([[s, 0.0, -s * x0], [0.0, -s, s * y1], [0.0, 0.0, 1.0]])
        roi = np.asarray(cv2.warpPerspective(frame.image, raster_from_table @ calibration.table_from_image, (w, h), flags=cv2.INTER_AREA), np.uint8)
        area = math.pi * (self.settings.pawn_size_mm * s / 2) ** 2
        grid = np.array(zone.polygon, np.float64)
        gx0, gy0 = grid.min(axis=0) - self.settings.pawn_size_mm
        gx1, gy1 = grid.max(axis=0) + self.settings.pawn_size_mm
        seen = set()
        for blob in colour_blobs(roi, self._colours, max(4, int(area * 0.4)), 3):
            if blob.pixels > MOST_AREA * area:
                continue
            x, y = x0 + blob.centre[0] / s, y1 - blob.centre[1] / s
            if not (gx0 <= x <= gx1 and gy0 <= y <= gy1):
                seen.add(self.players_by_colour[blob.colour])
        return seen
