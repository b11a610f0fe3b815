"""From the camera to the game (DESIGN.md "What the sensors see": Everest).

The camera reports pawn squares on the 8x6 grid (VISION, zone kind "grid", state {"pawns": {player:
[x, y]}}, and "unseen_pawns": [player, ...] for pawns it cannot see, glare may hide them: those are
not judged). Plans and dice come from a person, so the camera never makes a move: it either agrees
with the state (None) or is Unexplained, naming each yeti out of place and where to put it.
"""

from __future__ import annotations

import logging
from typing import Any

from companion.core import Move, Observation, Unexplained, ZoneKind
from .board import Square, square_text
from .state import EverestState

log = logging.getLogger(__name__)


def _square(value: Any) -> Square | None:
    if (
        isinstance(value, (list, tuple))
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return (value[0], value[1])
    return None


def interpret(state: EverestState, observation: Observation) -> Move | Unexplained | None:
    payload = observation.payload
    if payload.get("zone_kind") != ZoneKind.GRID.value:
        return None  # not the Everest grid: nothing for this game to do
    zone = str(payload.get("zone") or "grid")
    seen = payload.get("state", {})
    pawns = seen.get("pawns") if isinstance(seen, dict) else None
    if not isinstance(pawns, dict):
        return Unexplained(zone, "the camera's grid report has no pawns", "check the camera and the pawn markers")
    raw_unseen = seen.get("unseen_pawns", [])
    unseen = {str(p) for p in raw_unseen} if isinstance(raw_unseen, list) else set()
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
        raw = pawns.get(player)
        got = _square(raw) if raw is not None else None
        if raw is not None and got is None:
            problems.append(f"{player}'s yeti at an unreadable square {raw!r}")
            fixes.append(f"check {player}'s pawn marker")
        elif want is None and got is not None:
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
