"""Table tops other than the benchmark's purple felt: bare oak, green baize, a patterned cloth.

A :class:`Surface` is drawn instead of the plain mat when a scene names one
(:attr:`vision.render.scene.Scene.surface`). Each is a texture in table millimetres, seeded, so a
scene renders the same every time. Colours are BGR, as OpenCV's.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.frame import Image


@dataclass(frozen=True)
class Surface:
    """A table top: ``kind`` picks the texture (``oak``, ``felt``, ``tartan``), ``bgr`` its base colour."""

    name: str
    kind: str
    bgr: tuple[int, int, int]
    seed: int = 11


OAK = Surface("oak", "oak", (70, 125, 180))
"""A bare oak table, oiled: about 0.15 (chroma) from a yellow cube; planks 140 mm wide, grain along x."""
GREEN_FELT = Surface("green-felt", "felt", (60, 120, 35))
"""Billiard-green baize: about 0.05 from a green cube."""
TARTAN = Surface("tartan", "tartan", (70, 40, 25))
"""A tartan cloth: navy ground with green and red bands and thin yellow lines (colours of the
cubes among them)."""
SURFACES = {s.name: s for s in (OAK, GREEN_FELT, TARTAN)}


def _noise(rng: np.random.Generator, h: int, w: int, cell: float, stretch: tuple[float, float] = (1.0, 1.0)) -> np.ndarray:
    """Smooth noise about ``cell`` pixels across (longer by ``stretch`` along x, y), roughly -1..1."""
    gh = max(2, int(h / (cell * stretch[1])) + 2)
    gw = max(2, int(w / (cell * stretch[0])) + 2)
    low = rng.normal(0, 1, (gh, gw)).astype(np.float32)
    return np.asarray(cv2.resize(low, (w, h), interpolation=cv2.INTER_CUBIC), np.float32)


def _oak(h: int, w: int, s: float, base: tuple[int, int, int], rng: np.random.Generator) -> Image:
    plank = 140.0 * s
    ys = np.arange(h, dtype=np.float32)[:, None]
    # grain: long streaks along x, their lines wavering across the plank
    waver = _noise(rng, h, w, 60 * s, (6.0, 1.0)) * 3.0 * s
    streak = np.sin((ys + waver) / (1.1 * s) * 0.9 + _noise(rng, h, w, 20 * s, (10.0, 1.0)) * 2.0)
    figure = _noise(rng, h, w, 8 * s, (12.0, 1.0))
    tone = 0.55 * streak * (0.5 + 0.5 * np.abs(figure)) + 0.35 * _noise(rng, h, w, 30 * s, (8.0, 1.0))
    board = (ys // plank).astype(np.int64)
    shades = rng.uniform(-0.12, 0.12, int(h // plank) + 2).astype(np.float32)
    tone = tone * 0.12 + shades[board]
    # darker grain is redder and more saturated: blue falls fastest, red slowest
    gains = np.array([1.6, 1.2, 0.8], np.float32)
    out = np.array(base, np.float32)[None, None, :] * (1.0 + tone[:, :, None] * gains[None, None, :])
    seams = (ys % plank) < max(1.0, 0.6 * s)
    out[np.broadcast_to(seams, (h, w))] *= 0.55
    return np.asarray(np.clip(out, 0, 255), np.uint8)


def _felt(h: int, w: int, s: float, base: tuple[int, int, int], rng: np.random.Generator) -> Image:
    tex = _noise(rng, h, w, 12 * s) * 3.0 + rng.normal(0, 2.0, (h, w)).astype(np.float32)
    out = np.array(base, np.float32)[None, None, :] * (1.0 + tex[:, :, None] / 100.0)
    return np.asarray(np.clip(out, 0, 255), np.uint8)


def _tartan(h: int, w: int, s: float, base: tuple[int, int, int], rng: np.random.Generator) -> Image:
    out = np.empty((h, w, 3), np.float32)
    out[:] = base
    sett = 64.0 * s  # the pattern repeats every 64 mm both ways
    bands = ((0.0, 16.0, (45, 110, 30)), (30.0, 8.0, (40, 40, 170)), (46.0, 1.5, (40, 200, 225)), (54.0, 2.0, (200, 200, 205)))
    ys = np.arange(h, dtype=np.float32) % sett / s
    xs = np.arange(w, dtype=np.float32) % sett / s
    for start, width, colour in bands:
        rows = (ys >= start) & (ys < start + width)
        cols = (xs >= start) & (xs < start + width)
        c = np.array(colour, np.float32)
        out[rows, :] = 0.5 * out[rows, :] + 0.5 * c  # the woven crossings mix both threads
        out[:, cols] = 0.5 * out[:, cols] + 0.5 * c
        out[np.ix_(rows, cols)] = c
    tex = rng.normal(0, 3.0, (h, w)).astype(np.float32)
    return np.asarray(np.clip(out * (1.0 + tex[:, :, None] / 100.0), 0, 255), np.uint8)


@lru_cache(maxsize=8)
def _texture(h: int, w: int, s: float, surface: Surface) -> Image:
    rng = np.random.default_rng(surface.seed)
    draw = {"oak": _oak, "felt": _felt, "tartan": _tartan}[surface.kind]
    img = draw(h, w, s, surface.bgr, rng)
    img.setflags(write=False)
    return img


def draw_surface(height: int, width: int, s: float, surface: Surface) -> Image:
    """The table top ``height`` x ``width`` canvas pixels at ``s`` pixels per mm (a fresh copy)."""
    return _texture(height, width, s, surface).copy()
