"""Named colour ranges in HSV (OpenCV units: hue 0..179, saturation and value 0..255).

Cubes and pawns are told apart by colour. Each colour is a hue band (which may wrap past 179
back to 0, as red does) plus limits on saturation and value; the table config may replace any of
them (docs/vision.md). :func:`label_image` turns a picture into a colour label per pixel.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion.core.errors import ConfigError
from vision.frame import Image


@dataclass(frozen=True)
class ColourRange:
    """A colour as a band of HSV. ``h_lo > h_hi`` means the band wraps through 0 (red)."""

    name: str
    h_lo: int
    h_hi: int
    s_min: int = 140
    v_min: int = 45
    s_max: int = 255
    v_max: int = 255

    def __post_init__(self) -> None:
        for label, value, top in (
            ("h_lo", self.h_lo, 179),
            ("h_hi", self.h_hi, 179),
            ("s_min", self.s_min, 255),
            ("s_max", self.s_max, 255),
            ("v_min", self.v_min, 255),
            ("v_max", self.v_max, 255),
        ):
            if not 0 <= value <= top:
                raise ConfigError(f"colour {self.name}: {label} = {value} must be between 0 and {top}")
        if self.s_min > self.s_max or self.v_min > self.v_max:
            raise ConfigError(f"colour {self.name}: a minimum is above its maximum")

    def mask(self, hsv: Image) -> Image:
        """255 where a pixel of ``hsv`` is this colour."""
        lo_s, hi_s, lo_v, hi_v = self.s_min, self.s_max, self.v_min, self.v_max
        if self.h_lo <= self.h_hi:
            return np.asarray(cv2.inRange(hsv, (self.h_lo, lo_s, lo_v), (self.h_hi, hi_s, hi_v)), np.uint8)
        high = cv2.inRange(hsv, (self.h_lo, lo_s, lo_v), (179, hi_s, hi_v))
        low = cv2.inRange(hsv, (0, lo_s, lo_v), (self.h_hi, hi_s, hi_v))
        return np.asarray(cv2.bitwise_or(high, low), np.uint8)

    @classmethod
    def from_mapping(cls, name: str, raw: Any, where: str) -> "ColourRange":
        """From the config form ``{h = [lo, hi], s_min = 110, v_min = 45}`` (s_max, v_max optional)."""
        if not isinstance(raw, Mapping):
            raise ConfigError(f"{where}: must be a table like {{h = [0, 8], s_min = 140, v_min = 45}}")
        unknown = set(raw) - {"h", "s_min", "s_max", "v_min", "v_max"}
        if unknown:
            raise ConfigError(f"{where}: unknown key {sorted(unknown)[0]!r} (h, s_min, s_max, v_min, v_max)")
        hue = raw.get("h")
        if not (isinstance(hue, Sequence) and len(hue) == 2 and all(isinstance(v, int) for v in hue)):
            raise ConfigError(f"{where}.h: must be [lo, hi], whole numbers 0..179 (lo > hi wraps through 0)")
        extra: dict[str, int] = {}
        for key in ("s_min", "s_max", "v_min", "v_max"):
            if key in raw:
                if not isinstance(raw[key], int) or isinstance(raw[key], bool):
                    raise ConfigError(f"{where}.{key}: must be a whole number 0..255")
                extra[key] = int(raw[key])
        try:
            return cls(name, int(hue[0]), int(hue[1]), **extra)
        except ConfigError as exc:
            raise ConfigError(f"{where}: {exc}") from exc


CUBE_COLOURS: tuple[ColourRange, ...] = (
    ColourRange("red", 170, 7),
    ColourRange("orange", 8, 19),
    ColourRange("yellow", 20, 36),
    ColourRange("green", 40, 90),
    ColourRange("blue", 95, 130),
)
"""Horrible Mountain 2's five cube colours (NOTATION.md order)."""

PAWN_COLOURS: tuple[ColourRange, ...] = CUBE_COLOURS
"""Pawn colours to look for on the Everest grid; the colour -> player mapping picks which count."""


def label_image(hsv: Image, colours: Sequence[ColourRange]) -> Image:
    """Per pixel: 0 for no colour, else 1 + the index of the first colour in ``colours`` it matches."""
    labels = np.zeros(hsv.shape[:2], np.uint8)
    for i in range(len(colours) - 1, -1, -1):  # backwards, so the first listed colour wins ties
        labels[colours[i].mask(hsv) > 0] = i + 1
    return labels
