"""Settings from config, and the renderer's promises: same seed same picture, truth that adds up."""

from __future__ import annotations

import numpy as np
import pytest

from companion.core.errors import ConfigError
from vision.colours import ColourRange
from vision.render.camera import render
from vision.render.scenes import make_scene
from vision.settings import VisionSettings


def test_settings_from_the_camera_table() -> None:
    s = VisionSettings.from_mapping(
        {
            "source": "usb:0",
            "players_by_colour": {"red": "anna"},
            "settle_s": 1.5,
            "cube_colours": {"red": {"h": [172, 6], "s_min": 120}, "purple": {"h": [135, 160]}},
            "markers": {"dictionary": "DICT_5X5_50", "size_mm": 50, "width_mm": 800, "height_mm": 450},
            "mat_bgr": [120, 48, 105],
        }
    )
    assert s.settle_s == 1.5 and s.mat_bgr == (120.0, 48.0, 105.0)
    red = next(c for c in s.cube_colours if c.name == "red")
    assert (red.h_lo, red.h_hi, red.s_min) == (172, 6, 120)
    assert [c.name for c in s.cube_colours][-1] == "purple"
    assert s.markers.centre(2) == (800.0, 450.0) and s.markers.size_mm == 50.0


@pytest.mark.parametrize(
    "raw, words",
    [
        ({"settle": 1.0}, "camera.settle: unknown setting"),
        ({"settle_s": -1}, "camera.settle_s: -1.0 must be a number above 0"),
        ({"settle_s": "soon"}, "camera.settle_s: must be a number"),
        ({"occupied_fraction": 1.5}, "camera.occupied_fraction"),
        ({"cube_colours": {"red": {"h": [200, 8]}}}, "camera.cube_colours.red: colour red: h_lo = 200"),
        ({"cube_colours": {"red": {"hue": [0, 8]}}}, "unknown key 'hue'"),
        ({"cube_colours": {"red": {"h": 5}}}, "camera.cube_colours.red.h: must be [lo, hi]"),
        ({"markers": {"dictionary": "DICT_9X9_9"}}, "not an OpenCV ArUco dictionary"),
        ({"markers": {"centres": [[0, 0, 0]]}}, "exactly four markers"),
        ({"mat_bgr": [1, 2]}, "camera.mat_bgr"),
    ],
)
def test_bad_settings_name_the_key(raw: dict[str, object], words: str) -> None:
    with pytest.raises(ConfigError) as err:
        VisionSettings.from_mapping(raw)
    assert words in str(err.value)


def test_colour_ranges_wrap_through_red() -> None:
    red = ColourRange("red", 170, 7)
    hsv = np.array([[[175, 200, 200], [3, 200, 200], [90, 200, 200], [3, 60, 200]]], np.uint8)
    assert list(red.mask(hsv)[0]) == [255, 255, 0, 0]


def test_same_seed_same_picture_and_truth() -> None:
    a, b = make_scene("cubes", 11, "middle"), make_scene("cubes", 11, "middle")
    assert a == b
    assert np.array_equal(render(a), render(b))
    c = make_scene("cubes", 12, "middle")
    assert a != c


def test_cube_truth_adds_up_to_ten_cubes() -> None:
    sc = make_scene("cubes", 5, "hard")
    in_zones = sum(len(s["cubes"]) for s in sc.truth.states.values())
    assert len(sc.cubes) == 10 and in_zones <= 10
    assert all(cube.colour in ("red", "orange", "yellow", "green", "blue") for cube in sc.cubes)


def test_pyramid_truth_only_removes_exposed_cards() -> None:
    removed = 0
    for seed in range(5):
        states = make_scene("cards", seed, "easy").truth.states
        for name, state in states.items():
            row, i = (int(v) for v in name.split("-"))
            if not state["occupied"]:
                removed += 1
                if row < 6:  # a removed card was exposed: the two cards covering it went first
                    assert not states[f"{row + 1}-{i}"]["occupied"] and not states[f"{row + 1}-{i + 1}"]["occupied"]
            else:
                assert state["card"] is not None
    assert removed > 0
