"""Decks other than the renderer's own: other index fonts and sizes, jumbo indexes, other suit
shapes, four-colour decks, and real deck designs drawn from SVG files.

A :class:`Deck` is given to a card (:attr:`vision.render.scene.CardItem.deck`); a card without one
is drawn as before (:mod:`vision.render.cardart`). An SVG deck is a folder holding one file per
face, named as the cardsJS package names them (``QS.svg``, ``TH.svg`` for the ten of hearts); it
is rasterised with cairosvg, a test and benchmark dependency only (``make decks`` fetches one).
"""

from __future__ import annotations

import io
import os
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.detectors.glyphs import INK_BLACK, INK_RED
from vision.frame import Image
from vision.render.cardart import COURT_FILL, PAPER, _pip_positions, card_picture, split_face

INK_BLUE = (170, 80, 20)
INK_GREEN = (40, 135, 30)
TWO_COLOURS = (("S", INK_BLACK), ("H", INK_RED), ("D", INK_RED), ("C", INK_BLACK))
FOUR_COLOURS = (("S", INK_BLACK), ("H", INK_RED), ("D", INK_BLUE), ("C", INK_GREEN))


@dataclass(frozen=True)
class Deck:
    """How a deck prints its faces. Sizes are millimetres on a 63 x 88 mm card."""

    name: str
    font: int = cv2.FONT_HERSHEY_SIMPLEX
    rank_mm: float = 12.0
    """Height of the rank's font box (a Hershey "8" this tall)."""
    weight: float = 1 / 7.5
    """Stroke width as a share of the rank's height."""
    suit_mm: float = 8.0
    index_left_mm: float = 2.6
    index_top_mm: float = 3.0
    suit_gap_mm: float = 1.5
    """Between the rank's foot and the suit's top."""
    suit_style: str = "plain"
    """``plain``: the renderer's suit shapes; ``bold``: rounder lobes and a flared stem."""
    inks: tuple[tuple[str, tuple[int, int, int]], ...] = TWO_COLOURS
    svg: str | None = None
    """A folder of SVG faces: the deck is drawn from them instead (index sizes as the files have them)."""

    def ink(self, suit: str) -> tuple[int, int, int]:
        return dict(self.inks)[suit]


SERIF = Deck("serif", font=cv2.FONT_HERSHEY_TRIPLEX, rank_mm=11.0, weight=1 / 9.0, suit_style="bold")
SMALL_INDEX = Deck("small-index", font=cv2.FONT_HERSHEY_DUPLEX, rank_mm=9.5, suit_mm=6.5, index_left_mm=2.2, index_top_mm=2.8)
JUMBO = Deck("jumbo", rank_mm=16.0, suit_mm=9.5, index_left_mm=2.4, index_top_mm=2.6, suit_gap_mm=1.2)
FOUR_COLOUR = Deck("four-colour", inks=FOUR_COLOURS)


def svg_deck_folder() -> Path:
    """Where ``make decks`` puts the SVG deck (cardsJS's Vectorized Playing Cards), or
    ``$COMPANION_SVG_DECK``."""
    return Path(os.environ.get("COMPANION_SVG_DECK") or Path(sys.prefix) / "decks" / "cardsJS" / "cards")


def svg_deck() -> Deck | None:
    """The SVG deck, when it is installed and cairosvg is there to draw it."""
    folder = svg_deck_folder()
    if not (folder / "QS.svg").is_file():
        return None
    try:
        import cairosvg  # noqa: F401
    except ImportError:
        return None
    return Deck("svg-standard", svg=str(folder))


def _draw_rank(img: Image, rank: str, left: float, top: float, deck: Deck, s: float, colour: tuple[int, int, int]) -> tuple[float, float]:
    """The rank, its box's top-left at (left, top) px; returns (its foot, the width of an "8"), px."""
    height = deck.rank_mm * s
    (_, h1), _ = cv2.getTextSize("8", deck.font, 1.0, 2)
    scale = height / h1
    thickness = max(1, int(round(height * deck.weight)))
    cv2.putText(img, rank, (int(round(left)), int(round(top + height))), deck.font, scale, colour, thickness, cv2.LINE_AA)
    (w8, _), _ = cv2.getTextSize("8", deck.font, scale, thickness)
    return top + height, float(w8)


def _draw_bold_suit(img: Image, suit: str, cx: float, cy: float, size: float, colour: tuple[int, int, int]) -> None:
    sh = 4

    def p(x: float, y: float) -> tuple[int, int]:
        return int(round((cx + x * size) * (1 << sh))), int(round((cy + y * size) * (1 << sh)))

    def circle(x: float, y: float, r: float) -> None:
        cv2.circle(img, p(x, y), int(round(r * size * (1 << sh))), colour, -1, cv2.LINE_AA, sh)

    def poly(points: list[tuple[float, float]]) -> None:
        cv2.fillPoly(img, [np.array([p(x, y) for x, y in points], np.int32)], colour, cv2.LINE_AA, sh)

    if suit == "D":  # slightly waisted sides
        poly([(0, -0.5), (0.2, -0.22), (0.4, 0), (0.2, 0.22), (0, 0.5), (-0.2, 0.22), (-0.4, 0), (-0.2, -0.22)])
    elif suit == "H":
        circle(-0.23, -0.22, 0.27)
        circle(0.23, -0.22, 0.27)
        poly([(-0.49, -0.14), (0.49, -0.14), (0.12, 0.38), (0, 0.5), (-0.12, 0.38)])
    elif suit == "S":
        circle(-0.24, 0.08, 0.25)
        circle(0.24, 0.08, 0.25)
        poly([(-0.47, 0.0), (0.47, 0.0), (0.12, -0.38), (0, -0.5), (-0.12, -0.38)])
        poly([(0, 0.02), (0.22, 0.5), (-0.22, 0.5)])
    elif suit == "C":
        circle(0, -0.26, 0.23)
        circle(-0.27, 0.08, 0.23)
        circle(0.27, 0.08, 0.23)
        poly([(0, -0.05), (0.2, 0.5), (-0.2, 0.5)])
    else:
        raise ValueError(f"unknown suit {suit!r}")


def _draw_suit(img: Image, suit: str, cx: float, cy: float, size: float, colour: tuple[int, int, int], style: str) -> None:
    from vision.detectors.glyphs import draw_suit

    if style == "bold":
        _draw_bold_suit(img, suit, cx, cy, size, colour)
    else:
        draw_suit(img, suit, cx, cy, size, colour)


def _index(img: Image, rank: str, suit: str, deck: Deck, s: float) -> None:
    colour = deck.ink(suit)
    left = deck.index_left_mm * s
    foot, w8 = _draw_rank(img, rank, left, deck.index_top_mm * s, deck, s, colour)
    _draw_suit(img, suit, left + w8 / 2, foot + deck.suit_gap_mm * s + deck.suit_mm * s / 2, deck.suit_mm * s, colour, deck.suit_style)


@lru_cache(maxsize=512)
def deck_card_picture(face: str | None, back: tuple[int, int, int], w_mm: float, h_mm: float, s: float, deck: Deck) -> tuple[Image, Image]:
    """(BGR picture, alpha mask) of ``face`` from ``deck``, top edge up, at ``s`` pixels per mm."""
    if face is None:
        return card_picture(None, back, w_mm, h_mm, s)
    if deck.svg is not None:
        return _svg_picture(deck.svg, face, w_mm, h_mm, s)
    base, mask = card_picture(None, back, w_mm, h_mm, s)
    img = np.empty_like(base)
    img[:] = PAPER
    rank, suit = split_face(face)
    colour = deck.ink(suit)
    _index(img, rank, suit, deck, s)
    corner = np.empty_like(img)
    corner[:] = PAPER
    _index(corner, rank, suit, deck, s)
    h = img.shape[0]
    img[h // 2 :, :] = np.minimum(img[h // 2 :, :], cv2.rotate(corner, cv2.ROTATE_180)[h // 2 :, :])
    if rank in COURT_FILL:
        x0, y0, x1, y1 = (int(round(v * s)) for v in (19.0, 13.0, 56.0, 75.0))
        cv2.rectangle(img, (x0, y0), (x1, y1), COURT_FILL[rank], -1)
        cv2.rectangle(img, (x0, y0), (x1, y1), colour, max(1, int(s * 0.6)))
        big = Deck("court", deck.font, 18.0, deck.weight)
        _draw_rank(img, rank, 29.0 * s, 34.0 * s, big, s, colour)
        _draw_suit(img, suit, 37.5 * s, 64.0 * s, 9.0 * s, colour, deck.suit_style)
    elif rank == "A":
        _draw_suit(img, suit, 35.0 * s, 44.0 * s, 22.0 * s, colour, deck.suit_style)
    else:
        for px, py in _pip_positions(int(rank)):
            _draw_suit(img, suit, px * s, py * s, 8.0 * s, colour, deck.suit_style)
    return img, mask


def svg_name(face: str) -> str:
    rank, suit = split_face(face)
    return f"{'T' if rank == '10' else rank}{suit}.svg"


def _svg_picture(folder: str, face: str, w_mm: float, h_mm: float, s: float) -> tuple[Image, Image]:
    import cairosvg

    w, h = int(round(w_mm * s)), int(round(h_mm * s))
    png = cairosvg.svg2png(url=str(Path(folder) / svg_name(face)), output_width=w, output_height=h)
    rgba = cv2.imdecode(np.frombuffer(io.BytesIO(png).getvalue(), np.uint8), cv2.IMREAD_UNCHANGED)
    if rgba is None or rgba.ndim != 3 or rgba.shape[2] != 4:
        raise ValueError(f"{folder}/{svg_name(face)}: not drawn as a picture with alpha")
    alpha = np.ascontiguousarray(rgba[:, :, 3], np.uint8)
    bgr = np.ascontiguousarray(rgba[:, :, :3])
    # the files draw the card's paper white: print it on the renderer's slightly warm paper
    paper = np.array(PAPER, np.float32) / 255.0
    out = bgr.astype(np.float32) * paper[None, None, :]
    return np.asarray(np.clip(out, 0, 255), np.uint8), np.asarray(alpha, np.uint8)
