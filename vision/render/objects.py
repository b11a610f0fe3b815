"""Things that are neither cards nor pieces, laid on the table after setup: a lit phone (its
screen gives off light: icons of every colour, brighter than anything lit by the room) and a
drinking glass (it bends what lies under it, and its rim catches the lamp).

Both are drawn into the camera's picture at a table point; positions come from the
``numpy.random.Generator`` passed in.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.frame import Image
from vision.render.camera import image_from_table
from vision.render.perturb import _to_image
from vision.render.scene import Point, Scene

ICONS_BGR = ((40, 40, 230), (30, 200, 240), (40, 180, 40), (220, 110, 30), (30, 130, 245), (230, 230, 230), (180, 60, 200))
"""App icons: red, yellow, green, blue, orange, white, purple."""


def _slab(at: Point, angle: float, w: float, h: float) -> list[Point]:
    d, n = (math.cos(angle), math.sin(angle)), (-math.sin(angle), math.cos(angle))
    x, y = at
    return [(x + sx * w / 2 * d[0] + sy * h / 2 * n[0], y + sx * w / 2 * d[1] + sy * h / 2 * n[1]) for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]


def lit_phone(scene: Scene, image: Image, at: Point, angle: float, rng: np.random.Generator, brightness: float = 1.3) -> Image:
    """A phone 72 x 148 mm lying at ``at`` (table mm), turned ``angle`` radians, its screen on:
    a wallpaper and a grid of 11 mm icons, ``brightness`` times as bright as white paper in the
    room's light (a screen is a lamp, not a reflection)."""
    out = image.copy()
    cv2.fillPoly(out, [_to_image(scene, image, _slab(at, angle, 72, 148))], (28, 28, 30), cv2.LINE_AA, 4)
    screen = np.zeros(image.shape, np.float32)
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.fillPoly(mask, [_to_image(scene, image, _slab(at, angle, 64, 132))], 255, cv2.LINE_AA, 4)
    # wallpaper: a gradient across the screen, from one colour to another
    top, bottom = np.array((150, 80, 60), np.float32), np.array((120, 60, 140), np.float32)
    d = (math.cos(angle), math.sin(angle))
    n = (-d[1], d[0])
    for k in range(12):
        band = [(at[0] + sx * 32 * d[0] + (k * 11 - 66 + sy * 11) * n[0], at[1] + sx * 32 * d[1] + (k * 11 - 66 + sy * 11) * n[1]) for sx, sy in ((-1, 0), (1, 0), (1, 1), (-1, 1))]
        colour = tuple(float(c) for c in top + (bottom - top) * (k / 11))
        cv2.fillPoly(screen, [_to_image(scene, image, band)], colour, cv2.LINE_AA, 4)
    for row in range(6):
        for col in range(4):
            if rng.random() < 0.2:
                continue
            cx = (col - 1.5) * 14.5
            cy = (row - 2.5) * 18.0 + 6.0
            centre = (at[0] + cx * d[0] + cy * n[0], at[1] + cx * d[1] + cy * n[1])
            colour = ICONS_BGR[int(rng.integers(0, len(ICONS_BGR)))]
            cv2.fillPoly(screen, [_to_image(scene, image, _slab(centre, angle, 11, 11))], tuple(float(c) for c in colour), cv2.LINE_AA, 4)
    lit = np.clip(screen * np.float32(brightness), 0, 255)
    inside = mask.astype(np.float32)[:, :, None] / 255.0
    return np.asarray(np.clip(out.astype(np.float32) * (1 - inside) + lit * inside, 0, 255), np.uint8)


def glass(scene: Scene, image: Image, at: Point, radius_mm: float = 33.0, magnify: float = 1.25) -> Image:
    """A tumbler standing at ``at``: what lies under its thick base is seen magnified and
    tinted, its rim is a darker ring, and two arcs of it reflect the lamp (clipped white)."""
    hmat = image_from_table(scene)
    w0, h0 = scene.camera.size
    sx, sy = image.shape[1] / w0, image.shape[0] / h0
    (px, py), = cv2.perspectiveTransform(np.array([[at]], np.float64), hmat).reshape(-1, 2)
    (qx, qy), = cv2.perspectiveTransform(np.array([[(at[0] + radius_mm, at[1])]], np.float64), hmat).reshape(-1, 2)
    px, py = px * sx, py * sy
    r = math.hypot((qx - px / sx) * sx, (qy - py / sy) * sy)
    h, w = image.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    dist = np.hypot(xs - px, ys - py)
    inside = dist < r
    # the base is a lens: each pixel inside shows a point nearer the centre
    map_x = np.where(inside, px + (xs - px) / magnify, xs).astype(np.float32)
    map_y = np.where(inside, py + (ys - py) / magnify, ys).astype(np.float32)
    out = np.asarray(cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE), np.float32)
    tint = np.array((0.9, 0.95, 0.88), np.float32)
    out[inside] *= tint
    rim = (dist >= r - 0.08 * r) & (dist < r + 0.03 * r)
    out[rim] = out[rim] * np.float32(0.55) + np.array((60, 70, 60), np.float32)
    angle = np.arctan2(ys - py, xs - px)
    for centre in (-2.3, 0.9):
        arc = (np.abs(dist - 0.93 * r) < 0.035 * r + 0.8) & (np.abs(np.angle(np.exp(1j * (angle - centre)))) < 0.5)
        out[arc] = 255.0
    return np.asarray(np.clip(out, 0, 255), np.uint8)
