"""Drawing a table top-down, in table millimetres, onto a north-up canvas."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.calibration import MarkerLayout
from vision.frame import FloatArray, Image
from vision.render.cardart import card_picture
from vision.render.scene import CardItem, CubeItem, HandItem, PawnItem, Point, TileItem

COLOUR_BGR: dict[str, tuple[int, int, int]] = {
    "red": (40, 35, 205),
    "orange": (25, 125, 240),
    "yellow": (35, 205, 235),
    "green": (65, 160, 45),
    "blue": (200, 85, 30),
}
SUB = 4  # fixed-point bits for sub-pixel drawing


@dataclass(frozen=True)
class Canvas:
    """Table point (x, y) mm is canvas pixel ((x - x0) * s, (y1 - y) * s)."""

    x0: float
    y1: float
    s: float
    width: int
    height: int

    @classmethod
    def around(cls, layout: MarkerLayout, s: float, margin_mm: float = 90.0) -> "Canvas":
        xs = [c[1] for c in layout.centres]
        ys = [c[2] for c in layout.centres]
        x0, x1 = min(xs) - margin_mm, max(xs) + margin_mm
        y0, y1 = min(ys) - margin_mm, max(ys) + margin_mm
        return cls(x0, y1, s, int(math.ceil((x1 - x0) * s)), int(math.ceil((y1 - y0) * s)))

    def px(self, points: Sequence[Point]) -> FloatArray:
        return np.array([((x - self.x0) * self.s, (self.y1 - y) * self.s) for x, y in points], np.float64)

    def ipx(self, points: Sequence[Point]) -> np.ndarray:
        return np.round(self.px(points) * (1 << SUB)).astype(np.int32)

    @property
    def table_from_canvas(self) -> FloatArray:
        return np.array([[1 / self.s, 0, self.x0], [0, -1 / self.s, self.y1], [0, 0, 1.0]])

    def blank(self, colour: tuple[int, int, int]) -> Image:
        img = np.empty((self.height, self.width, 3), np.uint8)
        img[:] = colour
        return img


def fill(canvas: Canvas, img: Image, polygon: Sequence[Point], colour: tuple[int, ...]) -> None:
    cv2.fillPoly(img, [canvas.ipx(polygon)], colour, cv2.LINE_AA, SUB)


def disc(canvas: Canvas, img: Image, centre: Point, radius_mm: float, colour: tuple[int, ...]) -> None:
    (cx, cy), = canvas.ipx([centre])
    cv2.circle(img, (int(cx), int(cy)), int(round(radius_mm * canvas.s * (1 << SUB))), colour, -1, cv2.LINE_AA, SUB)


def rotated_square(centre: Point, side: float, angle_deg: float) -> list[Point]:
    a = math.radians(angle_deg)
    c, s = math.cos(a) * side / 2, math.sin(a) * side / 2
    cx, cy = centre
    return [(cx - c + s, cy - s - c), (cx + c + s, cy + s - c), (cx + c - s, cy + s + c), (cx - c - s, cy - s + c)]


@lru_cache(maxsize=8)
def _mat(h: int, w: int, colour: tuple[int, int, int]) -> Image:
    rng = np.random.default_rng(7)
    low = rng.normal(0, 1, (h // 24 + 2, w // 24 + 2)).astype(np.float32)
    tex = cv2.resize(low, (w, h), interpolation=cv2.INTER_CUBIC) * 4.0 + rng.normal(0, 2.5, (h, w)).astype(np.float32)
    base = np.array(colour, np.float32)[None, None, :] * (1.0 + tex[:, :, None] / 100.0)
    mat = np.clip(base, 0, 255).astype(np.uint8)
    mat.setflags(write=False)
    return mat


def draw_mat(canvas: Canvas, colour: tuple[int, int, int]) -> Image:
    """A plain felt mat with a faint weave."""
    return _mat(canvas.height, canvas.width, colour).copy()


def draw_markers(canvas: Canvas, img: Image, layout: MarkerLayout, hidden: Sequence[int] = ()) -> None:
    """Each marker on its own white paper (a quiet zone of half a marker all round)."""
    dictionary = layout.aruco_dictionary()
    side = int(round(layout.size_mm * canvas.s))
    for marker_id, x, y in layout.centres:
        if marker_id in hidden:
            continue
        paper = layout.size_mm * 1.5
        fill(canvas, img, rotated_square((x, y), paper, 0.0), (235, 238, 240))
        marker = cv2.aruco.generateImageMarker(dictionary, marker_id, side, borderBits=1)
        (cx, cy), = canvas.px([(x, y)])
        top, left = int(round(cy - side / 2)), int(round(cx - side / 2))
        region = img[top : top + side, left : left + side]
        shade = np.where(marker[: region.shape[0], : region.shape[1]] > 127, 235, 25).astype(np.uint8)
        region[:] = shade[:, :, None]


def draw_tiles(canvas: Canvas, img: Image, tiles: Sequence[TileItem]) -> None:
    for tile in sorted(tiles, key=lambda t: t.layer):
        x, y = tile.south_west
        d = tile.side_mm
        square = [(x, y), (x + d, y), (x + d, y + d), (x, y + d)]
        if tile.layer > 1:
            fill(canvas, img, [(px + 1.5, py - 1.5) for px, py in square], (70, 75, 85))
        tone = min(255, 160 + 9 * tile.layer)
        if tile.bgr is None:
            fill(canvas, img, square, (tone - 28, tone - 6, tone))
        else:
            fill(canvas, img, square, tuple(min(255, int(c * (0.94 + 0.03 * tile.layer))) for c in tile.bgr))
        pts = canvas.px(square).round().astype(np.int32)
        cv2.polylines(img, [pts], True, (85, 95, 105), max(1, int(round(0.8 * canvas.s))), cv2.LINE_AA)
        mid = canvas.px([(x + d / 2, y), (x + d / 2, y + d), (x, y + d / 2), (x + d, y + d / 2)]).round().astype(np.int32)
        line = (tone - 70, tone - 55, tone - 45)
        cv2.line(img, tuple(mid[0]), tuple(mid[1]), line, 1, cv2.LINE_AA)
        cv2.line(img, tuple(mid[2]), tuple(mid[3]), line, 1, cv2.LINE_AA)


def draw_card(canvas: Canvas, img: Image, card: CardItem) -> None:
    w_mm, h_mm = card.size
    if card.deck is None:
        pic, alpha = card_picture(card.face, card.back, w_mm, h_mm, canvas.s)
    else:
        from vision.render.decks import deck_card_picture

        pic, alpha = deck_card_picture(card.face, card.back, w_mm, h_mm, canvas.s, card.deck)
    h, w = alpha.shape
    (cx, cy), = canvas.px([card.centre])
    m = cv2.getRotationMatrix2D((w / 2, h / 2), card.angle, 1.0)
    m[:, 2] += (cx - w / 2, cy - h / 2)
    r = math.hypot(w, h) / 2 + 2
    x0, y0 = max(0, int(cx - r)), max(0, int(cy - r))
    x1, y1 = min(canvas.width, int(cx + r) + 1), min(canvas.height, int(cy + r) + 1)
    if x1 <= x0 or y1 <= y0:
        return
    m[:, 2] -= (x0, y0)
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpAffine(pic, m, size, flags=cv2.INTER_LINEAR)
    a = cv2.warpAffine(alpha, m, size, flags=cv2.INTER_LINEAR).astype(np.float32)[:, :, None] / 255.0
    region = img[y0:y1, x0:x1]
    # a faint shadow along the card's south-east edges, as a card lying on felt casts
    shadow = cv2.GaussianBlur(a, (0, 0), 0.8 * canvas.s)
    shadow = np.roll(np.roll(shadow, int(0.8 * canvas.s), axis=0), int(0.8 * canvas.s), axis=1)
    base = region.astype(np.float32) * (1.0 - 0.35 * shadow.reshape(a.shape))
    region[:] = np.clip(base * (1 - a) + warped.astype(np.float32) * a, 0, 255).astype(np.uint8)


def draw_cube(canvas: Canvas, img: Image, cube: CubeItem) -> None:
    colour = cube.bgr or COLOUR_BGR[cube.colour]
    top = rotated_square(cube.centre, cube.size_mm, cube.angle)
    side = [(x + 0.12 * cube.size_mm, y - 0.12 * cube.size_mm) for x, y in top]
    shadow = [(x + 0.3 * cube.size_mm, y - 0.3 * cube.size_mm) for x, y in top]
    fill(canvas, img, shadow, (45, 35, 45))
    dark = tuple(int(c * 0.62) for c in colour)
    fill(canvas, img, _hull(top + side), dark)
    fill(canvas, img, top, colour)


def draw_pawn(canvas: Canvas, img: Image, pawn: PawnItem) -> None:
    colour = COLOUR_BGR[pawn.colour]
    r = pawn.diameter_mm / 2
    x, y = pawn.centre
    disc(canvas, img, (x + 0.25 * r, y - 0.25 * r), r, (60, 60, 70))
    disc(canvas, img, (x, y), r, tuple(int(c * 0.78) for c in colour))
    disc(canvas, img, (x - 0.1 * r, y + 0.1 * r), 0.72 * r, colour)
    head = tuple(min(255, int(c * 0.8 + 45)) for c in colour)
    disc(canvas, img, (x - 0.15 * r, y + 0.15 * r), 0.38 * r, head)


def hand_shapes(hand: HandItem) -> tuple[list[list[Point]], list[tuple[Point, float]]]:
    """(polygons, discs) outlining a hand and forearm in table mm."""
    a = math.radians(hand.direction_deg)
    d = (math.cos(a), math.sin(a))
    n = (-d[1], d[0])
    k = hand.scale
    wx, wy = hand.wrist

    def at(along: float, across: float) -> Point:
        return (wx + k * (along * d[0] + across * n[0]), wy + k * (along * d[1] + across * n[1]))

    polys = [[at(-420, -40), at(20, -36), at(20, 36), at(-420, 40)]]  # the wrist runs into the palm
    discs: list[tuple[Point, float]] = []
    palm = [at(10 + 50 * (1 - math.cos(t)) , 44 * math.sin(t)) for t in np.linspace(0, 2 * math.pi, 24)]
    polys.append([(px, py) for px, py in palm])
    for across, length in ((-30, 62), (-10, 76), (10, 72), (29, 58)):
        base, tip = 95, 95 + length
        polys.append([at(base, across - 8.5), at(tip, across - 8 + across * 0.08), at(tip, across + 8 + across * 0.08), at(base, across + 8.5)])
        discs.append((at(tip, across + across * 0.08), 8.2 * k))
    thumb_a = a - math.radians(55)
    td = (math.cos(thumb_a), math.sin(thumb_a))
    tb = at(45, -38)
    tt = (tb[0] + 62 * k * td[0], tb[1] + 62 * k * td[1])
    tn = (-td[1] * 10 * k, td[0] * 10 * k)
    polys.append([(tb[0] - tn[0], tb[1] - tn[1]), (tt[0] - tn[0], tt[1] - tn[1]), (tt[0] + tn[0], tt[1] + tn[1]), (tb[0] + tn[0], tb[1] + tn[1])])
    discs.append((tt, 10 * k))
    return polys, discs


def hand_mask(canvas: Canvas, hand: HandItem, offset: Point = (0.0, 0.0)) -> Image:
    mask = np.zeros((canvas.height, canvas.width), np.uint8)
    polys, discs = hand_shapes(hand)
    ox, oy = offset
    for poly in polys:
        fill(canvas, mask, [(x + ox, y + oy) for x, y in poly], (255,))
    for (x, y), r in discs:
        disc(canvas, mask, (x + ox, y + oy), r, (255,))
    return mask


def draw_hand(canvas: Canvas, img: Image, hand: HandItem) -> None:
    """The hand's shadow on the table, then the hand, shaded darker towards its edges."""
    shadow_mask = hand_mask(canvas, hand, (22.0, -22.0))
    mask = hand_mask(canvas, hand)
    x, y, w, h = cv2.boundingRect(cv2.bitwise_or(mask, shadow_mask))
    if w == 0 or h == 0:
        return
    pad = int(20 * canvas.s)
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(canvas.width, x + w + pad), min(canvas.height, y + h + pad)
    region = img[y0:y1, x0:x1]
    shadow = cv2.GaussianBlur(shadow_mask[y0:y1, x0:x1].astype(np.float32) / 255.0, (0, 0), 6 * canvas.s)
    lit = region.astype(np.float32) * (1.0 - 0.4 * shadow[:, :, None])
    m = mask[y0:y1, x0:x1]
    soft = cv2.GaussianBlur(m.astype(np.float32) / 255.0, (0, 0), 5 * canvas.s)
    shade = 0.75 + 0.25 * soft
    inside = m > 0
    lit[inside] = np.array(hand.skin, np.float32)[None, :] * shade[inside][:, None]
    region[:] = np.clip(lit, 0, 255).astype(np.uint8)


def _hull(points: Sequence[Point]) -> list[Point]:
    pts = np.array(points, np.float32)
    hull = cv2.convexHull(pts).reshape(-1, 2)
    return [(float(x), float(y)) for x, y in hull]
