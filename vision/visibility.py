"""Can the camera see a zone right now? A zone is *unseen* rather than guessed when a large patch
that is not the mat reaches in from the table's edge and crosses it (a hand, an arm, a sleeve),
when it is too dark, or when glare washes it out.

Once per frame the whole table is resampled small (``MAP_PX_PER_MM``), the same mat test the card
zones use is made on it, and the patches of not-mat touching the table's rim (an arm always
comes in over the rim; cards and pieces lie inside it) are marked, grown by ``INTRUSION_PAD_MM``.
Each zone then looks at its own pixels of that map.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import cv2
import numpy as np

from companion.core import Zone, ZoneKind
from vision.calibration import Calibration, MarkerLayout
from vision.detectors.common import mat_difference
from vision.frame import FloatArray, Image

log = logging.getLogger(__name__)

MAP_PX_PER_MM = 0.5
INTRUSION_PAD_MM = 14.0
"""An arm's outline is soft and its shadow falls beside it: zones this close to it are unseen."""
DARK_SHARE = 0.4
"""A zone with more than this share of too-dark pixels is unseen."""
GLARE_LEVEL = 250
"""A pixel whose every channel is at least this is clipped white: glare, or over-exposure."""
GLARE_SHARE = {"card": 0.12, "pieces": 0.0}
"""Share of glare above which a zone is unseen: a card zone stands a spot of glare; a glare
spot where cubes or pawns stand may hide one, so any counts (zones of pieces are judged on the
glare near a piece only, see :meth:`TableView.reason`)."""


@dataclass(frozen=True, eq=False)
class TableView:
    """What the camera can see of the table in one frame, as small north-up maps."""

    intrusion: Image
    dark: Image
    glare: Image
    table_to_map: FloatArray

    def _zone_mask(self, zone: Zone, pad_mm: float) -> Image:
        mask = np.zeros(self.intrusion.shape, np.uint8)
        pts = cv2.perspectiveTransform(np.array(zone.polygon, np.float64).reshape(-1, 1, 2), self.table_to_map).reshape(-1, 2)
        cv2.fillPoly(mask, [np.round(pts).astype(np.int32)], 255)
        if pad_mm > 0:
            k = max(1, int(round(pad_mm * MAP_PX_PER_MM)))
            mask = np.asarray(cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1))), np.uint8)
        return mask

    def reason(self, zone: Zone, pad_mm: float = 0.0) -> str | None:
        """Why ``zone`` cannot be seen now (one phrase), or None when it can."""
        mask = self._zone_mask(zone, pad_mm) > 0
        n = int(np.count_nonzero(mask))
        if n == 0:
            return None
        if np.any(self.intrusion[mask]):
            return "something large over it (a hand?)"
        if np.count_nonzero(self.dark[mask]) > DARK_SHARE * n:
            return "too dark"
        pieces = zone.kind in (ZoneKind.TABLE_SLOT, ZoneKind.CUBE_PILE, ZoneKind.GRID)
        limit = GLARE_SHARE["pieces" if pieces else "card"]
        if np.count_nonzero(self.glare[mask]) > limit * n:
            return "glare"
        return None


def rim_intrusions(not_mat: Image, paper: Image) -> Image:
    """The patches of ``not_mat`` that touch the map's edge (markers' ``paper`` left out)."""
    fg = (not_mat > 0) & (paper == 0)
    fg_u8 = cv2.morphologyEx(fg.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, labels = cv2.connectedComponents(fg_u8, connectivity=8)
    if count <= 1:
        return np.zeros_like(fg_u8)
    edge = np.concatenate([labels[0, :], labels[-1, :], labels[:, 0], labels[:, -1]])
    touching = np.unique(edge[edge > 0])
    return np.isin(labels, touching).astype(np.uint8)


class VisibilityMap:
    """Builds a :class:`TableView` per frame for one table layout."""

    def __init__(self, layout: MarkerLayout, mat_distance: float = 0.07, dark_level: int = 30) -> None:
        self.layout = layout
        self.mat_distance = mat_distance
        self.dark_level = dark_level
        xs = [c[1] for c in layout.centres]
        ys = [c[2] for c in layout.centres]
        self.x0, self.x1, self.y0, self.y1 = min(xs), max(xs), min(ys), max(ys)
        s = MAP_PX_PER_MM
        self.size = (int(np.ceil((self.x1 - self.x0) * s)) + 1, int(np.ceil((self.y1 - self.y0) * s)) + 1)
        self.table_to_map = np.array([[s, 0.0, -s * self.x0], [0.0, -s, s * self.y1], [0.0, 0.0, 1.0]])
        paper = np.zeros((self.size[1], self.size[0]), np.uint8)
        half = 0.8 * layout.size_mm
        for _, x, y in layout.centres:
            pts = np.array([(x - half, y - half), (x + half, y - half), (x + half, y + half), (x - half, y + half)], np.float64).reshape(-1, 1, 2)
            cv2.fillPoly(paper, [np.round(cv2.perspectiveTransform(pts, self.table_to_map).reshape(-1, 2)).astype(np.int32)], 255)
        self.paper = paper

    def _warp(self, image: Image, m: FloatArray) -> Image:
        return np.asarray(cv2.warpPerspective(image, m, self.size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE), np.uint8)

    def view(self, raw: Image, corrected: Image, calibration: Calibration) -> TableView:
        """Per frame: ``raw`` as taken (for glare), ``corrected`` in neutral light."""
        m = self.table_to_map @ calibration.table_from_image
        cor = self._warp(corrected, m)
        raw_small = cor if raw is corrected else self._warp(raw, m)
        not_mat = mat_difference(cor, calibration.mat_chroma, self.dark_level) > 1.5 * self.mat_distance
        intrusion = rim_intrusions(not_mat.astype(np.uint8), self.paper)
        k = int(round(INTRUSION_PAD_MM * MAP_PX_PER_MM))
        if intrusion.any():
            intrusion = np.asarray(cv2.dilate(intrusion, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1))), np.uint8)
        dark = (np.asarray(cv2.cvtColor(cor, cv2.COLOR_BGR2GRAY)) < self.dark_level).astype(np.uint8)
        b, g, r = cv2.split(raw_small)
        glare = (np.asarray(cv2.min(cv2.min(b, g), r)) >= GLARE_LEVEL).astype(np.uint8)
        return TableView(intrusion, dark, glare, self.table_to_map)
