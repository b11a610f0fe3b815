"""Pawns against the board they stand on (issue 23): an Everest pawn stands on the board's tiles,
so its colour is judged against the tiles as the camera sees them (vision/board_surface.py), and a
pawn colour the board hides is unseen, never "no pawn" nor a square."""

from __future__ import annotations

import dataclasses

import pytest

from companion.core.seen import UNSEEN_PAWNS
from vision.board_surface import measure_board
from vision.calibration import calibrate
from tests.vision.scene_config import write_scene_config
from vision.colours import PAWN_COLOURS
from vision.detectors.pawns import PawnDetector
from vision.frame import Frame
from vision.render.camera import render
from vision.render.conditions import BY_NAME
from vision.render.draw import COLOUR_BGR
from vision.render.robustness import run_trial
from vision.render.scenes import PAWN_COLOURS as SCENE_PAWNS
from vision.render.scenes import make_scene

YELLOW_BOARD = BY_NAME["board-yellow"]


def _grid_state(scene_seed: int, yellow_tiles: bool) -> dict[str, object]:
    scene = make_scene("pawns", scene_seed, "easy")
    if yellow_tiles:
        scene = dataclasses.replace(scene, tiles=tuple(dataclasses.replace(t, bgr=COLOUR_BGR["yellow"]) for t in scene.tiles))
    image = render(scene)
    detector = PawnDetector(players_by_colour={c: c for c in SCENE_PAWNS})
    (observation,) = detector(Frame(image, 0.0, 0), calibrate(image, scene.layout), scene.zones)
    state = observation.payload["state"]
    assert isinstance(state, dict)
    return state


def test_a_yellow_pawn_on_yellow_tiles_is_unseen_and_the_others_are_read() -> None:
    """Seed 0's yellow pawn stands on the board. On yellow tiles it cannot be told from them: before,
    it was left out (read as off the board); now it is unseen, and the other three keep their squares."""
    scene = make_scene("pawns", 0, "easy")
    assert scene.truth.pawn_squares["yellow"] is not None
    plain = _grid_state(0, yellow_tiles=False)
    state = _grid_state(0, yellow_tiles=True)
    assert UNSEEN_PAWNS not in plain and "yellow" in plain["pawns"]  # type: ignore[operator]
    assert state[UNSEEN_PAWNS] == ["yellow"], state
    others = {c: list(sq) for c, sq in scene.truth.pawn_squares.items() if sq is not None and c != "yellow"}
    assert state["pawns"] == others


def test_the_board_is_measured_on_its_tiles_not_their_lines() -> None:
    """Piecepack's light wood hides no pawn colour (its printed lines and the tiles' edges do not
    widen its spread); tiles of the yellow pawn's yellow hide yellow alone."""
    for yellow_tiles, hidden in ((False, ()), (True, ("yellow",))):
        scene = make_scene("pawns", 1, "easy")
        if yellow_tiles:
            scene = dataclasses.replace(scene, tiles=tuple(dataclasses.replace(t, bgr=COLOUR_BGR["yellow"]) for t in scene.tiles))
        image = render(scene)
        cal = calibrate(image, scene.layout)
        corners = cal.to_image(list(scene.zones[0].polygon))
        x0, y0 = corners.min(axis=0).astype(int) + 10
        x1, y1 = corners.max(axis=0).astype(int) - 10
        surface = measure_board(image[y0:y1, x0:x1], 8, 6)
        assert surface is not None
        assert surface.limit < 0.05, surface
        assert surface.hides(PAWN_COLOURS) == hidden, surface


def test_a_board_the_colour_of_a_pawn_makes_that_pawn_unseen_never_wrong() -> None:
    """The whole pipeline on two scenes with yellow tiles: the yellow pawns on the board are unsure,
    no pawn is wrong."""
    outcome = run_trial("pawns", YELLOW_BOARD, [0, 1]).outcome("pawn squares")
    assert outcome.wrong == 0 and outcome.unsure >= 2 and outcome.correct >= 4, outcome


def test_the_camera_check_names_the_pawn_colour_the_board_hides() -> None:
    """`camera check` judges the table's pawn colours against the grid's own tiles: piecepack's
    light wood passes; yellow tiles fail the ``pawn colours`` line, naming yellow and what to change."""
    from vision.camera_check import check_frame

    scene = make_scene("pawns", 1, "easy")
    plain = check_frame(render(scene), scene.layout, zones=scene.zones)
    assert plain.item("pawn colours").ok and plain.item("pawn colours").measured == "no pawn colour is the board's", plain.report()
    yellow = dataclasses.replace(scene, tiles=tuple(dataclasses.replace(t, bgr=COLOUR_BGR["yellow"]) for t in scene.tiles))
    result = check_frame(render(yellow), yellow.layout, zones=yellow.zones)
    assert [i.name for i in result.items if not i.ok] == ["pawn colours"], result.report()
    line = result.item("pawn colours")
    assert line.measured == "the board is the colour of yellow pawns" and "not yellow" in line.fix, line
    assert check_frame(render(yellow), yellow.layout).item("pawn colours").measured.startswith("not measured")


def test_the_camera_check_command_judges_the_configs_pawn_grid(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    """`companion camera check --config` reads the config's zones: its Everest grid of yellow tiles
    fails the ``pawn colours`` line and the command exits 1."""
    from pathlib import Path

    import cv2

    from companion.cli import main
    from companion.games.everest.playout import random_playout

    folder = Path(str(tmp_path))
    scene = make_scene("pawns", 1, "easy")
    scene = dataclasses.replace(scene, tiles=tuple(dataclasses.replace(t, bgr=COLOUR_BGR["yellow"]) for t in scene.tiles))
    picture = folder / "table.png"
    cv2.imwrite(str(picture), render(scene))
    header, _ = random_playout(1, 5)
    config = write_scene_config(folder, scene, header, picture)
    assert main(["camera", "check", "--config", str(config), "--frames", "1"]) == 1
    out = capsys.readouterr().out
    assert "FIX pawn colours" in out and "the board is the colour of yellow pawns" in out, out

