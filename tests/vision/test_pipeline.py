"""The whole pipeline on rendered frames and on a video file the test writes: settled
observations only, none while a hand passes, health for the scoreboard, a camera that drops."""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path

import cv2
import pytest

from companion.core import Observation, ObservationKind
from companion.core.errors import HardwareError
from vision.frame import Frame
from vision.pipeline import VisionPipeline
from vision.render.camera import render
from vision.render.demo import demo_pipeline
from vision.render.scene import CardItem, HandItem, Scene
from vision.settings import VisionSettings
from vision.sources import RenderedSource, VideoFile
from tests.vision.conftest import scene


def _table_and_empty_zone() -> tuple[Scene, str]:
    base = dataclasses.replace(scene("occupancy", 7, "easy"), hand=None)
    empty = next(z for z in base.zones if not base.truth.states[z.name]["occupied"])
    return base, empty.name


def _centre(sc: Scene, zone: str) -> tuple[float, float]:
    poly = next(z for z in sc.zones if z.name == zone).polygon
    return sum(p[0] for p in poly) / len(poly), sum(p[1] for p in poly) / len(poly)


def run(pipeline: VisionPipeline) -> list[Observation]:
    got: list[Observation] = []
    pipeline.run(got.append, threading.Event())
    return got


def test_hand_passing_over_makes_no_move_and_a_card_placed_is_reported_once() -> None:
    table, zone = _table_and_empty_zone()
    cx, cy = _centre(table, zone)
    hand_over = dataclasses.replace(table, hand=HandItem((cx, cy - 120), 90.0))
    placed = dataclasses.replace(table, cards=table.cards + (CardItem((cx + 2, cy - 1), "QH", 3.0),))
    script = [(table, 1.6), (hand_over, 0.6), (table, 1.2), (placed, 1.6)]
    pipeline = VisionPipeline(RenderedSource(script, fps=5), table.zones, VisionSettings(markers=table.layout, settle_s=1.0))
    got = run(pipeline)
    by_zone: dict[str, list[Observation]] = {}
    for obs in got:
        by_zone.setdefault(obs.payload["zone"], []).append(obs)
    assert set(by_zone) == {z.name for z in table.zones}
    for name, reports in by_zone.items():
        if name != zone:
            assert [o.payload["state"] for o in reports] == [table.truth.states[name]]  # once, never changed
    assert [o.payload["state"]["occupied"] for o in by_zone[zone]] == [False, True]
    assert by_zone[zone][1].table_time == pytest.approx(3.4)  # when the card appeared
    assert all(o.kind is ObservationKind.VISION and o.source == "camera" for o in got)
    health = pipeline.health()
    assert health.camera == "ended" and health.calibrated and health.frames == 25
    assert pipeline.zone_age(zone, 10.0) == pytest.approx(6.6)


def test_pipeline_reads_a_video_file(tmp_path: Path) -> None:
    sc = dataclasses.replace(scene("cubes", 4, "easy"), hand=None)
    cx, cy = _centre(sc, "slot-3")
    hand = dataclasses.replace(sc, hand=HandItem((cx, cy - 130), 90.0))
    path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10.0, sc.camera.size)
    assert writer.isOpened()
    still, reaching = render(sc), render(hand)
    for image in [still] * 15 + [reaching] * 5 + [still] * 15:
        writer.write(image)
    writer.release()
    pipeline = VisionPipeline(VideoFile(path), sc.zones, VisionSettings(markers=sc.layout, settle_s=1.0))
    got = run(pipeline)
    states = {o.payload["zone"]: o.payload["state"] for o in got}
    assert states == dict(sc.truth.states)
    assert len(got) == len(sc.zones)  # each zone once: the hand changed nothing
    assert pipeline.health().frames == 35


def test_pyramid_through_the_pipeline() -> None:
    sc = dataclasses.replace(scene("cards", 1, "easy"), hand=None)
    pipeline = VisionPipeline(RenderedSource([(sc, 1.5)], fps=4), sc.zones, VisionSettings(markers=sc.layout, settle_s=1.0))
    states = {o.payload["zone"]: o.payload["state"] for o in run(pipeline)}
    assert {z: s for z, s in states.items() if z in sc.truth.states} == dict(sc.truth.states)
    assert states["health"] == {"occupied": True} or states["health"] == {"occupied": False}


def test_calibration_lost_shows_in_health_and_nothing_is_reported() -> None:
    sc = dataclasses.replace(scene("occupancy", 8, "easy"), hand=None, hidden_markers=(1,))
    pipeline = VisionPipeline(RenderedSource([(sc, 1.0)], fps=5), sc.zones, VisionSettings(markers=sc.layout))
    assert run(pipeline) == []
    health = pipeline.health()
    assert not health.calibrated and "marker 1 (south-east)" in health.message
    assert health.to_json()["calibrated"] is False


class DroppingCamera:
    """A camera that fails to open twice, then gives frames, then drops once mid-stream."""

    def __init__(self, inner: RenderedSource) -> None:
        self.inner, self.name = inner, "usb:9"
        self.opens = self.reads = 0

    def open(self) -> None:
        self.opens += 1
        if self.opens <= 2:
            raise HardwareError("camera usb:9: cannot open /dev/video9")
        if self.opens == 3:
            self.inner.open()

    def read(self) -> Frame | None:
        self.reads += 1
        if self.reads == 4:
            raise HardwareError("camera usb:9: stopped giving frames (unplugged?)")
        return self.inner.read()

    def close(self) -> None:
        pass


def test_a_camera_that_drops_is_reopened_with_backoff() -> None:
    sc = dataclasses.replace(scene("pawns", 2, "easy"), hand=None)
    waits: list[float] = []
    health_seen: list[str] = []

    def wait(stop: threading.Event, seconds: float) -> bool:
        waits.append(seconds)
        health_seen.append(pipeline.health().camera)
        return stop.is_set()

    camera = DroppingCamera(RenderedSource([(sc, 2.0)], fps=5))
    pipeline = VisionPipeline(camera, sc.zones, VisionSettings(markers=sc.layout, settle_s=0.5), {"red": "anna", "blue": "dan"}, wait=wait)
    got = run(pipeline)
    assert waits == [0.5, 1.0, 0.5]  # two failed opens, then one drop (the count restarts after a good open)
    assert health_seen == ["lost", "lost", "lost"]
    assert camera.opens == 4
    (grid,) = got
    squares = {c: sc.truth.pawn_squares[c] for c in ("red", "blue")}
    expected = {p: list(sq) for c, p in {"red": "anna", "blue": "dan"}.items() if (sq := squares[c]) is not None}
    assert grid.payload["state"] == {"pawns": expected}


def test_start_runs_in_its_own_thread_until_stopped() -> None:
    sc = dataclasses.replace(scene("pawns", 3, "easy"), hand=None)
    pipeline = VisionPipeline(RenderedSource([(sc, 3600.0)], fps=5), sc.zones, VisionSettings(markers=sc.layout, settle_s=0.4))
    first = threading.Event()
    got: list[Observation] = []

    def on_observation(obs: Observation) -> None:
        got.append(obs)
        first.set()

    stop = threading.Event()
    thread = pipeline.start(on_observation, stop)
    assert first.wait(60), "no observation from the running pipeline"
    stop.set()
    thread.join(60)
    assert not thread.is_alive()
    assert pipeline.health().camera == "stopped"
    assert got[0].payload["zone"] == "grid"


def test_demo_pipeline_reports_the_rendered_truth() -> None:
    pipeline = demo_pipeline("cubes", fps=4)
    pipeline.source = RenderedSource([(scene("cubes", 0, "easy"), 1.5)], fps=4)  # a short run
    states = {o.payload["zone"]: o.payload["state"] for o in run(pipeline)}
    assert states == dict(scene("cubes", 0, "easy").truth.states)
    with pytest.raises(ValueError, match="not a scene kind"):
        demo_pipeline("dice")
