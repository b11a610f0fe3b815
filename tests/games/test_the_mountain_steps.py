"""The Mountain's act made card by card at the table (issue 21), through the real table model and session.

The plan's reference table (hand pad, discard reader, turn button) fed reader events: the table model
turns them into TAG and PRESS observations, the session reads and judges them and writes its log, and
the referee's watch looks for an act left unfinished, on a table clock the test moves.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.core import Observation, Unexplained
from companion.core.readers import ButtonPress, ReaderEvent
from companion.core.seen import CardFace, VisionSeen
from companion.core.zones import ZoneRef
from companion.games.the_mountain import GAME, SPEC
from companion.games.the_mountain.examples import example_header
from companion.games.the_mountain.moves import Act, ActCard, Draw, Skip
from companion.games.the_mountain.table import PYRAMID_SLOT
from companion.games.the_mountain.sensors import MountainPlan
from companion.demo.account import How
from companion.demo.measure import play_through, table_games
from companion.log.store import GameLog, LogRow
from companion.referee.pending import PendingWatch
from companion.referee.session import PENDING_SOURCE, Session
from companion.table.model import TableModel
from companion.table.registry import TagRegistry
from companion.contract.sensors import Put, SensorPlan, Take, Tap
from tests.conftest import TableClock

assert SPEC.sensors is not None
PLAN: SensorPlan = SPEC.sensors
CAMERA_PLAN = MountainPlan(GAME, camera=True)
READER_PLAN = MountainPlan(GAME, camera=False)
"""The readers alone (a table with no camera over the pyramid)."""
ZONES = {z.name: z for z in PLAN.layout(("solo",))}
HAND, DISCARD, TURN = ZONES["hand-solo"].reader, ZONES["discard"].reader, ZONES["turn"].reader
FULL_HAND = ("5C", "AD", "AH", "10S", "7H")
HEAL = Act(by="solo", cards=("AH", "7H"), targets=("6-3", "6-6"))
"""Hearts on the example deal: the 6H at 6-3 and the 9D at 6-6 go under the health pile."""



class Table:
    """The session behind a table model on the plan's zones: taps and presses in, rows out."""

    def __init__(self, tmp_path: Path, clock: TableClock) -> None:
        self.clock = clock
        registry = TagRegistry(tmp_path / "tags.json", GAME.id)
        self.uid = {card: f"04{k:012x}" for k, card in enumerate(GAME.deck())}
        for card, uid in self.uid.items():
            registry.enrol(uid, card)
        self.session = Session(GAME, GameLog(tmp_path / "tm.sqlite"), example_header(), clock=clock)
        self.session.start()
        self.rows: list[LogRow] = []
        self.model = TableModel(ZONES.values(), registry, lambda obs: self.rows.append(self.session.process(obs)), debounce_s=0)

    def tap(self, reader: str | None, card: str, t: float) -> LogRow:
        """A card tapped on a reader (it arrives, and is lifted): the row its arrival wrote."""
        assert reader is not None
        self.clock.t = t
        before = len(self.rows)
        self.model.reader_event(ReaderEvent(reader, self.uid[card], "arrive", t))
        self.model.reader_event(ReaderEvent(reader, self.uid[card], "depart", t + 0.05))
        return self.rows[before]

    def press(self, reader: str | None, t: float) -> LogRow:
        assert reader is not None
        self.clock.t = t
        before = len(self.rows)
        self.model.button_pressed(ButtonPress(reader, t))
        return self.rows[before]

    def draw(self, cards: tuple[str, ...], t: float = 10.0) -> None:
        for k, card in enumerate(cards):
            row = self.tap(HAND, card, t + k)
            assert row.move == {"by": "solo", "do": "draw", "card": card, "from": "stock", "t": t + k} and row.verdict == {"ok": True}

    def alerts(self) -> list[str]:
        return [a["zone"] for a in self.session.board()["alerts"]]

    def settle(self) -> None:
        deadline = time.monotonic() + 5
        while self.session.queued() and time.monotonic() < deadline:
            time.sleep(0.005)
        time.sleep(0.05)

    def close(self) -> None:
        self.model.stop()
        self.session.stop()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    t = Table(tmp_path, TableClock(0.0))
    try:
        yield t
    finally:
        t.close()


def _empty(pos: str) -> Observation:
    """The camera's settled view of an empty pyramid slot."""
    return VisionSeen(ZoneRef(pos, PYRAMID_SLOT.name), CardFace(False, None), 22.5).observation("camera")


def _did(row: LogRow) -> tuple[str | None, bool]:
    assert row.move is not None and row.verdict is not None
    return row.move["do"], bool(row.verdict["ok"])


def test_an_act_is_pending_until_its_last_card_whose_tap_is_the_act(table: Table) -> None:
    table.draw(FULL_HAND)
    before = table.session.state
    steps = [table.tap(DISCARD, card, 20.0 + k) for k, card in enumerate(("AH", "7H", "6H"))]
    assert [_did(r) for r in steps] == [("act_card", True)] * 3
    state = table.session.state
    assert state.pending == ("AH", "7H", "6H") and state.mountain == before.mountain and state.hand == before.hand
    [pending] = GAME.pending(state)
    assert pending.zone == "discard" and pending.since == 22.0 and "AH, 7H" in pending.what and "6-3" in pending.what
    # The camera seeing 6-3 empty meanwhile is no alert: its card is on its way out; 6-6 empty would be.
    assert GAME.interpret(state, _empty("6-3")) is None
    assert isinstance(GAME.interpret(state, _empty("6-6")), Unexplained)
    last = table.tap(DISCARD, "9D", 23.0)
    assert last.move == {"by": "solo", "do": "act", "cards": ["AH", "7H"], "targets": ["6-3", "6-6"], "t": 23.0}
    assert last.verdict == {"ok": True}
    assert table.session.state == GAME.play(before, HEAL)[1]  # the table is where the whole act leads
    assert GAME.pending(table.session.state) == ()
    # A re-tap of a card already discarded is nothing.
    assert table.tap(DISCARD, "9D", 24.0).move is None


def test_an_act_stalled_is_one_alert_that_goes_when_its_last_card_comes(table: Table) -> None:
    table.draw(FULL_HAND)
    table.tap(DISCARD, "AH", 100.0)
    watch = PendingWatch(lambda: table.session, timeout_s=4.0)
    table.clock.t = 103.9
    assert watch.look() == []
    table.tap(DISCARD, "7H", 103.9)  # a card came: the act goes on, stalled only from now
    table.clock.t = 107.8
    assert watch.look() == [] and table.alerts() == []
    table.clock.t = 107.9
    assert [(p.zone, p.since) for p in watch.look()] == [("discard", 103.9)]
    table.settle()
    assert table.alerts() == ["discard"]
    table.clock.t = 200.0
    assert watch.look() == []  # once per pending act, however long it waits
    table.settle()
    alerts = [r for r in table.session.log.rows() if r.alert is not None]
    assert len(alerts) == 1 and alerts[0].source == PENDING_SOURCE
    assert "AH, 7H" in alerts[0].alert["what"] and "discard reader" in alerts[0].alert["fix"]  # type: ignore[index]
    table.tap(DISCARD, "6H", 200.5)
    done = table.tap(DISCARD, "9D", 201.0)
    assert _did(done) == ("act", True) and table.alerts() == []


def test_an_act_taken_back_at_the_hand_pad_ends_its_alert(table: Table) -> None:
    table.draw(FULL_HAND)
    table.tap(DISCARD, "AH", 100.0)
    watch = PendingWatch(lambda: table.session, timeout_s=2.0)
    table.clock.t = 103.0
    watch.look()
    table.settle()
    assert table.alerts() == ["discard"]
    back = table.tap(HAND, "AH", 104.0)
    assert _did(back) == ("take_back", True)
    assert table.session.state.pending == () and table.alerts() == []
    assert table.tap(HAND, "AH", 105.0).move is None  # in the hand, nothing begun: a re-tap


def test_an_illegal_first_step_is_refused_at_once_and_leaves_nothing_pending(table: Table) -> None:
    table.draw(("5C", "AD", "AH"))
    early = table.tap(DISCARD, "AH", 20.0)  # two cards short of a full hand
    assert _did(early) == ("act_card", False) and early.verdict["rules"] == ["TM-DRAW-FIRST"]  # type: ignore[index]
    assert table.session.state.pending == () and GAME.pending(table.session.state) == ()
    table.draw(("10S", "7H"), t=30.0)
    table.tap(DISCARD, "AH", 40.0)
    other = table.tap(DISCARD, "5C", 41.0)  # another suit
    assert _did(other) == ("act_card", False) and other.verdict["rules"] == ["TM-SET"]  # type: ignore[index]
    table.tap(DISCARD, "7H", 42.0)
    threat = table.tap(DISCARD, "KS", 43.0)  # Hearts heal with non-threats only, and the KS is covered
    assert _did(threat) == ("act_card", False) and threat.verdict["rules"] == ["TM-HEARTS", "TM-SEQUENTIAL"]  # type: ignore[index]
    assert table.session.state.pending == ("AH", "7H")  # the act goes on from where it was
    table.tap(DISCARD, "6H", 44.0)
    assert _did(table.tap(DISCARD, "9D", 45.0)) == ("act", True)
    again = table.tap(DISCARD, "AD", 46.0)
    diamonds = table.tap(DISCARD, "10S", 47.0)
    assert _did(again) == ("act_card", True) and _did(diamonds) == ("act_card", False)
    hearts_twice = GAME.judge(table.session.state.evolve(pending=()), ActCard(card="AH"))
    assert not hearts_twice.ok and hearts_twice.rules == ("TM-HAND",)  # the AH is spent


def test_a_mountain_card_with_no_act_begun_is_the_skip_and_the_turn_button_ends_the_turn(table: Table) -> None:
    table.draw(FULL_HAND)
    skip = table.tap(DISCARD, "9D", 20.0)
    assert skip.move == {"by": "solo", "do": "skip", "target": "6-6", "t": 20.0} and skip.verdict == {"ok": True}
    second = table.tap(DISCARD, "AS", 21.0)
    assert _did(second) == ("skip", False) and second.verdict["rules"] == ["TM-SKIP"]  # type: ignore[index]
    end = table.press(TURN, 22.0)
    assert end.move == {"by": "solo", "do": "end_turn", "t": 22.0} and end.verdict == {"ok": True}
    assert table.session.state.turn == 2


def test_the_plan_taps_an_act_set_first_then_its_removals_and_its_rows_are_the_steps_and_the_act() -> None:
    state = GAME.new_state(example_header())
    for card in FULL_HAND:
        state = GAME.play(state, Draw(card=card, from_="stock"))[1]
    verdict, after = GAME.play(state, HEAL)
    assert verdict.ok
    assert READER_PLAN.actions(state, HEAL, after, True) == tuple(Tap("discard", c) for c in ("AH", "7H", "6H", "9D"))
    # under the camera, each mountain card is taken off its slot (the camera sees it go) and tapped on its way out
    assert CAMERA_PLAN.actions(state, HEAL, after, True) == (
        Tap("discard", "AH"), Tap("discard", "7H"), Take("6-3", "6H"), Tap("discard", "6H"), Take("6-6", "9D"), Tap("discard", "9D"),
    )
    assert PLAN.actions(state, HEAL, after, True) == CAMERA_PLAN.actions(state, HEAL, after, True)  # SPEC lays the pyramid under the camera
    rows = PLAN.table_moves(state, HEAL)
    assert [m.verb for m in rows] == ["act_card", "act_card", "act_card", "act"]
    # A refused skip is its card tapped and refused; a covered card's skip reads as that skip.
    covered = Skip(by="solo", target="5-1")
    assert READER_PLAN.actions(state, covered, state, False) == (Tap("discard", "KS"),)
    assert CAMERA_PLAN.actions(state, covered, state, False) == (Take("5-1", "KS"), Tap("discard", "KS"), Put("5-1", "KS"))
    assert [m.verb for m in PLAN.table_moves(state, covered)] == ["skip"]


@pytest.mark.slow
def test_under_the_camera_the_acceptance_games_play_with_no_misread_and_every_removal_seen(tmp_path: Path) -> None:
    """The pyramid laid under the runner's camera (rendered frames through the real vision pipeline):
    every move that takes cards off the mountain is confirmed by the camera, and nothing is misread."""
    spec = dataclasses.replace(SPEC, sensors=CAMERA_PLAN)
    for k, game in enumerate(table_games(spec, 0)):
        report, _ = play_through(spec, game, tmp_path / f"game-{k}")
        misread = [f"{r.index + 1} {r.verb}: {r.why}" for r in report.results if r.how is How.MISREAD]
        assert not misread and not report.setup_misread and not report.alerts, (misread, report.setup_misread, report.alerts)
        state = GAME.new_state(game.header)
        removing = []
        for move, result in zip(game.moves, report.results):
            verdict, after = GAME.play(state, move)
            if verdict.ok and after.mountain != state.mountain:
                removing.append(result)
            state = after
        assert removing and all(r.seen for r in removing)
        assert report.watched == 21
