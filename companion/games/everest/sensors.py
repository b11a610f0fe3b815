"""Everest at a table with a camera (issue 21): the reference table, and what each move is there.

The table (``layout``): the 8 x 6 grid of piecepack tiles under the overhead camera (one ``grid``
zone, its outline the board's corners south-west, south-east, north-east, north-west; squares of
25.4 mm, docs/vision.md's Everest table). There is no reader: nothing of Everest is a card.

What each move is at the table (``actions``; docs/sensors.md has the table of it): every move is
entered, because no sensor sees it: a plan is coins chosen in secret, a roll is a die, an order is
the high roller's choice said aloud, the end of a round and healing are choices said aloud, and the
coins a damaged yeti sets aside are chosen in hand. What the camera sees is the yeti: whenever a
move leaves them elsewhere (the last plan of a round sets them climbing, a roll or an order lets
the resolution go on, the end of a round sends yeti home), the players move the pawns where the
engine says, and the camera's view of the grid confirms it (``table.py``: the view agrees with the
state, or it is an alert naming each yeti out of place). A yeti off the board (over the edge) is
taken off the grid. A refused move moves nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.contract.sensors import Action, Enter, Pawns, PlanDefaults
from companion.contract.game import Game
from companion.core import JsonObject, Move, Zone
from .board import Square
from .moves import EndRound, Heal, Order, Plan, Roll, SetAside
from .state import EverestState
from .table import GRID

SQUARE_MM = 25.4
"""A piecepack tile is 2 x 2 squares of an inch."""
GRID_SOUTH_WEST = (178.4, 81.3)
"""Where the board's south-west corner lies on the reference table (mm from marker 0)."""
WHY: dict[type[Move], str] = {
    Plan: "a plan: coins chosen in secret",
    Roll: "a die roll",
    Order: "the high roller's order, said aloud",
    EndRound: "the round's end: who heals and what is set aside, said aloud",
    Heal: "a yeti going home to heal, a player's choice said aloud",
    SetAside: "the coins a damaged yeti sets aside, chosen in hand",
}
"""Why each move is entered (docs/sensors.md)."""


def grid_outline() -> tuple[tuple[float, float], ...]:
    x0, y0 = GRID_SOUTH_WEST
    x1, y1 = x0 + 8 * SQUARE_MM, y0 + 6 * SQUARE_MM
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def yeti_squares(state: EverestState) -> dict[str, Square]:
    """Where each yeti stands on the grid (a yeti off the board is not there)."""
    return {player: square for player, square in zip(state.players, state.positions) if square is not None}


class EverestPlan(PlanDefaults):
    """Every move entered; every pawn move a ``Pawns`` action the camera confirms."""

    floor = 0.0
    """Nothing of Everest is made by a sensor: the camera checks the yeti, it makes no move."""

    def __init__(self, game: Game[EverestState]) -> None:
        self.game = game

    def layout(self, players: Sequence[str]) -> tuple[Zone, ...]:
        return (Zone("grid", GRID, polygon=grid_outline()),)

    def setup(self, state: EverestState) -> Sequence[Action]:
        return (Pawns("grid", yeti_squares(state)),)

    def actions(self, state: EverestState, move: Move, after: EverestState, legal: bool) -> Sequence[Action]:
        data: JsonObject = {k: v for k, v in self.game.codec.to_json(move).items() if k != "t"}
        entered = Enter(data, WHY.get(type(move), "a choice said aloud"))
        if not legal:
            return (entered,)
        before, now = yeti_squares(state), yeti_squares(after)
        return (entered,) if now == before else (entered, Pawns("grid", now))
