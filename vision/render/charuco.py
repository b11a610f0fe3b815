"""The printed ChArUco board seen by a camera with a known lens: for testing lens calibration."""

from __future__ import annotations

import cv2
import numpy as np

from vision.frame import FloatArray, Image
from vision.lens import SQUARE_MM, SQUARES, board_picture

BOARD_PX_PER_MM = 6.0
MARGIN_MM = 10.0
BACKGROUND = (88, 92, 96)


def board_view(size: tuple[int, int], camera_matrix: FloatArray, rvec: FloatArray, tvec: FloatArray) -> Image:
    """The board (its first square's corner at board point (0, 0)) seen by a distortion-free
    camera ``camera_matrix`` from pose (``rvec``, ``tvec``), in mm; distort it afterwards
    (:func:`vision.render.perturb.distort`) to see it through a real lens."""
    pic = board_picture(BOARD_PX_PER_MM, MARGIN_MM)
    s, m = BOARD_PX_PER_MM, MARGIN_MM
    mm_from_pic = np.array([[1 / s, 0, -m], [0, 1 / s, -m], [0, 0, 1.0]])
    rot, _ = cv2.Rodrigues(np.asarray(rvec, np.float64))
    image_from_mm = camera_matrix @ np.column_stack([rot[:, 0], rot[:, 1], np.asarray(tvec, np.float64).ravel()])
    h = image_from_mm @ mm_from_pic
    grey = cv2.warpPerspective(pic, h, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=255)
    mask = cv2.warpPerspective(np.full_like(pic, 255), h, size, flags=cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    out = np.empty((size[1], size[0], 3), np.uint8)
    out[:] = BACKGROUND
    board = np.repeat(np.asarray(grey, np.uint8)[:, :, None], 3, axis=2)
    out[mask > 0] = board[mask > 0]
    return np.asarray(cv2.GaussianBlur(out, (0, 0), 0.6), np.uint8)


def poses(size: tuple[int, int], focal: float, count: int, seed: int = 0) -> list[tuple[FloatArray, FloatArray]]:
    """``count`` poses of the board spread over the picture (corners too), tilted up to ~25 degrees."""
    rng = np.random.default_rng(seed)
    w, h = size
    board_w, board_h = SQUARES[0] * SQUARE_MM, SQUARES[1] * SQUARE_MM
    out = []
    spots = [(0.5, 0.5), (0.25, 0.28), (0.75, 0.28), (0.25, 0.72), (0.75, 0.72), (0.5, 0.25), (0.5, 0.75), (0.2, 0.5), (0.8, 0.5)]
    for k in range(count):
        u, v = spots[k % len(spots)]
        z = float(rng.uniform(520, 700))
        rvec = np.array([rng.uniform(-0.4, 0.4), rng.uniform(-0.4, 0.4), rng.uniform(-0.3, 0.3)])
        rot, _ = cv2.Rodrigues(rvec)
        centre = np.array([(u * w - w / 2) * z / focal, (v * h - h / 2) * z / focal, z])
        tvec = centre - rot @ np.array([board_w / 2, board_h / 2, 0.0])
        out.append((rvec, tvec))
    return out
