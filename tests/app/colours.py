"""The colours the lights tests tell apart (a WS2812's RGB as the host sends it)."""

from __future__ import annotations

from companion.core.lights import Colour


def green(c: Colour) -> bool:
    return c[1] > 0 and c[0] == 0


def red(c: Colour) -> bool:
    return c[0] > 0 and c[1] == 0 and c[2] == 0


def amber(c: Colour) -> bool:
    return c[0] > 0 and c[1] > 0 and c[2] == 0


def blue(c: Colour) -> bool:
    return c[2] > 0 and c[0] == 0
