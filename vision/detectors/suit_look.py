"""How a suit's ink is looked at against a deck's suit templates: the square window it is compared
in, the evidence the suit is decided on (vision/detectors/suits.py ``SuitEvidence``), and the
softened second look at a suit left unknown.

The templates here are the suits' windows of :class:`vision.detectors.cardfaces.GlyphTemplates`,
one pattern per template blur; the blur level is the one the rank showed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

import cv2
import numpy as np

from vision.detectors.suits import Outline, SuitEvidence, ink_height, outline_of, suit_by_shape, suit_by_taught_outline
from vision.frame import FloatArray

WINDOW = 1.3
"""A suit is compared in a square window this many suit-heights wide, centred on its ink: no
threshold-made outline, which eats a blurred spade's point and makes it look like a club."""
WINDOW_SIZE = (24, 24)
SOFTEN_MM = 0.5
"""When a suit is left unknown, its ink is looked at once more blurred by this much (Gaussian
sigma): a webcam's sharpening (bench/vision.py bayer-sharpen) thins a spade's edges until its
outline is neither a spade's nor a club's (top 0.29-0.35, fill 1.01-1.03); softened, its outline
names a spade at the strict limits. On the everyday set's 6 scenes, 0.3 mm recovers 78 of 86
faces, 0.5 mm 82, 0.7 mm 76 (a club's notches start to fill)."""
SOFTEN_SIZE = 0.06
"""Softening by a fixed width suits only a suit printed at the templates' height within this
share: the built-in deck's suits under sharpening measure 1.05; an untaught small-index deck's
clubs (0.93) have notches narrow enough for the blur to fill, and one was named a spade."""
PLAIN_EDGE_MM = 0.57
"""How soft a suit's edge is in a plain picture (:func:`edge_blur`): the median over the
benchmark's plain cards scenes (bench/vision.py ``none``, 86 spades and clubs, seeds 0-5), the
camera's own resolution and the corner's resampling."""
SOFTENED_EDGE_MM = float(np.hypot(PLAIN_EDGE_MM, SOFTEN_MM))
"""A suit whose edge is already this soft (a plain edge softened by :data:`SOFTEN_MM`, 0.76 mm)
is not softened again: softening is for edges a webcam's sharpening has thinned, and on an edge
blur, noise or JPEG have already widened it only fills a club's notches. The living-room
perturbation (1 px blur, noise 4, JPEG 70) leaves edges of 0.90-1.18 mm; softened, seed 2's
5 of clubs read as a spade at the strict limits. Spades rightly read softened measured at most
0.70 mm under webcam sharpening (all still softened); two at 640x480 (0.83, 0.87 mm) are now
left unknown."""


class SuitWindow(Protocol):
    """One suit's template as compared in the window: its name and a pattern per blur level."""

    @property
    def name(self) -> str: ...

    @property
    def patterns(self) -> tuple[FloatArray, ...]: ...


EDGE_BAND = (0.2, 0.8)
"""The edge is where the ink is between these shares of its darkest: 1.683 sigma wide for a step
blurred by a Gaussian of sigma (the normal distribution's quantiles at 0.2 and 0.8)."""
BAND_SIGMAS = 1.683
"""How many sigmas wide :data:`EDGE_BAND` is on a Gaussian-blurred step (2 x 0.8416)."""


def edge_blur(ink: FloatArray) -> float:
    """How soft the ink's edge is, in pixels: the Gaussian sigma that would blur a sharp edge as
    wide as its edge band (:data:`EDGE_BAND`: the pixels in the band over the length of the
    outline at half its darkest). Blur widens the band; noise and JPEG's blocks put pixels of
    the inside and the paper in it too, so it measures how degraded the crop is; 0 for no ink."""
    peak = float(ink.max()) if ink.size else 0.0
    if peak <= 0.0:
        return 0.0
    solid = (ink >= 0.5 * peak).astype(np.uint8)
    contours, _ = cv2.findContours(solid, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    length = sum(cv2.arcLength(c, True) for c in contours)
    band = int(np.count_nonzero((ink > EDGE_BAND[0] * peak) & (ink < EDGE_BAND[1] * peak)))
    return band / max(1.0, length) / BAND_SIGMAS


def window(ink: FloatArray, side: float) -> FloatArray:
    """The square of ``side`` pixels centred on the ink's centre of mass (zeros outside),
    resampled to :data:`WINDOW_SIZE`, zero-mean and unit length."""
    m = cv2.moments(ink)
    if m["m00"] <= 1e-6:
        return np.zeros(WINDOW_SIZE, np.float32)
    cx, cy = m["m10"] / m["m00"], m["m01"] / m["m00"]
    k = WINDOW_SIZE[0] / side
    affine = np.array([[k, 0, WINDOW_SIZE[0] / 2 - k * cx], [0, k, WINDOW_SIZE[1] / 2 - k * cy]], np.float64)
    flags = cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR
    out = np.asarray(cv2.warpAffine(ink.astype(np.float32), affine, WINDOW_SIZE, flags=flags, borderMode=cv2.BORDER_CONSTANT, borderValue=0.0), np.float32)
    out -= np.float32(out.mean())
    norm = float(np.linalg.norm(out))
    return np.asarray(out / norm if norm > 1e-6 else out, np.float32)


def lean(windows: Sequence[SuitWindow], name: str, scores: dict[str, float], blur: int) -> float:
    """How far the ink lies from halfway between ``name``'s template and the nearest other
    suit's towards ``name``'s: 1 at that template, -1 at the other's (the templates of one
    deck's spade and club differ little, so a fixed margin in correlation means nothing)."""
    mine = next(t for t in windows if t.name == name).patterns[blur].ravel()
    out = 1.0
    for t in windows:
        if t.name == name or t.name not in scores:
            continue
        gap = 1.0 - float(mine @ t.patterns[blur].ravel())
        out = min(out, (scores[name] - scores[t.name]) / gap if gap > 1e-6 else 0.0)
    return out


def evidence(
    windows: Sequence[SuitWindow], suit_mm: float, ink: FloatArray, px_per_mm: float, candidates: tuple[str, ...], blur: int, outlines: Mapping[str, Outline] | None = None
) -> SuitEvidence:
    """The ink as seen: the outline's measures and what they name (the shared limits, and a taught
    deck's own ``outlines``), and the templates' scores."""
    probe = window(ink, WINDOW * suit_mm * px_per_mm).ravel()
    scores = {t.name: float(t.patterns[blur].ravel() @ probe) for t in windows if t.name in candidates}
    strict = suit_by_shape(ink, candidates)
    loose = strict if strict is not None else suit_by_shape(ink, candidates, loose=True)
    named = strict or loose
    margin = min((scores[named] - v for other, v in scores.items() if other != named), default=1.0) if named else 0.0
    leaning = lean(windows, named, scores, blur) if named and len(candidates) > 1 else 1.0
    size = ink_height(ink) / max(1e-6, suit_mm * px_per_mm)
    outline = outline_of(ink)
    taught = suit_by_taught_outline(outline, candidates, outlines) if outlines else None
    taught_lean = lean(windows, taught, scores, blur) if taught else 0.0
    shape = None if outline is None else (outline[0], outline[1])
    return SuitEvidence(candidates, shape, strict, loose, scores, margin, leaning, size, taught, taught_lean)


def looked_at(
    windows: Sequence[SuitWindow],
    suit_mm: float,
    own: bool,
    ink: FloatArray,
    px_per_mm: float,
    candidates: tuple[str, ...],
    blur: int,
    outlines: Mapping[str, Outline] | None = None,
) -> SuitEvidence:
    """What the suit is decided on: the ink as seen, or when that leaves the suit unknown, the
    ink softened by :data:`SOFTEN_MM` when that names the suit the outline leaned to, or one at
    the strict limits when it leaned to neither (a webcam's sharpening thins a spade's edges
    until its outline is unsure). ``own``: the templates are the table's own deck's; ``outlines``:
    its suits' outlines as taught."""
    seen = evidence(windows, suit_mm, ink, px_per_mm, candidates, blur, outlines)
    # only a suit printed at the templates' size, with edges not already soft; the softened
    # outline must name the suit the outline leaned to at its looser limits, or, when it leaned
    # to neither, name one at its strict limits
    if seen.decide(own)[0] is not None or len(candidates) < 2 or abs(seen.size - 1.0) > SOFTEN_SIZE:
        return seen
    if edge_blur(ink) / px_per_mm > SOFTENED_EDGE_MM:
        return seen
    soft = np.asarray(cv2.GaussianBlur(ink, (0, 0), SOFTEN_MM * px_per_mm), np.float32)
    softened = evidence(windows, suit_mm, soft, px_per_mm, candidates, blur, outlines)
    named = softened.decide(own)[0]
    ok = named == seen.loose if seen.loose is not None else softened.strict is not None
    return softened if named is not None and ok else seen
