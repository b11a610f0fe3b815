"""The session: one path in, durable rows, undo and corrections as new rows, resume by replay."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.core import Observation, ObservationKind
from companion.core.errors import LogError
from companion.log.store import GameLog
from companion.referee.session import Session
from tests.conftest import TOY_HEADER, StepClock, move
from tests.toy_game import GAME as TOY


def test_legal_and_illegal_moves_are_both_logged(toy_session: Session) -> None:
    ok = toy_session.process(move({"by": "anna", "do": "take", "n": 2}))
    bad = toy_session.process(move({"by": "anna", "do": "take", "n": 1}))
    assert ok.verdict == {"ok": True}
    assert bad.verdict is not None and bad.verdict["rules"] == ["TOY-TURN"]
    assert "ben's turn" in bad.verdict["why"]
    assert toy_session.board()["scoreboard"] == {"left": 5, "turn": "ben"}
    assert toy_session.counters["illegal"] == 1
    assert [r.seq for r in toy_session.log.rows()] == [1, 2, 3]


def test_move_takes_its_table_time_from_the_observation(toy_session: Session) -> None:
    row = toy_session.process(move({"by": "anna", "do": "take", "n": 1}, t=123.456))
    assert row.move == {"by": "anna", "do": "take", "n": 1, "t": 123.456}


def test_malformed_input_is_a_logged_error_not_a_crash(toy_session: Session) -> None:
    row = toy_session.process(move({"by": "anna", "do": "take", "n": "x"}))
    assert row.error is not None and 'must be a whole number' in row.error
    assert toy_session.counters["errors"] == 1
    assert toy_session.board()["scoreboard"]["left"] == 7


def test_undo_and_correction_are_new_rows(toy_session: Session) -> None:
    toy_session.process(move({"by": "anna", "do": "take", "n": 3}))
    undo = toy_session.process(Observation("web:referee", 1.0, ObservationKind.UNDO, {}))
    assert undo.move == {"by": "anna", "do": "take", "n": 3, "t": 100.0}
    assert toy_session.board()["scoreboard"] == {"left": 7, "turn": "anna"}
    nothing = toy_session.process(Observation("web:referee", 1.0, ObservationKind.UNDO, {}))
    assert nothing.error is not None and "no move to undo" in nothing.error
    toy_session.process(move({"by": "anna", "do": "take", "n": 1}))
    fixed = toy_session.process(
        Observation("web:referee", 2.0, ObservationKind.CORRECTION, {"move": {"by": "anna", "do": "take", "n": 2}})
    )
    assert fixed.verdict == {"ok": True}
    assert toy_session.board()["scoreboard"] == {"left": 5, "turn": "ben"}
    refused = toy_session.process(
        Observation("web:referee", 3.0, ObservationKind.CORRECTION, {"move": {"by": "anna", "do": "take", "n": 9}})
    )
    assert refused.verdict is not None and refused.verdict["rules"] == ["TOY-MOST"]
    assert toy_session.board()["scoreboard"] == {"left": 5, "turn": "ben"}
    assert toy_session.log.verify() == 7


def test_resume_replays_the_log_to_the_same_state(log_path: Path) -> None:
    game_log = GameLog(log_path)
    first = Session(TOY, game_log, TOY_HEADER, clock=StepClock())
    for payload in (
        {"by": "anna", "do": "take", "n": 2},
        {"by": "anna", "do": "take", "n": 2},  # illegal: ben's turn
        {"by": "ben", "do": "take", "n": 3},
    ):
        first.process(move(payload))
    first.process(Observation("web:referee", 5.0, ObservationKind.UNDO, {}))
    first.process(move({"by": "ben", "do": "take", "n": 1}))
    before = first.board()
    game_log.close()

    reopened = GameLog(log_path)
    second = Session(TOY, reopened, None, clock=StepClock())
    after = second.board()
    assert after["scoreboard"] == before["scoreboard"] == {"left": 4, "turn": "anna"}
    assert after["counters"]["illegal"] == 1
    assert second.counters["replay_mismatches"] == 0
    assert [a.move.by for a in second.applied()] == ["anna", "ben"]
    reopened.close()


def test_a_log_of_another_game_is_refused(log_path: Path) -> None:
    game_log = GameLog(log_path)
    Session(TOY, game_log, TOY_HEADER)
    other = TOY_HEADER.__class__("toy", ("cleo", "dan"))
    with pytest.raises(LogError, match="different game"):
        Session(TOY, game_log, other)
    game_log.close()


def test_an_empty_log_needs_a_header(log_path: Path) -> None:
    with GameLog(log_path) as game_log, pytest.raises(LogError, match="no game header"):
        Session(TOY, game_log, None)


def test_queued_observations_are_acknowledged_once_durable(toy_session: Session) -> None:
    toy_session.start()
    futures = [toy_session.submit(move({"by": p, "do": "take", "n": 1})) for p in ("anna", "ben", "anna")]
    rows = [f.result(timeout=10) for f in futures]
    assert [r.seq for r in rows] == [2, 3, 4]
    assert all(r.verdict == {"ok": True} for r in rows)
    reread = [r.seq for r in toy_session.log.rows(after=1)]
    assert reread == [2, 3, 4]


def test_listeners_get_each_batch_and_a_broken_listener_is_survived(toy_session: Session) -> None:
    seen: list[int] = []

    def broken(rows: object, board: object) -> None:
        raise RuntimeError("screen fell over")

    toy_session.subscribe(broken)
    toy_session.subscribe(lambda rows, board: seen.extend(r.seq for r in rows))
    toy_session.process(move({"by": "anna", "do": "take", "n": 1}))
    assert seen == [2]


def test_tag_events_go_the_same_way_and_unknown_tags_alert(toy_session: Session) -> None:
    zone = {"zone": "hand-anna", "zone_kind": "hand_pad", "player": "anna", "index": None}
    row = toy_session.process(Observation("array:1", 7.0, ObservationKind.TAG, {**zone, "event": "arrive", "uid": "a1", "card": None}))
    assert row.alert is not None and row.alert["zone"] == "hand-anna"
    assert toy_session.board()["alerts"][0]["what"] == "a tag no one enrolled"
    row = toy_session.process(Observation("array:1", 8.0, ObservationKind.TAG, {**zone, "event": "arrive", "uid": "b2", "card": "c"}))
    assert row.verdict == {"ok": True}
    assert toy_session.board()["alerts"] == []


def test_health_changes_are_logged_and_counts_are_not(toy_session: Session) -> None:
    toy_session.report_health("array", {"status": "ok", "bad_frames": 0})
    toy_session.report_health("array", {"status": "ok", "bad_frames": 3})
    toy_session.report_health("array", {"status": "down", "bad_frames": 3})
    notes = [r for r in toy_session.log.rows() if r.kind == "note"]
    assert [n.payload["status"] for n in notes] == ["ok", "down"]
    assert toy_session.board()["health"]["array"]["status"] == "down"


def test_public_rows_leave_hidden_fields_out(toy_session: Session) -> None:
    row = toy_session.process(move({"by": "anna", "do": "peek", "card": "QS"}))
    public = toy_session.public_row(row)
    assert public["move"] == {"by": "anna", "do": "peek", "t": 100.0}
    assert "QS" not in str(public)
