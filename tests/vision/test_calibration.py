"""Calibration from the four corner markers: accurate, names missing markers, follows a nudge."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import cv2
import numpy as np
import pytest

from companion.core.errors import ConfigError, HardwareError
from vision.calibration import Calibration, CalibrationError, CalibrationTracker, MarkerLayout, calibrate
from vision.frame import Frame
from vision.render.camera import image_from_table, render
from vision.render.scene import Scene
from vision.render.scenes import LEVELS, camera_view
from tests.vision.conftest import scene

Rendered = Callable[[str, int, str], tuple[Scene, Frame, Calibration]]


def _error_mm(sc: Scene, cal: Calibration) -> float:
    """Largest distance (mm) between true and calibrated table points over the table."""
    pts = [(x, y) for x in (100.0, 300.0, 500.0) for y in (80.0, 200.0, 300.0)]
    true_px = cv2.perspectiveTransform(np.array(pts, np.float64).reshape(-1, 1, 2), image_from_table(sc)).reshape(-1, 2)
    back = cal.to_table([tuple(p) for p in true_px])
    return float(np.max(np.linalg.norm(back - np.array(pts), axis=1)))


@pytest.mark.parametrize("level", ["easy", "middle", "hard"])
def test_calibration_maps_pixels_to_table_millimetres(rendered: Rendered, level: str) -> None:
    sc, _, cal = rendered("pawns", 1, level)
    assert _error_mm(sc, cal) < 1.5
    # the bare mat's colour is measured, not assumed: the renderer's purple felt
    b, g, r = sc.mat_bgr
    total = b + g + r
    assert np.allclose(cal.mat_chroma, (b / total, g / total, r / total), atol=0.03)


def test_missing_markers_are_named_with_their_corners() -> None:
    sc = dataclasses.replace(scene("cubes", 2, "easy"), hidden_markers=(1, 3), hand=None)
    with pytest.raises(CalibrationError) as err:
        calibrate(render(sc), sc.layout)
    message = str(err.value)
    assert "markers 1 (south-east), 3 (north-west)" in message and "DICT_4X4_50" in message
    assert err.value.missing == (1, 3)
    assert isinstance(err.value, HardwareError)


def test_tracker_recalibrates_when_the_camera_is_nudged() -> None:
    sc = dataclasses.replace(scene("pawns", 3, "easy"), hand=None)
    tracker = CalibrationTracker(sc.layout)
    first = tracker.update(render(sc), 0.0)
    assert first.ok and first.changed
    steady = [tracker.update(render(sc), 0.1 * k) for k in range(1, 5)]  # each marker re-checked once
    assert all(s.ok and not s.changed for s in steady)
    nudged = dataclasses.replace(sc, camera=camera_view(np.random.default_rng(99), sc.layout, LEVELS["middle"]))
    statuses = [tracker.update(render(nudged), 1.0 + 0.1 * k) for k in range(4)]
    assert any(s.changed for s in statuses)
    final = statuses[-1].calibration
    assert final is not None and first.calibration is not None and final.serial > first.calibration.serial
    assert _error_mm(nudged, final) < 1.5


def test_a_hand_over_one_marker_keeps_the_calibration() -> None:
    sc = dataclasses.replace(scene("occupancy", 4, "easy"), hand=None)
    tracker = CalibrationTracker(sc.layout)
    assert tracker.update(render(sc), 0.0).ok
    covered = render(dataclasses.replace(sc, hidden_markers=(2,)))
    statuses = [tracker.update(covered, 1.0 + 0.1 * k) for k in range(4)]
    assert all(s.ok and not s.changed for s in statuses)
    assert statuses[-1].hidden == (2,)


def test_calibration_is_lost_when_the_camera_moved_and_a_marker_is_gone() -> None:
    sc = dataclasses.replace(scene("occupancy", 5, "easy"), hand=None)
    tracker = CalibrationTracker(sc.layout)
    assert tracker.update(render(sc), 0.0).ok
    moved = dataclasses.replace(sc, camera=camera_view(np.random.default_rng(7), sc.layout, LEVELS["hard"]), hidden_markers=(0,))
    statuses = [tracker.update(render(moved), 1.0 + 0.1 * k) for k in range(4)]
    assert not statuses[-1].ok
    assert "calibration lost: marker 0 (south-west)" in statuses[-1].message


def test_marker_layout_rejects_bad_settings() -> None:
    with pytest.raises(ConfigError, match="not an OpenCV ArUco dictionary"):
        MarkerLayout(dictionary="DICT_9X9_1")
    with pytest.raises(ConfigError, match="exactly four markers"):
        MarkerLayout(centres=((0, 0.0, 0.0), (1, 900.0, 0.0), (1, 900.0, 600.0), (3, 0.0, 600.0)))
    with pytest.raises(ConfigError, match="span the table"):
        MarkerLayout(centres=((0, 0.0, 0.0), (1, 10.0, 0.0), (2, 10.0, 10.0), (3, 0.0, 10.0)))
