"""Horrible Mountain 2 at a table with readers and a camera (issue 21): reader events through the real
table model (its zones the sensor plan's layout, its tag registry), judged by a real session and
written to its log. A live deal from the hand pads, Swap Cubes and Claim a Cube held as a pending
move until their second card (or, where the two cards leave it open, the cubes the camera sees move),
a pending move left too long as one alert, and an illegal first card flagged at once."""

from __future__ import annotations

import hashlib
import time
from pathlib import Path
from typing import Any

from companion.core import Header, Observation, ObservationKind, Unexplained, Zone
from companion.core.readers import ReaderEvent
from companion.core.seen import read_seen
from companion.games.horrible_mountain_2 import GAME, SPEC
from companion.games.horrible_mountain_2.moves import SwapCubes
from companion.games.horrible_mountain_2.sensors import HorribleMountain2Plan
from companion.games.horrible_mountain_2.state import evolve
from companion.log.store import GameLog, LogRow
from companion.referee.pending import PendingWatch
from companion.referee.session import Session
from companion.table.model import TableModel
from tests.games.test_horrible_mountain_2_support import ADAM, EVE, SETUP, header, mv, play, start
from tests.conftest import TableClock



def _plan() -> HorribleMountain2Plan:
    plan = SPEC.sensors  # the one the package declares
    assert isinstance(plan, HorribleMountain2Plan)
    return plan


PLAN = _plan()


def uid(card: str) -> str:
    return hashlib.sha256(card.encode()).hexdigest()[:14]


class Registry:
    def card_for(self, tag: str) -> str | None:
        return next((c for c in GAME.deck() if uid(c) == tag), None)



class Table:
    """The plan's layout under a table model; each observation it makes is judged by the session at once."""

    def __init__(self, tmp_path: Path, head: Header | None = None, **setup: Any) -> None:
        self.clock = TableClock(100.0)
        self.head = head or header(None, **setup)
        self.zones: dict[str, Zone] = {z.name: z for z in PLAN.layout(self.head.players)}
        self.seen: list[Observation] = []
        self.model = TableModel(self.zones.values(), Registry(), self.seen.append, debounce_s=0.0)
        self.session = Session(GAME, GameLog(tmp_path / "hm2.sqlite"), self.head, clock=self.clock)
        self.session.start()
        self.rows: list[LogRow] = []

    def _event(self, zone: str, card: str, event: str) -> list[LogRow]:
        reader = self.zones[zone].reader
        assert reader is not None
        before = len(self.seen)
        self.model.reader_event(ReaderEvent(reader, uid(card), event, self.clock.t))  # type: ignore[arg-type]
        rows = [self.session.process(o) for o in self.seen[before:]]
        self.rows += rows
        return rows

    def put(self, zone: str, card: str) -> LogRow:
        (row,) = self._event(zone, card, "arrive")
        return row

    def lift(self, zone: str, card: str) -> LogRow:
        (row,) = self._event(zone, card, "depart")
        return row

    def tap(self, zone: str, card: str) -> LogRow:
        row = self.put(zone, card)
        assert self.lift(zone, card).move is None  # a tapped card leaving the pad is nothing
        return row

    def enter(self, by: str, do: str, **fields: Any) -> LogRow:
        row = self.session.process(Observation("test", self.clock.t, ObservationKind.MOVE, {"by": by, "do": do, **fields}))
        self.rows.append(row)
        return row

    @property
    def board(self) -> dict[str, Any]:
        return self.session.board()["scoreboard"]  # type: ignore[no-any-return]

    def close(self) -> None:
        self.model.stop()
        self.session.stop()
        self.session.log.close()


def move_of(row: LogRow) -> tuple[str, bool, tuple[str, ...]]:
    assert row.move is not None and row.verdict is not None, row
    return row.move["do"], bool(row.verdict["ok"]), tuple(row.verdict.get("rules", ()))


def placed(tmp_path: Path, **setup: Any) -> Table:
    table = Table(tmp_path, **setup)
    assert move_of(table.enter(ADAM, "place", slots=[5, 1]))[1]
    assert move_of(table.enter(EVE, "place", slots=[2, 4]))[1]
    return table


def test_a_live_deal_is_tapped_in_on_the_hand_pads(tmp_path: Path) -> None:
    live = {k: v for k, v in SETUP.items() if k != "hands"}  # nobody types a face-down card
    table = Table(tmp_path, Header(GAME.id, (ADAM, EVE), {}, live))
    try:
        for card in ("5H", "6H", "2D"):
            assert move_of(table.tap(f"hand-{ADAM}", card)) == ("dealt", True, ())
        # A Table Card tapped as dealt is refused without saying where it lies; a second tap is nothing.
        assert move_of(table.tap(f"hand-{EVE}", "2S")) == ("dealt", False, ("HM2-SETUP-CARDS",))
        assert table.tap(f"hand-{ADAM}", "2D").move is None
        for card in ("2H", "3H", "4H"):
            assert move_of(table.tap(f"hand-{EVE}", card)) == ("dealt", True, ())
        assert table.board["phase"] == "place" and table.board["turn"] == ADAM
        assert GAME.view(table.session.state, EVE)["hand"] == ["2H", "3H", "4H"]
    finally:
        table.close()


def test_swap_cubes_is_held_pending_until_its_second_card_and_then_made(tmp_path: Path) -> None:
    table = placed(tmp_path)
    try:
        cubes = [s["cube"] for s in table.board["table"]]
        assert move_of(table.put("discard", "2H")) == ("half", True, ())
        assert table.board["laid"] == ["2H"] and table.board["turn"] == EVE
        assert [p.zone for p in GAME.pending(table.session.state)] == ["discard"]
        # The 2 and the 3 have one slot each: the second card makes the move.
        row = table.put("discard", "3H")
        assert move_of(row) == ("swap_cubes", True, ())
        assert row.move is not None and row.move["cards"] == ["2H", "3H"] and sorted(row.move["slots"]) == [1, 2]
        board = table.board
        assert [s["cube"] for s in board["table"]] == [cubes[1], cubes[0], *cubes[2:]]
        assert board["discard_top"] == "3H" and "laid" not in board and board["turn"] == ADAM
        assert GAME.pending(table.session.state) == ()
    finally:
        table.close()


def test_claim_a_cube_with_one_cube_in_the_pile_is_made_by_its_second_card(tmp_path: Path) -> None:
    table = placed(tmp_path, hands={EVE: ["2H", "2C", "4H"], ADAM: ["5H", "6H", "2D"]})
    try:
        assert move_of(table.put("discard", "2C")) == ("half", True, ())
        row = table.put("discard", "2H")
        assert move_of(row) == ("claim_cube", True, ()) and row.move is not None and row.move["cube"] == "blue"
        assert table.board["scores"][EVE]["control_cubes"] == ["blue", "orange", "red"] and table.board["cube_pile"] == []
    finally:
        table.close()


def test_a_pending_move_left_too_long_is_one_alert_and_taking_the_card_back_ends_it(tmp_path: Path) -> None:
    table = placed(tmp_path)
    watch = PendingWatch(lambda: table.session, timeout_s=5.0)
    try:
        assert move_of(table.put("discard", "4H"))[0] == "half"
        # Nothing else may be done meanwhile: a draw is refused until the action is finished or taken back.
        assert move_of(table.tap(f"hand-{EVE}", "3D")) == ("draw", False, ("HM2-WHOLE-ACTION",))
        table.clock.t = 104.9
        assert watch.look() == []
        table.clock.t = 105.0
        (due,) = watch.look()
        assert due.zone == "discard" and "4H" in due.what and "take 4H back" in due.fix
        table.clock.t = 120.0
        assert watch.look() == []  # once
        deadline = time.monotonic() + 5
        while not table.session.board()["alerts"] and time.monotonic() < deadline:
            time.sleep(0.01)
        assert [a["zone"] for a in table.session.board()["alerts"]] == ["discard"]
        assert move_of(table.lift("discard", "4H")) == ("withdraw", True, ())
        assert table.session.board()["alerts"] == [] and "laid" not in table.board
        assert GAME.view(table.session.state, EVE)["hand"] == ["2H", "3H", "4H"]
    finally:
        table.close()


def test_an_illegal_first_card_is_flagged_at_once(tmp_path: Path) -> None:
    table = placed(tmp_path)
    try:
        # Out of turn: Adam's card on the Discard Pile is refused as a discard (HM2-TURN).
        assert move_of(table.put("discard", "5H")) == ("discard", False, ("HM2-TURN",))
        table.lift("discard", "5H")
        # Eve's last card: no Swap Cubes or Claim a Cube can be finished with one card.
        assert move_of(table.put("discard", "2H"))[:2] == ("half", True)
        assert move_of(table.put("discard", "3H"))[:2] == ("swap_cubes", True)
        assert move_of(table.tap(f"hand-{ADAM}", "3D"))[:2] == ("draw", True)
        refused = table.put("discard", "4H")
        assert move_of(refused) == ("half", False, ("HM2-SWAP-CUBES", "HM2-CLAIM-CUBE", "HM2-WHOLE-ACTION", "HM2-HAND-LIMIT"))
        assert refused.verdict is not None and refused.verdict["fix"] == "take 4H back into your hand"
        assert table.lift("discard", "4H").move is None  # taken back: it was never laid
        assert GAME.pending(table.session.state) == ()
    finally:
        table.close()


def view(table: Table, zone: str, cubes: list[str]) -> LogRow:
    """The camera's settled view of a zone's cubes, judged by the session."""
    z = table.zones[zone]
    payload = {**z.payload(), "state": {"cubes": cubes}}
    row = table.session.process(Observation("camera", table.clock.t, ObservationKind.VISION, payload))
    table.rows.append(row)
    return row


def test_two_cards_that_leave_the_cube_open_are_finished_by_the_cube_the_camera_sees_leave_the_pile(tmp_path: Path) -> None:
    table = placed(tmp_path, hands={EVE: ["2H", "2C", "4H"], ADAM: ["5H", "6H", "2D"]})
    try:
        assert move_of(table.tap(f"hand-{EVE}", "3D"))[:2] == ("draw", True)
        assert move_of(table.enter(ADAM, "take_table", cube="green", replacement="4D"))[:2] == ("take_table", True)
        assert table.board["cube_pile"] == ["blue", "green"]
        assert move_of(table.put("discard", "2C")) == ("half", True, ())
        assert move_of(table.put("discard", "2H")) == ("half", True, ())  # blue or green: the camera says
        assert table.board["laid"] == ["2C", "2H"]
        claim = view(table, "cube-pile", ["blue"])
        assert move_of(claim) == ("claim_cube", True, ()) and claim.move is not None and claim.move["cube"] == "green"
        assert view(table, f"cubes-{EVE}", ["red", "orange", "green"]).move is None  # as the state has it now
        assert table.board["scores"][EVE]["control_cubes"] == ["green", "orange", "red"] and table.board["turn"] == ADAM
    finally:
        table.close()


def test_swap_cubes_with_both_cards_down_is_finished_by_the_cubes_the_camera_sees_swapped() -> None:
    state = play(start(), mv(ADAM, "place", slots=[5, 1]), mv(EVE, "place", slots=[2, 4]))
    state = play(state, mv(EVE, "half", card="2H"), mv(EVE, "half", card="3H"))  # as the readers read them
    assert state.laid == ("2H", "3H")
    slot1 = next(z for z in PLAN.layout(state.players) if z.name == "slot-1")
    payload = {**slot1.payload(), "state": {"cubes": [state.slot_cubes[1]]}}
    found = GAME.interpret_table(state, read_seen(Observation("camera", 7.0, ObservationKind.VISION, payload)))
    assert found == SwapCubes(by=EVE, cards=("2H", "3H"), slots=(2, 1), t=7.0) and GAME.judge(state, found).ok
    # With one card down the cubes moved are still unexplained: the move needs its second card.
    one = evolve(state, laid=("2H",), hands=(state.hands[0] | {"3H"}, state.hands[1]))
    assert isinstance(GAME.interpret_table(one, read_seen(Observation("camera", 7.0, ObservationKind.VISION, payload))), Unexplained)


def test_take_a_discard_with_several_cubes_waits_for_the_cube_the_camera_sees_paid(tmp_path: Path) -> None:
    table = placed(tmp_path)
    watch = PendingWatch(lambda: table.session, timeout_s=5.0)
    try:
        assert move_of(table.put("discard", "2H"))[:2] == ("half", True)
        assert move_of(table.put("discard", "3H"))[:2] == ("swap_cubes", True)
        held = table.board["scores"][ADAM]["control_cubes"]
        assert len(held) == 2 and table.board["turn"] == ADAM
        assert table.lift("discard", "3H").move is None  # the top discard lifted off the pile
        assert move_of(table.tap(f"hand-{ADAM}", "3H")) == ("lift", True, ())
        # the camera is slow to settle: the lift waits, and becomes one alert when left too long
        table.clock.t += 5.0
        (due,) = watch.look()
        assert due.zone == "discard" and "3H" in due.what and "Cube Pile" in due.fix
        deadline = time.monotonic() + 5
        while not table.session.board()["alerts"] and time.monotonic() < deadline:
            time.sleep(0.01)
        assert [a["zone"] for a in table.session.board()["alerts"]] == ["discard"]
        pile = table.board["cube_pile"]
        paid = view(table, "cube-pile", sorted([*pile, held[1]]))
        assert move_of(paid) == ("take_discard", True, ()) and paid.move is not None and paid.move["cube"] == held[1]
        assert view(table, f"cubes-{ADAM}", [held[0]]).move is None  # as the state has it now
        assert table.board["scores"][ADAM]["control_cubes"] == [held[0]] and "3H" in GAME.view(table.session.state, ADAM)["hand"]
        assert GAME.pending(table.session.state) == () and table.session.board()["alerts"] == []
    finally:
        table.close()


def test_the_top_discard_taken_out_of_turn_by_a_player_with_several_cubes_is_a_lift_refused_at_once(tmp_path: Path) -> None:
    table = placed(tmp_path)
    try:
        assert move_of(table.put("discard", "2H"))[:2] == ("half", True)
        assert move_of(table.put("discard", "3H"))[:2] == ("swap_cubes", True)
        assert table.board["turn"] == ADAM and len(table.board["scores"][EVE]["control_cubes"]) == 2
        assert table.lift("discard", "3H").move is None
        row = table.tap(f"hand-{EVE}", "3H")
        assert move_of(row) == ("lift", False, ("HM2-TURN",)) and row.alert is None
        assert row.verdict is not None and EVE in row.verdict["fix"]
        assert table.session.board()["alerts"] == [] and GAME.pending(table.session.state) == ()
        assert table.put("discard", "3H").move is None  # put back where it lies: nothing to do
        assert table.session.state.lifted is None and table.session.board()["alerts"] == []
    finally:
        table.close()
