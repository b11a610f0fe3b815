"""A call button wired to a reader array, end to end: the real firmware reads the simulated button
(hardware/sim/firmware.py) and writes a P frame down a pty; the real bridge reads it, and the table
model makes it a PRESS observation of the button's zone, as `companion serve` wires them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.app.config import ArrayConfig
from companion.app.readers import TableReaders
from companion.core import Observation, ObservationKind, Zone
from companion.core import zones as kinds
from companion.core.readers import ButtonPress
from companion.core.seen import read_press
from companion.core.zones import ZoneKind
from companion.table.model import TableModel
from hardware.sim.firmware_array import FirmwareArray
from tests.hardware.helpers import wait_until

CALL = ZoneKind("call_button")


class Cards:
    game = "test"

    def card_for(self, uid: str) -> str | None:
        return f"card-{uid[-2:]}"


@pytest.fixture
def array(tmp_path: Path) -> Iterator[FirmwareArray]:
    sim = FirmwareArray(2, kinds=["pile", "pad"], link=tmp_path / "array", heartbeat_ms=200, buttons=2)
    sim.plug()
    try:
        yield sim
    finally:
        sim.close()


def test_a_press_on_a_button_reaches_the_table_as_a_press_of_its_zone(array: FirmwareArray) -> None:
    zones = (
        Zone("hand-anna", kinds.HAND_PAD, player="anna", reader="array:east:1"),
        Zone("call-anna", CALL, player="anna", reader="button:east:1"),
    )
    seen: list[Observation] = []
    readers = TableReaders(zones, Cards(), seen.append, arrays={"east": ArrayConfig(array.port)})
    readers.start()
    try:
        wait_until(lambda: readers.health.status("array:east").get("rebuilds") == 1, what="the first listing")
        assert readers.health.status("button:east:1")["status"] == "ok"  # the button follows its link
        array.place(1, "0a1b2c3d4e5f60")
        array.press(1)
        array.press(0)  # a button no zone names: counted, not observed
        array.press(1)
        wait_until(lambda: len(seen) == 3, what="the tap and two presses")
        presses = [o for o in seen if o.kind is ObservationKind.PRESS]
        assert [o.source for o in presses] == ["button:east:1", "button:east:1"]
        first = read_press(presses[0])
        assert (first.zone.name, first.zone.player, first.zone.kind) == ("call-anna", "anna", "call_button")
        assert presses[0].table_time <= presses[1].table_time
        assert seen[0].kind is ObservationKind.TAG and seen[0].table_time <= presses[0].table_time
        wait_until(lambda: readers.health.status("button:east:0").get("unzoned") == 1, what="the stray press counted")
        assert readers.health.status("button:east:1").get("presses") == 2
    finally:
        readers.stop()


def test_the_table_model_turns_a_press_into_one_observation_and_ignores_unknown_buttons() -> None:
    seen: list[Observation] = []
    zone = Zone("call-ben", CALL, player="ben", reader="button:3")
    with TableModel([zone], Cards(), seen.append) as table:
        table.button_pressed(ButtonPress("button:3", 12.5))
        table.button_pressed(ButtonPress("button:4", 13.0))
    assert [(o.kind, o.table_time, o.payload["zone"]) for o in seen] == [(ObservationKind.PRESS, 12.5, "call-ben")]
