"""Does the lens bend the table enough to matter? (``companion camera check``, its ``lens`` line.)

The table is found from the four markers' centres by a homography, which is exact only through a
lens that keeps straight lines straight. A wide webcam's barrel bows them: the markers themselves
come out smaller and squashed towards the picture's centre, and zones between the markers land a
few millimetres from where the homography puts them.

From one frame, the check fits the simplest lens that explains the markers' own shapes: one
radial coefficient about the picture's centre (as OpenCV's ``k1``). For each trial coefficient
every marker corner is straightened, the table is found from the straightened centres, and each
marker, mapped onto the table, is compared with the square of its printed size (any turn). The
coefficient that makes the markers most square is the lens; from it the check says how far any
table point between the markers is from where the plain homography puts it. Past
``LENS_OFF_MM``, zones are off by more than a card's index can stand: calibrate the lens
(``companion camera lens``, vision/lens.py).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import cv2
import numpy as np

from vision.calibration import MarkerLayout, marker_detector
from vision.frame import FloatArray, Image

log = logging.getLogger(__name__)

LENS_OFF_MM = 4.0
"""Zones farther off than this (mm, anywhere between the markers) need the lens calibrated. A
pyramid's card faces already read less often at 3 to 4 mm (the renderer's 4 % barrel: 87.6 %
named, from 99 %) and slots are named wrong at 7 to 16 mm (10 %); a straight lens measures up
to 1.6 mm here, and 2.8 mm at 640 x 480, from the markers' corners alone."""
K_RANGE = 0.4
"""Radial coefficients tried, either side of none (normalised by the picture's half diagonal; a
wide webcam's barrel is about -0.1)."""
GRID = 9
"""Table points per side where the error is measured."""


@dataclass(frozen=True)
class LensBend:
    """What the markers say about the lens."""

    k1: float
    """Radial coefficient (radius normalised by the picture's half diagonal; negative: barrel)."""
    off_mm: float
    """Largest distance between a table point (between the markers) and where the plain homography puts it."""
    square_mm: float
    """RMS distance of the markers' corners from printed squares, on the table, with this lens."""
    square_plain_mm: float
    """The same with no lens correction."""

    @property
    def matters(self) -> bool:
        return self.off_mm > LENS_OFF_MM


def _corners(image: Image, layout: MarkerLayout) -> dict[int, FloatArray] | None:
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    corners, ids, _ = marker_detector(layout).detectMarkers(np.asarray(gray, np.uint8))
    if ids is None:
        return None
    found: dict[int, FloatArray] = {}
    for quad, marker_id in zip(corners, np.asarray(ids).ravel()):
        q = np.asarray(quad, np.float64).reshape(4, 2)
        if int(marker_id) in layout.ids and int(marker_id) not in found:
            found[int(marker_id)] = q
    return found if len(found) == len(layout.ids) else None


def _straighten(points: FloatArray, centre: FloatArray, norm: float, k1: float) -> FloatArray:
    """Points as an undistorted lens would show them (the model's inverse to first order,
    refined twice)."""
    d = (points - centre) / norm
    u = d.copy()
    for _ in range(3):
        r2 = np.sum(u * u, axis=-1, keepdims=True)
        u = d / (1.0 + k1 * r2)
    return np.asarray(centre + u * norm, np.float64)


def _bend(points: FloatArray, centre: FloatArray, norm: float, k1: float) -> FloatArray:
    u = (points - centre) / norm
    r2 = np.sum(u * u, axis=-1, keepdims=True)
    return np.asarray(centre + u * (1.0 + k1 * r2) * norm, np.float64)


def _squareness(quads: dict[int, FloatArray], layout: MarkerLayout, table_from_image: FloatArray) -> float:
    """RMS mm of the markers' corners, mapped onto the table, from squares of the printed size."""
    half = layout.size_mm / 2
    square = np.array([-half - 1j * half, half - 1j * half, half + 1j * half, -half + 1j * half])
    errors = []
    for quad in quads.values():
        t = cv2.perspectiveTransform(quad.reshape(-1, 1, 2), table_from_image).reshape(4, 2)
        z = (t[:, 0] - t[:, 0].mean()) + 1j * (t[:, 1] - t[:, 1].mean())
        best = np.inf
        for w in (square, square[::-1]):  # the table's y runs up, the picture's down
            turn = np.sum(z * np.conj(w))
            rot = turn / abs(turn) if abs(turn) > 1e-12 else 1.0
            best = min(best, float(np.sum(np.abs(z - rot * w) ** 2)))
        errors.append(best / 4)
    return float(np.sqrt(np.mean(errors)))


def _homography(centres: FloatArray, layout: MarkerLayout) -> FloatArray:
    dst = np.array([layout.centre(i) for i in layout.ids], np.float32)
    return np.asarray(cv2.getPerspectiveTransform(centres.astype(np.float32), dst), np.float64)


def _fit(quads: dict[int, FloatArray], layout: MarkerLayout, centre: FloatArray, norm: float, k1: float) -> tuple[float, FloatArray]:
    straight = {i: _straighten(q, centre, norm, k1) for i, q in quads.items()}
    centres = np.array([_diagonal_crossing(straight[i]) for i in layout.ids])
    h = _homography(centres, layout)
    return _squareness(straight, layout, h), h


def _diagonal_crossing(q: FloatArray) -> FloatArray:
    p, r, s, d = q[0], q[2] - q[0], q[1], q[3] - q[1]
    denom = r[0] * d[1] - r[1] * d[0]
    if abs(denom) < 1e-9:
        return np.asarray(q.mean(axis=0), np.float64)
    t = ((s[0] - p[0]) * d[1] - (s[1] - p[1]) * d[0]) / denom
    return np.asarray(p + t * r, np.float64)


def measure_bend(image: Image, layout: MarkerLayout) -> LensBend | None:
    """The lens the markers in ``image`` show; None when not all four are found."""
    quads = _corners(image, layout)
    if quads is None:
        return None
    h_px, w_px = image.shape[:2]
    centre = np.array([w_px / 2, h_px / 2], np.float64)
    norm = float(np.hypot(w_px / 2, h_px / 2))
    plain, h_plain = _fit(quads, layout, centre, norm, 0.0)
    ks = np.linspace(-K_RANGE, K_RANGE, 81)
    scores = [_fit(quads, layout, centre, norm, float(k))[0] for k in ks]
    k1 = float(ks[int(np.argmin(scores))])
    step = ks[1] - ks[0]
    for _ in range(2):  # refine about the best
        step /= 8
        fine = k1 + step * np.arange(-8, 9)
        k1 = float(fine[int(np.argmin([_fit(quads, layout, centre, norm, float(k))[0] for k in fine]))])
    best, h_lens = _fit(quads, layout, centre, norm, k1)
    xs = [c[1] for c in layout.centres]
    ys = [c[2] for c in layout.centres]
    gx, gy = np.meshgrid(np.linspace(min(xs), max(xs), GRID), np.linspace(min(ys), max(ys), GRID))
    table = np.stack([gx.ravel(), gy.ravel()], axis=1)
    # where each table point is in the picture through this lens, and where the plain homography puts it
    straight = np.asarray(cv2.perspectiveTransform(table.reshape(-1, 1, 2), np.linalg.inv(h_lens)).reshape(-1, 2), np.float64)
    seen = _bend(straight, centre, norm, k1)
    believed = cv2.perspectiveTransform(seen.reshape(-1, 1, 2), h_plain).reshape(-1, 2)
    off = float(np.max(np.linalg.norm(believed - table, axis=1)))
    log.debug("lens: k1 %.3f, zones up to %.1f mm off, markers %.2f mm from square (%.2f uncorrected)", k1, off, best, plain)
    return LensBend(k1, off, best, plain)
