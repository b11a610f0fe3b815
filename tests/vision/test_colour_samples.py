"""Cube colours learnt from one of each at setup: a set whose orange is nearly red is read right."""

from __future__ import annotations

import dataclasses

import pytest

from companion.core.errors import ConfigError
from vision.calibration import calibrate
from vision.colour_samples import learn_colours, measure_zone, to_toml
from tests.vision.scene_config import write_scene_config
from vision.colours import CUBE_COLOURS
from vision.frame import Frame
from vision.pipeline import VisionPipeline
from vision.render import tables
from vision.render.camera import render
from vision.render.scene import CubeItem, Truth
from vision.render.scenes import make_scene
from vision.settings import VisionSettings
from vision.sources import RenderedSource

REDDISH_ORANGE = (25, 66, 230)  # hue 6: the default ranges call it red


def table() -> object:
    scene = make_scene("cubes", 0, "easy")
    zones = {z.name: z for z in scene.zones}
    px, py = tables.zone_centre(zones["cube-pile"])
    pile = [CubeItem(c, (px - 50 + 25 * k, py + (12 if k % 2 else -12)), bgr=REDDISH_ORANGE if c == "orange" else None) for k, c in enumerate(("red", "orange", "yellow", "green", "blue"))]
    s1, s2 = tables.zone_centre(zones["slot-1"]), tables.zone_centre(zones["slot-2"])
    cubes = (*pile, CubeItem("orange", s1, 20.0, bgr=REDDISH_ORANGE), CubeItem("red", s2, 10.0))
    states = {z: {"cubes": []} for z in zones}
    states.update({"cube-pile": {"cubes": ["red", "orange", "yellow", "green", "blue"]}, "slot-1": {"cubes": ["orange"]}, "slot-2": {"cubes": ["red"]}})
    return dataclasses.replace(scene, cubes=cubes, truth=Truth(states))


def views(scene: object, settings: VisionSettings) -> dict[str, object]:
    image = render(scene)  # type: ignore[arg-type]
    pipeline = VisionPipeline(RenderedSource([(scene, 1.0)]), scene.zones, settings)  # type: ignore[attr-defined]
    pipeline.tracker.adopt(calibrate(image, settings.markers), 0.0)
    return {o.payload["zone"]: o.payload["state"] for o in pipeline.detect(Frame(image, 0.0))}


def test_colours_learnt_at_setup_read_an_unusual_orange_right() -> None:
    scene = table()
    layout = scene.layout  # type: ignore[attr-defined]
    defaults = views(scene, VisionSettings(markers=layout))
    assert defaults["slot-1"] == {"cubes": ["red"]}  # the problem: by the default ranges it is red
    pile = next(z for z in scene.zones if z.name == "cube-pile")  # type: ignore[attr-defined]
    ranges, samples = learn_colours(measure_zone(render(scene), layout, pile, 12.0), CUBE_COLOURS)  # type: ignore[arg-type]
    assert [s.name for s in samples] == ["red", "orange", "yellow", "green", "blue"]
    learnt = views(scene, VisionSettings(markers=layout, cube_colours=ranges))
    assert learnt == dict(scene.truth.states)  # type: ignore[attr-defined]
    assert to_toml("cube_colours", ranges).startswith("cube_colours = { red = { h = [")


def test_a_missing_or_extra_piece_is_one_clear_error() -> None:
    with pytest.raises(ConfigError, match="1 coloured patches seen, 5 wanted"):
        learn_colours([(1.0, 200.0, 200.0, 100)], CUBE_COLOURS)



def test_the_colours_command_prints_the_ranges_for_the_config(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    import cv2

    from companion.cli import main
    from companion.games.horrible_mountain_2.playout import random_playout

    folder = Path(str(tmp_path))
    scene = table()
    video = folder / "table.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"MJPG"), 10.0, (1280, 720))
    for _ in range(3):
        writer.write(render(scene))  # type: ignore[arg-type]
    writer.release()
    header, _ = random_playout(3, 10)
    config = write_scene_config(folder, scene, header, video)
    assert main(["camera", "colours", "--config", str(config), "--zone", "cube-pile", "--frames", "3"]) == 0
    out = capsys.readouterr().out
    assert "put this in the config's [camera] table:" in out and "cube_colours = { red = { h = [" in out
    assert main(["camera", "colours", "--config", str(config), "--zone", "slot-1"]) == 2  # one cube: not one of each
    assert "1 coloured patches seen, 5 wanted" in capsys.readouterr().err
