"""Random scenes with exact ground truth, one kind per detector, at three difficulty levels.

Every draw comes from the ``numpy.random.Generator`` passed in, so a seed gives the same scene.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from companion.core import JsonValue, Zone, ZoneKind
from companion.core.zones import DISCARD, DRAW_PILE
from vision.calibration import MarkerLayout
from vision.detectors.glyphs import RANKS, SUITS
from vision.frame import Image
from vision.render import tables
from vision.render.draw import Canvas, hand_mask
from vision.render.scene import CameraView, CardItem, CubeItem, HandItem, Lighting, PawnItem, Point, Scene, Truth

CUBE_COLOURS = ("red", "orange", "yellow", "green", "blue")
PAWN_COLOURS = ("red", "yellow", "green", "blue")
BACKS = ((150, 60, 40), (40, 40, 150), (60, 110, 40))
SKINS = ((150, 175, 215), (125, 155, 205), (105, 135, 185), (80, 110, 150))


@dataclass(frozen=True)
class Difficulty:
    name: str
    perspective: float
    """Each marker's spot in the picture moves up to this fraction of the picture size."""
    rotation_deg: float
    blur: tuple[float, float]
    noise: tuple[float, float]
    light_low: tuple[float, float]
    vignette: float
    shadows: int
    shadow_through: tuple[float, float]
    hand_chance: float
    place_mm: float
    place_deg: float


LEVELS: dict[str, Difficulty] = {
    "easy": Difficulty("easy", 0.02, 2, (0.3, 0.6), (1, 3), (0.85, 1.0), 0.05, 0, (1, 1), 0.0, 2, 2),
    "middle": Difficulty("middle", 0.05, 5, (0.6, 1.1), (3, 6), (0.55, 0.8), 0.15, 1, (0.55, 0.75), 0.5, 4, 5),
    "hard": Difficulty("hard", 0.08, 9, (1.0, 1.7), (6, 10), (0.4, 0.6), 0.25, 2, (0.45, 0.65), 0.9, 6, 9),
}


def _u(rng: np.random.Generator, lo: float, hi: float) -> float:
    return float(rng.uniform(lo, hi))


def camera_view(rng: np.random.Generator, layout: MarkerLayout, level: Difficulty, size: tuple[int, int] = (1280, 720)) -> CameraView:
    """A camera looking down, tilted and turned a little, every marker (with its paper) in view."""
    w, h = size
    xs = [c[1] for c in layout.centres]
    ys = [c[2] for c in layout.centres]
    cx_t, cy_t = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    reach = layout.size_mm * 0.75 + 10
    span_x, span_y = max(xs) - min(xs) + 2 * reach, max(ys) - min(ys) + 2 * reach
    angle = math.radians(_u(rng, -level.rotation_deg, level.rotation_deg))
    jitter = rng.uniform(-level.perspective, level.perspective, (4, 2)) * np.array([w, h])
    shift = rng.uniform(-0.3, 0.3, 2) * level.perspective * np.array([w, h])
    scale = min((w - 40) / span_x, (h - 40) / span_y)
    base = []
    for k, (_, x, y) in enumerate(layout.centres):
        dx, dy = (x - cx_t) * scale, -(y - cy_t) * scale
        rx = dx * math.cos(angle) - dy * math.sin(angle)
        ry = dx * math.sin(angle) + dy * math.cos(angle)
        base.append((rx + jitter[k, 0] + shift[0], ry + jitter[k, 1] + shift[1]))
    shrink = 1.0
    for _ in range(40):  # zoom out (about the picture's centre) until every marker is in view
        pts = [(w / 2 + bx * shrink, h / 2 + by * shrink) for bx, by in base]
        if _markers_in_view(layout, pts, size, reach):
            break
        shrink *= 0.98
    blur = _u(rng, *level.blur)
    noise = _u(rng, *level.noise)
    corners = (pts[0], pts[1], pts[2], pts[3])
    return CameraView(corners, size, blur, noise, int(rng.integers(0, 2**31)))


def _markers_in_view(layout: MarkerLayout, pts: list[Point], size: tuple[int, int], reach: float) -> bool:
    src = np.array([(x, y) for _, x, y in layout.centres], np.float32)
    hmat = cv2.getPerspectiveTransform(src, np.array(pts, np.float32))
    corners = [(x + dx, y + dy) for _, x, y in layout.centres for dx in (-reach, reach) for dy in (-reach, reach)]
    proj = cv2.perspectiveTransform(np.array(corners, np.float64).reshape(-1, 1, 2), hmat).reshape(-1, 2)
    margin = 6
    return bool(np.all(proj[:, 0] > margin) and np.all(proj[:, 0] < size[0] - margin) and np.all(proj[:, 1] > margin) and np.all(proj[:, 1] < size[1] - margin))


def lighting(rng: np.random.Generator, layout: MarkerLayout, level: Difficulty) -> Lighting:
    shadows = []
    xs = [c[1] for c in layout.centres]
    ys = [c[2] for c in layout.centres]
    for _ in range(level.shadows):
        cx, cy = _u(rng, min(xs), max(xs)), _u(rng, min(ys), max(ys))
        n = int(rng.integers(3, 7))
        r = _u(rng, 60, 180)
        angles = np.sort(rng.uniform(0, 2 * math.pi, n))
        poly = tuple((cx + r * math.cos(a) * _u(rng, 0.5, 1.0), cy + r * math.sin(a) * _u(rng, 0.5, 1.0)) for a in angles)
        shadows.append((poly, _u(rng, *level.shadow_through)))
    return Lighting(_u(rng, *level.light_low), _u(rng, 0, 360), level.vignette, tuple(shadows))


def maybe_hand(rng: np.random.Generator, table: tables.Table, level: Difficulty) -> HandItem | None:
    if rng.random() >= level.hand_chance:
        return None
    xs = [c[1] for c in table.layout.centres]
    ys = [c[2] for c in table.layout.centres]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    if table.zones and rng.random() < 0.7:  # mostly reaching for something: near a zone
        cx, cy = tables.zone_centre(table.zones[int(rng.integers(0, len(table.zones)))])
        tx, ty = cx + _u(rng, -70, 70), cy + _u(rng, -70, 70)
    else:
        tx, ty = _u(rng, x0 + 0.15 * (x1 - x0), x1 - 0.15 * (x1 - x0)), _u(rng, y0 + 0.15 * (y1 - y0), y1 - 0.15 * (y1 - y0))
    side = int(rng.integers(0, 4))  # reaching in from the south, east, north or west edge
    direction = (90.0, 180.0, 270.0, 0.0)[side] + _u(rng, -25, 25)
    scale = _u(rng, 0.85, 1.1)
    reach = 150 * scale  # wrist to fingertips
    a = math.radians(direction)
    wrist = (tx - reach * math.cos(a), ty - reach * math.sin(a))
    return HandItem(wrist, direction, scale, SKINS[int(rng.integers(0, len(SKINS)))])


@dataclass(frozen=True)
class HandCover:
    """Answers "how much of this is under the hand?" in table mm (1 px per mm)."""

    canvas: Canvas
    mask: Image | None

    @classmethod
    def of(cls, layout: MarkerLayout, hand: HandItem | None) -> "HandCover":
        canvas = Canvas.around(layout, 1.0)
        return cls(canvas, None if hand is None else hand_mask(canvas, hand))

    def fraction(self, polygon: Sequence[Point]) -> float:
        if self.mask is None:
            return 0.0
        area = np.zeros_like(self.mask)
        cv2.fillPoly(area, [np.round(self.canvas.px(polygon)).astype(np.int32)], 255)
        inside = int(np.count_nonzero(area))
        return 0.0 if inside == 0 else float(np.count_nonzero(area & self.mask)) / inside

    def disc(self, centre: Point, radius: float) -> float:
        return self.fraction([(centre[0] + radius * math.cos(t), centre[1] + radius * math.sin(t)) for t in np.linspace(0, 2 * math.pi, 16, endpoint=False)])


def _base(rng: np.random.Generator, table: tables.Table, level: Difficulty) -> tuple[CameraView, Lighting, HandItem | None, HandCover]:
    cam = camera_view(rng, table.layout, level)
    light = lighting(rng, table.layout, level)
    hand = maybe_hand(rng, table, level)
    return cam, light, hand, HandCover.of(table.layout, hand)


def _jitter(rng: np.random.Generator, centre: Point, level: Difficulty, scale: float = 1.0) -> tuple[Point, float]:
    d = level.place_mm * scale
    return (centre[0] + _u(rng, -d, d), centre[1] + _u(rng, -d, d)), _u(rng, -level.place_deg, level.place_deg)


def random_face(rng: np.random.Generator, ranks: Sequence[str] = RANKS) -> str:
    return str(ranks[int(rng.integers(0, len(ranks)))]) + SUITS[int(rng.integers(0, 4))]


def occupancy_scene(rng: np.random.Generator, level: Difficulty) -> Scene:
    """The card table: each zone empty, or holding a card face up or face down, plus stray cards."""
    table = tables.card_table()
    cam, light, hand, cover = _base(rng, table, level)
    cards, states, hidden = [], {}, set()
    for zone in table.zones:
        occupied = bool(rng.random() < 0.5)
        if occupied:
            centre, angle = _jitter(rng, tables.zone_centre(zone), level)
            face = None if rng.random() < 0.4 else random_face(rng)
            cards.append(CardItem(centre, face, angle, BACKS[int(rng.integers(0, 3))]))
        states[zone.name] = {"occupied": occupied}
        if cover.fraction(zone.polygon) > 0.2:
            hidden.add(zone.name)
    for spot in table.free_spots:
        if rng.random() < 0.3:
            centre, angle = _jitter(rng, spot, level)
            cards.append(CardItem(centre, random_face(rng), angle))
    return Scene(table.layout, table.zones, cam, light, cards=tuple(cards), hand=hand, truth=Truth(states, frozenset(hidden)))


def _scatter(rng: np.random.Generator, zone_poly: Sequence[Point], n: int, inset: float, spacing: float) -> list[Point]:
    xs = [p[0] for p in zone_poly]
    ys = [p[1] for p in zone_poly]
    out: list[Point] = []
    for _ in range(400):
        if len(out) == n:
            break
        p = (_u(rng, min(xs) + inset, max(xs) - inset), _u(rng, min(ys) + inset, max(ys) - inset))
        if all(math.hypot(p[0] - q[0], p[1] - q[1]) >= spacing for q in out):
            out.append(p)
    return out


def cube_scene(rng: np.random.Generator, level: Difficulty, cube_mm: float = 12.0) -> Scene:
    """Horrible Mountain 2: Table Cards with 0..3 cubes each, the cube pile, control cubes aside."""
    table = tables.hm2_table()
    cam, light, hand, cover = _base(rng, table, level)
    cube_zones = [z for z in table.zones if z.kind in (tables.TABLE_SLOT, tables.CUBE_PILE)]
    slots = [z for z in cube_zones if z.kind == tables.TABLE_SLOT]
    cards = []
    for zone in slots:
        centre, angle = _jitter(rng, tables.zone_centre(zone), level)
        cards.append(CardItem(centre, random_face(rng, ("2", "3", "4", "5", "6")), angle))
    for zone in table.zones:
        if zone.kind in (DRAW_PILE, DISCARD) and rng.random() < 0.7:
            centre, angle = _jitter(rng, tables.zone_centre(zone), level)
            cards.append(CardItem(centre, None if zone.kind == DRAW_PILE else random_face(rng, ("2", "3", "4", "5", "6")), angle))
    where: dict[str, list[str]] = {z.name: [] for z in cube_zones}
    loose: list[str] = []
    for colour in CUBE_COLOURS:
        for _ in range(2):
            pick = rng.random()
            if pick < 0.5:
                target = slots[int(rng.integers(0, len(slots)))].name
                (where[target] if len(where[target]) < 3 else loose).append(colour)
            elif pick < 0.8:
                where["cube-pile"].append(colour)
            else:
                loose.append(colour)
    cubes: list[CubeItem] = []
    states: dict[str, Mapping[str, JsonValue]] = {}
    hidden = set()
    for zone in cube_zones:
        colours = where[zone.name]
        inset = 16.0 if zone.kind == tables.TABLE_SLOT else 12.0
        spots = _scatter(rng, zone.polygon, len(colours), inset, cube_mm * 1.55)
        placed = []
        for colour, spot in zip(colours, spots):
            cubes.append(CubeItem(colour, spot, _u(rng, 0, 90), cube_mm))
            placed.append(colour)
            if cover.disc(spot, cube_mm * 0.6) > 0.3:
                hidden.add(zone.name)
        states[zone.name] = {"cubes": sorted(placed, key=CUBE_COLOURS.index)}
        if cover.fraction(zone.polygon) > 0.2:
            hidden.add(zone.name)
    for colour in loose:
        spot = table.free_spots[int(rng.integers(0, len(table.free_spots)))]
        centre, _ = _jitter(rng, spot, level, 3.0)
        cubes.append(CubeItem(colour, centre, _u(rng, 0, 90), cube_mm))
    return Scene(
        table.layout, tuple(cube_zones), cam, light, cards=tuple(cards), cubes=tuple(cubes), hand=hand, truth=Truth(states, frozenset(hidden))
    )


def pawn_scene(rng: np.random.Generator, level: Difficulty, colours: Sequence[str] = PAWN_COLOURS) -> Scene:
    """Everest: a pawn per colour on a random square (now and then one off the board)."""
    table = tables.everest_table()
    cam, light, hand, cover = _base(rng, table, level)
    squares = [(x, y) for x in range(1, 9) for y in range(1, 7) if (x, y) not in tables.EVEREST_NOTCHES]
    picks = rng.choice(len(squares), len(colours), replace=False)
    pawns: list[PawnItem] = []
    truth_sq: dict[str, tuple[int, int] | None] = {}
    hidden: set[str] = set()
    off = int(rng.integers(0, len(colours))) if rng.random() < 0.15 else -1
    jitter = min(7.0, 1.5 * level.place_mm)
    for k, colour in enumerate(colours):
        if k == off:
            spot = table.free_spots[int(rng.integers(0, len(table.free_spots)))]
            centre: Point = (spot[0] + _u(rng, -5, 5), spot[1] + _u(rng, -5, 5))
            truth_sq[colour] = None
        else:
            x, y = squares[int(picks[k])]
            cx, cy = tables.square_centre(x, y)
            centre = (cx + _u(rng, -jitter, jitter), cy + _u(rng, -jitter, jitter))
            truth_sq[colour] = (x, y)
        pawns.append(PawnItem(colour, centre))
        if cover.disc(centre, 9.0) > 0.3:
            hidden.add(colour)
    state = {"pawns": {c: list(sq) for c, sq in truth_sq.items() if sq is not None}}
    grid_hidden = frozenset({"grid"}) if cover.fraction(table.zones[0].polygon) > 0.5 else frozenset()
    truth = Truth({"grid": state}, grid_hidden, hidden_pawns=frozenset(hidden), pawn_squares=truth_sq)
    return Scene(table.layout, table.zones, cam, light, tiles=table.tiles, pawns=tuple(pawns), hand=hand, truth=truth)


def _covering(row: int, i: int) -> tuple[tuple[int, int], ...]:
    return ((row + 1, i), (row + 1, i + 1)) if row < 6 else ()


def pyramid_scene(rng: np.random.Generator, level: Difficulty) -> Scene:
    """The Mountain: the pyramid with some exposed cards already removed, and the three piles."""
    table = tables.mountain_table()
    cam, light, hand, cover = _base(rng, table, level)
    threats = [r + s for r in ("J", "Q", "K") for s in SUITS]
    others = [r + s for r in RANKS[:10] for s in SUITS]
    picks = rng.choice(len(others), 9, replace=False)
    deck = threats + [others[int(k)] for k in picks]
    order = rng.permutation(len(deck))
    positions = [(r, i) for r in range(1, 7) for i in range(1, r + 1)]
    faces = {pos: deck[int(order[k])] for k, pos in enumerate(positions)}
    present = set(positions)
    for _ in range(int(rng.integers(0, 16))):
        exposed = sorted(p for p in present if not any(c in present for c in _covering(*p)))
        present.discard(exposed[int(rng.integers(0, len(exposed)))])
    cards = []
    for pos in positions:
        if pos in present:
            centre, angle = _jitter(rng, tables.pyramid_centre(*pos), level, 0.6)
            cards.append(CardItem(centre, faces[pos], angle * 0.5))
    for zone in table.zones:
        if zone.kind != tables.PYRAMID_SLOT and rng.random() < 0.8:
            centre, angle = _jitter(rng, tables.zone_centre(zone), level)
            cards.append(CardItem(centre, None if zone.kind == DRAW_PILE else random_face(rng), angle))
    states: dict[str, Mapping[str, JsonValue]] = {}
    hidden, hidden_faces = set(), set()
    for zone in table.zones:
        if zone.kind != tables.PYRAMID_SLOT:
            continue
        row, i = zone.name.split("-")  # the tables name each pyramid slot "r-i"
        pos = (int(row), int(i))
        occupied = pos in present
        states[zone.name] = {"occupied": occupied, "card": faces[pos] if occupied else None}
        (tlx, tly), (trx, _), _, _ = zone.polygon
        strip = ((tlx, tly), (trx, tly), (trx, tly - tables.PYRAMID_PITCH_Y), (tlx, tly - tables.PYRAMID_PITCH_Y))
        index = ((tlx, tly), (tlx + 18, tly), (tlx + 18, tly - 30), (tlx, tly - 30))
        if cover.fraction(index) > 0.02:
            # the index is what tells a card from the cards it covered: hidden index, hidden slot
            hidden_faces.add(zone.name)
            hidden.add(zone.name)
        if cover.fraction(strip) > 0.2:
            hidden.add(zone.name)
    return Scene(
        table.layout, table.zones, cam, light, cards=tuple(cards), hand=hand, truth=Truth(states, frozenset(hidden), frozenset(hidden_faces))
    )


SCENE_KINDS = {"occupancy": occupancy_scene, "cubes": cube_scene, "pawns": pawn_scene, "cards": pyramid_scene}


def make_scene(kind: str, seed: int, level: str = "middle") -> Scene:
    """The scene ``seed`` of ``kind`` (occupancy, cubes, pawns, cards) at ``level``."""
    rng = np.random.default_rng([seed, list(SCENE_KINDS).index(kind), list(LEVELS).index(level)])
    return SCENE_KINDS[kind](rng, LEVELS[level])


def without_hand(scene: Scene) -> Scene:
    return replace(scene, hand=None)


def zones_of(scene: Scene, kinds: Sequence[ZoneKind]) -> tuple[Zone, ...]:
    return tuple(z for z in scene.zones if z.kind in kinds)
