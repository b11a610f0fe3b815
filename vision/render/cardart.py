"""Card faces and backs as pictures (BGR plus an alpha mask), at a given pixels-per-millimetre."""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from vision.detectors.glyphs import draw_rank, draw_suit, ink_colour
from vision.frame import Image

PAPER = (236, 240, 242)
INDEX_LEFT_MM = 2.6
INDEX_TOP_MM = 3.0
RANK_H_MM = 12.0
SUIT_MM = 8.0
SUIT_CY_MM = 21.5
COURT_FILL = {"J": (170, 205, 235), "Q": (215, 190, 235), "K": (235, 210, 170)}


def split_face(face: str) -> tuple[str, str]:
    return face[:-1], face[-1]


def _draw_index(img: Image, rank: str, suit: str, s: float) -> None:
    colour = ink_colour(suit)
    draw_rank(img, rank, INDEX_LEFT_MM * s, INDEX_TOP_MM * s, RANK_H_MM * s, colour)
    draw_suit(img, suit, (INDEX_LEFT_MM + 4.2) * s, SUIT_CY_MM * s, SUIT_MM * s, colour)


def _pip_positions(n: int) -> list[tuple[float, float]]:
    cols = (24.0, 31.5, 39.0)
    layout: dict[int, list[tuple[int, float]]] = {
        1: [(1, 2)],
        2: [(1, 0), (1, 4)],
        3: [(1, 0), (1, 2), (1, 4)],
        4: [(0, 0), (2, 0), (0, 4), (2, 4)],
        5: [(0, 0), (2, 0), (1, 2), (0, 4), (2, 4)],
        6: [(0, 0), (2, 0), (0, 2), (2, 2), (0, 4), (2, 4)],
        7: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2), (0, 4), (2, 4)],
        8: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2), (1, 3), (0, 4), (2, 4)],
        9: [(0, 0), (2, 0), (0, 1), (2, 1), (1, 2), (0, 3), (2, 3), (0, 4), (2, 4)],
        10: [(0, 0), (2, 0), (1, 0.5), (0, 1.5), (2, 1.5), (0, 2.5), (2, 2.5), (1, 3.5), (0, 4), (2, 4)],
    }
    return [(cols[c], 18.0 + r * 13.0) for c, r in layout[n]]


@lru_cache(maxsize=256)
def card_picture(face: str | None, back: tuple[int, int, int], w_mm: float, h_mm: float, s: float) -> tuple[Image, Image]:
    """(BGR picture, alpha mask) of a card, top edge up, at ``s`` pixels per millimetre."""
    w, h = int(round(w_mm * s)), int(round(h_mm * s))
    mask = np.zeros((h, w), np.uint8)
    r = int(round(3.0 * s))
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = PAPER
    if face is None:
        border = int(round(3.0 * s))
        cv2.rectangle(img, (border, border), (w - 1 - border, h - 1 - border), back, -1)
        light = tuple(min(255, int(c * 1.35) + 20) for c in back)
        step = max(4, int(round(6.0 * s)))
        for k in range(-h, w + h, step):
            cv2.line(img, (border + k, border), (border + k + h, border + h), light, 1, cv2.LINE_AA)
            cv2.line(img, (border + k, border), (border + k - h, border + h), light, 1, cv2.LINE_AA)
        img[:border, :] = PAPER
        img[-border:, :] = PAPER
        img[:, :border] = PAPER
        img[:, -border:] = PAPER
        return img, mask
    rank, suit = split_face(face)
    colour = ink_colour(suit)
    _draw_index(img, rank, suit, s)
    corner = np.empty_like(img)
    corner[:] = PAPER
    _draw_index(corner, rank, suit, s)
    img[h // 2 :, :] = np.minimum(img[h // 2 :, :], cv2.rotate(corner, cv2.ROTATE_180)[h // 2 :, :])
    if rank in COURT_FILL:
        x0, y0, x1, y1 = (int(round(v * s)) for v in (19.0, 13.0, 56.0, 75.0))
        cv2.rectangle(img, (x0, y0), (x1, y1), COURT_FILL[rank], -1)
        cv2.rectangle(img, (x0, y0), (x1, y1), colour, max(1, int(s * 0.6)))
        draw_rank(img, rank, 29.0 * s, 34.0 * s, 18.0 * s, colour)
        draw_suit(img, suit, 37.5 * s, 64.0 * s, 9.0 * s, colour)
    elif rank == "A":
        draw_suit(img, suit, 35.0 * s, 44.0 * s, 22.0 * s, colour)
    else:
        for px, py in _pip_positions(int(rank)):
            draw_suit(img, suit, px * s, py * s, 8.0 * s, colour)
    return img, mask
