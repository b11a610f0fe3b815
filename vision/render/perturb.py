"""A real room, applied to rendered frames: light that changed colour after calibration, hard and
tinted shadows, glare, blur, noise, JPEG, low contrast, lens distortion, a bumped camera, a low
resolution, a hand resting over the table, and clutter (a mug, a phone).

Each :class:`Perturbation` has up to three parts, applied in this order:

- ``scene``: changes what lies on the table before it is rendered (a resting hand);
- ``room``: changes the picture after the table was calibrated (light, shadow, glare, a bump);
- ``camera``: a property of the camera itself, applied to the calibration frame too (lens,
  resolution).

Positions are drawn from the ``numpy.random.Generator`` passed in, so a seed gives the same frame.
The tests and ``bench/vision.py`` share these.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np

from vision.frame import FloatArray, Image
from vision.render.camera import image_from_table
from vision.render.scene import HandItem, Point, Scene

SceneChange = Callable[[Scene, np.random.Generator], Scene]
RoomChange = Callable[[Scene, Image, np.random.Generator], Image]
CameraChange = Callable[[Image], Image]

SKIN_BGR = (125, 155, 205)


@dataclass(frozen=True)
class Perturbation:
    """One way a real room differs from the clean render; see the module docstring."""

    name: str
    description: str
    room: RoomChange | None = None
    camera: CameraChange | None = None
    scene: SceneChange | None = None

    def frames(self, scene: Scene, render: Callable[[Scene], Image], rng: np.random.Generator) -> tuple[Image, Image]:
        """(calibration frame, test frame): the clean table seen through this camera, then the
        table in this room."""
        clean = render(scene)
        changed_scene = self.scene(scene, rng) if self.scene is not None else scene
        test = render(changed_scene) if changed_scene is not scene else clean
        if self.room is not None:
            test = self.room(changed_scene, test, rng)
        if self.camera is not None:
            return self.camera(clean), self.camera(test)
        return clean, test


# -- light ---------------------------------------------------------------------------------------


def colour_cast(image: Image, gains_bgr: tuple[float, float, float]) -> Image:
    """The whole picture under light of another colour: each channel scaled."""
    out = image.astype(np.float32) * np.array(gains_bgr, np.float32)[None, None, :]
    return np.asarray(np.clip(out, 0, 255), np.uint8)


TUNGSTEN_2700K = (0.52, 0.78, 1.0)
"""Blue, green, red gains of 2700 K tungsten light on a camera white-balanced for daylight."""
PARTIAL_TUNGSTEN = (0.74, 0.88, 1.0)
"""The same light with the camera's automatic white balance half-way there."""


def contrast(image: Image, factor: float) -> Image:
    out = 128.0 + (image.astype(np.float32) - 128.0) * factor
    return np.asarray(np.clip(out, 0, 255), np.uint8)


def _table_extent(scene: Scene) -> tuple[float, float, float, float]:
    xs = [c[1] for c in scene.layout.centres]
    ys = [c[2] for c in scene.layout.centres]
    return min(xs), max(xs), min(ys), max(ys)


def _to_image(scene: Scene, image: Image, polygon: list[Point]) -> np.ndarray:
    """Table polygon to picture pixels (fixed point, 4 bits), allowing for a resized picture."""
    h = image_from_table(scene)
    w0, h0 = scene.camera.size
    pts = cv2.perspectiveTransform(np.array(polygon, np.float64).reshape(-1, 1, 2), h).reshape(-1, 2)
    pts *= np.array([image.shape[1] / w0, image.shape[0] / h0])
    return np.round(pts * 16).astype(np.int32)


def hard_shadow(scene: Scene, image: Image, rng: np.random.Generator, through_bgr: tuple[float, float, float] = (0.65, 0.65, 0.65)) -> Image:
    """A sharp-edged shadow (a lamp behind a person) over a random half of the table, letting
    ``through_bgr`` of the light through; a bluish one lets more blue through."""
    x0, x1, y0, y1 = _table_extent(scene)
    cx, cy = float(rng.uniform(x0, x1)), float(rng.uniform(y0, y1))
    a = float(rng.uniform(0, 2 * math.pi))
    big = 4 * max(x1 - x0, y1 - y0)
    d, n = (math.cos(a), math.sin(a)), (-math.sin(a), math.cos(a))
    poly = [
        (cx + big * n[0], cy + big * n[1]),
        (cx + big * n[0] + big * d[0], cy + big * n[1] + big * d[1]),
        (cx - big * n[0] + big * d[0], cy - big * n[1] + big * d[1]),
        (cx - big * n[0], cy - big * n[1]),
    ]
    mask = np.zeros(image.shape[:2], np.float32)
    cv2.fillPoly(mask, [_to_image(scene, image, poly)], 1.0, cv2.LINE_AA, 4)
    mask = np.asarray(cv2.GaussianBlur(mask, (0, 0), 1.5), np.float32)
    gain = 1.0 - mask[:, :, None] * (1.0 - np.array(through_bgr, np.float32)[None, None, :])
    return np.asarray(np.clip(image.astype(np.float32) * gain, 0, 255), np.uint8)


def glare(scene: Scene, image: Image, rng: np.random.Generator, spots: int = 4) -> Image:
    """``spots`` specular highlights (a lamp on glossy card or plastic): clipped white in the
    middle, fading out over 10 to 20 mm."""
    x0, x1, y0, y1 = _table_extent(scene)
    out = image.astype(np.float32)
    hmat = image_from_table(scene)
    w0, h0 = scene.camera.size
    sx, sy = image.shape[1] / w0, image.shape[0] / h0
    for _ in range(spots):
        x, y = float(rng.uniform(x0 + 60, x1 - 60)), float(rng.uniform(y0 + 60, y1 - 60))
        r_mm = float(rng.uniform(4, 7))
        (px, py), = cv2.perspectiveTransform(np.array([[[x, y]]], np.float64), hmat).reshape(-1, 2)
        (qx, qy), = cv2.perspectiveTransform(np.array([[[x + r_mm, y]]], np.float64), hmat).reshape(-1, 2)
        r = max(2.0, math.hypot((qx - px) * sx, (qy - py) * sy))
        px, py = px * sx, py * sy
        half = int(4 * r)
        ys, xs = np.mgrid[-half : half + 1, -half : half + 1].astype(np.float32)
        bump = np.exp(-(xs**2 + ys**2) / (2 * r * r)) * 330.0
        iy0, ix0 = int(py) - half, int(px) - half
        ya, yb = max(0, iy0), min(image.shape[0], iy0 + 2 * half + 1)
        xa, xb = max(0, ix0), min(image.shape[1], ix0 + 2 * half + 1)
        if ya >= yb or xa >= xb:
            continue
        out[ya:yb, xa:xb] += bump[ya - iy0 : yb - iy0, xa - ix0 : xb - ix0, None]
    return np.asarray(np.clip(out, 0, 255), np.uint8)


def gradient(image: Image, low: float, direction_deg: float) -> Image:
    h, w = image.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    a = math.radians(direction_deg)
    along = ((xs / w - 0.5) * math.cos(a) + (ys / h - 0.5) * math.sin(a)) + 0.5
    field = low + (1.0 - low) * np.clip(along, 0.0, 1.0)
    return np.asarray(np.clip(image.astype(np.float32) * field[:, :, None], 0, 255), np.uint8)


# -- camera ------------------------------------------------------------------------------------


def blur(image: Image, sigma: float) -> Image:
    return np.asarray(cv2.GaussianBlur(image, (0, 0), sigma), np.uint8)


def noise(image: Image, sigma: float, rng: np.random.Generator) -> Image:
    out = image.astype(np.float32) + rng.standard_normal(image.shape, dtype=np.float32) * np.float32(sigma)
    return np.asarray(np.clip(out, 0, 255), np.uint8)


def jpeg(image: Image, quality: int) -> Image:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError("JPEG encoding failed")
    return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), np.uint8)


def shift(image: Image, dx: float, dy: float) -> Image:
    """The camera bumped after calibration: everything moves ``dx``, ``dy`` pixels."""
    m = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy]])
    return np.asarray(cv2.warpAffine(image, m, (image.shape[1], image.shape[0]), borderMode=cv2.BORDER_REPLICATE), np.uint8)


def resize(image: Image, size: tuple[int, int]) -> Image:
    return np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_AREA), np.uint8)


def lens_model(size: tuple[int, int], barrel: float) -> tuple[FloatArray, FloatArray]:
    """(camera matrix, distortion coefficients) of a lens whose barrel pulls the picture's corners
    ``barrel`` (0.04: 4 %) towards the centre. Focal length about the picture's width."""
    w, h = size
    f = float(w)
    k = np.array([[f, 0.0, w / 2], [0.0, f, h / 2], [0.0, 0.0, 1.0]])
    r2 = ((w / 2) ** 2 + (h / 2) ** 2) / (f * f)  # the corner's squared radius, normalised
    return k, np.array([-barrel / r2, 0.0, 0.0, 0.0, 0.0])


@lru_cache(maxsize=4)
def _distort_maps(size: tuple[int, int], barrel: float) -> tuple[np.ndarray, np.ndarray]:
    w, h = size
    k, dist = lens_model(size, barrel)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    pts = np.stack([xs.ravel(), ys.ravel()], axis=1).reshape(-1, 1, 2)
    # each distorted pixel shows the undistorted point the lens model maps there
    undist = cv2.undistortPoints(pts, k, dist, None, None, k, (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 20, 1e-4)).reshape(h, w, 2)
    map_x, map_y = np.ascontiguousarray(undist[:, :, 0]), np.ascontiguousarray(undist[:, :, 1])
    a, b = cv2.convertMaps(map_x.astype(np.float32), map_y.astype(np.float32), cv2.CV_16SC2)
    return np.asarray(a), np.asarray(b)


def distort(image: Image, barrel: float) -> Image:
    """The picture through a lens with ``barrel`` distortion (see :func:`lens_model`)."""
    a, b = _distort_maps((int(image.shape[1]), int(image.shape[0])), barrel)
    return np.asarray(cv2.remap(image, a, b, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(52, 56, 60)), np.uint8)


# -- things on the table -------------------------------------------------------------------------


def resting_hand(scene: Scene, rng: np.random.Generator) -> Scene:
    """A hand resting on the table, reaching in from a random edge towards a random zone."""
    x0, x1, y0, y1 = _table_extent(scene)
    zone = scene.zones[int(rng.integers(0, len(scene.zones)))]
    xs = [p[0] for p in zone.polygon]
    ys = [p[1] for p in zone.polygon]
    tx, ty = sum(xs) / len(xs) + float(rng.uniform(-40, 40)), sum(ys) / len(ys) + float(rng.uniform(-40, 40))
    direction = (90.0, 180.0, 270.0, 0.0)[int(rng.integers(0, 4))] + float(rng.uniform(-25, 25))
    scale = float(rng.uniform(0.85, 1.1))
    a = math.radians(direction)
    reach = 150 * scale
    wrist = (tx - reach * math.cos(a), ty - reach * math.sin(a))
    return replace(scene, hand=HandItem(wrist, direction, scale, SKIN_BGR))


def _clear_spot(scene: Scene, rng: np.random.Generator, radius: float) -> Point | None:
    x0, x1, y0, y1 = _table_extent(scene)
    boxes = []
    for z in scene.zones:
        zx = [p[0] for p in z.polygon]
        zy = [p[1] for p in z.polygon]
        boxes.append((min(zx) - radius - 8, max(zx) + radius + 8, min(zy) - radius - 8, max(zy) + radius + 8))
    for _ in range(300):
        x, y = float(rng.uniform(x0 + radius + 50, x1 - radius - 50)), float(rng.uniform(y0 + radius + 50, y1 - radius - 50))
        if not any(bx0 <= x <= bx1 and by0 <= y <= by1 for bx0, bx1, by0, by1 in boxes):
            return (x, y)
    return None


def clutter(scene: Scene, image: Image, rng: np.random.Generator) -> Image:
    """A red mug (seen from above: a disc 85 mm across with a darker inside) and a phone (a dark
    slab 72 x 148 mm with a bluish screen), each on a clear part of the table beside the zones."""
    out = image.copy()
    mug = _clear_spot(scene, rng, 45)
    if mug is not None:
        _mug(scene, image, out, mug)
    phone = _clear_spot(scene, rng, 80)
    if phone is not None:
        _phone(scene, image, out, phone, float(rng.uniform(0, math.pi)))
    return out


def _mug(scene: Scene, image: Image, out: Image, at: Point) -> None:
    mx, my = at
    ring = [(mx + 42.5 * math.cos(t), my + 42.5 * math.sin(t)) for t in np.linspace(0, 2 * math.pi, 48, endpoint=False)]
    inner = [(mx + 36 * math.cos(t), my + 36 * math.sin(t)) for t in np.linspace(0, 2 * math.pi, 48, endpoint=False)]
    cv2.fillPoly(out, [_to_image(scene, image, ring)], (40, 35, 200), cv2.LINE_AA, 4)
    cv2.fillPoly(out, [_to_image(scene, image, inner)], (25, 22, 120), cv2.LINE_AA, 4)


def _phone(scene: Scene, image: Image, out: Image, at: Point, a: float) -> None:
    px, py = at
    d, n = (math.cos(a), math.sin(a)), (-math.sin(a), math.cos(a))

    def slab(w: float, h: float) -> list[Point]:
        return [(px + sx * w / 2 * d[0] + sy * h / 2 * n[0], py + sx * w / 2 * d[1] + sy * h / 2 * n[1]) for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]

    cv2.fillPoly(out, [_to_image(scene, image, slab(72, 148))], (30, 30, 32), cv2.LINE_AA, 4)
    cv2.fillPoly(out, [_to_image(scene, image, slab(64, 132))], (95, 60, 40), cv2.LINE_AA, 4)


def _room(fn: Callable[[Image], Image]) -> RoomChange:
    return lambda scene, image, rng: fn(image)


def _living_room(scene: Scene, image: Image, rng: np.random.Generator) -> Image:
    out = colour_cast(image, (0.85, 0.93, 1.0))
    out = gradient(out, 0.7, float(rng.uniform(0, 360)))
    out = blur(out, 1.0)
    out = noise(out, 4.0, rng)
    return jpeg(out, 70)


PERTURBATIONS: tuple[Perturbation, ...] = (
    Perturbation("none", "the clean render (the benchmark's easy level)"),
    Perturbation("wb-partial", "tungsten light after calibration, white balance half corrected", room=_room(lambda im: colour_cast(im, PARTIAL_TUNGSTEN))),
    Perturbation("tungsten", "2700 K tungsten after calibration, uncorrected", room=_room(lambda im: colour_cast(im, TUNGSTEN_2700K))),
    Perturbation("living-room", "partial white balance, gradient to 70 %, blur 1 px, noise 4, JPEG 70", room=_living_room),
    Perturbation("shadow-35", "a hard shadow taking 35 % of the light over part of the table", room=hard_shadow),
    Perturbation("shadow-blue", "a hard bluish shadow (lit by the sky only)", room=lambda s, im, rng: hard_shadow(s, im, rng, (0.8, 0.62, 0.5))),
    Perturbation("glare-4", "4 specular highlights, clipped white in the middle", room=glare),
    Perturbation("blur-2.5", "out of focus: Gaussian blur sigma 2.5 px", room=_room(lambda im: blur(im, 2.5))),
    Perturbation("blur-4", "badly out of focus: Gaussian blur sigma 4 px", room=_room(lambda im: blur(im, 4.0))),
    Perturbation("noise-8", "sensor noise sigma 8", room=lambda s, im, rng: noise(im, 8.0, rng)),
    Perturbation("jpeg-50", "JPEG quality 50", room=_room(lambda im: jpeg(im, 50))),
    Perturbation("contrast-0.5", "contrast halved (a washed-out picture)", room=_room(lambda im: contrast(im, 0.5))),
    Perturbation("barrel-4", "4 % barrel distortion (a wide lens), uncorrected", camera=lambda im: distort(im, 0.04)),
    Perturbation("640x480", "a 640 x 480 camera", camera=lambda im: resize(im, (640, 480))),
    Perturbation("bump-2px", "the camera bumped 2 px after calibration", room=_room(lambda im: shift(im, 2.0, 1.0))),
    Perturbation("hand", "a hand resting over the table", scene=resting_hand),
    Perturbation("clutter", "a red mug and a phone beside the zones", room=clutter),
)
"""Every perturbation the benchmark's robustness section measures, by name."""

BY_NAME = {p.name: p for p in PERTURBATIONS}
