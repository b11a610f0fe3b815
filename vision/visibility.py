"""Can the camera see a zone right now? A zone is *unseen* rather than guessed when a large patch
that is not the mat reaches in from the table's edge and crosses it (a hand, an arm, a sleeve),
when it is too dark, when glare washes it out, or when a colour in it is clipped (over-exposure,
or a lit screen: its hue cannot be trusted).

Once per frame the whole table is resampled small (``MAP_PX_PER_MM``). Two things mark an
intrusion, grown by ``INTRUSION_PAD_MM``:

- a patch of not-mat touching the table's rim (an arm comes in over the rim; cards and pieces
  lie inside it);
- a patch whose colour differs from the table's recent appearance (a picture of the table
  re-learnt over about a second where nothing large is, brightness divided out) and that is bigger than ``NEW_PATCH_MM2``: a card or a piece
  put down is smaller; a hand, a phone or a book is not. Where an intrusion is, the appearance
  is not re-learnt, until it has been there ``ABSORB_S`` without a break: then it is the table.

Each zone then looks at its own pixels of that map.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import cv2
import numpy as np

from companion.core import Zone
from vision.calibration import Calibration, MarkerLayout
from vision.detectors.common import mat_difference
from vision.frame import FloatArray, Image

log = logging.getLogger(__name__)

MAP_PX_PER_MM = 0.5
SUM_CHANNELS = np.ones((1, 3), np.float32)
INTRUSION_PAD_MM = 14.0
"""An arm's outline is soft and its shadow falls beside it: zones this close to it are unseen."""
NEW_PATCH_MM2 = 9000.0
"""A new patch bigger than this (about 1.6 cards) is an intrusion, not something put down."""
LEARN_S = 0.7
"""Time constant of re-learning the table's appearance where nothing large is in the way."""
ABSORB_S = 10.0
"""Where something large has been for this long without a break, it is part of the table now (a
book, a whole pyramid laid out at once); a hand resting for a few seconds is not."""
DARK_SHARE = 0.4
"""A zone with more than this share of too-dark pixels is unseen."""
GLARE_LEVEL = 250
"""A pixel whose every channel is at least this is clipped white: glare, or over-exposure."""
GLARE_SHARE = 0.12
"""Share of glare above which a card zone is unseen (a card zone stands a spot of glare)."""
GLARE_PIECE_SHARE = 4.0
"""In a zone of cubes or pawns, a clipped patch this many times a piece's top may hide one: the
zone is unseen. A highlight clips white paper far wider than it clips a coloured piece (a red
cube needs ~10 times the light paper needs), so smaller glints leave the pieces in view. Set on
rendered glare; a real lamp may need it lower."""
CLIPPED_COLOUR_SHARE = 0.5
"""A coloured patch with a clipped channel (one channel at ``GLARE_LEVEL``, another well below)
this many times a piece's top makes a zone unseen: its hue is not the piece's (an
over-exposed orange cube reads yellow), or it is light given off (a phone's screen), which no
piece or card does in a room's light (a card's inks are dark, and its paper clips white, not in
colour). Patches touching white glare are glare's own edges."""
COLOURED = 60
"""Least spread between a pixel's brightest and darkest channel for it to have a colour."""
DARK_PIECE_SHARE = 1.0
"""In a zone of cubes or pawns, a too-dark patch this many times a piece's top may be a piece in
a deep shadow (too dark to have a colour, so taken for the table): the zone is unseen."""
GLARE = "glare"
DARK_PATCH = "a patch too dark to tell a piece from the table"
CLIPPED_COLOUR = "a colour too bright to judge (over-exposed, or a lit screen)"
"""The reasons :meth:`TableView.reason` gives for glare and a clipped colour (the pawn grid, being
big, may still vouch for the pawns away from them: vision/pawn_view.py)."""


@dataclass(frozen=True, eq=False)
class TableView:
    """What the camera can see of the table in one frame, as small north-up maps."""

    intrusion: Image
    dark: Image
    glare: Image
    """Every clipped-white pixel."""
    big_glare: Image
    """The clipped patches big enough to hide a cube or a pawn."""
    table_to_map: FloatArray
    clipped_colour: Image | None = None
    """Coloured pixels with a clipped channel, in patches big enough to matter to a piece."""
    big_dark: Image | None = None
    """The too-dark patches big enough to be a piece."""

    def _zone_mask(self, zone: Zone, pad_mm: float) -> Image:
        mask = np.zeros(self.intrusion.shape, np.uint8)
        pts = cv2.perspectiveTransform(np.array(zone.polygon, np.float64).reshape(-1, 1, 2), self.table_to_map).reshape(-1, 2)
        cv2.fillPoly(mask, [np.round(pts).astype(np.int32)], 255)
        if pad_mm > 0:
            k = max(1, int(round(pad_mm * MAP_PX_PER_MM)))
            mask = np.asarray(cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1))), np.uint8)
        return mask

    def glare_at_least(self, zone: Zone, pad_mm: float, area_mm2: float) -> bool:
        """Is there a clipped-white patch of at least ``area_mm2`` in ``zone``?"""
        inside = (self.glare > 0) & (self._zone_mask(zone, pad_mm) > 0)
        if not inside.any():
            return False
        _, _, stats, _ = cv2.connectedComponentsWithStats(inside.astype(np.uint8), connectivity=8)
        return bool(stats[1:, cv2.CC_STAT_AREA].max() >= max(1.0, area_mm2 * MAP_PX_PER_MM**2))

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
        if zone.kind.camera.pieces:  # a glint hides a piece only when it is as big as one
            if np.any(self.big_glare[mask]):
                return GLARE
            if self.big_dark is not None and np.any(self.big_dark[mask]):
                return DARK_PATCH
        elif np.count_nonzero(self.glare[mask]) > GLARE_SHARE * n:
            return GLARE
        if self.clipped_colour is not None:
            if np.any(self.clipped_colour[mask]):
                return CLIPPED_COLOUR
        return None

    def clipped_colour_near(self, point_mm: tuple[float, float], reach_mm: float) -> bool:
        """Is there a clipped coloured patch within ``reach_mm`` of a table point?"""
        if self.clipped_colour is None:
            return False
        (u, v), = cv2.perspectiveTransform(np.array([[point_mm]], np.float64), self.table_to_map).reshape(-1, 2)
        r = reach_mm * MAP_PX_PER_MM
        h, w = self.clipped_colour.shape
        u0, u1 = max(0, int(np.floor(u - r))), min(w, int(np.ceil(u + r)) + 1)
        v0, v1 = max(0, int(np.floor(v - r))), min(h, int(np.ceil(v + r)) + 1)
        if u0 >= u1 or v0 >= v1:
            return False
        vs, us = np.mgrid[v0:v1, u0:u1]
        disc = (us - u) ** 2 + (vs - v) ** 2 <= r * r
        return bool(np.any(self.clipped_colour[v0:v1, u0:u1][disc]))


def _big_patches(mask: Image, least_px: int) -> Image:
    """The connected patches of ``mask`` of at least ``least_px`` pixels."""
    if not mask.any():
        return np.zeros_like(mask)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    big = np.flatnonzero(stats[:, cv2.CC_STAT_AREA] >= least_px)
    big = big[big > 0]
    return np.isin(labels, big).astype(np.uint8) if len(big) else np.zeros_like(mask)


def rim_intrusions(not_mat: Image, paper: Image) -> Image:
    """The patches of ``not_mat`` that touch the map's edge (markers' ``paper`` left out)."""
    fg = (not_mat > 0) & (paper == 0)
    fg_u8 = cv2.morphologyEx(fg.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    fg_u8 = cv2.morphologyEx(fg_u8, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))  # a wrist's shadow does not cut an arm off
    count, labels = cv2.connectedComponents(fg_u8, connectivity=8)
    if count <= 1:
        return np.zeros_like(fg_u8)
    edge = np.concatenate([labels[0, :], labels[-1, :], labels[:, 0], labels[:, -1]])
    touching = np.unique(edge[edge > 0])
    return np.isin(labels, touching).astype(np.uint8)


class VisibilityMap:
    """Builds a :class:`TableView` per frame for one table layout."""

    def __init__(self, layout: MarkerLayout, mat_distance: float = 0.07, dark_level: int = 30, piece_mm: float = 12.0) -> None:
        self.layout = layout
        self.piece_px = max(1, int(round(GLARE_PIECE_SHARE * piece_mm * piece_mm * MAP_PX_PER_MM**2)))
        self.clipped_px = max(1, int(round(CLIPPED_COLOUR_SHARE * piece_mm * piece_mm * MAP_PX_PER_MM**2)))
        self.dark_px = max(1, int(round(DARK_PIECE_SHARE * piece_mm * piece_mm * MAP_PX_PER_MM**2)))
        self._appearance: FloatArray | None = None
        self._since: FloatArray | None = None
        self._t: float | None = None
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

    def view(self, raw: Image, corrected: Image, calibration: Calibration, t: float = 0.0) -> TableView:
        """Per frame: ``raw`` as taken (for glare), ``corrected`` in neutral light."""
        m = self.table_to_map @ calibration.table_from_image
        cor = self._warp(corrected, m)
        raw_small = cor if raw is corrected else self._warp(raw, m)
        not_mat = mat_difference(cor, calibration.mat_chroma, self.dark_level) > self.mat_distance
        intrusion = rim_intrusions(not_mat.astype(np.uint8), self.paper) | self._new_patches(cor, t)
        k = int(round(INTRUSION_PAD_MM * MAP_PX_PER_MM))
        if intrusion.any():
            intrusion = np.asarray(cv2.dilate(intrusion, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1))), np.uint8)
        self._learn(cor, intrusion, t)
        dark = (np.asarray(cv2.cvtColor(cor, cv2.COLOR_BGR2GRAY)) < self.dark_level).astype(np.uint8)
        b, g, r = cv2.split(raw_small)
        glare = (np.asarray(cv2.min(cv2.min(b, g), r)) >= GLARE_LEVEL).astype(np.uint8)
        big_glare = np.zeros_like(glare)
        if glare.any():
            count, labels, stats, _ = cv2.connectedComponentsWithStats(glare, connectivity=8)
            big = np.flatnonzero(stats[:, cv2.CC_STAT_AREA] >= self.piece_px)
            big = big[big > 0]
            if len(big):
                big_glare = np.isin(labels, big).astype(np.uint8)
        return TableView(intrusion, dark, glare, big_glare, self.table_to_map, self._clipped_colour(raw_small, glare), _big_patches(dark, self.dark_px))

    def _clipped_colour(self, raw_small: Image, glare: Image) -> Image:
        """Patches of coloured pixels with a channel clipped as taken, each at least
        ``clipped_px`` and not touching glare. (The white reference's correction clips no colour:
        a pixel it lifts past white is scaled down whole, vision/lighting.py ``apply_levels``.)"""
        b, g, r = cv2.split(raw_small)
        top = np.asarray(cv2.max(cv2.max(b, g), r))
        low = np.asarray(cv2.min(cv2.min(b, g), r))
        clipped = ((top >= GLARE_LEVEL) & (top.astype(np.int16) - low >= COLOURED)).astype(np.uint8)
        if not clipped.any():
            return np.zeros_like(clipped)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(clipped, connectivity=8)
        near_glare = np.unique(labels[cv2.dilate(glare, np.ones((3, 3), np.uint8)) > 0])
        big = np.flatnonzero(stats[:, cv2.CC_STAT_AREA] >= self.clipped_px)
        big = np.setdiff1d(big[big > 0], near_glare)
        return np.isin(labels, big).astype(np.uint8) if len(big) else np.zeros_like(clipped)

    def reset(self) -> None:
        """Forget the table's appearance (a new calibration: the map's pixels moved)."""
        self._appearance, self._since, self._t = None, None, None

    def _chroma(self, image: Image) -> FloatArray:
        f = image.astype(np.float32)
        total = np.asarray(cv2.transform(f, SUM_CHANNELS), np.float32)
        return np.asarray(f / np.maximum(total, 1.0)[:, :, None], np.float32)

    def _new_patches(self, image: Image, t: float) -> Image:
        """Big patches whose colour is not the table's recent appearance."""
        if self._appearance is None:
            return np.zeros(image.shape[:2], np.uint8)
        diff = self._chroma(image) - self._appearance
        far = np.asarray(cv2.transform(diff * diff, SUM_CHANNELS), np.float32) > np.float32(self.mat_distance**2)
        bright = np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)) >= self.dark_level
        changed = (far & bright).astype(np.uint8)
        changed = np.asarray(cv2.morphologyEx(changed, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)), np.uint8)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(changed, connectivity=8)
        big = np.flatnonzero(stats[:, cv2.CC_STAT_AREA] >= NEW_PATCH_MM2 * MAP_PX_PER_MM**2)
        big = big[big > 0]
        return np.isin(labels, big).astype(np.uint8) if len(big) else np.zeros_like(changed)

    def _learn(self, image: Image, intrusion: Image, t: float) -> None:
        chroma = self._chroma(image)
        if self._appearance is None or self._t is None:
            self._appearance, self._t = chroma, t
            return
        dt = max(0.0, t - self._t)
        self._t = t
        inside = intrusion > 0
        if self._since is None:
            self._since = np.full(inside.shape, np.inf, np.float32)
        self._since[~inside] = np.inf
        self._since[inside & np.isinf(self._since)] = t
        settled = inside & (t - self._since >= ABSORB_S)
        if settled.any():
            self._appearance[settled] = chroma[settled]
            self._since[settled] = np.inf
        fast = 1.0 - np.exp(-dt / LEARN_S)
        cv2.accumulateWeighted(chroma, self._appearance, float(fast), mask=(~inside).astype(np.uint8))
