"""From camera pixels to table millimetres: four ArUco markers at the table corners.

The marker centres are at known table positions (:class:`MarkerLayout`); their centres in the
picture give a homography, so the camera may sit anywhere above the table. Markers may be turned
any way: only their centres count. :class:`CalibrationTracker` re-checks one marker per frame in a
small window and recalibrates when the camera has been nudged.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.core.errors import ConfigError, HardwareError
from vision.frame import FloatArray, Image
from vision.surface import noise_limit, surface_spread

log = logging.getLogger(__name__)

UNMEASURED_LIMIT = 0.06
"""The bare table's limit when it cannot be measured (a fixed ``mat_bgr`` with no bare table near
it at the markers): wide enough for oak's grain."""


class CalibrationError(HardwareError):
    """The markers that fix the table's position cannot all be seen."""

    def __init__(self, message: str, missing: tuple[int, ...] = ()) -> None:
        super().__init__(message)
        self.missing = missing


@dataclass(frozen=True)
class MarkerLayout:
    """Which ArUco markers mark the table, and where their centres are (table mm, x east, y north)."""

    dictionary: str = "DICT_4X4_50"
    size_mm: float = 60.0
    """Side of the printed black square (the marker's own border included, the white margin not)."""
    centres: tuple[tuple[int, float, float], ...] = ((0, 0.0, 0.0), (1, 900.0, 0.0), (2, 900.0, 600.0), (3, 0.0, 600.0))
    """(id, x, y) per marker; the defaults are the corners of a 900 x 600 mm table area."""

    def __post_init__(self) -> None:
        if not hasattr(cv2.aruco, self.dictionary) or not self.dictionary.startswith("DICT_"):
            raise ConfigError(f"camera.markers.dictionary: {self.dictionary!r} is not an OpenCV ArUco dictionary")
        if len(self.centres) != 4 or len({c[0] for c in self.centres}) != 4:
            raise ConfigError("camera.markers: exactly four markers with different ids are needed")
        if not self.size_mm > 0:
            raise ConfigError("camera.markers.size_mm: must be above 0")
        pts = [(x, y) for _, x, y in self.centres]
        area = 0.5 * abs(sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1])))
        if area < 100 * 100:
            raise ConfigError("camera.markers: the marker centres must span the table (they enclose almost no area)")

    @classmethod
    def rectangle(cls, width_mm: float, height_mm: float, size_mm: float = 60.0, dictionary: str = "DICT_4X4_50") -> "MarkerLayout":
        """Markers 0..3 centred on the corners south-west, south-east, north-east, north-west."""
        return cls(dictionary, size_mm, ((0, 0.0, 0.0), (1, width_mm, 0.0), (2, width_mm, height_mm), (3, 0.0, height_mm)))

    @property
    def ids(self) -> tuple[int, ...]:
        return tuple(c[0] for c in self.centres)

    def centre(self, marker_id: int) -> tuple[float, float]:
        for i, x, y in self.centres:
            if i == marker_id:
                return x, y
        raise KeyError(marker_id)

    def corner_name(self, marker_id: int) -> str:
        """"south-west" etc.: where the marker sits, for messages a person can act on."""
        xs = [c[1] for c in self.centres]
        ys = [c[2] for c in self.centres]
        x, y = self.centre(marker_id)
        ns = "north" if y > sum(ys) / 4 else "south"
        ew = "east" if x > sum(xs) / 4 else "west"
        return f"{ns}-{ew}"

    def describe(self, ids: Sequence[int]) -> str:
        names = [f"{i} ({self.corner_name(i)})" for i in ids]
        return ("marker " if len(names) == 1 else "markers ") + ", ".join(names)

    def aruco_dictionary(self) -> cv2.aruco.Dictionary:
        return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, self.dictionary))


@dataclass(frozen=True, eq=False)
class Calibration:
    """Where the table is in the picture. ``serial`` grows with each recalibration (a cache key)."""

    table_from_image: FloatArray
    image_from_table: FloatArray
    marker_centres: Mapping[int, tuple[float, float]]
    """Marker centres in picture pixels."""
    marker_side_px: Mapping[int, float]
    image_size: tuple[int, int]
    mat_chroma: tuple[float, float, float]
    """The bare table's colour as (b, g, r) / (b + g + r): lighting changes brightness, not this."""
    mat_limit: float = UNMEASURED_LIMIT
    """How far from ``mat_chroma`` (chroma distance) the bare table's own pixels stray, measured
    (:func:`vision.surface.noise_limit`): a pixel beyond it is not bare table."""
    serial: int = 0

    def to_table(self, points: Sequence[tuple[float, float]]) -> FloatArray:
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return np.asarray(cv2.perspectiveTransform(pts, self.table_from_image), np.float64).reshape(-1, 2)

    def to_image(self, points: Sequence[tuple[float, float]]) -> FloatArray:
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return np.asarray(cv2.perspectiveTransform(pts, self.image_from_table), np.float64).reshape(-1, 2)


@dataclass(frozen=True)
class SeenMarker:
    centre: tuple[float, float]
    side_px: float


def marker_detector(layout: MarkerLayout, min_perimeter_rate: float = 0.08) -> cv2.aruco.ArucoDetector:
    """An ArUco detector that ignores squares whose perimeter is below ``min_perimeter_rate`` of
    the picture's larger side (0.08 of 1280 px: markers under ~25 px a side). Noise makes many
    tiny square-ish blobs; skipping them is most of the speed."""
    params = cv2.aruco.DetectorParameters()
    params.minMarkerPerimeterRate = min_perimeter_rate
    return cv2.aruco.ArucoDetector(layout.aruco_dictionary(), params)


def find_markers(gray: Image, detector: cv2.aruco.ArucoDetector, wanted: Sequence[int], offset: tuple[int, int] = (0, 0)) -> dict[int, SeenMarker]:
    """Markers of ``wanted`` ids in a grey picture (``offset`` = where this crop sits in the frame)."""
    corners, ids, _ = detector.detectMarkers(gray)
    found: dict[int, SeenMarker] = {}
    if ids is None:
        return found
    for quad, marker_id in zip(corners, np.asarray(ids).ravel()):
        mid = int(marker_id)
        if mid not in wanted:
            continue
        q = np.asarray(quad, np.float64).reshape(4, 2) + np.array(offset, np.float64)
        centre = _diagonal_crossing(q)
        side = float(np.mean(np.linalg.norm(q - np.roll(q, 1, axis=0), axis=1)))
        if mid not in found or side > found[mid].side_px:  # two of one id: trust the larger
            found[mid] = SeenMarker(centre, side)
    return found


def _diagonal_crossing(q: FloatArray) -> tuple[float, float]:
    """The true centre of a square seen in perspective: where its diagonals cross."""
    p, r = q[0], q[2] - q[0]
    s_, d = q[1], q[3] - q[1]
    denom = r[0] * d[1] - r[1] * d[0]
    if abs(denom) < 1e-9:
        c = q.mean(axis=0)
        return float(c[0]), float(c[1])
    t = ((s_[0] - p[0]) * d[1] - (s_[1] - p[1]) * d[0]) / denom
    c = p + t * r
    return float(c[0]), float(c[1])


def mat_samples(image: Image, table_from_image: FloatArray, layout: MarkerLayout) -> FloatArray:
    """The bare mat's colour (as chroma) at spots just inside each marker, towards the table's
    middle: cards and pieces seldom lie there, while the middle of a busy table may be covered."""
    xs = [c[1] for c in layout.centres]
    ys = [c[2] for c in layout.centres]
    mid = np.array([sum(xs) / 4, sum(ys) / 4])
    points = []
    for _, x, y in layout.centres:
        toward = mid - np.array([x, y])
        base = math.atan2(toward[1], toward[0])
        for r in np.linspace(1.0, 1.8, 6) * layout.size_mm:
            for a in np.linspace(-0.7, 0.7, 15):
                points.append((x + r * math.cos(base + a), y + r * math.sin(base + a)))
    pts = np.array(points, np.float64).reshape(-1, 1, 2)
    pix = cv2.perspectiveTransform(pts, np.linalg.inv(table_from_image)).reshape(-1, 2)
    h, w = image.shape[:2]
    keep = (pix[:, 0] >= 1) & (pix[:, 0] < w - 1) & (pix[:, 1] >= 1) & (pix[:, 1] < h - 1)
    pix = np.round(pix[keep]).astype(np.int64)
    smooth = cv2.blur(image, (3, 3))
    samples = smooth[pix[:, 1], pix[:, 0]].astype(np.float32)
    samples = samples[samples.sum(axis=1) > 60]
    if len(samples) < 16:
        raise CalibrationError("the table round the markers is too dark to see; light the table")
    return np.asarray(samples / samples.sum(axis=1, keepdims=True), np.float64)


def calibrate(
    image: Image,
    layout: MarkerLayout,
    *,
    serial: int = 0,
    mat_bgr: tuple[float, float, float] | None = None,
    detector: cv2.aruco.ArucoDetector | None = None,
) -> Calibration:
    """Find all four markers in ``image``; raise :class:`CalibrationError` naming any missing."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    found = find_markers(np.asarray(gray, np.uint8), detector or marker_detector(layout), layout.ids)
    return _from_markers(image, layout, found, serial, mat_bgr)


def _from_markers(
    image: Image, layout: MarkerLayout, found: Mapping[int, SeenMarker], serial: int, mat_bgr: tuple[float, float, float] | None
) -> Calibration:
    missing = tuple(i for i in layout.ids if i not in found)
    if missing:
        raise CalibrationError(
            f"cannot find the table: {layout.describe(missing)} of {layout.dictionary} not seen; "
            "check they are in the camera's view, uncovered and lit",
            missing,
        )
    src = np.array([found[i].centre for i in layout.ids], np.float64)
    dst = np.array([layout.centre(i) for i in layout.ids], np.float64)
    table_from_image = cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32)).astype(np.float64)
    if not np.all(np.isfinite(table_from_image)) or abs(np.linalg.det(table_from_image)) < 1e-12:
        raise CalibrationError("the four markers are in a line or on top of each other; place them at the table corners")
    image_from_table = np.linalg.inv(table_from_image)
    limit = UNMEASURED_LIMIT
    if mat_bgr is not None:
        total = sum(mat_bgr) or 1.0
        mat = (mat_bgr[0] / total, mat_bgr[1] / total, mat_bgr[2] / total)
    else:
        chroma = mat_samples(image, table_from_image, layout)
        middle = np.median(chroma, axis=0)
        mat = (float(middle[0]), float(middle[1]), float(middle[2]))
        limit = noise_limit(surface_spread(chroma, middle))
    return Calibration(
        table_from_image=table_from_image,
        image_from_table=image_from_table,
        marker_centres={i: found[i].centre for i in layout.ids},
        marker_side_px={i: found[i].side_px for i in layout.ids},
        image_size=(int(image.shape[1]), int(image.shape[0])),
        mat_chroma=mat,
        mat_limit=limit,
        serial=serial,
    )


@dataclass(frozen=True)
class CalibrationStatus:
    """The tracker's answer for one frame."""

    calibration: Calibration | None
    changed: bool = False
    """A new calibration was made from this frame (first one, or after the camera moved)."""
    message: str = ""
    """Empty when all is well; otherwise one sentence naming the markers to look at."""
    hidden: tuple[int, ...] = ()
    """Markers not seen at their last check (a hand over a corner), while the others hold still."""

    @property
    def ok(self) -> bool:
        return self.calibration is not None


@dataclass
class CalibrationTracker:
    """Keeps the calibration current from frame to frame.

    Each frame it looks for ``checks_per_frame`` markers (in turn) in a small window around where
    they were. A marker that moved more than ``tolerance_px`` triggers a full search and, if all four
    are found, a new calibration. A hidden marker (a hand) is tolerated while the others stay put;
    full searches for it happen at most every ``search_interval_s``.
    """

    layout: MarkerLayout = field(default_factory=MarkerLayout)
    tolerance_px: float = 2.5
    search_interval_s: float = 0.5
    checks_per_frame: int = 1
    mat_bgr: tuple[float, float, float] | None = None
    _detector: cv2.aruco.ArucoDetector | None = field(default=None, init=False, repr=False)
    _window_detector: cv2.aruco.ArucoDetector | None = field(default=None, init=False, repr=False)
    _cal: Calibration | None = field(default=None, init=False)
    _serial: int = field(default=0, init=False)
    _next: int = field(default=0, init=False)
    _hidden: set[int] = field(default_factory=set, init=False)
    _last_search: float = field(default=-math.inf, init=False)
    _message: str = field(default="not calibrated yet", init=False)

    @property
    def calibration(self) -> Calibration | None:
        return self._cal

    def reset(self) -> None:
        self._cal, self._hidden, self._last_search = None, set(), -math.inf

    def adopt(self, calibration: Calibration, t: float) -> None:
        """Carry on from a calibration made elsewhere (made at table time ``t``)."""
        self._cal, self._hidden, self._last_search = calibration, set(), t
        self._serial = max(self._serial, calibration.serial)

    def update(self, image: Image, t: float) -> CalibrationStatus:
        if self._detector is None or self._window_detector is None:
            self._detector = marker_detector(self.layout)
            # in a window about 2.6 markers wide, the marker's perimeter is ~1.5 of the window's side
            self._window_detector = marker_detector(self.layout, 0.6)
        if self._cal is None:
            if t - self._last_search < self.search_interval_s:
                return CalibrationStatus(None, message=self._message)
            return self._full_search(image, t)
        ids = self.layout.ids
        for _ in range(max(1, min(self.checks_per_frame, len(ids)))):
            marker_id = ids[self._next % len(ids)]
            self._next += 1
            seen = self._check_one(image, marker_id)
            if seen is None or _distance(seen.centre, self._cal.marker_centres[marker_id]) > self.tolerance_px:
                self._hidden.add(marker_id)  # covered, or moved: a full search will tell which
            else:
                self._hidden.discard(marker_id)
        if self._hidden and t - self._last_search >= self.search_interval_s:
            return self._full_search(image, t)
        return CalibrationStatus(self._cal, hidden=tuple(sorted(self._hidden)))

    def _check_one(self, image: Image, marker_id: int) -> SeenMarker | None:
        assert self._cal is not None and self._window_detector is not None
        cx, cy = self._cal.marker_centres[marker_id]
        half = int(self._cal.marker_side_px[marker_id] * 1.3) + 8
        h, w = image.shape[:2]
        x0, y0 = max(0, int(cx) - half), max(0, int(cy) - half)
        x1, y1 = min(w, int(cx) + half), min(h, int(cy) + half)
        if x1 - x0 < 8 or y1 - y0 < 8:
            return None
        gray = np.asarray(cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY), np.uint8)
        found = find_markers(gray, self._window_detector, (marker_id,), (x0, y0))
        return found.get(marker_id)

    def _full_search(self, image: Image, t: float) -> CalibrationStatus:
        """Look for all four markers. With a calibration in hand, the camera has moved only when
        at least two markers moved; a single marker out of place is a hand over it (or a bumped
        marker) and is treated as hidden, so a partly covered marker never skews the table."""
        assert self._detector is not None
        self._last_search = t
        gray = np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), np.uint8)
        found = find_markers(gray, self._detector, self.layout.ids)
        old = self._cal
        missing = tuple(i for i in self.layout.ids if i not in found)
        if old is not None:
            moved = tuple(i for i in found if _distance(found[i].centre, old.marker_centres[i]) > self.tolerance_px)
            if len(moved) < 2 and len(found) - len(moved) >= 1:
                self._hidden = set(missing) | set(moved)
                return CalibrationStatus(old, hidden=tuple(sorted(self._hidden)))
        if not missing:
            self._hidden.clear()
            self._serial += 1
            try:
                self._cal = _from_markers(image, self.layout, found, self._serial, self.mat_bgr)
            except CalibrationError as exc:
                self._cal, self._message = None, str(exc)
                return CalibrationStatus(None, message=self._message)
            log.info("calibrated (serial %d)%s", self._serial, " after the camera moved" if old is not None else "")
            return CalibrationStatus(self._cal, changed=True)
        self._cal = None
        self._message = (
            f"{'calibration lost' if old is not None else 'cannot find the table'}: {self.layout.describe(missing)} "
            f"of {self.layout.dictionary} not seen; check they are in the camera's view, uncovered and lit"
        )
        if old is not None:
            log.warning("%s", self._message)
        return CalibrationStatus(None, message=self._message, hidden=missing)


def _distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])
