"""Where frames come from: a USB camera, the Pi's ribbon camera, a video file, or the renderer.

Every source gives :class:`~vision.frame.Frame` s with a table time, behind one Protocol, and
reports a failure as one :class:`~companion.errors.HardwareError` sentence naming the device.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from companion.core.errors import ConfigError, HardwareError
from vision.frame import Frame, Image

log = logging.getLogger(__name__)

Clock = Callable[[], float]


class FrameSource(Protocol):
    """A stream of frames. ``read`` returns None when a finite stream (a file) has ended."""

    name: str

    def open(self) -> None: ...

    def read(self) -> Frame | None: ...

    def close(self) -> None: ...


class UsbCamera:
    """A USB (UVC) camera through OpenCV's V4L2 backend: ``device`` is 0 or ``/dev/video0``."""

    def __init__(self, device: int | str = 0, size: tuple[int, int] = (1280, 720), fps: int = 30, clock: Clock = time.monotonic) -> None:
        self.device, self.size, self.fps, self.clock = device, size, fps, clock
        self.name = f"usb:{device}"
        self._cap: cv2.VideoCapture | None = None
        self._index = 0

    def open(self) -> None:
        cap = cv2.VideoCapture(self.device, cv2.CAP_V4L2)
        if not cap.isOpened():
            cap.release()
            where = self.device if isinstance(self.device, str) else f"/dev/video{self.device}"
            raise HardwareError(f"camera {self.name}: cannot open {where}; is it plugged in, and may this user read it (group video)?")
        cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*"MJPG"))
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        cap.set(cv2.CAP_PROP_FPS, self.fps)
        cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # the newest frame, not a queue of old ones
        self._cap = cap
        log.info("camera %s open at %dx%d", self.name, int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)), int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT)))

    def read(self) -> Frame | None:
        if self._cap is None:
            raise HardwareError(f"camera {self.name}: read before open")
        ok, image = self._cap.read()
        if not ok or image is None:
            raise HardwareError(f"camera {self.name}: stopped giving frames (unplugged?)")
        self._index += 1
        return Frame(np.asarray(image, np.uint8), self.clock(), self._index)

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


PICAMERA2_MISSING = (
    "the Pi's ribbon camera needs picamera2, which is not installed here: "
    "sudo apt install python3-picamera2, and make the venv with --system-site-packages "
    "(OpenCV cannot open this camera itself under libcamera)"
)


class PiCamera:
    """The Raspberry Pi camera (CSI ribbon) through picamera2, imported only when opened."""

    def __init__(self, size: tuple[int, int] = (1280, 720), clock: Clock = time.monotonic) -> None:
        self.size, self.clock = size, clock
        self.name = "picamera2"
        self._cam: Any = None
        self._index = 0

    def open(self) -> None:
        try:
            from picamera2 import Picamera2
        except (ImportError, ValueError) as exc:  # ValueError: apt picamera2 built for another numpy ABI
            raise HardwareError(PICAMERA2_MISSING) from exc
        try:
            cam = Picamera2()
            # "RGB888" in picamera2 is stored B, G, R: OpenCV's order, no conversion needed
            cam.configure(cam.create_video_configuration(main={"size": self.size, "format": "RGB888"}))
            cam.start()
        except (RuntimeError, IndexError, OSError) as exc:
            raise HardwareError(f"camera picamera2: cannot start the ribbon camera ({exc}); is it connected and enabled?") from exc
        self._cam = cam

    def read(self) -> Frame | None:
        if self._cam is None:
            raise HardwareError("camera picamera2: read before open")
        try:
            image = self._cam.capture_array("main")
        except (RuntimeError, OSError) as exc:
            raise HardwareError(f"camera picamera2: stopped giving frames ({exc})") from exc
        self._index += 1
        return Frame(np.ascontiguousarray(image[:, :, :3], np.uint8), self.clock(), self._index)

    def close(self) -> None:
        if self._cam is not None:
            self._cam.stop()
            self._cam.close()
            self._cam = None


class VideoFile:
    """A recorded video; frame times come from the file's own clock, starting at ``start_t``."""

    def __init__(self, path: str | Path, start_t: float = 0.0) -> None:
        self.path = Path(path)
        self.start_t = start_t
        self.name = f"file:{self.path}"
        self._cap: cv2.VideoCapture | None = None
        self._index = 0
        self._fps = 30.0

    def open(self) -> None:
        if not self.path.is_file():
            raise HardwareError(f"video {self.path}: no such file")
        cap = cv2.VideoCapture(str(self.path))
        if not cap.isOpened():
            cap.release()
            raise HardwareError(f"video {self.path}: OpenCV cannot read it (unknown format or codec)")
        fps = cap.get(cv2.CAP_PROP_FPS)
        self._fps = fps if fps and fps > 0 else 30.0
        self._cap, self._index = cap, 0

    def read(self) -> Frame | None:
        if self._cap is None:
            raise HardwareError(f"video {self.path}: read before open")
        ok, image = self._cap.read()
        if not ok or image is None:
            return None
        frame = Frame(np.asarray(image, np.uint8), self.start_t + self._index / self._fps, self._index)
        self._index += 1
        return frame

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class RenderedSource:
    """Rendered scenes as a video: each (scene, seconds) in turn at ``fps``, with exact truth.

    ``fresh_noise`` redraws the sensor noise every frame, as a real camera would (slower).
    """

    def __init__(self, script: Sequence[tuple[Any, float]], fps: float = 10.0, start_t: float = 0.0, fresh_noise: bool = False) -> None:
        if not script:
            raise ConfigError("render: the script needs at least one scene")
        self.script = list(script)
        self.fps, self.start_t, self.fresh_noise = fps, start_t, fresh_noise
        self.name = "render"
        self._k = 0
        self._cache: dict[int, Image] = {}
        self._times = np.cumsum([0.0] + [d for _, d in self.script])

    def open(self) -> None:
        self._k = 0

    def scene_at(self, t: float) -> Any:
        """The scene shown at table time ``t`` (for checking results against its truth)."""
        i = int(np.searchsorted(self._times, t - self.start_t + 1e-9, side="right")) - 1
        return self.script[min(max(i, 0), len(self.script) - 1)][0]

    def read(self) -> Frame | None:
        from vision.render.camera import render  # the renderer is only needed for this source

        elapsed = self._k / self.fps
        if elapsed >= self._times[-1] - 1e-9:
            return None
        i = int(np.searchsorted(self._times, elapsed + 1e-9, side="right")) - 1
        scene = self.script[i][0]
        if self.fresh_noise:
            scene = replace(scene, camera=replace(scene.camera, noise_seed=scene.camera.noise_seed + self._k))
            image = render(scene)
        else:
            cached = self._cache.get(i)
            image = cached if cached is not None else self._cache.setdefault(i, render(scene))
        frame = Frame(image, self.start_t + elapsed, self._k)
        self._k += 1
        return frame

    def close(self) -> None:
        self._cache.clear()


class MjpgStill:
    """A still picture served as a USB camera serves MJPG: one JPEG, decoded afresh for every
    frame, at ``fps`` in real time (``read`` waits for the next frame's moment, as a camera does).
    The service benchmark's camera; ``frames`` ends the stream (None: never)."""

    def __init__(self, image: Image, fps: float = 15.0, quality: int = 90, frames: int | None = None, clock: Clock = time.monotonic) -> None:
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        if not ok:
            raise ConfigError("MjpgStill: the picture cannot be JPEG-encoded")
        self.jpeg = np.asarray(data, np.uint8)
        self.fps, self.frames, self.clock = fps, frames, clock
        self.name = "mjpg-still"
        self._k = 0
        self._start = 0.0

    def open(self) -> None:
        self._k, self._start = 0, self.clock()

    def read(self) -> Frame | None:
        if self.frames is not None and self._k >= self.frames:
            return None
        due = self._start + self._k / self.fps
        wait = due - self.clock()
        if wait > 0:
            time.sleep(wait)
        image = cv2.imdecode(self.jpeg, cv2.IMREAD_COLOR)
        if image is None:
            raise HardwareError("mjpg-still: the JPEG did not decode")
        frame = Frame(np.asarray(image, np.uint8), self.clock(), self._k)
        self._k += 1
        return frame

    def close(self) -> None:
        pass


def open_source(spec: str, *, size: tuple[int, int] = (1280, 720), clock: Clock = time.monotonic) -> FrameSource:
    """The source a config names: ``usb:0``, ``usb:/dev/video2``, ``picamera2``, ``file:PATH``,
    or ``render:KIND`` (a still rendered table: occupancy, cubes, pawns or cards; its zones and
    markers are the scene's own, so use :func:`vision.render.demo.demo_pipeline` to watch it)."""
    if m := re.fullmatch(r"usb:(\d+)", spec):
        return UsbCamera(int(m.group(1)), size, clock=clock)
    if m := re.fullmatch(r"usb:(/dev/\S+)", spec):
        return UsbCamera(m.group(1), size, clock=clock)
    if spec == "picamera2":
        return PiCamera(size, clock)
    if spec.startswith("file:") and len(spec) > 5:
        return VideoFile(spec[5:])
    if m := re.fullmatch(r"render(?::(\w+))?", spec):
        from vision.render.scenes import SCENE_KINDS, make_scene

        kind = m.group(1) or "cards"
        if kind not in SCENE_KINDS:
            raise ConfigError(f"camera.source: render:{kind} is not a scene kind ({', '.join(SCENE_KINDS)})")
        return RenderedSource([(make_scene(kind, 0, "easy"), 3600.0)], fps=5.0)
    raise ConfigError(f"camera.source: {spec!r} is not a camera (usb:N, usb:/dev/videoN, picamera2, file:PATH, render:KIND)")
