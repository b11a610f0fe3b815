"""Which suit an index shows: its ink's colour first, then its shape, each only when sure.

**Colour.** An ink is described by how much of each channel it takes away from the card's own
paper (its absorbance, ``1 - ink / paper`` per channel), scaled to sum to 1: black takes all
three alike (neutral), red takes blue and green, a four-colour deck's blue diamonds take red and
green. Blur mixes ink with paper and a tinted light tints both, but neither turns this direction.
Each suit has its ink (the built-in deck: black spades and clubs, red hearts and diamonds; a
taught deck: measured from its own cards); suits whose inks are alike form a colour. Black is
told from a colour by how far the ink is from neutral, colours from each other by their
direction from neutral; the colour named must fit clearly better than any other, else the suit
is unknown: a green club of a four-colour deck is not forced into black or red.

**Shape.** Within a colour of two suits the suit is told by two measures of its outline that
camera processing does not turn over and that every deck shares, rather than by templates of one
deck's shapes (untaught templates named a serif spade a club, and a webcam's sharpening did the
same to the built-in deck's spades):

- *top*: the ink's width just below its top (6 to 16 % of its height down) over its greatest
  width. A spade and a diamond come to a point there; a club's top leaf and a heart's two lobes
  are round and wide.
- *fill*: the ink's pixels over its convex hull's area. A club's three leaves leave notches
  between them; a spade's outline is nearly convex. (Pixels against the hull of their centres:
  above 1 for a convex shape; the corner is always resampled at the same scale, so the bias is
  constant.)

Heart or diamond: top at least ``HEART_TOP``, or at most ``DIAMOND_TOP``. Spade or club: both
measures must agree, at either of two pairs of limits each (a spade: ``SHARP_SPADE_*`` or
``SPADE_*``; a club: ``ROUND_*`` or ``CLUB_*``), because fill falls as the picture sharpens (a
sharp spade's is 0.99) and top rises with blur and noise (a spade under the living-room
perturbation reaches 0.42). Looser limits (``LOOSE_*``: a top under 0.29 is a spade, over 0.38
a club; in between fill 1.02 and over, or 1.0 and under) name the suit only where the deck's
template agrees (vision/detectors/cardfaces.py). A taught deck's own spade and club outlines
(top, fill and aspect, learnt by ``companion camera deck``) name a suit these limits leave
unknown, when the two lie far enough apart for the camera's processing to leave them apart
(:func:`suit_by_taught_outline`). Otherwise it is unknown. The limits were set on rendered corners
through the pipeline (the built-in deck, a serif and a small-index deck, a real deck's SVG faces;
Bayer demosaic and sharpening, noise reduction, high ISO, glare, JPEG q50, a 35 % shadow,
uncorrected barrel distortion, the living-room perturbation, noise sigma 8, blur 2.5 px; one or
two scenes each, seeds 0 and 1 of the benchmark's, so the benchmark's rows share some of their
scenes with this; 2,044 spades and clubs, none named wrong at these limits, 1,407 named;
1,532 hearts and diamonds: hearts 0.73 and over, diamonds 0.46 and under).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.detectors.glyphs import INK_BLACK, INK_RED
from vision.frame import FloatArray

Ink = tuple[float, float, float]
PAPER_BGR = (236.0, 240.0, 242.0)
"""The renderer's paper, which the built-in inks are measured against."""
INK_APART = 0.1
"""A coloured ink's colour must fit this much better (cosine) than the next colour."""
SAME_INK = 0.05
"""Suits whose inks are closer than this are one colour (a two-colour deck's spades and clubs)."""


def absorbance(ink_bgr: Sequence[float], paper_bgr: Sequence[float]) -> Ink | None:
    """The ink's direction of absorbance (sums to 1), or None when it takes nothing away."""
    a = np.clip(1.0 - np.asarray(ink_bgr, np.float64) / np.maximum(np.asarray(paper_bgr, np.float64), 1.0), 0.0, 1.0)
    total = float(a.sum())
    if total < 0.15:
        return None
    return float(a[0] / total), float(a[1] / total), float(a[2] / total)


def _of(bgr: tuple[int, int, int]) -> Ink:
    got = absorbance(bgr, PAPER_BGR)
    assert got is not None
    return got


BUILTIN_INKS: tuple[tuple[str, Ink], ...] = (("S", _of(INK_BLACK)), ("H", _of(INK_RED)), ("D", _of(INK_RED)), ("C", _of(INK_BLACK)))


NEUTRAL = np.full(3, 1.0 / 3.0)
BLACK_PURITY = 0.04
"""An ink whose absorbance is within this of neutral is black (or grey: black ink blurred)."""
COLOUR_PURITY = 0.07
"""An ink this far from neutral has a colour; in between it is not sure which. The camera's
noise reduction smears colour into the paper round a stroke, so a red stroke's purity falls
from about 0.28 to 0.13, but its direction (hue) stays."""
HUE_NEAR = 0.9
"""Least cosine between a coloured ink's direction and its colour's."""


def colours(inks: Mapping[str, Ink]) -> list[tuple[Ink, tuple[str, ...]]]:
    """The deck's colours: (ink, the suits printed in it)."""
    out: list[tuple[Ink, list[str]]] = []
    for suit, ink in inks.items():
        for known, suits in out:
            if float(np.linalg.norm(np.subtract(known, ink))) < SAME_INK:
                suits.append(suit)
                break
        else:
            out.append((ink, [suit]))
    return [(ink, tuple(suits)) for ink, suits in out]


def suits_of_ink(measured: Ink | None, inks: Mapping[str, Ink]) -> tuple[str, ...]:
    """The suits the measured ink can be (empty: not sure of its colour). Black against a
    coloured ink is told by purity; coloured inks by their direction from neutral (hue)."""
    if measured is None:
        return ()
    v = np.asarray(measured) - NEUTRAL
    purity = float(np.linalg.norm(v))
    blacks = [suits for ink, suits in colours(inks) if float(np.linalg.norm(np.asarray(ink) - NEUTRAL)) < BLACK_PURITY]
    if purity < BLACK_PURITY:
        return blacks[0] if len(blacks) == 1 else ()
    if purity < COLOUR_PURITY:
        return ()
    ranked = []
    for ink, suits in colours(inks):
        u = np.asarray(ink) - NEUTRAL
        n = float(np.linalg.norm(u))
        if n >= BLACK_PURITY:
            ranked.append((float(u @ v) / (n * purity), suits))
    ranked.sort(reverse=True)
    if not ranked or ranked[0][0] < HUE_NEAR or (len(ranked) > 1 and ranked[0][0] - ranked[1][0] < INK_APART):
        return ()
    return ranked[0][1]


HEART_TOP = 0.6
DIAMOND_TOP = 0.5
SHARP_SPADE_TOP, SHARP_SPADE_FILL = 0.28, 0.97
SPADE_TOP, SPADE_FILL = 0.36, 1.035
"""A spade: top under and fill at least either pair."""
ROUND_TOP, ROUND_FILL = 0.40, 1.0
CLUB_TOP, CLUB_FILL = 0.33, 0.995
"""A club: top over and fill at most either pair."""
LOOSE_SPADE_TOP, LOOSE_CLUB_TOP = 0.29, 0.38
LOOSE_SPADE, LOOSE_CLUB = (0.35, 1.02), (0.34, 1.0)
TOP_ROWS = (0.06, 0.16)
"""Where *top* is measured: this share of the ink's height below its top."""


def _biggest_patch(ink: FloatArray) -> np.ndarray | None:
    """The biggest patch of ``ink`` (one suit's darkness, 0..1) at half its darkest, cropped to
    its bounding box (1 inside); None when there is none at least 6 pixels tall."""
    peak = float(ink.max()) if ink.size else 0.0
    if peak <= 0.0:
        return None
    solid = (ink >= 0.5 * peak).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(solid, connectivity=8)
    if count <= 1:
        return None
    k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, w, h = (int(v) for v in stats[k, :4])
    if h < 6:
        return None
    return np.asarray(labels[y : y + h, x : x + w] == k, np.uint8)


def ink_height(ink: FloatArray) -> int:
    """Pixels from the top to the bottom of the suit's ink (its biggest patch; 0 when none)."""
    blob = _biggest_patch(ink)
    return 0 if blob is None else int(blob.shape[0])


Outline = tuple[float, float, float]
"""(top, fill, aspect): the outline's two measures (above) and its width over its height."""


def outline_of(ink: FloatArray) -> Outline | None:
    """(top, fill, aspect) of the biggest patch of ``ink`` (one suit's darkness, 0..1) at half
    its darkest; see the module docstring. None when there is no patch to measure."""
    blob = _biggest_patch(ink)
    if blob is None:
        return None
    h, w = blob.shape
    widths = blob.sum(axis=1).astype(np.float64)
    r0 = int(round(TOP_ROWS[0] * h))
    r1 = max(r0 + 1, int(round(TOP_ROWS[1] * h)))
    top = float(widths[r0:r1].mean() / widths.max())
    contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    hull = cv2.contourArea(cv2.convexHull(max(contours, key=cv2.contourArea)))
    return top, float(blob.sum()) / max(1.0, float(hull)), w / h


def suit_by_shape(ink: FloatArray, candidates: Sequence[str], loose: bool = False) -> str | None:
    """Which of ``candidates`` (the suits of the ink's colour) ``ink`` is, or None when not sure
    (``loose``: at the looser spade and club limits, to be confirmed by a template). One
    candidate (a colour printed for one suit only) is that suit."""
    if len(candidates) == 1:
        return candidates[0]
    measured = outline_of(ink)
    if measured is None:
        return None
    top, fill, _ = measured
    pair = frozenset(candidates)
    if pair == {"H", "D"}:
        return "H" if top >= HEART_TOP else "D" if top <= DIAMOND_TOP else None
    if pair == {"S", "C"} and loose:
        if top < LOOSE_SPADE_TOP or (top < LOOSE_SPADE[0] and fill >= LOOSE_SPADE[1]):
            return "S"
        if top > LOOSE_CLUB_TOP or (top > LOOSE_CLUB[0] and fill <= LOOSE_CLUB[1]):
            return "C"
        return None
    if pair == {"S", "C"}:
        if (top < SHARP_SPADE_TOP and fill >= SHARP_SPADE_FILL) or (top < SPADE_TOP and fill >= SPADE_FILL):
            return "S"
        if (top > ROUND_TOP and fill <= ROUND_FILL) or (top > CLUB_TOP and fill <= CLUB_FILL):
            return "C"
    return None  # suits paired otherwise (a taught deck's colours): no measure tells them apart


OUTLINE_NOISE: Outline = (0.045, 0.015, 0.035)
"""How far each of an outline's measures (top, fill, aspect) strays for one suit of one deck
through one camera condition: the typical standard deviation on camera-processed frames (Bayer
and sharpening, high ISO, noise reduction, lens shading, JPEG q50, noise, barrel distortion, the
living-room perturbation, cards laid by hand; seeds 100-103, the SVG and small-index decks
taught). A taught deck's outlines are compared in these units."""
TAUGHT_APART = 6.0
"""A taught deck's own spade and club outlines decide between them only when the two lie at
least this many noise widths (:data:`OUTLINE_NOISE`) apart. The SVG deck's lie 8.8 apart: its
club is as wide as it is tall and its spade 0.74 as wide, and the club's notches make its fill
0.07 less; but its spades read 0.23-0.46 on *top* like its clubs, so the shared limits above take
a third of them for neither suit or for a club. The other decks taught fall short and keep the
shared limits alone: the built-in deck's lie 5.1 apart, the jumbo deck's 4.9, the small-index
deck's 4.3 (its clubs through noise reduction reach its spade's outline), the serif deck's 3.5."""
TAUGHT_LEAN = 0.3
"""The ink's outline must lie this far from halfway between the two taught outlines towards one
of them (1 at its own, -1 at the other; in :data:`OUTLINE_NOISE` units) for that suit to be
named. On the frames above the SVG deck's spades lie 0.51 or more towards their own, its clubs
0.29 or more: 54 of its 60 spades and clubs the shared limits left unknown are named, none wrong."""


def suit_by_taught_outline(outline: Outline | None, candidates: Sequence[str], taught: Mapping[str, Outline]) -> str | None:
    """Which of spade and club (the ``candidates``) the ``outline`` is, by the deck's own
    outlines as taught (``companion camera deck``), or None: not sure, or a deck whose two
    outlines lie too near each other (:data:`TAUGHT_APART`) for the camera's processing to leave
    them apart."""
    if outline is None or frozenset(candidates) != {"S", "C"} or not all(c in taught for c in candidates):
        return None  # hearts and diamonds: the shared limits hold on every deck measured
    a, b = candidates
    noise = np.asarray(OUTLINE_NOISE)
    mine, other = np.asarray(taught[a]) / noise, np.asarray(taught[b]) / noise
    apart = mine - other
    if float(np.linalg.norm(apart)) < TAUGHT_APART:
        return None
    leaning = 2.0 * float((np.asarray(outline) / noise - (mine + other) / 2) @ apart) / float(apart @ apart)
    return a if leaning >= TAUGHT_LEAN else b if leaning <= -TAUGHT_LEAN else None


SUIT_MARGIN = 0.008
"""How much better a suit's template must match than the other suit of its colour to confirm a
suit named at the outline's looser limits (above), with the built-in glyphs. Set on clean
renders; on camera-processed frames (bench/suit_margins.py: Bayer and sharpening, high ISO,
noise reduction and clean, five decks, seeds 100-107) no wrong suit had a margin over 0.006.
A small-index club named a spade on the benchmark's own scenes had 0.0106, but right spades of
the built-in deck seen through an uncorrected barrel lens had 0.0113: no margin parts them."""
OWN_SUIT_SHARE = 0.4
"""With the deck's own glyphs, a suit named at the outline's looser limits must lean this far
towards its own template (:meth:`vision.detectors.cardfaces.GlyphTemplates.lean`). On the same
frames 146 of 188 right suits lean so far, and 1 of 23 wrong (a small-index spade through
strong noise reduction, leaning 0.77 to the club: no limit on the lean alone removes it)."""
OWN_STRICT_LEAN = 0.0
"""With the deck's own glyphs, a suit named at the outline's strict limits stands only when it
leans more than this towards its own template. On the same frames the 5 wrong ones (a jumbo
spade sharpened thin enough for a club's outline; small-index clubs whose notches noise
reduction fills) leaned -0.23 or less; 1,382 of 1,464 right ones lean over 0."""


SIZE_APART = 0.1
"""A suit named only at the outline's looser limits is confirmed by a template only when its ink
is the template's height within this share: a glyph of another size is another deck's print,
whose likeness to the template says little. An untaught small-index club (6.5 mm against the
built-in 7.9 mm, ink 0.89 of the template's) was named a spade by a template margin of 0.0106;
the built-in and serif decks' suits confirmed so measure 0.97-1.10 (bench/vision.py scenes)."""


@dataclass(frozen=True)
class SuitEvidence:
    """What a suit is decided on: the outline's measures and what they name at the strict and
    the looser limits (above), and the templates' scores."""

    candidates: tuple[str, ...]
    shape: tuple[float, float] | None
    """(top, fill) of the outline."""
    strict: str | None
    loose: str | None
    scores: dict[str, float]
    margin: float
    """How much better the named suit's template matches than the other's (correlation)."""
    lean: float
    """:meth:`vision.detectors.cardfaces.GlyphTemplates.lean` of the named suit."""
    size: float = 1.0
    """The suit's ink height over the templates' suit height (``suit_mm``)."""
    taught: str | None = None
    """The suit the taught deck's own outlines name (:func:`suit_by_taught_outline`)."""
    taught_lean: float = 0.0
    """:meth:`vision.detectors.cardfaces.GlyphTemplates.lean` of ``taught``."""

    def decide(self, own: bool) -> tuple[str | None, float]:
        """(suit or None when not sure, its template's score). A suit named at the strict limits
        stands (with the deck's own glyphs, only if they lean towards it); one named
        only at the looser limits must be confirmed by the template: by :data:`SUIT_MARGIN`, or
        with the deck's own glyphs by leaning :data:`OWN_SUIT_SHARE` towards it. Otherwise a
        taught deck's own outlines may name it (:attr:`taught`), its glyph leaning towards it."""
        if self.strict is not None:
            if own and len(self.candidates) > 1 and self.lean <= OWN_STRICT_LEAN:
                return None, 0.0  # the outline's limits say one suit, the deck's own glyph the other
            return self.strict, self.scores[self.strict]
        if self.loose is not None and abs(self.size - 1.0) <= SIZE_APART:  # a template confirms only a suit printed at its own size
            sure = self.lean >= OWN_SUIT_SHARE if own else self.margin >= SUIT_MARGIN
            if sure:
                return self.loose, self.scores[self.loose]
        # the deck's own outlines, where the shared strict limits name nothing: only with its own
        # glyph leaning the same way (the shared looser limits read *top*, which this deck's
        # spade and club may share: the SVG deck's spades reach a club's 0.38 through noise)
        if own and self.taught is not None and self.taught_lean > OWN_STRICT_LEAN:
            return self.taught, self.scores[self.taught]
        return None, 0.0
