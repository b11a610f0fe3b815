"""Rendered tables shared by the vision tests (rendering is the slow part: each scene once)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import lru_cache

import pytest

from vision.calibration import Calibration, CalibrationError, calibrate
from vision.frame import Frame, Image
from vision.render.camera import render
from vision.render.scene import Scene
from vision.render.scenes import make_scene


@lru_cache(maxsize=64)
def scene(kind: str, seed: int, level: str) -> Scene:
    return make_scene(kind, seed, level)


@lru_cache(maxsize=64)
def picture(kind: str, seed: int, level: str) -> Image:
    return render(scene(kind, seed, level))


@lru_cache(maxsize=64)
def calibrated(kind: str, seed: int, level: str) -> tuple[Scene, Frame, Calibration]:
    """The scene, its frame, and a calibration made from the picture (as the pipeline would)."""
    sc = scene(kind, seed, level)
    image = picture(kind, seed, level)
    try:
        cal = calibrate(image, sc.layout)
    except CalibrationError:
        # a hand over a marker: the pipeline keeps the calibration made before the hand came
        cal = calibrate(render(dataclasses.replace(sc, hand=None)), sc.layout)
    return sc, Frame(image, 0.0), cal


@pytest.fixture
def rendered() -> Callable[[str, int, str], tuple[Scene, Frame, Calibration]]:
    return calibrated
