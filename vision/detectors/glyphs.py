"""Rank and suit glyphs of a card's corner index: drawn by the renderer, and the card detector's
default templates.

Real decks differ in font and suit shapes; a table may load templates cut from its own deck
(:meth:`vision.detectors.cards.GlyphTemplates.from_directory`).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.frame import Image

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
RED_SUITS = frozenset({"H", "D"})
FONT = cv2.FONT_HERSHEY_SIMPLEX
INK_BLACK = (28, 28, 28)
INK_RED = (40, 30, 200)


def ink_colour(suit: str) -> tuple[int, int, int]:
    return INK_RED if suit in RED_SUITS else INK_BLACK


def rank_extent(rank: str, height_px: float) -> tuple[float, int, int]:
    """(font scale, thickness, width px) for ``rank`` drawn ``height_px`` tall."""
    (_, h1), _ = cv2.getTextSize("8", FONT, 1.0, 2)
    scale = height_px / h1
    thickness = max(1, int(round(height_px / 7.5)))
    (w, _), _ = cv2.getTextSize(rank, FONT, scale, thickness)
    return scale, thickness, int(w)


def draw_rank(img: Image, rank: str, left: float, top: float, height_px: float, colour: tuple[int, int, int]) -> None:
    """The rank, its box's top-left at (left, top) pixels, ``height_px`` tall."""
    scale, thickness, _ = rank_extent(rank, height_px)
    origin = (int(round(left)), int(round(top + height_px)))
    cv2.putText(img, rank, origin, FONT, scale, colour, thickness, cv2.LINE_AA)


def draw_suit(img: Image, suit: str, cx: float, cy: float, size: float, colour: tuple[int, int, int]) -> None:
    """A suit symbol ``size`` pixels tall centred on (cx, cy)."""
    sh = 4  # fixed-point bits, for sub-pixel shapes

    def p(x: float, y: float) -> tuple[int, int]:
        return int(round((cx + x * size) * (1 << sh))), int(round((cy + y * size) * (1 << sh)))

    def circle(x: float, y: float, r: float) -> None:
        cv2.circle(img, p(x, y), int(round(r * size * (1 << sh))), colour, -1, cv2.LINE_AA, sh)

    def poly(points: list[tuple[float, float]]) -> None:
        cv2.fillPoly(img, [np.array([p(x, y) for x, y in points], np.int32)], colour, cv2.LINE_AA, sh)

    if suit == "D":
        poly([(0, -0.5), (0.36, 0), (0, 0.5), (-0.36, 0)])
    elif suit == "H":
        circle(-0.22, -0.2, 0.25)
        circle(0.22, -0.2, 0.25)
        poly([(-0.46, -0.12), (0.46, -0.12), (0, 0.5)])
    elif suit == "S":
        circle(-0.22, 0.1, 0.23)
        circle(0.22, 0.1, 0.23)
        poly([(-0.44, 0.03), (0.44, 0.03), (0, -0.5)])
        poly([(0, 0.05), (0.16, 0.5), (-0.16, 0.5)])
    elif suit == "C":
        circle(0, -0.28, 0.21)
        circle(-0.28, 0.07, 0.21)
        circle(0.28, 0.07, 0.21)
        poly([(0, -0.1), (0.13, 0.5), (-0.13, 0.5)])
    else:
        raise ValueError(f"unknown suit {suit!r}")


def glyph_image(kind: str, name: str, height_px: int = 64) -> Image:
    """A single glyph, dark on white, tightly cropped: the source of the default templates."""
    pad = height_px
    canvas = np.full((height_px * 3, height_px * 4), 255, np.uint8)
    if kind == "rank":
        draw_rank(canvas, name, pad, pad, height_px, (0, 0, 0))
    else:
        draw_suit(canvas, name, canvas.shape[1] / 2, canvas.shape[0] / 2, height_px, (0, 0, 0))
    ys, xs = np.nonzero(canvas < 128)
    return np.ascontiguousarray(canvas[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1])
