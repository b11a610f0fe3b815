"""From the camera to the game (DESIGN.md "What the sensors see": Everest).

The camera reports pawn squares on the 8x6 grid (VISION, zone kind "grid", a
:class:`~companion.core.seen.Pawns` view, whose ``unseen`` names pawns it cannot see, glare may
hide them: those are not judged). Plans and dice come from a person, so the camera never makes a
move: it either agrees with the state (None) or is Unexplained, naming each yeti out of place and
where to put it.
"""

from __future__ import annotations

import logging

from companion.core import Move, Unexplained, ZoneKind
from companion.core.seen import Pawns, Unseen, VisionSeen
from companion.core.zones import Watch
from .board import square_text
from .state import EverestState

log = logging.getLogger(__name__)

GRID = ZoneKind("grid", camera=Watch.PAWNS)  # the 8x6 board the yetis climb
ZONE_KINDS = (GRID,)


def interpret(state: EverestState, seen: VisionSeen) -> Move | Unexplained | None:
    if not seen.zone.is_a(GRID):
        return None  # not the Everest grid: nothing for this game to do
    zone = seen.zone.name
    view = seen.view
    if isinstance(view, Unseen):
        return None  # the camera cannot see the grid now: it says nothing of the yetis
    if not isinstance(view, Pawns):
        return Unexplained(zone, "the camera's grid report has no pawns", "check the camera and the pawn markers")
    pawns, unseen = view.squares, set(view.unseen)
    problems: list[str] = []
    fixes: list[str] = []
    for player in pawns:
        if player not in state.players:
            problems.append(f"a pawn marked {player}, who is not playing")
            fixes.append(f"take the {player} pawn off the board")
    for seat, player in enumerate(state.players):
        if player in unseen and player not in pawns:
            continue  # glare may hide this pawn: the camera says nothing of it
        want = state.positions[seat]
        got = pawns.get(player)
        if want is None and got is not None:
            problems.append(f"{player}'s yeti on {square_text(got)}, but it went off the edge this round")
            fixes.append(f"take {player}'s yeti off the board until the round ends")
        elif want is not None and got is None:
            problems.append(f"no {player} yeti, which should be on {square_text(want)}")
            fixes.append(f"put {player}'s yeti on {square_text(want)}")
        elif want is not None and got != want:
            assert got is not None
            problems.append(f"{player}'s yeti on {square_text(got)}, not {square_text(want)}")
            fixes.append(f"move {player}'s yeti to {square_text(want)}")
    if not problems:
        return None
    log.debug("grid disagrees with the state: %s", problems)
    return Unexplained(zone, "the camera sees " + "; ".join(problems), "; ".join(fixes))
