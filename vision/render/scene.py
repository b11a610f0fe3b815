"""What a rendered scene holds: the table, the things on it, the camera and light, and the truth.

All positions are table millimetres (x east, y north). A :class:`Scene` renders to the same
picture every time (its noise has its own seed), and :class:`Truth` is what a perfect detector
would report, zone by zone, plus what the hand hides (those are not scored).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from typing import TYPE_CHECKING

from companion.core import JsonValue, Zone
from vision.calibration import MarkerLayout

if TYPE_CHECKING:
    from vision.render.decks import Deck
    from vision.render.surfaces import Surface

Point = tuple[float, float]

CARD_W_MM = 63.0
CARD_H_MM = 88.0


@dataclass(frozen=True)
class CardItem:
    """A card lying flat. ``face`` is ``"QS"`` etc.; None shows the back. ``angle`` is degrees
    counter-clockwise seen from above; at 0 the card's top points north."""

    centre: Point
    face: str | None
    angle: float = 0.0
    back: tuple[int, int, int] = (150, 60, 40)
    size: tuple[float, float] = (CARD_W_MM, CARD_H_MM)
    deck: Deck | None = None
    """The deck it is from (:mod:`vision.render.decks`); None: the renderer's own faces."""


@dataclass(frozen=True)
class CubeItem:
    colour: str
    centre: Point
    angle: float = 0.0
    size_mm: float = 12.0
    bgr: tuple[int, int, int] | None = None
    """The cube's own shade, when it is not the usual one for its colour (real sets differ)."""


@dataclass(frozen=True)
class PawnItem:
    colour: str
    centre: Point
    diameter_mm: float = 18.0


@dataclass(frozen=True)
class TileItem:
    """A piecepack tile (2 x 2 squares) of the Everest board; ``layer`` 1 is the base."""

    south_west: Point
    side_mm: float
    layer: int
    bgr: tuple[int, int, int] | None = None
    """The tile's face (at the base layer's shade; higher layers are lit a little brighter), or
    None for piecepack's plain light wood."""


@dataclass(frozen=True)
class HandItem:
    """A hand reaching in: the wrist at ``wrist``, fingers pointing along ``direction_deg``."""

    wrist: Point
    direction_deg: float
    scale: float = 1.0
    skin: tuple[int, int, int] = (125, 155, 205)


@dataclass(frozen=True)
class Lighting:
    """Light across the picture: a linear gradient from ``low`` to 1.0 along ``direction_deg``,
    a vignette, and shadows (table polygons with how much light they let through)."""

    low: float = 1.0
    direction_deg: float = 0.0
    vignette: float = 0.0
    shadows: tuple[tuple[tuple[Point, ...], float], ...] = ()


@dataclass(frozen=True)
class CameraView:
    """Where the four marker centres land in the picture (pixels), in the layout's marker order:
    this fixes the perspective. ``size`` is the picture's (width, height)."""

    marker_pixels: tuple[Point, Point, Point, Point]
    size: tuple[int, int] = (1280, 720)
    blur_sigma: float = 0.0
    noise_sigma: float = 0.0
    noise_seed: int = 0


@dataclass(frozen=True)
class Truth:
    """What a perfect detector reports: the VISION ``state`` per zone, and what is hidden."""

    states: Mapping[str, Mapping[str, JsonValue]]
    hidden_zones: frozenset[str] = frozenset()
    """Zones mostly under the hand: not scored."""
    hidden_faces: frozenset[str] = frozenset()
    """Pyramid slots whose corner index is under the hand: the face is not scored."""
    hidden_pawns: frozenset[str] = frozenset()
    """Pawn colours under the hand: not scored."""
    pawn_squares: Mapping[str, tuple[int, int] | None] = field(default_factory=dict)
    """Colour -> (x, y) square, or None for a pawn off the grid."""


@dataclass(frozen=True)
class Scene:
    layout: MarkerLayout
    zones: tuple[Zone, ...]
    camera: CameraView
    lighting: Lighting = Lighting()
    mat_bgr: tuple[int, int, int] = (120, 48, 105)
    tiles: tuple[TileItem, ...] = ()
    cards: tuple[CardItem, ...] = ()
    cubes: tuple[CubeItem, ...] = ()
    pawns: tuple[PawnItem, ...] = ()
    hand: HandItem | None = None
    hidden_markers: tuple[int, ...] = ()
    """Markers covered (by a book, a cup): drawn as bare mat, for calibration failure tests."""
    truth: Truth = Truth({})
    surface: Surface | None = None
    """The table top (:mod:`vision.render.surfaces`); None: a plain mat of ``mat_bgr``."""
