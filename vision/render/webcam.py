"""What a cheap webcam does to a picture before it reaches us: a Bayer sensor and its demosaic,
sharpening, noise reduction, high ISO in a dim room, lens shading, 50 Hz light flicker (rolling
shutter bands), automatic exposure that drifts, and over-exposure.

Each function takes and returns a BGR picture; those with randomness take a
``numpy.random.Generator``, so a seed gives the same picture.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.frame import Image


def _u8(out: np.ndarray) -> Image:
    return np.asarray(np.clip(out, 0, 255), np.uint8)


def bayer(image: Image) -> Image:
    """The picture as a Bayer (BGGR) sensor sees it, demosaiced bilinearly: colour fringes at
    every sharp edge, as most UVC webcams give."""
    h, w = image.shape[:2]
    mosaic = np.empty((h, w), np.uint8)
    b, g, r = cv2.split(image)
    mosaic[0::2, 0::2] = b[0::2, 0::2]
    mosaic[0::2, 1::2] = g[0::2, 1::2]
    mosaic[1::2, 0::2] = g[1::2, 0::2]
    mosaic[1::2, 1::2] = r[1::2, 1::2]
    return np.asarray(cv2.cvtColor(mosaic, cv2.COLOR_BayerRG2BGR), np.uint8)


def sharpen(image: Image, amount: float = 1.2, sigma: float = 1.0) -> Image:
    """A webcam's unsharp mask: halos beside every edge."""
    soft = cv2.GaussianBlur(image, (0, 0), sigma).astype(np.float32)
    return _u8(image.astype(np.float32) * (1 + amount) - soft * amount)


def noise_reduction(image: Image, chroma_sigma: float = 2.0) -> Image:
    """Temporal-less noise reduction as webcams do it: colour smeared over a few pixels, luma
    smoothed but its edges kept."""
    ycc = cv2.cvtColor(image, cv2.COLOR_BGR2YCrCb)
    y, cr, cb = cv2.split(ycc)
    y = cv2.bilateralFilter(y, 5, 12, 3)
    cr = cv2.GaussianBlur(cr, (0, 0), chroma_sigma)
    cb = cv2.GaussianBlur(cb, (0, 0), chroma_sigma)
    return np.asarray(cv2.cvtColor(cv2.merge([y, cr, cb]), cv2.COLOR_YCrCb2BGR), np.uint8)


def high_iso(image: Image, rng: np.random.Generator, light: float = 0.3) -> Image:
    """A dim room: ``light`` of the usual light, made up by sensor gain. Shot noise grows with
    the signal, read noise does not; the gain multiplies both; then the webcam's noise reduction."""
    dim = image.astype(np.float32) * np.float32(light)
    shot = rng.standard_normal(image.shape, dtype=np.float32) * np.sqrt(np.maximum(dim, 0.0) * np.float32(0.25))
    read = rng.standard_normal(image.shape, dtype=np.float32) * np.float32(1.5)
    gained = _u8((dim + shot + read) / np.float32(light))
    return noise_reduction(gained, 1.5)


def lens_shading(image: Image, falloff: float = 0.45, tint: float = 0.08) -> Image:
    """Corners darker by ``falloff`` (cos^4 and a small sensor), and tinted: red falls off less
    than blue (a cheap lens's colour shading)."""
    h, w = image.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    r2 = ((xs - w / 2) ** 2 + (ys - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
    base = 1.0 - falloff * r2
    gains = np.stack([base * (1 - tint * r2), base, base * (1 + tint * r2)], axis=2)
    return _u8(image.astype(np.float32) * gains)


def flicker(image: Image, rng: np.random.Generator, depth: float = 0.12, period_rows: float = 240.0) -> Image:
    """Mains light flickers at 100 Hz; a rolling shutter reads rows one after another, so the
    picture shows horizontal bands ``depth`` deep, ``period_rows`` apart, at a random phase."""
    h = image.shape[0]
    phase = float(rng.uniform(0, 2 * math.pi))
    rows = 1.0 - depth / 2 + depth / 2 * np.sin(2 * math.pi * np.arange(h, dtype=np.float32) / period_rows + phase)
    return _u8(image.astype(np.float32) * rows[:, None, None])


def exposure(image: Image, gain: float) -> Image:
    """Exposure times ``gain``: over 1, bright parts clip (a colour clipped in one channel
    changes its hue)."""
    return _u8(image.astype(np.float32) * np.float32(gain))
