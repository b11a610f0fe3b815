"""What the shared tests know of Everest beyond its SPEC (see tests/games/scenes.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from companion.games.everest.board import Square
from companion.games.everest.sensors import yeti_squares
from tests.games.scenes import Evening, Layout, Scene

if TYPE_CHECKING:  # the sensor run is the camera's whole pipeline: imported by the tests that run it
    from companion.demo.measure import TableGame
    from companion.demo.runner import SensorRun


def init_setup(setup: Mapping[str, Any]) -> None:
    assert dict(setup) == {}  # the yeti start at the rulebook's homes


SCENE = Scene(
    big_screen="svg.everest-map",
    layouts=(
        Layout("playout"),
        Layout("2 players, fresh", fresh=("anna", "ben")),
        Layout("4 players, fresh", fresh=("anna", "ben", "cleo", "dev")),
    ),
    evening=Evening(("anna", "ben"), plays=("anna", "ben")),  # plans tapped in on their own pages
    init_setup=init_setup,
)


def a_misplaced_pawn(run: SensorRun, game: TableGame) -> tuple[int, dict[str, Square], str, Square]:
    """Play ``game`` through ``run`` up to its first move that moved a yeti; then the moves played, where
    each yeti stands, one of them, and a square beside it that no yeti holds: where a hand misplacing
    that pawn puts it (tests/games/test_everest_sensors.py and bench/pawn_alert.py)."""
    played = 0
    while not run.report.confirmed:
        run.play([game.moves[played]], game.header)
        played += 1
    squares = yeti_squares(run.session.state)
    player, (x, y) = next(iter(squares.items()))
    wrong = next((c, r) for c in range(1, 9) for r in range(1, 7)
                 if (c, r) not in squares.values() and abs(c - x) + abs(r - y) == 1)
    return played, squares, player, wrong
