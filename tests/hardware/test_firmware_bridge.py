"""The real bridge reading frames the real firmware wrote: the firmware's own code polls simulated
chips (hardware/sim/field.py) in a thread and writes down a pty; the bridge, the table model and
their restart safety are the project's own, unchanged."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.core import Observation, Zone
from companion.core import zones as kinds
from companion.table.model import TableModel
from hardware.bridge import ArrayBridge
from hardware.health import Backoff, HealthBoard
from hardware.sim.firmware_array import FirmwareArray
from hardware.sim.pile_array import PileArray
from tests.hardware.helpers import wait_until

HEARTBEAT_MS = 200
PILE, PAD = 0, 1
CARDS = [f"04{n:02x}2230a1b2{n:02x}" for n in range(1, 9)]
ZONES = (Zone("pile-1", kinds.PILE, index=1, reader="array:0"), Zone("hand-anna", kinds.HAND_PAD, player="anna", reader="array:1"))


class Cards:
    game = "test"

    def card_for(self, uid: str) -> str | None:
        return f"card-{uid[-2:]}"


class Service:
    """What `companion serve` wires for an array: health, table model, bridge (restartable)."""

    def __init__(self, port: str) -> None:
        self.observations: list[Observation] = []
        self.health = HealthBoard()
        self.table = TableModel(ZONES, Cards(), self.observations.append, health=self.health, debounce_s=0.05)
        self.bridge = ArrayBridge(
            port,
            self.table.reader_event,
            self.health,
            backoff=Backoff(0.05, 0.2),
            on_state=self.table.resync,
            settle_s=0.5 * HEARTBEAT_MS / 1000,
        )
        self.bridge.start()

    def stop(self) -> None:
        self.bridge.stop()
        self.table.stop()

    def events(self) -> list[tuple[str, str, str]]:
        return [(o.payload["event"], o.payload["zone"], o.payload["uid"]) for o in self.observations]


@pytest.fixture
def array(tmp_path: Path) -> Iterator[FirmwareArray]:
    sim = FirmwareArray(2, kinds=["pile", "pad"], link=tmp_path / "array", heartbeat_ms=HEARTBEAT_MS)
    sim.plug()
    try:
        yield sim
    finally:
        sim.close()


def test_the_bridge_reads_the_firmwares_own_frames_for_a_growing_pile(array: FirmwareArray) -> None:
    service = Service(array.port)
    try:
        wait_until(lambda: service.health.count and service.bridge.frames > 0, what="frames from the firmware")
        wait_until(lambda: service.health.status("array").get("rebuilds") == 1, what="the first listing")
        for uid in CARDS[:6]:
            array.place(PILE, uid)
        array.place(PAD, CARDS[6])
        array.take(PAD, CARDS[6])
        wait_until(lambda: len(service.observations) == 8, what="six plays and a tap in and out")
        assert service.events() == [("arrive", "pile-1", uid) for uid in CARDS[:6]] + [
            ("arrive", "hand-anna", CARDS[6]),
            ("depart", "hand-anna", CARDS[6]),
        ]
        times = [o.table_time for o in service.observations]
        assert times == sorted(times) and times[-1] <= time.time()
        assert service.table.present("pile-1") == tuple(CARDS[:6])
        wait_until(lambda: 0 in service.bridge.stats and service.bridge.stats[0].polls > 0, what="the pile's stats")
    finally:
        service.stop()


def test_a_restarted_service_shows_the_cards_already_there_and_judges_no_stale_frame(array: FirmwareArray) -> None:
    first = Service(array.port)
    try:
        wait_until(lambda: first.health.status("array").get("rebuilds") == 1, what="the first listing")
        for uid in CARDS[:3]:
            array.place(PILE, uid)
        array.place(PAD, CARDS[3])
        wait_until(lambda: len(first.observations) == 4, what="the first service to see four cards")
    finally:
        first.stop()
    # While the service is down the array goes on: a card lands, one leaves; their frames (and
    # heartbeats with their listings) wait in the Pico's USB buffer, and go out when the port opens.
    array.hold_output()
    array.place(PILE, CARDS[4])
    array.take(PAD, CARDS[3])
    time.sleep(3 * HEARTBEAT_MS / 1000)
    second = Service(array.port)
    try:
        wait_until(lambda: second.health.status("array")["status"] == "ok", what="the port open again")
        opened_ms = array.ms
        array.hold_output(False)
        # (a wait, not a timed assertion: a loaded machine once took over 5 s to deliver the held frames)
        wait_until(lambda: second.table.present("pile-1") == tuple(CARDS[:3] + CARDS[4:5]), timeout=15.0, what="the pile rebuilt")
        # Rebuilt from a listing the array sent after the opening (its own clock), a few heartbeats
        # later at most (a loaded machine delays the simulated array's heartbeats).
        assert second.bridge.rebuilt_from_ms is not None
        assert opened_ms < second.bridge.rebuilt_from_ms <= opened_ms + 10 * HEARTBEAT_MS
        assert second.table.present("hand-anna") == ()
        assert second.observations == []  # nothing that happened before the restart is judged again
        assert second.bridge.stale == 2  # the arrival and the departure, held in the device: not judged
        array.place(PILE, CARDS[5])  # and what happens now is
        wait_until(lambda: len(second.observations) == 1, what="a play after the restart")
        assert second.events() == [("arrive", "pile-1", CARDS[5])]
    finally:
        second.stop()


def test_frames_lost_on_a_running_link_are_caught_up_from_the_next_listing(array: FirmwareArray) -> None:
    service = Service(array.port)
    try:
        wait_until(lambda: service.health.status("array").get("rebuilds") == 1, what="the first listing")
        array.lose_next(1)  # the arrival's line is lost on the cable
        array.place(PILE, CARDS[0])
        array.place(PILE, CARDS[1])
        wait_until(lambda: len(service.observations) == 2, what="the missed arrival delivered from the listing")
        assert sorted(service.events()) == [("arrive", "pile-1", CARDS[0]), ("arrive", "pile-1", CARDS[1])]
        assert service.health.status("array")["gaps"] >= 1
    finally:
        service.stop()


def test_the_port_is_opened_exclusively(array: FirmwareArray) -> None:
    service = Service(array.port)
    health = HealthBoard()
    other = ArrayBridge(array.port, lambda e: None, health, backoff=Backoff(0.05, 0.1))
    try:
        wait_until(lambda: service.health.status("array")["status"] == "ok", what="the service to open the port")
        other.start()
        wait_until(lambda: "cannot open" in str(health.status("array")["detail"]), what="the second opener refused")
    finally:
        other.stop()
        service.stop()


def test_table_time_follows_a_system_clock_step(array: FirmwareArray) -> None:
    offset = [0.0]
    lock = threading.Lock()

    def clock() -> float:
        with lock:
            return time.time() + offset[0]

    observations: list[Observation] = []
    health = HealthBoard()
    table = TableModel(ZONES, Cards(), observations.append, debounce_s=0.05)
    bridge = ArrayBridge(array.port, table.reader_event, health, clock=clock, on_state=table.resync)
    bridge.start()
    try:
        wait_until(lambda: health.status("array").get("rebuilds") == 1, what="the first listing")
        with lock:
            offset[0] = 3600.0  # NTP sets the clock of a Pi that booted with none
        time.sleep(2 * HEARTBEAT_MS / 1000)
        array.place(PILE, CARDS[0])
        wait_until(lambda: len(observations) == 1, what="a play after the step")
        assert abs(observations[0].table_time - clock()) < 1.0
    finally:
        bridge.stop()
        table.stop()


def test_the_bridge_reads_an_iso15693_piles_8_byte_uids_from_the_firmwares_own_frames(tmp_path: Path) -> None:
    slix = [f"e0040108{n:02x}a1b2{n:02x}" for n in range(1, 5)]
    sim = PileArray(["vpile", "pad"], link=tmp_path / "array")
    sim.plug()
    service = Service(sim.port)
    try:
        wait_until(lambda: service.health.status("array").get("rebuilds") == 1, timeout=10.0, what="the first listing")
        for uid in slix[:3]:
            sim.place(PILE, uid)
            time.sleep(0.3)
        wait_until(lambda: len(service.observations) == 3, timeout=10.0, what="three cards on the pile")
        sim.take(PILE, slix[1])
        wait_until(lambda: len(service.observations) == 4, timeout=10.0, what="the card taken to depart")
        assert service.events() == [("arrive", "pile-1", uid) for uid in slix[:3]] + [("depart", "pile-1", slix[1])]
        assert service.table.present("pile-1") == (slix[0], slix[2])
    finally:
        service.stop()
        sim.close()
