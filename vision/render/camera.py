"""From a drawn table to a camera picture: perspective, uneven light and shadows, blur, noise."""

from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np

from vision.frame import FloatArray, Image
from vision.render.draw import Canvas, draw_card, draw_cube, draw_hand, draw_markers, draw_mat, draw_pawn, draw_tiles
from vision.render.scene import CameraView, Lighting, Scene

CANVAS_PX_PER_MM = 2.0
FLOOR_BGR = (52, 56, 60)
NOISE_BANK = 1280 * 720 * 3 + 1_000_003


def image_from_table(scene: Scene) -> FloatArray:
    """The true homography from table millimetres to picture pixels."""
    src = np.array([(x, y) for _, x, y in scene.layout.centres], np.float32)
    dst = np.array(scene.camera.marker_pixels, np.float32)
    return np.asarray(cv2.getPerspectiveTransform(src, dst), np.float64)


def draw_table(scene: Scene, s: float = CANVAS_PX_PER_MM) -> tuple[Canvas, Image]:
    canvas = Canvas.around(scene.layout, s)
    if scene.surface is None:
        img = draw_mat(canvas, scene.mat_bgr)
    else:
        from vision.render.surfaces import draw_surface

        img = draw_surface(canvas.height, canvas.width, s, scene.surface)
    draw_markers(canvas, img, scene.layout, scene.hidden_markers)
    draw_tiles(canvas, img, scene.tiles)
    for card in scene.cards:
        draw_card(canvas, img, card)
    for cube in scene.cubes:
        draw_cube(canvas, img, cube)
    for pawn in scene.pawns:
        draw_pawn(canvas, img, pawn)
    if scene.hand is not None:
        draw_hand(canvas, img, scene.hand)
    return canvas, img


def light_field(scene: Scene, h_table: FloatArray) -> FloatArray:
    """Per-pixel light (0..1] over the picture, computed coarse and smoothed up."""
    light: Lighting = scene.lighting
    cam: CameraView = scene.camera
    w, h = cam.size
    f = 8
    sw, sh = (w + f - 1) // f, (h + f - 1) // f
    ys, xs = np.mgrid[0:sh, 0:sw].astype(np.float32)
    xs, ys = xs * f / w - 0.5, ys * f / h - 0.5
    a = math.radians(light.direction_deg)
    along = (xs * math.cos(a) + ys * math.sin(a)) / (abs(math.cos(a)) + abs(math.sin(a)) * h / w + 1e-9)  # about -0.5..0.5
    field = light.low + (1.0 - light.low) * np.clip(along + 0.5, 0.0, 1.0)
    field *= 1.0 - light.vignette * (xs**2 + ys**2) * 2.0
    for polygon, through in light.shadows:
        pts = cv2.perspectiveTransform(np.array(polygon, np.float64).reshape(-1, 1, 2), h_table).reshape(-1, 2) / f
        mask = np.zeros((sh, sw), np.float32)
        cv2.fillPoly(mask, [np.round(pts * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
        mask = np.asarray(cv2.GaussianBlur(mask, (0, 0), 1.2), np.float32)
        field *= 1.0 - (1.0 - through) * mask
    return np.asarray(cv2.resize(field.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR), np.float32)


@lru_cache(maxsize=1)
def _noise_bank() -> FloatArray:
    """Fixed, seeded noise: a scene's noise is a slice of it (much cheaper than drawing anew)."""
    return np.random.default_rng(2024).standard_normal(NOISE_BANK, dtype=np.float32)


def render(scene: Scene) -> Image:
    """The camera's picture of ``scene`` (BGR, the camera view's size). Same scene, same picture."""
    canvas, table = draw_table(scene)
    h_table = image_from_table(scene)
    h = h_table @ canvas.table_from_canvas
    w_px, h_px = scene.camera.size
    img = cv2.warpPerspective(table, h, (w_px, h_px), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=FLOOR_BGR)
    out = img.astype(np.float32)
    out *= light_field(scene, h_table)[:, :, None]
    if scene.camera.blur_sigma > 0:
        out = np.asarray(cv2.GaussianBlur(out, (0, 0), scene.camera.blur_sigma), np.float32)
    if scene.camera.noise_sigma > 0:
        bank = _noise_bank()
        n = out.size
        start = scene.camera.noise_seed % (len(bank) - n)
        out += bank[start : start + n].reshape(out.shape) * np.float32(scene.camera.noise_sigma)
    return np.clip(out, 0, 255, out=out).astype(np.uint8)
