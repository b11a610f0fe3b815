"""The runner's overhead camera: what the physical table shows, rendered as a camera takes it, read
by the real vision pipeline (:class:`vision.pipeline.VisionPipeline`, the per-frame ``process`` its
loop runs in the table service), its settled views handed to the session like the readers' readings.

    camera = CameraRig(zones, players, sink, fast=True)   # the layout's outlined zones are watched
    table.apply(Pawns("grid", {"anna": (2, 5)}))           # the physical table changes
    shown = camera.show(table)                             # frames until every change has settled
    shown.changed, shown.settled                            # the zones whose view changed; their settled views

Every zone of the layout with an outline is watched. The four markers lie at the corners of the
smallest rectangle (from marker 0 at the origin) that holds every outline with room to spare, and the
camera looks down on them as ``vision/render/scenes.py``'s easy level does (a little tilt, blur and
noise). Cards lie at their zone's centre (a stack's top card shows), face up (a playing card with its
face; any other card as a plain pale face) or face down; cubes lie in a grid in their zone (22 mm
apart: n cubes take rows of int(sqrt(n)) + 1); a pawn stands on its square of a grid zone, drawn over
Everest's mountain of tiles. Each is set down by hand: up to 2 mm off and 2 degrees turned, the same
each time the same thing is set in the same place.

What the camera should settle on for each zone follows from the physical table (:meth:`CameraRig.expected`):
only zones whose expected view changed are waited for (a card put on a card already there changes
no occupancy, so no view settles). The pipeline reports a view once it has held ``settle_s``
(``settle_remove_s`` when it takes something away), on the frames' clock. At table speed the camera
takes ``FPS`` frames a second on the wall clock (a hand reaching in first, then the table as it now
is). ``fast`` renders only the frames the pipeline needs: the new table once, then again when the
settle time has passed on a simulated clock that runs on from the camera's last frame, never
sleeping. That clock runs ahead of the table's (the wall clock) by the settle times skipped, so each
settled view is stamped back on the table's clock (the moment the change was shown, plus how long
into the change its view began): a camera's view and a reader's reading of the same moment carry the
same time. :attr:`Shown.settle_s` is how long (camera time) the slowest view took to settle.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import random
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from companion.core import Observation, Zone
from companion.core.seen import CardFace, Cubes, Occupancy, Pawns, ZoneView
from companion.core.zones import Watch
from companion.demo.physical import Lying, PhysicalTable, PlanError
from vision.calibration import MarkerLayout
from vision.detectors.glyphs import RANKS, SUITS
from vision.detectors.pawns import COLUMNS, ROWS
from vision.frame import Frame, Image
from vision.pipeline import VisionPipeline
from vision.render.camera import render
from vision.render.scene import CardItem, CubeItem, HandItem, PawnItem, Point, Scene, TileItem
from vision.render.scenes import LEVELS, PAWN_COLOURS, camera_view
from vision.render.tables import EVEREST_TILES
from vision.settings import VisionSettings
from vision.stability import is_removal, vision_seen

log = logging.getLogger(__name__)

SOURCE = "camera"
FPS = 10.0
"""Frames a second the camera takes at table speed (a Pi camera at 1280x720 gives 15 to 30)."""
MARGIN_MM = 100.0
"""Room between the outermost outline and the marker centres."""
CLEAR_MM = 48.0
"""Outlines keep out of the square this far round marker 0's centre (its paper lies there)."""
HAND_FRAMES = 3
"""Frames a hand shows over a zone while it changes (at table speed)."""
PALE_FACE = (205, 212, 216)
"""A face-up card that is not a playing card, drawn as a plain pale face."""
CUBE_PITCH_MM = 22.0
"""Cubes lie this far apart, 10 mm between 12 mm cubes (at 18 mm, 2 mm apart after placing by
hand, the detector counted a zone of six cubes as seven)."""
LEVEL = LEVELS["easy"]
"""The camera and the hands as ``vision/render/scenes.py``'s easy level has them: a little tilt, blur
and noise; things set down up to 2 mm and 2 degrees off."""
_PLAYING_CARD = re.compile(rf"^({'|'.join(RANKS)})({'|'.join(SUITS)})$")


def marker_layout(zones: Sequence[Zone]) -> MarkerLayout:
    """Markers at the corners of the rectangle that holds every outline, MARGIN_MM to spare."""
    for zone in zones:
        if min(x for x, _ in zone.polygon) < CLEAR_MM and min(y for _, y in zone.polygon) < CLEAR_MM:
            raise PlanError(f"zone {zone.name}: its outline reaches marker 0's paper (within {CLEAR_MM:.0f} mm of the origin both ways); move it north or east")
    xs = [x for z in zones for x, _ in z.polygon]
    ys = [y for z in zones for _, y in z.polygon]
    return MarkerLayout.rectangle(max(xs) + MARGIN_MM, max(ys) + MARGIN_MM)


def centre(zone: Zone) -> Point:
    xs = [p[0] for p in zone.polygon]
    ys = [p[1] for p in zone.polygon]
    return sum(xs) / len(xs), sum(ys) / len(ys)


def grid_point(zone: Zone, u: float, v: float) -> Point:
    """Table mm of the point (u, v) in squares from a grid zone's south-west corner (outline: its
    corners south-west, south-east, north-east, north-west)."""
    (swx, swy), (sex, sey), (nex, ney), (nwx, nwy) = zone.polygon
    u, v = u / COLUMNS, v / ROWS
    x = (1 - u) * (1 - v) * swx + u * (1 - v) * sex + u * v * nex + (1 - u) * v * nwx
    y = (1 - u) * (1 - v) * swy + u * (1 - v) * sey + u * v * ney + (1 - u) * v * nwy
    return x, y


def square_point(zone: Zone, square: tuple[int, int]) -> Point:
    """Table mm of the middle of square (x, y) (1..8 west to east, 1..6 south to north)."""
    return grid_point(zone, square[0] - 0.5, square[1] - 0.5)


def _tiles(zone: Zone) -> tuple[TileItem, ...]:
    """Everest's mountain of piecepack tiles on a grid zone (the board the pawns stand on)."""
    (swx, _), (sex, _), _, _ = zone.polygon
    side = 2 * (sex - swx) / COLUMNS
    return tuple(TileItem(grid_point(zone, x - 1, y - 1), side, layer) for layer, x, y in EVEREST_TILES)


def _by_hand(at: Point, *what: object) -> tuple[Point, float]:
    """Where a hand sets a thing meant for ``at``: a little off, a little turned (``LEVEL``'s
    placing), the same each time the same thing is set there."""
    rng = random.Random(":".join(map(str, what)))
    d = LEVEL.place_mm
    return (at[0] + rng.uniform(-d, d), at[1] + rng.uniform(-d, d)), rng.uniform(-LEVEL.place_deg, LEVEL.place_deg)


def _card(zone: Zone, lying: Lying) -> CardItem:
    at, angle = _by_hand(centre(zone), zone.name, lying.card)
    if not lying.face_up:
        return CardItem(at, None, angle)
    if _PLAYING_CARD.match(lying.card):
        return CardItem(at, lying.card, angle)
    return CardItem(at, None, angle, back=PALE_FACE)


@dataclass(frozen=True)
class Shown:
    """What one :meth:`CameraRig.show` did: the zones whose view changed, the views that settled
    (each also handed to the sink, stamped on the table's clock), the frames taken, and how long
    (camera time) the slowest view took to settle from the moment the change was shown."""

    changed: tuple[str, ...] = ()
    settled: tuple[Observation, ...] = ()
    frames: int = 0
    settle_s: float = 0.0
    began: float = 0.0
    """The camera's clock at the first frame (at table speed the wall clock: the frames are taken on it)."""
    views: Mapping[str, ZoneView] = field(default_factory=dict)
    """The view each changed zone should settle on (what the physical table shows)."""

    @property
    def unsettled(self) -> tuple[str, ...]:
        """Changed zones with no settled view."""
        done = {str(o.payload["zone"]) for o in self.settled}
        return tuple(z for z in self.changed if z not in done)

    def misseen(self) -> list[str]:
        """Each settled view that is not what the table shows (a face the camera could not read is
        no mistake: it says so)."""
        out = []
        for observation in self.settled:
            seen = vision_seen(observation)
            want = self.views.get(seen.zone.name)
            got = seen.view
            if isinstance(got, CardFace) and isinstance(want, CardFace) and got.card is None:
                want = CardFace(want.occupied, None)
            if isinstance(got, Pawns) and isinstance(want, Pawns):
                same = dict(got.squares) == dict(want.squares) and not got.unseen
            else:
                same = got == want
            if not same:
                out.append(f"the camera saw {seen.zone.name} as {got.to_json()}, the table shows {want.to_json() if want else 'nothing'}")
        return out


class CameraRig:
    """The camera over the layout's outlined zones, feeding the pipeline's settled views to ``sink``."""

    def __init__(
        self,
        zones: Sequence[Zone],
        players: Sequence[str],
        sink: Callable[[Observation], object],
        *,
        fast: bool,
        hand: bool | None = None,
        seed: int = 0,
        settings: VisionSettings | None = None,
    ) -> None:
        self.zones = tuple(z for z in zones if z.polygon)
        if not self.zones:
            raise PlanError("the camera watches no zone: none has an outline")
        self.layout = marker_layout(self.zones)
        self.settings = dataclasses.replace(settings or VisionSettings(), markers=self.layout)
        if len(players) > len(PAWN_COLOURS) and any(z.kind.camera is Watch.PAWNS for z in self.zones):
            raise PlanError(f"{len(players)} players: the camera knows {len(PAWN_COLOURS)} pawn colours")
        self.colour_of = {player: colour for player, colour in zip(players, PAWN_COLOURS)}
        self.pipeline = VisionPipeline(_NoFrames(), self.zones, self.settings, {c: p for p, c in self.colour_of.items()})
        self.view = camera_view(np.random.default_rng(seed), self.layout, LEVEL)
        self.tiles = tuple(t for z in self.zones if z.kind.camera is Watch.PAWNS for t in _tiles(z))
        self.cube_order = {c.name: k for k, c in enumerate(self.settings.cube_colours)}
        self.sink = sink
        self.fast = fast
        self.hand = (not fast) if hand is None else hand
        self.frames = 0
        self._t: float | None = None
        """The time of the camera's last frame (its own clock)."""
        self._views: dict[str, ZoneView] = {}
        """What each zone last showed (the views the pipeline has been shown)."""

    # -- what the table shows -------------------------------------------------------------------

    def watches(self, zone: str) -> bool:
        return any(z.name == zone for z in self.zones)

    def expected(self, table: PhysicalTable) -> dict[str, ZoneView]:
        """The view a perfect camera settles on for each watched zone."""
        out: dict[str, ZoneView] = {}
        for zone in self.zones:
            watch = zone.kind.camera
            if watch is Watch.CUBES:
                colours = sorted(table.cubes.get(zone.name, ()), key=lambda c: (self.cube_order.get(c, len(self.cube_order)), c))
                out[zone.name] = Cubes(tuple(colours))
            elif watch is Watch.PAWNS:
                out[zone.name] = Pawns(dict(sorted(table.pawns.get(zone.name, {}).items())))
            elif watch is Watch.CARD_FACE:
                top = table.on(zone.name)[-1:] if table.on(zone.name) else ()
                face = top[0].card if top and top[0].face_up and _PLAYING_CARD.match(top[0].card) else None
                out[zone.name] = CardFace(bool(top), face)
            else:
                out[zone.name] = Occupancy(bool(table.on(zone.name)))
        return out

    def scene(self, table: PhysicalTable, hand_over: Zone | None = None) -> Scene:
        cards: list[CardItem] = []
        cubes: list[CubeItem] = []
        pawns: list[PawnItem] = []
        for zone in self.zones:
            at = centre(zone)
            cards += [_card(zone, lying) for lying in table.on(zone.name)]
            colours = table.cubes.get(zone.name, ())
            per_row = max(1, int(math.sqrt(len(colours))) + 1)
            rows = (len(colours) + per_row - 1) // per_row
            for i, colour in enumerate(colours):
                row, col = divmod(i, per_row)
                x = at[0] + (col - (per_row - 1) / 2) * CUBE_PITCH_MM
                y = at[1] + (row - (rows - 1) / 2) * CUBE_PITCH_MM
                cubes.append(CubeItem(colour, *_by_hand((x, y), zone.name, i, colour)))
            for player, square in sorted(table.pawns.get(zone.name, {}).items()):
                pawn = self.colour_of.get(player)
                if pawn is None:
                    raise PlanError(f"a pawn of {player}, who is not playing (the camera knows the pawns of {', '.join(self.colour_of)})")
                pawns.append(PawnItem(pawn, _by_hand(square_point(zone, square), player, square)[0]))
        hand = None
        if hand_over is not None:
            x, y = centre(hand_over)
            hand = HandItem((x, y - 150.0), 90.0)  # reaching in from the south, fingertips at the zone
        return Scene(self.layout, self.zones, self.view, tiles=self.tiles, cards=tuple(cards), cubes=tuple(cubes),
                     pawns=tuple(pawns), hand=hand)

    # -- frames -------------------------------------------------------------------------------------

    def show(self, table: PhysicalTable) -> Shown:
        """Show the table as it is now until every changed view has settled (the first call: the
        table as laid). Nothing changed: no frames."""
        now = self.expected(table)
        first_look = not self._views
        changed = tuple(name for name, view in now.items() if first_look or self._views.get(name) != view)
        if not changed:
            return Shown()
        removal = any(is_removal(self._views.get(name), now[name]) for name in changed)
        self._views = now
        wait = self.settings.settle_remove_s if removal else self.settings.settle_s
        image = render(self.scene(table))
        images: list[Image] = []
        if self.hand and not first_look:
            over = next(z for z in self.zones if z.name == changed[0])
            images += [render(self.scene(table, hand_over=over))] * HAND_FRAMES
        wall = time.time()
        start = wall if self._t is None else max(wall, self._t + 1.0 / FPS)
        if self.fast:
            # the pipeline needs the new table seen, then seen again once the settle time has passed
            times = [start + k / FPS for k in range(len(images) + 1)]
            times.append(times[-1] + wait + 1.0 / FPS)
            images += [image, image]
        else:
            images += [image] * (int(math.ceil(wait * FPS)) + 2)
            times = [start + k / FPS for k in range(len(images))]
        settled = self._feed(images, times, start - wall)
        done = {str(o.payload["zone"]): o for o, _ in settled}
        took = max((t - start for _, t in settled), default=0.0)
        for name in changed:
            if name not in done:
                log.warning("the camera's view of %s did not settle on %s", name, now[name])
        return Shown(changed, tuple(o for o, _ in settled), len(images), took, start, {name: now[name] for name in changed})

    def _feed(self, images: Sequence[Image], times: Sequence[float], ahead: float) -> list[tuple[Observation, float]]:
        """The pipeline reads each frame; each view that settles goes to the sink, stamped back on the
        table's clock (``ahead``: how far the camera's clock is ahead of it). With each view, the
        frame time (camera clock) it settled at."""
        out: list[tuple[Observation, float]] = []
        for image, t in zip(images, times):
            if not self.fast:
                wait = t - time.time()
                if wait > 0:
                    time.sleep(wait)
            self.frames += 1
            for observation in self.pipeline.process(Frame(image, t, self.frames)):
                stamped = dataclasses.replace(observation, table_time=observation.table_time - ahead)
                out.append((stamped, t))
                self.sink(stamped)
            self._t = t
        return out

    def health(self) -> Mapping[str, object]:
        return self.pipeline.health().to_json()


class _NoFrames:
    """The pipeline's frame source, never read: the runner hands it each frame (``process``)."""

    name = "runner"

    def open(self) -> None:
        pass

    def read(self) -> Frame | None:
        return None

    def close(self) -> None:
        pass
