"""Teaching the camera a deck from the cards laid under it (``companion camera deck``).

The table is calibrated and its light corrected as the pipeline does (lens, markers, the white
reference), then each laid card's top-left corner is resampled card-aligned at the detector's
scale and its ink found as the detector finds it (:func:`vision.detectors.cardfaces.ink_map`).
The rank is the topmost mark near the card's left edge (with the marks beside it: the 10's two
digits), the suit the mark under it. Since each place's card is known, each glyph is learnt as
it is printed: its picture (what the reader correlates with), its height (the index size), where
the rank starts (the index's position) and the ink of each suit (its colour, four-colour decks
included). :meth:`TaughtDeck.save` writes them as the folder ``card_templates`` names:
``rank-A.png`` ... ``suit-C.png`` and ``deck.json``.
"""

from __future__ import annotations

import json
import logging
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from companion.core.errors import ConfigError
from vision.calibration import Calibration, calibrate
from vision.deck_layout import DeckLayout, Place
from vision.detectors.cardfaces import InkMark, in_line, ink_map, ink_of
from vision.detectors.cards import CORNER_PX_PER_MM, corner_to_table
from vision.detectors.glyphs import RANKS, SUITS
from vision.detectors.suits import COLOUR_PURITY, NEUTRAL, Ink, Outline, outline_of
from vision.frame import FloatArray, Image
from vision.lens import LensCalibration, Undistorter
from vision.lighting import TableLight
from vision.settings import VisionSettings

log = logging.getLogger(__name__)

TEACH_BOX_MM = (-3.0, -3.0, 28.0, 42.0)
"""The part of each laid card searched for its index: (left, top, right, bottom) mm from its
top-left corner; wider than the reader's, since the index's size is not known yet."""
RANK_REACH_MM = (14.0, 16.0)
"""The rank starts at most this far right of and below the card's corner."""
STRICT_DARKNESS = 0.55
"""Darkness (0..1 against the paper) of the ink taken when rank and suit run together; the
reader's own threshold is about 0.38 (``INK_OF_PAPER``)."""
SAME_COLOUR = 0.08
"""Suits whose learnt inks are closer than this are printed in one ink (spades and clubs of a
two-colour deck): each gets their mean, so the reader sees one colour of two suits."""


@dataclass(frozen=True)
class LearntCard:
    """One laid card's index as learnt: its glyph pictures (darkness 0..1) and sizes."""

    place: Place
    rank: FloatArray
    suit: FloatArray
    rank_mm: float
    suit_mm: float
    left_top_mm: tuple[float, float]
    ink: Ink | None


@dataclass(frozen=True)
class TaughtDeck:
    ranks: dict[str, FloatArray]
    suits: dict[str, FloatArray]
    rank_mm: float
    suit_mm: float
    index_mm: tuple[float, float]
    inks: dict[str, Ink]
    outlines: dict[str, Outline] = field(default_factory=dict)
    """Each suit's outline (top, fill, aspect; vision/detectors/suits.py ``outline_of``) as
    learnt: how this deck's own suits are told apart where the shared limits are not sure."""

    def save(self, folder: str | Path) -> Path:
        """Write the templates and ``deck.json`` into ``folder`` (made if need be)."""
        out = Path(folder)
        out.mkdir(parents=True, exist_ok=True)
        for kind, glyphs in (("rank", self.ranks), ("suit", self.suits)):
            for name, darkness in glyphs.items():
                path = out / f"{kind}-{name}.png"
                if not cv2.imwrite(str(path), _dark_on_light(darkness)):
                    raise ConfigError(f"camera deck: cannot write {path}")
        facts = {
            "rank_mm": round(self.rank_mm, 2),
            "suit_mm": round(self.suit_mm, 2),
            "index_mm": [round(v, 2) for v in self.index_mm],
            "inks": {s: [round(v, 4) for v in self.inks[s]] for s in SUITS},
            **({"outlines": {s: [round(v, 4) for v in self.outlines[s]] for s in SUITS}} if set(self.outlines) == set(SUITS) else {}),
            "taught_by": "companion camera deck",
        }
        (out / "deck.json").write_text(json.dumps(facts, indent=2) + "\n")
        log.info("taught deck saved to %s: rank %.1f mm, suit %.1f mm", out, self.rank_mm, self.suit_mm)
        return out

    def describe(self) -> list[str]:
        lines = [
            f"index: rank {self.rank_mm:.1f} mm tall, suit {self.suit_mm:.1f} mm; the rank starts {self.index_mm[0]:.1f} mm from the card's left edge and {self.index_mm[1]:.1f} mm from its top"
        ]
        inks = ", ".join(f"{s} {ink_name(self.inks[s])} ({self.inks[s][0]:.2f} {self.inks[s][1]:.2f} {self.inks[s][2]:.2f})" for s in SUITS)
        lines.append(f"inks (absorbance b g r): {inks}")
        return lines


def ink_name(ink: Ink) -> str:
    """A word for the ink, for the report: black, or the colour it looks."""
    if float(np.linalg.norm(np.asarray(ink) - NEUTRAL)) < COLOUR_PURITY:
        return "black"
    return _hue_word(ink)


def _hue_word(ink: Ink) -> str:
    """The colour the ink looks (what it does not absorb)."""
    b, g, r = ink
    seen = np.array([1 - b, 1 - g, 1 - r])  # the light it leaves, b g r
    pixel = np.asarray(np.clip(seen * 255, 0, 255), np.uint8).reshape(1, 1, 3)
    hue = int(np.asarray(cv2.cvtColor(pixel, cv2.COLOR_BGR2HSV))[0, 0, 0]) * 2
    for limit, word in ((20, "red"), (45, "orange"), (70, "yellow"), (165, "green"), (260, "blue"), (330, "purple"), (361, "red")):
        if hue < limit:
            return word
    return "red"


def _dark_on_light(darkness: FloatArray) -> Image:
    peak = max(float(darkness.max()), 1e-6)
    return np.asarray(np.clip(255.0 * (1.0 - darkness / peak), 0, 255), np.uint8)


def corrected_frame(image: Image, settings: VisionSettings) -> tuple[Image, Calibration]:
    """The picture as the detectors see it: straightened (a lens calibration), calibrated by the
    markers and corrected against their white paper."""
    if settings.lens_file:
        undistort = Undistorter(LensCalibration.load(settings.lens_file))
        mismatch = undistort.mismatch(image)
        if mismatch:
            raise ConfigError(f"camera.lens_file: {mismatch}")
        image = undistort(image)
    calibration = calibrate(image, settings.markers)
    light = TableLight(settings.markers, settings.mat_bgr, settings.mat_distance)
    return light.correct(image, calibration)


def card_corner(image: Image, calibration: Calibration, place: Place, box: tuple[float, float, float, float] = TEACH_BOX_MM) -> Image:
    """The card's top-left corner, card-aligned, at the reader's scale."""
    s = CORNER_PX_PER_MM
    size = (int(round((box[2] - box[0]) * s)), int(round((box[3] - box[1]) * s)))
    to_image = calibration.image_from_table @ corner_to_table(place.zone, box, s)
    out = cv2.warpPerspective(image, to_image, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    return np.asarray(out, np.uint8)


def learn_card(corner: Image, place: Place, box: tuple[float, float, float, float] = TEACH_BOX_MM) -> LearntCard:
    """The index of the card at ``place`` from its corner picture; a :class:`ConfigError` naming
    the place when there is none to learn. Ink is first found as the reader finds it; where the
    rank and the suit run together (a tight index, a soft picture), only the darker ink is taken,
    which parts them."""
    s = CORNER_PX_PER_MM
    labels, stats, darkness, local = ink_map(corner, s)
    try:
        return _learn(corner, place, box, labels, stats, darkness, float(local.max()))
    except ConfigError as exc:
        strict = (darkness >= STRICT_DARKNESS).astype(np.uint8)
        _, labels, stats, _ = cv2.connectedComponentsWithStats(strict, connectivity=8)
        try:
            return _learn(corner, place, box, labels, stats, darkness, float(local.max()))
        except ConfigError:
            raise exc from None


def _learn(
    corner: Image, place: Place, box: tuple[float, float, float, float], labels: np.ndarray, stats: np.ndarray, darkness: FloatArray, paper: float
) -> LearntCard:
    s = CORNER_PX_PER_MM
    h_img, w_img = corner.shape[:2]
    marks = [
        InkMark(int(x), int(y), int(w), int(h), int(a), k)
        for k, (x, y, w, h, a) in enumerate(stats[:, :5])
        if k > 0 and x > 0 and y > 0 and x + w < w_img and y + h < h_img and a >= s * s and h >= 2.5 * s
    ]
    ox, oy = box[0], box[1]
    near = [m for m in marks if m.x <= (RANK_REACH_MM[0] - ox) * s and m.y <= (RANK_REACH_MM[1] - oy) * s]
    where = f"place {place.number} ({place.face})"
    if not near:
        raise ConfigError(f"camera deck: no index at {where}: is the card there, face up and upright, its index at the top-left?")
    top = min(m.y for m in near)
    first = min((m for m in near if m.y <= top + 2 * s), key=lambda m: m.x)  # the leftmost of the top row
    group = _beside(first, marks, s)
    gx0, gy0 = min(m.x for m in group), min(m.y for m in group)
    gx1, gy1 = max(m.x + m.w for m in group), max(m.y + m.h for m in group)
    foot = first.y + first.h
    below = [m for m in marks if m not in group and m.y >= foot - 0.5 * s and m.y - foot <= 8 * s and m.x < gx1 and m.x + m.w > gx0 - 2 * s]
    if not below:
        raise ConfigError(f"camera deck: no suit under the rank at {where}: is the card upright and flat?")
    suit = min(below, key=lambda m: m.y)
    rank_mask = np.isin(labels[gy0:gy1, gx0:gx1], [m.label for m in group]).astype(np.uint8)
    rank = darkness[gy0:gy1, gx0:gx1] * cv2.dilate(rank_mask, np.ones((3, 3), np.uint8))
    suit_mask = (labels[suit.y : suit.y + suit.h, suit.x : suit.x + suit.w] == suit.label).astype(np.uint8)
    suit_img = darkness[suit.y : suit.y + suit.h, suit.x : suit.x + suit.w] * cv2.dilate(suit_mask, np.ones((3, 3), np.uint8))
    return LearntCard(
        place,
        np.ascontiguousarray(rank, np.float32),
        np.ascontiguousarray(suit_img, np.float32),
        first.h / s,
        suit.h / s,
        (gx0 / s + ox, gy0 / s + oy),
        ink_of(corner, labels, [*group, suit], paper),
    )


def _beside(first: InkMark, marks: Sequence[InkMark], s: float) -> list[InkMark]:
    """``first`` and the marks in line with it, each within 2.5 mm of the last (a 10's digits)."""
    group = [first]
    grown = True
    while grown:
        grown = False
        x1 = max(m.x + m.w for m in group)
        for m in marks:
            if m in group:
                continue
            if in_line(m, first) and 0 <= m.x - x1 <= 2.5 * s:
                group.append(m)
                grown = True
    return group


def teach(image: Image, settings: VisionSettings, layout: DeckLayout) -> tuple[TaughtDeck, list[LearntCard]]:
    """Learn the deck laid out as ``layout`` in one camera picture."""
    corrected, calibration = corrected_frame(image, settings)
    cards = [learn_card(card_corner(corrected, calibration, p), p) for p in layout.places]
    return combine(cards), cards


def combine(cards: Sequence[LearntCard]) -> TaughtDeck:
    """One template per rank and suit (a suit seen on several cards: their mean, at the size
    most of them have), the median index sizes and position, and each suit's ink."""
    ranks: dict[str, list[FloatArray]] = {}
    suits: dict[str, list[FloatArray]] = {}
    inks: dict[str, list[Ink]] = {}
    for card in cards:
        rank, suit = card.place.face[:-1], card.place.face[-1]
        ranks.setdefault(rank, []).append(card.rank)
        suits.setdefault(suit, []).append(card.suit)
        if card.ink is not None:
            inks.setdefault(suit, []).append(card.ink)
    missing = [r for r in RANKS if r not in ranks] + [s for s in SUITS if s not in suits or s not in inks]
    if missing:
        raise ConfigError(f"camera deck: nothing learnt of {', '.join(missing)}; lay a set of 13 cards holding every rank and suit")
    rank_mm = statistics.median(c.rank_mm for c in cards)
    suit_mm = statistics.median(c.suit_mm for c in cards)
    index = (statistics.median(c.left_top_mm[0] for c in cards), statistics.median(c.left_top_mm[1] for c in cards))
    glyphs = {s: _mean_glyph(suits[s]) for s in SUITS}
    outlines = {s: o for s in SUITS if (o := outline_of(glyphs[s])) is not None}
    return TaughtDeck(
        {r: _mean_glyph(ranks[r]) for r in RANKS},
        glyphs,
        rank_mm,
        suit_mm,
        index,
        _merged_inks({s: _mean_ink(inks[s]) for s in SUITS}),
        outlines,
    )


def _mean_glyph(pictures: Sequence[FloatArray]) -> FloatArray:
    w = int(statistics.median(p.shape[1] for p in pictures))
    h = int(statistics.median(p.shape[0] for p in pictures))
    resized = [cv2.resize(p, (w, h), interpolation=cv2.INTER_AREA) for p in pictures]
    return np.asarray(np.mean(resized, axis=0), np.float32)


def _mean_ink(inks: Sequence[Ink]) -> Ink:
    v = np.mean(np.asarray(inks, np.float64), axis=0)
    v = v / max(float(v.sum()), 1e-9)
    if float(np.linalg.norm(v - NEUTRAL)) < COLOUR_PURITY:
        v = NEUTRAL  # black as the reader knows it: not a faint colour of its own
    return float(v[0]), float(v[1]), float(v[2])


def _merged_inks(inks: dict[str, Ink]) -> dict[str, Ink]:
    out = dict(inks)
    for i, a in enumerate(SUITS):
        for b in SUITS[i + 1 :]:
            if float(np.linalg.norm(np.subtract(out[a], out[b]))) < SAME_COLOUR:
                mean = _mean_ink([out[a], out[b]])
                out[a] = out[b] = mean
    return out
