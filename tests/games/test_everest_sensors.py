"""Everest at a table with a camera (issue 21): every pawn move is confirmed by the camera, and a pawn
standing where no plan put it raises an alert within 2 s of table time, which goes once it is put back
(the camera at table speed, every frame through the pipeline; bench/pawn_alert.py measures the same
on the wall clock).

Real pipeline end to end: the runner enters each move as a person does, the players move the pawns
where the engine says, and the grid is rendered as the overhead camera takes it and read by the
vision pipeline; its settled views reach the session, which checks them against the state
(companion/games/everest/table.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.contract.sensors import Pawns
from companion.demo.account import How
from companion.demo.camera import FPS, HAND_FRAMES
from companion.demo.measure import TableGame, play_through, table_games
from companion.demo.runner import SensorRun
from companion.games import get_spec
from companion.games.everest.sensors import yeti_squares
from tests.games.everest_scenes import a_misplaced_pawn

pytestmark = pytest.mark.slow

SPEC = get_spec("everest")


def _game(name: str) -> TableGame:
    return next(g for g in table_games(SPEC, 0) if g.name == name)


def test_every_pawn_move_is_confirmed_by_the_camera(tmp_path: Path) -> None:
    game = _game("whole-game.jsonl")
    report, _ = play_through(SPEC, game, tmp_path / "run")
    state = SPEC.game.new_state(game.header)
    moved = []
    for move in game.moves:
        _, after = SPEC.game.play(state, move)
        moved.append(yeti_squares(after) != yeti_squares(state))
        state = after
    assert any(moved)
    assert [r.seen == ("grid",) for r in report.results] == moved, "\n".join(report.lines())
    assert report.misread == 0 and not report.alerts, "\n".join(report.lines())
    assert all(r.how is How.ENTERED for r in report.results)  # plans, dice and calls: nothing the camera makes


def test_a_misplaced_pawn_raises_an_alert_within_two_seconds(tmp_path: Path) -> None:
    game = _game("whole-game.jsonl")
    run = SensorRun(SPEC, game.header, tmp_path / "run", fast=True)
    try:
        played, squares, player, wrong = a_misplaced_pawn(run, game)  # up to the first move that moved the yeti
        last = run.log.last_seq
        assert run.camera is not None
        run.camera.hand = True  # a hand puts the pawn down, as at the table (its frames count in the 2 s)
        # At table speed: the pipeline is shown every frame at the camera's rate and finds for itself
        # when the view has settled (fast mode shows it only the two frames it needs).
        run.camera.fast = False
        run.table.apply(Pawns("grid", {**squares, player: wrong}))
        shown = run.camera.show(run.table)
        assert shown.changed == ("grid",) and len(shown.settled) == 1
        assert shown.frames >= HAND_FRAMES + FPS * run.camera.settings.settle_s, shown.frames
        assert shown.settle_s <= 2.0, f"the grid's view settled {shown.settle_s:.1f} s after the pawn was put down"
        row = run.collector.claim([("vision", "grid")], played, 10.0)[0][0].row()
        assert row.seq > last and row.alert is not None, row
        # the alert is the settled view's own row, on the table's clock: no wait beyond the camera's
        assert row.table_time == shown.settled[0].table_time
        assert row.alert["zone"] == "grid"
        assert f"{player}'s yeti on" in row.alert["what"] and f"move {player}'s yeti to" in row.alert["fix"]
        assert "grid" in run.session.alerts

        # The pawn set back where its plan put it: the camera's view agrees again, and the alert goes.
        run.table.apply(Pawns("grid", squares))
        shown = run.camera.show(run.table)
        assert shown.changed == ("grid",) and len(shown.settled) == 1
        again = run.collector.claim([("vision", "grid")], played, 10.0)[0][0].row()
        assert again.seq > row.seq and again.alert is None and again.move is None
        assert "grid" not in run.session.alerts
    finally:
        run.close()
