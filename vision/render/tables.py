"""Example tables: marker layouts and zones for each camera-watched game (also docs/vision.md's
examples). Sizes are real: cards 63 x 88 mm, Everest squares 25.4 mm (piecepack tiles are 2 x 2).

The zone kinds only a game uses are declared here as that game declares them (equal by name; a
test holds the two to the same camera watch): ``vision.sources`` opens this renderer, and nothing
under ``vision/`` loads a game."""

from __future__ import annotations

from dataclasses import dataclass

from companion.core import Zone, ZoneKind
from companion.core.zones import DISCARD, DRAW_PILE, HAND_PAD, PILE, Watch
from vision.calibration import MarkerLayout
from vision.render.scene import CARD_H_MM, CARD_W_MM, Point, TileItem

SLOT_W, SLOT_H = 77.0, 102.0  # a card slot: the card plus 7 mm all round for sloppy placing
EVEREST_SQUARE_MM = 25.4
PYRAMID_PITCH_X, PYRAMID_PITCH_Y = 70.0, 34.0

TAP_PAD = ZoneKind("tap_pad")  # Escape House
TABLE_SLOT = ZoneKind("table_slot", camera=Watch.CUBES)  # Horrible Mountain 2
CUBE_PILE = ZoneKind("cube_pile", camera=Watch.CUBES)  # Horrible Mountain 2
GRID = ZoneKind("grid", camera=Watch.PAWNS)  # Everest
PYRAMID_SLOT = ZoneKind("pyramid_slot", camera=Watch.CARD_FACE)  # The Mountain
KINDS = (PILE, HAND_PAD, DISCARD, DRAW_PILE, TAP_PAD, TABLE_SLOT, CUBE_PILE, GRID, PYRAMID_SLOT)
"""Every kind of zone these tables draw."""


@dataclass(frozen=True)
class Table:
    layout: MarkerLayout
    zones: tuple[Zone, ...]
    free_spots: tuple[Point, ...] = ()
    """Places off every zone where stray things lie (control cubes, a spare card)."""
    tiles: tuple[TileItem, ...] = ()


def rect(cx: float, cy: float, w: float, h: float) -> tuple[tuple[float, float], ...]:
    """Corners counter-clockwise from the south-west."""
    return ((cx - w / 2, cy - h / 2), (cx + w / 2, cy - h / 2), (cx + w / 2, cy + h / 2), (cx - w / 2, cy + h / 2))


def card_outline(cx: float, cy: float, w: float = CARD_W_MM, h: float = CARD_H_MM) -> tuple[tuple[float, float], ...]:
    """A card's corners top-left, top-right, bottom-right, bottom-left (its top to the north)."""
    return ((cx - w / 2, cy + h / 2), (cx + w / 2, cy + h / 2), (cx + w / 2, cy - h / 2), (cx - w / 2, cy - h / 2))


def zone_centre(zone: Zone) -> Point:
    xs = [p[0] for p in zone.polygon]
    ys = [p[1] for p in zone.polygon]
    return sum(xs) / len(xs), sum(ys) / len(ys)


def card_table() -> Table:
    """A card game's table (Escape Master style): four piles, draw and discard, pads per player."""
    layout = MarkerLayout.rectangle(960.0, 540.0)
    zones: list[Zone] = []
    for i in range(4):
        zones.append(Zone(f"pile-{i + 1}", PILE, index=i + 1, polygon=rect(300 + 120 * i, 300, SLOT_W, SLOT_H)))
    zones.append(Zone("draw", DRAW_PILE, polygon=rect(120, 300, SLOT_W, SLOT_H)))
    zones.append(Zone("discard", DISCARD, polygon=rect(840, 300, SLOT_W, SLOT_H)))
    for name, cx in (("anna", 230), ("ben", 480), ("cleo", 730)):
        zones.append(Zone(f"hand-{name}", HAND_PAD, player=name, polygon=rect(cx, 125, SLOT_W, SLOT_H)))
    zones.append(Zone("tap", TAP_PAD, polygon=rect(480, 455, SLOT_W, SLOT_H)))
    free = ((110, 455), (850, 455), (355, 125), (605, 125), (850, 125))
    return Table(layout, tuple(zones), free)


def hm2_table() -> Table:
    """Horrible Mountain 2: five Table Card slots, draw pile, discard and the cube pile."""
    layout = MarkerLayout.rectangle(800.0, 450.0)
    zones = [Zone(f"slot-{i + 1}", TABLE_SLOT, index=i + 1, polygon=rect(160 + 120 * i, 270, SLOT_W + 8, SLOT_H + 8)) for i in range(5)]
    zones.append(Zone("cube-pile", CUBE_PILE, polygon=rect(400, 110, 150, 100)))
    zones.append(Zone("draw", DRAW_PILE, polygon=rect(160, 110, SLOT_W, SLOT_H)))
    zones.append(Zone("discard", DISCARD, polygon=rect(640, 110, SLOT_W, SLOT_H)))
    free = ((270, 70), (280, 150), (530, 70), (520, 150), (90, 390), (710, 390))
    return Table(layout, tuple(zones), free)


EVEREST_TILES: tuple[tuple[int, int, int], ...] = (
    # (layer, x, y of the tile's south-west square), rules/GAPS.md
    *((1, x, 1) for x in (1, 3, 5, 7)),
    *((1, x, 3) for x in (2, 4, 6)),
    *((1, x, 5) for x in (1, 3, 5, 7)),
    *((2, x, y) for x in (2, 4, 6) for y in (2, 4)),
    *((3, x, y) for x in (3, 5) for y in (2, 4)),
    (4, 3, 3),
    (4, 5, 3),
    (5, 4, 3),
)
EVEREST_NOTCHES = frozenset({(1, 3), (1, 4), (8, 3), (8, 4)})


def everest_table() -> Table:
    """Everest: the 8 x 6 grid of piecepack tiles in the middle of a small table."""
    layout = MarkerLayout.rectangle(560.0, 315.0)
    sq = EVEREST_SQUARE_MM
    x0, y0 = 280 - 4 * sq, 157.5 - 3 * sq
    grid = Zone("grid", GRID, polygon=((x0, y0), (x0 + 8 * sq, y0), (x0 + 8 * sq, y0 + 6 * sq), (x0, y0 + 6 * sq)))
    tiles = tuple(TileItem((x0 + (x - 1) * sq, y0 + (y - 1) * sq), 2 * sq, layer) for layer, x, y in EVEREST_TILES)
    free = ((60, 60), (500, 60), (60, 255), (500, 255), (280, 28))
    return Table(layout, (grid,), free, tiles)


def square_centre(x: int, y: int) -> Point:
    """Table mm of Everest square (x, y) on :func:`everest_table`'s grid."""
    sq = EVEREST_SQUARE_MM
    return 280 - 4 * sq + (x - 0.5) * sq, 157.5 - 3 * sq + (y - 0.5) * sq


def pyramid_centre(row: int, i: int) -> Point:
    return 320 + (i - (row + 1) / 2) * PYRAMID_PITCH_X, 286 - PYRAMID_PITCH_Y * (row - 1)


def mountain_table() -> Table:
    """The Mountain: the 21-card pyramid (row 1 the peak, to the north), health, stock, discard."""
    layout = MarkerLayout.rectangle(640.0, 360.0)
    zones = [
        Zone(f"{row}-{i}", PYRAMID_SLOT, polygon=card_outline(*pyramid_centre(row, i)))
        for row in range(1, 7)
        for i in range(1, row + 1)
    ]
    zones.append(Zone("health", PILE, polygon=rect(55, 180, SLOT_W, SLOT_H)))
    zones.append(Zone("stock", DRAW_PILE, polygon=rect(585, 240, SLOT_W, SLOT_H)))
    zones.append(Zone("discard", DISCARD, polygon=rect(585, 110, SLOT_W, SLOT_H)))
    free = ((585, 335), (55, 300))
    return Table(layout, tuple(zones), free)
