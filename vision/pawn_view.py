"""Pawns one by one: a patch of the Everest grid the camera cannot judge leaves the pawns in plain
view seen.

A zone of cubes is small, and whatever covers part of it hides it whole. The grid is big: a lamp
glints on one tile, a lit phone lies on one corner, a deep shadow darkens a few squares, and the
pawns elsewhere are still in plain view. For glare, a patch too dark to see a pawn in, and a
clipped colour (light given off: a lit screen) the pipeline asks here which pawns it can still
vouch for:

- a place of a pawn's colour near a clipped coloured patch is not a pawn: it may be an icon on
  the screen (not every icon clips: a green one may not, beside ones that do); a pawn seen only
  there is unseen, and one seen once elsewhere is seen there;
- a pawn not found is unseen when glare, the dark or such a patch may hide it, unless it lies
  in plain view on the table beside the grid;
- a colour seen in two places is already unseen (the detector never picks one), and so is a
  colour the board's own tiles hide (vision/board_surface.py);
- every other pawn found is seen.

Whatever else covers the grid (a hand, a grid mostly dark) still makes the whole grid unseen: a hand is
what moves pawns, and nothing may settle while it is there.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection
from dataclasses import dataclass, replace

from companion.core import Zone
from companion.core.seen import Pawns
from vision.calibration import Calibration
from vision.detectors.pawns import PawnDetector
from vision.frame import Frame
from vision.visibility import CLIPPED_COLOUR, DARK_PATCH, GLARE, TableView

LIT_REACH_MM = 25.0
"""A pawn found this close to a clipped coloured patch may be a screen's icon: a phone's icons
lie 14.5 to 18 mm apart, and a pawn's centre is 9 mm from its rim."""
GLARE_HIDES = 0.5
"""A clipped-white patch of this share of a pawn's top may hide a pawn that is not found."""


@dataclass(frozen=True)
class PawnsInPart:
    """The grid's view once the pawns the camera cannot vouch for are named unseen."""

    view: Pawns
    note: str | None
    """Why some pawns are unseen (for the scoreboard's camera line), or None."""


def pawns_in_part(
    view: Pawns,
    why: str | None,
    table: TableView,
    zone: Zone,
    pad_mm: float,
    detector: PawnDetector,
    frame: Frame,
    calibration: Calibration,
    players: Collection[str],
    off_the_grid: Callable[[], set[str]],
) -> PawnsInPart | None:
    """``view`` with the pawns that glare or a lit patch may hide or fake named unseen; None when
    the whole grid is unseen (``why`` is neither glare nor a clipped colour)."""
    if why not in (None, GLARE, CLIPPED_COLOUR, DARK_PATCH):
        return None
    s_pawn_area = math.pi * (detector.settings.pawn_size_mm / 2) ** 2
    # glare comes first and keeps its rule: in a washed-out picture the pawns' own colours clip
    # beside the glare, so a clipped patch there is the pawn itself, not a screen (the benchmark's
    # red, yellow, green and blue pawns still read right; an orange pawn clipped may not)
    lit = why == CLIPPED_COLOUR
    # a pawn found is in view; one not found may lie in the glare or in a patch too dark to see
    glare = why in (GLARE, DARK_PATCH) or table.glare_at_least(zone, pad_mm, GLARE_HIDES * s_pawn_area)
    squares = dict(view.squares)
    board = set(detector.hidden_by_board(zone))
    twice, faked = set(view.unseen) - board, set()
    if lit:
        # the screen's own patches are no pawn: judge each colour on the places left
        squares, twice = {}, set()
        for colour, places in detector.read(frame, calibration, zone).candidates.items():
            player = detector.players_by_colour[colour]
            clear = [p for p in places if not table.clipped_colour_near(p.at_mm, LIT_REACH_MM)]
            if len(clear) > 1:
                twice.add(player)
            elif clear and clear[0].square is not None:
                squares[player] = clear[0].square
            elif not clear:
                faked.add(player)  # seen only beside the screen: an icon, or the pawn; not guessed
    missing = set(players) - set(squares) - twice - faked - board
    hidden: set[str] = set()
    if missing and (lit or glare):
        hidden = missing - off_the_grid()
    notes = []
    if board:
        notes.append(f"the board is the colour of the pawn of {', '.join(sorted(board))}")
    if twice:
        notes.append(f"the pawn of {', '.join(sorted(twice))} is seen in two places")
    if faked:
        notes.append(f"the pawn of {', '.join(sorted(faked))} is seen only beside a lit screen")
    if hidden:
        what = "a lit screen or glare" if lit else "the dark" if why == DARK_PATCH else "glare"
        notes.append(f"{what} may hide the pawn of {', '.join(sorted(hidden))}")
    unsure = twice | faked | hidden | board
    marked = replace(view, squares=squares, unseen=tuple(sorted(unsure)))
    return PawnsInPart(marked, "; ".join(notes) or None)
