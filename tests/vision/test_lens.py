"""Lens calibration with a ChArUco board: rendered through a lens of known barrel distortion."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.core.errors import ConfigError
from vision.calibration import CalibrationError, calibrate
from vision.frame import Frame
from vision.lens import LensCalibration, Undistorter, board_corners, calibrate_lens
from vision.pipeline import VisionPipeline
from vision.render.camera import render
from vision.render.charuco import board_view, poses
from vision.render.perturb import distort, lens_model
from vision.render.scenes import make_scene
from vision.settings import VisionSettings
from vision.sources import RenderedSource

SIZE = (1280, 720)
BARREL = 0.04


@pytest.fixture(scope="module")
def lens() -> LensCalibration:
    k, _ = lens_model(SIZE, BARREL)
    views = [distort(board_view(SIZE, k, r, t), BARREL) for r, t in poses(SIZE, float(k[0, 0]), 9)]
    return calibrate_lens(views)


def bend(image: np.ndarray) -> float:
    """How far the board's corners are from lying on a plane seen by a pinhole camera: the RMS
    residual (px) of the best homography from the board to the picture."""
    found = board_corners(image)
    assert found is not None
    obj, img = found
    h, _ = cv2.findHomography(obj[:, :2], img)
    fit = cv2.perspectiveTransform(obj[:, :2].reshape(-1, 1, 2).astype(np.float64), h).reshape(-1, 2)
    return float(np.sqrt(np.mean(np.sum((fit - img) ** 2, axis=1))))


def test_the_lens_is_found_and_straightening_removes_the_bend(lens: LensCalibration) -> None:
    assert lens.views == 9 and lens.rms_px < 0.5
    assert lens.distortion[0] < 0  # barrel
    k, _ = lens_model(SIZE, BARREL)
    undistort = Undistorter(lens)
    for z in (300.0, 340.0):  # close up, the board spans most of the picture, where the bend is
        rvec = np.array([0.1, -0.15, 0.05])
        rot, _ = cv2.Rodrigues(rvec)
        tvec = np.array([0.0, 0.0, z]) - rot @ np.array([105.0, 75.0, 0.0])
        seen = distort(board_view(SIZE, k, rvec, tvec), BARREL)
        before, after = bend(seen), bend(undistort(seen))
        assert before > 0.35 and after < 0.4 * before, (z, before, after)


def test_the_calibration_is_saved_and_read_back(lens: LensCalibration, tmp_path: Path) -> None:
    path = tmp_path / "lens.json"
    lens.save(path)
    again = LensCalibration.load(path)
    assert np.allclose(again.camera_matrix, lens.camera_matrix) and np.allclose(again.distortion, lens.distortion)
    path.write_text("{}")
    with pytest.raises(ConfigError, match="companion camera lens"):
        LensCalibration.load(path)


def test_too_few_views_of_the_board_is_one_clear_error() -> None:
    with pytest.raises(CalibrationError, match="at least 5"):
        calibrate_lens([np.full((720, 1280, 3), 90, np.uint8)] * 3)


def test_the_pipeline_straightens_frames_before_finding_the_table(lens: LensCalibration) -> None:
    scene = make_scene("cards", 2, "easy")
    bent = distort(render(scene), BARREL)
    straight = VisionPipeline(RenderedSource([(scene, 1.0)]), scene.zones, VisionSettings(markers=scene.layout), lens=lens)
    straight.tracker.adopt(calibrate(Undistorter(lens)(bent), scene.layout), 0.0)
    views = {o.payload["zone"]: o.payload["state"] for o in straight.detect(Frame(bent, 0.0))}
    assert {z: v for z, v in views.items() if z in scene.truth.states} == dict(scene.truth.states)
    small = VisionPipeline(RenderedSource([(scene, 1.0)]), scene.zones, VisionSettings(markers=scene.layout), lens=lens)
    assert small.detect(Frame(np.zeros((480, 640, 3), np.uint8), 0.0)) == []
    assert "calibrated at 1280x720" in small.health().message


def test_the_lens_command_calibrates_from_a_video_of_the_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    k, _ = lens_model(SIZE, BARREL)
    video = tmp_path / "board.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"MJPG"), 10.0, SIZE)
    for r, t in poses(SIZE, float(k[0, 0]), 8):
        writer.write(distort(board_view(SIZE, k, r, t), BARREL))
    writer.release()
    out = tmp_path / "lens.json"
    assert main(["camera", "lens", "--source", f"file:{video}", "--every", "1", "--out", str(out)]) == 0
    assert "from 8 views" in capsys.readouterr().out
    assert LensCalibration.load(out).distortion[0] < 0
    assert main(["camera", "board", str(tmp_path / "board.png")]) == 0
    assert board_corners(cv2.imread(str(tmp_path / "board.png"))) is not None
