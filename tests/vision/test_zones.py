"""Zone config: polygons checked with one clear message; rasters map table mm correctly."""

from __future__ import annotations

import numpy as np
import pytest

from companion.core import Zone
from companion.core import zones as kinds
from companion.core.errors import ConfigError
from companion.games.everest import table as everest
from companion.games.horrible_mountain_2 import table as hm2
from companion.games.the_mountain import table as mountain
from vision import zones as vision_zones
from vision.zones import check_zones, make_raster, parse_zones, warp_zone

KINDS = tuple({k.name: k for k in (*hm2.ZONE_KINDS, *everest.ZONE_KINDS, *mountain.ZONE_KINDS)}.values())


def load_zones(text: str) -> tuple[Zone, ...]:
    """The zones of ``text``, of the kinds the camera-watched games declare."""
    return vision_zones.load_zones(text, KINDS)

GOOD = """
[[zones]]
name = "slot-1"
kind = "table_slot"
index = 1
polygon = [[100, 200], [185, 200], [185, 310], [100, 310]]

[[zones]]
name = "grid"
kind = "grid"
polygon = [[178.4, 81.3], [381.6, 81.3], [381.6, 233.7], [178.4, 233.7]]

[[zones]]
name = "3-2"
kind = "pyramid_slot"
polygon = [[290, 262], [353, 262], [353, 174], [290, 174]]
"""


def test_good_zones_load_with_their_fields() -> None:
    zones = load_zones(GOOD)
    assert [z.name for z in zones] == ["slot-1", "grid", "3-2"]
    assert zones[0].kind == hm2.TABLE_SLOT and zones[0].kind.camera is kinds.Watch.CUBES and zones[0].index == 1
    assert zones[1].polygon[1] == (381.6, 81.3)


@pytest.mark.parametrize(
    "polygon, words",
    [
        ("[[0, 0], [10, 0]]", "at least 3 corners"),
        ('[[0, 0], [100, 0], ["a", 5]]', "polygon[2]"),
        ("[[0, 0], [100, 0], [100]]", "polygon[2]"),
        ("[[0, 0], [100, 100], [100, 0], [0, 100]]", "edges cross"),
        ("[[0, 0], [5, 0], [5, 5], [0, 5]]", "too small"),
        ('"square"', "list of [x, y] points"),
    ],
)
def test_malformed_polygon_is_one_clear_error(polygon: str, words: str) -> None:
    text = f'[[zones]]\nname = "pile-1"\nkind = "pile"\npolygon = {polygon}\n'
    with pytest.raises(ConfigError) as err:
        load_zones(text)
    assert "zones[0]" in str(err.value) and words in str(err.value)


def test_grid_corners_in_the_wrong_order_are_refused() -> None:
    text = '[[zones]]\nname = "grid"\nkind = "grid"\npolygon = [[0, 0], [0, 150], [200, 150], [200, 0]]\n'
    with pytest.raises(ConfigError, match="south-west, south-east, north-east, north-west"):
        load_zones(text)


def test_pyramid_slot_needs_an_r_i_name_and_card_corners() -> None:
    corners = "[[290, 262], [353, 262], [353, 174], [290, 174]]"
    with pytest.raises(ConfigError, match='named "r-i"'):
        load_zones(f'[[zones]]\nname = "top"\nkind = "pyramid_slot"\npolygon = {corners}\n')
    with pytest.raises(ConfigError, match='named "r-i"'):
        load_zones(f'[[zones]]\nname = "2-3"\nkind = "pyramid_slot"\npolygon = {corners}\n')
    mirrored = "[[290, 174], [353, 174], [353, 262], [290, 262]]"
    with pytest.raises(ConfigError, match="top-left, top-right"):
        load_zones(f'[[zones]]\nname = "2-1"\nkind = "pyramid_slot"\npolygon = {mirrored}\n')


def test_other_config_mistakes_name_the_key() -> None:
    with pytest.raises(ConfigError, match=r"zones\[0\]\.kind: 'pyle' is not a zone kind"):
        load_zones('[[zones]]\nname = "p"\nkind = "pyle"\n')
    with pytest.raises(ConfigError, match="unknown key 'colour'"):
        load_zones('[[zones]]\nname = "p"\nkind = "pile"\ncolour = "red"\n')
    with pytest.raises(ConfigError, match="used twice"):
        load_zones('[[zones]]\nname = "p"\nkind = "pile"\n[[zones]]\nname = "p"\nkind = "discard"\n')
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_zones("[[zones]\nname=")
    with pytest.raises(ConfigError, match="array of tables"):
        parse_zones({"name": "p"}, KINDS)


def test_check_zones_accepts_zones_without_polygons_and_checks_the_rest() -> None:
    nfc_only = Zone("hand-anna", kinds.HAND_PAD, player="anna", reader="array:1")
    bad = Zone("pile-1", kinds.PILE, polygon=((0, 0), (1, 0), (1, 1)))
    assert check_zones([nfc_only]) == (nfc_only,)
    with pytest.raises(ConfigError, match='zone "pile-1"'):
        check_zones([nfc_only, bad])


def test_raster_puts_table_points_where_expected() -> None:
    zone = Zone("pile-1", kinds.PILE, polygon=((100, 200), (180, 200), (180, 300), (100, 300)))
    raster = make_raster(zone, 2.0, pad_mm=5.0)
    assert (raster.width, raster.height) == (180, 220)
    u, v = raster.to_raster([(100, 300)])[0]
    assert (u, v) == (10.0, 10.0)  # north-west corner, 5 mm in from the padded box
    assert raster.to_table(10.0, 10.0) == (100.0, 300.0)
    assert raster.mask[110, 90] == 255 and raster.mask[2, 2] == 0


def test_warp_zone_samples_the_picture_through_the_calibration() -> None:
    # a picture whose pixel x is the table's x mm and y is 400 - the table's y mm
    image = np.zeros((400, 400, 3), np.uint8)
    image[100:120, 150:170] = 255  # table x 150..170, y 280..300
    table_from_image = np.array([[1.0, 0, 0], [0, -1.0, 400.0], [0, 0, 1.0]])
    zone = Zone("z", kinds.PILE, polygon=((140, 270), (180, 270), (180, 310), (140, 310)))
    roi = warp_zone(image, table_from_image, make_raster(zone, 1.0))
    assert roi.shape == (40, 40, 3)
    assert roi[15, 15, 0] == 255 and roi[35, 35, 0] == 0
