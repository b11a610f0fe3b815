"""A move the table began and left unfinished becomes one alert (issue 21): a real session and its log,
Escape Master's half combination, the referee's watch looking on a table clock the test moves."""

from __future__ import annotations

import time
from pathlib import Path

from companion.core import Observation, ObservationKind, Zone
from companion.core.zones import HAND_PAD, PILE
from companion.games.escape_master import GAME
from companion.log.store import GameLog
from companion.referee.pending import PendingWatch, pending_note
from companion.referee.session import PENDING_SOURCE, Session
from tests.games.test_escape_master_support import A, B, header
from tests.conftest import TableClock

HANDS = {A: ["start-1", "teen-3", "teen-5", "joe-9"], B: ["start-2", "robot-8", "mouse-2"]}



def entry(t: float, by: str | None, do: str, **fields: object) -> Observation:
    return Observation("test", t, ObservationKind.MOVE, {"by": by, "do": do, **fields})


def tag(zone: Zone, card: str, t: float, event: str = "arrive") -> Observation:
    return Observation("array:0", t, ObservationKind.TAG, {**zone.payload(), "event": event, "uid": "1a2b3c4d", "card": card})


PILE_1 = Zone("pile-1", PILE, index=1)


def begun(tmp_path: Path, clock: TableClock) -> Session:
    """Anna's start card on pile 1 (top 7), then the teen-3 of teen-3 + teen-5 (8) put down at t=100."""
    session = Session(GAME, GameLog(tmp_path / "em.sqlite"), header(HANDS), clock=clock)
    session.start()
    session.process(entry(90.0, A, "start"))
    session.process(tag(PILE_1, "start-1", 95.0))
    half = session.process(tag(PILE_1, "teen-3", 100.0))
    assert half.move is not None and half.move["do"] == "half" and half.verdict == {"ok": True}
    return session


def alerts(session: Session) -> list[str]:
    return [a["zone"] for a in session.board()["alerts"]]


def settle(session: Session) -> None:
    deadline = time.monotonic() + 5
    while session.queued() and time.monotonic() < deadline:
        time.sleep(0.005)
    time.sleep(0.05)  # the batch being written


def test_a_half_left_too_long_is_one_alert_that_goes_when_the_second_card_comes(tmp_path: Path) -> None:
    clock = TableClock(100.0)
    session = begun(tmp_path, clock)
    watch = PendingWatch(lambda: session, timeout_s=4.0)
    clock.t = 103.9
    assert watch.look() == [] and alerts(session) == []
    clock.t = 104.0
    due = watch.look()
    assert [(p.zone, p.since) for p in due] == [("pile-1", 100.0)]
    settle(session)
    assert alerts(session) == ["pile-1"]
    clock.t = 200.0
    assert watch.look() == []  # once per pending move, however long it waits
    settle(session)
    rows = [r for r in session.log.rows() if r.alert is not None]
    assert len(rows) == 1 and rows[0].source == PENDING_SOURCE and rows[0].kind == "note"
    assert "teen-3" in rows[0].alert["what"] and "second card" in rows[0].alert["fix"]  # type: ignore[index]
    # Fresh watch, same log (a restart): the alert stands and is not raised again.
    assert PendingWatch(lambda: session, timeout_s=4.0).look() == []
    done = session.process(tag(PILE_1, "teen-5", 200.5))
    assert done.move is not None and done.move["cards"] == ["teen-3", "teen-5"] and done.verdict == {"ok": True}
    assert alerts(session) == []
    session.stop()
    resumed = Session(GAME, GameLog(tmp_path / "em.sqlite"))
    assert alerts(resumed) == [] and resumed.counters["alerts"] == 1  # the replay folds the same way


def test_the_alert_goes_with_a_half_taken_back_at_the_hand_pad_and_a_new_half_is_a_new_alert(tmp_path: Path) -> None:
    clock = TableClock(100.0)
    session = begun(tmp_path, clock)
    watch = PendingWatch(lambda: session, timeout_s=2.0)
    clock.t = 103.0
    watch.look()
    settle(session)
    assert alerts(session) == ["pile-1"]
    back = session.process(tag(Zone("hand-anna", HAND_PAD, player=A), "teen-3", 103.5))
    assert back.move is not None and back.move["do"] == "withdraw"
    assert alerts(session) == []  # read at the hand pad, and still the pile's alert goes
    session.process(tag(PILE_1, "teen-3", 110.0))
    clock.t = 111.0
    assert watch.look() == []
    clock.t = 112.0
    assert [p.since for p in watch.look()] == [110.0]
    settle(session)
    assert alerts(session) == ["pile-1"]
    stood = Session(GAME, GameLog(tmp_path / "em.sqlite"))  # replayed: it still stands, and is not raised twice
    assert alerts(stood) == ["pile-1"] and stood.overdue(200.0, 2.0) == []
    session.stop()


def test_an_alert_for_a_move_finished_meanwhile_is_a_plain_note(tmp_path: Path) -> None:
    clock = TableClock(100.0)
    session = begun(tmp_path, clock)
    [late] = session.overdue(110.0, 4.0)
    session.process(tag(PILE_1, "teen-5", 109.0))  # the second card came while the alert waited in the queue
    row = session.process(pending_note(late, 110.0))
    assert row.kind == "note" and row.alert is None and alerts(session) == []
    session.stop()


def test_the_watch_looks_on_its_own_and_leaves_the_session_path_alone(tmp_path: Path) -> None:
    clock = TableClock(100.0)
    session = begun(tmp_path, clock)
    watch = PendingWatch(lambda: session, timeout_s=1.0, every_s=0.02).start()
    try:
        clock.t = 101.5
        deadline = time.monotonic() + 5
        while alerts(session) != ["pile-1"] and time.monotonic() < deadline:
            time.sleep(0.01)
        assert alerts(session) == ["pile-1"]
        time.sleep(0.1)
        assert sum(1 for r in session.log.rows() if r.alert is not None) == 1
    finally:
        watch.stop()
        session.stop()
