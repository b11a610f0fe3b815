"""Reading a card's corner index (rank above suit) from a small, card-aligned picture.

The picture is the card's top-left corner resampled at ``px_per_mm``. Ink is whatever is much
darker than the nearby paper in its darkest channel (so red ink counts); the rank is the leftmost
rank-sized mark near the top with a suit-sized mark under it, and each is matched against
templates by normalised correlation (red or black from the ink's colour).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.core.errors import ConfigError
from vision.detectors import suit_look
from vision.detectors.glyphs import RANKS, SUITS, glyph_image
from vision.detectors.suit_look import WINDOW, looked_at, window
from vision.detectors.suits import BUILTIN_INKS, Ink, Outline, SuitEvidence, absorbance, suits_of_ink
from vision.frame import FloatArray, Image
from vision.settings import VisionSettings

TEMPLATE_SIZE = (20, 28)  # (width, height) every glyph is compared at
RANK_MARGIN = 0.1
"""A rank is named only when it matches this much better than the next best rank."""
INK_OF_PAPER = 0.62
"""A pixel is ink when its darkest channel is below this share of the paper's."""


def _normalise(patch: FloatArray) -> FloatArray:
    small = np.asarray(cv2.resize(patch.astype(np.float32), TEMPLATE_SIZE, interpolation=cv2.INTER_AREA), np.float32)
    mean, std = cv2.meanStdDev(small)
    small -= np.float32(mean[0, 0])
    norm = float(std[0, 0]) * (small.size**0.5)
    return np.asarray(small / norm if norm > 1e-6 else small, np.float32)


@dataclass(frozen=True)
class Template:
    name: str
    patterns: tuple[FloatArray, ...]
    """The glyph at a few blurs (a camera's focus varies): the best of them counts."""
    aspect: float
    """Width over height of the glyph's ink."""


INDEX_REACH_MM = (10.0, 12.0)
"""Where an untaught deck's rank may start, at most: mm right of and below the card's corner."""
INDEX_SLACK_MM = (7.4, 9.0)
"""A taught deck's rank may start this much right of and below where it is printed (a card laid
a little off its place); the built-in glyphs' 2.6 and 3 mm give :data:`INDEX_REACH_MM`."""


BLURS = (0.02, 0.05, 0.08, 0.11, 0.14)
"""Template blurs, as a share of the rank's height. The rank (the larger glyph, with more shape
to it) shows which blur fits; the suit is then matched at that same blur, in millimetres."""


def _template(name: str, dark_on_light: Image, scale: float = 1.0) -> Template:
    ink = 1.0 - dark_on_light.astype(np.float32) / 255.0
    h, w = dark_on_light.shape[:2]
    pad = int(h * 0.3)
    padded = cv2.copyMakeBorder(ink, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0.0)
    patterns = []
    for blur in BLURS:
        soft = np.asarray(cv2.GaussianBlur(padded, (0, 0), max(0.5, blur * scale * h)), np.float32)
        patterns.append(_normalise(soft[pad : pad + h, pad : pad + w]))
    return Template(name, tuple(patterns), w / h)


def _window_template(name: str, dark_on_light: Image, nominal: float, scale: float) -> Template:
    ink = 1.0 - dark_on_light.astype(np.float32) / 255.0
    pad = int(nominal)
    padded = cv2.copyMakeBorder(ink, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0.0)
    patterns = tuple(window(np.asarray(cv2.GaussianBlur(padded, (0, 0), max(0.5, b * scale * nominal)), np.float32), WINDOW * nominal) for b in BLURS)
    return Template(name, patterns, 1.0)


@dataclass(frozen=True)
class GlyphTemplates:
    """The rank and suit shapes to match, and how tall the index glyphs are printed."""

    ranks: tuple[Template, ...]
    suits: tuple[Template, ...]
    suit_windows: tuple[Template, ...]
    rank_mm: float = 9.2
    """Height of the rank's ink (the built-in glyphs: a 12 mm font)."""
    suit_mm: float = 7.9
    inks: tuple[tuple[str, Ink], ...] = BUILTIN_INKS
    """Each suit's ink (vision/detectors/suits.py): a taught deck's own colours."""
    index_reach_mm: tuple[float, float] = INDEX_REACH_MM
    """How far right of and below the card's top-left corner the rank may start."""
    own: bool = False
    """Glyphs of the table's own deck (a folder, taught or cut by hand): a suit the outline
    names at its looser limits is confirmed by :meth:`lean`, not by :data:`SUIT_MARGIN`."""
    outlines: tuple[tuple[str, Outline], ...] = ()
    """Each suit's outline as taught (``deck.json``'s ``outlines``; vision/detectors/suits.py
    :func:`~vision.detectors.suits.suit_by_taught_outline`): none for the built-in glyphs or a
    folder cut by hand."""

    @classmethod
    def builtin(cls, rank_mm: float | None = None, suit_mm: float | None = None) -> "GlyphTemplates":
        """The renderer's glyphs; ``rank_mm`` and ``suit_mm``: a deck whose index is printed
        at another size (the config's ``card_rank_mm``, ``card_suit_mm``)."""
        rank = cls.rank_mm if rank_mm is None else rank_mm
        suit = cls.suit_mm if suit_mm is None else suit_mm
        ranks = tuple(_template(r, glyph_image("rank", r)) for r in RANKS)
        images = {s: glyph_image("suit", s) for s in SUITS}
        suits, windows = cls._suit_sets(images, rank, suit)
        return cls(ranks, suits, windows, rank, suit)

    @staticmethod
    def _suit_sets(images: dict[str, Image], rank_mm: float, suit_mm: float) -> tuple[tuple[Template, ...], tuple[Template, ...]]:
        scale = rank_mm / suit_mm  # blur levels are shares of the rank's height
        nominal = float(max(img.shape[0] for img in images.values()))
        suits = tuple(_template(s, images[s], scale) for s in SUITS)
        windows = tuple(_window_template(s, images[s], nominal, scale * images[s].shape[0] / nominal) for s in SUITS)
        return suits, windows

    @classmethod
    def from_directory(cls, folder: str | Path, rank_mm: float | None = None, suit_mm: float | None = None) -> "GlyphTemplates":
        """Templates cut from a real deck: ``rank-A.png`` ... ``rank-K.png``, ``suit-S.png`` ...
        ``suit-C.png``, each one glyph, dark on light, cropped tight; and, when the folder has one
        (``companion camera deck`` writes it), ``deck.json``: the index sizes and the suits' inks.
        ``rank_mm`` and ``suit_mm`` given here win over the file's."""
        base = Path(folder)

        def load(name: str) -> Image:
            path = base / f"{name}.png"
            img = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
            if img is None:
                raise ConfigError(f"camera.card_templates: cannot read {path} (need rank-A.png ... rank-K.png, suit-S.png ... suit-C.png)")
            return np.asarray(img, np.uint8)

        facts = read_deck_file(base / "deck.json")
        rank = rank_mm if rank_mm is not None else float(facts.get("rank_mm", cls.rank_mm))
        suit = suit_mm if suit_mm is not None else float(facts.get("suit_mm", cls.suit_mm))
        inks = BUILTIN_INKS
        if "inks" in facts:
            raw = facts["inks"]
            inks = tuple((s, (float(raw[s][0]), float(raw[s][1]), float(raw[s][2]))) for s in SUITS)
        reach = INDEX_REACH_MM
        if "index_mm" in facts:
            left, top = (float(v) for v in facts["index_mm"])
            reach = (left + INDEX_SLACK_MM[0], top + INDEX_SLACK_MM[1])
        outlines: tuple[tuple[str, Outline], ...] = ()
        if "outlines" in facts:
            raw = facts["outlines"]
            outlines = tuple((s, (float(raw[s][0]), float(raw[s][1]), float(raw[s][2]))) for s in SUITS)
        ranks = tuple(_template(r, load(f"rank-{r}")) for r in RANKS)
        suits, windows = cls._suit_sets({s: load(f"suit-{s}") for s in SUITS}, rank, suit)
        return cls(ranks, suits, windows, rank, suit, inks, reach, own=True, outlines=outlines)

    def _bank(self, options: tuple[Template, ...]) -> tuple[FloatArray, FloatArray]:
        """(patterns as rows, aspects) for a set of templates, built once."""
        key = tuple(t.name for t in options)
        # a cache beside the frozen fields, not state: the same templates always give the same bank
        cache: dict[tuple[str, ...], tuple[FloatArray, FloatArray]] = self.__dict__.setdefault("_banks", {})
        got = cache.get(key)
        if got is None:
            bank = np.stack([p.ravel() for t in options for p in t.patterns])
            got = cache[key] = (bank, np.log(np.array([t.aspect for t in options], np.float32)))
        return got

    def rank(self, patch: FloatArray, aspect: float) -> tuple[str, float, int, float, float]:
        """(rank, score, blur level, how well the patch matches any suit instead, how far ahead
        of the next best rank): one normalisation and one product against ranks and suits."""
        bank, log_aspects = self._bank(self.ranks + self.suits)
        levels = len(BLURS)
        matches = (bank @ _normalise(patch).ravel()).reshape(-1, levels)
        scores = matches.max(axis=1) - 0.6 * np.abs(np.float32(np.log(max(aspect, 1e-3))) - log_aspects)
        n = len(self.ranks)
        k = int(np.argmax(scores[:n]))
        margin = float(scores[k] - np.max(np.delete(scores[:n], k)))
        return self.ranks[k].name, float(scores[k]), int(matches[k].argmax()), float(scores[n:].max()), margin

    def suit(self, ink: FloatArray, px_per_mm: float, candidates: tuple[str, ...], blur: int) -> tuple[str | None, float]:
        """The suit of ``ink`` (one suit's darkness) among ``candidates`` (the suits of its
        colour), by its shape (vision/detectors/suits.py): (suit or None when not sure, how well
        it matches that suit's template, compared centred at the rank's blur)."""
        return self.suit_evidence(ink, px_per_mm, candidates, blur).decide(self.own)

    def suit_evidence(self, ink: FloatArray, px_per_mm: float, candidates: tuple[str, ...], blur: int) -> SuitEvidence:
        """What the suit is decided on (vision/detectors/suit_look.py; bench/suit_margins.py reports
        it on camera-processed frames)."""
        return looked_at(self.suit_windows, self.suit_mm, self.own, ink, px_per_mm, candidates, blur, dict(self.outlines))

    def lean(self, name: str, scores: dict[str, float], blur: int) -> float:
        """:func:`vision.detectors.suit_look.lean` with these templates."""
        return suit_look.lean(self.suit_windows, name, scores, blur)


def templates_for(settings: VisionSettings) -> GlyphTemplates:
    """The templates a table's settings name: its taught deck (``card_templates``) or the
    built-in glyphs, at the index sizes the config gives (``card_rank_mm``, ``card_suit_mm``)."""
    if settings.card_templates:
        return GlyphTemplates.from_directory(settings.card_templates, settings.card_rank_mm, settings.card_suit_mm)
    if settings.card_rank_mm is None and settings.card_suit_mm is None:
        return _builtin()
    return GlyphTemplates.builtin(settings.card_rank_mm, settings.card_suit_mm)


@lru_cache(maxsize=1)
def _builtin() -> GlyphTemplates:
    return GlyphTemplates.builtin()


def read_deck_file(path: Path) -> dict[str, Any]:
    """A taught deck's facts (``deck.json``), or nothing when the folder has none."""
    if not path.is_file():
        return {}
    try:
        raw = json.loads(path.read_text())
        if not isinstance(raw, dict):
            raise ValueError("not a table")
        if "inks" in raw and not all(isinstance(raw["inks"].get(s), list) and len(raw["inks"][s]) == 3 for s in SUITS):
            raise ValueError("inks must give [b, g, r] for S, H, D and C")
        if "outlines" in raw and not all(isinstance(raw["outlines"].get(s), list) and len(raw["outlines"][s]) == 3 for s in SUITS):
            raise ValueError("outlines must give [top, fill, aspect] for S, H, D and C")
        for key in ("rank_mm", "suit_mm"):
            if key in raw and not (isinstance(raw[key], (int, float)) and 2 <= raw[key] <= 30):
                raise ValueError(f"{key} must be a height in mm, 2 to 30")
        if "index_mm" in raw and not (isinstance(raw["index_mm"], list) and len(raw["index_mm"]) == 2 and all(isinstance(v, (int, float)) and 0 <= v <= 20 for v in raw["index_mm"])):
            raise ValueError("index_mm must be [left, top] in mm, each 0 to 20")
        return raw
    except (OSError, ValueError, AttributeError) as exc:
        raise ConfigError(f"camera.card_templates: {path} is not a deck written by `companion camera deck` ({exc})") from exc


@dataclass(frozen=True)
class IndexRead:
    """What the corner shows: ``found`` when there is a rank-and-suit index where one belongs;
    ``face`` (``"10H"``) when both glyphs match their templates at least ``score``."""

    found: bool
    face: str | None = None
    score: float = 0.0


@dataclass(frozen=True)
class InkMark:
    x: int
    y: int
    w: int
    h: int
    area: int
    label: int


def read_index(corner: Image, px_per_mm: float, origin_mm: tuple[float, float], templates: GlyphTemplates, min_score: float) -> IndexRead:
    """Read the index in ``corner``: a picture of the card's top-left corner, card-aligned, whose
    pixel (0, 0) is card point ``origin_mm`` (mm right of and below the card's corner)."""
    return read_indices(corner, 1, corner.shape[0], px_per_mm, origin_mm, templates, min_score)[0]


def separator_rows(px_per_mm: float) -> int:
    """Blank rows between stacked corners, so no filter reaches from one corner into the next."""
    k = int(5 * px_per_mm) | 1  # the paper-brightness window below: a dilation, then a blur
    return 2 * (k // 2) + 1


def ink_map(corner: Image, px_per_mm: float) -> tuple[np.ndarray, np.ndarray, FloatArray, FloatArray]:
    """(labels, stats, darkness, paper): the ink marks of a card-aligned picture, as
    ``cv2.connectedComponentsWithStats`` gives them; each pixel's darkness (0..1) against the
    paper nearby; and that paper's brightness. Reading an index and teaching a deck
    (vision/deck_teach.py) see ink the same way."""
    b, g, r = cv2.split(corner)
    darkest = cv2.min(cv2.min(b, g), r)
    lowest = darkest.astype(np.float32)
    # the paper's brightness nearby (a shadow edge may cross the corner): the brightest within ~5 mm
    k = int(5 * px_per_mm) | 1
    local = cv2.blur(cv2.dilate(darkest, np.ones((k, k), np.uint8)), (k, k)).astype(np.float32)
    ink = (lowest < local * INK_OF_PAPER).astype(np.uint8)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    darkness = np.clip((local - lowest) / np.maximum(local, 1.0), 0.0, 1.0)
    return labels, stats, np.asarray(darkness, np.float32), local


def read_indices(
    stacked: Image, count: int, pitch: int, px_per_mm: float, origin_mm: tuple[float, float], templates: GlyphTemplates, min_score: float
) -> list[IndexRead]:
    """:func:`read_index` for ``count`` corners stacked one above the other, ``pitch`` rows apart
    (each corner's own rows first, then :func:`separator_rows` blank ones): the pixel work is
    done once for all of them, which is most of the cost."""
    height = pitch if count == 1 else pitch - separator_rows(px_per_mm)
    labels, stats, darkness, local = ink_map(stacked, px_per_mm)
    w_img = stacked.shape[1]
    s = px_per_mm
    ox, oy = origin_mm
    xs, ys, ws, hs, areas = (stats[:, i] for i in range(5))
    slot = ys // pitch
    top = ys - slot * pitch
    # marks cut by the picture's edge are the mat, a neighbour, a covered card: not this index
    keep = (xs > 0) & (top > 0) & (xs + ws < w_img) & (top + hs < height) & (areas >= s * s)
    keep[0] = False
    rank_h = templates.rank_mm * s
    reach_x, reach_y = templates.index_reach_mm
    top_limit = (reach_y - oy) * s  # the rank starts this near the card's top edge (where it is printed + a sloppy placing)
    marks_of: list[list[InkMark]] = [[] for _ in range(count)]
    for c in np.flatnonzero(keep):
        marks_of[int(slot[c])].append(InkMark(int(xs[c]), int(top[c]), int(ws[c]), int(hs[c]), int(areas[c]), int(c)))
    out = []
    for i, marks in enumerate(marks_of):
        rows = slice(i * pitch, i * pitch + height)
        paper = float(local[rows].max())
        ranks = [m for m in marks if 0.7 * rank_h <= m.h <= 1.3 * rank_h and m.y <= top_limit and m.x <= (reach_x - ox) * s]
        read = IndexRead(False)
        if paper >= 40:
            # the leftmost rank-sized mark that has a suit under it and reads as a rank is the
            # index; marks further left are what the card covers, or what lies beside it
            for first in sorted(ranks, key=lambda m: m.x):
                pair = _read_pair(first, marks, stacked[rows], labels[rows], darkness[rows], paper, s, templates, min_score)
                if pair is not None:
                    read = pair
                    break
        out.append(read)
    return out


def _read_pair(
    first: InkMark,
    marks: list[InkMark],
    corner: Image,
    labels: np.ndarray,
    darkness: FloatArray,
    paper: float,
    s: float,
    templates: GlyphTemplates,
    min_score: float,
) -> IndexRead | None:
    group = [m for m in marks if m is first or (in_line(m, first) and 0 <= m.x - (first.x + first.w) <= 2.5 * s)]
    gx0 = min(m.x for m in group)
    gx1 = max(m.x + m.w for m in group)
    gy0 = min(m.y for m in group)
    gy1 = max(m.y + m.h for m in group)
    foot = first.y + first.h  # the suit is under the rank's glyphs, whatever touches them
    suit_h = templates.suit_mm * s
    below = [
        m
        for m in marks
        if m.y >= foot - 0.5 * s and m.y - foot <= 6.0 * s and 0.65 * suit_h <= m.h <= 1.35 * suit_h and m.x < gx1 and m.x + m.w > gx0 - 2 * s and m not in group
    ]
    if not below:
        return None
    suit = min(below, key=lambda m: m.y)
    rank_mask = _member(labels[gy0:gy1, gx0:gx1], [m.label for m in group])
    rank_patch = darkness[gy0:gy1, gx0:gx1] * cv2.dilate(rank_mask.astype(np.uint8), np.ones((3, 3), np.uint8))
    rank_aspect = (gx1 - gx0) / max(1, gy1 - gy0)
    rank_name, rank_score, blur, rank_as_suit, rank_margin = templates.rank(rank_patch, rank_aspect)
    if rank_as_suit > rank_score:
        return None  # two pips one above the other (a card underneath), not an index
    pad = int(2 * s)
    y0, y1 = max(0, suit.y - pad), min(labels.shape[0], suit.y + suit.h + pad)
    x0, x1 = max(0, suit.x - pad), min(labels.shape[1], suit.x + suit.w + pad)
    suit_mask = (labels[y0:y1, x0:x1] == suit.label).astype(np.uint8)
    near = cv2.dilate(suit_mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (pad | 1, pad | 1)))
    candidates = suits_of_ink(ink_of(corner, labels, [*group, suit], paper), dict(templates.inks))
    if not candidates:
        return IndexRead(True, None, rank_score)  # an ink of no colour this deck prints
    suit_name, suit_score = templates.suit(darkness[y0:y1, x0:x1] * near, s, candidates, blur)
    score = min(rank_score, suit_score)
    sure = score >= min_score and suit_name is not None and rank_margin >= RANK_MARGIN
    return IndexRead(True, rank_name + str(suit_name) if sure else None, score)


def _member(labels: np.ndarray, ids: list[int]) -> np.ndarray:
    lut = np.zeros(int(labels.max()) + 2, bool)
    lut[ids] = True
    return np.asarray(lut[labels], bool)


def in_line(mark: InkMark, first: InkMark) -> bool:
    """Whether ``mark`` is printed in line with the rank's first mark, as a 10's second digit
    is: mostly level with it, and about as tall or starting at the same height (a digit that
    runs into a pip beside it). A real deck's big pip beside a small index is taller and starts
    lower: it is not part of the rank."""
    level = abs(mark.y - first.y) <= 0.2 * first.h
    return _overlap(mark.y, mark.h, first.y, first.h) > 0.6 * first.h and (level or 0.75 * first.h <= mark.h <= 1.3 * first.h)


def _overlap(a: int, la: int, b: int, lb: int) -> int:
    return max(0, min(a + la, b + lb) - max(a, b))


def ink_of(corner: Image, labels: np.ndarray, marks: Sequence[InkMark], paper: float) -> Ink | None:
    """The marks' ink as absorbance (vision/detectors/suits.py), each channel taken relative to
    the card's own paper round the marks (a tinted light or shadow on this card tints its paper
    as much as its ink)."""
    ids = [m.label for m in marks]
    x0, y0 = min(m.x for m in marks), min(m.y for m in marks)
    x1, y1 = max(m.x + m.w for m in marks), max(m.y + m.h for m in marks)
    inside = _member(labels[y0:y1, x0:x1], ids)
    if not inside.any():
        return None
    box = corner[y0:y1, x0:x1]
    mean_b, mean_g, mean_r, _ = cv2.mean(box, inside.astype(np.uint8))
    blank = (labels[y0:y1, x0:x1] == 0).astype(np.uint8)
    if int(blank.sum()) < 8:
        return absorbance((mean_b, mean_g, mean_r), (paper, paper, paper))
    paper_b, paper_g, paper_r, _ = cv2.mean(box, blank)
    return absorbance((mean_b, mean_g, mean_r), (paper_b, paper_g, paper_r))
