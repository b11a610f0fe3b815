"""A one-time lens calibration with a printed ChArUco board, and undistorting frames with it.

A wide webcam lens bends straight lines (barrel distortion): the table's edges bow, and the four
markers' homography puts zones near the corners a few millimetres off. Hold the printed board
(``board_picture``: 7 x 5 squares of 30 mm, DICT_5X5_100 markers, so it is never taken for the
table's DICT_4X4_50 markers) under the camera in a dozen places and tilts, covering the corners
of the picture; :func:`calibrate_lens` fits OpenCV's camera model (cv2.calibrateCamera on the
board's ChArUco corners), and :class:`Undistorter` straightens every frame before anything else
looks at it. The result is saved as JSON and named by the ``[camera]`` setting ``lens_file``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import cv2
import numpy as np

from companion.core.errors import ConfigError
from vision.calibration import CalibrationError
from vision.frame import FloatArray, Image

log = logging.getLogger(__name__)

SQUARES = (7, 5)
SQUARE_MM = 30.0
MARKER_MM = 22.0
DICTIONARY = cv2.aruco.DICT_5X5_100
MIN_CORNERS = 10
"""A view of the board with fewer ChArUco corners than this is not used."""
MIN_VIEWS = 5


def charuco_board() -> cv2.aruco.CharucoBoard:
    return cv2.aruco.CharucoBoard(SQUARES, SQUARE_MM, MARKER_MM, cv2.aruco.getPredefinedDictionary(DICTIONARY))


def board_picture(px_per_mm: float = 10.0, margin_mm: float = 10.0) -> Image:
    """The board to print, at ``px_per_mm`` (print it at 100 %: squares must be 30 mm)."""
    w, h = SQUARES
    size = (int(round((w * SQUARE_MM + 2 * margin_mm) * px_per_mm)), int(round((h * SQUARE_MM + 2 * margin_mm) * px_per_mm)))
    return np.asarray(charuco_board().generateImage(size, marginSize=int(round(margin_mm * px_per_mm)), borderBits=1), np.uint8)


def board_corners(image: Image, board: cv2.aruco.CharucoBoard | None = None) -> tuple[FloatArray, FloatArray] | None:
    """(board points in mm, picture points) of the ChArUco corners seen, or None if too few."""
    board = board or charuco_board()
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    corners, ids, _, _ = cv2.aruco.CharucoDetector(board).detectBoard(gray)
    if ids is None or len(ids) < MIN_CORNERS:
        return None
    obj, img = board.matchImagePoints(cast(Any, corners), ids)  # the stubs want a list; the (N, 2) array is what detectBoard gives
    return np.asarray(obj, np.float32).reshape(-1, 3), np.asarray(img, np.float32).reshape(-1, 2)


@dataclass(frozen=True, eq=False)
class LensCalibration:
    """OpenCV's pinhole camera with radial and tangential distortion, for one picture size."""

    camera_matrix: FloatArray
    distortion: FloatArray
    image_size: tuple[int, int]
    rms_px: float
    """Root-mean-square reprojection error of the board's corners over the views used."""
    views: int

    def to_json(self) -> dict[str, object]:
        return {
            "camera_matrix": self.camera_matrix.tolist(),
            "distortion": self.distortion.ravel().tolist(),
            "image_size": list(self.image_size),
            "rms_px": self.rms_px,
            "views": self.views,
        }

    @classmethod
    def from_json(cls, raw: object, where: str = "lens_file") -> "LensCalibration":
        try:
            assert isinstance(raw, dict)
            k = np.array(raw["camera_matrix"], np.float64).reshape(3, 3)
            d = np.array(raw["distortion"], np.float64).ravel()
            w, h = (int(v) for v in raw["image_size"])
            return cls(k, d, (w, h), float(raw["rms_px"]), int(raw["views"]))
        except (AssertionError, KeyError, TypeError, ValueError) as exc:
            raise ConfigError(f"camera.{where}: not a lens calibration written by `companion camera lens` ({exc})") from exc

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=2) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> "LensCalibration":
        try:
            raw = json.loads(Path(path).read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise ConfigError(f"camera.lens_file: cannot read {path} ({exc})") from exc
        return cls.from_json(raw)


def calibrate_lens(images: Iterable[Image], board: cv2.aruco.CharucoBoard | None = None) -> LensCalibration:
    """Fit the lens from pictures of the board; :class:`CalibrationError` when too few show it."""
    board = board or charuco_board()
    objs, imgs = [], []
    size: tuple[int, int] | None = None
    for image in images:
        size = (int(image.shape[1]), int(image.shape[0]))
        found = board_corners(image, board)
        if found is not None:
            objs.append(found[0])
            imgs.append(found[1])
    if size is None or len(objs) < MIN_VIEWS:
        raise CalibrationError(f"the ChArUco board was seen well in {len(objs)} pictures; at least {MIN_VIEWS} are needed (move it round the whole picture)")
    rms, k, d, _, _ = cv2.calibrateCamera(objs, imgs, size, None, None)
    log.info("lens calibrated from %d views: rms %.2f px", len(objs), rms)
    return LensCalibration(np.asarray(k, np.float64), np.asarray(d, np.float64).ravel(), size, float(rms), len(objs))


class Undistorter:
    """Straightens frames of ``lens``'s size (one remap; the maps are made once)."""

    def __init__(self, lens: LensCalibration) -> None:
        self.lens = lens
        a, b = cv2.initUndistortRectifyMap(lens.camera_matrix, lens.distortion, None, lens.camera_matrix, lens.image_size, cv2.CV_16SC2)
        self._maps = (np.asarray(a), np.asarray(b))

    def mismatch(self, image: Image) -> str:
        """Why ``image`` cannot be straightened with this lens (empty when it can)."""
        if (image.shape[1], image.shape[0]) == self.lens.image_size:
            return ""
        w, h = self.lens.image_size
        return f"the lens was calibrated at {w}x{h} but the camera gives {image.shape[1]}x{image.shape[0]}: run `companion camera lens` again"

    def __call__(self, image: Image) -> Image:
        if self.mismatch(image):
            raise ConfigError(f"camera.lens_file: {self.mismatch(image)}")
        return np.asarray(cv2.remap(image, self._maps[0], self._maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE), np.uint8)
