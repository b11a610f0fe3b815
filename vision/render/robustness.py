"""Scoring the whole per-frame pipeline on perturbed frames: correct, unsure, or wrong-but-confident.

A table is calibrated and watched on its clean frame (as it was set up), then shown the same table
in a perturbed room (:mod:`vision.render.perturb`) for a few frames, each JPEG-compressed as a
USB camera's MJPG stream is. The last frame's views are judged against the truth:

- **correct**: the view is the truth;
- **unsure**: the camera says it cannot see the zone (or cannot name a card's face);
- **wrong**: the camera is confident and wrong: what must (almost) never happen.

Shared by ``bench/vision.py`` (its robustness section) and the tests.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.core import Observation
from vision.calibration import CalibrationError, calibrate
from vision.frame import Frame, Image
from vision.lighting import SETUP_FRAMES
from vision.pipeline import VisionPipeline
from vision.render.camera import render
from vision.render.perturb import Perturbation
from vision.render.scene import Scene
from vision.render.scenes import PAWN_COLOURS, make_scene
from vision.settings import VisionSettings
from vision.sources import RenderedSource
from companion.core.seen import UNSEEN, UNSEEN_PAWNS

MJPG_QUALITY = 90
FRAMES_AFTER = 3
"""Frames of the perturbed room before the one judged (the pipeline has seen it a moment)."""


@dataclass
class Outcome:
    correct: int = 0
    unsure: int = 0
    wrong: int = 0

    def add(self, verdict: str) -> None:
        setattr(self, verdict, getattr(self, verdict) + 1)

    @property
    def total(self) -> int:
        return self.correct + self.unsure + self.wrong

    def share(self, verdict: str) -> float:
        return getattr(self, verdict) / self.total if self.total else float("nan")


@dataclass
class Trial:
    """Outcomes per measure, and per-frame times (ms) of one detector under one perturbation."""

    outcomes: dict[str, Outcome] = field(default_factory=dict)
    decode_ms: list[float] = field(default_factory=list)
    search_ms: list[float] = field(default_factory=list)
    frame_ms: list[float] = field(default_factory=list)
    search_failed: int = 0
    setup_failed: int = 0
    pawn_colours: dict[str, Outcome] = field(default_factory=dict)
    """The pawn squares' outcomes by pawn colour (a board of one pawn's colour must leave that one unsure)."""

    def outcome(self, measure: str) -> Outcome:
        return self.outcomes.setdefault(measure, Outcome())

    def pawn(self, colour: str, verdict: str) -> None:
        """Count one pawn's verdict, in the pawn squares and under its colour."""
        self.outcome("pawn squares").add(verdict)
        self.pawn_colours.setdefault(colour, Outcome()).add(verdict)


MEASURES = {"occupancy": ("zone states",), "cubes": ("cube zones",), "pawns": ("pawn squares",), "cards": ("slots occupied", "card faces")}


def _verdict(got: Mapping[str, object] | None, expected: object) -> str:
    if got is None or UNSEEN in got:
        return "unsure"
    return "correct" if got == expected else "wrong"


def judge(kind: str, scene: Scene, observations: Sequence[Observation], trial: Trial) -> None:
    """Add the verdicts for one frame's views of ``scene`` to ``trial``."""
    seen: dict[str, Mapping[str, object]] = {str(o.payload["zone"]): o.payload["state"] for o in observations}
    truth = scene.truth
    if kind == "pawns":
        grid = seen.get("grid")
        for colour, square in truth.pawn_squares.items():
            if grid is None or UNSEEN in grid:
                trial.pawn(colour, "unsure")
                continue
            pawns = grid.get("pawns", {})
            assert isinstance(pawns, Mapping)
            got = pawns.get(colour)
            hidden = grid.get(UNSEEN_PAWNS, [])
            if got is None and isinstance(hidden, list) and colour in hidden:
                trial.pawn(colour, "unsure")  # the camera says glare (or the board's colour) may hide it
                continue
            trial.pawn(colour, "correct" if (tuple(got) if got else None) == square else "wrong")
        return
    for zone, expected in truth.states.items():
        got = seen.get(zone)
        if kind == "cards":
            visible = got is not None and UNSEEN not in got
            occupied = got.get("occupied") if got is not None and visible else None
            trial.outcome("slots occupied").add("unsure" if not visible else "correct" if occupied == expected["occupied"] else "wrong")
            if expected["occupied"]:
                card = got.get("card") if got is not None and occupied else None
                trial.outcome("card faces").add("unsure" if card is None else "correct" if card == expected["card"] else "wrong")
            continue
        trial.outcome(MEASURES[kind][0]).add(_verdict(got, expected))


def mjpg(image: Image) -> bytes:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, MJPG_QUALITY])
    if not ok:
        raise ValueError("JPEG encoding failed")
    return bytes(data.tobytes())


def decode(data: bytes) -> Image:
    return np.asarray(cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR), np.uint8)


def run_trial(
    kind: str,
    perturbation: Perturbation,
    seeds: Sequence[int],
    level: str = "easy",
    configure: Callable[[VisionSettings], VisionSettings] | None = None,
) -> Trial:
    """Score ``perturbation`` on the scenes ``seeds`` of ``kind`` (see the module docstring);
    ``configure`` changes the table's settings (a taught deck's templates)."""
    trial = Trial()
    for seed in seeds:
        scene = make_scene(kind, seed, level)
        rng = np.random.default_rng([seed, sum(map(ord, perturbation.name))])
        clean, test = perturbation.frames(scene, render, rng)
        clean = decode(mjpg(clean))
        settings = VisionSettings(markers=scene.layout)
        if configure is not None:
            settings = configure(settings)
        players = {c: c for c in PAWN_COLOURS}  # as a table's config maps each player's pawn
        pipeline = VisionPipeline(RenderedSource([(scene, 1.0)]), scene.zones, settings, players)
        try:
            pipeline.tracker.adopt(calibrate(clean, scene.layout), 0.0)
        except CalibrationError:
            trial.setup_failed += 1  # the table cannot be set up at all: nothing is seen
            judge(kind, scene, [], trial)
            continue
        for k in range(SETUP_FRAMES):  # the table as set up, while the pipeline learns its surface
            pipeline.detect(Frame(clean, 0.1 * k))
        data = mjpg(test)
        observations: list[Observation] = []
        for k in range(FRAMES_AFTER):
            start = time.perf_counter()
            image = decode(data)
            decoded = time.perf_counter()
            observations = pipeline.detect(Frame(image, 1.0 + 0.1 * k))
            done = time.perf_counter()
        trial.decode_ms.append((decoded - start) * 1000)
        trial.frame_ms.append((done - decoded) * 1000)
        start = time.perf_counter()
        try:
            calibrate(image, scene.layout)
        except CalibrationError:
            trial.search_failed += 1  # timed all the same: a failed search costs as much
        trial.search_ms.append((time.perf_counter() - start) * 1000)
        judge(kind, scene, observations, trial)
    return trial
