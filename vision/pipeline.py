"""The camera pipeline the service runs: frames in, settled VISION observations out.

    pipeline = VisionPipeline(open_source("usb:0"), config.zones, settings, {"red": "anna"})
    thread = pipeline.start(session.submit, stop)     # or pipeline.run(...) in a thread of yours
    pipeline.health()                                  # for the scoreboard

Per frame: straighten it (when the lens is calibrated), keep the calibration current (markers),
correct it against the white reference and re-learn the mat (vision/lighting.py), find what the
camera cannot see now (vision/visibility.py: a hand, dark, glare; and a soft picture), run each
detector on its zones (only zone rasters are warped), steady pyramid faces, and pass each zone's
view through the stabiliser; only settled changes of zones the camera can see reach
``on_observation``. Nothing here knows a game's rules.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.core import JsonObject, Observation, Zone
from companion.core.seen import Pawns, Unseen, VisionSeen
from companion.core.zones import Watch
from companion.core.errors import HardwareError
from vision.calibration import Calibration, CalibrationTracker
from vision.camera_check import edge_sigma
from vision.detectors.cards import PyramidDetector
from vision.detectors.common import Detector
from vision.detectors.cubes import CubeDetector
from vision.detectors.occupancy import OccupancyDetector
from vision.detectors.pawns import PawnDetector
from vision.frame import Frame
from vision.settings import VisionSettings
from vision.sources import FrameSource
from vision.lens import LensCalibration, Undistorter
from vision.lighting import TableLight
from vision.pawn_view import pawns_in_part
from vision.stability import FaceVote, SettledZone, ZoneStabiliser, vision_seen
from vision.visibility import VisibilityMap
from vision.zones import check_zones

log = logging.getLogger(__name__)

SOFT_SIGMA_PX = 3.5
"""Marker edges softer than this (Gaussian sigma, px): the picture is out of focus or shaken, and
every zone is unseen until it is sharp again."""
RETRY_S = (0.5, 1.0, 2.0, 5.0)
"""Waits between attempts to reopen a camera that failed (the last one repeats)."""


@dataclass(frozen=True)
class VisionHealth:
    """What the scoreboard shows about the camera."""

    camera: str
    """``starting``, ``ok``, ``lost`` (reconnecting), ``ended`` (a file ran out) or ``stopped``."""
    calibrated: bool
    fps: float
    frames: int
    camera_message: str = ""
    """Why the camera is not ``ok``, in one sentence (a cable to check)."""
    calibration_message: str = ""
    """Why the table cannot be found, naming the markers to uncover."""
    hidden_markers: tuple[int, ...] = ()
    unseen: tuple[tuple[str, str], ...] = ()
    """(zone, why) for each zone the camera cannot see in the latest frame."""

    @property
    def message(self) -> str:
        """The one thing a person should do now, or empty."""
        if self.camera in ("lost", "starting") and self.camera_message:
            return self.camera_message
        return self.calibration_message if not self.calibrated else ""

    def to_json(self) -> JsonObject:
        return {
            "camera": self.camera,
            "calibrated": self.calibrated,
            "message": self.message,
            "fps": round(self.fps, 1),
            "frames": self.frames,
            "hidden_markers": list(self.hidden_markers),
            "unseen": [{"zone": zone, "reason": why} for zone, why in self.unseen],
        }


class VisionPipeline:
    """Runs the detectors for ``zones`` on frames from ``source``; see the module docstring."""

    def __init__(
        self,
        source: FrameSource,
        zones: Sequence[Zone],
        settings: VisionSettings | None = None,
        players_by_colour: Mapping[str, str] | None = None,
        *,
        wait: Callable[[threading.Event, float], bool] | None = None,
        lens: LensCalibration | None = None,
    ) -> None:
        self.source = source
        self.settings = s = settings or VisionSettings()
        self.zones = tuple(z for z in check_zones(zones) if z.polygon)
        if lens is None and s.lens_file:
            lens = LensCalibration.load(s.lens_file)
        self.undistort = Undistorter(lens) if lens is not None else None
        self.tracker = CalibrationTracker(s.markers, s.marker_tolerance_px, s.marker_search_s, mat_bgr=s.mat_bgr)
        self.stabiliser = ZoneStabiliser(s.settle_s, s.settle_remove_s)
        self.light = TableLight(s.markers, s.mat_bgr, s.mat_distance)
        self.visibility = VisibilityMap(s.markers, s.mat_distance, s.dark_level, min(s.cube_size_mm, s.pawn_size_mm))
        self.faces = FaceVote(s.face_window_s)
        self._pawns = PawnDetector(s, players_by_colour)
        self._players = set(self._pawns.players_by_colour.values())
        detectors: list[Detector] = [OccupancyDetector(s), CubeDetector(s), self._pawns, PyramidDetector(s)]
        self._work = [(d, tuple(z for z in self.zones if z.kind.camera is d.watches)) for d in detectors]
        self._work = [(d, zs) for d, zs in self._work if zs]
        self._by_name = {z.name: z for z in self.zones}
        self._edges: deque[float] = deque(maxlen=4)
        self._soft_turn = 0
        # a card read by its face is judged on its top 50 mm (corner index and middle band): the rest
        # may lie under the next row, so a hand over that part hides nothing the detector looks at
        self._looked_at = {z.name: _top_of_card(z, 50.0) for z in self.zones if z.kind.camera is Watch.CARD_FACE}
        # cubes belong to a zone by their centre, pawns may lean over the grid's edge
        self._pad = {Watch.CUBES: s.cube_size_mm, Watch.PAWNS: s.pawn_size_mm}
        self._wait = wait or (lambda stop, seconds: stop.wait(seconds))
        self._lock = threading.Lock()
        self._health = VisionHealth("starting", False, 0.0, 0)
        self._ticks: deque[float] = deque(maxlen=30)

    # -- one frame ------------------------------------------------------------------------------

    def detect(self, frame: Frame) -> list[Observation]:
        """Every watched zone's view in this frame, unsettled (empty when not calibrated). A zone
        the camera cannot see has the state ``{"unseen": why}``."""
        if self.undistort is not None:
            mismatch = self.undistort.mismatch(frame.image)
            if mismatch:
                self._ticks.append(time.monotonic())
                self._set_frame(False, mismatch, (), ())
                return []
            frame = Frame(self.undistort(frame.image), frame.t, frame.index)
        status = self.tracker.update(frame.image, frame.t)
        self._ticks.append(time.monotonic())
        if status.calibration is None:
            self._set_frame(status.ok, status.message, status.hidden, ())
            return []
        if status.changed:
            self.light.reset()
            self.visibility.reset()
        soft = self._softness(frame, status.calibration, status.hidden) > SOFT_SIGMA_PX
        corrected, calibration = self.light.correct(frame.image, status.calibration, status.hidden)
        view = self.visibility.view(frame.image, corrected, calibration, frame.t)
        seen_frame = Frame(corrected, frame.t, frame.index)
        out: list[Observation] = []
        unseen: list[tuple[str, str]] = []
        for detector, zones in self._work:
            for observation in detector(seen_frame, calibration, zones):
                zone = self._by_name[str(observation.payload["zone"])]
                if soft:
                    why: str | None = "the picture is soft (out of focus, or the camera shook)"
                else:
                    why = view.reason(zone, self._pad.get(zone.kind.camera, 0.0))
                    if why is not None and zone.name in self._looked_at and view.reason(self._looked_at[zone.name]) is None:
                        why = None  # what covers the card lies only on the part the next row hides
                seen = vision_seen(observation) if zone.kind.camera is Watch.PAWNS else None
                if not soft and seen is not None and isinstance(seen.view, Pawns):
                    part = pawns_in_part(
                        seen.view, why, view, zone, self._pad[Watch.PAWNS], self._pawns, seen_frame, calibration,
                        self._players, lambda: self._seen_off_the_grid(seen_frame, calibration, zone),
                    )
                    if part is not None:
                        why = None
                        observation = VisionSeen(seen.zone, part.view, seen.t).observation(observation.source)
                        if part.note is not None:
                            unseen.append((zone.name, part.note))
                if why is None:
                    out.append(self.faces.smooth(observation))
                else:
                    unseen.append((zone.name, why))
                    out.append(VisionSeen(zone.ref(), Unseen(why), observation.table_time).observation(observation.source))
        self._set_frame(True, status.message, status.hidden, tuple(unseen))
        return out

    def _softness(self, frame: Frame, calibration: Calibration, hidden: tuple[int, ...]) -> float:
        """The blur of one visible marker's edges per frame (in turn); the median of the last few."""
        ids = [i for i in self.settings.markers.ids if i not in hidden]
        if ids:
            self._soft_turn = (self._soft_turn + 1) % len(ids)
            marker = ids[self._soft_turn]
            (cx, cy), side = calibration.marker_centres[marker], calibration.marker_side_px[marker]
            half = int(side * 0.7) + 2
            x0, y0 = max(0, int(round(cx)) - half), max(0, int(round(cy)) - half)
            crop = frame.image[y0 : int(round(cy)) + half, x0 : int(round(cx)) + half]
            if crop.size:
                gray = np.asarray(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop, np.uint8)
                self._edges.append(edge_sigma(gray, (cx - x0, cy - y0), side))
        return float(np.median(self._edges)) if self._edges else 0.0

    def _seen_off_the_grid(self, frame: Frame, calibration: Calibration, zone: Zone) -> set[str]:
        """Players whose pawns lie in plain view on the table beside the grid (not hidden by glare)."""
        xs = [c[1] for c in self.settings.markers.centres]
        ys = [c[2] for c in self.settings.markers.centres]
        return self._pawns.seen_off_the_grid(frame, calibration, zone, (min(xs), max(xs), min(ys), max(ys)))

    def _set_frame(self, calibrated: bool, message: str, hidden: tuple[int, ...], unseen: tuple[tuple[str, str], ...]) -> None:
        with self._lock:
            h = self._health
            self._health = VisionHealth("ok", calibrated, self._fps(), h.frames + 1, "", message, hidden, unseen)

    def process(self, frame: Frame) -> list[Observation]:
        """The zones whose view settled with this frame (each change once)."""
        out = []
        for observation in self.detect(frame):
            settled = self.stabiliser.observe(observation)
            if settled is not None:
                out.append(settled)
        return out

    # -- the loop -------------------------------------------------------------------------------

    def run(self, on_observation: Callable[[Observation], None], stop: threading.Event) -> None:
        """Read and process frames until ``stop`` is set or a file ends. A camera that fails is
        reported in :meth:`health` and reopened with backoff; the loop carries on."""
        failures = 0
        opened = False
        try:
            while not stop.is_set():
                if not opened:
                    try:
                        self.source.open()
                        opened, failures = True, 0
                    except HardwareError as exc:
                        failures = self._lost(exc, failures)
                        if self._wait(stop, RETRY_S[min(failures - 1, len(RETRY_S) - 1)]):
                            break
                        continue
                try:
                    frame = self.source.read()
                except HardwareError as exc:
                    self.source.close()
                    opened = False
                    failures = self._lost(exc, failures)
                    if self._wait(stop, RETRY_S[min(failures - 1, len(RETRY_S) - 1)]):
                        break
                    continue
                if frame is None:
                    self._set_camera("ended", f"{self.source.name} has no more frames")
                    return
                for observation in self.process(frame):
                    on_observation(observation)
            self._set_camera("stopped", "")
        finally:
            if opened:
                self.source.close()

    def start(self, on_observation: Callable[[Observation], None], stop: threading.Event) -> threading.Thread:
        """:meth:`run` in a daemon thread of its own (already started)."""
        thread = threading.Thread(target=self.run, args=(on_observation, stop), name="vision", daemon=True)
        thread.start()
        return thread

    def _lost(self, exc: HardwareError, failures: int) -> int:
        log.warning("%s", exc)
        self._set_camera("lost", str(exc))
        return failures + 1

    def _set_camera(self, camera: str, message: str) -> None:
        with self._lock:
            h = self._health
            self._health = dataclasses.replace(h, camera=camera, camera_message=message, fps=0.0)

    def _fps(self) -> float:
        if len(self._ticks) < 2 or self._ticks[-1] <= self._ticks[0]:
            return 0.0
        return (len(self._ticks) - 1) / (self._ticks[-1] - self._ticks[0])

    # -- what the rest of the service asks ------------------------------------------------------

    def health(self) -> VisionHealth:
        with self._lock:
            return self._health

    def settled(self) -> dict[str, SettledZone]:
        """Each zone's settled view and since when (table time)."""
        return self.stabiliser.settled()

    def zone_age(self, zone: str, now: float) -> float | None:
        """How long ``zone`` has shown its settled view at table time ``now``."""
        return self.stabiliser.age(zone, now)


def _top_of_card(zone: Zone, depth_mm: float) -> Zone:
    """The top ``depth_mm`` of a pyramid slot (corners top-left, top-right, bottom-right, bottom-left)."""
    (tlx, tly), (trx, try_), _, (blx, bly) = zone.polygon
    length = math.hypot(blx - tlx, bly - tly) or 1.0
    dx, dy = (blx - tlx) / length * depth_mm, (bly - tly) / length * depth_mm
    return dataclasses.replace(zone, polygon=((tlx, tly), (trx, try_), (trx + dx, try_ + dy), (tlx + dx, tly + dy)))
