"""Where the cards go when a deck is taught or checked (``companion camera deck``): 13 places on
the mat between the table's markers, one card of each rank, the suits taking turns.

Set 1 is A of spades, 2 of hearts, 3 of diamonds, 4 of clubs, 5 of spades ... K of spades: every
rank once and every suit three or four times, which is all a deck's corner index has to teach.
Sets 2 to 4 move each rank on by one suit, so the four sets together are the whole deck (what
``--check`` reads, a set at a time).

The places sit in rows across the middle of the table, each card upright as the player reads it
(its top to the north, the index at its top-left), and keep clear of the markers and the mat
beside them, where the camera learns the table's colours (vision/lighting.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from companion.core import Zone, ZoneKind
from companion.core.errors import ConfigError
from companion.core.zones import Watch
from vision.calibration import MarkerLayout
from vision.detectors.glyphs import RANKS, SUITS

DECK_PLACE = ZoneKind("deck_place", camera=Watch.CARD_FACE)
"""A place of the teaching layout: the camera reads the card's face there."""
CARD_MM = (63.0, 88.0)
GAP_MM = (6.0, 10.0)
"""Between neighbouring places, across and down."""
SETS = (1, 2, 3, 4)
GRIDS = ((7, 2), (5, 3), (4, 4), (13, 1))
"""Columns and rows tried in turn; the first that fits between the markers is used."""
CLEAR_OF_MARKER = 2.0
"""Every place keeps this many marker sizes from each marker's centre (the mat is learnt out to
1.8 of them, vision/lighting.py)."""


def faces_of_set(number: int) -> tuple[str, ...]:
    """The 13 cards of set ``number`` (1..4), A to K."""
    if number not in SETS:
        raise ConfigError(f"camera deck: --set must be 1 to 4, not {number}")
    return tuple(rank + SUITS[(i + number - 1) % 4] for i, rank in enumerate(RANKS))


@dataclass(frozen=True)
class Place:
    number: int
    """1..13, as the printed layout counts them: row by row from the north-west."""
    face: str
    zone: Zone
    """The card's outline in table mm: top-left, top-right, bottom-right, bottom-left as the
    player reads it (as a pyramid slot's)."""

    @property
    def left_top_mm(self) -> tuple[float, float]:
        return self.zone.polygon[0]


@dataclass(frozen=True)
class DeckLayout:
    set_number: int
    places: tuple[Place, ...]
    columns: int
    rows: int

    @property
    def zones(self) -> tuple[Zone, ...]:
        return tuple(p.zone for p in self.places)

    def describe(self) -> list[str]:
        """What to lay where, as the command prints it."""
        lines = [
            f"lay these {len(self.places)} cards (set {self.set_number}) face up, upright as you read them (the index at the top-left),",
            f"in {self.rows} row(s) of up to {self.columns}, north row first, west to east; x and y are the card's top-left corner in mm from marker 0:",
        ]
        for row in range(self.rows):
            cells = self.places[row * self.columns : (row + 1) * self.columns]
            lines.append("  " + "   ".join(f"{p.number:>2}: {p.face:<3} at ({p.left_top_mm[0]:.0f}, {p.left_top_mm[1]:.0f})" for p in cells))
        lines.append(f"places are {CARD_MM[0] + GAP_MM[0]:.0f} mm apart across and {CARD_MM[1] + GAP_MM[1]:.0f} mm down; keep the markers and their margins uncovered")
        return lines


def deck_layout(markers: MarkerLayout, set_number: int = 1) -> DeckLayout:
    """The 13 places of ``set_number`` centred between ``markers``; a :class:`ConfigError` when
    the markers are too close together for them."""
    faces = faces_of_set(set_number)
    xs = [c[1] for c in markers.centres]
    ys = [c[2] for c in markers.centres]
    mid = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
    w, h = CARD_MM
    for columns, rows in GRIDS:
        width = columns * w + (columns - 1) * GAP_MM[0]
        height = rows * h + (rows - 1) * GAP_MM[1]
        x0, top = mid[0] - width / 2, mid[1] + height / 2
        places = []
        for k, face in enumerate(faces):
            row, col = divmod(k, columns)
            left = x0 + col * (w + GAP_MM[0])
            y = top - row * (h + GAP_MM[1])
            outline = ((left, y), (left + w, y), (left + w, y - h), (left, y - h))
            places.append(Place(k + 1, face, Zone(f"place-{k + 1}", DECK_PLACE, polygon=outline)))
        if all(_clear(p.zone, markers) for p in places):
            return DeckLayout(set_number, tuple(places), columns, rows)
    raise ConfigError(
        f"camera deck: 13 cards do not fit between the markers ({max(xs) - min(xs):.0f} x {max(ys) - min(ys):.0f} mm) "
        f"clear of them; for teaching, lay the markers at least 600 x 300 mm apart (The Mountain's 640 x 360 mm table fits)"
    )


def _clear(zone: Zone, markers: MarkerLayout) -> bool:
    reach = CLEAR_OF_MARKER * markers.size_mm
    xs = [p[0] for p in zone.polygon]
    ys = [p[1] for p in zone.polygon]
    for _, mx, my in markers.centres:
        # the nearest point of the card's rectangle to the marker
        dx = max(min(xs) - mx, 0.0, mx - max(xs))
        dy = max(min(ys) - my, 0.0, my - max(ys))
        if math.hypot(dx, dy) < reach:
            return False
    inside_x = min(xs) >= min(m[1] for m in markers.centres) and max(xs) <= max(m[1] for m in markers.centres)
    inside_y = min(ys) >= min(m[2] for m in markers.centres) and max(ys) <= max(m[2] for m in markers.centres)
    return inside_x and inside_y
