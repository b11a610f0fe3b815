"""The setup check (``companion camera check``): is this camera, where it hangs, in this light,
good enough, and if not, what to change?

From one frame of the table (markers in view) it measures:

- **markers**: all four found;
- **resolution**: pixels per millimetre in the table's middle (cards' faces need about 1.5);
- **focus**: how soft the markers' black-to-white edges are (a Gaussian blur's sigma, in pixels);
- **exposure**: the white paper's level, how much of it is clipped, and how high black sits;
- **white balance**: the colour cast the white reference corrects each frame;
- **glare**: clipped white on the table;
- **mat**: that the bare mat is a clear colour (not white or grey);
- **table colour**: that the bare mat is not itself the colour of a cube (a green cube on green
  baize cannot be seen: every cube zone would be unseen);
- **pawn colours**: that the Everest board (each pawn grid zone's own tiles, where the pawns
  stand: vision/board_surface.py) is not itself the colour of a pawn; a pawn of a colour the board
  hides would be unseen on every square;
- **lens**: how far the lens's bend puts zones from where the markers' homography has them
  (vision/lens_check.py); past a few millimetres, calibrate the lens (``companion camera lens``).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.core import Zone
from companion.core.zones import Watch
from vision.calibration import Calibration, CalibrationError, MarkerLayout, calibrate
from vision.colours import CUBE_COLOURS, PAWN_COLOURS, ColourRange
from vision.detectors.pawns import PawnDetector
from vision.frame import Frame, Image
from vision.lens_check import LENS_OFF_MM, measure_bend
from vision.lighting import TableLight
from vision.settings import VisionSettings
from vision.surface import hidden_by_surface
from vision.visibility import VisibilityMap

log = logging.getLogger(__name__)

MIN_PX_PER_MM = 1.0
FACES_PX_PER_MM = 1.5
MAX_EDGE_SIGMA_PX = 1.6
"""Softer marker edges than this (a Gaussian blur's sigma) and card indexes stop reading."""
DARK_PAPER = 110.0
CLIPPED_PAPER = 0.2
HIGH_BLACK = 70.0
STRONG_CAST = 1.35
GLARE_SHARE = 0.002
MAT_FROM_GREY = 0.05


@dataclass(frozen=True)
class CheckItem:
    """One measurement: what was measured, and what to change when it is not good enough."""

    name: str
    ok: bool
    measured: str
    fix: str = ""

    def line(self) -> str:
        return f"{'ok ' if self.ok else 'FIX'} {self.name:<13} {self.measured}" + (f"\n    -> {self.fix}" if self.fix else "")


@dataclass(frozen=True)
class CameraCheck:
    items: tuple[CheckItem, ...]

    @property
    def ok(self) -> bool:
        return all(i.ok for i in self.items)

    def item(self, name: str) -> CheckItem:
        return next(i for i in self.items if i.name == name)

    def report(self) -> list[str]:
        return [i.line() for i in self.items]


def px_per_mm(calibration: Calibration, at: tuple[float, float]) -> float:
    """Picture pixels per table millimetre at table point ``at`` (geometric mean of x and y)."""
    x, y = at
    p = calibration.to_image([(x, y), (x + 10, y), (x, y + 10)])
    return math.sqrt(float(np.linalg.norm(p[1] - p[0])) / 10 * float(np.linalg.norm(p[2] - p[0])) / 10)


def edge_sigma(gray: Image, centre: tuple[float, float], side_px: float) -> float:
    """The blur (Gaussian sigma, pixels) of a marker's edges: a blurred step of contrast C has a
    steepest slope of C / (sigma * sqrt(2 pi))."""
    half = int(side_px * 0.7) + 2
    x, y = int(round(centre[0])), int(round(centre[1]))
    win = gray[max(0, y - half) : y + half, max(0, x - half) : x + half].astype(np.float32)
    if win.size < 16:
        return float("nan")
    gx = cv2.Sobel(win, cv2.CV_32F, 1, 0, ksize=3) / 8.0
    gy = cv2.Sobel(win, cv2.CV_32F, 0, 1, ksize=3) / 8.0
    slope = float(np.percentile(np.hypot(gx, gy), 99.5))
    contrast = float(np.percentile(win, 95) - np.percentile(win, 5))
    if slope <= 1e-3:
        return float("inf")
    # the 3x3 Sobel itself and the pixel grid soften a perfect step to about sigma 0.7: take it off
    return math.sqrt(max(0.0, (contrast / (slope * math.sqrt(2 * math.pi))) ** 2 - 0.7**2))


def check_frame(
    image: Image,
    layout: MarkerLayout,
    mat_distance: float = 0.07,
    cube_colours: tuple[ColourRange, ...] = CUBE_COLOURS,
    lens_calibrated: bool = False,
    zones: Sequence[Zone] = (),
    pawn_colours: tuple[ColourRange, ...] = PAWN_COLOURS,
) -> CameraCheck:
    """Measure ``image`` of the table whose markers are ``layout``; see the module docstring.
    ``lens_calibrated``: ``image`` was straightened with the table's lens calibration; ``zones``:
    the table's zones (its pawn grids are where ``pawn_colours`` are judged)."""
    try:
        cal = calibrate(image, layout)
    except CalibrationError as exc:
        hint = "; if they are in view, the picture may be out of focus, too dark or too small (bring the camera closer)"
        return CameraCheck((CheckItem("markers", False, "not all four found", str(exc) + hint),))
    items = [CheckItem("markers", True, "all four found")]
    xs = [c[1] for c in layout.centres]
    ys = [c[2] for c in layout.centres]
    middle = (sum(xs) / 4, sum(ys) / 4)
    res = px_per_mm(cal, middle)
    corners = [px_per_mm(cal, (x, y)) for _, x, y in layout.centres]
    measured = f"{res:.2f} px/mm in the middle ({min(corners):.2f}..{max(corners):.2f} at the markers)"
    if res < MIN_PX_PER_MM:
        items.append(CheckItem("resolution", False, measured, f"bring the camera closer or use a higher resolution (at least {MIN_PX_PER_MM} px/mm)"))
    elif res < FACES_PX_PER_MM:
        items.append(CheckItem("resolution", True, measured + f"; card faces need {FACES_PX_PER_MM} (zones, cubes and pawns are fine)"))
    else:
        items.append(CheckItem("resolution", True, measured))
    gray = np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), np.uint8)
    sigmas = [edge_sigma(gray, cal.marker_centres[i], cal.marker_side_px[i]) for i in layout.ids]
    soft = float(np.median(sigmas))
    measured = f"marker edges blurred by sigma {soft:.1f} px ({soft / max(res, 1e-6):.1f} mm)"
    if soft > MAX_EDGE_SIGMA_PX:
        items.append(CheckItem("focus", False, measured, "focus the camera on the table (or fix its focus), and keep the lens clean"))
    else:
        items.append(CheckItem("focus", True, measured))
    light = TableLight(layout, mat_distance=mat_distance)
    white = light.measure_white(image, cal)
    if white is None:
        items.append(CheckItem("exposure", False, "the markers' white paper cannot be measured", "light the table; check the markers' white margins are in view"))
        return CameraCheck(tuple(items))
    measured = f"paper at {white.paper_level:.0f}/255 ({100 * white.paper_clipped:.0f}% clipped), black at {max(white.black_bgr):.0f}"
    if white.paper_level < DARK_PAPER:
        items.append(CheckItem("exposure", False, measured, "too dark: more light on the table, or a longer exposure"))
    elif white.paper_clipped > CLIPPED_PAPER:
        items.append(CheckItem("exposure", False, measured, "the paper is over-exposed: lower the exposure (or the light), so white is not clipped"))
    elif max(white.black_bgr) > HIGH_BLACK:
        items.append(CheckItem("exposure", False, measured, "washed out: black is grey (light shining into the lens, a dirty lens, or exposure too high)"))
    else:
        items.append(CheckItem("exposure", True, measured))
    gains = white.gains_bgr
    cast = max(gains) / min(gains)
    warm = gains[0] > gains[2]
    measured = f"channel gains b {gains[0]:.2f} g {gains[1]:.2f} r {gains[2]:.2f} from the markers' paper"
    if cast > STRONG_CAST:
        what = "warm (tungsten?)" if warm else "cool (shade, or a blue light?)"
        items.append(CheckItem("white balance", False, measured + f": a strong {what} cast", "it is corrected on every frame, but colours are cleaner with daylight bulbs or the camera's white balance set for this light"))
    else:
        items.append(CheckItem("white balance", True, measured))
    corrected, cal2 = light.correct(image, cal)
    view = VisibilityMap(layout, mat_distance).view(image, corrected, cal2)
    share = float(view.glare.mean())
    measured = f"{100 * share:.2f}% of the table clipped white"
    if share > GLARE_SHARE:
        items.append(CheckItem("glare", False, measured, "move or shade the lamp so its reflection is not on the table (or use matte sleeves)"))
    else:
        items.append(CheckItem("glare", True, measured))
    mat = np.array(cal2.mat_chroma)
    grey = float(np.linalg.norm(mat - 1.0 / 3.0))
    measured = f"the bare mat is {grey:.2f} from grey (chroma)"
    if grey < MAT_FROM_GREY:
        items.append(CheckItem("mat", False, measured, "use a coloured mat (not white, grey or black): cards are told from the mat by colour"))
    else:
        items.append(CheckItem("mat", True, measured))
    hidden = hidden_by_surface(cal2.mat_chroma, cube_colours, cal2.mat_limit)
    if hidden:
        what = " and ".join(hidden)
        fix = f"cube zones will be unseen: lay a mat that is not {what} (no need if no cubes are played here)"
        items.append(CheckItem("table colour", False, f"the bare mat is the colour of {what} cubes", fix))
    else:
        items.append(CheckItem("table colour", True, "no cube colour is the mat's"))
    items.append(pawns_item(Frame(corrected, 0.0, 0), cal2, zones, pawn_colours))
    items.append(lens_item(image, layout, lens_calibrated))
    return CameraCheck(tuple(items))


def pawns_item(frame: Frame, calibration: Calibration, zones: Sequence[Zone], pawn_colours: tuple[ColourRange, ...]) -> CheckItem:
    """The ``pawn colours`` line: does a pawn grid's own board hide a pawn colour?"""
    grids = [z for z in zones if z.kind.camera is Watch.PAWNS and len(z.polygon) == 4]
    if not grids:
        return CheckItem("pawn colours", True, "not measured: no pawn grid among the zones")
    detector = PawnDetector(VisionSettings(pawn_colours=pawn_colours))
    hidden = sorted({c for grid in grids for c in detector.read(frame, calibration, grid).hidden})
    if hidden:
        what = " and ".join(hidden)
        fix = f"the pawn of {what} will be unseen: use a board (or tiles) not {what}, or pawns of another colour, or light the board so the colours part (then `companion camera colours --pieces pawns`)"
        return CheckItem("pawn colours", False, f"the board is the colour of {what} pawns", fix)
    return CheckItem("pawn colours", True, "no pawn colour is the board's")


def lens_item(image: Image, layout: MarkerLayout, lens_calibrated: bool) -> CheckItem:
    """The ``lens`` line: does the lens bend the table enough to put zones off?"""
    bend = measure_bend(image, layout)
    if bend is None:
        return CheckItem("lens", True, "not measured (the markers' corners were not all found)")
    kind = "barrel" if bend.k1 < 0 else "pincushion"
    measured = f"{kind} {100 * abs(bend.k1):.0f}% at the corners: zones up to {bend.off_mm:.1f} mm off (limit {LENS_OFF_MM:g})"
    if not bend.matters:
        return CheckItem("lens", True, measured + ("; the lens is calibrated" if lens_calibrated else ""))
    if lens_calibrated:
        return CheckItem("lens", False, measured + " after straightening", "the lens calibration does not fit this camera: run `companion camera lens` again")
    fix = "the lens bends the table's straight edges: calibrate it once with `companion camera lens` and set lens_file (docs/vision.md)"
    return CheckItem("lens", False, measured, fix)
