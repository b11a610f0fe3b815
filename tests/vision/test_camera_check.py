"""The setup check: it passes a good camera and names what to fix on a bad one."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from vision.camera_check import check_frame
from vision.render import perturb
from vision.render.camera import render
from vision.render.scenes import make_scene


@pytest.fixture(scope="module")
def table() -> tuple[object, np.ndarray]:
    scene = make_scene("cards", 0, "easy")  # The Mountain: 640 x 360 mm between the markers
    return scene, render(scene)


def test_a_good_camera_passes(table: tuple[object, np.ndarray]) -> None:
    scene, image = table
    result = check_frame(image, scene.layout)  # type: ignore[attr-defined]
    assert result.ok, result.report()
    assert result.item("focus").measured.startswith("marker edges blurred by sigma 0.")


@pytest.mark.parametrize(
    "name, change, item, fix",
    [
        ("soft", lambda im: perturb.blur(im, 3.0), "focus", "focus the camera"),
        ("dark", lambda im: (im * 0.35).astype(np.uint8), "exposure", "too dark"),
        ("washed out", lambda im: perturb.contrast(im, 0.5), "exposure", "washed out"),
        ("tungsten", lambda im: perturb.colour_cast(im, perturb.TUNGSTEN_2700K), "white balance", "daylight bulbs"),
        ("far", lambda im: perturb.resize(im, (640, 480)), "resolution", "closer"),
        ("bent", lambda im: perturb.distort(im, 0.10), "lens", "companion camera lens"),
    ],
)
def test_a_bad_camera_is_told_what_to_fix(table: tuple[object, np.ndarray], name: str, change: object, item: str, fix: str) -> None:
    scene, image = table
    result = check_frame(change(image), scene.layout)  # type: ignore[operator, attr-defined]
    bad = [i.name for i in result.items if not i.ok]
    assert bad == [item], (name, result.report())
    assert fix in result.item(item).fix


def test_the_command_reads_a_camera_and_reports(tmp_path: Path, table: tuple[object, np.ndarray], capsys: pytest.CaptureFixture[str]) -> None:
    _, image = table
    path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10.0, (1280, 720))
    for _ in range(3):
        writer.write(perturb.blur(image, 3.0))
    writer.release()
    code = main(["camera", "check", "--source", f"file:{path}", "--markers", "640", "360", "--frames", "3"])
    out = capsys.readouterr().out
    assert code == 1
    assert "FIX focus" in out and "ok  markers" in out and "fix the lines marked FIX" in out
    assert main(["camera", "check", "--source", f"file:{path}"]) == 2  # no marker layout: one clear line
    assert "--markers" in capsys.readouterr().err


def test_a_lens_straightened_with_its_calibration_passes(table: tuple[object, np.ndarray]) -> None:
    """The same 10 % barrel, straightened with the lens's own model (as `lens_file` does): the
    lens line is ok and says the lens is calibrated; a 4 % barrel left alone puts zones a few
    millimetres off, which the line reports in figures."""
    from vision.lens import LensCalibration, Undistorter

    scene, image = table
    k, dist = perturb.lens_model((1280, 720), 0.10)
    lens = LensCalibration(k, dist, (1280, 720), 0.0, 0)
    result = check_frame(Undistorter(lens)(perturb.distort(image, 0.10)), scene.layout, lens_calibrated=True)  # type: ignore[attr-defined]
    assert result.item("lens").ok and "the lens is calibrated" in result.item("lens").measured, result.report()
    bent = check_frame(perturb.distort(image, 0.10), scene.layout).item("lens")  # type: ignore[attr-defined]
    assert bent.measured.startswith("barrel 1") and "mm off" in bent.measured, bent
