"""Where each player's pawn stands on the Everest 8 x 6 grid."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.core import Observation, Zone
from companion.core.seen import Pawns
from companion.core.zones import Watch
from companion.core.errors import ConfigError
from vision.board_surface import measure_board
from vision.calibration import Calibration
from vision.detectors.blobs import Blob, colour_blobs
from vision.detectors.common import vision_observation
from vision.frame import FloatArray, Frame, Image
from vision.settings import VisionSettings

COLUMNS, ROWS = 8, 6
OFF_GRID_PX_PER_MM = 0.5
"""Resolution the whole table is looked at when a pawn is missing from the grid."""
MOST_AREA = 2.2
"""A patch of a pawn's colour bigger than this many pawns (seen from above) is not a pawn."""
PAD = 0.5
"""Squares of margin round the grid, so a pawn leaning over the edge is still seen whole."""
BOARD_EVERY_S = 1.0
"""The board's own colours (vision/board_surface.py) are measured again after this long."""


@dataclass(frozen=True)
class Sighting:
    """Where one pawn colour is seen."""

    square: tuple[int, int] | None
    """(x, y) on the grid, or None in the margin round it (off the board)."""
    at_mm: tuple[float, float]
    """Table mm of the pawn's centre."""


@dataclass(frozen=True)
class GridReading:
    """What the grid shows in one frame."""

    candidates: Mapping[str, tuple[Sighting, ...]]
    """Colour -> each place a pawn of it may be, biggest patch first (patches of one colour less
    than a pawn apart are one pawn's parts)."""
    hidden: tuple[str, ...] = ()
    """Colours the board itself is too near to tell a pawn of from it (vision/board_surface.py):
    unseen, and never among the candidates."""

    @property
    def found(self) -> dict[str, Sighting]:
        """Colour -> its pawn, for each colour seen in one place."""
        return {c: places[0] for c, places in self.candidates.items() if len(places) == 1}

    @property
    def twice(self) -> tuple[str, ...]:
        """Colours seen in two places more than a pawn apart (a pawn and a screen's icon): unseen."""
        return tuple(c for c, places in self.candidates.items() if len(places) > 1)


class PawnDetector:
    """``{"pawns": {player: [x, y]}}`` for a grid zone (:attr:`Watch.PAWNS`): x 1..8 west to east, y 1..6 south to north.

    The grid polygon is its corners south-west, south-east, north-east, north-west; the board is
    resampled square-true, a pawn colour's patch is the pawn, and its centre names the square. A
    pawn off the grid (or not found) is left out; a colour seen in two places (a pawn and an icon
    of its colour on a lit phone), and a colour the board's own tiles hide (measured once a second:
    vision/board_surface.py), is named in ``unseen``, never placed.
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
        self._board: dict[Zone, tuple[float, tuple[str, ...]]] = {}
        """Zone -> (frame time, colours its board hid) when its board was last measured."""

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

    def read(self, frame: Frame, calibration: Calibration, zone: Zone) -> GridReading:
        """Each pawn colour's sighting on the grid (and its margin), and the colours seen twice."""
        raster_from_table, w, h, per_square = self._raster(zone)
        roi = cv2.warpPerspective(frame.image, raster_from_table @ calibration.table_from_image, (w, h), flags=cv2.INTER_LINEAR)
        mm_per_square = per_square / self.settings.px_per_mm
        pawn_px = self.settings.pawn_size_mm / mm_per_square * per_square
        area = math.pi * (pawn_px / 2) ** 2
        hidden = self._board_hides(zone, np.asarray(roi, np.uint8), per_square, frame.t)
        candidates: dict[str, list[Blob]] = {}
        for blob in colour_blobs(np.asarray(roi, np.uint8), self._colours, max(6, int(area * 0.3)), int(round(pawn_px * 0.4))):
            if blob.pixels > MOST_AREA * area or blob.colour in hidden:
                continue  # a mug, a book: bigger than any pawn; or a colour the board hides
            candidates.setdefault(blob.colour, []).append(blob)
        table_from_raster = np.linalg.inv(raster_from_table)
        places: dict[str, tuple[Sighting, ...]] = {}
        for colour, blobs in candidates.items():
            mains: list[Blob] = []
            for blob in sorted(blobs, key=lambda b: -b.pixels):
                if not any(math.dist(blob.centre, m.centre) <= pawn_px for m in mains):
                    mains.append(blob)
            places[colour] = tuple(self._sighting(m, per_square, table_from_raster) for m in mains)
        return GridReading(places, hidden)

    def _board_hides(self, zone: Zone, roi: Image, per_square: float, t: float) -> tuple[str, ...]:
        """The pawn colours the board hides, measured on the grid raster ``roi`` (margin and all)
        at most every :data:`BOARD_EVERY_S` (a board does not change colour; measuring costs ~15 ms)."""
        last = self._board.get(zone)
        if last is not None and 0.0 <= t - last[0] < BOARD_EVERY_S:
            return last[1]
        pad = int(round(PAD * per_square))
        grid = roi[pad : pad + int(ROWS * per_square), pad : pad + int(COLUMNS * per_square)]
        surface = measure_board(grid, COLUMNS, ROWS)
        hidden = surface.hides(self._colours) if surface is not None else ()
        self._board[zone] = (t, hidden)
        return hidden

    @staticmethod
    def _sighting(blob: Blob, per_square: float, table_from_raster: FloatArray) -> Sighting:
        x = math.floor(blob.centre[0] / per_square - PAD) + 1
        y = ROWS - math.floor(blob.centre[1] / per_square - PAD)
        at = cv2.perspectiveTransform(np.array([[blob.centre]], np.float64), table_from_raster).reshape(2)
        return Sighting((x, y) if 1 <= x <= COLUMNS and 1 <= y <= ROWS else None, (float(at[0]), float(at[1])))

    def hidden_by_board(self, zone: Zone) -> tuple[str, ...]:
        """Players whose pawn colour the board of ``zone`` hid when it was last measured."""
        last = self._board.get(zone)
        return tuple(sorted(self.players_by_colour[c] for c in last[1])) if last is not None else ()

    def squares(self, frame: Frame, calibration: Calibration, zone: Zone) -> dict[str, tuple[int, int]]:
        """Colour -> (x, y) of each pawn seen once on the grid."""
        return {c: s.square for c, s in self.read(frame, calibration, zone).found.items() if s.square is not None}

    def __call__(self, frame: Frame, calibration: Calibration, zones: Sequence[Zone]) -> list[Observation]:
        out = []
        for zone in zones:
            if zone.kind.camera is self.watches and len(zone.polygon) == 4:
                reading = self.read(frame, calibration, zone)
                pawns = {self.players_by_colour[c]: s.square for c, s in sorted(reading.found.items()) if s.square is not None}
                unseen = tuple(sorted(self.players_by_colour[c] for c in (*reading.twice, *reading.hidden)))
                out.append(vision_observation(zone, Pawns(pawns, unseen), frame.t))
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
