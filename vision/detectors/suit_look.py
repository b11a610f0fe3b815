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


class SuitWindow(Protocol):
    """One suit's template as compared in the window: its name and a pattern per blur level."""

    @property
    def name(self) -> str: ...

    @property
    def patterns(self) -> tuple[FloatArray, ...]: ...


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
    # only a suit printed at the templates' size; the softened outline must name the suit the
    # outline leaned to at its looser limits, or, when it leaned to neither, name one at its strict limits
    if seen.decide(own)[0] is not None or len(candidates) < 2 or abs(seen.size - 1.0) > SOFTEN_SIZE:
        return seen
    soft = np.asarray(cv2.GaussianBlur(ink, (0, 0), SOFTEN_MM * px_per_mm), np.float32)
    softened = evidence(windows, suit_mm, soft, px_per_mm, candidates, blur, outlines)
    named = softened.decide(own)[0]
    ok = named == seen.loose if seen.loose is not None else softened.strict is not None
    return softened if named is not None and ok else seen
