"""The Mountain's pyramid: which of the 21 slots still hold a card, and which card.

A slot's card always shows its top strip (later rows cover the rest) with the corner index in
it. A slot is occupied when its corner is not bare mat AND the band across the card's middle,
just below the strip, does not show the gap a removed card leaves: the gap between the two cards
of the row above (or the bare mat of an empty peak), a strip of mat from the band's top to its
bottom; AND the card's lower body is not bare mat, or its index is found (cards laid by hand
may close that gap, but a removed card's lower body shows the mat unless the next row lies there). A big dark pip (the A of spades) leaves specks of mat-coloured noise along its outline,
as much of the band as a blurred gap but in no strip's full height, so both are asked for. Whether the index can be read does not
matter. The index is read when it can be (``card``); otherwise ``card`` is None: the face is
unknown, not guessed. Each slot costs one small
remap: the card's top-left corner, card-aligned, at ``CORNER_PX_PER_MM``.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from companion.core import Observation, Zone
from companion.core.seen import CardFace
from companion.core.zones import Watch
from vision.calibration import Calibration
from vision.detectors.cardfaces import GlyphTemplates, IndexRead, read_indices, separator_rows, templates_for
from vision.detectors.common import mat_difference, vision_observation
from vision.frame import FloatArray, Frame, Image
from vision.settings import VisionSettings

CORNER_MM = (-2.0, -2.0, 22.0, 32.0)
"""The part of a card searched for its index: (left, top, right, bottom) mm from its top-left."""
CORNER_PX_PER_MM = 3.0
BAND_MM = (26.5, 22.0, 36.5, 50.0)
"""The middle of a card just below its visible strip: (left, top, right, bottom) mm from its
top-left. A card lying in its slot covers it; a removed card leaves the gap between the two
cards of the row above (bare mat) showing there, whatever covered it before."""
BAND_PX_PER_MM = 1.0
BAND_MAT_SHARE = 0.12
"""A slot whose middle band shows more bare mat than this (and a gap strip, below) holds no card."""
GAP_STRIP_MM = 3
"""The gap a removed card leaves is 7 mm wide (cards 63 mm on a 70 mm pitch): a strip this wide
lies inside it at any placing."""
GAP_STRIP_SHARE = 0.25
"""A slot holds no card only when some GAP_STRIP_MM-wide strip of its band is mat over more of the
band's height than this. Measured on rendered tables (bench/vision.py's scenes, easy to hard,
and the demo camera's pyramid): a removed card's strip 0.9 to 1.0 on a clear picture and down to
0.25 under the hard level's blur and shadow; an exposed A of spades at most 0.21, its specks
scattered down the pip's outline."""


BODY_MM = (10.0, 62.0, 53.0, 82.0)
"""The card's lower body, well inside its edges (a card laid by hand lies up to 4 mm and 5 degrees
off): a card in its slot covers it, or the next row's cards lie over it; bare mat there means
the slot is empty, even where the two cards of the row above close the gap the band looks for."""
BODY_MAT_SHARE = 0.5
"""A slot whose lower body is bare mat over more than this, and no index at its corner, holds no
card (a lit phone's dark screen over a card's body passed for mat; its index still shows)."""


def _box_size(box: tuple[float, float, float, float]) -> tuple[int, int]:
    return int(round((box[2] - box[0]) * BAND_PX_PER_MM)), int(round((box[3] - box[1]) * BAND_PX_PER_MM))


def corner_to_table(zone: Zone, box: tuple[float, float, float, float] = CORNER_MM, px_per_mm: float = CORNER_PX_PER_MM) -> FloatArray:
    """Maps corner-picture pixels to table mm, from the slot's corners (top-left, top-right, ..)."""
    tl, tr, _, bl = (np.array(p, np.float64) for p in zone.polygon)
    across = (tr - tl) / max(1e-9, float(np.linalg.norm(tr - tl)))
    down = (bl - tl) / max(1e-9, float(np.linalg.norm(bl - tl)))
    k = 1.0 / px_per_mm
    origin = tl + box[0] * across + box[1] * down
    return np.array([[across[0] * k, down[0] * k, origin[0]], [across[1] * k, down[1] * k, origin[1]], [0, 0, 1.0]])


class PyramidDetector:
    """``{"occupied": bool, "card": "QS" | None}`` per card read by its face (:attr:`Watch.CARD_FACE`:
    The Mountain's pyramid slots).

    All slots' corners are resampled with one ``remap`` into a single tall picture (the maps are
    made once per calibration), and the pixel work is done on it at once.
    """

    watches = Watch.CARD_FACE

    def __init__(self, settings: VisionSettings | None = None, templates: GlyphTemplates | None = None) -> None:
        self.settings = settings or VisionSettings()
        if templates is None:
            templates = templates_for(self.settings)
        self.templates = templates
        s = CORNER_PX_PER_MM
        inset = self.settings.zone_inset_mm
        self._size = (int(round((CORNER_MM[2] - CORNER_MM[0]) * s)), int(round((CORNER_MM[3] - CORNER_MM[1]) * s)))
        self._pitch = self._size[1] + separator_rows(s)
        # the card's own paper in the corner picture: inset from its top and left edges
        self._inner = (
            slice(int((inset - CORNER_MM[1]) * s), int((CORNER_MM[3] - 2) * s)),
            slice(int((inset - CORNER_MM[0]) * s), int((CORNER_MM[2] - 2) * s)),
        )
        self._maps: tuple[tuple[bytes, tuple[Zone, ...]], Image, Image] | None = None
        self._band_size = _box_size(BAND_MM)
        self._band_maps: dict[tuple[float, float, float, float], tuple[tuple[bytes, tuple[Zone, ...]], Image, Image]] = {}

    def _stack_maps(self, calibration: Calibration, slots: tuple[Zone, ...]) -> tuple[Image, Image]:
        """remap() maps putting each slot's corner below the last (built once per calibration)."""
        key = (calibration.image_from_table.tobytes(), slots)
        if self._maps is not None and self._maps[0] == key:
            return self._maps[1], self._maps[2]
        w, h = self._size
        us, vs = np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
        grid = np.stack([us.ravel(), vs.ravel(), np.ones(us.size)])
        map_x = np.full((self._pitch * len(slots), w), -1.0, np.float32)
        map_y = np.full_like(map_x, -1.0)
        for k, zone in enumerate(slots):
            pts = (calibration.image_from_table @ corner_to_table(zone)) @ grid
            rows = slice(k * self._pitch, k * self._pitch + h)
            map_x[rows] = (pts[0] / pts[2]).reshape(h, w)
            map_y[rows] = (pts[1] / pts[2]).reshape(h, w)
        fixed_xy, fixed_frac = cv2.convertMaps(map_x, map_y, cv2.CV_16SC2)
        self._maps = (key, np.asarray(fixed_xy), np.asarray(fixed_frac))
        return self._maps[1], self._maps[2]

    def _stack_band_maps(self, calibration: Calibration, slots: tuple[Zone, ...], box: tuple[float, float, float, float] = BAND_MM) -> tuple[Image, Image]:
        """remap() maps putting each slot's ``box`` (mm from its top-left) below the last, at
        :data:`BAND_PX_PER_MM` (built once per calibration)."""
        key = (calibration.image_from_table.tobytes(), slots)
        cached = self._band_maps.get(box)
        if cached is not None and cached[0] == key:
            return cached[1], cached[2]
        w, h = _box_size(box)
        us, vs = np.meshgrid(np.arange(w, dtype=np.float64) + 0.5, np.arange(h, dtype=np.float64) + 0.5)
        grid = np.stack([us.ravel(), vs.ravel(), np.ones(us.size)])
        map_x = np.empty((h * len(slots), w), np.float32)
        map_y = np.empty_like(map_x)
        for k, zone in enumerate(slots):
            pts = (calibration.image_from_table @ corner_to_table(zone, box, BAND_PX_PER_MM)) @ grid
            map_x[k * h : (k + 1) * h] = (pts[0] / pts[2]).reshape(h, w)
            map_y[k * h : (k + 1) * h] = (pts[1] / pts[2]).reshape(h, w)
        a, b = cv2.convertMaps(map_x, map_y, cv2.CV_16SC2)
        self._band_maps[box] = (key, np.asarray(a), np.asarray(b))
        return np.asarray(a), np.asarray(b)

    def _mat_in(self, frame: Frame, calibration: Calibration, slots: tuple[Zone, ...], box: tuple[float, float, float, float]) -> np.ndarray:
        """Per slot, which pixels of its ``box`` are bare mat (slots stacked top to bottom)."""
        a, b = self._stack_band_maps(calibration, slots, box)
        band = np.asarray(cv2.remap(frame.image, a, b, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0), np.uint8)
        s = self.settings
        dist = mat_difference(band, calibration.mat_chroma, s.dark_level)
        bright = np.asarray(cv2.cvtColor(band, cv2.COLOR_BGR2GRAY)) >= s.dark_level
        # closer to the mat than halfway to white paper: a narrow gap, blurred, still shows
        halfway = 0.5 * float(np.linalg.norm(np.array(calibration.mat_chroma) - 1.0 / 3.0))
        w, h = _box_size(box)
        return np.asarray((dist <= max(s.mat_distance, halfway)) & bright).reshape(len(slots), h, w)

    def body_mat_shares(self, frame: Frame, calibration: Calibration, slots: tuple[Zone, ...]) -> list[float]:
        """Per slot: the share of its lower body (:data:`BODY_MM`) that is bare mat."""
        mat = self._mat_in(frame, calibration, slots, BODY_MM)
        return [float(v) for v in mat.reshape(len(slots), -1).mean(axis=1)]

    def band_mat_shares(self, frame: Frame, calibration: Calibration, slots: tuple[Zone, ...]) -> list[tuple[float, float]]:
        """Per slot: the share of the middle band (:data:`BAND_MM`) that is bare mat, and the most
        of the band's height any :data:`GAP_STRIP_MM`-wide strip of it shows mat over."""
        mat = self._mat_in(frame, calibration, slots, BAND_MM)
        w, h = self._band_size
        per_column = mat.reshape(len(slots), h, w).mean(axis=1)
        k = max(1, min(w, int(round(GAP_STRIP_MM * BAND_PX_PER_MM))))
        # a strip's share is the mean of its columns' shares: a running sum across the columns
        running = np.cumsum(np.pad(per_column, ((0, 0), (1, 0))), axis=1)
        strips = (running[:, k:] - running[:, :-k]) / k
        return [(float(a), float(b)) for a, b in zip(per_column.mean(axis=1), strips.max(axis=1))]

    def corners(self, frame: Frame, calibration: Calibration, slots: tuple[Zone, ...]) -> Image:
        """Every slot's top-left corner, card-aligned, stacked top to bottom ``self._pitch`` apart."""
        map_xy, map_frac = self._stack_maps(calibration, slots)
        out = cv2.remap(frame.image, map_xy, map_frac, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        return np.asarray(out, np.uint8)

    def read(self, frame: Frame, calibration: Calibration, slots: tuple[Zone, ...]) -> list[tuple[float, IndexRead]]:
        """Per slot: (share of its corner that is not mat, what its index says)."""
        if not slots:
            return []
        s = self.settings
        stacked = self.corners(frame, calibration, slots)
        # the mat test on every other pixel of each corner's own paper area is plenty
        paper = stacked.reshape(len(slots), self._pitch, self._size[0], 3)[:, self._inner[0], self._inner[1]][:, ::2, ::2]
        n, ph, pw = paper.shape[:3]
        differs = mat_difference(np.ascontiguousarray(paper.reshape(n * ph, pw, 3)), calibration.mat_chroma, s.dark_level) > s.mat_distance
        shares = differs.reshape(n, -1).mean(axis=1)
        reads = read_indices(stacked, len(slots), self._pitch, CORNER_PX_PER_MM, (CORNER_MM[0], CORNER_MM[1]), self.templates, s.card_min_score)
        bands = self.band_mat_shares(frame, calibration, slots)
        bodies = self.body_mat_shares(frame, calibration, slots)
        out = []
        for share, (band, strip), body, read in zip(shares, bands, bodies, reads):
            # occupied by the card's body (its corner is not mat, its middle is not the gap
            # a removed card leaves, its lower body is not bare mat unless its index is there:
            # a dark phone over the body is not mat), read or not; the face only when read
            gap = (band >= BAND_MAT_SHARE and strip > GAP_STRIP_SHARE) or (body > BODY_MAT_SHARE and not read.found)
            occupied = bool(share > s.occupied_fraction and not gap)
            out.append((float(share), IndexRead(occupied, read.face if occupied else None, read.score)))
        return out

    def __call__(self, frame: Frame, calibration: Calibration, zones: Sequence[Zone]) -> list[Observation]:
        slots = tuple(z for z in zones if z.kind.camera is self.watches and len(z.polygon) == 4)
        return [
            vision_observation(zone, CardFace(index.found, index.face), frame.t)
            for zone, (_, index) in zip(slots, self.read(frame, calibration, slots))
        ]
