"""Frame sources: clear messages for a missing Pi camera library, a missing file, a bad spec."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.core.errors import ConfigError, HardwareError
from vision.calibration import MarkerLayout, find_markers, marker_detector
from vision.markers import main, marker_picture
from vision.sources import PiCamera, RenderedSource, UsbCamera, VideoFile, open_source
from tests.vision.conftest import scene


@pytest.mark.skipif(importlib.util.find_spec("picamera2") is not None, reason="picamera2 is installed here")
def test_pi_camera_without_picamera2_says_how_to_get_it() -> None:
    camera = PiCamera()
    with pytest.raises(HardwareError) as err:
        camera.open()
    assert "picamera2" in str(err.value) and "apt install python3-picamera2" in str(err.value)


def test_a_usb_camera_that_is_not_there_is_named() -> None:
    camera = UsbCamera("/dev/video-does-not-exist")
    with pytest.raises(HardwareError, match="cannot open /dev/video-does-not-exist"):
        camera.open()
    with pytest.raises(HardwareError, match="read before open"):
        camera.read()


def test_video_file_errors_and_frame_times(tmp_path: Path) -> None:
    with pytest.raises(HardwareError, match="no such file"):
        VideoFile(tmp_path / "missing.avi").open()
    junk = tmp_path / "junk.avi"
    junk.write_bytes(b"not a video")
    with pytest.raises(HardwareError, match="cannot read it"):
        VideoFile(junk).open()
    path = tmp_path / "three.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 4.0, (64, 48))
    for k in range(3):
        writer.write(np.full((48, 64, 3), 60 * k, np.uint8))
    writer.release()
    video = VideoFile(path, start_t=10.0)
    video.open()
    frames = [video.read() for _ in range(4)]
    video.close()
    assert [f.t for f in frames if f is not None] == [10.0, 10.25, 10.5]
    assert frames[3] is None  # the end of the file


def test_rendered_source_follows_its_script() -> None:
    a = scene("pawns", 0, "easy")
    b = scene("pawns", 1, "easy")
    source = RenderedSource([(a, 0.5), (b, 0.5)], fps=4, start_t=100.0)
    source.open()
    frames = []
    while (frame := source.read()) is not None:
        frames.append(frame)
    assert [f.t for f in frames] == [100.0, 100.25, 100.5, 100.75]
    assert source.scene_at(100.25) is a and source.scene_at(100.5) is b
    assert np.array_equal(frames[0].image, frames[1].image) and not np.array_equal(frames[1].image, frames[2].image)


def test_open_source_understands_the_config_spelling() -> None:
    assert isinstance(open_source("usb:0"), UsbCamera)
    assert open_source("usb:/dev/video2").name == "usb:/dev/video2"
    assert isinstance(open_source("picamera2"), PiCamera)
    assert isinstance(open_source("file:/tmp/x.avi"), VideoFile)
    assert isinstance(open_source("render:cubes"), RenderedSource)
    with pytest.raises(ConfigError, match="'webcam' is not a camera"):
        open_source("webcam")
    with pytest.raises(ConfigError, match="render:dice is not a scene kind"):
        open_source("render:dice")


def test_printable_markers_are_found_by_the_detector(tmp_path: Path) -> None:
    layout = MarkerLayout()
    page = marker_picture(layout, 2, dpi=150)
    found = find_markers(page, marker_detector(layout), layout.ids)
    assert set(found) == {2}
    assert abs(found[2].side_px - 60 / 25.4 * 150) < 3  # 60 mm at 150 dpi
    assert main([str(tmp_path), "--dpi", "100"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"marker-{i}.png" for i in range(4)]
